"""Fixtures for the web tests (a pytest plugin that tests/conftest.py loads): a real
``mittens serve`` process and headless Chromium.

The browser is Debian's ``chromium`` driven by Playwright (its own browser downloads are
not used): ``MITTENS_CHROMIUM`` names another executable. Without a browser the browser
tests are skipped, except under ``CI=true``, where they fail (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gamelog_builder import BombSpec, game_log, sample_messages, simulated_messages

from defuser.trainer.sample import sample_database

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="module")
def followed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log that :func:`server_url`'s hands-free board follows (empty at first)."""
    return tmp_path_factory.mktemp("follow") / "Player.log"


@pytest.fixture(scope="module")
def stats_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stats database :func:`server_url` serves: a sample learner's three weeks."""
    path = tmp_path_factory.mktemp("stats") / "stats.sqlite3"
    sample_database(path, days=21, answers=300, seed=2)
    return path


@pytest.fixture(scope="module")
def server_url(followed_log: Path, stats_db: Path) -> Iterator[str]:
    """A ``mittens serve`` on a free loopback port, for the whole test module."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "defuser", "serve", "--no-open", "--port", "0",
         "--follow", str(followed_log), "--db", str(stats_db)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    try:
        yield url
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)


def chromium_path() -> str | None:
    """The Chromium executable to drive, if this machine has one."""
    named = os.environ.get("MITTENS_CHROMIUM")
    if named:
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium under Playwright (skipped without one, except in CI)."""
    executable = chromium_path()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("the browser tests need Debian's chromium (apt-get install chromium)")
        pytest.skip("no chromium on this machine")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def two_module_log() -> bytes:
    """A real-format game log: one bomb (AB3CD4, 3 batteries), two modules solved."""
    bomb = BombSpec("AB3CD4", [2, 1], {1: simulated_messages("AB3CD4", [2, 1], 1, blunders=0),
                                       2: simulated_messages("AB3CD4", [2, 1], 2, 2, blunders=0)})
    return game_log([bomb], seed=3).data


def tampered_log() -> bytes:
    """A real-format game log of two bombs whose first module's tenth line says rule B
    where the module wrote rule A (one inconsistency)."""
    messages = sample_messages("sample02.log")
    messages[9] = "The rule used now is B."
    return game_log(
        [BombSpec("MG9NE9", [2, 2, 1], {1: messages}, seed=11),
         BombSpec("FL7NL4", [1, 1], {2: sample_messages("sample06.log")})],
        seed=3,
    ).data
