"""Tables A-F rendered from the data, read back from a transcription, and compared.

Every rendering (text, Markdown, JSON, CSV) is produced from :mod:`edgework.tables`, so
the CLI, the docs and an export always agree with what the engine uses
(:func:`render_compact` is the one serial number's view: its table and Table E column). JSON and CSV
exports can be edited by a player (their own transcription or translation) and read
back with :func:`read_transcription`; :func:`compare` lists every cell that differs.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from defuser.apps.rule_meaning import meaning
from edgework import (
    CARD_TABLES,
    RULE_LETTERS,
    RULE_TEXTS,
    TABLE_CONDITIONS,
    TABLE_E,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    Card,
    CardType,
    Colour,
    EdgeworkError,
    InvalidTableError,
    RuleLetter,
    SerialNumber,
    Shape,
    TableLetter,
)

FORMATS = ("text", "markdown", "json", "csv")
JSON_FORMAT_NAME = "exploding-mittens-tables"
CSV_HEADER = ("table", "row", "column", "value", "active")



@dataclass
class Transcription:
    """Tables as read from a file: any subset of the cells, keyed like the exports."""

    card_cells: dict[tuple[str, Shape, Colour], str] = field(default_factory=dict)
    table_e_cells: dict[tuple[str, int], str] = field(default_factory=dict)
    rule_texts: dict[str, str] = field(default_factory=dict)
    #: A whole manual (a manual page), not a subset: a Table F rule it lacks differs too.
    complete: bool = False
    #: What the reader found wrong besides the cells (a heading naming no row or column).
    differences: list[Difference] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Difference:
    """One cell of a transcription that differs from the canonical tables."""

    where: str
    expected: str
    found: str
    fails: bool = True
    #: Why the cell differs, in words, when the values alone do not say it.
    why: str = ""
    #: A Table F condition that could not be read as English (a translation, perhaps).
    unread: bool = False

    def __str__(self) -> str:
        text = f"{self.where}: expected {self.expected!r}, found {self.found!r}"
        return f"{text} ({self.why})" if self.why else text


#: The names under which a transcription counts as English (compared by meaning).
ENGLISH: Final = frozenset({"en", "english"})


def is_english(language: str) -> bool:
    """Whether ``language`` (``en``, ``en-GB``, ``English``, ``fr``...) is English."""
    return language.strip().lower().replace("_", "-").split("-")[0] in ENGLISH


def table_condition(table: TableLetter) -> str:
    """When the manual says to use ``table`` (A-D)."""
    return TABLE_CONDITIONS[table]


def _active(serial: SerialNumber | None) -> tuple[TableLetter | None, int | None]:
    if serial is None:
        return None, None
    return serial.table, serial.last_digit


def _grid(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
            for r in rows]


def render_text(serial: SerialNumber | None = None) -> str:
    """Plain-text grids; with a serial, ``>>`` marks the active table and ``[ ]`` its column."""
    table_on, digit_on = _active(serial)
    lines: list[str] = []
    if serial is not None:
        lines.append(
            f"Serial {serial.text}: Table {table_on} is active, Table E column {digit_on}."
        )
        lines.append("")
    lines.append("Tables A-D, card identification (row: shape, column: colour)")
    for t in TABLE_LETTERS:
        marker = ">> " if t == table_on else ""
        lines.append("")
        lines.append(f"{marker}Table {t}: {table_condition(t)}")
        rows = [[f"Table {t}", *(c.name for c in Colour)]]
        for s in Shape:
            rows.append([s.name, *(CARD_TABLES[t][Card.of(s, c)].value for c in Colour)])
        lines.extend(_grid(rows))
    lines.append("")
    lines.append("Table E, card rules (row: type of the discard top, column: last digit)")
    head = ["Card in discard"] + [
        f"[{d}]" if d == digit_on else str(d) for d in range(10)
    ]
    rows = [head]
    for kind in TABLE_E_ROWS:
        rows.append(
            [kind.value.upper()]
            + [f"[{x}]" if d == digit_on else x for d, x in enumerate(TABLE_E[kind])]
        )
    lines.extend(_grid(rows))
    lines.append("")
    lines.append("Table F, can only play a card if...")
    for letter in RULE_LETTERS:
        lines.append(f"{letter}  {RULE_TEXTS[letter]}")
    return "\n".join(lines) + "\n"


def render_compact(serial: SerialNumber) -> str:
    """Plain text for one serial number: only its table, and its Table E column with
    what each rule admits (Table F), instead of all six tables."""
    table, digit = serial.table, serial.last_digit
    lines = [
        f"Serial {serial.text}: Table {table} is active, Table E column {digit}.",
        "",
        f"Table {table}: {table_condition(table)}",
    ]
    rows = [[f"Table {table}", *(c.name for c in Colour)]]
    for s in Shape:
        rows.append([s.name, *(CARD_TABLES[table][Card.of(s, c)].value for c in Colour)])
    lines.extend(_grid(rows))
    lines.append("")
    lines.append(
        f"Table E, column {digit} (row: type of the discard top), with Table F's rule"
    )
    rows = [["Card in discard", "Rule"]]
    for kind in TABLE_E_ROWS:
        letter = TABLE_E[kind][digit]
        rows.append([kind.value.upper(), f"{letter}  {RULE_TEXTS[letter]}"])
    lines.extend(_grid(rows))
    return "\n".join(lines) + "\n"


def render_markdown(serial: SerialNumber | None = None) -> str:
    """Markdown tables; with a serial, the active table and Table E column are bold."""
    table_on, digit_on = _active(serial)
    out: list[str] = []
    if serial is not None:
        out.append(
            f"Serial **{serial.text}**: Table **{table_on}** is active, Table E column "
            f"**{digit_on}**.\n"
        )
    out.append("## Tables A-D: card identification\n")
    for t in TABLE_LETTERS:
        title = f"Table {t}" + (" (active)" if t == table_on else "")
        if t == table_on:
            title = f"**{title}**"
        out.append(f"### {title}\n\nUse it if {table_condition(t)}.\n")
        out.append("| Table " + t + " | " + " | ".join(c.name for c in Colour) + " |")
        out.append("|---|" + "---|" * 4)
        for s in Shape:
            cells = [CARD_TABLES[t][Card.of(s, c)].value for c in Colour]
            out.append(f"| {s.name} | " + " | ".join(cells) + " |")
        out.append("")
    out.append("## Table E: card rules\n")
    out.append("Row: type of the card on the discard pile. Column: last digit of the serial.\n")
    out.append(
        "| Card in discard | "
        + " | ".join(f"**{d}**" if d == digit_on else str(d) for d in range(10))
        + " |"
    )
    out.append("|---|" + "---|" * 10)
    for kind in TABLE_E_ROWS:
        cells = [f"**{x}**" if d == digit_on else x for d, x in enumerate(TABLE_E[kind])]
        out.append(f"| {kind.value.upper()} | " + " | ".join(cells) + " |")
    out.append("\n## Table F: can only play a card if...\n")
    out.append("| Rule | Condition |\n|---|---|")
    for letter in RULE_LETTERS:
        out.append(f"| {letter} | {RULE_TEXTS[letter]} |")
    return "\n".join(out) + "\n"


def to_json(serial: SerialNumber | None = None) -> dict[str, Any]:
    """The tables as a JSON-ready object (the format :func:`read_transcription` reads)."""
    table_on, digit_on = _active(serial)
    return {
        "format": JSON_FORMAT_NAME,
        "version": 1,
        "active": None if serial is None else {
            "serial": serial.text, "table": table_on, "last_digit": digit_on
        },
        "card_tables": {
            t: {
                s.name.lower(): {
                    c.name.lower(): CARD_TABLES[t][Card.of(s, c)].value for c in Colour
                }
                for s in Shape
            }
            for t in TABLE_LETTERS
        },
        "table_e": {kind.value: list(TABLE_E[kind]) for kind in TABLE_E_ROWS},
        "table_f": dict(RULE_TEXTS),
    }


def render_json(serial: SerialNumber | None = None) -> str:
    """The JSON export as text."""
    return json.dumps(to_json(serial), indent=2, ensure_ascii=False) + "\n"


def csv_rows(serial: SerialNumber | None = None) -> Iterable[tuple[str, str, str, str, str]]:
    """Long-format rows: ``table,row,column,value,active`` for every cell of A-F."""
    table_on, digit_on = _active(serial)
    for t in TABLE_LETTERS:
        for s in Shape:
            for c in Colour:
                yield (t, s.name.lower(), c.name.lower(), CARD_TABLES[t][Card.of(s, c)].value,
                       "1" if t == table_on else "")
    for kind in TABLE_E_ROWS:
        for d, letter in enumerate(TABLE_E[kind]):
            yield ("E", kind.value, str(d), letter, "1" if d == digit_on else "")
    for letter in RULE_LETTERS:
        yield ("F", letter, "", RULE_TEXTS[letter], "")


def render_csv(serial: SerialNumber | None = None) -> str:
    """The CSV export as text."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    writer.writerows(csv_rows(serial))
    return buf.getvalue()


def render(fmt: str, serial: SerialNumber | None = None) -> str:
    """Render the tables in ``fmt`` (text, markdown, json or csv)."""
    renderers = {
        "text": render_text,
        "markdown": render_markdown,
        "json": render_json,
        "csv": render_csv,
    }
    return renderers[fmt](serial)


def _shape(name: str, where: str) -> Shape:
    try:
        return Shape[name.strip().upper()]
    except KeyError:
        raise InvalidTableError(
            f"{where}: shape {name!r} is not a shape, expected circle, heart, triangle or square"
        ) from None


def _colour(name: str, where: str) -> Colour:
    try:
        return Colour[name.strip().upper()]
    except KeyError:
        raise InvalidTableError(
            f"{where}: colour {name!r} is not a colour, expected red, blue, green or yellow"
        ) from None


def _table_e_row(name: str, where: str) -> str:
    try:
        return CardType.parse(name).value
    except EdgeworkError:
        raise InvalidTableError(
            f"{where}: Table E row {name!r} is not a card type, expected Nope, Yep, Defuse, "
            "Double Play, Attack or Exploding Mitten"
        ) from None


#: Bounds on a transcription: its size, the nesting of its JSON, the digits of a number.
MAX_TRANSCRIPTION_BYTES = 1 << 20
MAX_JSON_DEPTH = 32
MAX_NUMBER_CHARS = 40


def _json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _number(kind: type[int] | type[float], source: str) -> Callable[[str], int | float]:
    """A JSON number parser that refuses absurdly long numbers."""

    def parse(text: str) -> int | float:
        if len(text) > MAX_NUMBER_CHARS:
            raise InvalidTableError(
                f"{source}: number {text[:20]}... has {len(text)} characters, expected a "
                f"table value (at most {MAX_NUMBER_CHARS})"
            )
        return kind(text)

    return parse


def _read_json(text: str, source: str) -> Transcription:
    if _json_depth(text) > MAX_JSON_DEPTH:
        raise InvalidTableError(
            f"{source}: JSON nested deeper than {MAX_JSON_DEPTH} levels, expected the shape",
            export_format="json",
        )
    try:
        data = json.loads(
            text, parse_int=_number(int, source), parse_float=_number(float, source)
        )
    except json.JSONDecodeError as exc:
        raise InvalidTableError(f"{source} is not valid JSON ({exc.msg} at line {exc.lineno})") \
            from None
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, InvalidTableError):
            raise
        raise InvalidTableError(f"{source} is not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise InvalidTableError(f"{source}: expected a JSON object like", export_format="json")
    result = Transcription()
    tables = data.get("card_tables", {})
    if not isinstance(tables, dict):
        raise InvalidTableError(f"{source}: 'card_tables' must be an object")
    for t, rows in tables.items():
        if not isinstance(rows, dict):
            raise InvalidTableError(f"{source}: card_tables.{t} must be an object")
        for shape_name, cols in rows.items():
            if not isinstance(cols, dict):
                raise InvalidTableError(f"{source}: card_tables.{t}.{shape_name} must be an object")
            for colour_name, value in cols.items():
                where = f"{source}: card_tables.{t}.{shape_name}.{colour_name}"
                key = (str(t).upper(), _shape(shape_name, where), _colour(colour_name, where))
                result.card_cells[key] = str(value)
    table_e = data.get("table_e", {})
    if not isinstance(table_e, dict):
        raise InvalidTableError(f"{source}: 'table_e' must be an object")
    for row, letters in table_e.items():
        where = f"{source}: table_e.{row}"
        row_name = _table_e_row(row, where)
        if isinstance(letters, str):
            letters = list(letters)
        if not isinstance(letters, list):
            raise InvalidTableError(f"{where} must be a list of ten letters")
        for d, letter in enumerate(letters):
            result.table_e_cells[(row_name, d)] = str(letter)
    table_f = data.get("table_f", {})
    if isinstance(table_f, dict):
        result.rule_texts = {str(k).upper(): str(v) for k, v in table_f.items()}
    return result


def _read_csv(text: str, source: str) -> Transcription:
    result = Transcription()
    # Universal newlines: a file with CR-only line ends reads like any other.
    reader = csv.reader(io.StringIO(text, newline=None))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise InvalidTableError(
            f"{source} line {reader.line_num} is not CSV like", export_format="csv",
            detail=f" ({exc})",
        ) from None
    for number, row in enumerate(rows, start=1):
        if not row or not "".join(row).strip():
            continue
        if number == 1 and row[0].strip().lower() == "table":
            continue
        where = f"{source} line {number}"
        if len(row) < 4:
            raise InvalidTableError(
                f"{where} has {len(row)} fields, expected table,row,column,value"
            )
        table, row_name, column, value = (x.strip() for x in row[:4])
        table = table.upper()
        if table in TABLE_LETTERS:
            result.card_cells[(table, _shape(row_name, where), _colour(column, where))] = value
        elif table == "E":
            if not (column.isascii() and column.isdigit() and len(column) <= 2) or not (
                0 <= int(column) <= 9
            ):
                raise InvalidTableError(f"{where}: column {column!r} is not a digit 0-9")
            result.table_e_cells[(_table_e_row(row_name, where), int(column))] = value
        elif table == "F":
            result.rule_texts[row_name.upper()] = value
        else:
            raise InvalidTableError(
                f"{where}: table {table!r} is not a table, expected A, B, C, D, E or F"
            )
    return result


def read_transcription(text: str, source: str) -> Transcription:
    """Read a JSON or CSV export (JSON when it starts with ``{`` or ``[``).

    Never raises anything but :class:`InvalidTableError`: nesting, number length and
    CSV field size are bounded (the caller bounds the text's size).
    """
    if text.lstrip()[:1] in ("{", "["):
        return _read_json(text, source)
    return _read_csv(text, source)


def compare(found: Transcription, language: str = "en") -> list[Difference]:
    """Every cell of ``found`` that differs from the canonical tables, plus missing cells.

    Card types and rule letters that differ fail the comparison; a declared translation
    may name the card types in its own words (each type's word is the one most of its
    cells hold, :func:`card_words`). Headings the reader could not place
    (``found.differences``) come first; a whole manual (``found.complete``) lacking a
    Table F rule differs too. A Table F condition
    worded differently is compared by meaning when ``language`` is English (the
    default): the same meaning in other words is listed with ``fails=False``, another
    meaning, or words that cannot be read as a condition, fail. A declared translation
    (any other ``language``) rewords every condition on purpose, so its wording is only
    listed, with ``fails=False``.
    """
    diffs: list[Difference] = list(found.differences)
    words = {} if is_english(language) else card_words(found)
    for t in TABLE_LETTERS:
        for s in Shape:
            for c in Colour:
                kind = CARD_TABLES[t][Card.of(s, c)]
                where = f"Table {t}, {s.name.lower()} {c.name.lower()}"
                got = found.card_cells.get((t, s, c))
                if got is None:
                    diffs.append(Difference(where, kind.value, "(missing)"))
                    continue
                meant = _card_type(got, words)
                if meant is not kind:
                    why = "" if meant is None or _word(got) not in words \
                        else f"the word this translation uses for {meant.value}"
                    diffs.append(Difference(where, kind.value, got, why=why))
    for kind in TABLE_E_ROWS:
        for d, want in enumerate(TABLE_E[kind]):
            where = f"Table E, {kind.value} row, digit {d}"
            got = found.table_e_cells.get((kind.value, d))
            if got is None:
                diffs.append(Difference(where, want, "(missing)"))
            elif got.strip().upper() != want:
                diffs.append(Difference(where, want, got))
    for (name, s, c) in found.card_cells:
        if name not in TABLE_LETTERS:
            diffs.append(Difference(f"Table {name}, {s.name.lower()} {c.name.lower()}",
                                    "(no such table)", found.card_cells[(name, s, c)]))
    for (row, d) in found.table_e_cells:
        if d > 9:
            diffs.append(Difference(f"Table E, {row} row, digit {d}", "(no such column)",
                                    found.table_e_cells[(row, d)]))
    if found.complete:
        diffs += [Difference(f"Table F, rule {letter}", RULE_TEXTS[letter], "(missing)")
                  for letter in RULE_LETTERS if letter not in found.rule_texts]
    for letter, text in sorted(found.rule_texts.items()):
        canonical = RULE_TEXTS[RuleLetter(letter)] if letter in RULE_LETTERS else None
        if canonical is None:
            diffs.append(Difference(f"Table F, rule {letter}", "(no such rule)", text))
        elif " ".join(text.split()) != canonical:
            diffs.append(_condition_difference(letter, canonical, text, language))
    return diffs


def _word(text: str) -> str:
    return " ".join(text.split()).casefold()


def card_words(found: Transcription) -> dict[str, CardType]:
    """A translation's word for each card type, learnt from its Tables A-D: the word that
    more than half of a type's cells hold (so one wrong cell never changes it), each word
    for one type only."""
    seen: dict[CardType, Counter[str]] = {}
    for (t, s, c), text in found.card_cells.items():
        if t in TABLE_LETTERS:
            seen.setdefault(CARD_TABLES[TableLetter(t)][Card.of(s, c)], Counter())[_word(text)] += 1
    words: dict[str, CardType] = {}
    for kind, counts in seen.items():
        word, count = counts.most_common(1)[0]
        if 2 * count > counts.total() and word not in words:
            words[word] = kind
    return words


def _card_type(text: str, words: dict[str, CardType]) -> CardType | None:
    """The card type ``text`` names: a translation's word, else an English name."""
    meant = words.get(_word(text))
    if meant is not None:
        return meant
    try:
        return CardType.parse(text)
    except EdgeworkError:
        return None


def _condition_difference(letter: str, canonical: str, text: str, language: str) -> Difference:
    """How a reworded Table F condition differs: by meaning in English, else by words."""
    where = f"Table F, rule {letter}"
    if not is_english(language):
        return Difference(where, canonical, text, fails=False,
                          why=f"reworded in the declared language {language!r}")
    want = meaning(canonical)
    got = meaning(text)
    assert want is not None, f"rule {letter}'s own wording must be readable"
    if got is None:
        return Difference(
            where, canonical, text,
            why="cannot be read as an English condition on colour or shape",
            unread=True,
        )
    if got != want:
        return Difference(where, canonical, text,
                          why=f"it says {got.words()}, but rule {letter} is: {want.words()}")
    return Difference(where, canonical, text, fails=False, why="reworded, same meaning")
