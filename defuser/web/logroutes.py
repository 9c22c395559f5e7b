"""The log viewer's routes: ``/logs`` (the page) and ``/api/logs`` (its JSON twin).

Contract: ``GET /logs`` shows the form to open a log (upload, paste, a path on this machine,
or the followed log) and, with ``path=``, ``followed=1`` or ``id=`` (a kept upload), the
log's analysis. ``POST /logs`` takes the form (multipart or URL-encoded), analyses the log,
keeps it and answers ``303`` to its ``/logs?id=...`` address. ``/api/logs`` answers the
``mittens log analyze --json`` document for the same sources; ``POST /api/logs`` also takes
the log as the raw request body. Analysis runs in a worker thread. A source that cannot be
read is one line: on the page beside the form (status 400, 404 for a forgotten upload), in
JSON as ``{"error": ...}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, QueryParams, UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from defuser.web.logview import (
    MAX_LOG_BYTES,
    Kept,
    LogSource,
    LogSourceError,
    analyse,
    document,
    edgework_fields,
    judge_wanted,
    read_path,
    view,
)
from defuser.web.render import Render

#: Form fields read (a larger form is refused by the parser).
MAX_FIELDS: Final = 8



class Forgotten(LogSourceError):
    """An upload's address that is no longer (or was never) kept."""


class LogPages:
    """The log viewer's handlers."""

    def __init__(self, render: Render, followed: Path) -> None:
        """Render with ``render``; ``followed`` is the log the hands-free board follows."""
        self.render = render
        self.followed = followed
        self.kept = Kept()

    def routes(self) -> list[Route]:
        """The viewer's routes."""
        return [
            Route("/logs", self.page, methods=["GET", "HEAD"]),
            Route("/logs", self.upload, methods=["POST"]),
            Route("/api/logs", self.api, methods=["GET", "HEAD", "POST"]),
        ]

    async def page(self, request: Request) -> Response:
        """The form, and the analysis of the log the address names."""
        params = request.query_params
        asked = {k: params.get(k, "") for k in ("path", "serial", "batteries")}
        asked["judge"] = "1" if judge_wanted(params.getlist("judge")) else "0"
        try:
            doc = await self._from_query(params)
        except LogSourceError as exc:
            status = 404 if isinstance(exc, Forgotten) else 400
            return self._page(None, asked, status, str(exc))
        query = request.url.query
        return self._page(doc, asked, 200, None, "/api/logs" + (f"?{query}" if query else ""))

    async def upload(self, request: Request) -> Response:
        """Analyse the posted log, keep it and show it at its own address."""
        try:
            form = await request.form(max_files=1, max_fields=MAX_FIELDS,
                                      max_part_size=MAX_LOG_BYTES)
            source = await _form_source(form)
            doc = await run_in_threadpool(_document_of, source)
        except LogSourceError as exc:
            return self._page(None, {"judge": "1"}, 400, str(exc))
        key = self.kept.add(doc)
        return RedirectResponse(f"/logs?id={key}", status_code=303)

    async def api(self, request: Request) -> Response:
        """The JSON document of the log from the address, the form or the raw body."""
        try:
            if request.method == "POST":
                source = await self._posted(request)
                doc = await run_in_threadpool(_document_of, source)
            else:
                found = await self._from_query(request.query_params)
                if found is None:
                    raise LogSourceError("no log named, expected path=, followed=1 or id=")
                doc = found
        except LogSourceError as exc:
            status = 404 if isinstance(exc, Forgotten) else 400
            return JSONResponse({"error": str(exc)}, status_code=status)
        return JSONResponse(doc, headers={"cache-control": "no-store"})

    async def _posted(self, request: Request) -> LogSource:
        """The log of a POST: the viewer's form, or the body itself (a script's upload;
        curl sends a file as URL-encoded form data unless told otherwise)."""
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        data = await request.body()
        if content_type == "multipart/form-data" or (
            content_type == "application/x-www-form-urlencoded" and _is_viewer_form(data)
        ):
            form = await request.form(max_files=1, max_fields=MAX_FIELDS,
                                      max_part_size=MAX_LOG_BYTES)
            return await _form_source(form)
        params = request.query_params
        serial, batteries = edgework_fields(params.get("serial", ""),
                                            params.get("batteries", ""))
        if not data:
            raise LogSourceError("the request body is empty, expected a game log")
        return LogSource("upload", data, serial, batteries,
                         judge_wanted(params.getlist("judge")))

    async def _from_query(self, params: QueryParams) -> dict[str, Any] | None:
        key = params.get("id", "")
        if key:
            kept = self.kept.get(key[:40])
            if kept is None:
                raise Forgotten("this upload is no longer kept by the server; open the log "
                                "again")
            return kept
        serial, batteries = edgework_fields(params.get("serial", ""),
                                            params.get("batteries", ""))
        judge = judge_wanted(params.getlist("judge"))
        path = params.get("path", "").strip()
        if params.get("followed"):
            path = str(self.followed)
        if not path:
            return None
        data = await run_in_threadpool(read_path, path)
        source = LogSource(path, data, serial, batteries, judge)
        return await run_in_threadpool(_document_of, source)

    def _page(self, doc: dict[str, Any] | None, asked: dict[str, str], status: int,
              error: str | None, json_url: str = "/api/logs") -> Response:
        return self.render(
            "logs.html", status=status, page="logs", log=None if doc is None else view(doc),
            asked=asked, error=error, followed=str(self.followed), json_url=json_url,
            limit_mib=MAX_LOG_BYTES // (1024 * 1024),
        )


def _is_viewer_form(data: bytes) -> bool:
    """Whether a URL-encoded body is the viewer's form (it names a ``text`` field), not a
    log sent with curl's default content type."""
    return any(part.split(b"=", 1)[0] in (b"text", b"serial", b"batteries", b"judge")
               for part in data[:4096].split(b"&"))


def _document_of(source: LogSource) -> dict[str, Any]:
    return document(analyse(source))


async def _form_source(form: FormData) -> LogSource:
    """The log and edgework of the viewer's form: a file, else pasted text."""
    serial, batteries = edgework_fields(_text(form, "serial"), _text(form, "batteries"))
    judge = judge_wanted([v for v in form.getlist("judge") if isinstance(v, str)])
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read(MAX_LOG_BYTES + 1)
        if len(data) > MAX_LOG_BYTES:
            raise LogSourceError(f"the uploaded log is larger than "
                                 f"{MAX_LOG_BYTES // (1024 * 1024)} MiB")
        name = upload.filename.replace("\n", " ")[:200]
        return LogSource(name, data, serial, batteries, judge)
    pasted = _text(form, "text")
    if pasted.strip():
        return LogSource("pasted log", pasted.encode(), serial, batteries, judge)
    raise LogSourceError("no log given, expected a file to upload or the log's text")


def _text(form: FormData, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""
