"""Table F conditions read by meaning: the canonical wording, rewordings, changed rules."""

from __future__ import annotations

import pytest

from defuser.apps.rule_meaning import Meaning, meaning
from edgework import RULE_TEXTS

BOTH = frozenset({"colour", "shape"})
COLOUR = frozenset({"colour"})
SHAPE = frozenset({"shape"})

CANONICAL = {
    "A": Meaning(BOTH, True, "discard"),
    "B": Meaning(COLOUR, True, "discard"),
    "C": Meaning(SHAPE, True, "discard"),
    "D": Meaning(BOTH, False, "discard"),
    "E": Meaning(COLOUR, False, "discard"),
    "F": Meaning(SHAPE, False, "discard"),
    "G": Meaning(COLOUR, True, "yellow"),
    "H": Meaning(COLOUR, False, "red"),
    "I": Meaning(SHAPE, True, "mitten"),
    "J": Meaning(SHAPE, False, "mitten"),
    "K": Meaning(COLOUR, True, "mitten"),
    "L": Meaning(COLOUR, False, "mitten"),
}


def test_every_canonical_condition_reads_as_its_rule() -> None:
    assert {letter: meaning(text) for letter, text in RULE_TEXTS.items()} == CANONICAL


@pytest.mark.parametrize(
    ("letter", "text"),
    [
        ("A", "Same card as the discard pile's top."),
        ("A", "It is exactly the card on the discard pile"),
        ("B", "Same colour as the discard top."),
        ("C", "Its shape is the discard's shape"),
        ("D", "Different shape and different colour from the discard pile."),
        ("E", "Its colour doesn't match the discard pile."),
        ("F", "Shape differs from the discard top."),
        ("G", "Yellow cards only."),
        ("H", "Any card that isn't red."),
        ("I", "Same shape as the Exploding Mitten."),
        ("J", "Its shape is not the mitten's shape."),
        ("K", "Colour matches the Exploding Mitten card."),
        ("L", "Not the mitten's colour."),
    ],
)
def test_rewordings_keep_their_meaning(letter: str, text: str) -> None:
    assert meaning(text) == CANONICAL[letter]


@pytest.mark.parametrize(
    ("letter", "text"),
    [
        ("B", "Same shape."),
        ("C", "Its colour matches the card in the discard pile."),
        ("E", "Its color matches the card in the discard pile."),
        ("G", "The card is red."),
        ("H", "The card is red."),
        ("I", "The shape matches the card in the discard pile."),
        ("K", "The shape matches the Exploding Mitten card."),
        ("A", "Its shape matches the card in the discard pile."),
    ],
)
def test_changed_rules_read_differently(letter: str, text: str) -> None:
    assert meaning(text) != CANONICAL[letter]


@pytest.mark.parametrize(
    "text", ["La carte est jaune.", "", "Red or blue.", "It is red and blue.", "Whatever."]
)
def test_text_that_is_not_an_english_condition_is_not_read(text: str) -> None:
    assert meaning(text) is None
