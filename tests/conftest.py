"""Shared test configuration: Hypothesis profiles and a private cache/data home.

CI sets ``CI=true`` and Hypothesis then loads the ``ci`` profile by itself: derandomised
and sized for a 2-core machine. ``dev`` is the default for local runs.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# Tests never touch the user's own policy cache or training stats: both live under a
# throw-away directory for the whole run (subprocesses inherit it), removed at the end.
_SANDBOX = tempfile.mkdtemp(prefix="mittens-tests-")
atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
os.environ["XDG_CACHE_HOME"] = os.path.join(_SANDBOX, "cache")
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")

#: The web tests' fixtures (a served app, headless Chromium) live in tests/web_fixtures.py.
pytest_plugins = ("web_fixtures",)

settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n auto``: two per usable CPU (at most 8).

    Many tests wait rather than compute: the firmware under simavr is paced to real time,
    the prop checker waits out its deadlines, the log follower reads at game pace. A
    second worker per CPU runs other tests in those waits (measured on 2 cores: 2
    workers 128 s, 4 workers 116 s, same tests, before other speed-ups).
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(2, min(8, 2 * cpus))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove this process's sandbox (test workers end without running atexit)."""
    shutil.rmtree(_SANDBOX, ignore_errors=True)
