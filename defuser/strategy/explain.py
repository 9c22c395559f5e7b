"""Plain-words explanations of the rule in force and of why an action struck.

Contract: pure functions of the rule set, the visible state and a :class:`Result`;
they never look at the hidden deck (a draw that struck on the mitten has already shown
the player that the mitten is on top). Used by ``mittens play`` and the trainer.
"""

from __future__ import annotations

from collections.abc import Sequence

from defuser.engine.actions import StrikeKind
from defuser.engine.board import Board
from defuser.engine.simulator import Result
from edgework import MITTEN_RULES, RULE_TEXTS, Card, Ruleset
from edgework.errors import MisuseError


def card_words(card: Card) -> str:
    """A card as ``RC red circle``."""
    return f"{card.code} {card.words}"


def slot_list(hand: Sequence[Card], slots: Sequence[int]) -> str:
    """Slots with their cards: ``slot 1 (RC red circle), slot 3 (BH blue heart)``."""
    return ", ".join(f"slot {s} ({card_words(hand[s - 1])})" for s in slots)


def rule_in_force(rules: Ruleset, discard: Card) -> str:
    """Which rule is in force on ``discard`` and why, in one sentence."""
    letter = rules.rule(discard)
    text = (
        f"rule {letter} is in force ({card_words(discard)} on the discard pile is "
        f"{rules.type_of(discard).card_words}, last digit {rules.last_digit}, Table "
        f"{rules.table}): {RULE_TEXTS[letter]}"
    )
    if letter in MITTEN_RULES:
        text += f" The Exploding Mitten card is {card_words(rules.mitten)}."
    return text


def strike_reason(rules: Ruleset, discard: Card, hand: Sequence[Card], result: Result) -> str:
    """Why ``result`` struck, from the state the strike left (a strike moves nothing)."""
    if result.strike is StrikeKind.MITTEN_ON_TOP:
        return (
            "the Exploding Mitten is on top of the deck and can never be drawn: discard it, "
            "or play a Defuse on it to solve the module"
        )
    if result.strike is StrikeKind.HAND_FULL:
        return "your hand already holds 3 cards: play a card or discard instead"
    if result.strike is StrikeKind.DISCARD_BLOCKED:
        return (
            "you may only discard when no card in your hand is legal, and you could still "
            f"play {slot_list(hand, result.blocking_slots)}"
        )
    if result.strike is StrikeKind.INVALID_PLAY:
        assert result.action.slot is not None and result.card is not None
        legal = Board(rules, discard, tuple(hand)).legal_slots
        where = (
            f"legal now: {slot_list(hand, legal)}"
            if legal
            else "no card in your hand is legal now, so discard"
        )
        return (
            f"slot {result.action.slot} ({card_words(result.card)}) is not legal under rule "
            f"{rules.rule(discard)}; {where}"
        )
    raise MisuseError(f"result {result.outcome.value!r} of {result.action} is not a strike")
