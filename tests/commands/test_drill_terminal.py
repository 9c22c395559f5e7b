"""``mittens drill`` on a terminal: the answer line with its live clock (never drawn over
the typed answer), reading until the bomb's deadline on a real pseudo-terminal, and the
whole command driven by a scripted learner on an injected clock (no real waits)."""

from __future__ import annotations

import os
import re
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from cli_helpers import Run, run_cli

from defuser.commands import drill as drill_command
from defuser.terminal import drill_clock
from defuser.terminal.app import Application
from defuser.terminal.drill_clock import TIMED_OUT, PromptLine, ReadResult, TerminalReader
from defuser.trainer.store import AnswerRow, Store

ESCAPES = re.compile(r"\x1b(\[[0-9;]*[@-~]|[78])")


@pytest.mark.parametrize("width", [40, 50, 60, 70, 80])
@pytest.mark.parametrize("typed", ["", "K", "none discard", "play 2", "x" * 30, "y" * 90])
@pytest.mark.parametrize("clock", ["4.0 s / 10.0 s", "bomb 0:07  3.2 s left  4.1 s SLOW"])
def test_the_clock_is_never_drawn_over_the_typed_answer(width: int, typed: str,
                                                        clock: str) -> None:
    # Issue 23: at narrow widths the clock was drawn over the typed answer
    # ('> none discard and 4.0 s / 10.0 s').
    line = PromptLine("> ")
    line.feed(typed)
    drawn = line.render(width, clock)
    assert len(drawn.text) <= width - 1  # never wraps
    typed_part = drawn.text[2:drawn.cursor]
    assert drawn.text.startswith("> ")
    if len(typed) + 2 < width - 1 - len(clock) - 2:
        assert typed_part == typed  # the whole answer shows
    else:
        assert typed_part.startswith("…") or typed_part == typed
        assert typed.endswith(typed_part.lstrip("…"))  # its end shows, as typed
    rest = drawn.text[drawn.cursor:]
    assert rest == "" or (rest.startswith("  ") and rest.strip() == clock)
    if width - 3 - len(clock) - 2 >= 8:
        assert clock in drawn.text  # room enough: the clock shows


def test_a_pasted_long_or_wide_answer_scrolls_in_linear_time() -> None:
    line = PromptLine("> ")
    line.feed("a" * 65_000 + "条件")
    began = time.process_time()
    for _ in range(5):  # a second of redraws
        drawn = line.render(40, "4.0 s / 10.0 s")
    assert time.process_time() - began < 0.5
    assert drawn.text == "> …" + "a" * 16 + "条件  4.0 s / 10.0 s"
    assert drawn.cursor == 2 + 1 + 16 + 4  # columns: the wide characters take two each


def test_the_prompt_line_edits_like_a_terminal() -> None:
    line = PromptLine("> ")
    assert line.feed("nonf\x7fe disc") is None
    assert line.typed == "none disc"
    assert line.feed("\x17") is None and line.typed == "none "
    assert line.feed("\x1b[Dplay\x1bOA 2") is None and line.typed == "none play 2"
    assert line.feed("\x15B\rignored") == "B"
    ended = PromptLine("> ")
    ended.feed("\x04")
    assert ended.ended


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, IO[str]]]:
    """A pseudo-terminal: the learner's side (written to) and the program's stdin."""
    master, slave = os.openpty()
    stdin = os.fdopen(slave, "r", encoding="utf-8", closefd=True)
    try:
        yield master, stdin
    finally:
        stdin.close()
        os.close(master)


class Screen:
    """What the reader draws."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    @property
    def frames(self) -> list[str]:
        """Every redraw of the line, escapes removed."""
        return [ESCAPES.sub("", part) for part in "".join(self.parts).split("\r") if part]


def reader(stdin: IO[str], screen: Screen, now: list[float], *, live: bool,
           width: int = 40) -> TerminalReader:
    return TerminalReader(stdin, screen, live=live, width=lambda: width,  # type: ignore[arg-type]
                          clock=lambda: now[0])


def test_a_live_read_echoes_the_answer_beside_the_clock(
    pty_pair: tuple[int, IO[str]]
) -> None:
    master, stdin = pty_pair
    screen, now = Screen(), [0.0]
    os.write(master, b"none discard\r")
    line = reader(stdin, screen, now, live=True).read(
        "> ", words=lambda: "4.0 s / 10.0 s", deadline=100.0)
    assert line == "none discard"
    assert screen.frames[0] == "> " + " " * 23 + "4.0 s / 10.0 s"  # 39 columns of 40
    final = screen.frames[-1]
    assert final.rstrip("\n") == "> none discard"  # the kept line has no clock
    for frame in screen.frames:
        assert "none discard 4.0" not in frame and len(frame.rstrip("\n")) <= 39


def test_a_read_gives_up_at_the_deadline_and_drops_the_half_typed_line(
    pty_pair: tuple[int, IO[str]]
) -> None:
    master, stdin = pty_pair
    for live in (True, False):
        screen, now = Screen(), [10.0]
        os.write(master, b"play")  # typed, never entered
        term = reader(stdin, screen, now, live=live)
        assert term.read("> ", words=lambda: "bomb 0:00", deadline=10.0) is TIMED_OUT
        os.write(master, b"draw\n")
        assert term.read("> ", words=lambda: "", deadline=None) == "draw"


def test_the_terminal_s_own_line_editing_without_the_live_clock(
    pty_pair: tuple[int, IO[str]]
) -> None:
    master, stdin = pty_pair
    screen, now = Screen(), [0.0]
    os.write(master, b"K\n")
    assert reader(stdin, screen, now, live=False).read("> ", deadline=5.0) == "K"
    assert "".join(screen.parts) == "> "
    os.write(master, b"\x04")
    assert reader(stdin, screen, now, live=False).read("> ") is None


# ------------------------------------------------------- the command on a terminal


class Learner:
    """A scripted learner at a terminal: each line typed after some seconds, on a
    clock the drill session shares (``None`` for the line: nothing more is typed)."""

    def __init__(self, script: list[tuple[float, str | None]]) -> None:
        self.script = list(script)
        self.now = 1000.0
        self.prompts: list[tuple[float, str | None, float | None]] = []

    def clock(self) -> float:
        return self.now

    def read(self, prompt: str, *, words: Callable[[], str] | None = None,
             deadline: float | None = None) -> ReadResult:
        self.prompts.append((self.now, None if words is None else words(), deadline))
        if not self.script:
            return None
        wait, line = self.script[0]
        if deadline is not None and self.now + wait >= deadline:
            self.script[0] = (self.now + wait - deadline, line)
            self.now = deadline
            return TIMED_OUT
        self.script.pop(0)
        self.now += wait
        return line


def on_terminal(monkeypatch: pytest.MonkeyPatch, learner: Learner) -> None:
    """Run the next drill at a terminal where ``learner`` types."""
    monkeypatch.setattr(drill_command, "stdin_is_terminal", lambda: True)

    def make(stdin: IO[str], out: IO[str], *, live: bool, width: Callable[[], int],
             clock: Callable[[], float]) -> Learner:
        assert clock == learner.clock  # the run's clock: the reader's deadlines are on it
        return learner

    monkeypatch.setattr(drill_command, "TerminalReader", make)


def drill_at_terminal(
    args: list[str], script: list[tuple[float, str | None]], db: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Run, Learner, list[AnswerRow]]:
    """``mittens drill ARGS --db DB`` at a terminal where a learner types ``script``:
    what it printed, the learner (with the prompts it saw), the answers stored."""
    learner = Learner(script)
    on_terminal(monkeypatch, learner)
    run = run_cli(["drill", *args, "--db", str(db)], monkeypatch,
                  app=Application(clock=learner.clock))
    assert run.code == 0, run.err
    with Store.open(db) as store:  # type: ignore[union-attr]
        return run, learner, store.answers()


def test_an_eleven_second_answer_is_eleven_seconds_whatever_comes_between(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 23: 'x' froze the clock and 'help' restarted it: an 11 s answer under
    # --time-limit 5 was stored as 1.56 s, graded RIGHT and rated Easy.
    run, _, (row,) = drill_at_terminal(
        ["--mode", "table", "--seed", "1", "--count", "1", "--time-limit", "5"],
        [(2.0, "x"), (3.0, "help"), (4.5, "Z"), (1.5, "A")], tmp_path / "s.db", monkeypatch)
    assert row.seconds == pytest.approx(11.0)
    # Right but over the limit: graded too slow, rated Hard (remembered, slowly), not Again.
    assert row.grade == "too slow" and not row.correct and row.rating == 2
    assert "Try again" in run.out
    # Not "you said A, the answer is A": the answer was right, only too late.
    assert "TOO SLOW  A, right but past the time limit  (11.0 s of 4.0 s)" in run.out


def test_after_a_miss_reading_the_feedback_is_not_charged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wrong answer in 2 s, 30 s reading why, Enter, then 1.5 s to answer.
    run, learner, rows = drill_at_terminal(
        ["--mode", "table", "--seed", "1", "--count", "2"],
        [(2.0, "D"), (30.0, ""), (1.5, "A")], tmp_path / "s.db", monkeypatch)
    assert "Press Enter for the next question." in run.out
    assert [row.seconds for row in rows] == [pytest.approx(2.0), pytest.approx(1.5)]
    # While the learner reads, no clock runs and nothing is due.
    assert learner.prompts[1][1:] == (None, None)


def test_the_bomb_explodes_on_its_own_and_a_late_click_is_not_graded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 23: a click after the bomb ran out was graded a blunder and stored, and the
    # summary said '0 clicks ... no clicks' beside 'mean loss 11.00'.
    run, learner, rows = drill_at_terminal(
        ["--mode", "game", "--seed", "4", "--bomb-timer", "8"],
        [(4.0, "?"), (5.0, "play 1"), (3.0, "draw")], tmp_path / "s.db", monkeypatch)
    # '?' at 4 s did not set the bomb back: it ran out at 8 s, before 'play 1' (9 s).
    assert learner.prompts[0][2] == pytest.approx(1008.0)
    assert learner.prompts[1][2] == pytest.approx(1008.0)
    assert "The bomb's timer ran out before the click." in run.out
    assert "BOOM! The bomb's timer ran out." in run.out
    assert "0 clicks (the optimal policy averages" in run.out and "no clicks." in run.out
    assert "mean loss" not in run.out and "No questions answered." in run.out
    assert rows == []


def test_ctrl_c_leaves_the_typed_line_without_the_clock(
    pty_pair: tuple[int, IO[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    master, stdin = pty_pair
    screen, now = Screen(), [0.0]
    os.write(master, b"pla")
    term = reader(stdin, screen, now, live=True)
    calls = []
    real = select.select

    def interrupted(*args: Any) -> tuple[list[Any], list[Any], list[Any]]:
        if args[0] != [stdin.fileno()]:  # anyone else's wait (a thread of pytest's)
            return real(*args)
        calls.append(args)
        if len(calls) > 1:  # Ctrl-C while waiting for the next key
            raise KeyboardInterrupt
        return [stdin.fileno()], [], []

    monkeypatch.setattr(select, "select", interrupted)
    with pytest.raises(KeyboardInterrupt):
        term.read("> ", words=lambda: "1.0 s / 4.0 s")
    assert screen.frames[-1] == "> pla\n"


def test_a_windows_console_is_read_line_by_line(
    pty_pair: tuple[int, IO[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    master, stdin = pty_pair
    monkeypatch.setattr(drill_clock, "POSIX", False)
    screen, now = Screen(), [100.0]
    os.write(master, b"K\n")
    # No select, no termios: the line is read as typed, whatever the deadline.
    line = reader(stdin, screen, now, live=True).read("> ", words=lambda: "1.0 s",
                                                      deadline=50.0)
    assert line == "K" and "".join(screen.parts) == "> "



def test_ctrl_c_prints_the_summary_keeps_the_answers_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def two_answers_then_ctrl_c(stream: object) -> Iterator[str]:
        yield from ("A", "B")
        raise KeyboardInterrupt  # where the third answer would be read

    monkeypatch.setattr(drill_command, "input_lines", two_answers_then_ctrl_c)
    db = tmp_path / "stats.sqlite3"
    run = run_cli(["drill", "--mode", "table", "--seed", "3", "--count", "5", "--db", str(db)],
                  monkeypatch)
    assert run.code == 130, run.err
    assert "Session (interrupted): 0/2 right" in run.out  # the summary
    assert run.err.endswith(f"mittens: interrupted; 2 answers saved in {db}\n")
    with Store.open(db) as store:  # type: ignore[union-attr]
        assert len(store.answers()) == 2
