"""``mittens tables``: Tables A-F rendered from the engine's own data."""

from __future__ import annotations

import sys

import click
from rich.table import Table
from rich.text import Text

from defuser.apps.table_io import FORMATS, render, render_compact, table_condition
from defuser.terminal.app import Application, colour_enabled
from defuser.terminal.params import SERIAL
from defuser.terminal.words import error_words
from edgework import (
    CARD_TABLES,
    RULE_LETTERS,
    RULE_TEXTS,
    TABLE_E,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    Card,
    Colour,
    EdgeworkError,
    SerialNumber,
    Shape,
)


def render_rich(out: Application, serial: SerialNumber | None) -> None:
    """Coloured tables for a terminal; the active table and column in reverse video."""
    table_on = serial.table if serial else None
    digit_on = serial.last_digit if serial else None
    if serial is not None:
        out.print(f"Serial {serial.text}: Table {table_on} is active, Table E column {digit_on}.")
    for t in TABLE_LETTERS:
        active = t == table_on
        grid = Table(
            title=f"{'>> ' if active else ''}Table {t}: {table_condition(t)}",
            title_justify="left",
            title_style="bold reverse" if active else "bold",
        )
        grid.add_column(f"Table {t}")
        for colour in Colour:
            grid.add_column(colour.name)
        for shape in Shape:
            grid.add_row(
                shape.name, *(CARD_TABLES[t][Card.of(shape, c)].value for c in Colour)
            )
        out.print(grid)
    grid = Table(title="Table E: card rules (column: last digit)", title_justify="left",
                 title_style="bold")
    grid.add_column("Card in discard")
    for d in range(10):
        grid.add_column(f"[{d}]" if d == digit_on else str(d),
                        style="bold reverse" if d == digit_on else "")
    for kind in TABLE_E_ROWS:
        grid.add_row(kind.value.upper(), *TABLE_E[kind])
    out.print(grid)
    grid = Table(title="Table F: can only play a card if...", title_justify="left",
                 title_style="bold")
    grid.add_column("Rule")
    grid.add_column("Condition")
    for letter in RULE_LETTERS:
        grid.add_row(letter, RULE_TEXTS[letter])
    out.print(grid)
    out.print(Text("Active table marked >>, active Table E column in [brackets].",
                   style="dim") if serial else "")


@click.command()
@click.option("--serial", type=SERIAL, help="Highlight the table and Table E column in force.")
@click.option("--lenient-serial", is_flag=True, help="Accept modded (non-vanilla) serials.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS, case_sensitive=False),
    default="text",
    show_default=True,
    help="Output format; json and csv can be read back by 'mittens verify FILE'.",
)
@click.option("--json", "json_mode", is_flag=True, help="Same as --format json.")
@click.option(
    "--compact",
    is_flag=True,
    help="With --serial: only the active table and its Table E column, with each "
    "rule's words (plain text).",
)
def tables(
    serial: str | None, lenient_serial: bool, fmt: str, json_mode: bool, compact: bool
) -> None:
    """Print Tables A-F, rendered from the data the engine uses."""
    parsed = None
    if serial is not None:
        try:
            parsed = SerialNumber.parse(serial, strict=not lenient_serial)
        except EdgeworkError as exc:
            raise click.BadParameter(error_words(exc), param_hint="'--serial'") from exc
    fmt = "json" if json_mode else fmt.lower()
    if compact:
        if parsed is None:
            raise click.BadParameter(
                "it shows one serial number's tables, expected --serial too",
                param_hint="'--compact'",
            )
        if fmt != "text":
            raise click.BadParameter(
                f"it is plain text, expected no --format {fmt}", param_hint="'--compact'"
            )
        sys.stdout.write(render_compact(parsed))
        return
    out = Application.current(json_mode=fmt == "json")
    if fmt == "text" and colour_enabled(sys.stdout):
        render_rich(out, parsed)
        return
    sys.stdout.write(render(fmt, parsed))
