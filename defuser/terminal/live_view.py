"""How ``mittens live`` shows a session's reply at a terminal: a front-end helper.

Contract: :func:`screen_reply` draws a :class:`~defuser.apps.live_session.SessionReply`
for a person (rich renderables, rich imported only when drawing) and :func:`worded`
words its error the command line's way (naming the options that would help). They read
no input and keep no state; ``mittens live`` (:mod:`defuser.commands.live`) and its
``--follow`` view (:mod:`defuser.terminal.follow_view`) both use them.

For the typed session at a terminal: :class:`TypedLines` reads the prompt's lines, where
Ctrl-C clears the line being typed and only a second Ctrl-C on an empty line ends the
session (as ``KeyboardInterrupt``, so the command's summary is printed);
:func:`install_completion` gives a readline module Tab completion of the session's verbs
and card codes (:func:`defuser.apps.live_words.completions`). Both take what they read
from as arguments (the reader, the readline module), so they run without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from defuser.apps.live_session import SessionReply, error_hint
from defuser.apps.live_words import completions
from defuser.streams import prompt_line
from defuser.terminal.words import error_words
from edgework.errors import InvalidSerialError

if TYPE_CHECKING:
    from rich.console import RenderableType


def worded(reply: SessionReply) -> SessionReply:
    """The reply with its error worded as the command line words errors (the options
    that would help included)."""
    if reply.cause is None:
        return reply
    if isinstance(reply.cause, InvalidSerialError):
        # Typed in the session: the session's own way to read it leniently, not the
        # command line's option.
        return replace(reply, error=str(reply.cause) + error_hint(reply.cause))
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
    if reply.chat_command is not None:
        shown.append(Text.assemble(("   chat ", "dim"), (reply.chat_command, "bold")))
    return shown


#: What the first Ctrl-C at the prompt says.
CLEARED: Final = (
    "(line cleared; Ctrl-C again on an empty line, or 'quit', ends the session)"
)


@dataclass
class TypedLines:
    """The lines typed at the live prompt (see the module docstring).

    ``ask`` reads one line after a prompt (``input``); ``pending`` says what was typed on
    the line when Ctrl-C came (readline's line buffer; ``""`` where unknown); ``say``
    shows a short notice.
    """

    ask: Callable[[str], str]
    say: Callable[[str], None]
    pending: Callable[[], str] = lambda: ""
    prompt: str = "> "

    def __iter__(self) -> Iterator[str]:
        """Each line until the end of input; ``KeyboardInterrupt`` on the second Ctrl-C."""
        armed = False
        while True:
            try:
                line = prompt_line(self.prompt, self.ask)
            except KeyboardInterrupt:
                if armed and not self.pending().strip():
                    raise
                armed = True
                self.say(CLEARED)
                continue
            if line is None:
                return
            armed = False
            yield line


def install_completion(readline: Any) -> None:
    """Tab completes the session's verbs, then card codes, clicks or slots, in
    ``readline`` (the standard module, GNU readline or macOS' libedit)."""

    def complete(text: str, state: int) -> str | None:
        before = readline.get_line_buffer()[: readline.get_begidx()]
        options = completions(before, text)
        return options[state] if state < len(options) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t")
    if "libedit" in (getattr(readline, "__doc__", None) or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
