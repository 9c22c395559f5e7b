"""Which actions the module accepts, from what the player can see.

Pure functions of the rule set, the discard top and the hand, exactly as the module
checks them (see the spec's "Actions and outcomes"). A draw's one hidden condition, the
mitten on top of the deck, is not known here: :func:`draw_has_room` only says whether
the hand has room.
"""

from __future__ import annotations

from collections.abc import Sequence

from defuser.errors import InvalidHandError
from edgework import Card, CardType, Ruleset

HAND_SIZE = 3


def check_hand(hand: Sequence[Card]) -> tuple[Card, ...]:
    """Return ``hand`` as a tuple, or raise if it holds more than three cards."""
    if len(hand) > HAND_SIZE:
        cards = " ".join(c.code for c in hand)
        raise InvalidHandError(
            f"hand '{cards}' has {len(hand)} cards, expected 0 to {HAND_SIZE}"
        )
    return tuple(hand)


def is_legal(rules: Ruleset, card: Card, discard: Card) -> bool:
    """Whether the rule in force on ``discard`` admits ``card`` (pure rule legality)."""
    return rules.is_legal(card, discard)


def legal_slots(rules: Ruleset, discard: Card, hand: Sequence[Card]) -> tuple[int, ...]:
    """The 1-based slots whose cards the rule in force admits."""
    mask = rules.legal_mask(discard)
    if len(hand) > HAND_SIZE:
        check_hand(hand)  # raises
    return tuple([i for i, c in enumerate(hand, 1) if mask >> c & 1])


def blocking_slots(rules: Ruleset, discard: Card, hand: Sequence[Card]) -> tuple[int, ...]:
    """The slots that make a discard strike (empty when discarding is allowed).

    These are the legal slots, except that a lone legal Defuse never blocks.
    """
    slots = legal_slots(rules, discard, hand)
    if len(slots) == 1 and rules.type_of(hand[slots[0] - 1]) is CardType.DEFUSE:
        return ()
    return slots


def discard_allowed(rules: Ruleset, discard: Card, hand: Sequence[Card]) -> bool:
    """Whether clicking the discard pile deals a card instead of striking."""
    return not blocking_slots(rules, discard, hand)


def discard_blocked(rules: Ruleset, discard: Card, hand: Sequence[Card]) -> bool:
    """Whether clicking the discard pile strikes because a card could be played."""
    return bool(blocking_slots(rules, discard, hand))


def draw_has_room(hand: Sequence[Card]) -> bool:
    """Whether the hand has room for a drawn card (the mitten may still be on top)."""
    return len(check_hand(hand)) < HAND_SIZE
