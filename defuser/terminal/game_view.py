"""How the game commands (``play``, ``prop``, ``drill --mode game``) word a game.

Contract: the words and the front ends' own reasons to stop live here, not in the game
session (:mod:`defuser.engine.game`): the session knows how a game ends (solved,
exploded, timed out); :class:`Stop` is why a front end stopped playing before that.
Both are worded by :func:`end_headline`, and their values are the JSON ``reason``.
:func:`mitten_words` says where the mitten is (only ``play --reveal`` shows it: working it
out is the game). :class:`BoardRegion` counts the terminal rows a game printed since its
last click so that the next click's report and board are drawn over them (an in-place
board: a game's height stays that of one click, however many clicks it takes), and
:func:`timed_reader` reads a typed line that gives up at the bomb's deadline.
"""

from __future__ import annotations

import contextlib
import enum
import math
import queue
import sys
import threading
from collections.abc import Callable
from typing import Final

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

from defuser.engine.clock import time_text
from defuser.engine.game import GameEnd
from defuser.streams import prompt_line
from defuser.terminal.drill_clock import TIMED_OUT, ReadResult, TerminalReader
from edgework import Batteries

#: The prompt of a game typed at a terminal.
PROMPT: Final = "> "

#: Reads one typed line after the prompt, giving up at a deadline on the game's clock
#: (None: no deadline): the line, ``None`` at the end of input, or :data:`TIMED_OUT`.
Reader = Callable[[str, float | None], ReadResult]


class Stop(enum.Enum):
    """Why a front end stopped a game that had not ended. The value is the JSON
    ``reason`` of the ``end`` event."""

    #: The player typed quit.
    QUIT = "quit"
    #: The commands ran out (end of piped input).
    END_OF_INPUT = "end"
    #: Interrupted (Ctrl-C) or stopped from outside (the prop's link was lost).
    STOPPED = "stopped"
    #: A simulated prop made all its scripted presses.
    SCRIPT_ENDED = "script-ended"


def end_headline(end: GameEnd | Stop, strikes: int) -> str:
    """The one line that announces how a game ended, as every game mode prints it."""
    if end is GameEnd.SOLVED:
        return "Module solved!"
    if end is GameEnd.EXPLODED:
        return f"BOOM! The bomb exploded at {strikes} strike{'' if strikes == 1 else 's'}."
    if end is GameEnd.TIMED_OUT:
        return "BOOM! The time ran out."
    if end is Stop.END_OF_INPUT:
        return "End of input; game stopped."
    if end is Stop.SCRIPT_ENDED:
        return "The simulated prop's script ended before the game did."
    return "Game stopped."


def batteries_words(batteries: Batteries | None) -> str:
    """``3 batteries in 2 holders (1 AA, 1 D)`` or just ``3 batteries``."""
    if batteries is None:
        return "0 batteries"
    count = batteries.count
    text = f"{count} batter{'y' if count == 1 else 'ies'}"
    if batteries.holders:
        holders = batteries.holders
        text += f" in {holders} holder{'' if holders == 1 else 's'}"
        text += f" ({batteries.aa_holders} AA, {batteries.d_holders} D)"
    return text


def elapsed_words(seconds: float) -> str:
    """Elapsed time as ``m:ss``."""
    return time_text(int(seconds) * 1000)


def mitten_words(deals_until_mitten: int) -> str:
    """Where the mitten is, from the deals until it is on top (0: on top now)."""
    if deals_until_mitten == 0:
        return "the mitten is on top"
    plural = "" if deals_until_mitten == 1 else "s"
    return f"the mitten is on top after {deals_until_mitten} more deal{plural}"


class BoardRegion:
    """The rows a game printed on a terminal since its last click's report, which the
    next click draws over (:meth:`rewind`): the typed lines, errors, help, the report
    and the board."""

    def __init__(self, console: Console) -> None:
        """Rows are counted as ``console`` lays them out, and rewound on its file."""
        self.console = console
        self.rows = 0

    def count(self, renderable: RenderableType) -> None:
        """Count the rows ``renderable`` takes when printed, wrapped, on the console."""
        self.rows += len(self.console.render_lines(renderable, pad=False))

    def count_note(self, message: str, console: Console) -> None:
        """Count a diagnostic printed on ``console`` (the same terminal's stderr)."""
        self.rows += len(console.render_lines(Text(message), pad=False))

    def typed(self, line: str, prompt: str = PROMPT) -> None:
        """Count the rows of a line typed after ``prompt`` (the terminal's echo)."""
        width = max(self.console.width, 1)
        self.rows += max(1, math.ceil(cell_len(prompt + line) / width))

    def rewind(self) -> None:
        """Move up over the counted rows and clear them to the end of the screen."""
        if self.rows:
            self.console.file.write(f"\x1b[{self.rows}F\x1b[J")
            self.console.file.flush()
        self.rows = 0


def timed_reader(clock: Callable[[], float], width: Callable[[], int]) -> Reader:
    """Lines typed at the terminal on standard input, each read giving up at its
    deadline on ``clock``: where ``select`` can wait on a terminal (POSIX) with the
    terminal's own line editing, elsewhere (Windows) through a thread that reads lines
    while the game waits on it with a timeout."""
    if sys.platform != "win32":
        reader = TerminalReader(sys.stdin, sys.stdout, live=False, width=width, clock=clock)
        return lambda prompt, deadline: reader.read(prompt, deadline=deadline)
    return ThreadedLines(clock).read


class ThreadedLines:
    """Typed lines read by a background thread (where ``select`` cannot wait on a
    console); a read waits for the next line until its deadline."""

    def __init__(self, clock: Callable[[], float]) -> None:
        """Deadlines are on ``clock``."""
        self.clock = clock
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.prompt = PROMPT
        self.thread: threading.Thread | None = None

    def _run(self) -> None:
        while True:
            line = prompt_line(self.prompt)
            self.lines.put(line)
            if line is None:
                return

    def read(self, prompt: str, deadline: float | None) -> ReadResult:
        """The next typed line, ``None`` at the end of input, or :data:`TIMED_OUT`."""
        self.prompt = prompt
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
        while True:
            wait = None if deadline is None else max(deadline - self.clock(), 0.0)
            try:
                # A bounded wait keeps Ctrl-C working while nothing is typed.
                return self.lines.get(timeout=0.2 if wait is None else min(wait, 0.2))
            except queue.Empty:
                if deadline is not None and self.clock() >= deadline:
                    sys.stdout.write("\n")
                    return TIMED_OUT


def readline_reader() -> Reader:
    """Lines typed at the terminal with readline's editing where it exists, no deadline."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (gives input() line editing and history)
    return lambda prompt, deadline: prompt_line(prompt)
