"""Wording slips of issue 12: each end of a game is announced once, counts agree with
their nouns."""

from __future__ import annotations

import random

from defuser.engine.simulator import Outcome
from defuser.trainer.game import Game
from defuser.trainer.grading import grade


def test_a_drill_game_announces_the_solve_once() -> None:
    # The click's own words say what it did; "Module solved!" is the summary's alone.
    game = Game.new(random.Random(12))
    last = None
    while not game.over:
        question = game.question()
        last = game.play(grade(question, question.expected, 1.0))
    assert last is not None and last.outcome is Outcome.SOLVED
    words = game.outcome_words(last)
    assert words.endswith("Defuse played with the mitten on top.")
    assert "Module solved!" not in words
