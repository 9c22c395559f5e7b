"""``mittens play`` and the Twitch Plays command parser, through the command line."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from cli_helpers import GOLDEN, check_golden, run_cli, run_process
from engine_helpers import ALL_ACTIONS
from hypothesis import given
from hypothesis import strategies as st

from defuser.commands import play as play_command
from defuser.engine.actions import Action, ActionKind
from defuser.engine.game import GameSession
from defuser.engine.generate import build_edgework
from defuser.engine.simulator import Module
from defuser.errors import InvalidCommandError
from defuser.logs.reader import bomb_lines
from defuser.terminal.app import Application
from defuser.terminal.game_view import batteries_words
from edgework import Edgework

GOLDEN_EDGE = "3B 2H // *FRK // KT4RE7"
GOLDEN_SCRIPT = GOLDEN / "play" / "seed2.commands"


def frozen() -> Application:
    """A run whose clock (the one ``mittens play`` gives its session) stands still:
    elapsed time always 0:00, so transcripts are reproducible."""
    return Application(clock=lambda: 1000.0)


# ------------------------------------------------------------------ the parser


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("draw", Action(ActionKind.DRAW)),
        ("DRAW", Action(ActionKind.DRAW)),
        ("  Discard  ", Action(ActionKind.DISCARD)),
        ("play 1", Action(ActionKind.PLAY, 1)),
        ("PLAY   3", Action(ActionKind.PLAY, 3)),
        ("!1 play 2", Action(ActionKind.PLAY, 2)),
        ("!12   draw", Action(ActionKind.DRAW)),
        ("\tplay 2\n", Action(ActionKind.PLAY, 2)),
    ],
)
def test_parse_accepts_twitch_plays_commands(text: str, expected: Action) -> None:
    assert Action.parse(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "   ", "play", "play 0", "play 4", "play -1", "play x", "play 1 2", "draw 1",
     "discard now", "hello", "!1", "! play 1", "play1", "!1play 2"],
)
def test_parse_refuses_with_an_error(text: str) -> None:
    with pytest.raises(InvalidCommandError) as info:
        Action.parse(text)
    assert repr(text.strip()) in str(info.value) or repr(text) in str(info.value)


def test_every_action_round_trips() -> None:
    for action in ALL_ACTIONS:
        assert Action.parse(str(action)) == action
    assert [str(a) for a in ALL_ACTIONS] == ["draw", "discard", "play 1", "play 2", "play 3"]


@given(
    action=st.sampled_from(ALL_ACTIONS),
    prefix=st.sampled_from(["", "!1 ", "!7  "]),
    pad=st.text(alphabet=" \t", max_size=3),
    data=st.data(),
)
def test_parse_forgives_case_and_spaces(
    action: Action, prefix: str, pad: str, data: st.DataObject
) -> None:
    text = str(action).replace(" ", " " + pad)
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    text = "".join(c.upper() if f else c for c, f in zip(text, flips, strict=True))
    assert Action.parse(pad + prefix + text + pad) == action


def test_action_rejects_bad_slots() -> None:
    with pytest.raises(InvalidCommandError):
        Action(ActionKind.PLAY, 4)
    with pytest.raises(InvalidCommandError):
        Action(ActionKind.PLAY)
    with pytest.raises(InvalidCommandError):
        Action(ActionKind.DRAW, 1)


# ------------------------------------------------------------------ scripted games


def expected_log(edge_text: str, seed: int, commands: list[str]) -> list[str]:
    """The log the library writes for this edge, seed and command lines."""
    edge = build_edgework(Edgework.parse(edge_text), seed)
    module = Module.from_edgework(edge, seed)
    for line in commands:
        try:
            action = Action.parse(line)
        except InvalidCommandError:
            continue
        module.act(action)
        if module.solved:
            break
    return module.log


def test_golden_game_log_and_transcript(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.log"
    script = GOLDEN_SCRIPT.read_text(encoding="utf-8")
    run = run_cli(
        ["play", "--edgework", GOLDEN_EDGE, "--seed", "2", "--strikes", "0", "--log", str(log)],
        monkeypatch,
        stdin=script,
        app=frozen(),
    )
    assert run.code == 0
    check_golden("play/seed2.log", log.read_text(encoding="utf-8"))
    check_golden("play/seed2.transcript.txt", run.out)
    assert run.err.count("error:") == 2  # "play 4" and "hello" were skipped
    assert "Module solved!" in run.out
    text = log.read_text(encoding="utf-8")
    assert text.endswith("Module solved!\n")
    # The bomb's edgework lines, as the game writes them, then the module's own lines.
    edge = build_edgework(Edgework.parse(GOLDEN_EDGE), 2)
    header = bomb_lines(2, edge)
    assert text.splitlines()[: len(header)] == header
    assert text.splitlines()[len(header) :] == expected_log(GOLDEN_EDGE, 2, script.splitlines())


def test_brief_example_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "game.log"
    run = run_cli(["play", "--seed", "7", "--log", str(log)], monkeypatch, stdin="draw\nplay 1\n")
    assert run.code == 0, run.err
    assert "seed 7" in run.out
    assert "serial " in run.out and "batter" in run.out
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "[BombGenerator] Generating bomb with seed 7"
    lines = [line for line in lines if line.startswith("[Exploding Mittens #1]")]
    assert lines[0].startswith("[Exploding Mittens #1] You should use Table ")
    assert len(lines) >= 7
    # The same seed and commands give the same game again.
    again = tmp_path / "again.log"
    run_cli(["play", "--seed", "7", "--log", str(again)], monkeypatch, stdin="draw\nplay 1\n")
    assert again.read_text(encoding="utf-8") == log.read_text(encoding="utf-8")


def test_piped_script_saved_with_a_bom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A script saved as "UTF-8 with BOM" plays its first command like the others.
    plain, bom = tmp_path / "plain.log", tmp_path / "bom.log"
    args = ["play", "--seed", "7", "--serial", "AB3CD4", "--batteries", "3", "--log"]
    run_cli([*args, str(plain)], monkeypatch, stdin="discard\nplay 1\n")
    run = run_cli([*args, str(bom)], monkeypatch, stdin="\ufeffdiscard\nplay 1\n")
    assert "error" not in run.err
    assert bom.read_text(encoding="utf-8") == plain.read_text(encoding="utf-8")
    assert len(bom.read_text(encoding="utf-8").splitlines()) > 6


def test_random_seed_is_printed_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tmp_path / "first.log"
    run = run_cli(["play", "--log", str(first)], monkeypatch, stdin="discard\ndraw\n")
    match = re.search(r"seed (\d+)", run.out)
    assert match is not None
    second = tmp_path / "second.log"
    run_cli(
        ["play", "--seed", match.group(1), "--log", str(second)],
        monkeypatch,
        stdin="discard\ndraw\n",
    )
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")


def test_bomb_explodes_at_the_strike_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "boom.log"
    # Three cards in hand: every draw strikes ("Your hand was full.").
    run = run_cli(
        ["play", "--serial", "AB3CD4", "--batteries", "2", "--seed", "5", "--log", str(log),
         "--strikes", "2"],
        monkeypatch,
        stdin="draw\ndraw\ndraw\ndraw\n",
    )
    assert run.code == 0
    assert "exploded at 2 strikes" in run.out
    strikes = [x for x in log.read_text(encoding="utf-8").splitlines() if "Strike!" in x]
    assert len(strikes) == 2


def test_zero_strike_limit_never_explodes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "many.log"
    run = run_cli(
        ["play", "--serial", "AB3CD4", "--batteries", "2", "--seed", "5", "--log", str(log),
         "--strikes", "0"],
        monkeypatch,
        stdin="draw\n" * 12,
    )
    assert run.code == 0
    assert "exploded" not in run.out
    assert log.read_text(encoding="utf-8").count("Your hand was full. Strike!") == 12
    assert "End of input" in run.out


def test_game_stops_at_the_solve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = GOLDEN_SCRIPT.read_text(encoding="utf-8") + "draw\ndiscard\nplay 1\n"
    log = tmp_path / "solved.log"
    run = run_cli(
        ["play", "--edgework", GOLDEN_EDGE, "--seed", "2", "--strikes", "0", "--log", str(log)],
        monkeypatch,
        stdin=script,
    )
    assert run.code == 0
    assert log.read_text(encoding="utf-8").endswith("Module solved!\n")
    assert run.out.rstrip().splitlines()[-2] == "Module solved!"


def test_strike_explains_rule_and_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(
        ["play", "--edgework", GOLDEN_EDGE, "--seed", "2", "--strikes", "0"],
        monkeypatch,
        stdin="draw\nplay 2\ndiscard\n",
    )
    assert "hand already holds 3 cards" in run.out
    assert "slot 2 (BT blue triangle) is not legal under rule B" in run.out
    assert "legal now: slot 1 (GH green heart)" in run.out
    assert "you could still play slot 1 (GH green heart)" in run.out
    assert run.out.count("rule B is in force") == 3


def test_quit_and_help(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["play", "--seed", "3"], monkeypatch, stdin="help\nquit\ndraw\n")
    assert run.code == 0
    assert "play <1-3>" in run.out
    assert "Game stopped." in run.out
    assert "draw:" not in run.out


def test_json_mode_prints_one_object_per_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "json.log"
    run = run_cli(
        ["play", "--edgework", GOLDEN_EDGE, "--seed", "2", "--json", "--log", str(log)],
        monkeypatch,
        stdin="draw\nplay 9\nplay 1\n",
    )
    assert run.code == 0
    objects = [json.loads(x) for x in run.out.splitlines()]
    assert [o.get("event") for o in objects] == ["start", None, None, None, "end"]
    start, strike, refused, played, end = objects
    assert start["seed"] == 2 and start["serial"] == "KT4RE7" and start["batteries"] == 3
    assert start["state"]["hand"] == ["GH", "BT", "BC"]
    assert strike["outcome"] == "strike" and strike["strike"] == "hand-full"
    assert "error" in refused
    assert played["outcome"] == "ok" and played["card"] == "GH"
    assert played["state"]["discard"] == "GH" and played["state"]["hand"] == ["BT", "BC"]
    assert played["log"] == log.read_text(encoding="utf-8").splitlines()[-2:]
    assert end["reason"] == "end" and end["strikes"] == 1


def test_edge_shows_batteries_as_holders(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(
        ["play", "--serial", "AB3CD4", "--batteries", "5B 3H", "--seed", "1"], monkeypatch
    )
    assert "serial AB3CD4 · 5 batteries in 3 holders (2 AA, 1 D)" in run.out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--serial", "ABCDEF"], "--serial"),
        (["--batteries", "lots"], "batteries"),
        (["--strikes", "-1"], "--strikes"),
        (["--seed", "x"], "--seed"),
        (["--log", "/nonexistent-dir/x/game.log"], "game.log"),
    ],
)
def test_bad_options_fail_cleanly(
    args: list[str], needle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["play", *args], monkeypatch, stdin="draw\n")
    assert run.code != 0
    assert needle in run.err
    assert "Traceback" not in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_pipe_through_the_real_console_script(tmp_path: Path) -> None:
    """The brief's own example, as a user runs it: a pipe into the installed script."""
    log = tmp_path / "game.log"
    proc = run_process(["play", "--seed", "7", "--log", str(log)], b"draw\nplay 1\n",
                       env={"NO_COLOR": None}).text
    assert proc.code == 0, proc.err
    assert "\x1b[" not in proc.out  # no colour on a pipe
    assert ">" not in proc.out.split("\n")[0]  # no prompt
    assert log.read_text(encoding="utf-8").count("\n") >= 7


def test_edgework_without_batteries_leaves_them_to_the_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No battery part gives no count, as --batteries left out (issue 24, item 11)."""
    edge = build_edgework(Edgework.parse("KT4RE7"), 1)
    assert edge.batteries is not None
    for options in (["--edgework", "*FRK // KT4RE7"], ["--serial", "KT4RE7"]):
        run = run_cli(["play", *options, "--seed", "1"], monkeypatch)
        assert f"serial KT4RE7 · {batteries_words(edge.batteries)}" in run.out


def test_vanilla_edgework_generation_is_seeded() -> None:
    edges = {str(build_edgework(Edgework(), seed)) for seed in range(50)}
    assert len(edges) > 40
    assert build_edgework(Edgework(), 9) == build_edgework(Edgework(), 9)


def test_docs_transcripts_are_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/play.md shows real output of these exact commands."""
    doc = (Path(__file__).parents[2] / "docs" / "play.md").read_text(encoding="utf-8")
    edge = ["--serial", "KT4RE7", "--batteries", "3B 2H", "--seed", "2"]
    log = tmp_path / "game.log"
    script = "draw\nplay 1\nplay 1\ndraw\ndraw\nplay 2\n"
    run = run_cli(["play", *edge, "--log", str(log)], monkeypatch, stdin=script, app=frozen())
    assert run.out in doc
    assert log.read_text(encoding="utf-8") in doc
    run = run_cli(["play", *edge, "--json"], monkeypatch, stdin="draw\nplay 1\nplay 5\n",
                  app=frozen())
    assert run.out in doc


# ------------------------------------------------------------------ the bomb timer


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def timed_game(json_mode: bool) -> tuple[play_command.TerminalGame, FakeClock]:
    clock = FakeClock()
    edge = Edgework.parse("3B 2H // AB3CD4")
    session = GameSession(Module.from_edgework(edge, 7), clock=clock, time_limit=60.0)
    game = play_command.TerminalGame(session, edge, Application(json_mode=json_mode),
                                     colour=False, json_mode=json_mode, log_file=None)
    return game, clock


def test_the_timer_speeds_up_after_a_strike_and_runs_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game, clock = timed_game(json_mode=False)
    game.start(7)
    assert "Strikes: 0/3 · time 0:00 · timer 1:00 left" in capsys.readouterr().out
    clock.now += 10.0
    # Seed 7 with this edge: discarding first is a strike (discard blocked).
    assert game.command("discard")
    out = capsys.readouterr().out
    assert "discard: STRIKE 1 (discard-blocked)." in out
    assert "Strikes: 1/3 · time 0:10 · timer 0:50 left (running 1.25x)" in out
    clock.now += 40.0  # 50 s of bomb time at 1.25x
    assert not game.command("draw")
    out = capsys.readouterr().out
    assert out.splitlines() == ["BOOM! The time ran out.",
                                "1 action, 1 strike, 0 cards dealt, time 0:50."]


def test_the_timer_running_out_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    game, clock = timed_game(json_mode=True)
    game.start(7)
    start = json.loads(capsys.readouterr().out)
    assert start["time_limit"] == 60.0 and start["strike_limit"] == 3
    clock.now += 61.0
    assert not game.command("draw")
    [end] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert end == {"event": "end", "reason": "timeout", "actions": 0, "strikes": 0,
                   "deals": 0, "solved": False, "seconds": 61.0}
    assert game.session.module.clicks == 0  # the late click was not made


def test_the_command_runs_the_game_on_the_applications_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``mittens play`` hands its session the run's clock (no module clock to patch):
    a clock 61 s later once the first line was read ends a 60 s game before its click."""

    def clock() -> float:
        return 1061.0 if sys.stdin.tell() > 0 else 1000.0

    run = run_cli(["play", "--edgework", "3B 2H // AB3CD4", "--seed", "7", "--time", "60",
                   "--json"], monkeypatch, stdin="draw\n", app=Application(clock=clock))
    end = json.loads(run.out.splitlines()[-1])
    assert end["reason"] == "timeout" and end["seconds"] == 61.0 and end["actions"] == 0
