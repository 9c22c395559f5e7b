"""Timing the stats dashboard at the server: ``/stats`` for a 60-day, 1,200-answer learner.

Contract: :func:`measure` writes the seeded sample
learner (:func:`defuser.trainer.sample.sample_database`: 60 days, 1,200 answers) to a
temporary folder, then times :func:`defuser.web.statsroutes.dashboard_html` (reading the
database, the report, the series and the HTML: everything the server does for ``/stats``
but the HTTP itself) ``repeats`` times, and returns the first, median and slowest wall
times and the median CPU time of the rendering thread, in milliseconds (on a busy machine
the CPU time is the steadier figure); ``python -m defuser.devtools.bench_dashboard
[REPEATS]`` prints them as JSON.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from defuser.trainer.sample import sample_database
from defuser.web.statsroutes import dashboard_html


def measure(repeats: int = 20) -> dict[str, Any]:
    """The dashboard's server time over ``repeats`` renders (milliseconds)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stats.sqlite3"
        last = sample_database(path, days=60, answers=1200)
        times, cpu = [], []
        for _ in range(max(1, repeats)):
            start, start_cpu = time.perf_counter(), time.thread_time()
            html = dashboard_html(path, last + 3600)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
    return {
        "answers": 1200, "days": 60, "repeats": len(times), "html_bytes": len(html),
        "first_ms": round(times[0], 1), "median_ms": round(statistics.median(times), 1),
        "max_ms": round(max(times), 1), "cpu_median_ms": round(statistics.median(cpu), 1),
    }

