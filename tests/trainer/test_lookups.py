"""defuser.trainer.lookups: the lookup drills' questions, answers and reasons.

Each expected answer is checked against :mod:`edgework` directly, and each reason says
the facts the answer comes from.
"""

from __future__ import annotations

import random

import pytest

from defuser.trainer.answers import LegalAnswer, RuleAnswer, TableAnswer
from defuser.trainer.lookups import (
    hand_words,
    identify_question,
    legal_answer,
    legal_question,
    legal_reason,
    rule_question,
    serial_with,
    table_question,
    table_reason,
)
from defuser.trainer.skills import CellSkill, LegalSkill, RuleSkill, TableSkill
from edgework import (
    RULE_LETTERS,
    TABLE_LETTERS,
    Card,
    CardType,
    RuleLetter,
    Ruleset,
    SerialNumber,
    TableLetter,
)
from edgework.errors import MisuseError


@pytest.mark.parametrize("table", TABLE_LETTERS)
def test_a_serial_is_drawn_with_the_table_and_digit_asked(table: TableLetter) -> None:
    rng = random.Random(table)
    for digit in (0, 7):
        serial = serial_with(rng, table=table, digit=digit)
        assert serial.table == table and serial.last_digit == digit
        assert SerialNumber.parse(serial.text) == serial  # vanilla


def test_the_reasons_name_the_facts() -> None:
    assert table_reason(SerialNumber.parse("AB3CD4")) == (
        "AB3CD4 has a vowel (A) and every character unique: Table B")
    assert hand_words([Card.GREEN_TRIANGLE, Card.BLUE_HEART]) == (
        "1: green triangle (GT)  2: blue heart (BH)")
    assert hand_words([]) == "empty"


def test_the_legal_answer_and_its_reason_follow_the_rulebook() -> None:
    rules = Ruleset(TableLetter.A, 3)  # rule J on a green circle: squares are illegal
    blocked = [Card.RED_HEART, Card.RED_SQUARE]
    assert legal_answer(rules, Card.GREEN_CIRCLE, blocked) == LegalAnswer((1,), False)
    assert legal_reason(rules, Card.GREEN_CIRCLE, blocked).endswith(
        "Legal: slot 1 (RH), so discarding would strike.")
    lone_defuse = [Card.YELLOW_CIRCLE, Card.RED_SQUARE]
    assert legal_answer(rules, Card.GREEN_CIRCLE, lone_defuse) == LegalAnswer((1,), True)
    assert legal_reason(rules, Card.GREEN_CIRCLE, lone_defuse).endswith(
        "a lone legal Defuse never blocks the discard pile, so you may discard.")
    none = [Card.RED_SQUARE]
    assert legal_answer(rules, Card.GREEN_CIRCLE, none) == LegalAnswer((), True)
    reason = legal_reason(rules, Card.GREEN_CIRCLE, none)
    assert "(the Exploding Mitten card is blue square (BS))" in reason
    assert reason.endswith("No card in hand is legal, so you may discard.")


def test_each_lookup_question_expects_what_the_tables_say() -> None:
    rng = random.Random(5)
    for table in TABLE_LETTERS:
        question = table_question(rng, TableSkill(table))
        serial = SerialNumber.parse(str(question.to_json()["serial"]))
        assert question.answer == TableAnswer(table) == TableAnswer(serial.table)
        card = Card.RED_SQUARE
        identify = identify_question(rng, CellSkill(table, card))
        serial = SerialNumber.parse(str(identify.to_json()["serial"]))
        assert identify.answer is Ruleset(serial.table, serial.last_digit).type_of(card)
    for kind in (CardType.ATTACK, CardType.DEFUSE):
        rule = rule_question(rng, RuleSkill(kind, 4))
        serial = SerialNumber.parse(str(rule.to_json()["serial"]))
        rules = Ruleset(serial.table, serial.last_digit)
        discard = Card.parse(str(rule.to_json()["discard"]))
        assert serial.last_digit == 4 and rules.type_of(discard) is kind
        assert rule.answer == RuleAnswer(rules.rule(discard)) and rule.rule == rules.rule(discard)


@pytest.mark.parametrize("letter", RULE_LETTERS)
def test_a_legal_question_is_asked_under_its_rule(letter: RuleLetter) -> None:
    question = legal_question(random.Random(letter), LegalSkill(letter))
    serial = SerialNumber.parse(str(question.to_json()["serial"]))
    rules = Ruleset(serial.table, serial.last_digit)
    discard = Card.parse(str(question.to_json()["discard"]))
    hand = [Card.parse(code) for code in question.to_json()["hand"]]
    assert rules.rule(discard) == question.rule == letter
    assert question.answer == legal_answer(rules, discard, hand)
    assert question.reason == legal_reason(rules, discard, hand)


class _SameEveryTime(random.Random):
    """Chooses the first of every choice: always the same serial number."""

    def getrandbits(self, k: int, /) -> int:
        return 0


def test_a_serial_that_sampling_cannot_find_is_a_misuse() -> None:
    """Rejection sampling that never finds what was asked is a broken invariant, under
    the one root (it was a RuntimeError)."""
    found = serial_with(_SameEveryTime())
    other = next(t for t in TABLE_LETTERS if t != found.table)
    with pytest.raises(MisuseError, match=f"no vanilla serial with table {other}"):
        serial_with(_SameEveryTime(), table=other)
