"""``rule_digits`` reads Table E backwards: the digits that give a rule for a discard."""

from __future__ import annotations

import itertools

from edgework import (
    CARD_TABLES,
    RULE_LETTERS,
    TABLE_E,
    TABLE_LETTERS,
    Card,
    RuleLetter,
    TableLetter,
)
from edgework.tables import rule_digits


def test_rule_digits_are_the_columns_of_the_discards_row() -> None:
    for table, discard, letter in itertools.product(TABLE_LETTERS, Card, RULE_LETTERS):
        row = TABLE_E[CARD_TABLES[table][discard]]
        assert rule_digits(table, discard, letter) == tuple(
            d for d, cell in enumerate(row) if cell == letter
        )


def test_every_digit_gives_one_rule() -> None:
    for table, discard in itertools.product(TABLE_LETTERS, Card):
        found = sorted(d for letter in RULE_LETTERS for d in rule_digits(table, discard, letter))
        assert found == list(range(10))


def test_a_known_cell() -> None:
    # Table A: a green circle is a Yep; Table E's Yep row is G H K J I A K E F C.
    assert rule_digits(TableLetter.A, Card.GREEN_CIRCLE, RuleLetter.K) == (2, 6)
    assert rule_digits(TableLetter.A, Card.GREEN_CIRCLE, RuleLetter.B) == ()
