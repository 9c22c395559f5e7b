"""``defuser.strategy.explain`` on its own: the rule in force in words for every table,
digit and discard, and the reason of every kind of strike, from simulated clicks."""

from __future__ import annotations

import random

import pytest
from engine_helpers import ALL_ACTIONS

from defuser.engine.actions import StrikeKind
from defuser.engine.board import Board
from defuser.engine.simulator import Module, Outcome
from defuser.strategy.explain import (
    card_words,
    rule_in_force,
    slot_list,
    strike_reason,
)
from edgework import ALL_CARDS, MITTEN_RULES, RULE_TEXTS, TABLE_LETTERS, Card, Ruleset
from edgework.errors import MisuseError


def test_cards_and_slots_in_words() -> None:
    assert card_words(Card.RED_CIRCLE) == "RC red circle"
    hand = [Card.RED_CIRCLE, Card.BLUE_HEART, Card.GREEN_SQUARE]
    assert slot_list(hand, [1, 3]) == "slot 1 (RC red circle), slot 3 (GS green square)"
    assert slot_list(hand, []) == ""


def test_the_rule_in_force_names_its_letter_and_the_mitten_only_when_it_matters() -> None:
    for table in TABLE_LETTERS:
        for digit in range(10):
            rules = Ruleset(table, digit)
            for discard in ALL_CARDS:
                text = rule_in_force(rules, discard)
                letter = rules.rule(discard)
                assert text.startswith(f"rule {letter} is in force ({card_words(discard)} ")
                assert f"last digit {digit}, Table {table}): {RULE_TEXTS[letter]}" in text
                mitten = f"The Exploding Mitten card is {card_words(rules.mitten)}."
                assert text.endswith(mitten) == (letter in MITTEN_RULES)


def test_every_strike_has_its_reason() -> None:
    seen: set[StrikeKind] = set()
    for seed in range(40):
        rules = Ruleset(TABLE_LETTERS[seed % 4], seed % 10)
        module = Module(rules, 9 + seed % 5, random.Random(seed))
        rng = random.Random(seed)
        while not module.solved and module.clicks < 60:
            rules, discard, hand = module.rules, module.discard_top, module.hand
            result = module.act(rng.choice(ALL_ACTIONS))
            if result.outcome is not Outcome.STRIKE:
                with pytest.raises(MisuseError, match="is not a strike"):
                    strike_reason(rules, discard, hand, result)
                continue
            assert result.strike is not None
            seen.add(result.strike)
            reason = strike_reason(rules, discard, hand, result)
            if result.strike is StrikeKind.MITTEN_ON_TOP:
                assert reason.startswith("the Exploding Mitten is on top of the deck")
            elif result.strike is StrikeKind.HAND_FULL:
                assert reason.startswith("your hand already holds 3 cards")
            elif result.strike is StrikeKind.DISCARD_BLOCKED:
                assert reason.endswith(f"play {slot_list(hand, result.blocking_slots)}")
            else:
                legal = Board(rules, discard, tuple(hand)).legal_slots
                assert reason.startswith(f"slot {result.action.slot} (")
                assert reason.endswith(
                    f"legal now: {slot_list(hand, legal)}" if legal
                    else "no card in your hand is legal now, so discard"
                )
    assert seen == set(StrikeKind)
