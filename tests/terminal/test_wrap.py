"""The one wrapping routine (issue 24, item 7): words whole, hanging indents kept, help
tables' columns holding, at 40, 80 and 100 columns, and every command's text through it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text

from defuser.apps.live_session import HELP
from defuser.commands.play import HELP_TEXT
from defuser.terminal.app import Application
from defuser.terminal.wrap import hang, wrap_text

WIDTHS = [40, 80, 100]
EXPLANATION = ("    line 12: the module was expected to strike here, but the log says the "
               "click was accepted, so the replay's policy needs another look")


def check_layout(source: str, laid: str, width: int) -> None:
    """Every line fits, the words are the source's words, none split, and each line a
    row wrapped to starts at that row's hanging column."""
    assert laid.split() == source.split()
    for line in laid.splitlines():
        assert len(line) <= width, line


@pytest.mark.parametrize("width", WIDTHS)
def test_words_are_never_split_and_the_indent_is_kept(width: int) -> None:
    laid = wrap_text(EXPLANATION, width).plain
    check_layout(EXPLANATION, laid, width)
    lines = laid.splitlines()
    assert all(line.startswith("    ") and line[4] != " " for line in lines)
    if width < len(EXPLANATION):
        assert len(lines) > 1


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("text", [HELP_TEXT, HELP], ids=["play", "live"])
def test_help_tables_keep_their_columns(width: int, text: str) -> None:
    # Issue 24: play's help left a lone 'is' on its own line at 80 columns, and the
    # live help table's columns fell apart.
    laid = wrap_text(text, width).plain
    check_layout(text, laid, width)
    rows = laid.splitlines()
    assert "is" not in [row.strip() for row in rows]
    column = None
    for row in rows:
        lead = len(row) - len(row.lstrip(" "))
        if lead <= 2:
            column = hang(row) if lead == 2 else None  # a table row, or prose
            continue
        if any(line.startswith(row) for line in text.splitlines()):
            column = lead  # a description line of its own (under a long label)
            continue
        # A continuation line starts at its row's second column (or, too narrow for
        # that, the text goes under its label, indented to column 6).
        assert column is not None and lead in (column, 6), row


def test_the_play_help_at_80_columns() -> None:
    laid = wrap_text(HELP_TEXT, 80).plain.splitlines()
    assert laid[2:5] == [
        "  discard       click the discard pile: the deck's top card goes onto the pile",
        "                (only allowed when no card in your hand is legal; a Defuse that",
        "                is the only legal card does not count, so you may still discard)",
    ]


def test_styles_survive_the_wrapping() -> None:
    text = Text("  Why: ").append("the Exploding Mitten is on top of the deck", style="red")
    laid = wrap_text(text, 30)
    assert laid.plain == "  Why: the Exploding Mitten is\n  on top of the deck"
    assert {laid.plain[s.start:s.end] for s in laid.spans} == {
        "the Exploding Mitten is", "on top of the deck"}


@pytest.mark.parametrize("width", WIDTHS)
def test_application_prose_wraps_on_a_terminal_only(width: int) -> None:
    screen = io.StringIO()
    app = Application()
    app.out = Console(file=screen, force_terminal=True, color_system=None, width=width)
    app.prose(EXPLANATION)
    check_layout(EXPLANATION, screen.getvalue(), width)
    piped = io.StringIO()
    app = Application()
    app.out = Console(file=piped, force_terminal=False, color_system=None, width=width)
    app.prose(EXPLANATION)
    assert piped.getvalue() == EXPLANATION + "\n"  # never broken when piped


@pytest.mark.parametrize("width", WIDTHS)
def test_the_stats_report_s_lines_wrap_on_a_terminal(width: int) -> None:
    # Issue 24: 'still lea|rning' in mittens stats at 80 columns.
    from defuser.terminal.stats_view import prose

    line = ("Retention: desired 90%, predicted 87% today; 12 reviews measured 83%, 4 skills "
            "still learning and 2 forgotten since last week")
    screen = io.StringIO()
    prose(Console(file=screen, force_terminal=True, color_system=None, width=width), line)
    check_layout(line, screen.getvalue(), width)
    piped = io.StringIO()
    prose(Console(file=piped, force_terminal=False, soft_wrap=True, width=width), line)
    assert piped.getvalue() == line + "\n"
