"""``mittens stats``: progress, accuracy and speed from the stored drill answers.

Reads the stats database read-only, without creating or changing it. ``--json``
prints the same numbers as one object; ``--export`` writes every answer as CSV (``-``
for stdout; never over the database itself); ``--reset`` deletes every answer after a
confirmation (``--yes`` skips it), and with ``--export`` writes the backup first.
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from pathlib import Path
from typing import IO

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from defuser.commands.common import Output, colour_enabled
from defuser.commands.safeio import confirm, write_user_file
from defuser.commands.stats_view import (
    forecast_table,
    heatmaps_view,
    picture,
    retention_words,
    trend_table,
)
from defuser.streams import printable
from defuser.trainer.report import StatsReport, Tally, build_report, sparkline
from defuser.trainer.settings import Settings, load_settings
from defuser.trainer.store import AnswerRow, Store, default_db_path, iso_time, write_csv

#: Width of the longest bar of the answers-per-week chart.
BAR_WIDTH = 30


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


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _secs(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} s"


def tally_table(
    first: str,
    rows: list[Tally],
    extra: dict[str, str] | None = None,
    *,
    losses: bool = True,
) -> Table:
    """Answers, accuracy, median and 90th-percentile time per row (and the mean
    expected-click loss of decisions, with ``losses``)."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column(first)
    for column in ("answers", "accuracy", "median", "90th pct"):
        table.add_column(column, justify="right", no_wrap=True)
    if extra is not None:
        table.add_column("best streak", justify="right", no_wrap=True)
    for row in rows:
        cells = [
            printable(row.label),  # labels come from the database: no escape codes
            str(row.answers),
            _pct(row.accuracy),
            _secs(row.median_seconds),
            _secs(row.p90_seconds),
        ]
        if losses and row.mean_loss is not None:
            cells[0] += f" (mean loss {row.mean_loss:.2f})"
        if extra is not None:
            cells.append(extra.get(row.label, "-"))
        table.add_row(*cells)
    return table


def week_chart(report: StatsReport, colour: bool) -> Table:
    """One line per week: answers as a bar, accuracy and median time."""
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0))
    table.add_column("week", no_wrap=True)
    table.add_column("answers", justify="right", no_wrap=True)
    table.add_column("accuracy", justify="right", no_wrap=True)
    table.add_column("median", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    most = max((w.answers for w in report.weeks), default=1)
    for week in report.weeks:
        width = max(1, round(BAR_WIDTH * week.answers / most))
        bar = Text("█" * width, style="cyan" if colour else "")
        table.add_row(
            printable(week.label),
            str(week.answers),
            _pct(week.accuracy),
            _secs(week.median_seconds),
            bar,
        )
    return table


def render(report: StatsReport, console: Console, colour: bool, now: float) -> None:
    """The human report, on ``console`` (the terminal, or a recording for a picture)."""
    total = report.total
    if not total.answers:
        console.print(f"No answers yet in {report.database}. Run `mittens drill` to start.")
        return
    assert report.first is not None and report.last is not None
    bold = "bold" if colour else ""

    def head(title: str) -> None:
        console.print(Text(f"\n{title}", style=bold))

    console.print(
        f"Stats from {report.database}: {total.answers} answers in {report.sessions} "
        f"session{'s' if report.sessions != 1 else ''} over {report.days} "
        f"day{'s' if report.days != 1 else ''} ({iso_time(report.first)[:10]} to "
        f"{iso_time(report.last)[:10]})"
    )
    console.print(
        f"Overall: {_pct(total.accuracy)} right, median {_secs(total.median_seconds)}, "
        f"90th percentile {_secs(total.p90_seconds)}; best streak {report.streaks.best}, "
        f"current streak {report.streaks.current}"
    )
    if report.retention is not None:
        console.print(retention_words(report.retention))
    head("By drill kind")
    streaks = {k: str(v) for k, v in report.streaks.best_by_kind.items()}
    console.print(tally_table("kind", report.by_kind, streaks))
    if report.by_rule:
        head("By rule letter (questions with that rule in force)")
        console.print(tally_table("rule", report.by_rule, losses=False))
    head("Tables A-E, cell by cell")
    console.print(heatmaps_view(report.heatmaps, colour))
    head("Answer time per kind, week by week")
    console.print(trend_table(report.speed_trends))
    head("Progress per week")
    console.print(week_chart(report, colour))
    console.print(f"Accuracy per week: {sparkline([w.accuracy for w in report.weeks])}")
    head("Recent sessions")
    console.print(tally_table("session", report.recent_sessions))
    head("Weakest skills (asked first when you drill without --seed)")
    if report.weakest:
        for n, weak in enumerate(report.weakest, start=1):
            console.print(Text(printable(f"{n:2d}. {weak.label} [{weak.skill}]: {weak.record}")))
    else:
        console.print("none yet")
    console.print(f"\nSkills due for review now: {report.due}")
    if report.forecast:
        head("Due in the coming days")
        console.print(forecast_table(report.forecast, colour, lambda n: _weekday(now, n)))


def _write(stream: IO[str], text: str) -> None:
    stream.write(text)


def _weekday(now: float, offset: int) -> str:
    return (dt.datetime.fromtimestamp(now) + dt.timedelta(days=offset)).strftime("%A")


def _protected(database: Path) -> list[tuple[Path, str]]:
    """The files a user-named output must never overwrite: the database and its own."""
    return [(database, "the stats database itself")] + [
        (Path(f"{database}-{extra}"), f"the stats database's {extra} file")
        for extra in ("wal", "shm", "journal")
    ]


def export(rows: list[AnswerRow], target: str, out: Output, database: Path) -> None:
    """Write the CSV export to ``target`` (``-`` is stdout).

    A file is written safely (:func:`~defuser.commands.safeio.write_user_file`): never
    over the stats database itself, through links and into devices, keeping its mode.
    """
    if target == "-":
        write_csv(rows, sys.stdout)
        return
    write_user_file(target, lambda stream: write_csv(rows, stream), what="export file",
                    protect=_protected(database))
    out.note(f"Exported {len(rows)} answers to {target}")


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
    out = Output(json_mode=json_mode)
    path = db if db is not None else default_db_path()
    if reset and export_to == "-" and json_mode:
        raise click.UsageError("--export - and --json would both write to stdout with --reset")
    # Only --reset writes; reading opens the file read-only, so nothing else changes it.
    store = Store.open(path, create=False, readonly=not reset)
    if reset:
        if store is None:
            out.note(f"Nothing to reset: {path} does not exist.")
            if json_mode:
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
        if json_mode:
            out.json({"database": str(path), "reset": True, "deleted": deleted})
        else:
            out.print(f"Deleted {deleted} answers from {path}.")
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
