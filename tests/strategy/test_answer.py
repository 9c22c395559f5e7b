"""``defuser.strategy.answer`` on its own: a batch line read field by field, and a
report whose one-line answer agrees with the legal and blocking slots it lists."""

from __future__ import annotations

import itertools
import random

import pytest

from defuser.errors import DefuserError, InvalidHandError
from defuser.strategy.answer import analyse, parse_batch_line, solve_batch_line
from edgework import (
    ALL_CARDS,
    MITTEN_FACES,
    Batteries,
    Card,
    CardType,
    Edgework,
    EdgeworkError,
    SerialNumber,
)


def test_a_batch_line_is_serial_batteries_discard_and_the_hand() -> None:
    edgework, discard, hand = parse_batch_line("  ab3cd4 3 rc BH gs  ")
    assert edgework == Edgework(serial=SerialNumber.parse("AB3CD4"), batteries=Batteries(3))
    assert discard is Card.RED_CIRCLE and hand == (Card.BLUE_HEART, Card.GREEN_SQUARE)
    with pytest.raises(DefuserError, match=r"^line 'AB3CD4 3' has 2 fields, expected "):
        parse_batch_line("AB3CD4 3")
    with pytest.raises(DefuserError):
        parse_batch_line("AB3CD4 3 RC BH GS YT RC")
    with pytest.raises(EdgeworkError):
        parse_batch_line("AB3CDE 3 RC")
    assert solve_batch_line("AB3CDE 3 RC", strict=False).serial.text == "AB3CDE"
    with pytest.raises(DefuserError, match="no serial number"):
        analyse(Edgework(), Card.RED_CIRCLE, [])


def test_the_answer_follows_the_legal_and_blocking_slots() -> None:
    rng = random.Random(3)
    serials = ["AB3CD4", "AE5BX0", "BB1CD7", "BC1DF2"]
    for serial, discard in itertools.product(serials, ALL_CARDS):
        for size in range(4):
            hand = rng.sample(ALL_CARDS, size)
            try:
                report = analyse(Edgework.parse(serial), discard, hand)
            except InvalidHandError:
                # No module shows its mitten face in slot 3 (the sample holds it once).
                table = SerialNumber.parse(serial).table
                assert size == 3 and hand[2] == MITTEN_FACES[table]
                continue
            rules = report.rules
            assert [h.card for h in report.hand] == hand
            assert [h.type for h in report.hand] == [rules.type_of(c) for c in hand]
            assert tuple(h.slot for h in report.hand if h.legal) == report.legal_slots
            assert set(report.blocking_slots) <= set(report.legal_slots)
            assert report.discard_allowed == (not report.blocking_slots)
            assert report.draw_allowed == (size < 3)
            legal = report.legal_slots
            if report.blocking_slots:
                plays = " or ".join(f"play {s}" for s in legal)
                assert report.answer == f"Play a legal card: {plays}. Discarding now would strike."
            elif len(legal) == 1 and rules.type_of(hand[legal[0] - 1]) is CardType.DEFUSE:
                assert report.answer.startswith(
                    f"The only legal card is the Defuse in slot {legal[0]}"
                )
            else:
                assert report.answer.startswith("No card is legal")
                assert report.answer.endswith("hand is full: discard.") == (size == 3)
            data = report.to_json()
            assert data["legal_slots"] == list(legal) and data["answer"] == report.answer
            assert data["rule"] == {"letter": report.rule_letter, "text": report.rule_text}
            assert data["table"] == rules.table == SerialNumber.parse(serial).table
