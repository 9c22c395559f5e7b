"""``mittens bench``: play many simulated modules per policy and report the numbers.

Per N and overall: games, strikes, solves, clicks (mean, median, 95th percentile), the
95% interval of the mean, and, for ``optimal`` and ``oracle``, the exact expected
clicks from the DP. ``--live`` instead drives ``mittens live --json`` processes and
times their answers (first answer, computation included; every later answer).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich import box
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from defuser.strategy.policy import POLICY_NAMES
from defuser.terminal.app import Application, colour_enabled

#: Off a terminal, a progress line at most this often (seconds).
PIPED_EVERY = 5.0


@contextmanager
def _progress(out: Application, total: int, label: str) -> Iterator[Callable[[int], None]]:
    """Progress on stderr: a bar with the time left on a terminal; off a terminal (a
    pipe, a file, CI logs) a plain line now and then, with the same estimate."""
    if colour_enabled(sys.stderr) or sys.stderr.isatty():
        with Progress(
            TextColumn(label),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=out.err,
            transient=True,
        ) as bar:
            task = bar.add_task(label, total=total)
            yield lambda n: bar.advance(task, n)
        return
    start = time.monotonic()
    done = 0
    last = start

    def step(n: int) -> None:
        nonlocal done, last
        done += n
        now = time.monotonic()
        if done < total and now - last < PIPED_EVERY:
            return
        last = now
        print(progress_line(label, done, total, now - start), file=sys.stderr, flush=True)

    yield step


def progress_line(label: str, done: int, total: int, elapsed: float) -> str:
    """``games 1200/6000 (20%), 6 s elapsed, about 24 s left``."""
    share = done / total if total else 1.0
    line = f"{label} {done}/{total} ({share:.0%}), {elapsed:.0f} s elapsed"
    if 0 < done < total:
        line += f", about {elapsed * (total - done) / done:.0f} s left"
    return line


def _fmt(x: object, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def _policy_table(name: str, data: dict[str, Any]) -> Table:
    table = Table(title=f"policy: {name}", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    for col in ("N", "games", "strikes", "solved", "mean", "median", "p95", "mean 95% CI",
                "exact", "in CI"):
        table.add_column(col, justify="right", no_wrap=True)
    rows = [(n, s) for n, s in data["by_n"].items()] + [("all", data["overall"])]
    for n, s in rows:
        low, high = s["mean_ci95"]
        inside = s["exact_inside_ci95"]
        table.add_row(
            n,
            str(s["games"]),
            str(s["strikes"]),
            str(s["solved"]),
            _fmt(s["clicks_mean"], 3),
            _fmt(s["clicks_median"], 1),
            _fmt(s["clicks_p95"], 0),
            f"{_fmt(low, 2)}-{_fmt(high, 2)}",
            _fmt(s["exact_expected_clicks"], 3),
            "-" if inside is None else ("yes" if inside else "NO"),
        )
    return table


def bench_live(out: Application, games: int, seed: int, *, warm: bool) -> None:
    """Time ``mittens live --json`` answers over ``games`` processes and print the figures."""
    from defuser.apps.benchmark_live import measure

    with _progress(out, games, "live games") as step:
        timings = measure(games, seed, cold=not warm, progress=step)
    data = timings.to_json()
    data["seed"] = seed
    data["cache"] = "warm" if warm else "cold"
    if out.json_mode:
        out.json(data)
        return
    first, later = data["first_answer_ms"], data["later_answers_ms"]
    out.print(
        f"{data['games']} games via 'mittens live --json' ({data['cache']} cache): "
        f"{data['solved']} solved, {data['strikes']} strikes, mean clicks "
        f"{_fmt(data['clicks_mean'], 2)}"
    )
    out.print(
        f"first answer (start-up and policy included): median {first['median']} ms, "
        f"p95 {first['p95']} ms, max {first['max']} ms"
    )
    out.print(
        f"later answers ({later['count']}): median {later['median']} ms, "
        f"p95 {later['p95']} ms, max {later['max']} ms"
    )
    start = data["process_start_ms"]
    out.print(
        f"'mittens --help' as a whole process: median {start['median']} ms; first "
        f"answer / that: {_fmt(data['first_answer_vs_start'], 2)}"
    )
    for error in data["errors"]:
        out.note(f"error: {error}")


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Games per policy, spread over all 200 (table, digit, N).")
@click.option("--seed", type=int, default=1, show_default=True, help="Benchmark seed.")
@click.option("--policy", "policies", multiple=True, type=click.Choice(POLICY_NAMES),
              help="A policy to run (repeatable; default: all).")
@click.option("--live", "live_mode", is_flag=True,
              help="Time 'mittens live --json' answers instead (--games processes).")
@click.option("--warm", is_flag=True,
              help="With --live: each module's solution is cached before its session starts.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: one per CPU; never more than the "
              "configurations to play; results do not depend on it).")
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON object.")
def bench(
    games: int,
    seed: int,
    policies: tuple[str, ...],
    live_mode: bool,
    warm: bool,
    jobs: int | None,
    json_mode: bool,
) -> None:
    """Play simulated modules with each policy: strikes, solves and clicks.

    The optimal policy's measured mean is shown next to its exact expectation and the
    95% interval of the mean. Run time grows with --games: the defaults need about
    30 s of CPU time, shared by one worker per CPU; --live takes well under a second
    per game. Progress, with an estimate of the time left, goes to stderr.
    """
    out = Application.current(json_mode=json_mode)
    if live_mode:
        bench_live(out, games, seed, warm=warm)
        return

    from defuser.apps.benchmark import run

    names = policies or POLICY_NAMES
    with _progress(out, games * len(names), "games") as step:
        report = run(games, seed, names, progress=step, jobs=jobs)
    data = report.to_json()
    if json_mode:
        out.json(data)
        return
    out.print(f"{games} games per policy over all tables, digits and N (seed {seed})")
    if not out.out.is_terminal:
        # Off a terminal (a file, a pipe) rich would squeeze the tables to 80 columns.
        out.out.width = 110
    for name in report.policies:
        out.print(_policy_table(name, data["policies"][name]))
