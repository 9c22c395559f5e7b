"""One game on one module: the bomb around it, shared by every way of playing.

Contract: a :class:`Bomb` owns what the module alone does not: the strike limit and the
explosion, the clock, the count of clicks, the events seen so far, the module's log
file (written line by line as the game goes) and how the game ended (:class:`End`).
``mittens play``, ``mittens prop`` and the trainer's game mode all play through it:
they click with :meth:`Bomb.act` (or report a click the prop's bridge made with
:meth:`Bomb.record`), ask :attr:`Bomb.end`, and render. The JSON fields every game
event shares are built here too (:func:`edge_fields`, :func:`click_fields`,
:func:`outcome_fields`), so the commands' schemas cannot drift apart.

The clock is injected (``time.monotonic`` by default), so tests and a later bomb timer
read one time source.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Any, Final

from defuser.engine.actions import Action, Event
from defuser.engine.modlog import LogAppender
from defuser.engine.simulator import UNDO_DEPTH, Module, Result
from defuser.errors import DefuserError
from edgework import Edgework

#: The bomb explodes at this many strikes unless told otherwise (0: never).
STRIKE_LIMIT: Final = 3
#: The game's bomb timer runs a quarter faster with every strike, for up to four strikes
#: (twice as fast from the fourth on).
RATE_PER_STRIKE: Final = 0.25
MAX_RATE_STRIKES: Final = 4


def timer_rate(strikes: int) -> float:
    """How fast the bomb timer runs after ``strikes`` strikes (1.0 is real time)."""
    return 1.0 + RATE_PER_STRIKE * min(strikes, MAX_RATE_STRIKES)


class End(enum.Enum):
    """How a game ended. The value is the ``reason`` of the JSON ``end`` event."""

    SOLVED = "solved"
    EXPLODED = "exploded"
    #: The player typed quit.
    QUIT = "quit"
    #: The commands ran out (end of piped input).
    END_OF_INPUT = "end"
    #: Interrupted (Ctrl-C) or stopped from outside.
    STOPPED = "stopped"
    #: A simulated prop made all its scripted presses.
    SCRIPT_ENDED = "script-ended"
    #: The bomb timer ran out: the bomb exploded.
    TIMEOUT = "timeout"


def end_headline(end: End, strikes: int) -> str:
    """The one line that announces how a game ended, as every game mode prints it."""
    if end is End.SOLVED:
        return "Module solved!"
    if end is End.EXPLODED:
        return f"BOOM! The bomb exploded at {strikes} strike{'' if strikes == 1 else 's'}."
    if end is End.TIMEOUT:
        return "BOOM! The time ran out."
    if end is End.END_OF_INPUT:
        return "End of input; game stopped."
    if end is End.SCRIPT_ENDED:
        return "The simulated prop's script ended before the game did."
    return "Game stopped."


class Bomb:
    """One module on a bomb with a strike limit and an optional timer, click by click.

    The timer (``time_limit`` seconds) runs on the bomb's clock at :func:`timer_rate` of
    the strikes so far; :meth:`tick` ends the game when it has run out, and a click
    made after that does not count.
    """

    def __init__(
        self,
        module: Module,
        *,
        strike_limit: int = STRIKE_LIMIT,
        log_file: IO[str] | None = None,
        clock: Callable[[], float] | None = None,
        time_limit: float | None = None,
    ) -> None:
        """Start the game now; the module's start-up log lines go to ``log_file`` at once.

        ``strike_limit`` 0 means the bomb never explodes; ``clock`` is looked up when
        the game starts (``time.monotonic`` then), so a patched clock is honoured;
        ``time_limit`` starts the bomb timer with that many seconds (None: no timer).
        """
        if strike_limit < 0:
            raise DefuserError(f"strike limit {strike_limit} is negative, expected 0 or more")
        if time_limit is not None and not time_limit > 0:
            raise DefuserError(f"time limit {time_limit} is not positive, expected seconds > 0")
        self.module = module
        self.strike_limit = strike_limit
        self.clock = clock if clock is not None else time.monotonic
        self.started = self.clock()
        self.clicks = 0
        #: The latest events (a long session keeps only the last UNDO_DEPTH of them).
        self.events: deque[Event] = deque(maxlen=UNDO_DEPTH)
        self.end: End | None = None
        self.time_limit = time_limit
        #: The timer: seconds left at clock time ``_time_at``, running at ``_rate``.
        self._time_left = time_limit
        self._time_at = self.started
        self._rate = timer_rate(0)
        self._log = LogAppender(log_file)
        self._log.flush(module.log, module.log_total)

    @property
    def exploded(self) -> bool:
        """Whether the strikes have reached the limit."""
        return bool(self.strike_limit) and self.module.strikes >= self.strike_limit

    @property
    def over(self) -> bool:
        """Whether the game has ended, however it ended."""
        return self.end is not None

    def elapsed(self) -> float:
        """Seconds since the game started."""
        return self.clock() - self.started

    @property
    def rate(self) -> float:
        """How fast the timer runs now: 0 with no timer or once the game is over."""
        return 0.0 if self.time_limit is None or self.end is not None else self._rate

    def time_left(self) -> float | None:
        """Seconds left on the bomb timer now (None: no timer); frozen at the end."""
        if self._time_left is None:
            return None
        if self.end is not None:
            return self._time_left
        return max(0.0, self._time_left - (self.clock() - self._time_at) * self._rate)

    def tick(self) -> End | None:
        """End the game when the timer has run out; return how the game ended, if it did."""
        if self.end is None and self.time_left() == 0.0:
            self._finish(End.TIMEOUT)
        return self.end

    def act(self, action: Action) -> Result:
        """Click on the module and record what happened (see :meth:`record`)."""
        self.tick()
        if self.end is not None:
            raise DefuserError(f"the game is over ({self.end.value}), expected no more clicks")
        return self.record(self.module.act(action))

    def record(self, result: Result) -> Result:
        """Take note of a click already made on :attr:`module` (by the prop's bridge):
        count it, keep its event, write its log lines, and end the game at the solve or
        the explosion."""
        self.clicks += 1
        event = result.event
        if event is not None:
            self.events.append(event)
        self._log.flush(self.module.log, self.module.log_total)
        if self.end is None and self._time_left is not None:
            # The time left so far ran at the old rate; a strike speeds up what follows.
            self._time_left = self.time_left()
            self._time_at = self.clock()
            self._rate = timer_rate(self.module.strikes)
        if self.end is None:
            end = self._end_now()
            if end is not None:
                self._finish(end)
        return result

    def _finish(self, end: End) -> None:
        """End the game, freezing the timer."""
        self._time_left = self.time_left()
        self.end = end

    def _end_now(self) -> End | None:
        # The one place that decides whether the bomb's state ends the game; a timer
        # adds its time-out here.
        if self.module.solved:
            return End.SOLVED
        if self.exploded:
            return End.EXPLODED
        return None

    def stop(self, end: End) -> None:
        """End the game from outside (quit, end of input, Ctrl-C); a finished game keeps
        its end."""
        if self.end is None:
            self._finish(end)


# ---------------------------------------------------------------------- JSON shapes


def edge_fields(edge: Edgework) -> dict[str, Any]:
    """The edge as the JSON ``start`` events give it."""
    return {
        "serial": str(edge.serial),
        "batteries": edge.batteries.count if edge.batteries else 0,
        "holders": edge.batteries.holders if edge.batteries else None,
        "edgework": str(edge),
    }


def outcome_fields(result: Result) -> dict[str, Any]:
    """What a click did: its outcome, the card it moved, the strike's kind."""
    return {
        "outcome": result.outcome.value,
        "card": result.card.code if result.card is not None else None,
        "strike": result.strike.value if result.strike is not None else None,
    }


def click_fields(result: Result) -> dict[str, Any]:
    """One click in the JSON events: the action, its outcome and the blocking slots."""
    return {
        "action": str(result.action),
        **outcome_fields(result),
        "blocking_slots": list(result.blocking_slots),
    }
