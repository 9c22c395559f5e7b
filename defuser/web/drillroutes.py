"""The drills' routes: ``/drill`` (start), ``/drill/<key>`` (answer) and their JSON twins.

Contract: ``GET /drill`` shows the start form (mode, length, answer time limit, bomb
timer, focus) and the drills in progress; ``POST /drill`` starts one and answers ``303``
to its page. ``GET /drill/<key>`` shows the feedback on the last answer and the question
asked with its answer buttons; ``POST /drill/<key>`` takes one answer (``choice``: a
button's answer; ``go=legal`` with ``slot`` and ``discard``: the legal cards; ``line``
with ``go=typed``: typed in the drill notation; ``go``: ``next``, ``help``, ``quit`` or
``stop``; ``q``: the number of the question the page showed, so a stale page's answer is
refused) and answers ``303`` back to the page.
``/api/drill/<key>`` sends the same page data as JSON (``POST`` takes an answer first).
Errors are one line (400; 404 for a drill that is no longer kept).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from defuser.errors import DefuserError
from defuser.trainer.model import MODES
from defuser.web.drill import DrillFormError, DrillHub, WebDrill, page_data, read_options
from defuser.web.render import Render
from edgework import RULE_LETTERS, TABLE_LETTERS

T = TypeVar("T")
_P = ParamSpec("_P")
#: Form fields read from an answer or the start form.
MAX_FIELDS = 40


def question_number(form: FormData) -> int | None:
    """The number of the question the answering page showed (``None``: not sent)."""
    value = form.get("q")
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 9:
        return int(value)
    return None


def answer_line(form: FormData) -> str:
    """The line an answer form stands for (see the module docstring)."""
    go = str(form.get("go") or "")
    typed = form.get("line")
    line = typed if isinstance(typed, str) else ""
    if go in ("next", "help", "quit"):
        return {"next": "", "help": "?", "quit": "quit"}[go]
    if go == "legal":
        slots = [s for s in form.getlist("slot") if isinstance(s, str) and s.isdigit()]
        return (" ".join(slots) or "none") + (" discard" if form.get("discard") else "")
    choice = form.get("choice")
    if go != "typed" and isinstance(choice, str) and choice:
        return choice
    return line


class DrillPages:
    """The drills' handlers."""

    def __init__(self, render: Render, hub: DrillHub) -> None:
        """Render with ``render``; the drills live in ``hub``, which one worker thread
        runs (an SQLite connection serves the thread that opened it, and a decision's
        question takes long enough to keep off the event loop)."""
        self.render = render
        self.hub = hub
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="drills")

    async def _run(self, call: Callable[_P, T], *args: _P.args, **kwargs: _P.kwargs) -> T:
        """``call(*args, **kwargs)`` on the drills' thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.worker, functools.partial(call, *args, **kwargs))

    async def close(self) -> None:
        """The server stops: end the drills still running (:meth:`DrillHub.close`) on
        the drills' thread, which opened their stores."""
        await self._run(self.hub.close)

    def routes(self) -> list[Route]:
        """The drills' routes."""
        return [
            Route("/drill", self.start_page, methods=["GET", "HEAD"]),
            Route("/drill", self.start, methods=["POST"]),
            Route("/drill/{key}", self.page, methods=["GET", "HEAD"]),
            Route("/drill/{key}", self.answer, methods=["POST"]),
            Route("/api/drill/{key}", self.api, methods=["GET", "HEAD", "POST"]),
        ]

    def _running(self) -> list[dict[str, Any]]:
        self.hub.sweep()
        return [page_data(d, self.hub.clock) for d in self.hub.drills.values()
                if not d.session.ended]

    async def _start_form(self, status: int = 200, error: str | None = None) -> Response:
        running = await self._run(self._running)
        return self.render("drill_start.html", status=status, page="drill", error=error,
                           modes=MODES, tables=TABLE_LETTERS, rules=RULE_LETTERS,
                           running=running)

    async def start_page(self, request: Request) -> Response:
        """The start form."""
        return await self._start_form()

    async def start(self, request: Request) -> Response:
        """Start a drill and go to its page."""
        form = await request.form(max_files=0, max_fields=MAX_FIELDS)
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        letters = {name: [v for v in form.getlist(name) if isinstance(v, str)]
                   for name in ("table", "rule")}
        try:
            mode, options = read_options(fields, letters)
            drill = await self._run(self.hub.start, mode, options)
        except (DrillFormError, DefuserError) as exc:
            return await self._start_form(400, str(exc))
        return RedirectResponse(f"/drill/{drill.key}", status_code=303)

    async def _drill(self, request: Request) -> WebDrill | None:
        return await self._run(self.hub.get, str(request.path_params["key"]))

    async def _gone(self, json: bool) -> Response:
        text = "this drill is no longer kept by the server; start another"
        if json:
            return JSONResponse({"error": text}, status_code=404)
        return await self._start_form(404, text)

    async def _data(self, drill: WebDrill) -> dict[str, Any]:
        return await self._run(page_data, drill, self.hub.clock)

    async def page(self, request: Request) -> Response:
        """The drill's page."""
        drill = await self._drill(request)
        if drill is None:
            return await self._gone(False)
        await self._run(self.hub.show, drill)
        return self.render("drill.html", page="drill", d=await self._data(drill))

    async def answer(self, request: Request) -> Response:
        """Take one answer and show the drill again."""
        drill = await self._drill(request)
        if drill is None:
            return await self._gone(False)
        await self._take(drill, await request.form(max_files=0, max_fields=MAX_FIELDS))
        return RedirectResponse(f"/drill/{drill.key}", status_code=303)

    async def _take(self, drill: WebDrill, form: FormData) -> None:
        """Apply one posted form: ``go=stop`` stops, anything else is a line."""
        if form.get("go") == "stop":
            await self._run(self.hub.stop, drill)
        else:
            await self._run(self.hub.answer, drill, answer_line(form), question_number(form))

    async def api(self, request: Request) -> Response:
        """The drill's page data as JSON; a ``POST`` takes an answer first."""
        drill = await self._drill(request)
        if drill is None:
            return await self._gone(True)
        if request.method == "POST":
            await self._take(drill, await request.form(max_files=0, max_fields=MAX_FIELDS))
        return JSONResponse(await self._data(drill), headers={"cache-control": "no-store"})
