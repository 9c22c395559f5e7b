"""``mittens live --follow``: the hands-free view, advising from the game's log as it grows.

Contract: :func:`follow_log` resolves the log's path and shows every change the
log-follow session (:class:`defuser.apps.follow.follower.Follower`, driven by
:func:`defuser.apps.follow.following.poll_log`) reports: plain lines, drawn for a
person, a full-screen board (:class:`FollowBoard`: the session's latest advice of each
module, laid out in the terminal's size when drawn and redrawn on a resize: every
module's box when they fit, else one line per module with ``+N more``, the last events
kept), or JSON (:func:`defuser.dashboard.follow_words.advice_json`); it words what
happens to the log (:func:`notice_words`) and the hints the terminal adds. The
``live`` command
imports it only when ``--follow`` is given, so that a typed ``mittens live`` does not
pay for the log reader at start-up.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path

import click
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from defuser.apps.follow.advice import Advice
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.following import FollowNotice, FollowNoticeKind, poll_log
from defuser.dashboard.follow_words import advice_json, event_words, missing_words
from defuser.logs.reader import default_log_path
from defuser.streams import printable
from defuser.terminal import screen
from defuser.terminal.app import Application
from defuser.terminal.live_view import screen_reply
from defuser.terminal.wrap import wrap_text
from edgework import Edgework


def follow_header(advice: Advice) -> str:
    """Which module changed and how: ``#2 · bomb 1 AB3CD4, 3 batteries · line 57: drew GS``."""
    bomb = advice.bomb
    where = "bomb ?"
    if bomb is not None:
        where = f"bomb {bomb.number}"
        if advice.serial is not None:
            where += f" {advice.serial}"
        if advice.batteries is not None:
            where += f", {advice.batteries} batter{'y' if advice.batteries == 1 else 'ies'}"
        if advice.given:
            where += f" ({' and '.join(advice.given)} from the options)"
        if not advice.bomb_certain:
            where += " (or another bomb of this mission)"
    # The serial number comes from the log: never let its bytes drive the terminal.
    what = f"line {advice.line}: {event_words(advice.event)}"
    return printable(f"Exploding Mittens #{advice.module_id} · {where} · {what}")


def with_option_hint(advice: Advice) -> Advice:
    """Advice that needs edgework the log did not show says which options give it."""
    if not advice.needs or advice.reply.error is None:
        return advice
    options = " and ".join(f"--{need}" for need in advice.needs)
    error = f"{advice.reply.error}; give {options} (or --edgework)"
    reply = replace(advice.reply, error=error,
                    recommendation=replace(advice.reply.recommendation, reason=error))
    return replace(advice, reply=reply)


def notice_words(notice: FollowNotice, path: Path) -> str:
    """What happened to the followed log, in one line (``the log was truncated: it is
    read again from its top (session 2)``)."""
    match notice.kind:
        case FollowNoticeKind.SESSION:
            return ("the game started again: a new game session in the log "
                    f"(session {notice.session}), followed afresh")
        case FollowNoticeKind.MISSING:
            reason = "" if notice.missing is None else missing_words(notice.missing)
            return f"the log {path} cannot be read: {reason}; waiting for it"
        case FollowNoticeKind.BACK:
            return f"the log {path} can be read again"
        case FollowNoticeKind.RESTARTED:
            return (f"the log was {notice.restart}: it is read again from its top "
                    f"(session {notice.session})")


class FollowBoard:
    """The full-screen view of ``--follow``: every module's latest advice kept in place
    (the follower's, for its current game session), and the last events below them."""

    #: How many past events the board lists.
    EVENTS = 8

    def __init__(self, path: Path, follower: Follower) -> None:
        self.path = path
        self.follower = follower
        self.events: deque[str] = deque(maxlen=self.EVENTS)

    @property
    def latest(self) -> dict[int, Advice]:
        """Each module's latest advice, shown with the terminal's hints."""
        return {m: with_option_hint(a) for m, a in sorted(self.follower.latest.items())}

    def add(self, advice: Advice) -> None:
        """Take one change into the board's events (its module's box shows the
        follower's latest advice)."""
        self.events.append(
            printable(f"#{advice.module_id} line {advice.line}: {event_words(advice.event)}")
        )

    def told(self, notice: FollowNotice) -> None:
        """Take what happened to the log into the board's events: one line each."""
        self.events.append(printable(notice_words(notice, self.path)))

    def render(self) -> RenderableType:
        """The whole screen, laid out when drawn, in the console's size then."""
        return self

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Every module's box when they fit the screen's height; else one line per
        module (``+N more`` for those that do not fit), the last events kept."""
        width = options.max_width
        height = options.height or console.height
        heading = wrap_text(
            Text(f"mittens live --follow {self.path}", style="bold")
            .append("   Ctrl-C stops", style="dim"), width)
        events = self._events(width)
        full = Group(heading, *self._boxes(width), *events)
        if len(console.render_lines(full, options.update(height=None), pad=False)) <= height:
            yield full
            return
        yield heading
        room = max(height - len(heading.plain.splitlines()) - min(len(events), 4), 1)
        lines = [compact_line(advice, width) for advice in self.latest.values()]
        if len(lines) > room:
            more = len(lines) - (room - 1)
            lines = [*lines[: room - 1], Text(f"+{more} more", style="bold")]
        yield from lines
        yield from events[: max(height - len(heading.plain.splitlines()) - len(lines), 0)]

    def _boxes(self, width: int) -> list[RenderableType]:
        latest = self.latest
        if not latest:
            return [Text("waiting for an Exploding Mittens module in the log...", style="dim")]
        boxes: list[RenderableType] = []
        for module_id, advice in latest.items():
            # The header inside the box, wrapped: a panel's title would be cut.
            title = wrap_text(Text(follow_header(advice).split(" · line ")[0], style="bold"),
                              max(width - 4, 1))
            body = Group(title, *screen_reply(advice.reply))
            style = "green" if advice.solved else ("red" if not advice.reply.ok else "cyan")
            boxes.append(Panel(body, title=f"#{module_id}", title_align="left",
                               border_style=style))
        return boxes

    def _events(self, width: int) -> list[Text]:
        if not self.events:
            return []
        lines = [Text("last events", style="bold dim")]
        for event in self.events:
            lines.extend(wrap_text(Text(f"  {event}", style="dim"), width).split("\n"))
        return lines


def compact_line(advice: Advice, width: int) -> Text:
    """One module in one line: its number, then its move (or how it stands) and where
    the mitten is."""
    reply = advice.reply
    line = Text(f"#{advice.module_id} ", style="bold")
    rec, obs = reply.recommendation, reply.observation
    if advice.solved:
        line.append("solved", style="green")
    elif not reply.ok or rec.action is None or obs is None or obs.discard is None:
        line.append(reply.error or rec.reason, style="red" if not reply.ok else "")
    else:
        card = obs.hand[rec.action.slot - 1] if rec.action.slot is not None else None
        line.append_text(screen.move_badge(rec.action, card))
        line.append(" ").append_text(screen.gauge(obs.belief))
    line.truncate(width, overflow="ellipsis")
    return line


@contextlib.contextmanager
def redraw_on_resize(redraw: Callable[[], None]) -> Iterator[None]:
    """While inside, a resized terminal (SIGWINCH, where it exists) is redrawn at once,
    in its new size, instead of staying blank until the log's next line."""
    resized = getattr(signal, "SIGWINCH", None)
    if resized is None:
        yield
        return
    before = signal.signal(resized, lambda _sig, _frame: redraw())
    try:
        yield
    finally:
        signal.signal(resized, before)


def follow_summary(follower: Follower, shown: int) -> str:
    """The line Ctrl-C leaves: how much was shown, and where this session's modules stand."""
    modules = follower.latest.values()
    solved = sum(1 for advice in modules if advice.solved)
    return (f"mittens live --follow: {shown} change(s) shown; session {follower.session}: "
            f"{len(modules)} module(s) followed, {solved} solved")


def print_advice(out: Application, advice: Advice, *, json_mode: bool, drawn: bool) -> None:
    """One change: a JSON object, drawn for a person, or the plain lines."""
    if json_mode:
        out.json(advice_json(advice))
        return
    header = follow_header(advice)
    if drawn:
        out.print(Text(header, style="bold"), wrap=True)
        for item in screen_reply(advice.reply):
            out.print(item, wrap=True)
    else:
        out.print(header)
        for text in advice.reply.lines():
            out.print(text)
    sys.stdout.flush()


def run_follow(
    path: Path, fallback: Edgework, out: Application, *, json_mode: bool, full_screen: bool = False,
    twitch: Mapping[int, str] | None = None,
) -> None:
    """Follow the game's log at ``path`` hands-free until interrupted (``twitch``: each
    module's Twitch Plays code by its number in the log; Ctrl-C prints the summary on
    stderr, as every command does)."""
    drawn = sys.stdout.isatty() and not json_mode
    follower = Follower(
        serial=fallback.serial,
        batteries=fallback.batteries.count if fallback.batteries is not None else None,
        twitch=twitch,
    )
    shown = 0

    def summary() -> None:
        out.note(follow_summary(follower, shown))

    if drawn and full_screen:
        board = FollowBoard(path, follower)
        with out.interruptible(summary), Live(
            board.render(), console=out.out, screen=True, auto_refresh=False
        ) as view, redraw_on_resize(view.refresh):

            def show(advice: Advice) -> None:
                nonlocal shown
                shown += 1
                board.add(advice)
                view.update(board.render(), refresh=True)

            def told(notice: FollowNotice) -> None:
                board.told(notice)
                view.update(board.render(), refresh=True)

            poll_log(path, show, follower=follower, notice=told)
        return

    def emit(advice: Advice) -> None:
        nonlocal shown
        shown += 1
        print_advice(out, with_option_hint(advice), json_mode=json_mode, drawn=drawn)

    where = "" if path.exists() else " (it does not exist yet: waiting for the game)"
    out.note(printable(f"following {path}{where}; Ctrl-C stops"))
    with out.interruptible(summary):
        poll_log(path, emit, follower=follower, notice=lambda notice: out.note(
            printable(f"mittens live: {notice_words(notice, path)}")))


def follow_log(
    follow_path: str, edge: Edgework, *, json_mode: bool, full_screen: bool,
    twitch: Mapping[int, str] | None = None,
) -> None:
    """Follow the log named by ``--follow`` (empty: the game's usual place) until
    interrupted. A log that can never be followed is refused in one line: a directory,
    something that is not a file (a named pipe, a device), a file in a folder that does
    not exist (the game creates its log, never its folder)."""
    path = Path(follow_path) if follow_path else Path(default_log_path())
    shown = repr(printable(str(path)))
    if path.is_dir():
        raise click.BadParameter(f"{shown} is a directory, expected the game's log file",
                                 param_hint="'--follow'")
    if path.exists() and not path.is_file():
        raise click.BadParameter(f"{shown} is not a regular file, expected the game's log "
                                 "file", param_hint="'--follow'")
    if not path.parent.is_dir():
        if follow_path:
            message = f"the folder of {shown} does not exist, expected a log in an existing folder"
        else:
            message = (f"the game's log folder {printable(str(path.parent))!r} does not exist "
                       "(has the game run on this computer?), expected it, or a log given "
                       "as --follow LOG")
        raise click.BadParameter(message, param_hint="'--follow'")
    run_follow(path, edge, Application.current(json_mode=json_mode), json_mode=json_mode,
               full_screen=full_screen, twitch=twitch)
