"""The expert's one-shot answer for a visible module state.

:func:`analyse` takes the edgework, the discard top and the hand and returns a
:class:`SolveReport`: which table and why, the rule in force, each hand card's type and
legality, whether discarding and drawing are possible, and a one-line answer. It knows
nothing of the hidden deck: where the mitten cycle stands is ``mittens live``'s job.
:func:`parse_batch_line` reads one line of ``mittens solve --batch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from defuser.engine.board import Board
from defuser.engine.rules import check_hand
from defuser.errors import DefuserError
from edgework import (
    RULE_TEXTS,
    Batteries,
    Card,
    CardType,
    Edgework,
    RuleLetter,
    Ruleset,
    SerialNumber,
    table_traits,
)


@dataclass(frozen=True, slots=True)
class HandCard:
    """One hand slot as the solver sees it."""

    slot: int
    card: Card
    type: CardType
    legal: bool


@dataclass(frozen=True, slots=True)
class SolveReport:
    """Everything ``mittens solve`` says about one visible state."""

    serial: SerialNumber
    batteries: Batteries | None
    rules: Ruleset
    #: The visible module; every rule the report states is the rulebook's answer.
    board: Board
    hand: tuple[HandCard, ...]

    @property
    def discard(self) -> Card:
        """The discard top."""
        return self.board.discard

    @property
    def legal_slots(self) -> tuple[int, ...]:
        """The 1-based slots whose cards the rule in force admits."""
        return self.board.legal_slots

    @property
    def blocking_slots(self) -> tuple[int, ...]:
        """The slots that make a discard strike (empty when discarding is allowed)."""
        return self.board.blocking_slots

    @property
    def interval(self) -> int | None:
        """N, or None when the batteries are unknown."""
        return None if self.batteries is None else self.batteries.interval

    @property
    def discard_type(self) -> CardType:
        """The discard top's type under the active table."""
        return self.rules.type_of(self.discard)

    @property
    def rule_letter(self) -> RuleLetter:
        """The Table E letter in force."""
        return self.rules.rule(self.discard)

    @property
    def rule_text(self) -> str:
        """The Table F wording of the rule in force."""
        return RULE_TEXTS[self.rule_letter]

    @property
    def discard_allowed(self) -> bool:
        """Whether clicking the discard pile deals a card instead of striking."""
        return self.board.discard_allowed

    @property
    def draw_allowed(self) -> bool:
        """Whether the hand has room for a drawn card (the mitten may still be on top)."""
        return self.board.has_room

    @property
    def table_reason(self) -> str:
        """Why the serial picks this table, in words."""
        return f"the serial has {table_traits(self.serial.vowels, self.serial.repeated)}"

    @property
    def rule_reason(self) -> str:
        """Where the rule letter comes from in Table E."""
        return (
            f"Table E, row {self.discard_type.value}, column {self.rules.last_digit} "
            "(last digit of the serial)"
        )

    @property
    def answer(self) -> str:
        """What to do now, in one line, from the visible state alone."""
        commands = [f"play {s}" for s in self.legal_slots]
        if self.blocking_slots:
            listed = " or ".join(commands)
            return f"Play a legal card: {listed}. Discarding now would strike."
        room = self.draw_allowed
        if self.legal_slots:
            # A legal card that does not block the discard: the rulebook's lone legal
            # Defuse.
            slot = self.legal_slots[0]
            return (
                f"The only legal card is the Defuse in slot {slot}: keep it for the mitten "
                "(play it when the mitten is on top) and discard to move the deck."
            )
        if room:
            return (
                "No card is legal: discard to move the deck, or draw if the mitten "
                "cannot be on top."
            )
        return "No card is legal and the hand is full: discard."

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object, with the keys the documentation promises."""
        return {
            "serial": self.serial.text,
            "batteries": None if self.batteries is None else self.batteries.count,
            "table": self.rules.table,
            "last_digit": self.rules.last_digit,
            "interval": self.interval,
            "mitten": self.rules.mitten.code,
            "discard": {
                "card": self.discard.code,
                "name": self.discard.words,
                "type": self.discard_type.value,
            },
            "rule": {"letter": self.rule_letter, "text": self.rule_text},
            "hand": [
                {
                    "slot": h.slot,
                    "card": h.card.code,
                    "name": h.card.words,
                    "type": h.type.value,
                    "legal": h.legal,
                }
                for h in self.hand
            ],
            "legal_slots": list(self.legal_slots),
            "discard_allowed": self.discard_allowed,
            "draw_allowed": self.draw_allowed,
            "answer": self.answer,
        }


def analyse(edgework: Edgework, discard: Card, hand: Sequence[Card]) -> SolveReport:
    """The solver's report for this edgework, discard top and hand (0 to 3 cards).

    Raises :class:`DefuserError` when the edgework has no serial number, and
    :class:`~defuser.errors.InvalidHandError` when no module can show the hand
    (:meth:`~defuser.engine.board.Board.visible`).
    """
    if edgework.serial is None:
        raise DefuserError("the edgework has no serial number, expected one like AB3CD4")
    rules = Ruleset(edgework.serial.table, edgework.serial.last_digit)
    board = Board.visible(rules, discard, hand)
    cards = board.hand
    legal = board.legal_slots
    return SolveReport(
        serial=edgework.serial,
        batteries=edgework.batteries,
        rules=rules,
        board=board,
        hand=tuple(
            HandCard(i + 1, c, rules.type_of(c), i + 1 in legal) for i, c in enumerate(cards)
        ),
    )


def parse_batch_line(line: str, *, strict: bool = True) -> tuple[Edgework, Card, tuple[Card, ...]]:
    """Read ``SERIAL BATTERIES DISCARD [HAND...]`` (cards as codes).

    Raises :class:`EdgeworkError` or :class:`DefuserError` naming the bad field.
    """
    fields = line.split()
    if len(fields) < 3:
        raise DefuserError(
            f"line {line.strip()!r} has {len(fields)} fields, expected "
            "SERIAL BATTERIES DISCARD [HAND...] like 'AB3CD4 3 RC BH GS'"
        )
    serial = SerialNumber.parse(fields[0], strict=strict)
    batteries = Batteries.parse(fields[1])
    discard = Card.parse(fields[2])
    hand = tuple(Card.parse(f) for f in fields[3:])
    check_hand(hand)
    return Edgework(serial=serial, batteries=batteries), discard, hand


def solve_batch_line(line: str, *, strict: bool = True) -> SolveReport:
    """Parse one batch line and analyse it."""
    edgework, discard, hand = parse_batch_line(line, strict=strict)
    return analyse(edgework, discard, hand)


__all__ = [
    "HandCard",
    "SolveReport",
    "analyse",
    "parse_batch_line",
    "solve_batch_line",
]
