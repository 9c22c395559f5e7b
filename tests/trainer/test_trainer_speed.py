"""Speed training in ``mittens drill``: the answer clock, what it counts, the slow mark."""

from __future__ import annotations

from trainer_helpers import PLACEHOLDER

import defuser.commands.drill as drill_cli
from defuser.terminal.drill_clock import clock_text
from defuser.trainer.answers import TableAnswer
from defuser.trainer.grading import grade
from defuser.trainer.model import Answered, Question
from defuser.trainer.skills import Kind, TableSkill
from edgework import TableLetter


def question() -> Question:
    return Question(Kind.TABLE, TableSkill(TableLetter.B), "Serial AB1CD2. Which table?",
                    PLACEHOLDER, TableAnswer(TableLetter.B), "x")


def test_clock_text_counts_up_to_the_target_then_says_slow() -> None:
    assert clock_text(2.34, 5.0) == "2.3 s / 5.0 s"
    assert clock_text(6.1, 5.0) == "6.1 s SLOW"
    assert clock_text(1.0, 5.0, limit=8.0) == "7.0 s left  1.0 s / 5.0 s"
    assert clock_text(3.0, 5.0, bomb_left=90.5).startswith("bomb 1:30")
    assert clock_text(99.0, 5.0, bomb_left=0.0).startswith("bomb 0:00")
    assert clock_text(8.0, 5.0, bomb_left=-1.0).startswith("bomb 0:00")


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
