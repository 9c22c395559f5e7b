"""The player's exact belief about the hidden deck, from what the player sees.

Contract: the solver never sees hidden state; everything here is computed from what a
player can see (edgework, the opening state, each card dealt and whether it was drawn
or discarded, each strike), never from :meth:`defuser.engine.simulator.Module.reveal`.

Two layers:

* :class:`CycleBelief` is the exact posterior over the deck's hidden state, a small
  distribution over :class:`~defuser.engine.deck.Hidden` states ``(deals_until_mitten,
  defuse_in)``, the type the simulator keeps (whether the first mitten has been dealt,
  which the player knows, is the belief's ``first_cycle``). It starts from the spec's
  prior (the mitten is card ``N-p`` with ``p`` uniform in ``1..N-2``, this cycle's
  Defuse card ``q-p+1`` when ``q >= p`` with ``q`` uniform in ``0..N-2``) and is
  conditioned on every event. Weights are exact
  :class:`~fractions.Fraction` values. A face's identity never moves the belief: given
  its type (plain, Defuse, mitten) every face has the same likelihood in every hidden
  state, the guaranteed-legal draw included.
* :class:`Observation` is the whole visible record of one module: the rule set, N, the
  discard top, the hand in slot order, strikes, clicks and the :class:`CycleBelief`. Its
  event methods (:meth:`Observation.drew`, :meth:`Observation.discarded`, ...) return a
  new observation; one that contradicts the rules or the history raises
  :class:`~defuser.errors.InvalidObservationError` saying why, and changes nothing
  (observations are immutable). What a click means comes from the rulebook
  (:class:`~defuser.engine.board.Board`): which effects it can have, which faces a
  deal can bring, and what an effect proves about the mitten (:meth:`Board.on_top_if`).

Public API for other tools (log analyser, trainer, live session, benchmark)::

    obs = Observation.start(rules, interval, discard, hand)   # opening state
    obs = obs.drew(card) / .discarded(card) / .played(slot)
    obs = obs.strike_draw() / .strike_discard() / .strike_play(slot) / .solve()
    obs = obs.apply(event)               # an Event (Drew, Played, Struck...), mapped to the above
    obs = obs.after(result)              # a simulator Result: its event, if any
    b = obs.belief
    b.mitten_on_top                      # Fraction: P(the mitten is on top now)
    b.deals_until_on_top                 # int when the phase is known, else None
    b.defuse_possible                    # can this cycle's Defuse still come?
    b.defuse_next                        # Fraction: P(the next deal is the Defuse)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import Board, Effect
from defuser.engine.deck import (
    DealKind,
    Hidden,
    after_deal,
    deal_kind,
    first_cycle_prior,
    new_cycle_prior,
    next_deal,
    opening_discards,
    opening_has_legal_plain,
)
from defuser.engine.rules import HAND_SIZE
from defuser.errors import InvalidHandError, InvalidObservationError, NoOpeningStateError
from edgework import MAX_INTERVAL, MIN_INTERVAL, Card, Ruleset

if TYPE_CHECKING:
    from defuser.engine.events import Discarded, Drew, Event, Played, Solved, Struck
    from defuser.engine.simulator import Result

def _check_interval(interval: int) -> None:
    if not MIN_INTERVAL <= interval <= MAX_INTERVAL:
        raise InvalidObservationError(
            f"interval N={interval} is not a mitten interval, expected "
            f"{MIN_INTERVAL}..{MAX_INTERVAL} (batteries mod 5, plus 9)"
        )


@dataclass(frozen=True, slots=True)
class CycleBelief:
    """The exact posterior over the hidden deck state.

    ``support`` lists ``((deals_until_mitten, defuse_in), probability)`` pairs, sorted,
    probabilities positive and summing to 1. Beliefs are immutable and hashable; two
    beliefs with the same support have the same future, whatever the history.
    """

    interval: int
    first_cycle: bool
    support: tuple[tuple[Hidden, Fraction], ...]
    _hash: int = field(init=False, repr=False, compare=False)
    #: :attr:`mitten_on_top`, worked out on first use.
    _on_top: Fraction | None = field(default=None, init=False, repr=False, compare=False)
    #: :attr:`key`, worked out on first use.
    _key: CycleBelief | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Beliefs key dictionaries on every click (policy tables, memoised updates);
        # hashing dozens of Fractions each time would dominate, so hash once.
        object.__setattr__(self, "_hash", hash((self.interval, self.first_cycle, self.support)))

    def __hash__(self) -> int:
        return self._hash

    # ------------------------------------------------------------ construction

    @classmethod
    def initial(cls, interval: int) -> CycleBelief:
        """The prior at start-up, before anything is dealt (the spec's first cycle)."""
        _check_interval(interval)
        return _initial(interval)

    @classmethod
    def new_cycle(cls, interval: int) -> CycleBelief:
        """The belief right after a mitten is dealt: N-1 deals to the next mitten, the
        Defuse uniform among the 2nd .. (N-1)-th of them."""
        _check_interval(interval)
        return _new_cycle(interval)

    @classmethod
    def point(cls, interval: int, hidden: Hidden, *, first_cycle: bool = False) -> CycleBelief:
        """Certainty about one hidden state (what an all-seeing oracle believes)."""
        _check_interval(interval)
        return _point(interval, hidden, first_cycle)

    # ------------------------------------------------------------ questions

    @property
    def mitten_on_top(self) -> Fraction:
        """The probability that the mitten is on top of the deck now."""
        top = self._on_top
        if top is None:
            top = sum((w for h, w in self.support if h.deals_until_mitten == 0), Fraction(0))
            object.__setattr__(self, "_on_top", top)
        return top

    @property
    def deals_until_on_top(self) -> int | None:
        """Deals until the mitten is on top (0: on top now), or None while unknown."""
        values = {h.deals_until_mitten for h, _ in self.support}
        return values.pop() if len(values) == 1 else None

    @property
    def defuse_possible(self) -> bool:
        """Whether this cycle's Defuse may still be dealt before the next mitten."""
        return any(h.defuse_in is not None for h, _ in self.support)

    @property
    def defuse_ahead(self) -> Fraction:
        """The probability that this cycle's Defuse is still ahead of the mitten."""
        return sum((w for h, w in self.support if h.defuse_in is not None), Fraction(0))

    @property
    def defuse_next(self) -> Fraction:
        """The probability that the next card dealt is this cycle's Defuse."""
        return sum((w for h, w in self.support if h.defuse_in == 0), Fraction(0))

    def probability(self, kind: DealKind) -> Fraction:
        """The probability that the next deal is of this kind."""
        return sum((w for h, w in self.support if next_deal(h) is kind), Fraction(0))

    @property
    def key(self) -> CycleBelief:
        """What the future depends on: this belief with the first-cycle flag dropped.

        Two beliefs with the same key have the same future; the DP keys phases by it.
        Keys are canonical (:func:`_canonical`), so a dictionary keyed by them finds a key
        by identity.
        """
        key = self._key
        if key is None:
            key = _canonical(CycleBelief(self.interval, False, self.support))
            object.__setattr__(self, "_key", key)
        return key

    # ------------------------------------------------------------ updates

    def after_deal(self, kind: DealKind) -> CycleBelief:
        """The belief after one card of this kind was dealt (drawn or discarded).

        Raises :class:`InvalidObservationError` when no hidden state allows it.
        """
        return _after_deal(self, kind)

    def given_on_top(self, on_top: bool) -> CycleBelief:
        """The belief once it is learned whether the mitten is on top now.

        A draw strike with room in the hand proves it is; a Defuse that is played
        without solving, or strikes as an invalid play, proves it is not.
        """
        return _given_on_top(self, on_top)

    def split(self) -> tuple[tuple[Fraction, CycleBelief], ...]:
        """This belief as a mixture of certainties (how an oracle sees the same deck)."""
        return tuple((w, _point(self.interval, h, self.first_cycle)) for h, w in self.support)

    def describe(self) -> str:
        """A short phrase for players: where the mitten cycle stands."""
        top = self.mitten_on_top
        known = self.deals_until_on_top
        if known == 0:
            where = "the mitten is on top"
        elif known is not None:
            where = f"the mitten is on top in {known} deal{'s' if known != 1 else ''}"
        elif top == 0:
            where = "the mitten is not on top"
        else:
            where = f"the mitten may be on top ({odds(top)})"
        if not self.defuse_possible:
            defuse = "no Defuse can come before it"
        elif self.defuse_next == 1:
            defuse = "the next card is the Defuse"
        elif self.defuse_ahead == 1 and self.defuse_next == 0:
            defuse = "the Defuse is still to come (not next)"
        elif self.defuse_ahead == 1:
            defuse = f"the Defuse is still to come ({odds(self.defuse_next)} next)"
        else:
            defuse = f"a Defuse may still come ({odds(self.defuse_next)} next)"
        return f"{where}; {defuse}"


def odds(p: Fraction) -> str:
    """A probability in words a player reads at a glance: ``1 in 5``, ``2 in 7``."""
    if p == 0:
        return "never"
    if p == 1:
        return "certain"
    if p.numerator == 1:
        return f"1 in {p.denominator}"
    return f"{p.numerator} in {p.denominator}"


#: One instance of each belief (see :func:`_canonical`).
_CANONICAL: Final[dict[CycleBelief, CycleBelief]] = {}


def _canonical(belief: CycleBelief) -> CycleBelief:
    """The one instance of beliefs equal to ``belief``: every belief this module hands
    out, and every key, is one, so the dictionaries keyed by beliefs on every click (the
    phase graph's index, the memoised updates) find them by identity instead of
    comparing their supports Fraction by Fraction. Beliefs are few (a phase graph's
    worth per N), so the table stays small."""
    return _CANONICAL.setdefault(belief, belief)


@functools.cache
def _point(interval: int, hidden: Hidden, first_cycle: bool) -> CycleBelief:
    return _canonical(CycleBelief(interval, first_cycle, ((hidden, Fraction(1)),)))


def _normalised(
    interval: int, first_cycle: bool, weights: dict[Hidden, Fraction]
) -> CycleBelief:
    total = sum(weights.values(), Fraction(0))
    items = tuple(sorted(((h, w / total) for h, w in weights.items() if w), key=_order))
    return _canonical(CycleBelief(interval, first_cycle, items))


def _order(item: tuple[Hidden, Fraction]) -> tuple[int, int]:
    (m, e), _ = item
    return (m, -1 if e is None else e)


@functools.cache
def _initial(interval: int) -> CycleBelief:
    weights: dict[Hidden, Fraction] = {}
    for hidden in first_cycle_prior(interval):
        weights[hidden] = weights.get(hidden, Fraction(0)) + 1
    return _normalised(interval, True, weights)


@functools.cache
def _new_cycle(interval: int) -> CycleBelief:
    prior = {hidden: Fraction(1) for hidden in new_cycle_prior(interval)}
    return _normalised(interval, False, prior)


@functools.cache
def _after_deal(belief: CycleBelief, kind: DealKind) -> CycleBelief:
    if kind is DealKind.MITTEN:
        if belief.mitten_on_top == 0:
            raise InvalidObservationError(
                f"a mitten was dealt, but {_why_not_top(belief)}"
            )
        return _new_cycle(belief.interval)
    weights: dict[Hidden, Fraction] = {}
    for hidden, w in belief.support:
        if next_deal(hidden) is not kind:
            continue
        nxt = after_deal(hidden)
        weights[nxt] = weights.get(nxt, Fraction(0)) + w
    if not weights:
        raise InvalidObservationError(_why_no_deal(belief, kind))
    return _normalised(belief.interval, belief.first_cycle, weights)


@functools.cache
def _given_on_top(belief: CycleBelief, on_top: bool) -> CycleBelief:
    weights = {h: w for h, w in belief.support if (h[0] == 0) is on_top}
    if not weights:
        if on_top:
            raise InvalidObservationError(_why_not_top(belief))
        raise InvalidObservationError(
            "the mitten must be on top now (it is due on this deal), so this cannot happen"
        )
    return _normalised(belief.interval, belief.first_cycle, weights)


def _why_not_top(belief: CycleBelief) -> str:
    """That the mitten cannot be on top now, and why (said once, with its reason)."""
    known = belief.deals_until_on_top
    if known is not None:
        return (
            f"the mitten cannot be on top: it is {known} deal{'s' if known != 1 else ''} away"
        )
    soonest = min(h.deals_until_mitten for h, _ in belief.support)
    if soonest > 0:
        text = (
            f"the mitten cannot be on top: it is at least {soonest} "
            f"deal{'s' if soonest != 1 else ''} away"
        )
        if belief.first_cycle:
            text += f" (the first mitten is card 2 to {belief.interval - 1} dealt)"
        return text
    return "the mitten cannot be on top by what has been seen"


def _why_no_deal(belief: CycleBelief, kind: DealKind) -> str:
    if belief.mitten_on_top == 1:
        return (
            f"a {kind.value} card was dealt, but the mitten is on top of the deck: the "
            "next card dealt must be the mitten (and a draw would strike)"
        )
    if kind is DealKind.DEFUSE:
        if not belief.first_cycle and belief.deals_until_on_top == belief.interval - 1:
            return (
                "a Defuse was dealt as the first card after a mitten, but a cycle's Defuse "
                "is never the first card after the mitten"
            )
        return "a Defuse was dealt, but this cycle's Defuse has already been dealt"
    return (
        "a plain card was dealt, but the Defuse must be on top of the deck now "
        "(it is the last place left for it in this cycle)"
    )


# ---------------------------------------------------------------------- observation


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything a player has seen of one module, and the belief it implies.

    ``discard`` is ``None`` before the opening state is known. ``hand`` is in slot order
    (slot 1 first). ``clicks`` counts every click that did something or struck.
    """

    rules: Ruleset
    interval: int
    belief: CycleBelief
    discard: Card | None = None
    hand: tuple[Card, ...] = ()
    solved: bool = False
    strikes: int = 0
    clicks: int = 0
    deals: int = 0
    #: :attr:`board`, worked out on first use (every click asks it several times).
    _board: Board | None = field(default=None, init=False, repr=False, compare=False)

    # ------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: Ruleset, interval: int) -> Observation:
        """A module whose opening state has not been reported yet."""
        return cls(rules, interval, CycleBelief.initial(interval))

    @classmethod
    def start(
        cls, rules: Ruleset, interval: int, discard: Card, hand: Sequence[Card]
    ) -> Observation:
        """The opening state: the discard top and the hand (1 to 3 cards, slot 1 first)."""
        return cls.new(rules, interval).opening(discard, hand)

    def opening(self, discard: Card, hand: Sequence[Card]) -> Observation:
        """This module's opening state, checked against the start-up rules."""
        if self.discard is not None:
            raise InvalidObservationError(
                "the opening state is already known; start a new module to give another"
            )
        rules = self.rules
        if discard not in opening_discards(rules):
            raise InvalidObservationError(
                f"the discard top {discard.code} is table {rules.table}'s Exploding "
                "Mitten, but the module never starts with the mitten on the pile"
            )
        cards = tuple(hand)
        if not 1 <= len(cards) <= HAND_SIZE:
            raise InvalidObservationError(
                f"the opening hand has {len(cards)} cards, expected 1 to {HAND_SIZE}"
            )
        Board.visible(rules, discard, cards)
        if len(cards) == HAND_SIZE and not opening_has_legal_plain(rules, discard, cards):
            raise InvalidObservationError(
                f"the opening hand {_codes(cards)} has no legal plain card on "
                f"{discard.code} (rule {rules.rule(discard)}), but the module always "
                "starts with one"
            )
        return replace(self, discard=discard, hand=cards)

    # ------------------------------------------------------------ visible facts

    @property
    def started(self) -> bool:
        """Whether the opening state is known."""
        return self.discard is not None

    @property
    def board(self) -> Board:
        """The visible module as the rulebook sees it (the opening state must be known)."""
        board = self._board
        if board is None:
            if self.discard is None:
                raise NoOpeningStateError("the opening state is not known yet; give it first")
            board = Board(self.rules, self.discard, self.hand, self.solved)
            object.__setattr__(self, "_board", board)
        return board

    @property
    def legal_slots(self) -> tuple[int, ...]:
        """The 1-based slots whose cards the rule in force admits."""
        return self.board.legal_slots if self.started else ()

    @property
    def blocking_slots(self) -> tuple[int, ...]:
        """The slots that would make a discard strike."""
        return self.board.blocking_slots if self.started else ()

    @property
    def discard_allowed(self) -> bool:
        """Whether a discard would deal a card rather than strike."""
        return self.started and _deals(self.board, _DISCARD)

    @property
    def draw_safe(self) -> bool:
        """Whether a draw cannot strike: the hand has room and the mitten is not on top."""
        return self.started and self.belief.mitten_on_top == 0 and _deals(self.board, _DRAW)

    def defuse_slots(self) -> tuple[int, ...]:
        """The slots holding a Defuse face."""
        return self.board.defuse_slots() if self.started else ()

    # ------------------------------------------------------------ events

    def drew(self, card: Card) -> Observation:
        """A draw succeeded and ``card`` went into the first empty slot."""
        board = self._live_board("a draw")
        if not board.on_top_if(_DRAW, Effect.DEAL):
            raise InvalidObservationError(
                f"drew {card.code}, but the hand {_codes(self.hand)} is full: a 4th card "
                "cannot be drawn (a draw with a full hand strikes)"
            )
        kind = deal_kind(self.rules, card)
        if kind is DealKind.MITTEN:
            raise InvalidObservationError(
                f"drew {card.code}, table {self.rules.table}'s Exploding Mitten, but the "
                "mitten is never drawn: a draw with the mitten on top strikes"
            )
        if card not in board.deal_faces(kind, draw=True):
            raise InvalidObservationError(
                f"drew {card.code}, which is not legal on {board.discard.code} (rule "
                f"{self.rules.rule(board.discard)}), but a plain card drawn into two "
                "illegal cards is always legal"
            )
        after = board.after(_DRAW, card)
        return self._next(self.belief.after_deal(kind), after.discard, after.hand, deals=1,
                          board=after)

    def discarded(self, card: Card) -> Observation:
        """A discard succeeded and ``card`` landed on the pile."""
        board = self._live_board("a discard")
        blocking = board.verdict(_DISCARD, mitten_on_top=False).blocking
        if blocking:
            raise InvalidObservationError(
                f"discarded {card.code}, but {_slots_text(self, blocking)} can be played, "
                "so discarding would strike"
            )
        belief = self.belief.after_deal(deal_kind(self.rules, card))
        return self._next(belief, card, self.hand, deals=1)

    def played(self, slot: int) -> Observation:
        """Slot ``slot`` was played and its card is the new discard top.

        A Defuse that can only have left the hand by solving (it is not legal, or the
        mitten is surely on top) is recorded as the solve; a legal Defuse that did not
        solve proves the mitten was not on top.
        """
        board = self._live_board("a play")
        card = self._card_in(slot)
        play = Action.play(slot)
        belief = self.belief
        on_pile = board.on_top_if(play, Effect.PLAY)
        if not any(_can_be(belief, on_top) for on_top in on_pile):
            # The card left the hand, yet a play cannot have put it on the pile: only a
            # solve does that.
            if not board.on_top_if(play, Effect.SOLVE):
                raise InvalidObservationError(
                    f"played slot {slot} ({card.code}), but it is not legal on "
                    f"{board.discard.code} (rule {self.rules.rule(board.discard)}): it "
                    "would strike"
                )
            if belief.mitten_on_top == 0:
                raise InvalidObservationError(
                    f"played slot {slot} ({card.code}, a Defuse not legal on "
                    f"{board.discard.code}): an illegal Defuse only leaves the hand by "
                    f"solving, and {_why_not_top(belief)}"
                )
            return self.solve(slot)
        after = board.after(play)
        return self._next(_proved(belief, on_pile), after.discard, after.hand, board=after)

    def solve(self, slot: int | None = None) -> Observation:
        """A Defuse was played with the mitten on top: the module is solved.

        ``slot`` names the Defuse played; without it, the first Defuse in the hand.
        """
        board = self._live_board("a solve")
        defuses = tuple(
            s for s in range(1, len(self.hand) + 1)
            if board.on_top_if(Action.play(s), Effect.SOLVE)
        )
        if slot is None:
            if not defuses:
                raise InvalidObservationError(
                    f"solved, but the hand {_codes(self.hand)} holds no Defuse: only a "
                    "Defuse played with the mitten on top solves"
                )
            slot = defuses[0]
        elif slot not in defuses:
            card = self._card_in(slot)
            raise InvalidObservationError(
                f"solved with slot {slot}, but {card.code} is not a Defuse"
            )
        play = Action.play(slot)
        belief = _proved(self.belief, board.on_top_if(play, Effect.SOLVE))
        after = board.solve(slot)
        return self._next(belief, after.discard, after.hand, solved=after.solved, board=after)

    def strike_draw(self) -> Observation:
        """A draw struck. With room in the hand, this proves the mitten is on top."""
        board = self._live_board("a draw strike")
        belief = _proved(self.belief, board.on_top_if(_DRAW, Effect.STRIKE))
        return self._next(belief, self.discard, self.hand, strikes=1, board=board)

    def strike_discard(self) -> Observation:
        """A discard struck because a card could still be played."""
        board = self._live_board("a discard strike")
        if not board.on_top_if(_DISCARD, Effect.STRIKE):
            raise InvalidObservationError(
                f"a discard struck, but no card in {_codes(self.hand)} blocks it on "
                f"{_code(self.discard)}: discarding was allowed"
            )
        return self._next(self.belief, self.discard, self.hand, strikes=1, board=board)

    def strike_play(self, slot: int) -> Observation:
        """Playing slot ``slot`` struck: the card was not legal (and stays in the hand)."""
        board = self._live_board("a play strike")
        card = self._card_in(slot)
        struck = board.on_top_if(Action.play(slot), Effect.STRIKE)
        if not struck:
            raise InvalidObservationError(
                f"playing slot {slot} ({card.code}) struck, but it is legal on "
                f"{board.discard.code} (rule {self.rules.rule(board.discard)})"
            )
        belief = self.belief
        if not any(_can_be(belief, on_top) for on_top in struck):
            raise InvalidObservationError(
                f"playing slot {slot} ({card.code}, a Defuse) struck, but the mitten "
                "is on top: that play solves the module"
            )
        belief = _proved(belief, struck)
        return self._next(belief, self.discard, self.hand, strikes=1, board=board)

    def apply(self, event: Event) -> Observation:
        """The observation after ``event``: the one entry point for what a click did.

        The simulator's results, the log replay, the live session and the trainer all
        report clicks as :data:`~defuser.engine.events.Event` values and come here.
        """
        drew, discarded, played, solved, struck = _event_types()
        if isinstance(event, drew):
            return self.drew(event.card)
        if isinstance(event, discarded):
            return self.discarded(event.card)
        if isinstance(event, played):
            return self.played(event.slot)
        if isinstance(event, solved):
            return self.solve(event.slot)
        assert isinstance(event, struck)
        kind, slot = event.action.kind, event.action.slot
        if kind is ActionKind.DRAW:
            return self.strike_draw()
        if kind is ActionKind.DISCARD:
            return self.strike_discard()
        assert slot is not None
        return self.strike_play(slot)

    def after(self, result: Result) -> Observation:
        """Apply a simulator :class:`~defuser.engine.simulator.Result` (only its visible
        part, its :attr:`~defuser.engine.simulator.Result.event`)."""
        event = result.event
        return self if event is None else self.apply(event)

    # ------------------------------------------------------------ helpers

    def _next(
        self,
        belief: CycleBelief,
        discard: Card | None,
        hand: tuple[Card, ...],
        *,
        solved: bool = False,
        strikes: int = 0,
        deals: int = 0,
        board: Board | None = None,
    ) -> Observation:
        """This (unsolved) observation one click later: the belief, discard top and hand
        after it, ``strikes`` and ``deals`` the click added, and the board it leaves when
        already known. Built directly: :func:`dataclasses.replace` costs about three
        times as much, and the benchmark makes one on every click."""
        obs = Observation(
            self.rules, self.interval, belief, discard, hand, solved,
            self.strikes + strikes, self.clicks + 1, self.deals + deals,
        )
        if board is not None:
            object.__setattr__(obs, "_board", board)
        return obs

    def _live_board(self, what: str) -> Board:
        """The board for an event (``what``) that needs a started, unsolved module."""
        if self.discard is None:
            raise NoOpeningStateError(
                f"{what} was reported before the opening state; give it first"
            )
        if self.solved:
            raise InvalidObservationError(f"{what} was reported, but the module is solved")
        return self.board

    def _card_in(self, slot: int) -> Card:
        if not 1 <= slot <= HAND_SIZE:
            raise InvalidHandError(f"slot {slot} is not a hand slot, expected 1, 2 or 3")
        if slot > len(self.hand):
            raise InvalidObservationError(
                f"slot {slot} is empty (the hand is {_codes(self.hand)}), so nothing was "
                "played there"
            )
        return self.hand[slot - 1]


_DRAW: Final = Action.draw()
_DISCARD: Final = Action.discard()


def _deals(board: Board, action: Action) -> bool:
    """Whether ``action`` deals a card on ``board`` (the mitten not being on top)."""
    return board.verdict(action, mitten_on_top=False).effect is Effect.DEAL


def _can_be(belief: CycleBelief, on_top: bool) -> bool:
    """Whether the belief allows this answer to "is the mitten on top?"."""
    top = belief.mitten_on_top
    return top > 0 if on_top else top < 1


def _proved(belief: CycleBelief, agree: tuple[bool, ...]) -> CycleBelief:
    """The belief once an effect was seen that happens only when the mitten is on top
    (or only when it is not): ``agree`` from :meth:`Board.on_top_if`."""
    if len(agree) == 1:
        return belief.given_on_top(agree[0])
    return belief


def _code(card: Card | None) -> str:
    return "-" if card is None else card.code


def _codes(cards: Iterable[Card]) -> str:
    text = " ".join(c.code for c in cards)
    return text if text else "(empty)"


def _slots_text(obs: Observation, slots: Sequence[int]) -> str:
    parts = [f"slot {s} ({obs.hand[s - 1].code})" for s in slots]
    return " and ".join(parts)


@functools.cache
def _event_types() -> tuple[
    type[Drew], type[Discarded], type[Played], type[Solved], type[Struck]
]:
    """The event classes :meth:`Observation.apply` tells apart, imported on first use: a
    live session's first answer reads no event, and defining them (frozen dataclasses,
    about 3.5 M instructions each) would delay it."""
    from defuser.engine.events import Discarded, Drew, Played, Solved, Struck

    return Drew, Discarded, Played, Solved, Struck
