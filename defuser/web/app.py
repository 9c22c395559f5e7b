"""The web app behind ``mittens serve``: every HTML page has a JSON twin.

Contract: :func:`create_app` builds a Starlette application (wrapped in
:class:`~defuser.web.security.Guard`); when the server stops (the ASGI lifespan's
shutdown), the drills still running are ended as if their learners quit. Each page
is rendered with Jinja2 from the same plain data its ``/api/...`` twin sends as JSON
(the objects of the CLI's ``--json``), so the two cannot disagree. Everything served
comes from the package (no CDN, no build step); errors are short and never carry a
traceback. The pages:

* ``/``: the expert's board (``/api/board``), its state in the address;
* ``/follow``: the hands-free board, following the game's log (``/api/follow``, and the
  server-sent events of ``/api/follow/stream``);
* ``/tables``: Tables A-F with the active table, column and rule marked (``/api/tables``);
* ``/logs``: the log viewer, a game log replayed step by step (``/api/logs``; see
  :mod:`defuser.web.logroutes`);
* ``/drill``: the drills, the same sessions as ``mittens drill`` (``/api/drill/<key>``; see
  :mod:`defuser.web.drillroutes`);
* ``/stats``: the drill stats dashboard (``/api/stats``; see :mod:`defuser.web.statsroutes`);
* ``/api/edgework``: the serial's table, last digit and N, for validation as one types;
* ``/healthz``: ``ok``, for scripts that wait for the server.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from defuser import __version__
from defuser.apps.table_io import to_json as tables_json
from defuser.logs.reader import default_log_path
from defuser.web.board import MAX_LINE_CHARS, BoardQuery, evaluate, read_edgework
from defuser.web.drill import DrillHub
from defuser.web.drillroutes import DrillPages
from defuser.web.follow import CLOSING, FollowHub
from defuser.web.logroutes import LogPages
from defuser.web.report import BoardReport, apply_report
from defuser.web.security import BodyTooLarge, Guard, GuardSettings
from defuser.web.statsroutes import StatsPages
from edgework import (
    CARD_TABLES,
    RULE_LETTERS,
    RULE_TEXTS,
    TABLE_CONDITIONS,
    TABLE_E,
    TABLE_E_ROWS,
    TABLE_LETTERS,
    Card,
    Colour,
    EdgeworkError,
    SerialNumber,
    Shape,
    rule_letter,
)

HERE: Final = Path(__file__).resolve().parent
STATIC: Final = HERE / "static"
TEMPLATES: Final = HERE / "templates"


@dataclass(frozen=True)
class WebSettings:
    """How the app is served: the guard's settings, the log the hands-free board follows
    (``None``: the game's own log where this system keeps it), the stats database and
    the clock the dashboard reads."""

    guard: GuardSettings
    follow: Path | None = None
    #: The stats database the dashboard reads (``None``: the default one).
    database: Path | None = None
    clock: Callable[[], float] = time.time


def _templates() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(("html",)),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["version"] = __version__
    env.filters["card"] = _face_of
    return env


def _face_of(code: str) -> dict[str, str]:
    """A card code as the face macro draws it (``RC``: a red circle)."""
    card = Card.parse(code)
    return {"code": card.code, "shape": card.shape.word, "colour": card.colour.word}


def _params(request: Request) -> dict[str, list[str]]:
    params: dict[str, list[str]] = {}
    for key, value in request.query_params.multi_items():
        params.setdefault(key, []).append(value)
    params.pop("token", None)
    return params


class Pages:
    """The route handlers, sharing one template environment and one log follower."""

    def __init__(self, settings: WebSettings) -> None:
        """Load the templates; the follower starts with the first hands-free viewer."""
        self.env = _templates()
        self.hub = FollowHub(settings.follow if settings.follow is not None
                             else Path(default_log_path()))
        self.logs = LogPages(self.render, self.hub.path)
        self.stats = StatsPages(self.render, settings.database, settings.clock)
        self.drills = DrillPages(self.render, DrillHub(settings.database, wall=settings.clock))

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """The app's life: nothing to do at start-up; when the server stops, the drills
        still running are ended (:meth:`DrillPages.close`)."""
        yield
        await self.drills.close()

    def render(self, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        """A template rendered to an HTML response."""
        html = self.env.get_template(name).render(**context)
        return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})

    async def board(self, request: Request) -> Response:
        """The expert's board, rendered from the state in the address."""
        query = BoardQuery.from_params(_params(request))
        data = await run_in_threadpool(evaluate, query)
        more = replace(query, modules=(*query.modules, ()), rejected=None)
        return self.render(
            "board.html", board=data, query=query, page="board", add_module_url=board_url(more)
        )

    async def report(self, request: Request) -> Response:
        """Apply one report from the board's form and show the board's new address."""
        params = _params(request)
        query = BoardQuery.from_params(params)
        module = (params.get("module") or ["0"])[0]
        report = BoardReport(
            module=int(module) if module.isdigit() else 0,
            verb=(params.get("verb") or [""])[0][:20],
            face=(params.get("face") or [""])[0][:20],
            line=(params.get("line") or [""])[0][:MAX_LINE_CHARS],
            typed=(params.get("typed") or [""])[0][:MAX_LINE_CHARS],
            twitch=(params["tpset"][0][:5] if params.get("tpset") else None),
        )
        after = await run_in_threadpool(apply_report, query, report)
        return RedirectResponse(board_url(after), status_code=303)

    async def api_board(self, request: Request) -> Response:
        """The board's JSON twin."""
        query = BoardQuery.from_params(_params(request))
        return _json(await run_in_threadpool(evaluate, query))

    async def api_edgework(self, request: Request) -> Response:
        """The edgework alone, read as the page's fields give it."""
        edge = read_edgework(BoardQuery.from_params(_params(request)))
        return _json(edge.to_json())

    async def follow(self, request: Request) -> Response:
        """The hands-free board (``view``: ``board``, ``phone`` or ``overlay``)."""
        self.hub.start()
        view = (_params(request).get("view") or ["board"])[0]
        view = view if view in FOLLOW_VIEWS else "board"
        return self.render("follow.html", snap=self.hub.snapshot(), page="follow", view=view)

    async def api_follow(self, request: Request) -> Response:
        """The hands-free board's snapshot as JSON."""
        self.hub.start()
        return _json(self.hub.snapshot())

    async def follow_stream(self, request: Request) -> Response:
        """Server-sent events: the whole snapshot at once, then after every change."""
        self.hub.start()
        return StreamingResponse(
            _snapshots(self.hub), media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    async def tables(self, request: Request) -> Response:
        """Tables A-F, the active parts marked for a serial (and a discard)."""
        data = _tables_data(_params(request))
        return self.render("tables.html", tables=data, page="tables")

    async def api_tables(self, request: Request) -> Response:
        """The tables' JSON twin (``mittens tables --format json`` plus the marks)."""
        return _json(_tables_data(_params(request)))


#: The hands-free board's layouts: a second screen, a phone across the table, a
#: streamer's overlay (transparent background).
FOLLOW_VIEWS: Final = ("board", "phone", "overlay")
#: Seconds between two keep-alive comments on an idle event stream, and between two looks
#: at whether the server is stopping.
KEEPALIVE: Final = 15.0
WAKE: Final = 0.25


async def _snapshots(hub: FollowHub) -> AsyncIterator[str]:
    """The event stream: the snapshot at once and after each change, a keep-alive comment
    when idle, and the end as soon as the server stops."""
    seen, quiet = -1, 0.0
    yield "retry: 1000\n\n"
    while not CLOSING.is_set():
        if await hub.wait(seen, WAKE):
            snapshot = hub.snapshot()
            seen, quiet = snapshot["version"], 0.0
            yield f"event: snapshot\ndata: {json.dumps(snapshot)}\n\n"
        else:
            quiet += WAKE
            if quiet >= KEEPALIVE:
                quiet = 0.0
                yield ": keep-alive\n\n"


def board_url(query: BoardQuery) -> str:
    """The board's canonical address."""
    return "/?" + urlencode(query.to_params(), quote_via=quote)


def _json(data: Mapping[str, Any]) -> JSONResponse:
    return JSONResponse(dict(data), headers={"cache-control": "no-store"})


def _tables_data(params: Mapping[str, Sequence[str]]) -> dict[str, Any]:
    text = (params.get("serial") or [""])[0].strip()[:40]
    discard_text = (params.get("discard") or [""])[0].strip()[:40]
    serial: SerialNumber | None = None
    errors: dict[str, str] = {}
    if text:
        try:
            serial = SerialNumber.parse(text)
        except EdgeworkError as exc:
            errors["serial"] = str(exc)
    discard: Card | None = None
    if discard_text:
        try:
            discard = Card.parse(discard_text)
        except EdgeworkError as exc:
            errors["discard"] = str(exc)
    data = tables_json(serial)
    data["errors"] = errors
    data["grid"] = _grid(serial)
    data["rule"] = _rule_in_force(serial, discard)
    data["input"] = {"serial": text, "discard": discard_text}
    return data


def _grid(serial: SerialNumber | None) -> dict[str, Any]:
    """Rows and columns for drawing Tables A-E (the JSON export keeps its own shape)."""
    return {
        "tables": [
            {
                "letter": t,
                "condition": TABLE_CONDITIONS[t],
                "active": serial is not None and serial.table == t,
                "rows": [
                    {"shape": s.word, "cells": [
                        {"code": Card.of(s, c).code, "colour": c.word,
                         "type": CARD_TABLES[t][Card.of(s, c)].value}
                        for c in Colour
                    ]}
                    for s in Shape
                ],
            }
            for t in TABLE_LETTERS
        ],
        "colours": [c.word for c in Colour],
        "table_e": [{"type": k.value, "letters": list(TABLE_E[k])} for k in TABLE_E_ROWS],
        "rules": [{"letter": r, "text": RULE_TEXTS[r]} for r in RULE_LETTERS],
        "column": None if serial is None else serial.last_digit,
    }


def _rule_in_force(serial: SerialNumber | None, discard: Card | None) -> dict[str, Any] | None:
    """The rule in force with ``discard`` on top for ``serial`` (Table E's lookup is
    :func:`~edgework.tables.rule_letter`'s), with its card type and Table F's words."""
    if serial is None or discard is None:
        return None
    kind = CARD_TABLES[serial.table][discard]
    letter = rule_letter(serial.table, serial.last_digit, discard)
    return {"discard": discard.code, "type": kind.value, "letter": letter,
            "text": RULE_TEXTS[letter]}


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if isinstance(exc.detail, str) else "error"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=exc.status_code)
    return PlainTextResponse(f"{exc.status_code} {detail}\n", status_code=exc.status_code)


async def _too_large(request: Request, exc: Exception) -> Response:
    return PlainTextResponse("The request body is too large.\n", status_code=413)


async def _bug(request: Request, exc: Exception) -> Response:
    """A bug in the server (any exception no handler took): a short line, under ``/api/``
    the JSON error object, never the exception or its traceback."""
    detail = "Internal Server Error"
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": detail}, status_code=500)
    return PlainTextResponse(f"500 {detail}\n", status_code=500)


async def _health(request: Request) -> Response:
    return PlainTextResponse("ok\n")


def create_app(settings: WebSettings) -> ASGIApp:
    """The whole web app, guarded."""
    pages = Pages(settings)
    routes = [
        Route("/", pages.board),
        Route("/report", pages.report),
        Route("/api/board", pages.api_board),
        Route("/api/edgework", pages.api_edgework),
        Route("/follow", pages.follow),
        Route("/api/follow", pages.api_follow),
        Route("/api/follow/stream", pages.follow_stream),
        Route("/tables", pages.tables),
        Route("/api/tables", pages.api_tables),
        *pages.logs.routes(),
        *pages.stats.routes(),
        *pages.drills.routes(),
        Route("/healthz", _health),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        debug=False,
        routes=routes,
        exception_handlers={HTTPException: _http_error, BodyTooLarge: _too_large,
                            Exception: _bug},
        lifespan=pages.lifespan,
    )
    return Guard(app, settings.guard)
