"""A faithful simulator of one Exploding Mittens module, hidden deck included.

Contract: :class:`Module` behaves exactly like the real module as docs/rules.md
describes it: start-up, the order of checks of every action, the deck's
mitten cycle and Defuse placement, the guaranteed-legal draw, the solve, and the log
lines word for word. It states none of those rules itself: what a click does comes from
the rulebook (:mod:`defuser.engine.board`, asked with the facts of the board the module
shows, without building a :class:`~defuser.engine.board.Board` per click), the hidden
deck's cycle and the opening from :mod:`defuser.engine.deck`; the module keeps the
state, draws the random faces and writes the log. All randomness comes from the
injected :class:`random.Random`, so a seed replays a game. The hidden deck state (a
:class:`defuser.engine.deck.Hidden`, the deck's one type for it) is private;
:meth:`Module.reveal` is the only way to see it, and a policy must never call it (the
trainer and the tests may).
"""

from __future__ import annotations

import copy as _copy
import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from defuser.engine import deck, modlog
from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.board import (
    Board,
    ClickVerdict,
    Effect,
    Facts,
    deal_faces_of,
    facts_of,
    verdict_of,
)
from defuser.engine.deck import DealKind, Hidden
from defuser.engine.events import Discarded, Drew, Event, Played, Solved, Struck
from defuser.engine.rules import HAND_SIZE
from defuser.errors import (
    DefuserError,
    InvalidHandError,
    InvalidObservationError,
)
from edgework import (
    MAX_INTERVAL,
    MIN_INTERVAL,
    Card,
    Edgework,
    EdgeworkError,
    Ruleset,
    interval_for,
)


class Outcome(enum.Enum):
    """How the module answered a click."""

    OK = "ok"
    STRIKE = "strike"
    SOLVED = "solved"
    #: An empty slot was clicked, or the module was already solved: nothing happened.
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class Result:
    """What one action did.

    ``card`` is the card that moved: drawn, discarded (the deck's old top), played (also
    the Defuse of a solve), or, for an invalid play, the card that stayed in its slot.
    It is ``None`` for draw strikes, blocked discards and ``NOTHING``. ``blocking_slots``
    lists the slots that blocked a discard. ``log`` holds the full log lines the action
    wrote. ``note`` explains a ``NOTHING`` outcome and is empty otherwise.
    """

    action: Action
    outcome: Outcome
    card: Card | None
    strike: StrikeKind | None = None
    blocking_slots: tuple[int, ...] = ()
    log: tuple[str, ...] = ()
    note: str = ""

    @property
    def event(self) -> Event | None:
        """What an observer saw this click do; ``None`` when nothing happened."""
        action, card = self.action, self.card
        if self.outcome is Outcome.NOTHING:
            return None
        if self.outcome is Outcome.STRIKE:
            return Struck(action, self.strike, card, self.blocking_slots)
        if self.outcome is Outcome.SOLVED:
            return Solved(action.slot, card)
        assert card is not None
        if action.kind is ActionKind.DRAW:
            return Drew(card)
        if action.kind is ActionKind.DISCARD:
            return Discarded(card)
        assert action.slot is not None
        return Played(action.slot, card)


#: How many of the latest clicks a module keeps in ``history`` (at least; older ones are
#: dropped in batches), so a session of any length has bounded memory.
HISTORY_DEPTH: Final = 1000


class Module:
    """One Exploding Mittens module with its hidden deck.

    Create it with :meth:`from_edgework` (a seed) or directly with a rule set, the
    interval N and a :class:`random.Random`. Construction runs the module's start-up
    and writes the start-up log lines. Then :meth:`act` (or :meth:`draw`,
    :meth:`discard`, :meth:`play`) clicks, each returning a :class:`Result`.
    """

    rules: Ruleset
    interval: int
    seed: int | None
    module_id: int
    discard_top: Card
    solved: bool
    strikes: int
    deals: int
    #: True until the first mitten has been dealt (the partial first cycle); a player
    #: sees it, so it is not part of the hidden deck.
    first_cycle: bool
    #: The latest clicks and what they did (at most about 2 x HISTORY_DEPTH of them).
    history: list[Result]
    #: Every click made, however many ``history`` still holds.
    clicks: int
    #: The module's log lines, the latest ones: after a very long session the earliest
    #: are dropped with the clicks dropped from ``history`` (see ``log_dropped``).
    log: list[str]
    #: How many lines were dropped from the front of ``log``; ``log_total`` counts all.
    log_dropped: int

    def __init__(
        self,
        rules: Ruleset,
        interval: int,
        rng: random.Random,
        module_id: int = 1,
        *,
        start: tuple[Card, Sequence[Card]] | None = None,
        hidden: Hidden | None = None,
    ) -> None:
        """Start a module: pick the discard top, the hand and the deck's first cycle.

        ``start`` (discard top, hand) and ``hidden`` (the first cycle's hidden deck)
        replace the random start-up and the random first cycle with given ones; tests
        and the log tools use them to replay a known game. Everything later is drawn
        from ``rng``.
        """
        if not MIN_INTERVAL <= interval <= MAX_INTERVAL:
            raise EdgeworkError(
                f"interval {interval} is not a mitten interval, expected "
                f"{MIN_INTERVAL}..{MAX_INTERVAL} (batteries mod 5, plus 9)"
            )
        if module_id < 1:
            raise DefuserError(f"module id {module_id} is not positive, expected 1 or more")
        self.rules = rules
        self.interval = interval
        self.module_id = module_id
        self.seed = None
        self._rng = rng
        self.solved = False
        self.strikes = 0
        self.deals = 0
        self.history = []
        self.clicks = 0
        self.log = []
        self.log_dropped = 0
        if start is None:
            self.discard_top, hand = deck.random_opening(rules, rng)
        else:
            self.discard_top, hand = start[0], list(start[1])
            if len(hand) > HAND_SIZE:
                raise InvalidHandError(
                    f"start hand {' '.join(c.code for c in hand)!r} has {len(hand)} cards, "
                    f"expected 0 to {HAND_SIZE}"
                )
        self._hand: list[Card] = hand
        if hidden is None:
            hidden = deck.random_first_cycle(interval, rng)
        self._check_hidden(hidden)
        self._hidden = hidden
        self.first_cycle = True
        self._write(modlog.table(rules.table))
        self._write(modlog.initial_discard(self.discard_top, rules.type_of(self.discard_top)))
        self._write(modlog.rule(rules.rule(self.discard_top)))
        for n, card in enumerate(self._hand, start=1):
            self._write(modlog.hand_card(n, card, rules.type_of(card)))

    @classmethod
    def from_edgework(cls, edgework: Edgework, seed: int, module_id: int = 1) -> Module:
        """A module for this bomb, its randomness seeded with ``seed``.

        The serial number gives the table and the last digit; the batteries give N
        (no batteries given counts as 0).
        """
        if edgework.serial is None:
            raise EdgeworkError(
                "edgework has no serial number, expected one (it picks the table)"
            )
        rules = Ruleset(edgework.serial.table, edgework.serial.last_digit)
        count = edgework.batteries.count if edgework.batteries is not None else 0
        module = cls(rules, interval_for(count), random.Random(seed), module_id)
        module.seed = seed
        return module

    # ----------------------------------------------------------------- visible state

    @property
    def hand(self) -> tuple[Card, ...]:
        """The hand, slot 1 first, packed to the left (0 to 3 cards)."""
        return tuple(self._hand)

    @property
    def rule(self) -> str:
        """The rule letter in force (from the discard top)."""
        return self.rules.rule(self.discard_top)

    @property
    def legal_slots(self) -> tuple[int, ...]:
        """The 1-based slots whose cards the rule in force admits."""
        return self._board().legal_slots

    def reveal(self) -> Hidden:
        """The true hidden deck state. Policies must never call this."""
        return self._hidden

    # ----------------------------------------------------------------- actions

    def act(self, action: Action) -> Result:
        """Perform one click and return what it did (also appended to ``history``)."""
        result = self._click(action)
        self.history.append(result)
        self.clicks += 1
        if len(self.history) > 2 * HISTORY_DEPTH:
            # A session of any length keeps bounded memory: only the last HISTORY_DEPTH
            # clicks stay in ``history`` (trimmed in batches), and the log keeps their lines.
            del self.history[:-HISTORY_DEPTH]
            drop = len(self.log) - sum(len(kept.log) for kept in self.history)
            del self.log[:drop]
            self.log_dropped += drop
        return result

    def draw(self) -> Result:
        """Click the deck."""
        return self.act(Action(ActionKind.DRAW))

    def discard(self) -> Result:
        """Click the discard pile."""
        return self.act(Action(ActionKind.DISCARD))

    def play(self, slot: int) -> Result:
        """Click hand slot ``slot`` (1-3)."""
        return self.act(Action(ActionKind.PLAY, slot))

    @property
    def log_total(self) -> int:
        """How many log lines the module has written, dropped ones included."""
        return self.log_dropped + len(self.log)

    def copy(self) -> Module:
        """An independent module in the same state, with its own copy of the random state.

        The copy and the original give the same results to the same actions.
        """
        twin = _copy.copy(self)
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        twin._hand = list(self._hand)
        twin.history = list(self.history)
        twin.log = list(self.log)
        return twin

    # ----------------------------------------------------------------- internals

    def _write(self, message: str) -> str:
        text = modlog.line(self.module_id, message)
        self.log.append(text)
        return text

    def _check_hidden(self, hidden: Hidden) -> None:
        n = self.interval
        if not 0 <= hidden.deals_until_mitten <= n - 1:
            raise InvalidObservationError(
                f"hidden deals_until_mitten {hidden.deals_until_mitten} is out of range, "
                f"expected 0..{n - 1}"
            )
        if hidden.defuse_in is not None and not (
            0 <= hidden.defuse_in < hidden.deals_until_mitten
        ):
            raise InvalidObservationError(
                f"hidden defuse_in {hidden.defuse_in} is out of range, expected "
                f"0..{hidden.deals_until_mitten - 1} (before the mitten) or None"
            )

    def _board(self) -> Board:
        return Board(self.rules, self.discard_top, tuple(self._hand), self.solved)

    def _deal(self, facts: Facts, *, draw: bool) -> tuple[Card, int]:
        """Take the deck's top card; return it and the log's "coming in" count.

        The hidden deck says what kind of card is on top (:func:`deck.next_deal`); the
        rulebook says which faces a deal of that kind can bring on this board (``facts``:
        the board's before the deal).
        """
        rng = self._rng
        self.deals += 1
        hidden = self._hidden
        kind = deck.next_deal(hidden)
        faces = deal_faces_of(self.rules, self.discard_top, facts, kind, draw=draw)
        if kind is DealKind.MITTEN:
            self.first_cycle = False
            self._hidden = deck.random_new_cycle(self.interval, rng)
            return faces[0], 0
        card = rng.choice(faces)
        self._hidden = hidden = deck.after_deal(hidden)
        return card, hidden.deals_until_mitten + 1

    def _click(self, action: Action) -> Result:
        """What the rulebook says ``action`` does here, carried out."""
        facts = facts_of(self.rules, self.discard_top, self._hand, self.solved)
        verdict = verdict_of(facts, action, self._hidden.deals_until_mitten == 0)
        effect = verdict.effect
        if effect is Effect.NOTHING:
            note = "the module is already solved" if self.solved else f"slot {action.slot} is empty"
            return Result(action, Outcome.NOTHING, None, note=note)
        if effect is Effect.STRIKE:
            return self._strike(action, verdict)
        if effect is Effect.DEAL:
            if action.kind is ActionKind.DRAW:
                return self._drew(action, facts)
            return self._discarded(action, facts)
        assert action.slot is not None
        card = self._hand.pop(action.slot - 1)
        self.discard_top = card
        if effect is Effect.SOLVE:
            self.solved = True
            text = self._write(modlog.solved())
            return Result(action, Outcome.SOLVED, card, log=(text,))
        lines = (
            self._write(modlog.played(card, self.rules.type_of(card))),
            self._write(modlog.rule(self.rules.rule(card))),
        )
        return Result(action, Outcome.OK, card, log=lines)

    def _strike(self, action: Action, verdict: ClickVerdict) -> Result:
        self.strikes += 1
        kind = verdict.strike
        card = None
        if kind is StrikeKind.MITTEN_ON_TOP:
            lines: tuple[str, ...] = (self._write(modlog.draw_mitten_strike()),)
        elif kind is StrikeKind.HAND_FULL:
            lines = (self._write(modlog.hand_full_strike()),)
        elif kind is StrikeKind.DISCARD_BLOCKED:
            lines = (
                self._write(modlog.discard_blocked()),
                *(self._write(modlog.blocking_slot(s)) for s in verdict.blocking),
                self._write(modlog.strike()),
            )
        else:
            assert action.slot is not None
            card = self._hand[action.slot - 1]
            lines = (self._write(modlog.invalid_play(card)),)
        return Result(action, Outcome.STRIKE, card, kind, verdict.blocking, lines)

    def _drew(self, action: Action, facts: Facts) -> Result:
        card, coming = self._deal(facts, draw=True)
        self._hand.append(card)
        lines = (
            self._write(modlog.drew(card, self.rules.type_of(card))),
            self._write(modlog.mitten_coming(coming)),
        )
        return Result(action, Outcome.OK, card, log=lines)

    def _discarded(self, action: Action, facts: Facts) -> Result:
        card, coming = self._deal(facts, draw=False)
        self.discard_top = card
        lines = (
            self._write(modlog.discarded(card, self.rules.type_of(card))),
            self._write(modlog.rule_now(self.rules.rule(card))),
            self._write(modlog.mitten_coming(coming)),
        )
        return Result(action, Outcome.OK, card, log=lines)
