"""``mittens live``: golden transcripts of the JSON protocol and the human mode, the
protocol's exact keys, rejected lines changing nothing, and a real pipe."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import check_golden, run_cli, run_cli_bytes, start_process
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_sizes import examples

from defuser.apps.live_session import LiveSession
from defuser.engine.actions import Action
from defuser.engine.simulator import Module, Outcome, Result
from edgework import Batteries, Card, Edgework, SerialNumber

KEYS = {
    "ok",
    "error",
    "state",
    "legal_slots",
    "discard_allowed",
    "draw_safe",
    "mitten",
    "recommendation",
}


def _event(result: Result) -> str:
    action = result.action
    if result.outcome is Outcome.SOLVED:
        return "solved"
    if result.outcome is Outcome.STRIKE:
        return f"strike {action}"
    assert result.card is not None or action.slot is not None
    if str(action) == "draw":
        assert result.card is not None
        return f"drew {result.card.code}"
    if str(action) == "discard":
        assert result.card is not None
        return f"discarded {result.card.words}"  # words work as well as codes
    return f"played {action.slot}"


def _followed_game(seed: int) -> list[str]:
    """The lines an expert types while following the advice on a seeded module."""
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    module = Module.from_edgework(Edgework(SerialNumber.parse("AB3CD4"), Batteries(3)), seed)
    opening = " ".join(c.code for c in (module.discard_top, *module.hand))
    lines = [f"start {opening}"]
    reply = session.handle(lines[0])
    while reply.recommendation.action is not None:
        result = module.act(Action.parse(str(reply.recommendation.action)))
        lines.append(_event(result))
        reply = session.handle(lines[-1])
    assert module.solved and module.strikes == 0
    return lines


def _transcript(lines: list[str], out: str) -> str:
    replies = out.splitlines()
    assert len(replies) == len(lines)
    return "".join(f"> {line}\n{reply}\n" for line, reply in zip(lines, replies, strict=True))


@pytest.mark.parametrize("seed", [3, 11])
def test_json_transcript_of_a_followed_game_is_golden(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _followed_game(seed)
    run = run_cli(
        ["live", "--serial", "AB3CD4", "--batteries", "3", "--json"],
        monkeypatch,
        stdin="\n".join(lines) + "\n",
    )
    assert run.code == 0, run.err
    for reply in map(json.loads, run.out.splitlines()):
        assert set(reply) == KEYS and reply["ok"], reply
    last = json.loads(run.out.splitlines()[-1])
    assert last["recommendation"]["action"] == "none"
    check_golden(f"live/game_seed{seed}.txt", _transcript(lines, run.out))


ROUGH_SESSION = [
    "state",
    "drew GS",
    "serial AB3CD4",
    "BATTERIES 3",
    "start RC BH GS YT",
    "Start yellow square red circle blue heart green triangle",
    "discarded RC",
    "played 3",
    "strike play 1",
    "drew BS",
    "strike discard",
    "undo",
    "undo",
    "played 2",
    "played 1",
    "drew GT",
    "drew RS",
    "drew BC",
    "drew RC",
    "strike draw",
    "discarded RH",
    "solved",
    "edgework \"2B 1H // *FRK // [Serial] // KZ5LG5\"",
    "start GT YC RC",
    "wibble",
    "",
    "help",
    "quit",
    "state",
]


def test_json_transcript_of_a_rough_session_is_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["live", "--json"], monkeypatch, stdin="\n".join(ROUGH_SESSION) + "\n")
    assert run.code == 0, run.err
    lines = ROUGH_SESSION[: ROUGH_SESSION.index("quit") + 1]  # nothing is read after quit
    check_golden("live/rough_session.txt", _transcript(lines, run.out))
    assert "Commands" in run.err  # help goes to stderr, the JSON object to stdout


def test_human_transcript_is_golden(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _followed_game(3)
    run = run_cli(
        ["live", "--edgework", "3B 2H // AB3CD4"], monkeypatch, stdin="\n".join(lines) + "\n"
    )
    assert run.code == 0, run.err
    check_golden("live/game_seed3_human.txt", run.out)


def test_each_human_answer_is_one_or_two_lines() -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    for line in [*_followed_game(11), "bogus", "state", "undo"]:
        assert 1 <= len(session.handle(line).lines()) <= 2


def _snapshot(reply: dict[str, Any]) -> tuple[Any, ...]:
    return (reply["state"], reply["legal_slots"], reply["mitten"], reply["recommendation"])


@settings(max_examples=examples(60), deadline=None)
@given(
    junk=st.lists(
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(["drew", "played", "strike", "solved", "start", "discarded"]).flatmap(
                lambda verb: st.text(alphabet="123RGBYCHTS ", max_size=8).map(
                    lambda rest: f"{verb} {rest}"
                )
            ),
        ),
        max_size=8,
    )
)
def test_any_line_gets_one_well_formed_reply_and_rejections_change_nothing(
    junk: list[str],
) -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    before = session.handle("start RC BH GS YT").to_json()
    for line in junk:
        reply = session.handle(line)
        data = reply.to_json()
        assert set(data) == KEYS
        assert set(data["mitten"]) == {"known", "on_top_probability", "deals_until_on_top"}
        assert set(data["recommendation"]) == {
            "action",
            "slot",
            "command",
            "reason",
            "expected_clicks",
        }
        json.dumps(data)
        if not data["ok"]:
            assert data["error"]
            assert _snapshot(data) == _snapshot(before)
        before = data


def test_a_pipe_gets_each_answer_before_the_next_line() -> None:
    proc = start_process(["live", "--json", "--serial", "AB3CD4"], text=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        replies = []
        for line in ["batteries 3", "start RC BH GS YT", "played 1", "nonsense"]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            replies.append(json.loads(proc.stdout.readline()))
        assert [r["ok"] for r in replies] == [True, True, True, False]
        assert replies[1]["state"] == {"discard": "RC", "hand": ["BH", "GS", "YT"]}
        assert replies[2]["state"] == {"discard": "BH", "hand": ["GS", "YT"]}
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        proc.stdout.close()


def test_bad_options_are_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["live", "--serial", "AB3CD", "--json"], monkeypatch)
    assert run.code == 2 and run.err.count("\n") == 1 and "serial" in run.err
    run = run_cli(["live", "--serial", "AB3CD4", "--edgework", "3B // AB3CD4"], monkeypatch)
    assert run.code == 2


def test_followed_games_never_strike_over_many_seeds() -> None:
    rng = random.Random(5)
    for _ in range(20):
        _followed_game(rng.randrange(10**6))


def test_cards_by_words_and_slots_by_card() -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    session.handle("start red circle, blue heart, green square, yellow triangle")
    obs = session.observation
    assert obs is not None and obs.discard == Card.parse("RC")
    legal = obs.legal_slots
    assert legal
    card = obs.hand[legal[0] - 1]
    reply = session.handle(f"played {card.words}")
    assert reply.ok and session.observation is not None
    assert session.observation.discard == card


def test_docs_transcript_is_what_the_session_answers() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "live.md"
    text = docs.read_text(encoding="utf-8")
    human = text.split("## Human mode", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    typed = [line[2:] for line in human.splitlines() if line.startswith("> ")]
    answers = [line for line in human.splitlines() if not line.startswith("> ")]
    assert typed == _followed_game(3)
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    want = [out for line in typed for out in session.handle(line).lines()]
    assert answers == want


def test_garbled_bytes_get_an_error_answer_not_a_crash() -> None:
    done = run_cli_bytes(["live", "--json"], b"\xff\xfe oops\nserial AB3CD4\n")
    assert done.code == 0, done.err
    replies = [json.loads(line) for line in done.out.decode("utf-8").splitlines()]
    assert [r["ok"] for r in replies] == [False, True]
    assert "not known" in replies[0]["error"]


def test_a_tab_separates_the_verb_like_a_space() -> None:
    # A harness that writes "played\t3" meant the same as "played 3"; it used to be
    # rejected as an unknown command, so a tab-separated report of a real play was lost.
    spaced = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    tabbed = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    for line in ("start YC YT GT GC", "played 3", "discarded blue triangle"):
        want = spaced.handle(line)
        got = tabbed.handle(line.replace(" ", "\t", 1))
        assert want.ok and got.ok, got.error
        assert got.to_json() == want.to_json()


def test_only_a_bare_quit_ends_the_session() -> None:
    # Binary garbage such as b"Q\r\x8a..." reads as the verb "q" plus junk; it used to
    # end a piped session mid-game. Only the bare word quits; anything after it is a
    # rejected line that changes nothing.
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    before = session.handle("start YC YT GT GC")
    for line in ("Q\r\ufffd&\ufffd", "quit now", "exit 1", "q\tq"):
        reply = session.handle(line)
        assert not reply.ok and not reply.quit, line
        assert reply.to_json()["state"] == before.to_json()["state"]
    assert session.handle("  QUIT ").quit


def test_non_ascii_input_never_crashes_an_ascii_stdout() -> None:
    # The error answer echoes the line; on a stdout that cannot encode it (an ASCII or
    # legacy code page pipe) the JSON writer used to die with UnicodeEncodeError and a
    # traceback. It now falls back to JSON's \u escapes: the same object.
    done = run_cli_bytes(
        ["live", "--json"],
        "serial AB3CD4\nbatteries 3\nstart YC YT GT GC\ndrew é\n".encode() + b"\xff\n",
        encoding="ascii",
    )
    assert done.code == 0, done.err
    replies = [json.loads(line) for line in done.out.decode("ascii").splitlines()]
    assert [r["ok"] for r in replies] == [True, True, True, False, False]
    assert "é" in replies[3]["error"]
    assert replies[4]["state"] == replies[2]["state"]


def test_another_battery_count_keeps_the_module_and_undo_brings_the_old_one_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """3 and 8 batteries both give N = 12: a correction replays every reported line (the
    module is where it was), and undo restores the old count with the same lines."""
    stdin = "start RC BH GS YT\nbatteries 8\nstate\nbatteries 8\nundo\nstate\n"
    run = run_cli(["live", "--serial", "AB3CD4", "--batteries", "3", "--json"], monkeypatch, stdin)
    replies = [json.loads(line) for line in run.out.splitlines()]
    assert replies[0]["recommendation"]["action"] == "play"
    assert replies[1]["state"] == replies[0]["state"] == {"discard": "RC",
                                                          "hand": ["BH", "GS", "YT"]}
    assert replies[1]["recommendation"] == replies[0]["recommendation"]
    assert replies[3]["ok"] is True
    assert replies[4]["state"] == replies[0]["state"]


def test_a_battery_correction_replays_every_reported_event_and_undo_restores() -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    for line in ("start YC YT GT GC", "p3", "d BT", "disc RS", "strike draw"):
        assert session.handle(line).ok, line
    before = session.state()
    reply = session.handle("batteries 4")
    assert reply.ok and "5 reported lines replayed" in reply.note
    assert session.state()["module"] == before["module"]
    assert session.state()["batteries"] == "4B"
    assert session.observation is not None and session.observation.belief.interval == 13
    assert session.observation.strikes == 1 and session.observation.clicks == 4
    undone = session.handle("undo")
    assert undone.note.startswith("undid 'batteries 4'; now discard RS")
    assert session.state() == before
    assert session.handle("undo").note.startswith("undid 'strike draw'")


def test_a_correction_drops_only_the_lines_that_no_longer_fit() -> None:
    """On Table D (serial XZ3CD4) YT and GT are legal on GC, so the reported discard no
    longer fits: it and the lines after it are dropped, the lines before it kept."""
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    for line in ("start YC YT GT GC", "played 3", "discarded BT", "discarded RH"):
        assert session.handle(line).ok, line
    kept = session.state()
    reply = session.handle("serial XZ3CD4")
    assert reply.ok, reply.error
    assert "replayed 2 reported lines; 'discarded BT' no longer fits" in reply.note
    assert "the 1 line after it were dropped ('undo' brings them back)" in reply.note
    assert session.state()["module"] == ["start YC YT GT GC", "played 3"]
    assert session.handle("undo").ok and session.state() == kept


def test_short_forms_are_read_as_play_and_the_board_read_them() -> None:
    """One parser for every front end: p3, played3, 3, d BT, disc BT, dr GS, strike dr."""
    longhand = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    short = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    pairs = [
        ("start YC YT GT GC", "start YC YT GT GC"), ("played 3", "p3"),
        ("discarded BT", "disc BT"), ("discarded RS", "d RS"), ("played 1", "played1"),
        ("discarded YT", "dis YT"), ("strike draw", "strike dr"), ("undo", "undo"),
        ("discarded yellow heart", "d yellow heart"), ("played 1", "1"),
    ]
    for long_line, short_line in pairs:
        a, b = longhand.handle(long_line), short.handle(short_line)
        assert a.ok and b.ok, (long_line, a.error, short_line, b.error)
        assert a.to_json() == b.to_json()
    assert longhand.state() == short.state()
    assert short.handle("!7 dr YT").ok and short.twitch == "7"


def test_undo_strike_and_solve_say_what_can_be_typed() -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    strike = session.handle("strike")
    assert not strike.ok and strike.error is not None
    assert strike.error.startswith("strike needs the click that struck: 'strike draw'")
    assert "''" not in strike.error
    assert session.handle("undo").error == "there is nothing to undo"
    assert session.handle("start YC YT GT GC").ok
    assert session.handle("undo").note == "undid 'start YC YT GT GC'; now serial AB3CD4: " \
        "Table B, last digit 4; 3 batteries: N=12"
    for line in _followed_game(3):
        last = session.handle(line)
    assert last.note.startswith("Solved in 21 clicks. Next: 'start <discard> <hand cards>'")
    assert "'undo'" in last.note and "'quit'" in last.note


def test_the_twitch_code_makes_the_advice_a_chat_command() -> None:
    from defuser.terminal.live_view import screen_reply

    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    session.handle("start YC YT GT GC")
    assert session.handle("twitch 7").note.startswith("Twitch Plays module 7")
    reply = session.handle("state")
    assert reply.chat_command == "!7 play 3"
    assert reply.lines()[1].startswith("!7 play 3 (GC): ")
    assert any("!7 play 3" in str(getattr(item, "plain", "")) for item in screen_reply(reply))
    assert session.handle("twitch em").ok and session.handle("state").chat_command == "!EM play 3"
    assert not session.handle("twitch 7-").ok
    assert LiveSession.from_state(session.state()).twitch == "EM"
    assert session.handle("twitch off").ok and session.handle("state").chat_command is None
    assert session.handle("undo").ok and session.twitch == "EM"


def test_the_session_state_is_json_and_rebuilds_the_very_same_session() -> None:
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries.parse("3B 2H"))
    for line in ("start RC BH GS YT", "played 2", "strike draw", "undo", "Drew  gs"):
        session.handle(line)
    state = json.loads(json.dumps(session.state()))
    assert state["batteries"] == "3B 2H" and state["module"][0] == "start RC BH GS YT"
    again = LiveSession.from_state(state)
    assert again.state() == state
    assert again.handle("state").to_json() == session.handle("state").to_json()
    assert again.handle("state").note == session.handle("state").note
    # A change of edgework is a correction: the module's lines are replayed on it.
    session.handle("batteries 4")
    assert session.state()["module"] == state["module"]
    session.handle("undo")
    assert session.state() == state


def test_an_error_carries_its_cause_and_the_front_end_words_it() -> None:
    from defuser.terminal.live_view import worded

    reply = LiveSession().handle("serial A1B2C3")
    assert not reply.ok and reply.cause is not None
    assert reply.error is not None and "--lenient-serial" not in reply.error
    shown = worded(reply).error
    # Typed in the session: the session's own way, not the command line's option.
    assert shown == reply.error and shown.endswith("type 'serial A1B2C3 lenient'")
    lenient = LiveSession()
    assert lenient.handle("serial A1B2C3 lenient").ok and lenient.lenient
    assert lenient.serial is not None and lenient.serial.text == "A1B2C3"
    start = LiveSession(SerialNumber.parse("AB3CD4"), Batteries.parse("3")).handle("drew GS")
    assert start.error == worded(start).error and start.error is not None
    assert start.error.endswith("(start <discard> <hand cards>)")
