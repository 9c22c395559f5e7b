"""An independent oracle for the manual's lookups, read from the manual's own words.

Contract: nothing here imports the project. At import time the oracle parses the copy
of the manual in ``tests/data/exploding-mittens-manual.txt`` (a verbatim copy of the
players' manual) and builds from that text alone Tables A-D with the sentence that picks
each one, Table E, the Table F sentences (interpreted by a small phrase reader, not
transcribed as code) and the battery formula for N. The behaviour the manual leaves
vague comes from the spec and is written out here in a few lines: the vowels are
A E I O U, "identical" means same shape and colour, I-L refer to the active table's
mitten face, and a lone legal Defuse never blocks a discard.

Faces are ``(colour, shape)`` pairs of lower-case words, ``("red", "circle")``; type
names are the module's (``Exploding Mitten`` where the manual prints ``Expl. Mitten``).
Tests compare the project against these functions; any parse surprise raises, so a
changed or mangled manual fails loudly instead of yielding an empty oracle.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MANUAL_PATH: Final = Path(__file__).parent / "data" / "exploding-mittens-manual.txt"

Face = tuple[str, str]
"""``(colour, shape)`` in lower-case words."""

Predicate = Callable[[Face, Face, Face], bool]
"""``predicate(card, discard, mitten)``: does the rule admit ``card``?"""

#: The six type names the module logs (spec, "What the player sees" and log lines).
TYPE_NAMES: Final = frozenset(
    {"Nope", "Yep", "Defuse", "Double Play", "Attack", "Exploding Mitten"}
)
#: "contains a vowel": one of the serial's letters is A, E, I, O or U (spec).
VOWELS: Final = frozenset("AEIOU")
MITTEN: Final = "Exploding Mitten"
DEFUSE: Final = "Defuse"

_COLOUR, _SHAPE = 0, 1  # indices into a Face


class ManualParseError(AssertionError):
    """The manual's text did not have the shape the oracle reads."""


def _type_name(text: str) -> str:
    """The module's type name for a manual cell (``Expl. Mitten``, ``DOUBLE PLAY``)."""
    words = text.replace("Expl.", "Exploding").split()
    name = " ".join(w.capitalize() for w in words)
    if name not in TYPE_NAMES:
        raise ManualParseError(f"unknown card type {text!r} in the manual")
    return name


def _predicate(sentence: str) -> Predicate:
    """Read one Table F sentence into a predicate, refusing anything unexpected."""
    t = sentence.strip().rstrip(".").lower()
    if t == "it's identical to the card in the discard pile":
        # Spec: "identical" means the same shape and the same colour.
        return lambda c, d, m: c[_COLOUR] == d[_COLOUR] and c[_SHAPE] == d[_SHAPE]
    if t == "it shares neither its shape nor its color with the card in the discard pile":
        return lambda c, d, m: c[_COLOUR] != d[_COLOUR] and c[_SHAPE] != d[_SHAPE]
    found = re.fullmatch(
        r"(?:its|the) (shape|color) (matches|does not match) the "
        r"(card in the discard pile|exploding mitten card)",
        t,
    )
    if found is not None:
        index = _SHAPE if found.group(1) == "shape" else _COLOUR
        same = found.group(2) == "matches"
        to_mitten = found.group(3) == "exploding mitten card"

        def compare(c: Face, d: Face, m: Face) -> bool:
            other = m if to_mitten else d
            return (c[index] == other[index]) == same

        return compare
    found = re.fullmatch(r"the card is (not )?(red|blue|green|yellow)", t)
    if found is not None:
        negated, colour = found.group(1) is not None, found.group(2)
        return lambda c, d, m: (c[_COLOUR] == colour) != negated
    raise ManualParseError(f"Table F sentence {sentence!r} is not understood")


def _condition(sentence: str) -> tuple[bool, bool]:
    """Read ``If the serial number contains ... and ...:`` into (vowel, repeat)."""
    found = re.fullmatch(
        r"If the serial number contains (a vowel|no vowels) and "
        r"(has repeated characters|every character is unique):",
        sentence.strip(),
    )
    if found is None:
        raise ManualParseError(f"table condition {sentence!r} is not understood")
    return found.group(1) == "a vowel", found.group(2) == "has repeated characters"


@dataclass(frozen=True)
class Manual:
    """Everything the oracle read from the manual."""

    colours: tuple[str, ...]
    shapes: tuple[str, ...]
    card_tables: dict[str, dict[Face, str]]
    conditions: dict[str, tuple[bool, bool]]
    table_e: dict[str, dict[int, str]]
    rule_texts: dict[str, str]
    battery_modulus: int
    battery_offset: int

    @property
    def faces(self) -> tuple[Face, ...]:
        """All faces, shape-major in the manual's row and column order."""
        return tuple((c, s) for s in self.shapes for c in self.colours)


def _rows_after(lines: list[str], start: int) -> list[list[str]]:
    """The tab-separated lines after ``start`` up to the next blank line."""
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        rows.append(line.split("\t"))
    return rows


def parse_manual(text: str) -> Manual:
    """Build the oracle's tables from the manual's text."""
    lines = text.splitlines()
    card_tables: dict[str, dict[Face, str]] = {}
    conditions: dict[str, tuple[bool, bool]] = {}
    colours: tuple[str, ...] = ()
    shapes: list[str] = []
    table_e: dict[str, dict[int, str]] = {}
    rule_texts: dict[str, str] = {}
    for i, line in enumerate(lines):
        head = line.split("\t")
        found = re.fullmatch(r"Table ([A-F])", head[0])
        if found is None:
            continue
        letter = found.group(1)
        rows = _rows_after(lines, i)
        if letter in "ABCD":
            colours = tuple(c.lower() for c in head[1:])
            sentence = next(s for s in reversed(lines[:i]) if s.strip())
            conditions[letter] = _condition(sentence)
            table: dict[Face, str] = {}
            shapes = []
            for row in rows:
                shape = row[0].lower()
                shapes.append(shape)
                if len(row) != 1 + len(colours):
                    raise ManualParseError(f"Table {letter} row {row!r} has the wrong width")
                for colour, cell in zip(colours, row[1:], strict=True):
                    table[(colour, shape)] = _type_name(cell)
            card_tables[letter] = table
        elif letter == "E":
            digits = [int(d) for d in rows[0][1:]]
            for row in rows[1:]:
                table_e[_type_name(row[0])] = dict(zip(digits, row[1:], strict=True))
        else:
            rule_texts = {row[0]: row[1] for row in rows}
    found_n = re.search(r"number of batteries modulo (\d+), plus (\d+)", text)
    if found_n is None:
        raise ManualParseError("the manual's formula for N was not found")
    manual = Manual(
        colours=colours,
        shapes=tuple(shapes),
        card_tables=card_tables,
        conditions=conditions,
        table_e=table_e,
        rule_texts=rule_texts,
        battery_modulus=int(found_n.group(1)),
        battery_offset=int(found_n.group(2)),
    )
    if sorted(card_tables) != list("ABCD") or sorted(conditions.values()) != [
        (False, False),
        (False, True),
        (True, False),
        (True, True),
    ]:
        raise ManualParseError("the manual should give four tables, one per serial class")
    if sorted(table_e) != sorted(TYPE_NAMES) or sorted(rule_texts) != list("ABCDEFGHIJKL"):
        raise ManualParseError("Table E or Table F is incomplete")
    return manual


MANUAL: Final = parse_manual(MANUAL_PATH.read_text(encoding="utf-8"))
RULES: Final[dict[str, Predicate]] = {
    letter: _predicate(text) for letter, text in MANUAL.rule_texts.items()
}
ALL_FACES: Final = MANUAL.faces


def table_for_serial(serial: str) -> str:
    """The table (A-D) whose manual sentence the serial number satisfies."""
    text = serial.upper()
    vowel = any(ch in VOWELS for ch in text)
    repeat = any(text.count(ch) > 1 for ch in text)
    (letter,) = [t for t, cond in MANUAL.conditions.items() if cond == (vowel, repeat)]
    return letter


def last_digit(serial: str) -> int:
    """The last digit character of the serial number (the Table E column)."""
    return int([ch for ch in serial if ch.isdigit()][-1])


def card_type(table: str, face: Face) -> str:
    """The face's type name in the given table."""
    return MANUAL.card_tables[table][face]


@functools.cache
def mitten_face(table: str) -> Face:
    """The table's one Exploding Mitten face (raises if there is not exactly one)."""
    (face,) = [f for f, t in MANUAL.card_tables[table].items() if t == MITTEN]
    return face


def rule_letter(table: str, digit: int, discard: Face) -> str:
    """Table E: the rule letter for this discard top under this table and last digit."""
    return MANUAL.table_e[card_type(table, discard)][digit]


@functools.cache  # the exhaustive hand tests ask the same question many times
def is_legal(table: str, digit: int, card: Face, discard: Face) -> bool:
    """Table F: whether the rule in force admits ``card``."""
    return RULES[rule_letter(table, digit, discard)](card, discard, mitten_face(table))


def legal_slots(table: str, digit: int, discard: Face, hand: Sequence[Face]) -> list[int]:
    """The 1-based slots of the hand whose cards are legal."""
    return [i + 1 for i, card in enumerate(hand) if is_legal(table, digit, card, discard)]


def blocking_slots(table: str, digit: int, discard: Face, hand: Sequence[Face]) -> list[int]:
    """The legal slots, except that exactly one legal card that is a Defuse is ignored."""
    slots = legal_slots(table, digit, discard, hand)
    if len(slots) == 1 and card_type(table, hand[slots[0] - 1]) == DEFUSE:
        return []
    return slots


def discard_allowed(table: str, digit: int, discard: Face, hand: Sequence[Face]) -> bool:
    """Whether clicking the discard pile deals a card rather than striking."""
    return not blocking_slots(table, digit, discard, hand)


def hand_verdict(
    table: str, digit: int, discard: Face, hand: Sequence[Face]
) -> tuple[list[int], list[int], bool, bool]:
    """Legal slots, blocking slots, and twice whether discarding is allowed, read once.

    The same answers as :func:`legal_slots`, :func:`blocking_slots` and
    :func:`discard_allowed`, for tests that ask all of them about many hands.
    """
    legal = legal_slots(table, digit, discard, hand)
    blocking = legal
    if len(legal) == 1 and card_type(table, hand[legal[0] - 1]) == DEFUSE:
        blocking = []
    return legal, blocking, not blocking, not blocking


def interval(batteries: int) -> int:
    """N: the number of batteries modulo 5, plus 9 (as the manual words it)."""
    return batteries % MANUAL.battery_modulus + MANUAL.battery_offset
