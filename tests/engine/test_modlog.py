"""The module's log templates: every formatter reads back through its own pattern."""

from __future__ import annotations

import pytest

from defuser.engine import modlog
from edgework import Card, CardType, RuleLetter, TableLetter


def test_every_face_and_type_round_trips_through_the_patterns() -> None:
    for card in Card:
        for kind in CardType:
            for expected, message in (
                (modlog.OpeningDiscardMessage(card, kind), modlog.initial_discard(card, kind)),
                (modlog.DrewMessage(card, kind), modlog.drew(card, kind)),
                (modlog.DiscardedMessage(card, kind), modlog.discarded(card, kind)),
                (modlog.PlayedMessage(card, kind), modlog.played(card, kind)),
            ):
                assert modlog.parse(message) == expected
            for n in (1, 2, 3):
                assert modlog.parse(modlog.hand_card(n, card, kind)) == modlog.HandCardMessage(
                    n, card, kind
                )
        assert modlog.parse(modlog.invalid_play(card)) == modlog.InvalidPlayMessage(card)


def test_every_message_reads_back_as_itself() -> None:
    letters = list(RuleLetter)
    messages: list[modlog.Message] = [
        *(modlog.TableMessage(t) for t in TableLetter),
        *(modlog.RuleMessage(r) for r in letters),
        *(modlog.RuleNowMessage(r) for r in letters),
        *(modlog.MittenComingMessage(k) for k in range(100)),
        *(modlog.BlockingSlotMessage(s, e) for s in (1, 2, 3)
          for _, e in modlog.SLOT_EXCLAMATIONS),
        modlog.DrawMittenStrikeMessage(), modlog.HandFullStrikeMessage(),
        modlog.DiscardBlockedMessage(), modlog.StrikeMessage(), modlog.SolvedMessage(),
    ]
    for message in messages:
        assert modlog.parse(message.text()) == message
    assert {type(m) for m in messages} | {
        modlog.OpeningDiscardMessage, modlog.HandCardMessage, modlog.DrewMessage,
        modlog.DiscardedMessage, modlog.PlayedMessage, modlog.InvalidPlayMessage,
    } == set(modlog.MESSAGE_TYPES)
    assert [t.name for t in modlog.MESSAGE_TYPES] == list(modlog.TEMPLATES)


@pytest.mark.parametrize(
    ("message", "text"),
    [
        (modlog.table(TableLetter.C), "You should use Table C."),
        (modlog.rule(RuleLetter.J), "The rule used is J."),
        (modlog.rule_now(RuleLetter.A), "The rule used now is A."),
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
    assert modlog.parse(text) is not None


def test_line_prefix_and_pattern() -> None:
    text = modlog.line(2, modlog.strike())
    assert text == "[Exploding Mittens #2] Strike!"
    match = modlog.LINE_PATTERN.fullmatch(text)
    assert match is not None and match.group("id") == "2" and match.group("message") == "Strike!"


def test_unknown_messages_are_not_classified() -> None:
    assert modlog.parse("You drew a purple circle, which is a(n) Yep card.") is None
    assert modlog.parse("The rule used is M.") is None
    assert modlog.parse("Strike! ") is None


def test_a_line_is_written_once() -> None:
    """The one-call formatters write a line once and then hand out the same text (the
    simulator writes two or three lines on every click); the text is the message's."""
    card, kind = Card.RED_CIRCLE, CardType.YEP
    assert modlog.drew(card, kind) is modlog.drew(card, kind)
    assert modlog.drew(card, kind) == modlog.DrewMessage(card, kind).text()
    assert modlog.mitten_coming(4) is modlog.mitten_coming(4)
    assert modlog.line(7, "Strike!") == "[Exploding Mittens #7] Strike!"
    assert modlog.line(12, "Strike!") == "[Exploding Mittens #12] Strike!"
