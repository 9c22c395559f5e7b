"""The hand's shape: three slots, packed to the left.

Contract: :data:`HAND_SIZE` is the one statement of how many cards a hand holds, and
:func:`check_hand` the one check of it. Every rule about what a click does on a hand
(legal slots, the blocking rule, the draw's checks, a Defuse's meaning, what a deal
brings) is the rulebook's, :class:`defuser.engine.board.Board`.
"""

from __future__ import annotations

from collections.abc import Sequence

from defuser.errors import InvalidHandError
from edgework import Card

HAND_SIZE = 3


def check_hand(hand: Sequence[Card]) -> tuple[Card, ...]:
    """Return ``hand`` as a tuple, or raise if it holds more than three cards."""
    if len(hand) > HAND_SIZE:
        cards = " ".join(c.code for c in hand)
        raise InvalidHandError(
            f"hand '{cards}' has {len(hand)} cards, expected 0 to {HAND_SIZE}"
        )
    return tuple(hand)
