"""The answer clock of ``mittens drill`` drawn on a terminal.

Contract: :class:`LiveClock` only draws; the clock itself is the drill session's
(:meth:`defuser.trainer.drill_session.DrillSession.clock_words`: ``2.3 s / 5.0 s``, then
``6.1 s SLOW`` past the target, and a countdown when there is a time limit or a bomb
timer). It runs only when the drill talks to a terminal that takes ANSI escapes (never
on a pipe, never with ``NO_COLOR``). While the player types, a background thread
redraws the right end of the prompt line a few times a second; it saves and restores
the cursor, so the typed answer is not disturbed. :meth:`LiveClock.stop` ends the
thread before the drill prints again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import IO, Final

#: Seconds between redraws.
TICK: Final = 0.2
#: Width kept for the clock at the right end of the prompt line.
CLOCK_WIDTH: Final = 34


class LiveClock:
    """A thread that redraws the clock at the end of the prompt line until stopped."""

    def __init__(self, stream: IO[str], text: Callable[[], str], *, width: int) -> None:
        """``text`` gives the clock's words now; ``width`` is the terminal's width in
        columns."""
        self.stream = stream
        self.text = text
        self.column = max(width - CLOCK_WIDTH, 20)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> LiveClock:
        """Start redrawing; returns the clock."""
        self._thread.start()
        return self

    def draw(self) -> None:
        """Draw the clock once, now, at the end of the cursor's line (the thread does it
        every tick)."""
        words = self.text()[:CLOCK_WIDTH - 2]
        # Save the cursor, jump to the clock's column, clear to the end, write, restore.
        self.stream.write(f"\x1b7\x1b[{self.column}G\x1b[K{words}\x1b8")
        self.stream.flush()

    def _run(self) -> None:
        while not self._stop.wait(TICK):
            try:
                self.draw()
            except (OSError, ValueError):  # the terminal went away
                return

    def stop(self) -> None:
        """Stop redrawing and clear anything drawn on the line the cursor is now on."""
        self._stop.set()
        self._thread.join()
        try:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        except (OSError, ValueError):
            pass
