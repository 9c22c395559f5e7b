"""A manual page for the module in the community repository's HTML layout, built from the
project's own tables, for ``mittens verify`` to read.

The layout is the one that repository publishes for every module: three ``page`` divisions
with a header and a footer; Tables A-D as five-column tables whose first cell is the
title (``Table A``) and whose headings are ``<th>`` cells (``RED``, ``CIRCLE``); Table E
with a title row spanning the ten digit columns, then a row of the digits; Table F as
rule letters and conditions, the negations in ``<b>``. :class:`ManualPage` holds every
word the page shows, so that a test can translate or tamper with any of them before
:meth:`ManualPage.html` writes the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape

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
    Shape,
)


def _type_word(kind: CardType) -> str:
    return "Expl. Mitten" if kind is CardType.EXPLODING_MITTEN else kind.value


def _emphasised(text: str) -> str:
    """A condition as the page writes it: typographic apostrophe, negations in bold."""
    text = escape(text, quote=False).replace("'", "\u2019")
    return re.sub(r"\b(not|neither|nor)\b", r"<b>\1</b>", text)


@dataclass
class ManualPage:
    """Every word of the page; change any, then write it with :meth:`html`."""

    title: str = "Exploding Mittens"
    table_word: str = "Table"
    colours: list[str] = field(default_factory=lambda: [c.name for c in Colour])
    shapes: list[str] = field(default_factory=lambda: [s.name for s in Shape])
    #: (table, shape, colour) -> the cell's words.
    cells: dict[tuple[str, Shape, Colour], str] = field(default_factory=lambda: {
        (t, s, c): _type_word(CARD_TABLES[t][Card.of(s, c)])
        for t in TABLE_LETTERS for s in Shape for c in Colour
    })
    e_heading: str = "LAST DIGIT OF SERIAL NUMBER"
    e_corner: str = "Card in Discard"
    e_rows: list[str] = field(default_factory=lambda: [k.value.upper() for k in TABLE_E_ROWS])
    digits: list[str] = field(default_factory=lambda: [str(d) for d in range(10)])
    #: Table E's rows of rule letters, in the rows' order.
    letters: list[list[str]] = field(default_factory=lambda: [
        list(TABLE_E[k]) for k in TABLE_E_ROWS
    ])
    f_heading: str = "Can only play a card if..."
    #: rule letter -> the condition as HTML (with its emphasis).
    rules: dict[str, str] = field(default_factory=lambda: {
        letter: _emphasised(RULE_TEXTS[letter]) for letter in RULE_LETTERS
    })
    conditions: dict[str, str] = field(default_factory=lambda: {
        t: f"If the serial number {TABLE_CONDITIONS[t]}:" for t in TABLE_LETTERS
    })

    def _card_table(self, t: str) -> list[str]:
        out = [f"<p>{escape(self.conditions[t])}</p>",
               '<table style="width: 100%; text-align: center;">', "    <tr>",
               f'        <td style="width: 20%">{self.table_word} {t}</td>']
        out += [f'        <th style="width: 20%">{colour}</th>' for colour in self.colours]
        out.append("    </tr>")
        for s, shape in zip(Shape, self.shapes, strict=True):
            out += ["    <tr>", f"        <th>{shape}</th>"]
            out += [f"        <td>{escape(self.cells[(t, s, c)])}</td>" for c in Colour]
            out.append("    </tr>")
        return [*out, "</table>"]

    def _table_e(self) -> list[str]:
        out = ['<table style="width: 100%; text-align: center;">',
               f"    <tr><td>{self.table_word} E</td><th colspan=10>{self.e_heading}</th></tr>",
               f"    <tr><th>{self.e_corner}</th>"
               + "".join(f"<th>{d}</th>" for d in self.digits) + "</tr>"]
        for name, row in zip(self.e_rows, self.letters, strict=True):
            out.append(f"    <tr><th>{name}</th>" + "".join(f"<td>{x}</td>" for x in row)
                       + "</tr>")
        return [*out, "</table>"]

    def _table_f(self) -> list[str]:
        out = ['<table style="width: 100%; text-align: center;">',
               f'    <tr><td style="width: 15%">{self.table_word} F</td>'
               f"<th>{self.f_heading}</th></tr>"]
        out += [f"    <tr><td>{letter}</td><td>{text}</td></tr>"
                for letter, text in self.rules.items()]
        return [*out, "</table>"]

    def _page(self, number: int, body: list[str]) -> list[str]:
        return [
            f'<div class="page page-bg-0{number}">',
            '    <div class="page-header">',
            '        <span class="page-header-doc-title">Keep Talking and Nobody Explodes '
            "Mod</span>",
            f'        <span class="page-header-section-title">{self.title}</span>',
            "    </div>",
            '    <div class="page-content">',
            *("        " + line for line in body),
            "    </div>",
            f'    <div class="page-footer relative-footer">Page {number} of 3</div>',
            "</div>",
        ]

    def html(self) -> str:
        """The whole page."""
        first = [f"<h2>On the Subject of {self.title}</h2>",
                 '<p class="flavour-text">A deck, a pile, a hand of three.</p>',
                 "<p>Every Nth card is an Exploding Mitten; <i>Defuse cards <b>can</b> "
                 "always be played when one is on top</i>.</p>"]
        second = ['<h3 style="text-align: center;">Tables A\u2013D, Card Identification:</h3>']
        for t in TABLE_LETTERS:
            second += self._card_table(t)
        third = ['<h3 style="text-align: center;">Tables E\u2013F, Card Rules</h3>',
                 *self._table_e(), "<br>", *self._table_f()]
        lines = [
            "<!DOCTYPE html>", "<html>", "<head>", '    <meta charset="utf-8">',
            f"    <title>{self.title} \u2014 Keep Talking and Nobody Explodes Module</title>",
            '    <link rel="stylesheet" type="text/css" href="css/main.css">',
            '    <script src="js/ktane-utils.js"></script>',
            "    <style>table { margin: 1em auto; } td > b { color: #000; }</style>",
            "</head>", "<body>", '<div class="section">',
            *self._page(1, first), *self._page(2, second), *self._page(3, third),
            "</div>", "</body>", "</html>",
        ]
        return "\n".join(lines) + "\n"
