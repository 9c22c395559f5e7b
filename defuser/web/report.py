"""A report from the board (a face clicked, a button, a typed line) applied to its address.

Contract: :func:`apply_report` takes the board as its address gives it and one report, and
returns the board to show next. It changes nothing anywhere else: the whole state stays in
the address (see :mod:`defuser.web.board`). A line that the module's history refuses is not
added; the board comes back with the line and the reason, to be shown once.

Typed lines are read as ``mittens live`` reads them, with the short forms a defuser's report
takes at the table (:func:`defuser.apps.live_words.expand`), and the session says what kind
of line each is (:func:`defuser.apps.live_session.line_kind`): ``serial``, ``batteries`` and
``edgework`` lines set the bomb's edgework for every module; ``help``, ``state`` and
``quit`` ask rather than report, and never enter the history; every other line (a report,
``undo``, ``redo``) goes to the module's own
:class:`~defuser.apps.live_session.LiveSession`, resumed from the address
(:func:`defuser.web.board.module_session`), and the module's lines and redo list are read
back from the session. A typed chat command's module number (``!7 p2``) becomes the
module's Twitch Plays number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from defuser.apps.live_session import LineKind, line_kind
from defuser.apps.live_words import expand
from defuser.web.board import MAX_MODULES, BoardQuery, attempt, read_edgework
from edgework import Card, EdgeworkError

#: The verbs a clicked face can complete.
FACE_VERBS: Final = ("start", "drew", "discarded")
#: Faces in a full opening state: the discard top and three hand cards.
OPENING_FACES: Final = 4


@dataclass(frozen=True)
class BoardReport:
    """One report from the page: which module, and what was clicked or typed."""

    module: int
    verb: str = ""
    face: str = ""
    line: str = ""
    typed: str = ""
    #: The module's Twitch Plays number as typed in its box (empty: none).
    twitch: str | None = None


def apply_report(query: BoardQuery, report: BoardReport) -> BoardQuery:
    """The board after ``report`` (see the module docstring)."""
    index = max(0, min(report.module, len(query.modules), MAX_MODULES - 1))
    query = _with_module(replace(query, rejected=None), index)
    query = _twitch_prefix(query, index, report.typed)
    if report.twitch is not None and not (report.typed.strip() or report.line or report.face):
        return _set_twitch(query, index, report.twitch)
    line = expand(report.typed) if report.typed.strip() else report.line.strip()
    if not line and report.face:
        return _face(query, index, report.verb, report.face)
    if not line:
        return query
    word, kind = line.split()[0].lower(), line_kind(line)
    if kind.asks:
        return replace(query, rejected=(index, word))
    if kind.sets_edgework:
        return _set_edgework(query, kind, line[len(word):].strip().strip("\"'"))
    return _add(query, index, line)


def _set_edgework(query: BoardQuery, kind: LineKind, value: str) -> BoardQuery:
    """A ``serial``, ``batteries`` or ``edgework`` line: that field of the board."""
    if kind is LineKind.SERIAL:
        return replace(query, serial=value)
    if kind is LineKind.BATTERIES:
        return replace(query, batteries=value)
    return replace(query, edgework=value)


def _set_twitch(query: BoardQuery, index: int, text: str) -> BoardQuery:
    text = text.strip().lstrip("!#")
    number = int(text) if text.isdigit() and 0 < int(text) < 1000 else None
    numbers = list(query.twitch) + [None] * (len(query.modules) - len(query.twitch))
    numbers[index] = number
    return replace(query, twitch=tuple(numbers))


def _twitch_prefix(query: BoardQuery, index: int, typed: str) -> BoardQuery:
    """A typed chat command's module number (``!7 p2``) becomes the module's number."""
    found = re.match(r"\s*!\s*(\d{1,3})\s", typed)
    if found is None:
        return query
    return _set_twitch(query, index, found.group(1))


def _with_module(query: BoardQuery, index: int) -> BoardQuery:
    """The query with module ``index`` present (a new, empty module at the end)."""
    if index < len(query.modules):
        return query
    return replace(query, modules=(*query.modules, ()))


def _set_lines(
    values: tuple[tuple[str, ...], ...], index: int, value: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    items = list(values) + [()] * (index + 1 - len(values))
    items[index] = value
    return tuple(items)


def _set_text(values: tuple[str, ...], index: int, value: str) -> tuple[str, ...]:
    items = list(values) + [""] * (index + 1 - len(values))
    items[index] = value
    return tuple(items)


def _face(query: BoardQuery, index: int, verb: str, face: str) -> BoardQuery:
    try:
        card = Card.parse(face)
    except EdgeworkError:
        return replace(query, rejected=(index, f"{verb} {face[:20]}".strip()))
    if verb not in FACE_VERBS:
        verb = "start" if not query.modules[index] else "drew"
    if verb != "start":
        return _add(query, index, f"{verb} {card.code}")
    faces = [*query.pending_of(index).split(), card.code][:OPENING_FACES]
    if len(faces) == OPENING_FACES:
        return _add(query, index, "start " + " ".join(faces))
    return replace(query, pending=_set_text(query.pending, index, " ".join(faces)))


def _add(query: BoardQuery, index: int, line: str) -> BoardQuery:
    """Module ``index`` after ``line``, as its session has it (the line refused, with
    the reason worked out again when shown, if the session refuses it)."""
    session, _ = attempt(read_edgework(query), query, index, line)
    if session is None:
        return replace(query, rejected=(index, line))
    pending = query.pending
    if line_kind(line) is LineKind.START and index < len(pending):
        pending = _set_text(pending, index, "")
    return replace(
        query,
        modules=_set_lines(query.modules, index, (*session.history, *session.held)),
        undone=_set_lines(query.undone, index, tuple(session.redoable)),
        pending=pending,
    )
