"""The log viewer of ``mittens serve``: a game log opened in the browser, replayed step by step.

Contract: a log comes from one :class:`LogSource`: an uploaded or pasted file, a path on
this machine (:func:`read_path`, within :data:`MAX_LOG_BYTES`), or the log the hands-free
board follows. :func:`analyse` checks and judges it with the same
:func:`~defuser.logs.analysis.analyse_bytes` as ``mittens log analyze``, :func:`document`
makes the ``log analyze --json`` document (the page's JSON twin), and :func:`view` turns
that document into the page's data: every replay row carries the inconsistencies its lines
hold (:func:`~defuser.logs.analysis.mark_rows`, as ``log analyze`` marks them), so the
page marks each one on its row. A module's rows beyond
:data:`MAX_ROWS` are left out of the page and counted (the JSON keeps them all). Uploads
are kept in a :class:`Kept` store of the latest :data:`KEPT_UPLOADS`, so a viewed upload
has an address that reloads and prints while the server runs. Nothing here raises on a
log's content; a source or edgework that cannot be read is a :class:`LogSourceError`
with one line saying why.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from defuser.logs.analysis import FileAnalysis, analyse_bytes, mark_rows, to_json
from defuser.logs.judge import ModuleJudgement
from edgework import EdgeworkError, SerialNumber
from edgework.errors import InputError

#: The largest log the viewer reads (a long modded session's log stays far below it).
MAX_LOG_BYTES: Final = 32 * 1024 * 1024
#: Replay rows drawn per module; the rest are counted (a real game has a few dozen).
MAX_ROWS: Final = 2000
#: Uploaded logs kept for their address (the oldest is forgotten first).
KEPT_UPLOADS: Final = 8
#: The highest battery count read from the form (a bomb has far fewer).
MAX_BATTERIES: Final = 99


class LogSourceError(InputError):
    """A log, or the edgework given with it, cannot be read (one line, for the page)."""


@dataclass(frozen=True)
class LogSource:
    """Where a log comes from and the edgework given for bombs the log does not show."""

    name: str
    data: bytes
    serial: str | None = None
    batteries: int | None = None
    judge: bool = True


def read_path(path: str) -> bytes:
    """The bytes of the regular file ``path``, at most :data:`MAX_LOG_BYTES`."""
    shown = repr(path.replace("\n", " ")[:200])
    path = os.path.expanduser(path)
    if "://" in path[:12]:
        raise LogSourceError(f"log file {shown} is a web address; download the log first "
                             "and open the file (or upload it)")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise LogSourceError(f"log file {shown} does not exist on this machine") from None
    except ValueError:
        raise LogSourceError(f"log file {shown} is not a file name (it holds a NUL "
                             "character)") from None
    except OSError as exc:
        raise LogSourceError(f"log file {shown} cannot be read: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise LogSourceError(f"log file {shown} is {kind}, expected a game log")
    if info.st_size > MAX_LOG_BYTES:
        raise LogSourceError(f"log file {shown} is larger than {_mib()}, too large to be one")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogSourceError(f"log file {shown} cannot be read: {exc.strerror}") from None
    if len(data) > MAX_LOG_BYTES:
        raise LogSourceError(f"log file {shown} is larger than {_mib()}, too large to be one")
    return data


def _mib() -> str:
    return f"{MAX_LOG_BYTES // (1024 * 1024)} MiB"


def edgework_fields(serial: str, batteries: str) -> tuple[str | None, int | None]:
    """The serial and battery count typed beside a log, checked (blank: not given)."""
    serial = serial.strip()[:40]
    batteries = batteries.strip()[:10]
    chosen_serial = None
    if serial:
        try:
            chosen_serial = str(SerialNumber.parse(serial))
        except EdgeworkError as exc:
            raise LogSourceError(f"serial {serial!r}: {exc}") from None
    chosen_batteries = None
    if batteries:
        if not (batteries.isascii() and batteries.isdigit()) or int(batteries) > MAX_BATTERIES:
            raise LogSourceError(
                f"batteries {batteries!r} is not a battery count, expected 0 to {MAX_BATTERIES}")
        chosen_batteries = int(batteries)
    return chosen_serial, chosen_batteries


def judge_wanted(values: list[str]) -> bool:
    """Whether to judge, from the ``judge`` values sent: none sent (a script) means yes;
    the form sends ``0`` always and ``1`` too when its box is ticked."""
    return not values or "1" in values


def analyse(source: LogSource) -> FileAnalysis:
    """The whole analysis of ``source``, as ``mittens log analyze`` makes it."""
    return analyse_bytes(source.data, source.name, serial=source.serial,
                         batteries=source.batteries, judge_decisions=source.judge)


def _not_judged(judged: ModuleJudgement) -> str:
    """Why a module was not judged, with what the page lets one add."""
    if judged.needs is not None:
        return f"{judged.stopped}; give the {judged.needs} beside the log to judge it"
    return judged.stopped


def document(analysis: FileAnalysis) -> dict[str, Any]:
    """The ``log analyze --json`` document of one file, as the JSON twin sends it."""
    return to_json([analysis], _not_judged)


def _module_view(module: dict[str, Any]) -> dict[str, Any]:
    replay = module["replay"]
    problems = module["inconsistencies"]
    rows = mark_rows([r["line"] for r in replay], [p["line"] for p in problems])
    marks: dict[int, list[dict[str, Any]]] = {}
    for problem, row in zip(problems, rows, strict=True):
        marks.setdefault(row, []).append(problem)
    shown = [
        {**step, "number": index + 1, "marks": marks.get(index, [])}
        for index, step in enumerate(replay[:MAX_ROWS])
    ]
    hidden = [p for row, found in marks.items() if row >= MAX_ROWS for p in found]
    return {**module, "rows": shown, "opening_marks": marks.get(-1, []),
            "rows_left_out": max(0, len(replay) - MAX_ROWS), "marks_left_out": hidden}


def view(doc: dict[str, Any]) -> dict[str, Any]:
    """The page's data from a one-file ``log analyze --json`` document: the file's entry
    with every replay row's marks and the totals."""
    file = doc["files"][0]
    bombs = [{**bomb, "number": n + 1, "modules": [_module_view(m) for m in bomb["modules"]]}
             for n, bomb in enumerate(file["bombs"])]
    modules = [m for b in bombs for m in b["modules"]]
    return {
        **file,
        "bombs": bombs,
        "totals": {
            "bombs": len(bombs),
            "modules": len(modules),
            "solved": sum(1 for m in modules if m["solved"]),
            "strikes": sum(m["strikes"] for m in modules),
            "inconsistencies": sum(len(m["inconsistencies"]) for m in modules),
            "extra_clicks": round(sum(m["extra_clicks"] or 0.0 for m in modules), 3),
        },
    }


class Kept:
    """The latest uploads' JSON documents, by a random id (bounded, thread-safe; kept as
    compact JSON text, so a large log costs its text and no more)."""

    def __init__(self, size: int = KEPT_UPLOADS) -> None:
        """Keep at most ``size`` uploads."""
        self.size = size
        self._entries: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, doc: dict[str, Any]) -> str:
        """Keep one upload's document; its id."""
        key = secrets.token_urlsafe(12)
        text = json.dumps(doc, separators=(",", ":")).encode()
        with self._lock:
            self._entries[key] = text
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return key

    def get(self, key: str) -> dict[str, Any] | None:
        """The kept document ``key``, or ``None`` when it was never kept or is forgotten."""
        with self._lock:
            text = self._entries.get(key)
        return None if text is None else dict(json.loads(text))
