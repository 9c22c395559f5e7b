"""The one wrapping routine for every command's prose and help on a terminal.

Contract: :func:`wrap_text` lays a text out in a given width: words are never split
(a word longer than the width alone is cut, as nothing else can show it), and a line that
wraps keeps a hanging indent: its continuation lines start where its words start (after
its leading spaces), or, for a row of a two-column help table (``  draw    click the
deck``), where its second column starts, so the columns hold (a row's own
continuation lines, indented to its second column, are first joined to it). Styles are
kept. It is
pure (no printing, no terminal); :meth:`defuser.terminal.app.Application.print` uses it
for text on a terminal, and piped output is never wrapped.
"""

from __future__ import annotations

import re
from typing import Final

from rich.console import Console
from rich.text import Text

#: A table row: a label after the indent, then two or more spaces, then the text.
_ROW: Final = re.compile(r"^( *)(\S+(?: \S+)*?)( {2,})(?=\S)")
#: A hanging indent leaves at least this many columns for the words, else a table row's
#: text goes under its label, and a deeper indent is cut to :data:`NARROW_INDENT`.
MIN_COLUMNS: Final = 16
#: The indent of a table row's text under its label when the columns do not fit.
NARROW_INDENT: Final = 6
#: Measures the words (widths of wide characters); never prints.
_MEASURE: Final = Console(width=1000, color_system=None, force_terminal=False)


def hang(line: str) -> int:
    """The column where a line's continuation lines start: its second column for a
    table row, else its first word's."""
    row = _ROW.match(line)
    if row is not None:
        return row.end()
    return len(line) - len(line.lstrip(" "))


def wrap_line(line: Text, width: int) -> list[Text]:
    """One line (without newlines) laid out in ``width`` columns with its hanging indent."""
    plain = line.plain
    column = hang(plain)
    lead = len(plain) - len(plain.lstrip(" "))
    row = _ROW.match(plain)
    if width - column >= MIN_COLUMNS:
        head, rest = line[:column], line[column:]
    elif row is not None:
        # Too narrow for the table's second column: the label on its own line, the
        # text below it, indented a little further.
        label = line[: row.end(2)]
        under = Text(" " * min(lead + 4, NARROW_INDENT)) + line[column:]
        return [*wrap_line(label, width), *wrap_line(under, width)]
    else:
        column = min(lead, NARROW_INDENT)
        head, rest = Text(" " * column), line[lead:]
    lines = list(rest.wrap(_MEASURE, max(width - column, 1), overflow="fold"))
    if not lines:
        return [head]
    out = [head + lines[0]]
    out.extend(Text(" " * column) + piece for piece in lines[1:])
    for piece in out:
        piece.rstrip()
    return out


def wrap_text(text: str | Text, width: int) -> Text:
    """``text`` (one or more lines) laid out in ``width`` columns, each line with its
    hanging indent (see the module docstring)."""
    source = Text(text) if isinstance(text, str) else text
    laid: list[Text] = []
    for line in _logical_lines(source):
        laid.extend(wrap_line(line, width))
    return Text("\n").join(laid)


def _logical_lines(source: Text) -> list[Text]:
    """The lines of ``source``, a table row's continuation lines (indented to its
    second column) joined to it, so that the row is wrapped as one."""
    lines: list[Text] = []
    for line in source.split("\n", allow_blank=True):
        plain = line.plain
        lead = len(plain) - len(plain.lstrip(" "))
        if lines and plain.strip() and lead > 0:
            last = lines[-1].plain
            last_lead = len(last) - len(last.lstrip(" "))
            if hang(last) == lead and lead > last_lead:
                lines[-1] = lines[-1] + Text(" ") + line[lead:]
                continue
        lines.append(line)
    return lines
