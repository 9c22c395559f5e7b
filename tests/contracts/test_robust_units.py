"""Issue 15: the bounds and the shared I/O pieces, tested in-process."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.apps.live_session import UNDO_DEPTH, LiveSession
from defuser.streams import MAX_LINE_BYTES, input_lines, printable


def test_live_undo_stack_is_bounded() -> None:
    session = LiveSession()
    for n in range(UNDO_DEPTH + 50):
        assert session.handle(f"batteries {n % 90}").ok
    for _ in range(UNDO_DEPTH):
        assert session.handle("undo").ok
    assert not session.handle("undo").ok


def test_input_lines_decodes_strips_and_bounds() -> None:
    long_line = b"x" * (MAX_LINE_BYTES * 3)
    data = b"\xef\xbb\xbfdraw\r\n\xff\x1b[2J\n" + long_line + b"\nlast"
    lines = list(input_lines(io.TextIOWrapper(io.BytesIO(data))))  # a stdin of these bytes
    assert lines[0] == "draw"
    assert lines[1] == "\ufffd\ufffd[2J"
    assert lines[2].endswith("\ufffd") and len(lines[2]) <= MAX_LINE_BYTES + 1
    assert lines[3] == "last"


def test_printable_hides_escape_codes() -> None:
    assert printable("a\x1b[2Jb\tc\x07") == "a\ufffd[2Jb\tc\ufffd"


# ---------------------------------------------------------------- rows 12 and 18: prop


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "-1", "1e400"])
@pytest.mark.parametrize("option", ["--timeout", "--handshake-timeout", "--reconnect-timeout"])
def test_prop_timeouts_are_range_checked(
    option: str, value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["prop", "--demo", option, value], monkeypatch)
    assert run.code == 2
    assert option in run.err and len(run.err.strip().splitlines()) == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("option", ["--log", "--trace"])
def test_prop_file_on_a_full_disk_is_one_line(
    option: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["prop", "--demo", "--seed", "3", option, "/dev/full"], monkeypatch)
    assert run.code == 2
    assert "disk is full" in run.err and "Traceback" not in run.err


# ---------------------------------------------------------------- row 24: long play sessions


def test_a_long_session_keeps_a_bounded_history() -> None:
    from defuser.engine.actions import Action
    from defuser.engine.simulator import HISTORY_DEPTH, Module
    from edgework import Edgework

    module = Module.from_edgework(Edgework.parse("3B 2H // KT4RE7"), 7)
    blocked = Action.parse("play 3")  # a click that changes nothing but is recorded
    total = 5 * HISTORY_DEPTH + 7
    for _ in range(total):
        module.act(blocked)
    assert module.clicks == total
    assert len(module.history) <= 2 * HISTORY_DEPTH


def test_prop_ctrl_c_prints_the_summary_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.game import PropGame

    def interrupted(*args: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(PropGame, "play", interrupted)
    run = run_cli(["prop", "--demo", "--seed", "1"], monkeypatch)
    assert run.code == 130
    assert "Game stopped." in run.out and "interrupted" in run.err


def test_a_long_logged_session_keeps_bounded_lines_and_writes_each_once() -> None:
    import io

    from defuser.engine.actions import Action
    from defuser.engine.game import Clicked, GameSession
    from defuser.engine.modlog import LogAppender
    from defuser.engine.simulator import HISTORY_DEPTH, Module
    from edgework import Edgework

    module = Module.from_edgework(Edgework.parse("3B 2H // KT4RE7"), 7)
    every_line = list(module.log)
    file = io.StringIO()
    # The log file as the game commands keep it: the module's lines written as they come.
    log = LogAppender(file)
    log.flush(module.log, module.log_total)
    session = GameSession(module, strike_limit=0, clock=lambda: 0.0)
    clicks = [Action.parse(text) for text in ("play 1", "play 2", "play 3", "discard")]
    for n in range(5 * HISTORY_DEPTH + 7):
        [event] = session.click(clicks[n % len(clicks)])
        assert isinstance(event, Clicked)
        log.flush(module.log, module.log_total)
        every_line += event.result.log
    assert len(every_line) > 3 * HISTORY_DEPTH  # the clicks really wrote lines
    # The module keeps only the lines of the clicks it still holds; the file has them all,
    # once.
    assert module.log_dropped > 0
    assert module.log_total == len(every_line)
    assert module.log == every_line[module.log_dropped :]
    assert len(module.log) <= 2 * len(every_line) // 5
    assert file.getvalue().splitlines() == every_line
    assert module.log == [line for click in module.history for line in click.log]
