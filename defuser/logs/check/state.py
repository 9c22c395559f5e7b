"""The replay's state: one hypothesis about the module, and the words that explain it.

Contract: a :class:`ReplayState` is one full assignment of what the log leaves open
(table, last digit, N, where the first mitten is) together with the module's state
under it and the :class:`Stage` (which line must come next). States are immutable and
hashable: the beam keys on them. The helpers here word the facts a finding cites.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple, TypedDict, Unpack

from defuser.engine import modlog
from defuser.engine.board import Board, played_from
from edgework import (
    RULE_TEXTS,
    Card,
    CardType,
    Ruleset,
    SerialNumber,
    TableLetter,
    table_traits,
)


class Stage(enum.Enum):
    """What the next line of the module is expected to be."""

    #: The start-up's table line.
    START = "start"
    #: The start-up's opening discard line.
    OPENING_DISCARD = "opening-discard"
    #: The start-up's rule line.
    OPENING_RULE = "opening-rule"
    #: The start-up's hand cards (or the first action).
    HAND = "hand"
    #: The start of the player's next action.
    IDLE = "idle"
    #: The countdown line after a deal.
    COMING = "coming"
    #: The rule line after a play.
    RULE_AFTER_PLAY = "rule-after-play"
    #: The rule line after a discard.
    RULE_AFTER_DISCARD = "rule-after-discard"
    #: The blocking-card lines and the ``Strike!`` of a blocked discard.
    BLOCKING = "blocking"

    # Members are singletons compared by identity, so identity hashes them (in C): the
    # beam hashes a state's stage for every successor, and Enum's own hash is Python.
    __hash__ = object.__hash__


class Inconsistency(NamedTuple):
    """A line that contradicts the module's behaviour, and what was expected."""

    line: int
    message: str


class ReplayState(NamedTuple):
    """One hypothesis: the unknowns it assumes and the module's state under them."""

    table: TableLetter
    digit: int
    #: N, or ``None`` while the log has not yet needed it (before the first mitten).
    n: int | None
    #: The smallest N the log allows so far when ``n`` is ``None``.
    n_min: int
    stage: Stage
    discard: Card | None
    hand: tuple[Card, ...]
    #: Deals until the mitten is on top (0: on top now); ``None`` before the first deal.
    until: int | None
    first_cycle: bool
    #: The line that dealt this cycle's Defuse, 0 while it has not come.
    defuse_line: int
    #: The countdown the next ``(The Exploding Mitten is coming in k draws.)`` must say.
    coming: int
    #: The line of the action whose remaining lines are awaited.
    pending_line: int
    #: The slots a blocked discard must list, ``None`` when it should not have struck.
    blocking: tuple[int, ...] | None
    listed: int
    solved_line: int
    deals: int

    def evolve(self, **changes: Unpack[StateChanges]) -> ReplayState:
        """This state with ``changes``: what ``_replace`` gives, in less time (the beam
        makes a million states for a few hundred logs)."""
        values: list[object] = list(self)
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return tuple.__new__(ReplayState, values)


class StateChanges(TypedDict, total=False):
    """Fields of a :class:`ReplayState` to change, for :meth:`ReplayState.evolve`."""

    table: TableLetter
    digit: int
    n: int | None
    n_min: int
    stage: Stage
    discard: Card | None
    hand: tuple[Card, ...]
    until: int | None
    first_cycle: bool
    defuse_line: int
    coming: int
    pending_line: int
    blocking: tuple[int, ...] | None
    listed: int
    solved_line: int
    deals: int


#: Where each field of a :class:`ReplayState` sits in the tuple.
_FIELD_INDEX: Final = {name: i for i, name in enumerate(ReplayState._fields)}


@dataclass(frozen=True, slots=True)
class LineRecord:
    """One module line as the chosen replay read it: the state before and after."""

    number: int
    #: The line's message, ``None`` for text the module never writes.
    message: modlog.Message | None
    before: ReplayState
    after: ReplayState
    problems: tuple[str, ...]


#: A successor state and the contradictions its line costs.
Branch = tuple[ReplayState, list[str]]


class ReplayLine(NamedTuple):
    """One module line as the replay reads it: number, message, text."""

    number: int
    message: modlog.Message
    text: str


@functools.cache
def ruleset(table: TableLetter, digit: int) -> Ruleset:
    """The rule set of a table and last digit (cached: the beam asks for it per line)."""
    return Ruleset(table, digit)


def slot_words(hand: Sequence[Card], slots: Iterable[int]) -> str:
    """``slot 1 (red circle), slot 3 (...)``."""
    return ", ".join(f"slot {s} ({hand[s - 1].words})" for s in slots)


def ordinal_line(slot: int) -> str:
    """The blocking-card line the module writes for ``slot``."""
    return modlog.blocking_slot(slot)


class Context:
    """What is fixed for the whole module: the known edgework, for messages."""

    def __init__(self, serial: SerialNumber | None, batteries: int | None) -> None:
        self.serial = serial
        self.batteries = batteries

    def table_reason(self, table: TableLetter) -> str:
        """Why this table applies."""
        if self.serial is None:
            return f"the types the log gives follow Table {table}"
        s = self.serial
        traits = table_traits(s.vowels, s.repeated)
        return f"serial number {s} has {traits}, which selects Table {table}"

    def digit_reason(self, digit: int) -> str:
        """Where the last digit comes from."""
        if self.serial is None:
            return f"last digit {digit} (inferred from the log's rule letters)"
        return f"last digit {digit} of serial number {self.serial}"

    def n_reason(self, n: int) -> str:
        """Where N comes from."""
        if self.batteries is None:
            return f"N = {n}, inferred from the log's countdown"
        return f"N = {n} from {self.batteries} batteries"


def rule_why(rules: Ruleset, discard: Card) -> str:
    """The rule in force on ``discard``, with its text and the discard's type."""
    letter = rules.rule(discard)
    return (
        f"rule {letter} ({RULE_TEXTS[letter]}) with {discard.words}, "
        f"{rules.type_of(discard).card_words}, on the discard pile"
    )


def type_problem(rules: Ruleset, card: Card, claimed: CardType) -> str | None:
    """What is wrong with a line calling ``card`` a ``claimed`` card, or ``None``."""
    actual = rules.type_of(card)
    if actual is claimed:
        return None
    return (
        f"{card.words} is {actual.card_words} in Table {rules.table}, "
        f"but the line calls it {claimed.card_words}"
    )


def remove(hand: tuple[Card, ...], card: Card) -> list[tuple[Card, ...]]:
    """Every hand that playing one ``card`` can leave (orders differ with duplicates),
    as the rulebook packs it (:func:`~defuser.engine.board.played_from`)."""
    results: list[tuple[Card, ...]] = []
    for slot, c in enumerate(hand, start=1):
        if c == card:
            _, left = played_from(hand, slot)
            if left not in results:
                results.append(left)
    return results


def faces(cards: Iterable[Card]) -> str:
    """Card names, comma-separated."""
    return ", ".join(c.words for c in cards)


def hand_words(hand: Sequence[Card]) -> str:
    """``hand: red circle, blue heart`` or ``hand: empty``."""
    return "hand: " + (", ".join(c.words for c in hand) if hand else "empty")


def legal_words(board: Board) -> str:
    """Which slots of ``board`` were legal (the rulebook's
    :attr:`~defuser.engine.board.Board.legal_slots`), in words."""
    legal = board.legal_slots
    if not legal:
        return "no card in the hand is legal"
    return "legal: " + slot_words(board.hand, legal)
