"""Shared test configuration: Hypothesis profiles and a private cache/data home.

CI sets ``CI=true`` and Hypothesis then loads the ``ci`` profile by itself: derandomised
and sized for a 2-core machine. ``dev`` is the default for local runs.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Tests never touch the user's own policy cache or training stats: both live under a
# throw-away directory for the whole run (subprocesses inherit it), removed at the end.
_SANDBOX = tempfile.mkdtemp(prefix="mittens-tests-")
atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
os.environ["XDG_CACHE_HOME"] = os.path.join(_SANDBOX, "cache")
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")

@pytest.fixture
def unprivileged() -> Iterator[tuple[list[str], Path]]:
    """(command prefix for which file modes apply, a directory it may use): see
    :func:`cli_helpers.unprivileged_dir`."""
    from cli_helpers import unprivileged_dir

    with unprivileged_dir() as found:
        yield found


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
    """Workers for ``-n auto``: one per usable CPU (at least 2, at most 8).

    The tests compute rather than wait now (the firmware runs on emulated time, the prop
    checker on an injected clock), and every worker collects and compiles every test
    file: on 2 cores the whole suite took 81 s of CPU with 2 workers against 97 s with
    4 (docs/benchmarks.md).
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(2, min(8, cpus))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove this process's sandbox (test workers end without running atexit)."""
    shutil.rmtree(_SANDBOX, ignore_errors=True)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what collection made (every test item, the imported modules) out of the
    garbage collector's reach, so the tests' own garbage is collected without
    rescanning it (an exhaustive test making 700,000 boards took about 8 s in a worker
    that had collected the suite, 4-5 s after this), and collect the young generation
    less often: the tests make many short-lived objects and few cycles."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
