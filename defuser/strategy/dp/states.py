"""The DP's states: every visible situation of one phase, numbered.

Contract: a *state* is a hand, as a multiset of faces (0 to 3 cards of the 16 faces: 969
hands, :data:`HANDS`, smallest hands first), and a discard top; its number is
``hand index * 16 + discard top`` (:func:`state_index`), so the states whose hand has
room for a draw come first (:data:`ROOM_STATES` of the :data:`STATES`). This module
only numbers states and says how a card joins or leaves a hand; what a click does is
the rulebook's (:mod:`defuser.engine.board`), asked by :mod:`defuser.strategy.dp.clicks`.
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Sequence
from typing import Final

from defuser.engine.rules import HAND_SIZE
from edgework import Card

FACES: Final = 16

#: Every hand as a sorted tuple of face values, smallest hands first.
HANDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    hand
    for size in range(HAND_SIZE + 1)
    for hand in itertools.combinations_with_replacement(range(FACES), size)
)
#: Hand (sorted face values) -> its index in :data:`HANDS`.
HAND_INDEX: Final[dict[tuple[int, ...], int]] = {hand: i for i, hand in enumerate(HANDS)}
#: ``SIZE_START[k]`` is the index of the first hand with ``k`` cards (k = 0..4).
SIZE_START: Final[tuple[int, ...]] = tuple(
    next((i for i, h in enumerate(HANDS) if len(h) >= k), len(HANDS))
    for k in range(HAND_SIZE + 2)
)
HAND_COUNT: Final = len(HANDS)


def _face_sets() -> tuple[int, ...]:
    out = []
    for hand in HANDS:
        faces = 0
        for c in hand:
            faces |= 1 << c
        out.append(faces)
    return tuple(out)


#: Per hand, the faces it holds as a bit set (bit ``c`` for face ``c``).
HAND_FACES: Final[tuple[int, ...]] = _face_sets()
#: Number of states per phase: hand index * 16 + discard top.
STATES: Final = HAND_COUNT * FACES
#: States whose hand has room for a draw come first (hands of 0-2 cards).
ROOM_STATES: Final = SIZE_START[HAND_SIZE] * FACES


def hand_index(cards: Sequence[Card | int]) -> int:
    """The index in :data:`HANDS` of a hand given in any order."""
    return HAND_INDEX[tuple(sorted(int(c) for c in cards))]


def state_index(discard: Card | int, hand: Sequence[Card | int]) -> int:
    """The index of a visible state inside a phase's value list."""
    return hand_index(hand) * FACES + int(discard)


@functools.cache
def add_row(h: int) -> tuple[int, ...]:
    """``ADD[h]``: per face, the hand ``h`` plus that face (all -1 when ``h`` is full).

    Built per hand on first use: a first answer touches a few hundred of the 969.
    """
    hand = HANDS[h]
    if len(hand) >= HAND_SIZE:
        return (-1,) * FACES
    out = []
    for c in range(FACES):
        at = bisect.bisect(hand, c)  # where c goes in the sorted hand
        out.append(HAND_INDEX[(*hand[:at], c, *hand[at:])])
    return tuple(out)


@functools.cache
def remove_row(h: int) -> tuple[tuple[int, int], ...]:
    """``REMOVE[h]``: (face, hand without one of it) for each distinct face in hand ``h``."""
    hand = HANDS[h]
    pairs = []
    for c in sorted(set(hand)):
        rest = list(hand)
        rest.remove(c)
        pairs.append((c, HAND_INDEX[tuple(rest)]))
    return tuple(pairs)


@functools.cache
def distinct_faces(h: int) -> tuple[tuple[int, int, int], ...]:
    """Per distinct face of hand ``h``: the face, the hand without one of it, and the
    0-based slot of its first copy (the DP's hands are sorted)."""
    hand = HANDS[h]
    return tuple((c, rest, hand.index(c)) for c, rest in remove_row(h))
