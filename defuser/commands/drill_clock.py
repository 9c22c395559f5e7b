"""The answer clock of ``mittens drill`` on a terminal: a live elapsed time and target.

Contract: :class:`LiveClock` runs only when the drill talks to a terminal that takes
ANSI escapes (never on a pipe, never with ``NO_COLOR``). While the player types, a
background thread redraws the right end of the prompt line a few times a second with
:func:`clock_text` (``2.3 s / 5.0 s``, then ``6.1 s SLOW`` past the target, and a
countdown when there is a time limit or a bomb timer); it saves and restores the
cursor, so the typed answer is not disturbed. :meth:`LiveClock.stop` ends the thread
before the drill prints again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import IO, Final

#: Seconds between redraws.
TICK: Final = 0.2
#: Width kept for the clock at the right end of the prompt line.
CLOCK_WIDTH: Final = 34


def clock_text(
    elapsed: float,
    target: float,
    *,
    limit: float | None = None,
    bomb_left: float | None = None,
    bomb_rate: float = 1.0,
) -> str:
    """What the live clock shows after ``elapsed`` seconds.

    ``target`` is the skill's answer-time target; ``limit`` the ``--time-limit`` (a
    countdown to it); ``bomb_left`` the bomb timer's seconds left when the answer began,
    running ``bomb_rate`` times as fast as the clock (faster after strikes).
    """
    parts = []
    if bomb_left is not None:
        left = max(bomb_left - elapsed * bomb_rate, 0.0)
        parts.append(f"bomb {int(left) // 60}:{int(left) % 60:02d}")
    if limit is not None:
        parts.append(f"{max(limit - elapsed, 0.0):.1f} s left")
    if elapsed > target:
        parts.append(f"{elapsed:.1f} s SLOW")
    else:
        parts.append(f"{elapsed:.1f} s / {target:.1f} s")
    return "  ".join(parts)


class LiveClock:
    """A thread that redraws the clock at the end of the prompt line until stopped."""

    def __init__(
        self,
        stream: IO[str],
        text: Callable[[float], str],
        *,
        width: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``text`` turns the elapsed seconds into the clock's words; ``width`` is the
        terminal's width in columns."""
        self.stream = stream
        self.text = text
        self.column = max(width - CLOCK_WIDTH, 20)
        self.clock = clock
        self.started = clock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> LiveClock:
        """Start redrawing; returns the clock."""
        self.started = self.clock()
        self._thread.start()
        return self

    def _draw(self) -> None:
        words = self.text(self.clock() - self.started)[:CLOCK_WIDTH - 2]
        # Save the cursor, jump to the clock's column, clear to the end, write, restore.
        self.stream.write(f"\x1b7\x1b[{self.column}G\x1b[K{words}\x1b8")
        self.stream.flush()

    def _run(self) -> None:
        while not self._stop.wait(TICK):
            try:
                self._draw()
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
