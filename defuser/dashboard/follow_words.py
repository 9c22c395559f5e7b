"""The words both follow front ends say for what a log follower reports.

Contract: :func:`event_words` turns a follower's typed event
(:data:`defuser.apps.follow.advice.FollowEvent`) into its notation, and
:func:`advice_json` an :class:`~defuser.apps.follow.advice.Advice` into the JSON
object ``mittens live --follow --json`` prints and the web board's follow snapshot
holds, with those words in its ``event`` field, so the two say the very same;
:func:`missing_words` says why the followed log cannot be read; the
follower itself carries typed values, never these words. Nothing here reads a file or
the clock.
"""

from __future__ import annotations

from typing import Any

from defuser.apps.follow.advice import Advice, FollowEvent, LostTrack, Moved, Narrowed, Started
from defuser.apps.follow.tail import Missing, Unreadable
from defuser.apps.tracking import ClickKind, LoggedClick, OtherLine


def event_words(event: FollowEvent) -> str:
    """The event's notation, in the ``event`` field of each front end's JSON (``start``,
    ``lost track``, ``rule K``, ``blocked``, ``played 1 or 3 (YC)``, ``strike draw;
    picked up again``), which the terminal prints as it is."""
    match event:
        case Started():
            return "start"
        case LostTrack():
            return "lost track"
        case Narrowed(rule=None):
            return "blocked"
        case Narrowed(rule=rule):
            return f"rule {rule}"
        case Moved(line=line, picked_up=picked_up):
            text = _line_words(line)
            return text + "; picked up again" if picked_up else text


def _line_words(line: LoggedClick | OtherLine) -> str:
    if isinstance(line, OtherLine):
        return line.message.name
    where = " or ".join(str(s) for s in line.slots) or "?"
    code = "" if line.card is None else line.card.code
    if line.kind in (ClickKind.PLAYED, ClickKind.STRIKE_PLAY):
        return f"{line.kind.value} {where} ({code})"
    if line.kind in (ClickKind.DREW, ClickKind.DISCARDED):
        return f"{line.kind.value} {code}"
    return str(line.kind)


def advice_json(advice: Advice) -> dict[str, Any]:
    """The advice as one JSON object (:meth:`Advice.to_json`), its ``event`` in words
    (:func:`event_words`), in the same place."""
    return {**advice.to_json(), "event": event_words(advice.event)}


def missing_words(missing: Missing) -> str:
    """Why the followed log cannot be read: ``it does not exist (deleted, or not
    written yet)``, ``its folder F does not exist``, ``it is not a regular file``, ``it
    cannot be read (REASON)``."""
    match missing.why:
        case Unreadable.NOT_THERE:
            return "it does not exist (deleted, or not written yet)"
        case Unreadable.NO_FOLDER:
            return f"its folder {missing.folder} does not exist"
        case Unreadable.NOT_A_FILE:
            return "it is not a regular file"
        case Unreadable.DENIED:
            return f"it cannot be read ({missing.reason})"
