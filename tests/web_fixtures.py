"""Fixtures for the web tests (a pytest plugin that tests/conftest.py loads): the web app
served in this process, headless Chromium and axe-core.

The browser is Debian's ``chromium`` driven by Playwright (its own browser downloads are
not used): ``MITTENS_CHROMIUM`` names another executable. Without a browser the browser
tests are skipped, and without axe-core (``MITTENS_AXE_JS``) the audits are, except under
``CI=true``, where they fail (``.ci/run`` installs both). One Chromium and one page
serve every test of a module; the app is served by uvicorn in a thread
(tests/web/test_web_serve.py runs ``mittens serve`` as a real process where the process
is what is tested).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from gamelog_builder import BombSpec, game_log, sample_messages, simulated_messages
from store_helpers import MEMORY

from defuser.trainer.sample import sample_database
from defuser.web.benchmark import running_server

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def memory_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Path]]:
    """Makes a new scratch folder (named after its argument) in memory where this machine
    has one (:data:`store_helpers.MEMORY`), else in pytest's temporary folder; all of
    them are removed at the end. The web tests write stats databases answer by answer,
    and SQLite syncs the file to the disk after each: on a busy disk a 60-day sample
    database took 6.4 s in /tmp and 0.12 s in /dev/shm. The web tests take
    :func:`memory_path` for ``tmp_path``."""
    if MEMORY is not None:
        root = Path(tempfile.mkdtemp(prefix="mittens-tests-", dir=MEMORY))
    else:
        root = tmp_path_factory.mktemp("scratch")

    def make(name: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=re.sub(r"\W+", "_", name)[:40] + "-", dir=root))

    yield make
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def memory_path(memory_tmp: Callable[[str], Path], request: pytest.FixtureRequest) -> Path:
    """A new, empty folder for this test, in memory where there is one (see
    :func:`memory_tmp`)."""
    return memory_tmp(request.node.name)


@pytest.fixture(scope="module")
def followed_log(memory_tmp: Callable[[str], Path]) -> Path:
    """The log that :func:`server_url`'s hands-free board follows (empty at first)."""
    return memory_tmp("follow") / "Player.log"


@pytest.fixture(scope="module")
def stats_db(memory_tmp: Callable[[str], Path]) -> Path:
    """The stats database :func:`server_url` serves: a sample learner's three weeks."""
    path = memory_tmp("stats") / "stats.sqlite3"
    sample_database(path, days=21, answers=300, seed=2)
    return path


@pytest.fixture(scope="module")
def server_url(followed_log: Path, stats_db: Path) -> Iterator[str]:
    """The web app on a free loopback port, for the whole test module: its hands-free
    board follows :func:`followed_log`, its dashboard and drills use :func:`stats_db`."""
    with running_server(stats_db, follow=followed_log) as port:
        yield f"http://127.0.0.1:{port}/"


def chromium_path() -> str | None:
    """The Chromium executable to drive, if this machine has one."""
    named = os.environ.get("MITTENS_CHROMIUM")
    if named:
        return named
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium under Playwright, for the whole test module (skipped without
    one, except in CI). Not for the whole session: Playwright's synchronous API leaves
    its event loop marked running in this thread, where a later test's ``asyncio.run``
    would then fail."""
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


class Tab:
    """The one page the browser tests of a module share, in its own browser context.

    A new page costs Chromium about half a second of CPU (a renderer process, its first
    load), a navigation about a tenth; so each test gets this page back clean instead:
    on a blank document, 1280x720, the light scheme, no storage and no cookies. The local
    storage of every site the page visited is cleared through Chromium's own protocol
    (asking Playwright for the storage state instead opens a page per site, 0.1-0.4 s
    each); a context left with cookies or a second page, or a page a test left unusable,
    is replaced."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.context: Any = None
        self.devtools: Any = None
        #: The sites (scheme, host and port) the page has been on since it was cleaned.
        self.origins: set[str] = set()

    def fresh(self) -> Any:
        """The page, as a new page would be."""
        if self.context is None:
            self.context = self.browser.new_context()
            page = self.context.new_page()
            page.on("framenavigated", self._visited)
            self.devtools = self.context.new_cdp_session(page)
        page = self.context.pages[0]
        page.set_viewport_size({"width": 1280, "height": 720})
        page.emulate_media(color_scheme="light")
        return page

    def _visited(self, frame: Any) -> None:
        url = urlsplit(frame.url)
        if url.scheme in ("http", "https"):
            self.origins.add(f"{url.scheme}://{url.netloc}")

    def clean(self) -> None:
        """Leave the page blank; drop the context if it keeps anything from the test."""
        if self.context is None:
            return
        try:
            page = self.context.pages[0]
            if page.url.startswith("http"):
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.goto("about:blank")
            for origin in sorted(self.origins):
                self.devtools.send(
                    "Storage.clearDataForOrigin",
                    {"origin": origin, "storageTypes": "local_storage"},
                )
            self.origins.clear()
            kept = bool(self.context.cookies()) or len(self.context.pages) > 1
        except Exception:  # the test left the page unusable: a new context
            kept = True
        if kept:
            self.close()

    def close(self) -> None:
        """Close the context (the next test opens a new one)."""
        if self.context is not None:
            self.context.close()
            self.context = None
            self.devtools = None
            self.origins.clear()


@pytest.fixture(scope="module")
def _tab(browser: Any) -> Iterator[Tab]:
    tab = Tab(browser)
    yield tab
    tab.close()


@pytest.fixture
def page(_tab: Tab) -> Iterator[Any]:
    """A blank Chromium page for this test (see :class:`Tab`); the test may navigate it,
    resize it and change its colour scheme, and must not close it."""
    yield _tab.fresh()
    _tab.clean()


@pytest.fixture(scope="session")
def axe_js() -> str:
    """axe-core's script (skipped without it, except in CI)."""
    axe = os.environ.get("MITTENS_AXE_JS")
    if not axe or not Path(axe).exists():
        if os.environ.get("CI"):
            pytest.fail("the audit needs axe-core: .ci/run sets MITTENS_AXE_JS")
        pytest.skip("axe-core is not here (set MITTENS_AXE_JS to axe.min.js)")
    return Path(axe).read_text(encoding="utf-8")


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
