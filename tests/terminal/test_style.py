"""defuser.terminal.style: a card as rich text, in its suit's colour."""

from __future__ import annotations

from defuser.terminal.style import COLOUR_STYLES, card_text
from edgework import SHAPE_GLYPHS, Card, Colour


def test_a_card_is_its_code_glyph_and_words_in_its_colour() -> None:
    for card in Card:
        text = card_text(card)
        assert text.plain == f"{card.code} {SHAPE_GLYPHS[card.shape]} {card.words}"
        [span] = text.spans
        assert (span.start, span.end) == (0, len(card.code) + 2)
        assert span.style == COLOUR_STYLES[card.colour]


def test_without_words_or_colour() -> None:
    text = card_text(Card.YELLOW_HEART, words=False, colour=False)
    assert text.plain == f"YH {SHAPE_GLYPHS[Card.YELLOW_HEART.shape]}" and not text.spans
    assert set(COLOUR_STYLES) == set(Colour)
    assert len(set(COLOUR_STYLES.values())) == len(Colour)
