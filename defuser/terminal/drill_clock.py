"""The answer line of ``mittens drill`` on a terminal: the typed answer, the live answer
clock beside it, and the bomb that explodes while the learner types.

Contract: :class:`PromptLine` is the line being typed, without I/O: keystrokes in
(:meth:`PromptLine.feed`), the line to draw out (:meth:`PromptLine.render`). It never
draws the clock over the typed answer: the clock (:func:`clock_words`, the drill
session's answer clock in words, ``2.3 s / 5.0 s``) sits
at the right end of the line when the answer leaves room for it, the typed answer
scrolls (its start hidden behind ``…``) when it would reach the clock, and on a line
too narrow for both the clock is left out; nothing ever wraps.

:class:`TerminalReader` reads one line from a terminal: with the live clock (a terminal
that takes escapes, never with ``NO_COLOR``) it reads key by key, echoing through a
:class:`PromptLine` redrawn a few times a second; without it, the terminal's own line
editing reads the line. Either way it gives up at a deadline (the bomb's timer running
out, on the drill session's clock) and returns :data:`TIMED_OUT`, dropping what was
typed but not entered. Ctrl-C still interrupts; Ctrl-D on an empty line is the end of
input. A Windows console is read line by line, without the live clock or a deadline
(:data:`POSIX`); the drill session then finds the bomb ran out when the line comes.
"""

from __future__ import annotations

import codecs
import contextlib
import enum
import os
import select
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Final

from rich.cells import cell_len

from defuser.engine.clock import time_text
from defuser.streams import MAX_LINE_BYTES, printable, prompt_line
from defuser.trainer.drill_session import DrillSession

#: Whether the terminal can be waited on and read key by key (``select`` and ``termios``
#: work on a POSIX terminal, not on a Windows console, which is read line by line: no
#: live clock, and a bomb that ran out is noticed at the next line).
POSIX: Final = os.name == "posix"
#: Seconds between redraws of the clock.
TICK: Final = 0.2
#: Columns at least kept between the typed answer and the clock.
GAP: Final = 2
#: The clock is left out when the typed answer would have fewer columns than this.
MIN_TYPED: Final = 8
#: Shown in front of a typed answer whose start scrolled out of view.
MORE: Final = "…"

def clock_text(
    elapsed: float,
    target: float,
    *,
    limit: float | None = None,
    bomb_left: float | None = None,
) -> str:
    """What the answer clock shows after ``elapsed`` seconds.

    ``target`` is the skill's answer-time target; ``limit`` the time limit (a
    countdown to it); ``bomb_left`` the bomb timer's seconds left now.
    """
    parts = []
    if bomb_left is not None:
        parts.append(f"bomb {time_text(int(max(bomb_left, 0.0)) * 1000)}")
    if limit is not None:
        parts.append(f"{max(limit - elapsed, 0.0):.1f} s left")
    if elapsed > target:
        parts.append(f"{elapsed:.1f} s SLOW")
    else:
        parts.append(f"{elapsed:.1f} s / {target:.1f} s")
    return "  ".join(parts)


def clock_words(session: DrillSession) -> str:
    """What the answer clock of ``session``'s question asked shows now
    (:func:`clock_text`)."""
    bomb_left = None if session.game is None else session.game.time_left
    return clock_text(session.elapsed(), session.target(), limit=session.drill.time_limit,
                      bomb_left=bomb_left)


#: Keys the prompt line understands.
ENTER: Final = frozenset("\r\n")
BACKSPACE: Final = frozenset("\x7f\x08")
KILL_LINE: Final = "\x15"  # Ctrl-U
KILL_WORD: Final = "\x17"  # Ctrl-W
END_OF_INPUT: Final = "\x04"  # Ctrl-D
ESCAPE: Final = "\x1b"


class ReadEnd(enum.Enum):
    """Why a read returned no line."""

    #: The deadline came before the line.
    TIMED_OUT = "timed out"


TIMED_OUT: Final = ReadEnd.TIMED_OUT

#: What a read gives: the line, ``None`` at the end of input, or :data:`TIMED_OUT`.
ReadResult = str | ReadEnd | None


@dataclass(frozen=True, slots=True)
class Drawn:
    """A prompt line laid out: the ``text`` shown, and the column (from 0) after the
    typed answer, where the cursor stands."""

    text: str
    cursor: int


class PromptLine:
    """The answer being typed after ``prompt``, key by key."""

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt
        self.typed = ""
        #: Inside an escape sequence (an arrow key): the characters read of it so far.
        self._escape = ""
        self.ended = False

    def feed(self, keys: str) -> str | None:
        """Take typed characters; the whole line once Enter is among them (the rest is
        dropped), else ``None``. Ctrl-D on an empty line sets :attr:`ended`."""
        for key in keys:
            if self._escape:
                self._escape += key
                if _escape_done(self._escape):
                    self._escape = ""
                continue
            if key in ENTER:
                return self.typed
            self._key(key)
        return None

    def _key(self, key: str) -> None:
        if key == ESCAPE:
            self._escape = key
        elif key in BACKSPACE:
            self.typed = self.typed[:-1]
        elif key == KILL_LINE:
            self.typed = ""
        elif key == KILL_WORD:
            self.typed = self.typed.rstrip()
            self.typed = self.typed[: len(self.typed) - len(self.typed.split(" ")[-1])]
        elif key == END_OF_INPUT:
            self.ended = not self.typed
        elif key >= " " and len(self.typed) < MAX_LINE_BYTES:
            self.typed += printable(key)

    def render(self, width: int, clock: str = "") -> Drawn:
        """The line on a terminal ``width`` columns wide, with ``clock`` at its right
        end when the typed answer leaves room (the last column stays free, so the line
        never wraps)."""
        room = max(width - 1 - cell_len(self.prompt), 1)
        clock_room = room - GAP - cell_len(clock)
        if clock and clock_room >= MIN_TYPED:
            shown = _tail(self.typed, clock_room)
            pad = room - cell_len(shown) - cell_len(clock)
            text = f"{self.prompt}{shown}{' ' * pad}{clock}"
        else:
            shown = _tail(self.typed, room)
            text = f"{self.prompt}{shown}"
        return Drawn(text, cell_len(self.prompt) + cell_len(shown))


def _escape_done(sequence: str) -> bool:
    """Whether an escape sequence (an arrow or function key, ignored) is complete:
    ``ESC x``, ``ESC O x``, or ``ESC [`` then parameters and a final byte."""
    if len(sequence) == 2:
        return sequence[1] not in "[O"
    if sequence[1] == "O":
        return True
    return "@" <= sequence[-1] <= "~"


def _tail(typed: str, room: int) -> str:
    """The end of ``typed`` that fits in ``room`` columns (``…`` before a cut start)."""
    if cell_len(typed) <= room:
        return typed
    # From the end, as many characters as fit (a pasted line may be 64 KiB long).
    used, start = cell_len(MORE), len(typed)
    while start > 0 and used + cell_len(typed[start - 1]) <= room:
        start -= 1
        used += cell_len(typed[start])
    return MORE + typed[start:]


class TerminalReader:
    """Reads answer lines from a terminal, with the live clock when ``live``."""

    def __init__(
        self,
        stdin: IO[str],
        out: IO[str],
        *,
        live: bool,
        width: Callable[[], int],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``stdin`` is the terminal read from, ``out`` where the line is drawn;
        ``width`` gives the terminal's columns; ``clock`` is the drill session's clock,
        on which deadlines are given."""
        self.stdin = stdin
        self.out = out
        self.live = live
        self.width = width
        self.clock = clock

    def read(
        self,
        prompt: str,
        *,
        words: Callable[[], str] | None = None,
        deadline: float | None = None,
    ) -> ReadResult:
        """One line typed after ``prompt``; ``None`` at the end of input; :data:`TIMED_OUT`
        when ``deadline`` (on the clock) came first. ``words`` gives the clock's words,
        drawn beside the answer while it is typed (when the reader is live)."""
        try:
            fd: int | None = self.stdin.fileno() if POSIX else None
        except (OSError, ValueError):  # a stand-in without a descriptor: line by line
            fd = None
        if fd is not None and self.live and words is not None:
            return self._keys(fd, PromptLine(prompt), words, deadline)
        self.out.write(prompt)
        self.out.flush()
        if fd is None:
            return prompt_line("", lambda _: self._next_line())
        return self._whole_line(fd, deadline)

    def _next_line(self) -> str:
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    def _wait(self, fd: int, deadline: float | None, tick: float | None) -> bool:
        """Wait until ``fd`` can be read (True), or the tick or the deadline passed."""
        waits = [t for t in (tick, None if deadline is None else deadline - self.clock())
                 if t is not None]
        timeout = max(min(waits), 0.0) if waits else None
        ready, _, _ = select.select([fd], [], [], timeout)
        return bool(ready)

    def _due(self, deadline: float | None) -> bool:
        return deadline is not None and self.clock() >= deadline

    def _whole_line(self, fd: int, deadline: float | None) -> ReadResult:
        """A line read by the terminal's own line editing."""
        while not self._wait(fd, deadline, None):
            if self._due(deadline):
                return self._timed_out(fd)
        data = os.read(fd, MAX_LINE_BYTES)
        if not data:
            return None
        line = data.decode(_encoding(self.stdin), "replace").rstrip("\r\n")
        return printable(line)

    def _keys(
        self, fd: int, line: PromptLine, words: Callable[[], str], deadline: float | None
    ) -> ReadResult:
        """A line read key by key, echoed with the clock beside it."""
        decoder = codecs.getincrementaldecoder(_encoding(self.stdin))("replace")
        with _cbreak(fd), self._left_clean(line):
            while True:
                self._draw(line, words())
                if self._due(deadline):
                    return self._timed_out(fd)
                if not self._wait(fd, deadline, TICK):
                    continue
                data = os.read(fd, 1024)
                done = line.feed(decoder.decode(data)) if data else None
                if not data or line.ended:
                    self._draw(line, "")
                    self.out.write("\n")
                    return None
                if done is not None:
                    self._draw(line, "")
                    self.out.write("\n")
                    self.out.flush()
                    return done

    @contextlib.contextmanager
    def _left_clean(self, line: PromptLine) -> Iterator[None]:
        """On Ctrl-C, the line is left as typed, without the clock, and ended."""
        try:
            yield
        except KeyboardInterrupt:
            self._draw(line, "")
            self.out.write("\n")
            self.out.flush()
            raise

    def _draw(self, line: PromptLine, clock: str) -> None:
        drawn = line.render(self.width(), clock)
        # Back to the line's start, the line, clear the rest, the cursor after the answer.
        self.out.write(f"\r{drawn.text}\x1b[K\x1b[{drawn.cursor + 1}G")
        self.out.flush()

    def _timed_out(self, fd: int) -> ReadEnd:
        """Drop what was typed but not entered, and end the prompt's line."""
        _flush_input(fd)
        self.out.write("\n")
        self.out.flush()
        return TIMED_OUT


def _encoding(stream: IO[str]) -> str:
    return getattr(stream, "encoding", None) or sys.getdefaultencoding()


def _flush_input(fd: int) -> None:
    try:
        import termios

        termios.tcflush(fd, termios.TCIFLUSH)
    except (ImportError, OSError):  # not a terminal after all, or not a POSIX one
        pass


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """The terminal without its line editing and echo while inside (Ctrl-C still
    interrupts), put back as it was on leaving."""
    try:
        import termios
    except ImportError:  # not a POSIX terminal: read as it is
        yield
        return
    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ICANON | termios.ECHO)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)
