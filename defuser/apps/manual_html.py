"""Read Tables A-F from the module's manual page in the community repository's HTML format.

Contract. :func:`read_manual_page` takes the text of a manual page as the community's
repository of manuals publishes it (``Exploding Mittens.html``, or a translation of it
in the same format) and returns a :class:`~defuser.apps.table_io.Transcription` of its
tables, which :func:`~defuser.apps.table_io.compare` then compares cell by cell like a
JSON or CSV transcription. The page is parsed with the standard library's
:class:`html.parser.HTMLParser`. What is read:

- each ``<table>`` as rows of cells (``<td>`` and ``<th>`` alike; ``colspan`` repeats a
  cell; ``<b>``, ``<i>`` and other emphasis keep only their words; ``<br>`` is a space;
  entities are decoded, white space is folded and typographic quotes become plain);
- a table is one of the manual's by its title cell, the first cell of its first row
  (``Table A``, or a translation's ``Tableau A``: its last word is the letter), else by
  its shape: four colour columns, a row of the digits 0-9 (Table E), or rows led by a
  rule letter (Table F);
- headings name the rows and columns (``RED``, ``CIRCLE``, ``NOPE``, the digits). When
  they cannot be read as the names (a translation), the manual's order stands: in
  English such a heading is itself a difference, in a declared translation it is not.

The page is taken as a whole manual: a rule of Table F it lacks is a difference. Bounds
keep a hostile page harmless: the caller bounds its size; a tag that is not well formed
within :data:`MAX_TAG_CHARS` is read as text (so the parser never rescans), a comment
must end, elements nest at most :data:`MAX_DEPTH` deep, a page holds at most
:data:`MAX_TABLES` tables and :data:`MAX_CELLS` cells, a cell at most
:data:`MAX_CELL_CHARS` characters, a ``colspan`` counts at most :data:`MAX_COLSPAN`.
Never raises anything but :class:`~edgework.InvalidTableError`, in one line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Final, TypeVar

from defuser.apps.table_io import Difference, Transcription, is_english
from edgework import (
    RULE_LETTERS,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    CardType,
    Colour,
    InvalidTableError,
    MisuseError,
    Shape,
)

#: Bounds on a page (its size is bounded by the caller).
MAX_DEPTH: Final = 100
MAX_TABLES: Final = 200
MAX_CELLS: Final = 10_000
MAX_CELL_CHARS: Final = 4_000
MAX_COLSPAN: Final = 64
MAX_TAG_CHARS: Final = 4_000

#: A well-formed tag (start, end, ``<!DOCTYPE>``, ``<?...?>``) within the bounds: quoted
#: values may hold ``<`` and ``>``; a ``<`` that does not start one is text. Bounded, and
#: without two ways to match a character, so trying it never costs more than its bound.
_TAG: Final = re.compile(
    r"""<(?:/?[A-Za-z]|[!?])[^<>"']{0,N}(?:(?:"[^"]{0,N}"|'[^']{0,N}')[^<>"']{0,N}){0,64}>"""
    .replace("N", str(MAX_TAG_CHARS))
)
#: A ``<`` that cannot start a tag, a comment or a declaration.
_STRAY: Final = re.compile(r"<(?![A-Za-z/!?])")
#: A tag's name (after ``/`` for an end tag); declarations do not match.
_NAME: Final = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]{0,63})")
#: A ``colspan`` attribute's value.
_COLSPAN: Final = re.compile(r"""(?i)\scolspan\s*=\s*["']?\s*(\d{1,6})""")
#: Elements that never hold anything (no end tag).
_VOID: Final = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
})
#: Elements whose start closes an open one of the same kind (HTML's omitted end tags).
_SELF_CLOSING: Final = {"td": ("td", "th"), "th": ("td", "th"), "tr": ("tr", "td", "th"),
                        "p": ("p",), "li": ("li",)}
#: Elements that separate words inside a cell.
_BREAKS: Final = frozenset({"br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "hr"})
#: Typographic characters a transcription writes plainly.
_PLAIN: Final = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                               "\u00a0": " ", "\u2013": "-", "\u2014": "-"})


T = TypeVar("T")


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is markup (a manual page) rather than JSON or CSV."""
    return text.lstrip()[:1] == "<"


# --------------------------------------------------------------------------- parsing


def _lines(count: int) -> str:
    """``count`` line ends the parser counts (for the lines errors name) but that are no
    text: an empty comment holding them."""
    return f"<!--{chr(10) * count}-->" if count else ""


def _canonical(tag: str) -> str:
    """A well-formed tag written the one way the parser reads in linear time: its name,
    and of its attributes only the ``colspan`` the tables need (its line ends kept after
    it, :func:`_lines`). A declaration (``<!DOCTYPE html>``) or processing instruction
    leaves only its line ends."""
    lines = _lines(tag.count("\n"))
    name = _NAME.match(tag)
    if name is None:
        return lines
    span = None if name.group(1) else _COLSPAN.search(tag)
    attributes = f' colspan="{span.group(1)}"' if span is not None else ""
    return f"<{name.group(1)}{name.group(2).lower()}{attributes}>{lines}"


def _guarded(text: str, source: str) -> str:
    """``text`` as the parser is given it: comments emptied, every ``<`` that does not
    start a well-formed tag written as ``&lt;``, each tag written canonically
    (:func:`_canonical`), line ends kept. The parser then never waits for the end of a
    construct nor rescans one, so its time stays linear in the page's size."""
    text = _STRAY.sub("&lt;", text)
    out: list[str] = []
    pos = 0
    while True:
        start = text.find("<", pos)
        if start < 0:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos:start])
        if text.startswith("<!--", start):
            end = text.find("-->", start + 4)
            if end < 0:
                line = text.count("\n", 0, start) + 1
                raise InvalidTableError(f"{source} line {line}: a comment never ends, "
                                        "expected '-->'")
            out.append(_lines(text.count("\n", start, end)))
            pos = end + 3
            continue
        tag = _TAG.match(text, start)
        if tag is None:
            out.append("&lt;")
            pos = start + 1
        else:
            out.append(_canonical(tag.group()))
            pos = tag.end()


@dataclass
class _Table:
    """One table as parsed: rows of cell texts, and the line it starts on."""

    line: int
    rows: list[list[str]] = field(default_factory=list)


class _Tables(HTMLParser):
    """The tables of a page, each as rows of cell texts, within the bounds."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.tables: list[_Table] = []
        self.cells = 0
        self._open: list[str] = []
        self._building: list[_Table] = []
        self._cell: list[str] | None = None
        self._skip = 0

    def _fail(self, what: str) -> InvalidTableError:
        line = self.getpos()[0]
        return InvalidTableError(f"{self.source} line {line}: {what}, expected a manual page")

    def _end_cell(self) -> None:
        if self._cell is not None and self._building:
            text = " ".join("".join(self._cell).translate(_PLAIN).split())
            self._building[-1].rows[-1].append(text)
        self._cell = None

    def _start_cell(self, attrs: list[tuple[str, str | None]]) -> None:
        self._end_cell()
        table = self._building[-1]
        if not table.rows:
            table.rows.append([])
        span = next((value for name, value in attrs if name == "colspan"), None)
        repeat = int(span) if span is not None and span.strip().isdigit() else 1
        repeat = min(max(repeat, 1), MAX_COLSPAN)
        self._count(repeat)
        # A spanning cell is read once per column it covers.
        table.rows[-1].extend([""] * (repeat - 1))
        self._cell = []

    def _count(self, cells: int) -> None:
        """Count cells (and rows) against the page's bound."""
        self.cells += cells
        if self.cells > MAX_CELLS:
            raise self._fail(f"more than {MAX_CELLS} table cells and rows")

    def _close_to(self, names: tuple[str, ...]) -> None:
        """Pop the open elements down to and including the innermost of ``names``
        inside the innermost table (an omitted end tag)."""
        for depth in range(len(self._open) - 1, -1, -1):
            if self._open[depth] == "table":
                return
            if self._open[depth] in names:
                del self._open[depth:]
                return

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open an element: a table, a row, a cell, or markup inside one."""
        if tag in ("script", "style"):
            self._skip += 1
        if tag in _SELF_CLOSING:
            self._close_to(_SELF_CLOSING[tag])
        if tag not in _VOID:
            self._open.append(tag)
            if len(self._open) > MAX_DEPTH:
                raise self._fail(f"elements nested deeper than {MAX_DEPTH}")
        if tag == "table":
            if len(self.tables) + len(self._building) >= MAX_TABLES:
                raise self._fail(f"more than {MAX_TABLES} tables")
            self._end_cell()
            self._building.append(_Table(self.getpos()[0]))
        elif tag == "tr" and self._building:
            self._end_cell()
            self._count(1)
            self._building[-1].rows.append([])
        elif tag in ("td", "th") and self._building:
            self._start_cell(attrs)
        elif tag in _BREAKS and self._cell is not None:
            self._cell.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """``<br/>`` and the like: an element with nothing in it."""
        if tag in _BREAKS and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        """Close an element (and whatever it left open)."""
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        if tag in self._open:
            depth = len(self._open) - 1 - self._open[::-1].index(tag)
            del self._open[depth:]
        if tag in ("td", "th", "tr"):
            self._end_cell()
        elif tag == "table" and self._building:
            self._end_cell()
            self.tables.append(self._building.pop())
        elif tag in _BREAKS and self._cell is not None:
            self._cell.append(" ")

    def handle_data(self, data: str) -> None:
        """Text: kept inside a cell, within its bound."""
        if self._cell is None or self._skip:
            return
        self._cell.append(data)
        if sum(map(len, self._cell)) > MAX_CELL_CHARS:
            raise self._fail(f"a table cell holds more than {MAX_CELL_CHARS} characters")

    def finish(self) -> list[_Table]:
        """Every table, those left open at the end of the page included."""
        self.close()
        self._end_cell()
        while self._building:
            self.tables.append(self._building.pop())
        return sorted(self.tables, key=lambda table: table.line)


# --------------------------------------------------------------------------- reading


@dataclass
class _Reading:
    """What the page's tables gave, as they are read one by one."""

    source: str
    english: bool
    found: Transcription = field(default_factory=lambda: Transcription(complete=True))
    letters_seen: set[str] = field(default_factory=set)

    def heading(self, where: str, expected: str, found: str) -> None:
        """A heading that does not name its row or column: a difference in English."""
        if self.english:
            self.found.differences.append(Difference(
                f"{where} heading", expected, found,
                why="not a name this heading can have; read by its place in the manual",
            ))


def _names(
    cells: list[str], parse: Mapping[str, T], order: tuple[T, ...], reading: _Reading,
    where: str, word: str,
) -> list[T]:
    """The rows' or columns' names from their headings, or the manual's order when they
    do not name each one once (each unreadable heading then noted)."""
    keys = [" ".join(c.replace(".", " ").split()).lower() for c in cells]
    named = [parse.get(k) for k in keys]
    if all(n is not None for n in named) and len(set(named)) == len(named) == len(order):
        return [n for n in named if n is not None]
    for place, (cell, want) in enumerate(zip(cells, order, strict=False), start=1):
        if parse.get(" ".join(cell.replace(".", " ").split()).lower()) != want:
            reading.heading(f"{where}, {word} {place}", _display(want), cell)
    return list(order)


def _display(value: object) -> str:
    if isinstance(value, CardType):
        return value.value.upper()
    return str(getattr(value, "name", value))


_COLOURS: Final = {c.name.lower(): c for c in Colour}
_SHAPES: Final = {s.name.lower(): s for s in Shape}
_KINDS: Final = {**{k.value.lower(): k for k in CardType},
                 "expl mitten": CardType.EXPLODING_MITTEN}
_DIGITS: Final = {str(d): d for d in range(10)}


def _card_table(table: _Table, letter: str, reading: _Reading) -> None:
    rows = [row for row in table.rows if row]
    head = next((i for i, row in enumerate(rows) if len(row) >= 5), None)
    if head is None:
        return
    where = f"Table {letter}"
    colours = _names(rows[head][1:5], _COLOURS, tuple(Colour), reading, where, "column")
    body = rows[head + 1:]
    shapes = _names([r[0] for r in body[:4]], _SHAPES, tuple(Shape), reading, where, "row")
    for shape, row in zip(shapes, body, strict=False):
        for colour, value in zip(colours, row[1:], strict=False):
            reading.found.card_cells[(letter, shape, colour)] = value
        for extra in row[5:]:
            reading.found.differences.append(Difference(
                f"{where}, {shape.name.lower()} row, cell {len(colours) + 2}",
                "(no such column)", extra))
    for row in body[4:]:
        reading.found.differences.append(
            Difference(f"{where}, row {row[0]!r}", "(no such row)", " | ".join(row[1:])))


def _table_e(table: _Table, reading: _Reading) -> None:
    rows = [row for row in table.rows if row]
    head = next((i for i, row in enumerate(rows)
                 if len(row) > 1 and all(c in _DIGITS for c in row[1:])), None)
    if head is None:
        return
    digits = _names(rows[head][1:], _DIGITS, tuple(range(10)), reading, "Table E", "column")
    body = rows[head + 1:]
    kinds = _names([r[0] for r in body[: len(TABLE_E_ROWS)]], _KINDS, TABLE_E_ROWS, reading,
                   "Table E", "row")
    for kind, row in zip(kinds, body, strict=False):
        for digit, value in zip(digits, row[1:], strict=False):
            reading.found.table_e_cells[(kind.value, digit)] = value
    for row in body[len(TABLE_E_ROWS):]:
        reading.found.differences.append(
            Difference(f"Table E, row {row[0]!r}", "(no such row)", " | ".join(row[1:])))


def _table_f(table: _Table, reading: _Reading) -> None:
    for row in table.rows:
        if len(row) < 2 or len(row[0]) != 1 or not row[0].isalpha():
            continue
        letter = row[0].upper()
        if letter in reading.found.rule_texts:
            reading.found.differences.append(Difference(
                f"Table F, rule {letter}", "(once)", row[1], why="the rule is listed twice"))
            continue
        reading.found.rule_texts[letter] = row[1]


def _title_letter(table: _Table) -> str | None:
    """The table's letter from its title cell (``Table A``, ``Tableau E``), if it has one."""
    first = next((row for row in table.rows if row), None)
    if first is None:
        return None
    words = first[0].replace(":", " ").split()
    last = words[-1].upper() if words else ""
    if 1 < len(words) <= 3 and len(last) == 1 and last in "ABCDEF":
        return last
    return None


def _shape_letter(table: _Table, reading: _Reading) -> str | None:
    """The letter of an untitled table, from its shape and headings (``None``: not ours)."""
    rows = [row for row in table.rows if row]
    if any(len(row) > 1 and all(c in _DIGITS for c in row[1:]) and len(row) == 11
           for row in rows):
        return "E"
    if sum(1 for row in rows if len(row) == 2 and row[0] in RULE_LETTERS) >= 6:
        return "F"
    heads = [" ".join(c.split()).lower() for row in rows[:1] for c in row[1:]]
    if len(heads) == 4 and (not reading.english or all(h in _COLOURS for h in heads)):
        return next((t for t in TABLE_LETTERS if t not in reading.letters_seen), None)
    return None


def read_manual_page(text: str, source: str, language: str = "en") -> Transcription:
    """The tables of a manual page (see the module contract); ``language`` says whether
    its headings must be English names."""
    parser = _Tables(source)
    try:
        parser.feed(_guarded(text, source))
        tables = parser.finish()
    except MisuseError:
        raise  # a bug, not a page that cannot be read
    except (AssertionError, ValueError) as exc:  # the parser's own complaints
        if isinstance(exc, InvalidTableError):
            raise
        raise InvalidTableError(f"{source} cannot be read as HTML ({exc})") from None
    reading = _Reading(source, is_english(language))
    for table in tables:
        letter = _title_letter(table) or _shape_letter(table, reading)
        if letter is None or letter in reading.letters_seen:
            continue
        reading.letters_seen.add(letter)
        if letter in TABLE_LETTERS:
            _card_table(table, letter, reading)
        elif letter == "E":
            _table_e(table, reading)
        else:
            _table_f(table, reading)
    found = reading.found
    if not (found.card_cells or found.table_e_cells):
        raise InvalidTableError(
            f"{source} has no tables like the module manual's (Tables A-D of card types, "
            "Table E of rule letters), expected the Exploding Mittens manual page"
        )
    return found
