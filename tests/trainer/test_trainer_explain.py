"""Decide explanations: the option table, best against next best, the cycle state."""

from __future__ import annotations

import io
import random
import sys

import pytest
from trainer_helpers import CYCLE, question_53

from defuser.commands.drill import DrillIO, show_options
from defuser.engine.actions import Action
from defuser.engine.board import Board, Effect
from defuser.terminal.app import Application
from defuser.trainer.explaining import best_vs_next, option_rows, wasted
from defuser.trainer.facts import DecideFacts
from defuser.trainer.model import Option, Question
from defuser.trainer.skills import DecideSkill, Kind, Move
from edgework import Card, Ruleset, SerialNumber, TableLetter


def test_option_rows_put_the_best_first_and_charge_strikes() -> None:
    rows = option_rows(question_53())
    assert [r.action for r in rows] == ["discard", "play 1", "draw"]
    assert rows[0].best and rows[0].loss == 0
    assert rows[1].loss == pytest.approx(1.0)
    assert rows[2].loss == pytest.approx(10 / 3) and rows[2].strike_risk == pytest.approx(1 / 3)


def test_best_vs_next_names_the_margin_and_the_gamble() -> None:
    # Issue 23: the only other safe click played an empty slot, and the explanation
    # compared the best with it ("slot 1 is empty: the click does nothing").
    words = best_vs_next(question_53())
    assert words.startswith(
        "discard is the only click that can neither strike nor do nothing; "
    )
    assert "empty" not in words and "play 1" not in words
    assert "draw looks 0.88 clicks cheaper only if a strike cost nothing" in words
    assert "33% of the time" in words


def test_the_explanation_is_printed_with_the_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setenv("NO_COLOR", "1")
    term = DrillIO(Application(), None, json_mode=False)
    show_options(question_53(), term)
    text = out.getvalue()
    assert "expected clicks" in text and "strike risk" in text
    assert "  discard" in text and "14.45" in text and "33%" in text and "3.33" in text
    assert "Why: discard is the only click" in text
    assert f"Cycle: {CYCLE}" in text


def decision(options: tuple[Option, ...], hand: list[str]) -> Question:
    """A decide question with these options and this hand (codes)."""
    return Question(kind=Kind.DECIDE, skill=DecideSkill(Move.PLAY), text="",
                    answer=options[0].action,
                    facts=DecideFacts(SerialNumber("AB1CD2"), 1, 10, (), Card.YELLOW_CIRCLE,
                                      tuple(Card.parse(code) for code in hand), ()),
                    reason="", options=options)


def test_every_tied_click_is_named() -> None:
    # Issue 23: three clicks tied and the explanation named two of them.
    question = decision((
        Option(Action.play(2), 20.29, 0.0),
        Option(Action.play(1), 20.292, 0.0),
        Option(Action.draw(), 20.294, 0.0),
        Option(Action.discard(), 20.73, 0.0),
        Option(Action.play(3), 21.29, 0.0, "slot 3 is empty: the click does nothing"),
    ), ["BT", "RT"])
    assert best_vs_next(question) == (
        "play 2, play 1 and draw are as good as each other (within 0.01 expected clicks); "
        "the next best safe click, discard, costs 0.44 more."
    )


def test_a_click_on_an_empty_slot_is_never_the_runner_up() -> None:
    question = decision((
        Option(Action.discard(), 19.27, 0.0),
        Option(Action.play(3), 20.27, 0.0, "slot 3 is empty: the click does nothing"),
        Option(Action.draw(), 19.70, 1 / 8, "the mitten may be on top (1 in 8)"),
        Option(Action.play(1), 20.27, 1.0, "BT is not legal under rule K"),
        Option(Action.play(2), 20.29, 0.0),
    ), ["BT", "BT"])
    assert best_vs_next(question) == (
        "discard beats the next best safe click, play 2, by 1.02 expected clicks."
    )
    only = decision(question.options[:4], ["BT", "BT"])
    assert best_vs_next(only) == (
        "discard is the only click that can neither strike nor do nothing."
    )
    assert [r.action for r in option_rows(only)][:2] == ["discard", "play 3"]


def test_a_wasted_click_is_the_one_the_rulebook_says_does_nothing() -> None:
    """``wasted`` reads only the question's hand; on every board of a few rule sets it
    agrees with the board's own verdict (nothing, with the mitten on top or not)."""
    rng = random.Random(5)
    for table, digit in zip(TableLetter, (3, 0, 7, 9), strict=True):
        rules = Ruleset(table, digit)
        for _ in range(200):
            hand = tuple(rng.choice(list(Card)) for _ in range(rng.randint(0, 3)))
            board = Board(rules, rng.choice(list(Card)), hand)
            question = decision((Option(Action.draw(), 1.0, 0.0),), [c.code for c in hand])
            for action in (Action.draw(), Action.discard(), *map(Action.play, (1, 2, 3))):
                nothing = board.effects(action) == (Effect.NOTHING, Effect.NOTHING)
                assert wasted(question, Option(action, 1.0, 0.0)) is nothing, (board, action)
