"""The short forms of a defuser's report, expanded to the live session's own lines.

Contract: :func:`expand` turns a line as an expert types it at speed into the line
:class:`~defuser.apps.live_session.LiveSession` reads, and leaves anything else as it is
(so the session's own error names what is wrong). The short forms are those the click
readers of ``mittens play`` and ``mittens drill`` accept, turned into reports: ``p2``,
``play2``, ``played2`` and a bare ``2`` are ``played 2``; ``d RC``, ``dis RC`` and
``disc RC`` are ``discarded RC``; ``dr GS`` is ``drew GS``; ``strike d``, ``strike dr`` and
``strike p2`` name the click that struck; a Twitch Plays prefix (``!7``) is dropped.
:func:`report_line` is the other way round: the line that reports an event a module showed.
"""

from __future__ import annotations

import re
from typing import Final

from defuser.engine.actions import Discarded, Drew, Event, Played, Solved, Struck

_PLAYED: Final = re.compile(r"(?:played|play|p|slot)?\s*([1-3])")
_CARD_VERBS: Final[dict[str, str]] = {
    "d": "discarded", "dis": "discarded", "disc": "discarded",
    "dr": "drew",
}
_STRUCK_CLICKS: Final[dict[str, str]] = {
    "d": "discard", "dis": "discard", "disc": "discard", "discard": "discard",
    "dr": "draw", "draw": "draw", "deck": "draw", "pile": "discard",
}


def expand(line: str) -> str:
    """The live session's line for ``line`` (see the module docstring)."""
    text = " ".join(line.split())
    text = re.sub(r"^!\s*\d+\s+", "", text)
    if not text:
        return text
    played = _PLAYED.fullmatch(text.lower())
    if played:
        return f"played {played.group(1)}"
    verb, _, rest = text.partition(" ")
    key = verb.lower()
    if key in _CARD_VERBS and rest:
        return f"{_CARD_VERBS[key]} {rest}"
    if key in ("strike", "struck", "x") and rest:
        return "strike " + _struck_click(rest)
    return text


def _struck_click(rest: str) -> str:
    key = rest.lower()
    if key in _STRUCK_CLICKS:
        return _STRUCK_CLICKS[key]
    played = _PLAYED.fullmatch(key)
    if played:
        return f"play {played.group(1)}"
    return rest


def report_line(event: Event) -> str:
    """The live session's line that reports ``event`` (``drew GS``, ``played 2``, ...)."""
    if isinstance(event, Drew):
        return f"drew {event.card.code}"
    if isinstance(event, Discarded):
        return f"discarded {event.card.code}"
    if isinstance(event, Played):
        return f"played {event.slot}"
    if isinstance(event, Solved):
        return "solved"
    assert isinstance(event, Struck)
    return f"strike {event.action}"
