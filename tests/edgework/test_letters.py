"""Table and rule letters are typed (``StrEnum``s) yet read, compare and print as letters."""

from __future__ import annotations

import itertools
import json

from edgework import (
    ALL_CARDS,
    CARD_TABLES,
    DEFUSE_FACES,
    MITTEN_FACES,
    MITTEN_RULES,
    PLAIN_FACES,
    RULE_LETTERS,
    RULE_PREDICATES,
    RULE_TEXTS,
    TABLE_CONDITIONS,
    TABLE_E,
    TABLE_LETTERS,
    Card,
    CardType,
    RuleLetter,
    Ruleset,
    SerialNumber,
    TableLetter,
    rule_admits,
    rule_letter,
    table_for,
)


def test_the_letters_are_the_enums_in_order() -> None:
    assert TABLE_LETTERS == tuple(TableLetter) == ("A", "B", "C", "D")
    assert RULE_LETTERS == tuple(RuleLetter) == tuple("ABCDEFGHIJKL")


def test_lookups_return_typed_letters() -> None:
    serial = SerialNumber.parse("AB3CD4")
    assert serial.table is TableLetter.B and table_for(False, False) is TableLetter.D
    rules = Ruleset(TableLetter.B, 4)
    assert rules.table is TableLetter.B and rules == Ruleset(TableLetter.B, 4)
    letter = rules.rule(Card.parse("RC"))
    assert isinstance(letter, RuleLetter)
    assert letter == rule_letter(TableLetter.B, 4, Card.parse("RC"))


def test_a_letter_prints_and_serialises_as_itself() -> None:
    letter = TableLetter.C
    assert (str(letter), f"{letter}", repr(letter)) == ("C", "C", "'C'")
    assert json.dumps({letter: [RuleLetter.I]}) == '{"C": ["I"]}'
    assert repr(Ruleset(TableLetter.C, 0)) == "Ruleset(table='C', last_digit=0)"
    assert {"C": 1}[letter] == 1 and hash(letter) == hash("C")


def test_every_table_is_keyed_by_typed_letters() -> None:
    """Tables A-F are keyed by the enums (text becomes a letter where it is read), and
    Table E's cells are rule letters."""
    for table in (CARD_TABLES, MITTEN_FACES, PLAIN_FACES, DEFUSE_FACES, TABLE_CONDITIONS):
        assert [type(k) for k in table] == [TableLetter] * 4
        assert tuple(table) == TABLE_LETTERS
    for rules in (RULE_TEXTS, RULE_PREDICATES):
        assert [type(k) for k in rules] == [RuleLetter] * 12
        assert tuple(rules) == RULE_LETTERS
    assert all(type(k) is CardType for k in TABLE_E)
    assert all(type(x) is RuleLetter for row in TABLE_E.values() for x in row)
    assert "".join(TABLE_E[CardType.NOPE]) == "JEKALHGJDA"
    assert all(type(x) is RuleLetter for x in MITTEN_RULES)


def test_the_mitten_rules_are_those_that_read_the_mitten_face() -> None:
    """A rule is one of ``MITTEN_RULES`` exactly when the table's mitten face can change
    what it admits."""
    reads_mitten = {
        letter
        for letter in RuleLetter
        for card, mitten, other in itertools.product(ALL_CARDS, repeat=3)
        for discard in (Card.RED_CIRCLE, Card.YELLOW_SQUARE)
        if rule_admits(letter, card, discard, mitten) != rule_admits(letter, card, discard, other)
    }
    assert MITTEN_RULES == reads_mitten == {"I", "J", "K", "L"}
