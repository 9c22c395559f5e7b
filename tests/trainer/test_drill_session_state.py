"""A drill session kept as JSON and rebuilt (as a web page keeps it between requests):
the rebuilt session goes on exactly as the original would have, mid-question, paused
after a miss, and mid-game with the bomb timer running."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from defuser.trainer.drill_session import (
    DrillOptions,
    DrillSession,
    open_session,
)
from defuser.trainer.model import DrillMode, Question
from defuser.trainer.states import StateError, question_from_state, question_state
from defuser.trainer.store import AnswerRow, Store
from edgework import TableLetter


class Clocks:
    """The session's monotonic clock and the calendar's, both moved by hand."""

    def __init__(self) -> None:
        self.now = 500.0
        self.wall = 1_790_000_000.0

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.wall += seconds

    def saved(self) -> tuple[float, float]:
        return self.now, self.wall


def wrong_for(question: Question) -> str:
    """A line that answers ``question`` wrongly (a costly click in a decision)."""
    if question.options:
        worst = max(question.options, key=lambda o: (o.strike_risk, o.expected_clicks or 0))
        return str(worst.action)
    return "A" if question.expected != "A" else "B"


def drive(session: DrillSession, clocks: Clocks, lines: int, *, start: int = 0) -> list[str]:
    """Feed ``lines`` lines, some seconds apart: right twice, then wrong; Enter when the
    session waits. Returns every event, as its full repr."""
    seen: list[str] = []
    for i in range(start, start + lines):
        if not session.asking:
            break
        clocks.wait(1.25 + i % 4)
        if session.waiting:
            line = ""
        else:
            assert session.question is not None
            line = session.question.expected if i % 3 else wrong_for(session.question)
        seen += [repr(e) for e in session.answer(line)]
    return seen


def rows(db: Path) -> list[tuple[Any, ...]]:
    """The stored answers, without their row ids."""
    with Store.open(db) as store:  # type: ignore[union-attr]
        return [tuple(getattr(r, f) for f in AnswerRow.__dataclass_fields__ if f != "id")
                for r in store.answers()]


def round_trip(
    tmp_path: Path, mode: str, options: DrillOptions, before: int,
    at_snapshot: Callable[[DrillSession], bool],
) -> tuple[DrillSession, DrillSession]:
    """Run a session ``before`` lines in, keep its state as JSON text (and a copy of its
    database), then finish the original and, from the copy, the rebuilt session, on
    the same clock readings; both must say and store the same."""
    clocks = Clocks()
    first = tmp_path / "first.sqlite3"
    store = Store.open(first)
    assert store is not None
    with store:
        original = open_session(store, DrillMode(mode), options, interactive=True,
                                clock=lambda: clocks.now, wall=lambda: clocks.wall)
        original.start()
        drive(original, clocks, before)
        clocks.wait(2.0)  # two seconds into the question (or the pause)
        assert at_snapshot(original)
        kept = json.dumps(original.state())
        second = tmp_path / "second.sqlite3"
        with sqlite3.connect(first) as source, sqlite3.connect(second) as copy:
            source.backup(copy)
        snapshot = clocks.saved()
        shown = original.to_json()
        deadline = original.deadline()
        ahead = drive(original, clocks, 40, start=before)
    clocks.now, clocks.wall = snapshot
    copy_store = Store.open(second)
    assert copy_store is not None
    with copy_store:
        rebuilt = DrillSession.from_state(json.loads(kept), copy_store,
                                          clock=lambda: clocks.now, wall=lambda: clocks.wall)
        assert rebuilt.to_json() == shown and rebuilt.deadline() == deadline
        assert json.loads(json.dumps(rebuilt.state())) == json.loads(kept)
        again = drive(rebuilt, clocks, 40, start=before)
    assert again == ahead and ahead
    assert rows(second) == rows(first)
    return original, rebuilt


def test_a_drill_rebuilt_mid_question_goes_on_as_the_original(tmp_path: Path) -> None:
    original, rebuilt = round_trip(
        tmp_path, "mixed", DrillOptions(count=8), 5,
        lambda s: s.clock_running() and s.elapsed() == pytest.approx(2.0))
    assert rebuilt.ended and original.ended and len(rebuilt.drill.answered) == 8


def test_a_drill_rebuilt_while_paused_after_a_miss(tmp_path: Path) -> None:
    round_trip(tmp_path, "rule", DrillOptions(count=5, tables=("E",)), 1,
               lambda s: s.waiting and not s.clock_running())


def test_a_game_rebuilt_mid_click_with_the_bomb_timer_running(tmp_path: Path) -> None:
    original, rebuilt = round_trip(
        tmp_path, "game", DrillOptions(count=2, bomb_timer=60.0), 3,
        lambda s: s.game is not None and s.clock_running() and s.deadline() is not None)
    assert rebuilt.game is not None and original.game is not None
    assert rebuilt.game.state() == original.game.state()
    assert rebuilt.game_index == original.game_index


def test_a_seeded_focused_drill_keeps_its_seed_and_focus(tmp_path: Path) -> None:
    round_trip(tmp_path, "identify", DrillOptions(count=4, seed=3, tables=(TableLetter.B,)), 2,
               lambda s: s.clock_running())


def test_a_question_state_reads_back_equal() -> None:
    from random import Random

    from defuser.trainer.kinds import KIND_SPECS, generate

    rng = Random(5)
    for spec in KIND_SPECS.values():
        question = generate(rng, rng.choice(spec.skills))
        assert question_from_state(json.loads(json.dumps(question_state(question)))) == question


def test_a_state_that_is_not_one_is_refused() -> None:
    with pytest.raises(StateError, match="not version 1"):
        DrillSession.from_state({"drill": {}}, None)
    with pytest.raises(StateError, match="incomplete or malformed"):
        DrillSession.from_state({"version": 1}, None)


def test_a_graded_decision_reads_back_with_its_typed_click() -> None:
    from trainer_helpers import question_53

    from defuser.engine.actions import Action
    from defuser.trainer.grading import grade
    from defuser.trainer.model import Answered
    from defuser.trainer.states import answered_from_state, answered_state

    question = question_53()
    for line in ("p1", "disc", "nonsense"):
        answered = Answered(question, grade(question, line, 2.5), at=7.0)
        back = answered_from_state(json.loads(json.dumps(answered_state(answered))))
        assert back == answered
    assert back.grade.action is None
    assert answered_from_state(answered_state(
        Answered(question, grade(question, "p1", 2.5)))).grade.action == Action.play(1)
