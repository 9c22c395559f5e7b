"""``mittens live --follow``: advice from the game's own log while it is written.

The logs here are our own: simulated modules (the simulator writes the module's log
lines) wrapped in KTaNE's log format by :mod:`gamelog_builder`. A writer appends them
in pieces, one whenever the follower waits (its injected sleep: no thread, no real
wait), and truncates or replaces the file on the way.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from gamelog_builder import BombSpec, game_log, simulated_messages, simulated_module

from defuser.apps.follow.advice import Advice, Moved, Started
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.following import FollowNotice, LogFollowing, poll_log
from defuser.apps.follow.tail import LogTail, Missing, Restart, TailRead, Unreadable
from defuser.apps.tracking import ClickKind, LoggedClick
from defuser.dashboard.follow_words import advice_json, event_words, missing_words
from defuser.engine import modlog
from defuser.engine.simulator import Outcome
from defuser.terminal.follow_view import follow_header, notice_words
from edgework import SerialNumber


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8").splitlines()


def _comparable(advice: list[Advice]) -> list[tuple[Any, ...]]:
    """What the defuser is told, without the line numbers (which deletions shift)."""
    out = []
    for a in advice:
        obj = a.to_json()
        del obj["line"]
        out.append(tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in obj.items())))
    return out


def _two_bomb_log(seed: int = 0, mission: bool = False) -> bytes:
    bombs = [
        BombSpec("AB3CD4", [2, 1], {
            1: simulated_messages("AB3CD4", [2, 1], 5, 1),
            2: simulated_messages("AB3CD4", [2, 1], 6, 2),
        }, seed=11),
        BombSpec("KZ5LG7", [2, 2, 1], {
            3: simulated_messages("KZ5LG7", [2, 2, 1], 7, 3),
        }, seed=12),
    ]
    return game_log(bombs, seed=seed, mission=mission).data


def test_a_module_followed_through_its_own_log_is_solved_without_a_strike() -> None:
    # Closed loop: the defuser clicks exactly what the follower advises from the log.
    module = simulated_module("AB3CD4", [2, 1], 21)
    follower = Follower()
    header = game_log([BombSpec("AB3CD4", [2, 1], {})]).lines
    advice = follower.feed_all(header)
    written = 0
    for _ in range(200):
        new = module.log[written:]
        written = len(module.log)
        for line in new:
            advice += follower.feed(line)
        action = advice[-1].reply.recommendation.action
        if action is None:
            break
        assert module.act(action).outcome is not Outcome.STRIKE
    assert module.solved and module.strikes == 0
    assert advice[-1].solved and advice[-1].event == Moved(LoggedClick(ClickKind.SOLVED))


def test_advice_is_identical_with_the_countdown_lines_deleted() -> None:
    data = _two_bomb_log()
    full = Follower().feed_all(_lines(data))
    blind = [line for line in _lines(data) if "Exploding Mitten is coming in" not in line]
    assert len(blind) < len(_lines(data))
    assert _comparable(Follower().feed_all(blind)) == _comparable(full)


def test_several_modules_and_bombs_each_get_their_own_bomb() -> None:
    advice = Follower().feed_all(_lines(_two_bomb_log()))
    seen = {(a.module_id, a.bomb.serial if a.bomb else None) for a in advice}
    assert seen == {(1, "AB3CD4"), (2, "AB3CD4"), (3, "KZ5LG7")}
    assert all(a.reply.ok for a in advice)
    for module_id in (1, 2, 3):
        assert [a.solved for a in advice if a.module_id == module_id][-1]


def test_a_mission_generating_all_bombs_first_assigns_modules_by_their_start_up() -> None:
    advice = Follower().feed_all(_lines(_two_bomb_log(mission=True)))
    serials = {a.module_id: a.bomb.serial for a in advice if a.bomb is not None}
    assert serials == {1: "AB3CD4", 2: "AB3CD4", 3: "KZ5LG7"}
    assert all(a.reply.ok for a in advice)


def test_a_new_session_in_the_same_file_starts_over() -> None:
    first = _two_bomb_log()
    second = game_log([BombSpec("NI5ME4", [2, 2, 2, 2, 1], {
        1: simulated_messages("NI5ME4", [2, 2, 2, 2, 1], 3, 1),
    })]).data
    advice = Follower().feed_all(_lines(first + second))
    last = [a for a in advice if a.session == 2]
    assert last and {a.bomb.serial for a in last if a.bomb} == {"NI5ME4"}
    assert last[0].event == Started() and last[-1].solved
    assert [a.reply.to_json() for a in last] == [
        a.reply.to_json() for a in Follower().feed_all(_lines(second))
    ]


def test_a_log_of_module_lines_only_uses_the_given_edgework() -> None:
    lines = [modlog.line(1, m) for m in simulated_messages("AB3CD4", [2, 1], 8)]
    blind = Follower().feed_all(lines)
    assert not blind[0].reply.ok and blind[0].needs == ("serial", "batteries")
    assert blind[0].reply.error == "the log has not shown this bomb's serial number and batteries"
    given = Follower(serial=SerialNumber.parse("AB3CD4"), batteries=3).feed_all(lines)
    assert all(a.reply.ok for a in given) and given[-1].solved
    # The JSON names the edgework in use and says it came from the options.
    bomb = given[0].to_json()["bomb"]
    assert bomb == {"number": 1, "serial": "AB3CD4", "batteries": 3,
                    "given": ["serial", "batteries"], "certain": True, "candidates": 1}
    assert "bomb 1 AB3CD4, 3 batteries (serial and batteries from the options)" in (
        follow_header(given[0])
    )
    assert blind[0].to_json()["bomb"]["serial"] is None


def test_a_serial_that_contradicts_the_module_is_reported_not_followed() -> None:
    lines = [modlog.line(1, m) for m in simulated_messages("AB3CD4", [2, 1], 8)]
    advice = Follower(serial=SerialNumber.parse("BC1DF2"), batteries=3).feed_all(lines)
    assert len(advice) == 1 and not advice[0].reply.ok
    assert "table and rule" in (advice[0].reply.error or "")


# --------------------------------------------------------------------------- the file


def test_tail_keeps_a_line_still_being_written(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    tail = LogTail(path)
    assert tail.read() == TailRead(missing=Missing(Unreadable.NOT_THERE))
    path.write_bytes(b"first line\r\nsecond ha")
    assert tail.read() == TailRead(["first line"])
    with path.open("ab") as f:
        f.write(b"lf\nthird")
    assert tail.read() == TailRead(["second half"])
    with path.open("ab") as f:
        f.write(b"\n")
    assert tail.read() == TailRead(["third"])
    assert tail.read() == TailRead()


def test_tail_starts_over_when_the_file_is_truncated_rotated_or_rewritten(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.log"
    path.write_bytes(b"one\ntwo\n")
    tail = LogTail(path)
    assert tail.read() == TailRead(["one", "two"])
    path.write_bytes(b"new\n")  # truncated, shorter
    assert tail.read() == TailRead(["new"], Restart.TRUNCATED)
    os.replace(path, tmp_path / "game.log.1")  # rotated: a new file in its place
    path.write_bytes(b"rotated\n")
    assert tail.read() == TailRead(["rotated"], Restart.REPLACED)
    with path.open("r+b") as f:  # rewritten in place, longer than before
        f.write(b"ROTATED\nmore\n")
    assert tail.read() == TailRead(["ROTATED", "more"], Restart.REWRITTEN)


def test_a_rotated_log_is_drained_before_the_new_one_is_read(tmp_path: Path) -> None:
    # As tail -F: what was written just before the rotation is still in the moved file.
    path = tmp_path / "Player.log"
    path.write_bytes(b"one\ntwo\n")
    tail = LogTail(path)
    assert tail.read() == TailRead(["one", "two"])
    with path.open("ab") as f:
        f.write(b"three\nfour, its line never ended")
    os.replace(path, tmp_path / "Player-prev.log")
    path.write_bytes(b"first of the new log\n")
    assert tail.read() == TailRead(["first of the new log"], Restart.REPLACED,
                                   ["three", "four, its line never ended"])
    # Deleted and written anew: nothing to drain (a partial line goes with the file).
    with path.open("ab") as f:
        f.write(b"half a li")
    assert tail.read() == TailRead()
    path.unlink()
    path.write_bytes(b"fresh\n")
    read = tail.read()  # a new file may get the old one's inode number: then 'truncated'
    assert (read.lines, read.drained) == (["fresh"], []) and read.restarted in (
        "replaced", "truncated")


def test_tail_says_why_nothing_can_be_read_and_never_blocks(tmp_path: Path) -> None:
    missing = LogTail(tmp_path / "no" / "Player.log").read().missing
    assert missing == Missing(Unreadable.NO_FOLDER, folder=tmp_path / "no")
    assert missing_words(missing) == f"its folder {tmp_path / 'no'} does not exist"
    fifo = tmp_path / "fifo.log"
    os.mkfifo(fifo)
    assert LogTail(fifo).read() == TailRead(missing=Missing(Unreadable.NOT_A_FILE))
    assert missing_words(Missing(Unreadable.NOT_A_FILE)) == "it is not a regular file"
    denied = Missing(Unreadable.DENIED, reason="permission denied")
    assert missing_words(denied) == "it cannot be read (permission denied)"


def _pieces(data: bytes, rng: random.Random) -> list[bytes | None]:
    """``data`` cut at random places, so lines arrive in two or more pieces."""
    cuts = sorted(rng.sample(range(1, len(data)), k=min(len(data) - 1, len(data) // 40)))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def test_following_a_log_written_at_game_pace(tmp_path: Path) -> None:
    rng = random.Random(3)
    first = _two_bomb_log(seed=1)
    second = game_log([BombSpec("MG9NE9", [2, 2, 1], {
        4: simulated_messages("MG9NE9", [2, 2, 1], 4, 4),
    })], seed=2).data
    path = tmp_path / "Player.log"
    parts = [*_pieces(first, rng), None, *_pieces(second, rng)]

    def write(part: bytes | None) -> None:
        """Append one piece; ``None`` truncates the file (the game started again)."""
        if part is None:
            path.write_bytes(b"")
            return
        with path.open("ab") as f:
            f.write(part)

    # The game writes one piece whenever the follower waits: lines arrive cut in two or
    # more pieces, on the follower's injected sleep instead of a thread and real waits.
    writer = _Steps([functools.partial(write, part) for part in parts])
    seen: list[Advice] = []
    poll_log(path, seen.append, poll=0.002, sleep=writer.sleep, stop=writer.done)
    before = [a for a in seen if a.session == 1]
    after = [a for a in seen if a.session == 2]
    # Whatever arrived before the truncation was read exactly as the whole file is.
    expected = Follower().feed_all(_lines(first))
    assert _comparable(before) == _comparable(expected)[: len(before)]
    assert [{**a.to_json(), "session": 1} for a in after] == [
        a.to_json() for a in Follower().feed_all(_lines(second))
    ]
    assert after[-1].solved


def test_catching_up_shows_each_module_still_in_play_once(tmp_path: Path) -> None:
    lines = _lines(_two_bomb_log())
    cut = next(i for i, line in enumerate(lines) if "#3] You" in line) + 40
    path = tmp_path / "output_log.txt"
    path.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    seen: list[Advice] = []
    poll_log(path, seen.append, poll=0.001, stop=lambda: True)
    assert [a.module_id for a in seen] == [3]
    assert not seen[0].solved


# --------------------------------------------------------------------------- the command


def test_live_follow_json_prints_one_object_per_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "Player.log"
    path.write_bytes(_two_bomb_log())
    real = poll_log

    def once(*args: Any, **kwargs: Any) -> Follower:
        return real(*args, **{**kwargs, "stop": lambda: True, "catch_up": False})

    monkeypatch.setattr("defuser.terminal.follow_view.poll_log", once)
    run = run_cli(["live", "--follow", str(path), "--json"], monkeypatch)
    assert run.code == 0, run.err
    objects = [json.loads(line) for line in run.out.splitlines()]
    expected = [advice_json(a) for a in Follower().feed_all(_lines(path.read_bytes()))]
    assert objects == expected
    assert set(objects[0]) == {
        "line", "session", "bomb", "module", "event", "solved", "ok", "error", "state",
        "legal_slots", "discard_allowed", "draw_safe", "mitten", "recommendation",
    }
    assert f"following {path}" in run.err

    run = run_cli(["live", "--follow", str(path)], monkeypatch)
    assert run.code == 0, run.err
    assert "Exploding Mittens #3 · bomb 2 KZ5LG7, 5 batteries · line" in run.out


def test_live_follow_without_a_log_uses_the_games_default_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr("defuser.terminal.follow_view.default_log_path", lambda: tmp_path / "p.log")
    real = poll_log
    monkeypatch.setattr(
        "defuser.terminal.follow_view.poll_log",
        lambda *a, **k: real(*a, **{**k, "stop": lambda: True}),
    )
    run = run_cli(["live", "--follow"], monkeypatch)
    assert run.code == 0, run.err
    assert "p.log (it does not exist yet: waiting for the game)" in run.err
    run = run_cli(["live", "--follow", str(tmp_path)], monkeypatch)
    assert run.code == 2 and "is a directory" in run.err


def test_live_follow_says_which_options_give_missing_edgework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "module.log"
    lines = [modlog.line(1, m) for m in simulated_messages("AB3CD4", [2, 1], 8)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    real = poll_log
    monkeypatch.setattr(
        "defuser.terminal.follow_view.poll_log",
        lambda *a, **k: real(*a, **{**k, "stop": lambda: True, "catch_up": False}),
    )
    run = run_cli(["live", "--follow", str(path), "--json"], monkeypatch)
    first = json.loads(run.out.splitlines()[0])
    assert first["error"] == (
        "the log has not shown this bomb's serial number and batteries; give --serial and "
        "--batteries (or --edgework)"
    )
    run = run_cli(["live", "--follow", str(path), "--json", "--edgework", "3B 2H // AB3CD4"],
                  monkeypatch)
    objects = [json.loads(line) for line in run.out.splitlines()]
    assert all(o["ok"] for o in objects) and objects[-1]["solved"]


def test_the_full_screen_board_keeps_each_modules_advice_in_place() -> None:
    from rich.console import Console

    from defuser.terminal.follow_view import FollowBoard

    follower = Follower()
    board = FollowBoard(Path("Player.log"), follower)
    advice: list[Advice] = []
    for line in _lines(_two_bomb_log()):
        advice += follower.feed(line)
        if any(a.module_id == 3 for a in advice):
            break
    midway = len(advice) - 1
    for a in advice:
        board.add(a)
    console = Console(width=80, height=60, record=True, color_system=None)
    console.print(board.render())
    text = console.export_text()
    # One panel per module, the newest state of each, and the last events below.
    assert text.count("Exploding Mittens #1 · bomb 1 AB3CD4") == 1
    assert text.count("Exploding Mittens #3 · bomb 2 KZ5LG7") == 1
    last = advice[midway]
    assert f"#3 line {last.line}: {event_words(last.event)}" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_full_screen_needs_follow(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["live", "--full-screen"], monkeypatch)
    assert run.code == 2 and "--full-screen works with --follow" in run.err


def test_the_follow_session_state_is_json_and_the_loop_waits_on_the_given_sleep(
    tmp_path: Path,
) -> None:
    log = tmp_path / "Player.log"
    log.write_bytes(_two_bomb_log())
    waits: list[float] = []
    rounds = iter(range(3))
    follower = poll_log(log, lambda advice: None, poll=0.5, sleep=waits.append,
                      stop=lambda: next(rounds, None) is None)
    assert waits == [0.5, 0.5, 0.5]
    state = json.loads(json.dumps(follower.state()))
    assert state["session"] == 1 and [m["module"] for m in state["modules"]] == [1, 2, 3]
    assert all(m["solved"] for m in state["modules"])


def test_a_module_no_bomb_agrees_with_says_what_its_lines_imply() -> None:
    # Module lines only, and a serial number of another table: the advice says which
    # table and last digit the module's own start-up lines imply.
    lines = [modlog.line(1, m) for m in simulated_messages("AB3CD4", [2, 1], 8)]
    (advice,) = Follower(serial=SerialNumber.parse("BC1DF2"), batteries=3).feed_all(lines)
    assert advice.reply.error is not None
    assert advice.reply.error.startswith(
        "no bomb's serial number agrees with this module's table and rule lines: they imply "
        "Table B and last digit "
    )
    digits = advice.reply.error.split("last digit ")[1]
    assert "4" in digits.replace(" or ", ", ").split(", ")


class _Steps:
    """A writer whose steps run in the follower's injected sleep: no thread, no real wait."""

    def __init__(self, steps: list[Callable[[], object]]) -> None:
        self.steps = iter(steps)
        self.finished = False

    def sleep(self, _: float) -> None:
        """Run the next step (after the last, the follower may stop)."""
        step = next(self.steps, None)
        self.finished = step is None
        if step is not None:
            step()

    def done(self) -> bool:
        """Whether every step ran."""
        return self.finished


def test_follow_drains_a_rotation_and_announces_what_happens_to_the_log(
    tmp_path: Path,
) -> None:
    first = _two_bomb_log(seed=1)
    second = game_log([BombSpec("MG9NE9", [2, 2, 1], {
        4: simulated_messages("MG9NE9", [2, 2, 1], 4, 4),
    })], seed=2).data
    path = tmp_path / "Player.log"
    cut = first.index(b"\n", len(first) // 2) + 1

    def append(data: bytes) -> None:
        with path.open("ab") as f:
            f.write(data)

    def rotate() -> None:
        append(first[cut:])  # written in the last moment before the game moves the log
        os.replace(path, tmp_path / "Player-prev.log")
        path.write_bytes(b"")

    writer = _Steps([lambda: append(first[:cut]), rotate, lambda: append(second),
                     lambda: path.write_bytes(b""), lambda: append(first + second)])
    seen: list[Advice] = []
    notices: list[FollowNotice] = []
    poll_log(path, seen.append, sleep=writer.sleep, stop=writer.done, notice=notices.append)
    assert [(n.kind, n.session) for n in notices] == [
        ("missing", 1), ("back", 1), ("restarted", 2), ("restarted", 3), ("session", 4)]
    words = [notice_words(n, path) for n in notices]
    assert "it does not exist (deleted, or not written yet); waiting for it" in words[0]
    assert words[1] == f"the log {path} can be read again"
    assert words[2] == "the log was replaced: it is read again from its top (session 2)"
    assert words[3].startswith("the log was truncated")
    assert words[4] == (
        "the game started again: a new game session in the log (session 4), followed afresh")
    # The first log was read whole, the lines written just before its rotation too.
    assert _comparable([a for a in seen if a.session == 1]) == _comparable(
        Follower().feed_all(_lines(first)))
    assert [a.module_id for a in seen if a.session == 2][-1] == 4


def test_live_follow_refuses_a_log_that_can_never_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A missing folder is an error naming it, not a wait for ever (the game creates its
    # log, never the folder).
    missing = tmp_path / "no such folder" / "Player.log"
    run = run_cli(["live", "--follow", str(missing)], monkeypatch)
    assert run.code == 2 and run.out == "" and len(run.err.splitlines()) == 1
    assert f"the folder of {str(missing)!r} does not exist" in run.err
    monkeypatch.setattr("defuser.terminal.follow_view.default_log_path", lambda: missing)
    run = run_cli(["live", "--follow"], monkeypatch)
    assert run.code == 2 and len(run.err.splitlines()) == 1
    assert f"the game's log folder {str(missing.parent)!r} does not exist" in run.err
    fifo = tmp_path / "fifo.log"
    os.mkfifo(fifo)
    run = run_cli(["live", "--follow", str(fifo)], monkeypatch)
    assert run.code == 2 and "is not a regular file" in run.err


def test_ctrl_c_under_follow_prints_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "Player.log"
    path.write_bytes(_two_bomb_log())
    real = poll_log

    def interrupted(*args: Any, **kwargs: Any) -> Follower:
        def sleep(_: float) -> None:
            raise KeyboardInterrupt

        return real(*args, **{**kwargs, "sleep": sleep, "catch_up": False})

    monkeypatch.setattr("defuser.terminal.follow_view.poll_log", interrupted)
    for args in ([], ["--json"]):
        run = run_cli(["live", "--follow", str(path), *args], monkeypatch)
        assert run.code == 130
        changes = len(Follower().feed_all(_lines(path.read_bytes())))
        assert run.err.splitlines()[-2:] == [
            f"mittens live --follow: {changes} change(s) shown; session 1: 3 module(s) "
            "followed, 3 solved",
            "mittens: interrupted",
        ]


def test_live_follow_announces_what_happens_to_the_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "Player.log"
    path.write_bytes(_two_bomb_log())
    real = poll_log
    writer = _Steps([lambda: path.write_bytes(b""),
                     lambda: path.write_bytes(_two_bomb_log() + _two_bomb_log())])
    monkeypatch.setattr(
        "defuser.terminal.follow_view.poll_log",
        lambda *a, **k: real(*a, **{**k, "sleep": writer.sleep, "stop": writer.done}),
    )
    run = run_cli(["live", "--follow", str(path), "--json"], monkeypatch)
    assert run.code == 0, run.err
    assert run.err.splitlines()[1:] == [
        "mittens live: the log was truncated: it is read again from its top (session 2)",
        "mittens live: the game started again: a new game session in the log (session 3), "
        "followed afresh",
    ]
    assert {json.loads(line)["session"] for line in run.out.splitlines()} == {2, 3}


def test_the_board_says_a_new_game_session_or_a_restarted_log_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bug: the full-screen board listed two events for one new game session (the
    # notice, then its own "session N: the log started over"), and that second line
    # also for a restarted log and for the first session at the start.
    from defuser.terminal.follow_view import FollowBoard

    monkeypatch.setattr(FollowBoard, "EVENTS", 10_000)
    follower = Follower()
    board = FollowBoard(Path("Player.log"), follower)
    following = LogFollowing(follower, board.add, board.told)
    following.take(TailRead(_lines(_two_bomb_log() + _two_bomb_log())))
    following.take(TailRead(_lines(_two_bomb_log()), restarted=Restart.TRUNCATED))
    told = [event for event in board.events if not event.startswith("#")]
    assert told == [
        "the game started again: a new game session in the log (session 2), followed afresh",
        "the log was truncated: it is read again from its top (session 3)",
    ]
    # The boxes are the new session's: each module once, its latest advice.
    assert board.latest == {m: a for m, a in sorted(follower.latest.items())}
    assert {a.session for a in board.latest.values()} == {3}


def _board_of(advice: list[Advice]) -> Any:
    from defuser.terminal.follow_view import FollowBoard

    follower = Follower()
    # The session's latest advice of each module, as a follower that read them keeps it.
    follower.latest.update((a.module_id, a) for a in advice)
    board = FollowBoard(Path("Player.log"), follower)
    for a in advice:
        board.add(a)
    return board


def _screen(board: Any, width: int, height: int) -> str:
    from rich.console import Console

    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(board.render())
    return console.export_text()


def test_the_board_fits_80x24_with_five_modules_one_line_each() -> None:
    # Issue 24: at 80x24 with five modules the board silently left out module #5 and
    # the event list.
    advice = list(Follower().feed_all(_lines(_two_bomb_log())))
    five = [replace(a, module_id=a.module_id + k * 10) for k in range(2) for a in advice]
    board = _board_of(five)
    modules = sorted(board.latest)
    assert len(modules) >= 5
    text = _screen(board, 80, 24)
    lines = text.splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    shown = [m for m in modules if any(line.startswith(f"#{m} ") for line in lines)]
    more = [line for line in lines if line.endswith(" more") and line.startswith("+")]
    assert len(shown) + (int(more[0].split()[0][1:]) if more else 0) == len(modules)
    assert "last events" in text and event_words(five[-1].event) in text
    # With room, every module has its box again.
    assert _screen(board, 80, 200).count("Exploding Mittens #") == len(modules)


def test_the_board_wraps_at_40_columns_instead_of_cutting() -> None:
    board = _board_of(list(Follower().feed_all(_lines(_two_bomb_log()))))
    text = _screen(board, 40, 300)
    assert all(len(line) <= 40 for line in text.splitlines())
    words = text.split()
    for word in ["Exploding", "Mittens", "#1", "bomb", "AB3CD4,", "batteries"]:
        assert word in words


def test_a_resize_redraws_the_board_at_once() -> None:
    import signal

    from defuser.terminal.follow_view import redraw_on_resize

    if not hasattr(signal, "SIGWINCH"):
        pytest.skip("no SIGWINCH on this system")
    drawn: list[int] = []
    before = signal.getsignal(signal.SIGWINCH)
    with redraw_on_resize(lambda: drawn.append(1)):
        signal.raise_signal(signal.SIGWINCH)
    assert drawn == [1]
    assert signal.getsignal(signal.SIGWINCH) == before
