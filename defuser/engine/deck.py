"""The deck's rules, written once: the mitten cycle and the opening deal.

Contract: this module and the rulebook are the only statement of how the module deals.
Here: the hidden deck's cycle (what kind of card is on top, :func:`next_deal`, and how
the deck moves, :func:`after_deal`) and the opening. The rulebook
(:func:`defuser.engine.board.deal_faces_of`) says which faces a deal of each kind can
bring on the visible board, the guaranteed-legal draw included. The simulator draws its
hidden state from :func:`random_first_cycle`, :func:`random_new_cycle` and
:func:`random_opening` (the same random calls in the same order, so a seed replays the
same game) and a dealt face from the rulebook's faces; the belief enumerates
:func:`first_cycle_prior` and :func:`new_cycle_prior`; the log replay checks deals
against :func:`first_mitten_distances`, :func:`deal_breach` (what a deal at its place in
the cycle cannot be: the mitten early, a second Defuse, a Defuse first after a mitten,
anything but the Defuse when it is due) and :func:`opening_has_legal_plain`; and
:func:`opening_distribution` is computed from the same opening rules. What these rules
allow a hand to show (the mitten face once at most, never in slot 3) is the rulebook's
one check of a visible hand (:meth:`defuser.engine.board.Board.visible`).

The cycle. A hidden deck state is a :class:`Hidden`, ``(deals_until_mitten, defuse_in)``:
how many deals until the mitten is on top (0: on top now) and until this cycle's Defuse
is on top (``None`` when none is ahead before the mitten). It is the one type of the
hidden deck: the simulator keeps one (:meth:`defuser.engine.simulator.Module.reveal`
returns it) and the belief weighs them. Whether the first mitten has been dealt is not
part of it: a player sees that. At start-up the mitten is card ``N-p``
with ``p`` uniform in ``1..N-2``, and this cycle's Defuse is card ``q-p+1`` when
``q >= p`` with ``q`` uniform in ``0..N-2`` (none otherwise). Dealing the mitten starts
a full cycle: ``N-1`` deals to the next mitten, the Defuse uniform at place ``2..N-1``
of them.

The opening. The discard top is uniform over the 15 faces that are not the mitten; the
hand is three plain cards; while no card is both legal and plain, slot 1 or 2 (never
3) is re-rolled over all 16 faces.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from defuser.engine.rules import HAND_SIZE
from edgework import ALL_CARDS, Card, CardType, Ruleset

if TYPE_CHECKING:
    import random  # the callers pass a generator in

class Hidden(NamedTuple):
    """The deck's hidden state: what a player cannot see and the next deals depend on.

    A tuple, so that a belief keys, compares and sorts its states at C speed.
    """

    #: Deals until the mitten is on top of the deck; 0 means it is on top now.
    deals_until_mitten: int
    #: Deals until this cycle's Defuse is on top; ``None`` when no Defuse is ahead
    #: before the next mitten.
    defuse_in: int | None

#: The hand slots the opening re-rolls (over all 16 faces) until a card is legal and plain.
REROLL_SLOTS: Final = (1, 2)


class DealKind(enum.Enum):
    """What a dealt card turned out to be; the only thing a deal tells about the deck."""

    PLAIN = "plain"
    DEFUSE = "defuse"
    MITTEN = "mitten"


def deal_kind(rules: Ruleset, card: Card) -> DealKind:
    """The kind of deal that a face reveals under ``rules``."""
    kind = rules.type_of(card)
    if kind is CardType.EXPLODING_MITTEN:
        return DealKind.MITTEN
    if kind is CardType.DEFUSE:
        return DealKind.DEFUSE
    return DealKind.PLAIN


# ---------------------------------------------------------------------- the cycle


def next_deal(hidden: Hidden) -> DealKind:
    """What the next deal from this hidden state is."""
    if hidden.deals_until_mitten == 0:
        return DealKind.MITTEN
    if hidden.defuse_in == 0:
        return DealKind.DEFUSE
    return DealKind.PLAIN


@functools.cache
def after_deal(hidden: Hidden) -> Hidden:
    """The hidden state after a deal that was not the mitten (kept: the states are few,
    and the simulator and the belief ask on every deal)."""
    until, defuse_in = hidden
    return Hidden(until - 1, None if defuse_in is None or defuse_in == 0 else defuse_in - 1)


def _first_cycle(interval: int, p: int, q: int) -> Hidden:
    # The mitten is card number N-p, the Defuse (if any) card number q-p+1.
    return Hidden(interval - p - 1, q - p if q >= p else None)


def first_cycle_prior(interval: int) -> Iterator[Hidden]:
    """The start-up's hidden states, one per equally likely draw of ``(p, q)``."""
    for p in range(1, interval - 1):
        for q in range(0, interval - 1):
            yield _first_cycle(interval, p, q)


def random_first_cycle(interval: int, rng: random.Random) -> Hidden:
    """Draw the start-up's hidden state."""
    p = rng.randint(1, interval - 2)
    q = rng.randint(0, interval - 2)
    return _first_cycle(interval, p, q)


def first_mitten_distances(interval: int) -> range:
    """How many deals away the first mitten can be at start-up: it is the k-th card
    dealt with k in 2..N-1, so 1..N-2 deals away."""
    return range(1, interval - 1)


def cycle_length(interval: int) -> int:
    """Deals from one mitten to the next in a full cycle."""
    return interval - 1


def defuse_places(interval: int) -> range:
    """Where a full cycle's Defuse can be, counting that cycle's deals from 1: never the
    first card after the mitten, so 2..N-1."""
    return range(2, cycle_length(interval) + 1)


def place_in_cycle(interval: int, until: int) -> int:
    """The place (from 1) in a full cycle of the deal made ``until`` deals before the
    mitten is on top."""
    return cycle_length(interval) - until + 1


class CycleBreach(enum.Enum):
    """Why a deal cannot be what it was at its place in the mitten cycle."""

    #: The mitten was dealt before it was on top.
    MITTEN_EARLY = "mitten-early"
    #: A second Defuse in one cycle (each cycle deals one at most; a full cycle, one).
    SECOND_DEFUSE = "second-defuse"
    #: A Defuse as the first card dealt after a mitten (a full cycle's is 2nd or later).
    DEFUSE_FIRST = "defuse-first"
    #: Not the Defuse at the last deal before the mitten of a full cycle whose Defuse
    #: has not come: that deal must be it.
    DEFUSE_DUE = "defuse-due"


def deal_breach(
    kind: DealKind, until: int, *, defuse_dealt: bool, full_cycle: bool, interval: int | None
) -> CycleBreach | None:
    """Whether a deal of ``kind`` breaks the cycle, made ``until`` deals (1 or more)
    before the mitten is on top, in the first cycle or a full one (``full_cycle``),
    this cycle's Defuse dealt already or not; ``None`` when the cycle allows it.
    ``interval`` is N, when known (without it, a Defuse's place is not checked)."""
    if kind is DealKind.MITTEN:
        return CycleBreach.MITTEN_EARLY
    if kind is DealKind.DEFUSE:
        if defuse_dealt:
            return CycleBreach.SECOND_DEFUSE
        if (
            full_cycle
            and interval is not None
            and place_in_cycle(interval, until) not in defuse_places(interval)
        ):
            return CycleBreach.DEFUSE_FIRST
        return None
    if full_cycle and not defuse_dealt and until == 1:
        return CycleBreach.DEFUSE_DUE
    return None


def new_cycle_prior(interval: int) -> tuple[Hidden, ...]:
    """The equally likely hidden states right after a mitten is dealt."""
    n = cycle_length(interval)
    return tuple(Hidden(n, place - 1) for place in defuse_places(interval))


def random_new_cycle(interval: int, rng: random.Random) -> Hidden:
    """Draw the hidden state right after a mitten is dealt."""
    places = defuse_places(interval)
    return Hidden(cycle_length(interval), rng.randint(places.start, places.stop - 1) - 1)


# ---------------------------------------------------------------------- the opening


def opening_discards(rules: Ruleset) -> list[Card]:
    """The faces the opening discard top can be: all but the mitten."""
    mitten = rules.mitten
    return [c for c in ALL_CARDS if c != mitten]


def opening_has_legal_plain(rules: Ruleset, discard: Card, hand: Sequence[Card]) -> bool:
    """Whether some card of ``hand`` is both legal on ``discard`` and plain, as every
    full opening hand is."""
    return any(rules.is_legal(c, discard) and rules.type_of(c).is_plain for c in hand)


def random_opening(rules: Ruleset, rng: random.Random) -> tuple[Card, list[Card]]:
    """Draw the opening discard top and hand."""
    discard = rng.choice(opening_discards(rules))
    plain = rules.plain_faces
    hand = [rng.choice(plain) for _ in range(HAND_SIZE)]
    # Slot 1 or 2 (never 3) is re-rolled over all 16 faces until some card is both
    # legal and plain; this is how a Defuse or a mitten face can start in hand.
    while not opening_has_legal_plain(rules, discard, hand):
        hand[REROLL_SLOTS[rng.randrange(len(REROLL_SLOTS))] - 1] = rng.choice(ALL_CARDS)
    return discard, hand


def opening_distribution(rules: Ruleset) -> dict[tuple[Card, tuple[Card, ...]], float]:
    """Every opening state (discard top, hand in slot order) with its exact probability.

    The re-roll loop has a closed form: the slot re-rolled last holds a uniform legal
    plain face, and the other re-rollable slot still holds its first card with
    probability ``2g/(1+g)`` (g: the chance that one re-roll succeeds), else a uniform
    face that is not legal-and-plain.
    """
    plain = rules.plain_faces
    discards = opening_discards(rules)
    dist: dict[tuple[Card, tuple[Card, ...]], float] = {}

    def add(discard: Card, hand: tuple[Card, ...], w: float) -> None:
        dist[discard, hand] = dist.get((discard, hand), 0.0) + w

    for discard in discards:
        good = [c for c in plain if rules.is_legal(c, discard)]
        bad = [c for c in Card if c not in good]
        stuck = [c for c in plain if c not in good]
        g = len(good) / len(Card)
        keep = 2 * g / (1 + g)
        base = 1.0 / len(discards) / len(plain) ** 3
        for a in plain:
            for b in plain:
                for c in plain:
                    if a in good or b in good or c in good:
                        add(discard, (a, b, c), base)
        # Bad openings: (a, b, c) all stuck. Slot 1 or 2 ends holding a good face; the
        # other slot keeps its first card or holds a bad face; the first card of the
        # re-rolled slot no longer matters, so sum it out.
        for c in stuck:
            for new in good:
                w = base * len(stuck) * 0.5 / len(good)
                for other in stuck:
                    add(discard, (new, other, c), w * keep)
                    add(discard, (other, new, c), w * keep)
                for x in bad:
                    w_x = w * len(stuck) * (1 - keep) / len(bad)
                    add(discard, (new, x, c), w_x)
                    add(discard, (x, new, c), w_x)
    return dist
