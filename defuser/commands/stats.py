"""``mittens stats``: progress, accuracy and speed from the stored drill answers.

Reads the stats database read-only, without creating or changing it. ``--json``
prints the same numbers as one object; ``--export`` writes every answer as CSV (``-``
for stdout; never over the database itself); ``--reset`` deletes every answer after a
confirmation (``--yes`` skips it), and with ``--export`` writes the backup first.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import IO

import click

from defuser.terminal.app import Application, colour_enabled
from defuser.terminal.safeio import confirm, write_user_file
from defuser.trainer.export import write_csv
from defuser.trainer.location import default_db_path
from defuser.trainer.report import build_report
from defuser.trainer.settings import Settings, load_settings
from defuser.trainer.store import AnswerRow, Store


class PicturePath(click.ParamType[str]):
    """A file name ending in .svg or .html."""

    name = "FILE"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> str:
        """The name, if it ends in .svg or .html."""
        text = str(value)
        if Path(text).suffix.lower() not in (".svg", ".html"):
            self.fail(f"{text!r} does not end in .svg or .html, expected a picture file name",
                      param, ctx)
        return text


PICTURE_PATH = PicturePath()


def _write(stream: IO[str], text: str) -> None:
    stream.write(text)


def _protected(database: Path) -> list[tuple[Path, str]]:
    """The files a user-named output must never overwrite: the database and its own."""
    return [(database, "the stats database itself")] + [
        (Path(f"{database}-{extra}"), f"the stats database's {extra} file")
        for extra in ("wal", "shm", "journal")
    ]


def export(rows: list[AnswerRow], target: str, out: Application, database: Path) -> None:
    """Write the CSV export to ``target`` (``-`` is stdout).

    A file is written safely (:func:`~defuser.terminal.safeio.write_user_file`): never
    over the stats database itself, through links and into devices, keeping its mode.
    """
    if target == "-":
        write_csv(rows, sys.stdout)
        return
    write_user_file(target, lambda stream: write_csv(rows, stream), what="export file",
                    protect=_protected(database))
    out.note(f"Exported {len(rows)} answers to {target}")


def reset_answers(
    store: Store | None, path: Path, out: Application, *, export_to: str | None, yes: bool
) -> None:
    """``--reset``: delete every stored answer after a confirmation (``yes`` skips it),
    writing the ``--export`` backup first."""
    if store is None:
        out.note(f"Nothing to reset: {path} does not exist.")
        if out.json_mode:
            out.json({"database": str(path), "reset": True, "deleted": 0})
        return
    with store:
        answers = store.answers()
        if export_to is not None:
            # The backup is written before anything is deleted.
            export(answers, export_to, out, path)
        if not yes and not confirm(
            f"Delete all {len(answers)} stored answers in {path}? This cannot be undone"
        ):
            raise click.Abort
        deleted = store.reset()
    if out.json_mode:
        out.json({"database": str(path), "reset": True, "deleted": deleted})
    else:
        out.print(f"Deleted {deleted} answers from {path}.")


@click.command()
@click.option("--json", "json_mode", is_flag=True, help="Print the numbers as one JSON object.")
@click.option("--export", "export_to", metavar="CSV", default=None,
              help="Write every stored answer to this CSV file ('-' for stdout).")
@click.option(
    "--picture",
    "picture_to",
    metavar="FILE",
    type=PICTURE_PATH,
    default=None,
    help="Also write the report as a picture to share: FILE.svg or FILE.html.",
)
@click.option("--reset", is_flag=True, help="Delete every stored answer (asks first).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before --reset.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The stats database (default: the user data directory).",
)
def stats(
    json_mode: bool,
    export_to: str | None,
    picture_to: str | None,
    reset: bool,
    yes: bool,
    db: Path | None,
) -> None:
    """Show drill progress: accuracy and speed per kind and rule, weeks, streaks, weak spots."""
    out = Application.current(json_mode=json_mode)
    path = db if db is not None else default_db_path()
    if reset and export_to == "-" and json_mode:
        raise click.UsageError("--export - and --json would both write to stdout with --reset")
    # Only --reset writes; reading opens the file read-only, so nothing else changes it.
    store = Store.open(path, create=False, readonly=not reset)
    if reset:
        reset_answers(store, path, out, export_to=export_to, yes=yes)
        return
    rows: list[AnswerRow] = []
    settings = Settings()
    if store is not None:
        with store:
            rows = store.answers()
            settings = load_settings(store.settings())
    if export_to is not None:
        export(rows, export_to, out, path)
        if export_to == "-" or not json_mode:
            return
    now = time.time()
    report = build_report(rows, database=str(path), now=now, settings=settings)
    if json_mode and picture_to is None:
        out.json(report.to_json())  # rich (the drawing) is never loaded for this
        return
    from defuser.terminal.stats_view import picture, render

    if picture_to is not None:
        suffix = Path(picture_to).suffix.lower()
        document = picture(
            lambda console: render(report, console, True, now), suffix, "mittens stats"
        )
        write_user_file(picture_to, lambda stream: _write(stream, document),
                        what="picture file", protect=_protected(path))
        out.note(f"Wrote the stats view to {picture_to}")
    if json_mode:
        out.json(report.to_json())
    elif picture_to is None:
        render(report, out.out, colour_enabled(sys.stdout), now)
