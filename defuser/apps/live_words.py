"""The short forms of a defuser's report, expanded to the live session's own lines.

Contract: :func:`expand` turns a line as an expert types it at speed into the line
:class:`~defuser.apps.live_session.LiveSession` reads, and leaves anything else as it is
(so the session's own error names what is wrong). The short forms of a click are those
the click readers of ``mittens play`` and ``mittens drill`` accept, turned into reports: ``p2``,
``play2``, ``played2`` and a bare ``2`` are ``played 2``; ``d RC``, ``dis RC`` and
``disc RC`` are ``discarded RC``; ``dr GS`` is ``drew GS``; ``strike d``, ``strike dr`` and
``strike p2`` name the click that struck. A report may also start with a Twitch Plays
prefix (``!7``, or a letter code like ``!EM``), which is dropped here; ``play`` and
``drill`` take no such prefix.
:func:`report_line` is the other way round: the line that reports an event a module showed.
:func:`twitch_code` reads a Twitch Plays module code (``7``, ``!7``, ``EM``), and
:func:`completions` lists what can follow the words typed so far (Tab completion).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from edgework import ALL_CARDS

if TYPE_CHECKING:
    from defuser.engine.events import Event

#: A Twitch Plays chat command's module code before the command: ``!7 ``, ``!EM ``.
_CHAT_PREFIX: Final = re.compile(r"^!\s*(?:[0-9]{1,3}|[A-Za-z][A-Za-z0-9]{1,2})\s+")
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
    text = _CHAT_PREFIX.sub("", text)
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
    # Imported here: a live session's first answer needs no event class defined.
    from defuser.engine.events import Discarded, Drew, Played, Solved, Struck

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


#: A Twitch Plays module code: the number on the module's banner, or two letters when
#: the streamer turned letter codes on.
_TWITCH_CODE: Final = re.compile(r"!?\s*([0-9]{1,3}|[A-Za-z][A-Za-z0-9]{1,2})")

#: The verbs of a live session, for completion (short forms are not offered).
VERBS: Final = (
    "start", "drew", "discarded", "played", "strike", "solved", "undo", "redo", "state",
    "serial", "batteries", "edgework", "twitch", "help", "quit",
)
_CARD_CODES: Final = tuple(sorted(card.code for card in ALL_CARDS))
#: What may follow each verb: card codes, click names or slots.
_FOLLOWERS: Final[dict[str, tuple[str, ...]]] = {
    **dict.fromkeys(("start", "drew", "draw", "dr", "discarded", "discard", "d", "dis",
                     "disc"), _CARD_CODES),
    **dict.fromkeys(("strike", "struck"), ("draw", "discard", "play")),
    **dict.fromkeys(("played", "play", "p", "solved"), ("1", "2", "3")),
}


def twitch_code(text: str) -> str | None:
    """The Twitch Plays module code ``text`` names (``7``, ``!7``, ``em`` as ``EM``), or
    ``None`` when it is not one."""
    found = _TWITCH_CODE.fullmatch(text.strip())
    if found is None or found.group(1) in ("0", "00", "000"):
        return None
    return found.group(1).upper()


def completions(before: str, word: str) -> list[str]:
    """What completes ``word``, the word being typed, after the text ``before`` it on the
    line: a verb first, then the card codes, click names or slots that verb takes (after
    ``strike play``, the slots). Case-insensitive; codes and verbs come back as written."""
    words = before.split()
    if not words:
        options: tuple[str, ...] = VERBS
    elif words[0].lower() in ("strike", "struck") and len(words) == 2:
        options = ("1", "2", "3") if words[1].lower() in ("play", "p") else ()
    else:
        options = _FOLLOWERS.get(words[0].lower(), ())
        if words[0].lower() not in ("start",) and len(words) > 1:
            options = ()
    key = word.lower()
    return [option for option in options if option.lower().startswith(key)]
