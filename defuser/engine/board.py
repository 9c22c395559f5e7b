"""The rulebook: every rule of the visible module, in one type.

Contract: :class:`Board` is the module as a player sees it (the rule set, the discard
top, the hand in slot order, whether it is solved) and is the one place that states
what a click does there: which slots are legal, which block a discard (a lone legal
Defuse never does), the order of a draw's checks (the mitten on top first, then a full
hand), what a play does (a Defuse with the mitten on top solves, legal or not), and
which faces a deal can bring (a draw into two illegal cards brings a legal plain face).
The one thing a board cannot see, whether the mitten is on top of the deck, is a
parameter of every answer that depends on it; :meth:`Board.on_top_if` turns an effect
that was seen back into what it proves about the mitten.

A rule looks at few things: how many cards the hand holds, which of them the rule in
force admits, which are Defuses, and whether the module is solved (:class:`Facts`).
:func:`verdict_of` states every click's rules over these facts; a board computes its
facts and asks it, and so can a caller that has no board at hand (the DP, which asks
about every state of a rule set and keeps the answers by facts).

What a module can show is checked here too: :meth:`Board.visible` is the one check of
a hand given from outside (a person, a log), for every front end.

Everything that needs a rule asks a board: the simulator (which keeps the hidden deck
beside it, :mod:`defuser.engine.deck`), the belief's observation, the log replay, the
action values, the policies and the DP's transition tables. Boards are immutable;
:meth:`Board.after` gives the board a click leaves.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.deck import REROLL_SLOTS, DealKind
from defuser.engine.rules import HAND_SIZE, check_hand
from defuser.errors import InvalidHandError
from edgework import DEFUSE_FACES, Card, Ruleset, TableLetter
from edgework.tables import mask_of


class Effect(enum.Enum):
    """What one click does to the module."""

    #: An empty slot was clicked, or the module is solved: nothing happens.
    NOTHING = "nothing"
    #: The deck's top card moves: into the hand (a draw) or onto the pile (a discard).
    DEAL = "deal"
    #: The slot's card goes onto the pile.
    PLAY = "play"
    #: A Defuse played with the mitten on top: the module is solved.
    SOLVE = "solve"
    #: A strike; nothing moves.
    STRIKE = "strike"


@dataclass(frozen=True, slots=True)
class ClickVerdict:
    """What a click does: its :class:`Effect`, and for a strike why (``strike``) and,
    for a blocked discard, the slots that blocked it (``blocking``)."""

    effect: Effect
    strike: StrikeKind | None = None
    blocking: tuple[int, ...] = ()


_NOTHING: Final = ClickVerdict(Effect.NOTHING)
_DEAL: Final = ClickVerdict(Effect.DEAL)
_PLAY: Final = ClickVerdict(Effect.PLAY)
_SOLVE: Final = ClickVerdict(Effect.SOLVE)
_MITTEN_ON_TOP: Final = ClickVerdict(Effect.STRIKE, StrikeKind.MITTEN_ON_TOP)
_HAND_FULL: Final = ClickVerdict(Effect.STRIKE, StrikeKind.HAND_FULL)
_INVALID_PLAY: Final = ClickVerdict(Effect.STRIKE, StrikeKind.INVALID_PLAY)
#: Both answers to "is the mitten on top?", in the order the rulebook reports them.
ON_TOP_VALUES: Final = (False, True)


class Facts(NamedTuple):
    """What the click rules look at on a board: the hand's size, the slots whose card
    the rule in force admits and the slots holding a Defuse (bit ``i - 1`` for slot
    ``i``), and whether the module is solved."""

    size: int
    legal: int
    defuse: int
    solved: bool = False


def facts_of(
    rules: Ruleset, discard: Card, hand: Sequence[Card], solved: bool = False
) -> Facts:
    """The :class:`Facts` of a board (without making one)."""
    if solved or len(hand) > HAND_SIZE:
        legal = _bits(rules.legal_mask(discard), hand)
        return Facts(len(hand), legal, _bits(_defuse_mask(rules.table), hand), solved)
    admits, defuses = _slot_tables(rules.table, rules.last_digit)
    legal = defuse = 0
    for slot, card in enumerate(hand):
        legal |= admits[slot][card][discard]
        defuse |= defuses[slot][card]
    return _UNSOLVED[len(hand)][defuse][legal]


def facts_by_discard(rules: Ruleset, hand: Sequence[Card | int]) -> tuple[Facts, ...]:
    """:func:`facts_of` of an unsolved board with this hand, for each discard top in
    face order (one call for the 16 boards of a hand; the DP asks it for every hand,
    given as face values)."""
    admits, _ = _slot_tables(rules.table, rules.last_digit)
    same_size = _UNSOLVED[len(hand)][_bits(_defuse_mask(rules.table), hand)]
    legal: Iterable[int] = _NO_SLOTS
    for slot_admits, card in zip(admits, hand, strict=False):  # hands of 0-3 cards
        legal = map(operator.or_, legal, slot_admits[card])
    return tuple(map(same_size.__getitem__, legal))


#: The facts of every unsolved board, by hand size, then Defuse slots, then legal slots.
_UNSOLVED: Final = tuple(
    tuple(
        tuple(Facts(size, legal, defuse) for legal in range(1 << HAND_SIZE))
        for defuse in range(1 << HAND_SIZE)
    )
    for size in range(HAND_SIZE + 1)
)
#: No slot legal, on each of the 16 discard tops.
_NO_SLOTS: Final = (0,) * len(Card)


@functools.cache
def _slot_tables(
    table: TableLetter, last_digit: int
) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, ...], ...]]:
    """What a card in a slot adds to an unsolved board's facts under the rule set of
    ``table`` and ``last_digit``, per slot: per face and discard top, the slot's bit when
    the rule admits the face there; per face, the slot's bit when it is a Defuse. (Keyed
    by the letter and the digit, which compare at C speed: the simulator and every
    observation ask on each click.)"""
    rules = Ruleset(table, last_digit)
    masks = [rules.legal_mask(discard) for discard in Card]
    defuses = _defuse_mask(table)
    slots = range(HAND_SIZE)
    admits = tuple(
        tuple(tuple([(mask >> card & 1) << slot for mask in masks]) for card in range(len(Card)))
        for slot in slots
    )
    return admits, tuple(
        tuple([(defuses >> card & 1) << slot for card in range(len(Card))]) for slot in slots
    )


def _bits(faces: int, hand: Sequence[Card | int]) -> int:
    """The slots (bit ``i - 1`` for slot ``i``) whose card is in the set ``faces``."""
    bits = 0
    for i, card in enumerate(hand):
        if faces >> card & 1:
            bits |= 1 << i
    return bits


@functools.cache
def _defuse_mask(table: TableLetter) -> int:
    """The Defuse faces of ``table`` as a 16-bit mask."""
    return mask_of(DEFUSE_FACES[table])


def _slots(bits: int, size: int) -> tuple[int, ...]:
    """The 1-based slots of the set bits of ``bits``, a hand of ``size`` cards (bits
    past the hand are never set, so a hand of up to three cards reads a table)."""
    if bits < len(_SLOT_SETS):
        return _SLOT_SETS[bits]
    return tuple([i + 1 for i in range(size) if bits >> i & 1])


#: :func:`_slots` of every set of the three slots.
_SLOT_SETS: Final = tuple(
    tuple([i + 1 for i in range(HAND_SIZE) if bits >> i & 1]) for bits in range(1 << HAND_SIZE)
)


@functools.cache
def blocking_of(facts: Facts) -> tuple[int, ...]:
    """The slots that make a discard strike: the legal slots, except that a lone legal
    Defuse never blocks."""
    legal = _slots(facts.legal, facts.size)
    if len(legal) == 1 and facts.defuse >> (legal[0] - 1) & 1:
        return ()
    return legal


def guaranteed_legal_draw_of(facts: Facts) -> bool:
    """Whether a plain card drawn now must be legal: the hand holds exactly two cards
    and neither is legal."""
    return facts.size == HAND_SIZE - 1 and not facts.legal


def deal_faces_of(
    rules: Ruleset, discard: Card, facts: Facts, kind: DealKind, *, draw: bool
) -> tuple[Card, ...]:
    """The faces a deal of this kind can bring on a board, each equally likely.

    The mitten comes only by a discard (a draw with it on top strikes); the Defuse is
    any of the table's Defuse faces; a plain card is any plain face, except that a draw
    into two illegal cards brings a legal one (all plain faces should the rule admit
    none, which no rule set of the manual does).
    """
    if kind is DealKind.MITTEN:
        return () if draw else (rules.mitten,)
    if kind is DealKind.DEFUSE:
        return rules.defuse_faces
    if draw and guaranteed_legal_draw_of(facts):
        mask = rules.legal_mask(discard)
        return tuple([c for c in rules.plain_faces if mask >> c & 1]) or rules.plain_faces
    return rules.plain_faces


def played_from(hand: tuple[Card, ...], slot: int) -> tuple[Card, tuple[Card, ...]]:
    """What a play of ``slot`` moves: the card it puts on the pile (the new discard top)
    and the hand it leaves, packed left (for a caller that needs only the state a play
    leaves, not a board: the action values weigh every play of every answer)."""
    return hand[slot - 1], hand[: slot - 1] + hand[slot:]


def verdict_of(facts: Facts, action: Action, mitten_on_top: bool) -> ClickVerdict:
    """What ``action`` does on a board with these facts, the mitten being on top or not
    (the rules: :func:`_verdict`; asked once per facts, then looked up)."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        assert action.slot is not None
        column = action.slot + 1
    else:
        column = 0 if kind is ActionKind.DRAW else 1
    return _verdicts(facts)[column][1 if mitten_on_top else 0]


#: Every click, in the order of :func:`_verdicts`' rows.
_CLICKS: Final = (
    Action(ActionKind.DRAW),
    Action(ActionKind.DISCARD),
    *(Action(ActionKind.PLAY, slot) for slot in range(1, HAND_SIZE + 1)),
)


@functools.cache
def _verdicts(facts: Facts) -> tuple[tuple[ClickVerdict, ClickVerdict], ...]:
    """:func:`_verdict` of every click on a board with these facts: draw, discard, play
    1-3, each with the mitten not on top and on top."""
    return tuple((_verdict(facts, click, False), _verdict(facts, click, True)) for click in _CLICKS)


def _verdict(facts: Facts, action: Action, mitten_on_top: bool) -> ClickVerdict:
    """What ``action`` does on a board with these facts, the mitten being on top or not.

    The checks run in the module's order: a solved module does nothing; a draw
    strikes with the mitten on top, then with a full hand, else deals; a discard
    strikes while a card blocks it, else deals; a play of an empty slot does nothing,
    a Defuse with the mitten on top solves (legal or not), a legal card is played,
    anything else strikes.
    """
    if facts.solved:
        return _NOTHING
    kind = action.kind
    if kind is ActionKind.DRAW:
        if mitten_on_top:
            return _MITTEN_ON_TOP
        return _DEAL if facts.size < HAND_SIZE else _HAND_FULL
    if kind is ActionKind.DISCARD:
        blocking = blocking_of(facts)
        if blocking:
            return ClickVerdict(Effect.STRIKE, StrikeKind.DISCARD_BLOCKED, blocking)
        return _DEAL
    slot = action.slot
    assert slot is not None
    if slot > facts.size:
        return _NOTHING
    bit = 1 << (slot - 1)
    if mitten_on_top and facts.defuse & bit:
        return _SOLVE
    if facts.legal & bit:
        return _PLAY
    return _INVALID_PLAY


@dataclass(frozen=True, slots=True)
class Board:
    """The visible module: rule set, discard top, hand (slot 1 first), solved or not.

    Create one with ``Board(rules, discard, tuple(hand))`` (a hand of more than three
    cards raises :class:`~defuser.errors.InvalidHandError`).
    """

    rules: Ruleset
    discard: Card
    hand: tuple[Card, ...]
    solved: bool = False
    _facts: Facts | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.hand) > HAND_SIZE:
            check_hand(self.hand)  # raises, naming the hand

    @property
    def facts(self) -> Facts:
        """What the click rules look at on this board (:func:`facts_of`), worked out on
        first use (a board a click leaves is often only read for its state)."""
        facts = self._facts
        if facts is None:
            facts = facts_of(self.rules, self.discard, self.hand, self.solved)
            object.__setattr__(self, "_facts", facts)
        return facts

    @classmethod
    def visible(cls, rules: Ruleset, discard: Card, hand: Sequence[Card]) -> Board:
        """The board a module shows with this discard top and hand (slot 1 first), or
        :class:`~defuser.errors.InvalidHandError` when no module can show the hand: the
        one check of a visible hand, for every front end.

        A hand holds 0 to 3 cards (:func:`~defuser.engine.rules.check_hand`). The
        mitten face gets into a hand only at the opening, by the re-roll of slot 1 or 2
        (:data:`~defuser.engine.deck.REROLL_SLOTS`; a deal never brings it, see
        :func:`deal_faces_of`), and then once at most: the re-roll stops as soon as some
        card is legal and plain, and whenever a re-roll happens slot 3 (never re-rolled)
        is not. A card never moves to a later slot, so the mitten face is never in slot
        3. Any other face may be held up to three times (plain deals are independent,
        and every cycle deals a Defuse).
        """
        cards = check_hand(hand)
        mitten = rules.mitten
        slots = [slot for slot, card in enumerate(cards, start=1) if card == mitten]
        if len(slots) > 1 or any(slot not in REROLL_SLOTS for slot in slots):
            where = f"{len(slots)} times" if len(slots) > 1 else f"in slot {slots[0]}"
            raise InvalidHandError(
                f"hand '{' '.join(c.code for c in cards)}' holds {mitten.code}, table "
                f"{rules.table}'s Exploding Mitten, {where}, expected it at most once and "
                "only in slot 1 or 2 (only the opening deal puts it in a hand)"
            )
        return cls(rules, discard, cards)

    # ------------------------------------------------------------ what may be played

    @property
    def legal_slots(self) -> tuple[int, ...]:
        """The 1-based slots whose cards the rule in force admits."""
        facts = self.facts
        return _slots(facts.legal, facts.size)

    def is_legal(self, card: Card) -> bool:
        """Whether the rule in force admits ``card`` on this discard top."""
        return bool(self.rules.legal_mask(self.discard) >> card & 1)

    @property
    def blocking_slots(self) -> tuple[int, ...]:
        """The slots that make a discard strike (empty when discarding is allowed).

        These are the legal slots, except that a lone legal Defuse never blocks.
        """
        return blocking_of(self.facts)

    @property
    def discard_allowed(self) -> bool:
        """Whether clicking the discard pile deals a card instead of striking."""
        return not self.blocking_slots

    @property
    def has_room(self) -> bool:
        """Whether the hand has room for a drawn card."""
        return len(self.hand) < HAND_SIZE

    @property
    def guaranteed_legal_draw(self) -> bool:
        """Whether a plain card drawn now must be legal: the hand holds exactly two
        cards and neither is legal."""
        return guaranteed_legal_draw_of(self.facts)

    def defuse_slots(self) -> tuple[int, ...]:
        """The slots holding a Defuse face."""
        facts = self.facts
        return _slots(facts.defuse, facts.size)

    # ------------------------------------------------------------ what a click does

    def verdict(self, action: Action, *, mitten_on_top: bool) -> ClickVerdict:
        """What ``action`` does on this board, the mitten being on top or not (the
        rules and their order: :func:`verdict_of`)."""
        return verdict_of(self.facts, action, mitten_on_top)

    def effects(self, action: Action) -> tuple[Effect, Effect]:
        """The effect of ``action`` with the mitten not on top, and with it on top."""
        facts = self.facts
        return verdict_of(facts, action, False).effect, verdict_of(facts, action, True).effect

    def on_top_if(self, action: Action, effect: Effect) -> tuple[bool, ...]:
        """Which answers to "is the mitten on top?" agree with ``action`` having had
        ``effect``: both when the effect does not depend on it, one when seeing the
        effect proves it (a draw strike with room in the hand: on top; a Defuse that
        was played or struck: not on top), none when the effect cannot happen."""
        facts = self.facts
        return tuple(
            on_top for on_top in ON_TOP_VALUES
            if verdict_of(facts, action, on_top).effect is effect
        )

    # ------------------------------------------------------------ what a deal brings

    def deal_faces(self, kind: DealKind, *, draw: bool) -> tuple[Card, ...]:
        """The faces a deal of this kind can bring, each equally likely
        (:func:`deal_faces_of`)."""
        return deal_faces_of(self.rules, self.discard, self.facts, kind, draw=draw)

    # ------------------------------------------------------------ the board after

    def after(self, action: Action, card: Card | None = None) -> Board:
        """The board after ``action`` had its usual effect with the mitten not on top:
        a draw puts ``card`` in the first empty slot, a discard puts ``card`` on the
        pile, a play moves the slot's card onto the pile (the hand packs left)."""
        kind = action.kind
        if kind is ActionKind.DRAW:
            assert card is not None
            return Board(self.rules, self.discard, (*self.hand, card), self.solved)
        if kind is ActionKind.DISCARD:
            assert card is not None
            return Board(self.rules, card, self.hand, self.solved)
        slot = action.slot
        assert slot is not None
        top, rest = played_from(self.hand, slot)
        return Board(self.rules, top, rest, self.solved)

    def solve(self, slot: int) -> Board:
        """The board after the Defuse in ``slot`` solved the module."""
        return replace(self.after(Action.play(slot)), solved=True)
