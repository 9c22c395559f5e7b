"""``mittens stats``: progress, accuracy and speed from the stored drill answers.

Reads the stats database read-only, without creating or changing it. ``--json``
prints the same numbers as one object; ``--export`` writes every answer as CSV (``-``
for stdout; never over the database or its files, see
:func:`~defuser.terminal.safeio.refuse_protected`); ``--reset`` deletes every answer
after a confirmation (``--yes`` skips it), and with ``--export`` writes the backup
first and checks it holds every answer before deleting any.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path
from typing import IO

import click

from defuser.streams import flush_stdout, os_reason
from defuser.terminal.app import Application, colour_enabled
from defuser.terminal.safeio import (
    PathError,
    confirm,
    refuse_protected,
    user_path,
    write_user_file,
)
from defuser.trainer.export import count_rows, write_csv
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


def dashboard_picture(rows: list[AnswerRow], now: float, settings: Settings, suffix: str) -> str:
    """The stats dashboard as one self-contained file: ``.svg`` or ``.html``."""
    from defuser.dashboard.picture import svg_document
    from defuser.dashboard.stats import standalone
    from defuser.trainer.progress import dashboard_data, local_day

    data = dashboard_data(rows, now, settings)
    today = local_day(now)
    made = f"on {today.isoformat()}"
    if suffix == ".svg":
        return svg_document(data, today, made)
    return standalone(data, today, made)


def _write(stream: IO[str], text: str) -> None:
    stream.write(text)


def _protected(database: Path) -> list[tuple[Path, str]]:
    """The database being read, which an output must never overwrite (nor its own files:
    :func:`~defuser.terminal.safeio.refuse_protected`)."""
    return [(database, f"the stats database {str(database)!r} being read")]


def export(rows: list[AnswerRow], target: str, out: Application, database: Path) -> None:
    """Write the CSV export to ``target`` (``-`` is stdout).

    A file is written safely (:func:`~defuser.terminal.safeio.write_user_file`): never
    over the stats database itself, through links and into devices, keeping its mode.
    """
    if target == "-":
        _refuse_stdout(database)
        write_csv(rows, sys.stdout)
        return
    _write_export(rows, target, database)
    out.note(f"Exported {len(rows)} answers to {target}")


def _refuse_stdout(database: Path) -> None:
    """Standard output appended to the database (``>> stats.sqlite3``) is refused like
    any protected file."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        fd = sys.stdout.fileno()
        if os.path.exists(f"/dev/fd/{fd}"):
            refuse_protected(f"/dev/fd/{fd}", "standard output", _protected(database))


def _write_export(rows: list[AnswerRow], target: str, database: Path) -> None:
    write_user_file(target, lambda stream: write_csv(rows, stream), what="export file",
                    protect=_protected(database))


def _is_null_device(st: os.stat_result) -> bool:
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == os.stat(os.devnull).st_rdev


def _backup_to_stdout(rows: list[AnswerRow]) -> None:
    """The backup on stdout: refused when stdout is closed or the null device, and
    flushed before anything is deleted."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        fd = None  # not a file (a test's stream): nothing to check
    if fd is not None:
        try:
            nowhere = _is_null_device(os.fstat(fd))
        except OSError:
            nowhere = True
        if nowhere:
            raise PathError("the --reset backup would go nowhere: standard output is "
                            "closed or the null device; nothing was deleted")
    try:
        write_csv(rows, sys.stdout)
        flush_stdout()
    except OSError as exc:  # a full disk, or a reader that went away: not all arrived
        raise PathError(f"the --reset backup could not be written to standard output "
                        f"({os_reason(exc)}); nothing was deleted") from None


def backup(rows: list[AnswerRow], target: str, out: Application, database: Path) -> None:
    """``--export`` with ``--reset``: the backup is written, flushed, closed and read back
    (every answer must be in it) before anything is deleted; otherwise
    :class:`~defuser.terminal.safeio.PathError` and nothing is deleted."""
    if target == "-":
        _refuse_stdout(database)
        _backup_to_stdout(rows)
        return
    shown = repr(target)
    with user_path(target, "export file", "write"):
        if os.path.exists(target) and _is_null_device(os.stat(target)):
            raise PathError(f"export file {shown} is the null device; the --reset backup "
                            "would be lost, nothing was deleted")
    _write_export(rows, target, database)
    with user_path(target, "export file", "read back"):
        if not stat.S_ISREG(os.stat(target).st_mode):
            return  # a pipe or a device: written and closed without an error is all
        with open(target, encoding="utf-8", newline="") as stream:
            found = count_rows(stream)
    if found != len(rows):
        raise PathError(f"export file {shown} holds {found or 0} of the {len(rows)} "
                        "answers after writing it; nothing was deleted")
    out.note(f"Exported {len(rows)} answers to {target} (read back: all there)")


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
            backup(answers, export_to, out, path)
        if not yes and not confirm(
            f"Delete all {len(answers)} stored answers in {path}? This cannot be undone"
        ):
            raise click.Abort
        # Exactly the answers read (and backed up); one stored since stays.
        deleted = store.reset(answers)
    if out.json_mode:
        out.json({"database": str(path), "reset": True, "deleted": deleted})
    elif export_to == "-":
        out.note(f"Deleted {deleted} answers from {path}.")  # stdout holds the backup
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
    now = out.wall()
    report = build_report(rows, database=str(path), now=now, settings=settings)
    if json_mode and picture_to is None:
        out.json(report.to_json())  # rich (the drawing) is never loaded for this
        return
    from defuser.terminal.stats_view import render

    if picture_to is not None:
        document = dashboard_picture(rows, now, settings, Path(picture_to).suffix.lower())
        write_user_file(picture_to, lambda stream: _write(stream, document),
                        what="picture file", protect=_protected(path))
        out.note(f"Wrote the stats dashboard to {picture_to}")
    if json_mode:
        out.json(report.to_json())
    elif picture_to is None:
        render(report, out.out, colour_enabled(sys.stdout), now)
