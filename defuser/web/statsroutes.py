"""The stats dashboard's routes: ``/stats`` (the page) and ``/api/stats`` (its JSON twin).

Contract: every request reads the stats database (the one ``mittens drill`` writes, or
``serve --db``'s) read-only, as ``mittens stats`` does, so a drill running beside the
server is never disturbed and the page is always current. ``/api/stats`` answers
``{"report": <mittens stats --json's object without the database path>, "progress":
<the weekly and daily series>}``; ``/stats`` draws the same data with
:mod:`defuser.dashboard.stats`. A database that cannot be read is one line (status 500 on
the page, ``{"error": ...}`` in JSON); a missing one is an empty dashboard.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from defuser.dashboard.stats import sections, stylesheet
from defuser.trainer.location import default_db_path
from defuser.trainer.progress import DashboardData, dashboard_data, local_day
from defuser.trainer.settings import Settings, load_settings
from defuser.trainer.store import AnswerRow, StatsDatabaseError, Store
from defuser.web.render import Render


def stats_data(path: Path, now: float) -> DashboardData:
    """The dashboard's data from the database at ``path`` at time ``now``."""
    rows: list[AnswerRow] = []
    settings = Settings()
    store = Store.open(path, create=False, readonly=True)
    if store is not None:
        with store:
            rows = store.answers()
            settings = load_settings(store.settings())
    return dashboard_data(rows, now, settings)


class StatsPages:
    """The dashboard's handlers."""

    def __init__(self, render: Render, database: Path | None,
                 clock: Callable[[], float] = time.time) -> None:
        """Read ``database`` (``None``: the default stats database) at ``clock``'s time."""
        self.render = render
        self.database = database
        self.clock = clock

    def routes(self) -> list[Route]:
        """The dashboard's routes."""
        return [
            Route("/stats", self.page),
            Route("/api/stats", self.api),
            Route("/dashboard.css", self.css),
        ]

    def path(self) -> Path:
        """The database read."""
        return self.database if self.database is not None else default_db_path()

    async def page(self, request: Request) -> Response:
        """The dashboard."""
        now = self.clock()
        try:
            data = await run_in_threadpool(stats_data, self.path(), now)
        except StatsDatabaseError as exc:
            return self.render("stats.html", status=500, page="stats", error=str(exc),
                               dashboard=None)
        html = sections(data, local_day(now))
        return self.render("stats.html", page="stats", error=None, dashboard=Markup(html))


    async def api(self, request: Request) -> Response:
        """The dashboard's data as JSON."""
        try:
            data = await run_in_threadpool(stats_data, self.path(), self.clock())
        except StatsDatabaseError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        return JSONResponse(data.to_json(), headers={"cache-control": "no-store"})

    async def css(self, request: Request) -> Response:
        """The dashboard's stylesheet (shared with ``mittens stats --picture``)."""
        return PlainTextResponse(stylesheet(), media_type="text/css",
                                 headers={"cache-control": "no-cache"})


def dashboard_html(path: Path, now: float) -> str:
    """The dashboard's HTML for the database at ``path``: the server's work for ``/stats``
    (what :mod:`defuser.web.benchmark_stats` times)."""
    return sections(stats_data(path, now), local_day(now))
