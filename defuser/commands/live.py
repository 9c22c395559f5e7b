"""``mittens live``: the expert's session, one line in, one answer out.

Human mode answers each line in one or two short lines (the Twitch Plays command, the
reason, where the cycle stands), with readline editing and history on a terminal. When
stdout is a terminal the answer is drawn for a person instead (:mod:`defuser.terminal.screen`):
the move as a coloured badge, cards as coloured shapes, the cycle as a gauge, text
wrapped at word boundaries to the terminal's width. Piped output keeps the plain lines.
``--json`` answers every input line with exactly one JSON object, flushed at once, so
a program can drive the session through a pipe. The session logic is
:class:`defuser.apps.live_session.LiveSession`; this module only reads and prints.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from defuser.apps.live_session import LiveSession, SessionReply
from defuser.apps.live_words import twitch_code
from defuser.strategy.cache import cache_dir
from defuser.streams import input_lines, stdin_is_terminal
from defuser.terminal.app import Application
from defuser.terminal.live_view import TypedLines, install_completion, screen_reply, worded
from defuser.terminal.params import edgework_options, resolve_edgework
from edgework import Batteries

if TYPE_CHECKING:
    from pathlib import Path

HISTORY_FILE = "live-history"


def _terminal_lines(out: Application) -> Iterator[str]:
    """Lines typed at a terminal: readline editing, Tab completion and a saved history
    where readline exists (not on Windows: plain lines there); Ctrl-C clears a line."""
    history: Path | None = None
    readline = None
    with contextlib.suppress(ImportError):
        import readline as _readline

        readline = _readline
        folder = cache_dir()
        history = None if folder is None else folder / HISTORY_FILE
        with contextlib.suppress(OSError):
            readline.read_history_file(history)
        readline.set_history_length(1000)
        install_completion(readline)
    lines = TypedLines(
        input, lambda text: out.print(f"\n{text}"),
        pending=readline.get_line_buffer if readline is not None else lambda: "",
    )
    try:
        yield from lines
        out.print("")
    finally:
        if readline is not None and history is not None:
            with contextlib.suppress(OSError):
                history.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(history)


@click.command()
@edgework_options(edgework_name="edgework_text")
@click.option(
    "--json", "json_mode", is_flag=True,
    help="One JSON object per input line (per change with --follow).",
)
@click.option(
    "--full-screen",
    is_flag=True,
    help="With --follow on a terminal: keep every module's advice in place on one "
    "screen, with the last events below.",
)
@click.option(
    "--twitch",
    "twitch_codes",
    multiple=True,
    metavar="CODE",
    help="The module's Twitch Plays code (7, or its letters): every answer is then the "
    "whole chat command, '!7 play 3'. With --follow, one N=CODE per module (the log's "
    "module #N; the log does not say which code Twitch Plays gave it).",
)
@click.option(
    "--follow",
    "follow_path",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[LOG]",
    help="Follow the game's log (default: its usual place) and advise every module "
    "hands-free; the edgework options then stand in for bombs the log does not show.",
)
def live(
    serial: str | None,
    batteries: Batteries | None,
    edgework_text: str | None,
    lenient_serial: bool,
    json_mode: bool,
    follow_path: str | None,
    full_screen: bool,
    twitch_codes: tuple[str, ...],
) -> None:
    """Follow a module as the defuser reports it and say the best safe move each time.

    Type what happened, one line at a time ('start RC BH GS YT', 'drew GS',
    'discarded RC', 'played 2', 'strike draw', 'solved', 'undo', 'help'); every
    answer is the optimal next click (fewest expected clicks, never a strike), why,
    and where the mitten cycle stands. Short forms work as in play ('p2', 'd RC',
    'dr GS'); at a terminal Tab completes, and Ctrl-C clears the line (a second one
    on an empty line ends the session).

    With --follow nobody types: the game's own log is read as it is written, each
    bomb's edgework is taken from it, and every Exploding Mittens module gets its
    best next click as the defuser acts (--json: one object per change).
    """
    edge = resolve_edgework(
        serial, batteries, edgework_text, lenient=lenient_serial, need_serial=False
    )
    if full_screen and follow_path is None:
        raise click.BadParameter("--full-screen works with --follow", param_hint="'--full-screen'")
    if follow_path is not None:
        # Imported here: the log reader and replay cost start-up time that a typed
        # session, whose first answer should come at process-start cost, never needs.
        from defuser.terminal.follow_view import follow_log

        follow_log(follow_path, edge, json_mode=json_mode, full_screen=full_screen,
                   twitch=_followed_codes(twitch_codes))
        return
    # What is imported by now lasts as long as the process: the collector need not
    # scan it again while answers are computed (about 4% of a first answer).
    gc.freeze()
    session = LiveSession(edge.serial, edge.batteries, lenient_serial=lenient_serial)
    session.twitch = _typed_code(twitch_codes)
    answer_lines(session, Application.current(json_mode=json_mode), json_mode=json_mode)


def _code(text: str, shown: str) -> str:
    code = twitch_code(text)
    if code is None:
        raise click.BadParameter(
            f"{shown!r} is not a Twitch Plays module code, expected a number or letters "
            "like 7 or EM", param_hint="'--twitch'",
        )
    return code


def _typed_code(values: tuple[str, ...]) -> str | None:
    """``--twitch CODE`` for a typed session (once at most)."""
    if len(values) > 1:
        raise click.BadParameter(
            f"{len(values)} codes given, expected one for a typed session (several, as "
            "N=CODE, only with --follow)", param_hint="'--twitch'",
        )
    return _code(values[0], values[0]) if values else None


def _followed_codes(values: tuple[str, ...]) -> dict[int, str]:
    """``--twitch N=CODE``, once per module, for ``--follow``."""
    codes: dict[int, str] = {}
    for value in values:
        number, sign, code = value.partition("=")
        if not sign or not number.strip().lstrip("#").isdigit():
            raise click.BadParameter(
                f"{value!r} names no module, expected N=CODE with --follow (the log's module "
                "#N and its Twitch Plays code, like 1=7)", param_hint="'--twitch'",
            )
        codes[int(number.strip().lstrip("#"))] = _code(code, value)
    return codes


def answer_lines(session: LiveSession, out: Application, *, json_mode: bool) -> None:
    """Answer every input line with the session until the input ends or says quit."""
    interactive = stdin_is_terminal() and not json_mode
    drawn = sys.stdout.isatty() and not json_mode
    if interactive:
        out.print(f"mittens live: {session.edge_note()}. Type 'help' for commands.",
                  wrap=drawn)
    lines = _terminal_lines(out) if interactive else input_lines()
    answered = 0

    def summary() -> None:
        # Ctrl-C: where the module stood, on stderr so --json stays one object per line.
        state = session.handle("state")
        out.note(f"mittens live: {answered} line(s) answered; {state.note or 'no module yet'}")

    with out.interruptible(summary):
        for line in lines:
            reply = worded(session.handle(line))
            answered += 1
            show_reply(out, reply, json_mode=json_mode, drawn=drawn)
            if reply.quit:
                break


def show_reply(out: Application, reply: SessionReply, *, json_mode: bool, drawn: bool) -> None:
    """One reply: a JSON object, drawn for a person, or plain lines."""
    if json_mode:
        out.json(reply.to_json())
        if reply.help:
            out.note(reply.help)
    elif drawn:
        for item in screen_reply(reply):
            out.print(item, wrap=True)
        sys.stdout.flush()
    else:
        for text in reply.lines():
            out.print(text)
        sys.stdout.flush()
