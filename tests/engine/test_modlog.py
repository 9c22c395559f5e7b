"""The module's log templates: every formatter reads back through its own pattern."""

from __future__ import annotations

import pytest

from defuser.engine import modlog
from edgework import Card, CardType


def test_every_face_and_type_round_trips_through_the_patterns() -> None:
    for card in Card:
        for kind in CardType:
            for name, message in (
                ("initial_discard", modlog.initial_discard(card, kind)),
                ("drew", modlog.drew(card, kind)),
                ("discarded", modlog.discarded(card, kind)),
                ("played", modlog.played(card, kind)),
            ):
                found = modlog.classify(message)
                assert found == (name, {"face": card.words, "type": kind.value})
            for n in (1, 2, 3):
                assert modlog.classify(modlog.hand_card(n, card, kind)) == (
                    "hand_card",
                    {"n": str(n), "face": card.words, "type": kind.value},
                )
        assert modlog.classify(modlog.invalid_play(card)) == (
            "invalid_play",
            {"face": card.words},
        )


@pytest.mark.parametrize(
    ("message", "text"),
    [
        (modlog.table("C"), "You should use Table C."),
        (modlog.rule("J"), "The rule used is J."),
        (modlog.rule_now("A"), "The rule used now is A."),
        (modlog.mitten_coming(0), "(The Exploding Mitten is coming in 0 draws.)"),
        (modlog.mitten_coming(12), "(The Exploding Mitten is coming in 12 draws.)"),
        (modlog.draw_mitten_strike(), "You were going to draw an Exploding Mitten. Strike!"),
        (modlog.hand_full_strike(), "Your hand was full. Strike!"),
        (
            modlog.discard_blocked(),
            "You tried to click on the discard pile, but you still could've played:",
        ),
        (modlog.blocking_slot(1), "... the first card! Woah!"),
        (modlog.blocking_slot(2), "... the second card! Wow!"),
        (modlog.blocking_slot(3), "... the third card! Wacky!"),
        (modlog.strike(), "Strike!"),
        (
            modlog.solved(),
            "You played a Defuse card when an Exploding Mitten was at the top of the deck. "
            "Module solved!",
        ),
        (
            modlog.drew(Card.GREEN_SQUARE, CardType.DOUBLE_PLAY),
            "You drew a green square, which is a(n) Double Play card.",
        ),
    ],
)
def test_messages_are_word_for_word(message: str, text: str) -> None:
    assert message == text
    assert modlog.classify(text) is not None


def test_line_prefix_and_pattern() -> None:
    text = modlog.line(2, modlog.strike())
    assert text == "[Exploding Mittens #2] Strike!"
    match = modlog.LINE_PATTERN.fullmatch(text)
    assert match is not None and match.group("id") == "2" and match.group("message") == "Strike!"


def test_unknown_messages_are_not_classified() -> None:
    assert modlog.classify("You drew a purple circle, which is a(n) Yep card.") is None
    assert modlog.classify("The rule used is M.") is None
    assert modlog.classify("Strike! ") is None
