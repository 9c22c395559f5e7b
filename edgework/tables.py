"""The manual's Tables A-F as literal data, and the lookups derived from them.

Tables A-D map a face to its type; the serial number picks the table. Table E maps the
discard top's type and the serial's last digit to a rule letter; Table F says which
hand cards that rule admits. Everything else here (each table's mitten face, its plain
faces, the legality masks) is computed from the literal tables at import, so there is
one transcription to check.

Table and rule letters are :class:`TableLetter` and :class:`RuleLetter`: ``StrEnum``s,
equal to their letter, hashed, printed, written to JSON and repr'd as it, so every
output stays the plain letter. Every table here is keyed by them (and by
:class:`~edgework.cards.Card` and :class:`~edgework.cards.CardType`), Table E's cells are
rule letters, and the lookups take and return typed letters: text becomes a letter only
where it is read (``TableLetter(text)``, ``RuleLetter(text)``, or the readers of a serial
number, a log line or an answer).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from edgework.cards import ALL_CARDS, Card, CardType, Colour, Shape
from edgework.errors import EdgeworkError


class TableLetter(enum.StrEnum):
    """One of the manual's card tables, A-D (the serial number picks it)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"

    def __repr__(self) -> str:
        return repr(self.value)


class RuleLetter(enum.StrEnum):
    """One of Table F's rules, A-L (Table E picks it)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    E = "E"
    F = "F"
    G = "G"
    H = "H"
    I = "I"  # noqa: E741 - the manual's letter
    J = "J"
    K = "K"
    L = "L"

    def __repr__(self) -> str:
        return repr(self.value)


TABLE_LETTERS: Final[tuple[TableLetter, ...]] = tuple(TableLetter)
RULE_LETTERS: Final[tuple[RuleLetter, ...]] = tuple(RuleLetter)

_N = CardType.NOPE
_Y = CardType.YEP
_F = CardType.DEFUSE
_P = CardType.DOUBLE_PLAY
_K = CardType.ATTACK
_M = CardType.EXPLODING_MITTEN

# Rows: circle, heart, triangle, square. Columns: red, blue, green, yellow.
_RAW_TABLES: Final[Mapping[TableLetter, tuple[tuple[CardType, ...], ...]]] = MappingProxyType(
    {
        TableLetter.A: ((_N, _Y, _Y, _F), (_K, _Y, _P, _F), (_N, _P, _K, _N), (_K, _M, _F, _P)),
        TableLetter.B: ((_Y, _K, _Y, _P), (_M, _N, _N, _F), (_P, _K, _N, _K), (_P, _F, _F, _Y)),
        TableLetter.C: ((_N, _P, _M, _Y), (_K, _Y, _F, _N), (_K, _N, _F, _K), (_F, _P, _Y, _P)),
        TableLetter.D: ((_Y, _K, _F, _P), (_N, _F, _Y, _N), (_N, _F, _Y, _M), (_K, _P, _P, _K)),
    }
)

#: Tables A-D: table letter -> face -> type.
CARD_TABLES: Final[Mapping[TableLetter, Mapping[Card, CardType]]] = MappingProxyType(
    {
        letter: MappingProxyType(
            {Card.of(Shape(s), Colour(c)): rows[s][c] for s in range(4) for c in range(4)}
        )
        for letter, rows in _RAW_TABLES.items()
    }
)

#: Table E row order, as printed in the manual.
TABLE_E_ROWS: Final[tuple[CardType, ...]] = (_N, _Y, _F, _P, _K, _M)

#: Table E as the manual prints it: discard type -> its row of ten rule letters.
_TABLE_E_TEXT: Final[Mapping[CardType, str]] = MappingProxyType(
    {
        _N: "JEKALHGJDA",
        _Y: "GHKJIAKEFC",
        _F: "GBICFIDBKL",
        _P: "DJBFHCLKLG",
        _K: "JBDLFIBEDI",
        _M: "CHFEHDFCGE",
    }
)

#: Table E: discard type -> ten rule letters, one per last digit 0-9.
TABLE_E: Final[Mapping[CardType, tuple[RuleLetter, ...]]] = MappingProxyType(
    {kind: tuple(RuleLetter(x) for x in row) for kind, row in _TABLE_E_TEXT.items()}
)

#: Table F: rule letter -> the manual's wording of the condition.
RULE_TEXTS: Final[Mapping[RuleLetter, str]] = MappingProxyType(
    {
        RuleLetter.A: "It's identical to the card in the discard pile.",
        RuleLetter.B: "Its color matches the card in the discard pile.",
        RuleLetter.C: "Its shape matches the card in the discard pile.",
        RuleLetter.D: (
            "It shares neither its shape nor its color with the card in the discard pile."
        ),
        RuleLetter.E: "Its color does not match the card in the discard pile.",
        RuleLetter.F: "Its shape does not match the card in the discard pile.",
        RuleLetter.G: "The card is yellow.",
        RuleLetter.H: "The card is not red.",
        RuleLetter.I: "The shape matches the Exploding Mitten card.",
        RuleLetter.J: "The shape does not match the Exploding Mitten card.",
        RuleLetter.K: "The color matches the Exploding Mitten card.",
        RuleLetter.L: "The color does not match the Exploding Mitten card.",
    }
)

RulePredicate = Callable[[Card, Card, Card], bool]
"""``predicate(card, discard, mitten)``: does the rule admit ``card``?"""

#: Table F: rule letter -> predicate over (hand card, discard top, the table's mitten face).
RULE_PREDICATES: Final[Mapping[RuleLetter, RulePredicate]] = MappingProxyType(
    {
        RuleLetter.A: lambda c, d, m: c == d,
        RuleLetter.B: lambda c, d, m: c.colour == d.colour,
        RuleLetter.C: lambda c, d, m: c.shape == d.shape,
        RuleLetter.D: lambda c, d, m: c.shape != d.shape and c.colour != d.colour,
        RuleLetter.E: lambda c, d, m: c.colour != d.colour,
        RuleLetter.F: lambda c, d, m: c.shape != d.shape,
        RuleLetter.G: lambda c, d, m: c.colour == Colour.YELLOW,
        RuleLetter.H: lambda c, d, m: c.colour != Colour.RED,
        RuleLetter.I: lambda c, d, m: c.shape == m.shape,
        RuleLetter.J: lambda c, d, m: c.shape != m.shape,
        RuleLetter.K: lambda c, d, m: c.colour == m.colour,
        RuleLetter.L: lambda c, d, m: c.colour != m.colour,
    }
)

#: The rules of Table F that compare a card with the table's Exploding Mitten face.
MITTEN_RULES: Final[frozenset[RuleLetter]] = frozenset(
    (RuleLetter.I, RuleLetter.J, RuleLetter.K, RuleLetter.L)
)

VOWELS: Final[frozenset[str]] = frozenset("AEIOU")


def _faces_of(table: TableLetter, kind: CardType) -> tuple[Card, ...]:
    return tuple(c for c in ALL_CARDS if CARD_TABLES[table][c] is kind)


#: table letter -> its one Exploding Mitten face (derived).
MITTEN_FACES: Final[Mapping[TableLetter, Card]] = MappingProxyType(
    {t: _faces_of(t, _M)[0] for t in TABLE_LETTERS if len(_faces_of(t, _M)) == 1}
)

#: table letter -> the faces that are neither Defuse nor mitten (derived).
PLAIN_FACES: Final[Mapping[TableLetter, tuple[Card, ...]]] = MappingProxyType(
    {t: tuple(c for c in ALL_CARDS if CARD_TABLES[t][c].is_plain) for t in TABLE_LETTERS}
)

#: table letter -> its Defuse faces (derived).
DEFUSE_FACES: Final[Mapping[TableLetter, tuple[Card, ...]]] = MappingProxyType(
    {t: _faces_of(t, _F) for t in TABLE_LETTERS}
)


def table_for(has_vowel: bool, has_repeat: bool) -> TableLetter:
    """The table letter the manual picks: A vowel+repeat, B vowel, C repeat, D neither."""
    if has_vowel:
        return TableLetter.A if has_repeat else TableLetter.B
    return TableLetter.C if has_repeat else TableLetter.D


#: When the manual says to use each of Tables A-D, in words.
TABLE_CONDITIONS: Final[Mapping[TableLetter, str]] = MappingProxyType(
    {
        TableLetter.A: "the serial number contains a vowel and has repeated characters",
        TableLetter.B: "the serial number contains a vowel and every character is unique",
        TableLetter.C: "the serial number contains no vowels and has repeated characters",
        TableLetter.D: "the serial number contains no vowels and every character is unique",
    }
)


def table_traits(vowels: str, repeated: str, *, name_the_vowels: bool = False) -> str:
    """What in a serial number picks its table, in words, from its vowels and its
    repeated characters: ``a vowel (A, E) and every character unique``.

    With ``name_the_vowels`` (for a learner) a serial without one says which letters
    count: ``no vowel (A, E, I, O, U) and ...``.
    """
    if vowels:
        vowel = f"a vowel ({', '.join(dict.fromkeys(vowels))})"
    else:
        vowel = f"no vowel ({', '.join(sorted(VOWELS))})" if name_the_vowels else "no vowel"
    repeat = (
        f"a repeated character ({', '.join(repeated)})" if repeated
        else "every character unique"
    )
    return f"{vowel} and {repeat}"


#: The smallest and largest mitten interval N: batteries mod 5, plus 9.
MIN_INTERVAL: Final = 9
MAX_INTERVAL: Final = MIN_INTERVAL + 4
#: Every mitten interval the batteries can give, smallest first.
INTERVALS: Final = range(MIN_INTERVAL, MAX_INTERVAL + 1)


def interval_for(batteries: int) -> int:
    """N, the mitten interval: batteries mod 5, plus 9 (so 9..13)."""
    if batteries < 0:
        raise EdgeworkError(f"batteries {batteries} is negative, expected 0 or more")
    return batteries % 5 + MIN_INTERVAL


def card_type(table: TableLetter, card: Card) -> CardType:
    """The type of ``card`` under table ``table`` (A-D)."""
    return CARD_TABLES[table][card]


def rule_letter(table: TableLetter, last_digit: int, discard: Card) -> RuleLetter:
    """The Table E letter for this discard top and last digit of the serial number."""
    return TABLE_E[CARD_TABLES[table][discard]][last_digit]


def rule_digits(table: TableLetter, discard: Card, letter: RuleLetter) -> tuple[int, ...]:
    """The last digits of the serial number for which Table E gives rule ``letter`` with
    ``discard`` on top under table ``table`` (what a rule seen in a log says of the
    digit: :func:`rule_letter` read backwards), smallest first."""
    return tuple(d for d in range(10) if rule_letter(table, d, discard) == letter)


def rule_admits(letter: RuleLetter, card: Card, discard: Card, mitten: Card) -> bool:
    """Table F: whether rule ``letter`` admits ``card`` on ``discard`` (mitten for I-L)."""
    return RULE_PREDICATES[letter](card, discard, mitten)


def mask_of(cards: tuple[Card, ...] | list[Card] | frozenset[Card]) -> int:
    """A 16-bit set of faces: bit ``card.value`` is set for each card."""
    bits = 0
    for c in cards:
        bits |= 1 << int(c)
    return bits


@functools.cache
def legal_mask(table: TableLetter, last_digit: int, discard: Card) -> int:
    """The faces (as a 16-bit mask) that are legal to play on ``discard``."""
    letter = rule_letter(table, last_digit, discard)
    mitten = MITTEN_FACES[table]
    return mask_of([c for c in ALL_CARDS if rule_admits(letter, c, discard, mitten)])


@functools.cache
def _mask_row(table: TableLetter, last_digit: int) -> tuple[int, ...]:
    """:func:`legal_mask` for each of the 16 discard faces, in face order."""
    return tuple(legal_mask(table, last_digit, discard) for discard in ALL_CARDS)


@dataclass(frozen=True, slots=True, init=False)
class Ruleset:
    """The lookups of one module: its table (from the serial) and Table E column.

    This is everything about the edgework that the card rules depend on; the mitten
    interval comes from the batteries and is kept separately.
    """

    table: TableLetter
    last_digit: int
    #: :func:`legal_mask` of every discard face, by face value (the rules' hot path).
    _masks: tuple[int, ...] = field(repr=False, compare=False)

    def __init__(self, table: TableLetter, last_digit: int) -> None:
        """The rules of table ``table`` (A-D) and last digit ``last_digit``; anything else
        (from untyped data) is refused as an :class:`EdgeworkError`."""
        if table not in CARD_TABLES:
            raise EdgeworkError(f"table {table!r} is not a table, expected A, B, C or D")
        if not 0 <= last_digit <= 9:
            raise EdgeworkError(f"last digit {last_digit!r} is not a digit, expected 0-9")
        object.__setattr__(self, "table", TableLetter(table))
        object.__setattr__(self, "last_digit", last_digit)
        object.__setattr__(self, "_masks", _mask_row(table, last_digit))

    @property
    def mitten(self) -> Card:
        """The face that this table maps to Exploding Mitten."""
        return MITTEN_FACES[self.table]

    @property
    def plain_faces(self) -> tuple[Card, ...]:
        """Faces that are neither Defuse nor Exploding Mitten under this table."""
        return PLAIN_FACES[self.table]

    @property
    def defuse_faces(self) -> tuple[Card, ...]:
        """Faces that are Defuse under this table."""
        return DEFUSE_FACES[self.table]

    def type_of(self, card: Card) -> CardType:
        """The type of ``card`` under this table."""
        return CARD_TABLES[self.table][card]

    def rule(self, discard: Card) -> RuleLetter:
        """The rule letter in force with ``discard`` on top of the pile."""
        return rule_letter(self.table, self.last_digit, discard)

    def is_legal(self, card: Card, discard: Card) -> bool:
        """Whether the rule in force admits ``card`` (pure rule legality)."""
        return bool(self._masks[discard] >> card & 1)

    def legal_mask(self, discard: Card) -> int:
        """The legal faces on ``discard`` as a 16-bit mask."""
        return self._masks[discard]
