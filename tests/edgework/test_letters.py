"""Table and rule letters are typed (``StrEnum``s) yet read, compare and print as letters."""

from __future__ import annotations

import json

from edgework import (
    RULE_LETTERS,
    TABLE_LETTERS,
    Card,
    RuleLetter,
    Ruleset,
    SerialNumber,
    TableLetter,
    rule_letter,
    table_for,
)


def test_the_letters_are_the_enums_in_order() -> None:
    assert TABLE_LETTERS == tuple(TableLetter) == ("A", "B", "C", "D")
    assert RULE_LETTERS == tuple(RuleLetter) == tuple("ABCDEFGHIJKL")


def test_lookups_return_typed_letters() -> None:
    serial = SerialNumber.parse("AB3CD4")
    assert serial.table is TableLetter.B and table_for(False, False) is TableLetter.D
    rules = Ruleset("B", 4)
    assert rules.table is TableLetter.B and rules == Ruleset(TableLetter.B, 4)
    letter = rules.rule(Card.parse("RC"))
    assert isinstance(letter, RuleLetter) and letter == rule_letter("B", 4, Card.parse("RC"))


def test_a_letter_prints_and_serialises_as_itself() -> None:
    letter = TableLetter.C
    assert (str(letter), f"{letter}", repr(letter)) == ("C", "C", "'C'")
    assert json.dumps({letter: [RuleLetter.I]}) == '{"C": ["I"]}'
    assert repr(Ruleset("C", 0)) == "Ruleset(table='C', last_digit=0)"
    assert {"C": 1}[letter] == 1 and hash(letter) == hash("C")
