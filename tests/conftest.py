"""Shared test configuration: Hypothesis profiles, a private cache/data home, and
compiled byte-code shared by the suite's subprocesses.

CI sets ``CI=true`` and Hypothesis then loads the ``ci`` profile by itself: derandomised
and sized for a 2-core machine. ``dev`` is the default for local runs.
"""

from __future__ import annotations

import atexit
import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

try:  # pytest's own assert rewriting, used to prepare the workers' imports
    from _pytest.assertion import rewrite as _rewrite
except ImportError:  # pragma: no cover - moved in some pytest release
    _rewrite = None  # type: ignore[assignment]

# Tests never touch the user's own policy cache or training stats: both live under a
# throw-away directory for the whole run (subprocesses inherit it), removed at the end.
_SANDBOX = tempfile.mkdtemp(prefix="mittens-tests-")
atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
os.environ["XDG_CACHE_HOME"] = os.path.join(_SANDBOX, "cache")
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")
# Byte-code. The suite starts a few hundred 'python -m defuser' processes and several
# test workers. Where writing byte-code is switched off (PYTHONDONTWRITEBYTECODE, as in
# many container images) nothing would keep the compiled project: every process would
# compile each module it imports, and every worker would redo pytest's rewriting of
# Hypothesis (a pytest plugin, so its modules are rewritten too). So the controller
# writes the project's byte-code and the rewritten test files into the usual
# __pycache__ folders (ignored by git) before the workers start (pytest_configure
# below), and Hypothesis's rewritten modules are written beside it by the first process
# that imports it here; everything else keeps the environment's setting. (Pointing
# PYTHONPYCACHEPREFIX at a scratch folder instead made every process compile the
# standard library, pytest and numpy into it as well.)
_no_byte_code = sys.dont_write_bytecode
sys.dont_write_bytecode = False
import hypothesis.stateful  # noqa: E402, F401  (written once, as said above; strategies too)
from hypothesis import HealthCheck, settings  # noqa: E402

sys.dont_write_bytecode = _no_byte_code

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


TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def pytest_configure(config: pytest.Config) -> None:
    """Before any worker starts, rewrite and compile once what each process would.

    Every worker collects every test file: it rewrites the asserts of about 60 test
    modules and compiles the project; every ``python -m defuser`` the tests start
    compiles what it imports. Cold, that is several seconds of CPU per worker, all at
    once, and a tenth of a second per process; done here first, in two processes, the
    others load it (start-up and collection of 4 workers: 30 s of CPU before, 11-15 s
    after; see docs/benchmarks.md).
    """
    if not hasattr(config, "workerinput"):
        _warm_byte_code(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove this process's sandbox (test workers end without running atexit)."""
    shutil.rmtree(_SANDBOX, ignore_errors=True)


def _warm_byte_code(config: pytest.Config) -> None:
    """Write the rewritten test modules and the compiled project where workers look."""
    files = [*sorted(TESTS.rglob("test_*.py")), TESTS / "conftest.py"]
    helpers = [f for f in TESTS.glob("*.py") if f not in files]
    if _rewrite is None or not hasattr(os, "fork"):
        return  # pytest's internals moved, or no fork: each worker does it for itself
    pid = os.fork()
    if pid == 0:  # the child: the project, the test helpers and every other test file
        code = 1
        try:
            for package in ("defuser", "edgework", "hardware"):
                compileall.compile_dir(ROOT / package, quiet=2)
            for helper in helpers:
                compileall.compile_file(helper, quiet=2)
            _rewrite_files(config, files[1::2])
            code = 0
        finally:
            os._exit(code)  # no atexit handlers: the sandbox is the parent's
    _rewrite_files(config, files[0::2])
    os.waitpid(pid, 0)


def _rewrite_files(config: pytest.Config, files: list[Path]) -> None:
    """pytest's own rewrite of each file, stored as the pyc its import looks for."""
    assert _rewrite is not None
    state = config.stash[_rewrite.assertstate_key]
    for fn in files:
        pyc = _rewrite.get_cache_dir(fn) / (fn.name[:-3] + _rewrite.PYC_TAIL)
        if _rewrite._read_pyc(fn, pyc) is not None or not _rewrite.try_makedirs(pyc.parent):
            continue
        stat, code = _rewrite._rewrite_test(fn, config)
        _rewrite._write_pyc(state, code, stat, pyc)
