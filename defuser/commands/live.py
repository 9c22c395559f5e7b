"""``mittens live``: the expert's session, one line in, one answer out.

Human mode answers each line in one or two short lines (the Twitch Plays command, the
reason, where the cycle stands), with readline editing and history on a terminal.
``--json`` answers every input line with exactly one JSON object, flushed at once, so
a program can drive the session through a pipe. The session logic is
:class:`defuser.apps.live_session.LiveSession`; this module only reads and prints.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from defuser.apps.live_session import LiveSession
from defuser.commands.common import Output, edgework_options, resolve_edgework
from defuser.strategy.cache import cache_dir
from edgework import Batteries

HISTORY_FILE = "live-history"


def _terminal_lines(out: Output) -> Iterator[str]:
    """Lines typed at a terminal, with readline editing and a saved history."""
    history: Path | None = None
    readline = None
    with contextlib.suppress(ImportError):
        import readline as _readline

        readline = _readline
        history = cache_dir() / HISTORY_FILE
        with contextlib.suppress(OSError):
            readline.read_history_file(history)
        readline.set_history_length(1000)
    try:
        while True:
            try:
                yield input("> ")
            except EOFError:
                out.print("")
                return
            except UnicodeDecodeError:
                yield "\ufffd"  # answered as an unreadable line
    finally:
        if readline is not None and history is not None:
            with contextlib.suppress(OSError):
                history.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(history)


def _pipe_lines() -> Iterator[str]:
    """Lines from a pipe or file, each handled as soon as it arrives.

    Bytes that are not UTF-8 become U+FFFD, so a garbled line gets an error answer
    instead of ending the session.
    """
    raw = getattr(sys.stdin, "buffer", None)
    while True:
        if raw is not None:
            line = raw.readline().decode("utf-8", "replace")
        else:
            line = sys.stdin.readline()
        if not line:
            return
        yield line


@click.command()
@edgework_options(edgework_name="edgework_text")
@click.option("--json", "json_mode", is_flag=True, help="One JSON object per input line.")
def live(
    serial: str | None,
    batteries: Batteries | None,
    edgework_text: str | None,
    lenient_serial: bool,
    json_mode: bool,
) -> None:
    """Follow a module as the defuser reports it and say the best safe move each time.

    Type what happened, one line at a time ('start RC BH GS YT', 'drew GS',
    'discarded RC', 'played 2', 'strike draw', 'solved', 'undo', 'help'); every
    answer is the optimal next click (fewest expected clicks, never a strike), why,
    and where the mitten cycle stands.
    """
    edge = resolve_edgework(
        serial, batteries, edgework_text, lenient=lenient_serial, need_serial=False
    )
    session = LiveSession(edge.serial, edge.batteries, lenient_serial=lenient_serial)
    out = Output(json_mode=json_mode)
    interactive = sys.stdin.isatty() and not json_mode
    if interactive:
        out.print(f"mittens live: {session.edge_note()}. Type 'help' for commands.")
    lines = _terminal_lines(out) if interactive else _pipe_lines()
    for line in lines:
        reply = session.handle(line)
        if json_mode:
            out.json(reply.to_json())
            if reply.help:
                out.note(reply.help)
        else:
            for text in reply.lines():
                out.print(text)
            sys.stdout.flush()
        if reply.quit:
            break
