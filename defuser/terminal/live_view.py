"""How ``mittens live`` shows a session's reply at a terminal: a front-end helper.

Contract: :func:`screen_reply` draws a :class:`~defuser.apps.live_session.SessionReply`
for a person (rich renderables, rich imported only when drawing) and :func:`worded`
words its error the command line's way (naming the options that would help). They read
no input and keep no state; ``mittens live`` (:mod:`defuser.commands.live`) and its
``--follow`` view (:mod:`defuser.terminal.follow_view`) both use them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from defuser.apps.live_session import SessionReply, error_hint
from defuser.terminal.words import error_words

if TYPE_CHECKING:
    from rich.console import RenderableType


def worded(reply: SessionReply) -> SessionReply:
    """The reply with its error worded as the command line words errors (the options
    that would help included)."""
    if reply.cause is None:
        return reply
    return replace(reply, error=error_words(reply.cause) + error_hint(reply.cause))


def screen_reply(reply: SessionReply) -> list[RenderableType]:
    """One answer drawn for a person at a terminal (see :mod:`defuser.terminal.screen`)."""
    # rich is imported here: piped and --json sessions never draw, and start faster.
    from rich.text import Text

    from defuser.terminal import screen

    if reply.help:
        return [Text(reply.help)]
    if not reply.ok:
        return [screen.error(reply.error or "")]
    shown: list[RenderableType] = []
    if reply.note:
        shown.append(Text(reply.note, style="dim"))
    rec = reply.recommendation
    if rec.action is not None or not shown:
        shown.append(screen.advice(reply.observation, rec))
    return shown
