"""Speed training in ``mittens drill``: the answer clock, what it counts, the slow mark."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator

import pytest

import defuser.commands.drill as drill_cli
from defuser.commands.drill_clock import LiveClock, clock_text
from defuser.trainer.grading import grade
from defuser.trainer.model import Answered, Kind, Question
from defuser.trainer.skills import TableSkill


def question() -> Question:
    return Question(Kind.TABLE, TableSkill("B"), "Serial AB1CD2. Which table?", {}, "B", "x")


def test_clock_text_counts_up_to_the_target_then_says_slow() -> None:
    assert clock_text(2.34, 5.0) == "2.3 s / 5.0 s"
    assert clock_text(6.1, 5.0) == "6.1 s SLOW"
    assert clock_text(1.0, 5.0, limit=8.0) == "7.0 s left  1.0 s / 5.0 s"
    assert clock_text(3.0, 5.0, bomb_left=93.0).startswith("bomb 1:30")
    assert clock_text(99.0, 5.0, bomb_left=10.0).startswith("bomb 0:00")
    assert clock_text(8.0, 5.0, bomb_left=100.0, bomb_rate=1.25).startswith("bomb 1:30")


def test_live_clock_draws_beside_the_prompt_and_clears_after() -> None:
    now = [100.0]
    stream = io.StringIO()
    clock = LiveClock(stream, lambda e: f"{e:.1f} s", width=80, clock=lambda: now[0])
    clock.started = 100.0
    now[0] = 102.5
    clock._draw()
    drawn = stream.getvalue()
    assert drawn == "\x1b7\x1b[46G\x1b[K2.5 s\x1b8"  # saved, drawn at the right, restored
    clock._thread.start()
    clock.stop()
    assert stream.getvalue().endswith("\r\x1b[K")


class FakeTerm:
    """A terminal whose lines arrive at given times."""

    interactive = True
    json_mode = False
    colour = False

    def __init__(self, lines: list[tuple[float, str]], now: list[float]) -> None:
        self.lines: Iterator[tuple[float, str]] = iter(lines)
        self.now = now
        self.said: list[str] = []

    def live_clock(
        self, target: float, limit: float | None, bomb: float | None, rate: float
    ) -> None:
        return None

    def read(self) -> str | None:
        at, line = next(self.lines)
        self.now[0] = at
        return line

    def say(self, text: object, style: str = "") -> None:
        self.said.append(str(text))


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    clock = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    return clock


def test_answer_time_excludes_help_and_retyping(now: list[float]) -> None:
    # 9 s spent before asking for help, 2 s after it, 20 s retyping an unreadable line.
    term = FakeTerm([(9.0, "help"), (11.0, "zz"), (31.0, "B")], now)
    result = drill_cli.read_answer(
        question(), term, None, game=False, target=4.0  # type: ignore[arg-type]
    )
    assert result is not None and result.correct
    assert result.seconds == pytest.approx(2.0)
    assert any("Answer with" in s for s in term.said)
    assert any("Try again" in s for s in term.said)


def test_a_slow_right_answer_is_marked() -> None:
    q = question()
    slow = Answered(q, grade(q, "B", 6.2), rating=2, target=5.0)
    quick = Answered(q, grade(q, "B", 1.0), rating=4, target=5.0)
    term = drill_cli.DrillIO.__new__(drill_cli.DrillIO)
    term.interactive, term.colour = True, False
    line = drill_cli.verdict_line(slow, term).plain
    assert line.endswith("(6.2 s, slow: target 5.0 s)  SLOW") and slow.slow
    assert drill_cli.verdict_line(quick, term).plain.endswith("(1.0 s of 5.0 s)")
    assert not quick.slow
