"""``mittens verify``: check the built-in tables, or a transcription against them.

A transcription is the JSON or CSV that ``mittens tables`` writes
(:func:`defuser.apps.table_io.read_transcription`) or the module's manual page in the
community repository's HTML layout (:func:`defuser.apps.manual_html.read_manual_page`,
chosen when the file starts with markup); both are compared the same way."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from defuser.apps.manual_html import looks_like_html, read_manual_page
from defuser.apps.table_checks import run_checks
from defuser.apps.table_io import (
    MAX_TRANSCRIPTION_BYTES,
    Difference,
    compare,
    read_transcription,
)
from defuser.terminal.app import Application
from defuser.terminal.safeio import read_stdin, read_user_bytes


@click.command()
@click.argument(
    "file",
    required=False,
    type=click.Path(exists=True, dir_okay=False, readable=True, allow_dash=True),
)
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON object.")
@click.option(
    "--language",
    default="en",
    show_default=True,
    metavar="LANG",
    help="The language of FILE (its Table F conditions; a manual page's headings and card "
    "types); any other than English (e.g. fr) allows them to be reworded.",
)
def verify(file: str | None, json_mode: bool, language: str) -> None:
    """Check the tables' invariants, or compare FILE (JSON, CSV or HTML) with the real tables.

    FILE is what 'mittens tables --format json|csv' writes, possibly edited (a player's
    own transcription or translation), or the module's manual page as the community's
    repository of manuals publishes it ('Exploding Mittens.html', or a translation of it).
    Every differing cell is listed; the exit code is 1 if a card type or rule letter
    differs, or if a Table F condition says something else (English conditions are
    compared by meaning: colour, shape, the discard top, the Exploding Mitten). A
    translation declares its language with --language: its reworded conditions are then
    only noted, and its card types may be in its own words.
    """
    out = Application.current(json_mode=json_mode)
    if file is None:
        check_builtin(out)
        return
    text, source = read_text(file)
    if not language.strip():
        raise click.BadParameter("expected a language such as en or fr", param_hint="'--language'")
    if looks_like_html(text):
        found = read_manual_page(text, source, language)
    else:
        found = read_transcription(text, source)
    diffs = [_hinted(d) for d in compare(found, language)]
    failing = [d for d in diffs if d.fails]
    if json_mode:
        out.json({
            "ok": not failing,
            "file": source,
            "differences": [
                {"where": d.where, "expected": d.expected, "found": d.found, "fails": d.fails,
                 "why": d.why or None}
                for d in diffs
            ],
        })
    else:
        for d in diffs:
            out.print(f"{'DIFF' if d.fails else 'NOTE'}  {d}")
        if failing:
            out.print(f"{source}: {len(failing)} cell(s) differ from the canonical tables")
        else:
            notes = len(diffs)
            extra = f" ({notes} reworded Table F condition(s) noted)" if notes else ""
            out.print(f"{source}: every card type and rule letter matches{extra}")
    if failing:
        sys.exit(1)


def check_builtin(out: Application) -> None:
    """Check the built-in tables' invariants and print the checks (exit 1 if one fails)."""
    checks = run_checks()
    failed = [c for c in checks if not c.passed]
    if out.json_mode:
        out.json({
            "ok": not failed,
            "checks": [
                {"name": c.name, "passed": c.passed, "detail": c.detail} for c in checks
            ],
        })
    else:
        for c in checks:
            out.print(f"{'PASS' if c.passed else 'FAIL'}  {c.name}: {c.detail}")
        out.print(f"{len(checks) - len(failed)} of {len(checks)} checks passed")
    if failed:
        sys.exit(1)


def read_text(file: str) -> tuple[str, str]:
    """The text of ``file`` (``-``: stdin) and the name to report it by."""
    if file == "-":
        return read_stdin(MAX_TRANSCRIPTION_BYTES, "verify -"), "<stdin>"
    raw = read_user_bytes(file, "transcription", limit=MAX_TRANSCRIPTION_BYTES)
    try:
        return raw.decode("utf-8-sig"), file
    except UnicodeDecodeError as exc:
        raise click.BadParameter(
            f"{file} is not UTF-8 text (byte {exc.start}), expected the JSON or CSV that "
            "'mittens tables' writes",
            param_hint="'FILE'",
        ) from None


def _hinted(diff: Difference) -> Difference:
    """A condition that is not English gets the option that declares a translation."""
    if not diff.unread:
        return diff
    return replace(diff, why=f"{diff.why}; if the file is a translation, declare its "
                   "language with --language")
