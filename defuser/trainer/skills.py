"""The drill kinds, every skill the trainer schedules as a type, and its name in words.

Contract: a skill is a frozen value of one of six types, one per drill kind; code passes
these values, never strings. A skill's :attr:`key` is the short string stored with
each answer (unchanged since the first stats schema) and :func:`parse_skill` reads a
stored key back, once, where answers leave the database:

- :class:`TableSkill` ``table:B``: telling Table B from a serial number;
- :class:`CellSkill` ``identify:B:RH``: one cell of Tables A-D (red heart under Table B);
- :class:`RuleSkill` ``rule:Attack:3``: one cell of Table E (an Attack on the pile,
  last digit 3);
- :class:`LegalSkill` ``legal:L``: applying rule L of Table F to a hand (and the
  discard exemption);
- :class:`DecideSkill` ``decide:<play|discard|draw|defuse>``: a live decision whose best
  action is of that kind (``defuse`` is playing a Defuse: the solve or a free probe);
- :class:`CycleSkill` ``cycle:known`` / ``cycle:unknown``: counting deals to the mitten
  once it has been seen, or the chance it is on top before it has;
- :class:`EdgeSkill` ``edge:batteries`` / ``edge:interval`` / ``edge:table``: reading
  the battery count, N or the table off the bomb's widgets.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from edgework import (
    ALL_CARDS,
    RULE_LETTERS,
    RULE_TEXTS,
    TABLE_LETTERS,
    Card,
    CardType,
    RuleLetter,
    TableLetter,
)
from edgework.errors import MisuseError


class Kind(enum.Enum):
    """The kinds of drill question."""

    TABLE = "table"
    IDENTIFY = "identify"
    RULE = "rule"
    LEGAL = "legal"
    DECIDE = "decide"
    CYCLE = "cycle"
    EDGE = "edge"

    def __str__(self) -> str:
        return self.value


#: The drill kinds in the order they are taught and listed.
KINDS: Final[tuple[Kind, ...]] = tuple(Kind)

#: The kinds ``mixed`` draws from: the manual's lookups and the live decisions (the
#: ``edge`` reading drill has its own mode, so seeded mixed drills stay as they were).
MIXED_KINDS: Final[tuple[Kind, ...]] = tuple(k for k in KINDS if k is not Kind.EDGE)


@dataclass(frozen=True, slots=True)
class TableSkill:
    """Recognising one of Tables A-D from a serial number."""

    kind: ClassVar[Kind] = Kind.TABLE
    table: TableLetter

    @property
    def key(self) -> str:
        """The stored form: ``table:B``."""
        return f"table:{self.table}"

    @property
    def label(self) -> str:
        """In words: ``serial -> Table B``."""
        return f"serial -> Table {self.table}"


@dataclass(frozen=True, slots=True)
class CellSkill:
    """One cell of Tables A-D: a card's type under a table."""

    kind: ClassVar[Kind] = Kind.IDENTIFY
    table: TableLetter
    card: Card

    @property
    def key(self) -> str:
        """The stored form: ``identify:B:RH``."""
        return f"identify:{self.table}:{self.card.code}"

    @property
    def label(self) -> str:
        """In words: ``Table B: red heart``."""
        return f"Table {self.table}: {self.card.words}"


@dataclass(frozen=True, slots=True)
class RuleSkill:
    """One cell of Table E: the rule letter for a card type on the pile and a digit."""

    kind: ClassVar[Kind] = Kind.RULE
    card_type: CardType
    digit: int

    @property
    def key(self) -> str:
        """The stored form: ``rule:Attack:3``."""
        return f"rule:{self.card_type.value}:{self.digit}"

    @property
    def label(self) -> str:
        """In words: ``Table E: Attack, last digit 3``."""
        return f"Table E: {self.card_type.value}, last digit {self.digit}"


@dataclass(frozen=True, slots=True)
class LegalSkill:
    """Applying one Table F rule to a hand."""

    kind: ClassVar[Kind] = Kind.LEGAL
    letter: RuleLetter

    @property
    def key(self) -> str:
        """The stored form: ``legal:L``."""
        return f"legal:{self.letter}"

    @property
    def label(self) -> str:
        """In words: ``rule L: <the rule's text>``."""
        return f"rule {self.letter}: {RULE_TEXTS[self.letter].rstrip('.')}"


class Move(enum.Enum):
    """The kind of the best click of a decision."""

    PLAY = "play"
    DISCARD = "discard"
    DRAW = "draw"
    DEFUSE = "defuse"


_MOVE_WORDS: Final[dict[Move, str]] = {
    Move.PLAY: "when to play a card",
    Move.DISCARD: "when to discard",
    Move.DRAW: "when to draw",
    Move.DEFUSE: "when to play a Defuse",
}


@dataclass(frozen=True, slots=True)
class DecideSkill:
    """Live decisions whose best click is of one kind."""

    kind: ClassVar[Kind] = Kind.DECIDE
    move: Move

    @property
    def key(self) -> str:
        """The stored form: ``decide:draw``."""
        return f"decide:{self.move.value}"

    @property
    def label(self) -> str:
        """In words: ``decision: when to draw``."""
        return f"decision: {_MOVE_WORDS[self.move]}"


@dataclass(frozen=True, slots=True)
class CycleSkill:
    """Where the mitten is: counted (its phase is known) or a chance (not yet)."""

    kind: ClassVar[Kind] = Kind.CYCLE
    known: bool

    @property
    def key(self) -> str:
        """The stored form: ``cycle:known`` or ``cycle:unknown``."""
        return f"cycle:{'known' if self.known else 'unknown'}"

    @property
    def label(self) -> str:
        """In words."""
        return (
            "cycle: deals until the mitten"
            if self.known
            else "cycle: chance the mitten is on top"
        )


class EdgeRead(enum.Enum):
    """What an ``edge`` question reads off the bomb's widgets."""

    BATTERIES = "batteries"
    INTERVAL = "interval"
    TABLE = "table"


_READ_WORDS: Final[dict[EdgeRead, str]] = {
    EdgeRead.BATTERIES: "batteries from the holders",
    EdgeRead.INTERVAL: "N from the holders",
    EdgeRead.TABLE: "the table from the serial sticker",
}


@dataclass(frozen=True, slots=True)
class EdgeSkill:
    """Reading one thing off the bomb's widgets."""

    kind: ClassVar[Kind] = Kind.EDGE
    read: EdgeRead

    @property
    def key(self) -> str:
        """The stored form: ``edge:batteries``."""
        return f"edge:{self.read.value}"

    @property
    def label(self) -> str:
        """In words: ``edgework: batteries from the holders``."""
        return f"edgework: {_READ_WORDS[self.read]}"


#: A table whose skills the trainer keeps, as a focus or a heatmap names it: one of
#: Tables A-D by its letter, or Table E (the card type on the pile and the last digit).
SkillTable = TableLetter | Literal["E"]
#: Table E's name beside Tables A-D.
TABLE_E_NAME: Final = "E"
#: Every table with skills, in the manual's order.
SKILL_TABLES: Final[tuple[SkillTable, ...]] = (*TABLE_LETTERS, TABLE_E_NAME)


def skill_table(text: str) -> SkillTable:
    """The table ``text`` names (``A``-``E``, in any case); ``ValueError`` for any other."""
    letter = text.upper()
    return TABLE_E_NAME if letter == TABLE_E_NAME else TableLetter(letter)


#: Any skill.
Skill = TableSkill | CellSkill | RuleSkill | LegalSkill | DecideSkill | CycleSkill | EdgeSkill

TABLE_SKILLS: Final[tuple[TableSkill, ...]] = tuple(TableSkill(t) for t in TABLE_LETTERS)
#: Tables A-D cell by cell, a table's rows (shapes) together: the teaching order.
CELL_SKILLS: Final[tuple[CellSkill, ...]] = tuple(
    CellSkill(t, c) for t in TABLE_LETTERS for c in ALL_CARDS
)
#: Table E row by row (card type), then by last digit.
RULE_SKILLS: Final[tuple[RuleSkill, ...]] = tuple(
    RuleSkill(k, d) for k in (CardType.NOPE, CardType.YEP, CardType.DEFUSE,
                              CardType.DOUBLE_PLAY, CardType.ATTACK,
                              CardType.EXPLODING_MITTEN) for d in range(10)
)
LEGAL_SKILLS: Final[tuple[LegalSkill, ...]] = tuple(LegalSkill(x) for x in RULE_LETTERS)
DECIDE_SKILLS: Final[tuple[DecideSkill, ...]] = tuple(DecideSkill(m) for m in Move)
CYCLE_SKILLS: Final[tuple[CycleSkill, ...]] = (CycleSkill(True), CycleSkill(False))
EDGE_SKILLS: Final[tuple[EdgeSkill, ...]] = tuple(EdgeSkill(r) for r in EdgeRead)


def parse_skill(key: str) -> Skill | None:
    """The skill a stored key names, or ``None`` for a key this version does not know."""
    parts = key.split(":")
    head, rest = parts[0], parts[1:]
    try:
        if head == "table" and len(rest) == 1 and rest[0] in TABLE_LETTERS:
            return TableSkill(TableLetter(rest[0]))
        if head == "identify" and len(rest) == 2 and rest[0] in TABLE_LETTERS:
            return CellSkill(TableLetter(rest[0]), Card.parse(rest[1]))
        if head == "rule" and len(rest) == 2 and rest[1].isdigit() and len(rest[1]) == 1:
            return RuleSkill(CardType(rest[0]), int(rest[1]))
        if head == "legal" and len(rest) == 1 and rest[0] in RULE_LETTERS:
            return LegalSkill(RuleLetter(rest[0]))
        if head == "decide" and len(rest) == 1:
            return DecideSkill(Move(rest[0]))
        if head == "cycle" and rest in (["known"], ["unknown"]):
            return CycleSkill(rest[0] == "known")
        if head == "edge" and len(rest) == 1:
            return EdgeSkill(EdgeRead(rest[0]))
    except MisuseError:
        raise  # a bug, not an unknown key
    except ValueError:  # an unknown member of an enum, or EdgeworkError (bad input)
        return None
    return None

