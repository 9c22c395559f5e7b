"""``mittens bench``: small runs, their report, determinism across worker processes,
and the live-session timing harness."""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.pool
import sys
from typing import Any

import pytest
from cli_helpers import run_cli

from defuser.apps import benchmark as bench
from defuser.apps.benchmark_live import LiveProcessError, measure, serial_for
from defuser.commands.bench import progress_line
from edgework import TABLE_LETTERS, SerialNumber
from edgework.configs import CONFIGS


def test_configurations_cover_every_table_digit_and_n() -> None:
    assert len(CONFIGS) == 200 == len(set(CONFIGS))
    assert sum(bench.allocate(1001)) == 1001
    assert max(bench.allocate(1001)) - min(bench.allocate(1001)) == 1
    with pytest.raises(ValueError, match="not positive"):
        bench.allocate(0)


def test_a_small_run_reports_per_n_and_overall() -> None:
    report = bench.run(400, 2, ["optimal", "safe"], configs=[0, 7, 13])
    data = report.to_json()
    for name in ("optimal", "safe"):
        overall = data["policies"][name]["overall"]
        assert overall["games"] == 6 and overall["strikes"] == 0 and overall["unsolved"] == 0
        assert sorted(data["policies"][name]["by_n"]) == ["11", "12", "9"]
    optimal = data["policies"]["optimal"]["overall"]
    assert optimal["exact_expected_clicks"] is not None
    assert data["policies"]["safe"]["overall"]["exact_expected_clicks"] is None
    low, high = optimal["mean_ci95"]
    assert low <= optimal["clicks_mean"] <= high


def test_worker_processes_do_not_change_the_results() -> None:
    one = bench.run(600, 3, ["safe"], configs=[1, 2, 3]).to_json()
    two = bench.run(600, 3, ["safe"], configs=[1, 2, 3], jobs=2).to_json()
    assert one == two


def test_cli_json_and_table(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["bench", "--games", "3", "--policy", "safe", "--json"], monkeypatch)
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["policies"]["safe"]["overall"]["games"] == 3
    run = run_cli(["bench", "--games", "3", "--policy", "safe"], monkeypatch)
    assert run.code == 0 and "policy: safe" in run.out and "mean 95% CI" in run.out
    run = run_cli(["bench", "--games", "0"], monkeypatch)
    assert run.code == 2


def test_serials_pick_the_wanted_table_and_digit() -> None:
    for table in TABLE_LETTERS:
        for digit in range(10):
            serial = SerialNumber.parse(serial_for(table, digit))
            assert (serial.table, serial.last_digit) == (table, digit)


def test_live_timing_harness_plays_through_the_protocol() -> None:
    timings = measure(1, 9)
    data = timings.to_json()
    assert data["games"] == data["solved"] == 1 and data["strikes"] == 0
    assert data["first_answer_ms"]["count"] == 1
    assert data["process_start_ms"]["count"] == 1 and data["first_answer_vs_start"] > 0
    assert data["later_answers_ms"]["count"] == data["clicks_mean"]
    assert not data["errors"]


def test_workers_are_capped_at_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real_pool = multiprocessing.Pool

    def counting_pool(processes: int) -> multiprocessing.pool.Pool:
        started.append(processes)
        return real_pool(processes)

    monkeypatch.setattr(multiprocessing, "Pool", counting_pool)
    # Three configurations of one rule set are one piece of work: no pool at all.
    bench.run(600, 3, ["safe"], configs=[1, 2, 3], jobs=150)
    assert started == []
    # Two rule sets: two workers, not 150.
    bench.run(600, 3, ["safe"], configs=[1, 7], jobs=150)
    assert started == [2]
    assert bench.worker_count(None, 1) == 1
    assert 1 <= bench.worker_count(None, 1000) <= bench.usable_cpus()


def test_a_process_limit_fails_cleanly_and_leaves_no_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The third worker cannot be started (as under a limit on processes): the two
    already started are ended, and the command says so in one line, with the option
    that helps. A process limit is a fault of the system, not bad input: exit 1 (it was
    2, as if --jobs had been given a bad value)."""
    real_process = multiprocessing.pool.Pool.Process
    count = 0

    def limited(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        if count > 2:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return real_process(ctx, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.pool.Pool, "Process", staticmethod(limited))
    with pytest.raises(bench.WorkerStartError, match="could not start 5 worker processes"):
        bench.run(600, 3, ["safe"], configs=[0, 5, 10, 15, 20], jobs=5)
    assert multiprocessing.active_children() == []
    count = 0
    run = run_cli(["bench", "--games", "1000", "--policy", "safe", "--jobs", "5"], monkeypatch)
    assert run.code == 1 and "Traceback" not in run.err
    last = run.err.strip().splitlines()[-1]
    assert last.startswith("mittens bench: error: could not start 5 worker processes: ")
    assert last.endswith("; ask for fewer with --jobs (or --jobs 1 for none)")
    assert multiprocessing.active_children() == []


def test_progress_off_a_terminal_is_a_line_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["bench", "--games", "3", "--policy", "safe", "--json"], monkeypatch)
    assert run.code == 0
    assert json.loads(run.out)["policies"]["safe"]["overall"]["games"] == 3
    assert run.err.strip().splitlines()[-1].startswith("games 3/3 (100%), ")
    assert progress_line("games", 30, 120, 10.0) == (
        "games 30/120 (25%), 10 s elapsed, about 30 s left"
    )


def test_a_live_process_that_goes_away_is_a_fault() -> None:
    """A measured ``mittens live`` that ends without answering is one fault, whether its
    input or its output closes first (it was a RuntimeError or a BrokenPipeError)."""
    with pytest.raises(LiveProcessError, match=r"mittens live closed its (input|output)"):
        measure(1, 1, command=[sys.executable, "-c", "pass"])
