"""One game on one module, the same object under every front end: the game session.

Contract: a :class:`GameSession` is sans-I/O. A click goes in (:meth:`GameSession.click`),
the time comes from the injected clock, typed events come out (:class:`Clicked`,
:class:`Ended`), and :meth:`GameSession.state` is JSON-ready, so ``mittens play``,
``mittens prop``, the trainer's game mode and a web page drive the very same object.
The session owns what the module alone does not: the strike limit and the explosion,
the bomb timer (a quarter faster per strike, see :func:`timer_rate`), the count of
clicks, and how the game ended (:class:`GameEnd`: solved, exploded at the strike limit,
exploded when the timer ran out). It records each click with its time on the session's
clock, so :meth:`GameSession.state` holds all a front end needs to save a game and
:meth:`GameSession.from_state` rebuilds it on a module rebuilt the same way (the same
rules, interval and seed), replaying the clicks at their times. Why a front end stopped
playing before the end (the player quit, the input ended, Ctrl-C, a simulated prop's
script ran out) is the front end's business, and so are the words that announce an end.

The click itself is made by a :class:`Clicker`: the simulator's :class:`Module` (for
``mittens play``, and for the prop, whose game, ``hardware.game``, shows each click on
the prop once the session made it), or a trainer's walk that keeps its belief in step.
A display of the bomb reads :meth:`GameSession.bomb` after a strike or the end.

The session sits in the engine because everything it needs is here and every layer
that plays a game (trainer, hardware, the front ends) may import the engine; those
layers may not import one another. It writes no files: the log lines of a click are in
its event (``Clicked.result.log``), the start-up lines in :attr:`Module.log`.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from defuser.engine.actions import Action
from defuser.engine.simulator import Module, Result
from defuser.errors import DefuserError
from edgework import Edgework
from edgework.errors import MisuseError

#: The bomb explodes at this many strikes unless told otherwise (0: never).
STRIKE_LIMIT: Final = 3
#: The game's bomb timer runs a quarter faster with every strike, for up to four strikes
#: (twice as fast from the fourth on).
RATE_PER_STRIKE: Final = 0.25
MAX_RATE_STRIKES: Final = 4

#: The version of :meth:`GameSession.state`'s shape (its ``version`` key).
GAME_STATE_VERSION: Final = 1

#: Seconds on some clock (``time.monotonic`` by default).
Clock = Callable[[], float]


def timer_rate(strikes: int) -> float:
    """How fast the bomb timer runs after ``strikes`` strikes (1.0 is real time)."""
    return 1.0 + RATE_PER_STRIKE * min(strikes, MAX_RATE_STRIKES)


class GameEnd(enum.Enum):
    """How a game ended. The value is the ``reason`` of the JSON ``end`` event."""

    SOLVED = "solved"
    #: The strikes reached the limit.
    EXPLODED = "exploded"
    #: The bomb timer ran out.
    TIMED_OUT = "timeout"


class Clicker(Protocol):
    """What makes a click on the module: the simulator, or a trainer's walk."""

    def act(self, action: Action) -> Result:
        """Click on the module; the module's answer."""


@dataclass(frozen=True, slots=True)
class BombState:
    """The bomb around the module now: what a display of the bomb shows.

    ``time_left`` is None without a timer; ``rate`` is how fast the timer runs (0 with
    no timer or once the game is over); ``end`` is None while the game goes on.
    """

    strike_limit: int
    time_left: float | None
    rate: float
    end: GameEnd | None


@dataclass(frozen=True, slots=True)
class Clicked:
    """A click was made: the module's answer (its log lines included)."""

    result: Result


@dataclass(frozen=True, slots=True)
class Ended:
    """The game ended: solved, or the bomb exploded (strikes or timer)."""

    end: GameEnd


GameEvent = Clicked | Ended


class SavedGameError(DefuserError):
    """A game session's state that cannot be rebuilt: another version, a missing or
    malformed part, or clicks the module given does not replay to the same game."""


class _ReplayClock:
    """The clock of a replay: set to each replayed click's session-clock time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class GameSession:
    """One module on a bomb with a strike limit and an optional timer, click by click.

    The timer (``time_limit`` seconds) runs on the session's clock at :func:`timer_rate`
    of the strikes so far; :meth:`tick` ends the game when it has run out (a front end
    that waits calls it by :meth:`deadline`), and a click that comes after that is not
    made.
    """

    def __init__(
        self,
        module: Module,
        *,
        clicker: Clicker | None = None,
        strike_limit: int = STRIKE_LIMIT,
        clock: Clock = time.monotonic,
        time_limit: float | None = None,
    ) -> None:
        """Start the game now, on ``clock``.

        ``clicker`` makes the clicks (the module itself when not given);
        ``strike_limit`` 0 means the bomb never explodes;
        ``time_limit`` starts the bomb timer with that many seconds (None: no timer).
        """
        if strike_limit < 0:
            raise DefuserError(f"strike limit {strike_limit} is negative, expected 0 or more")
        if time_limit is not None and not time_limit > 0:
            raise DefuserError(f"time limit {time_limit} is not positive, expected seconds > 0")
        self.module = module
        self.clicker: Clicker = module if clicker is None else clicker
        self.strike_limit = strike_limit
        self.clock = clock
        self.started = clock()
        self.clicks = 0
        #: Every click made: its action and its time in seconds since the start.
        self.history: list[tuple[Action, float]] = []
        self.end: GameEnd | None = None
        self.time_limit = time_limit
        #: The timer: seconds left at clock time ``_time_at``, running at ``_rate``.
        self._time_left = time_limit
        self._time_at = self.started
        self._rate = timer_rate(0)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
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

    def deadline(self) -> float | None:
        """The clock time at which the timer runs out at its present rate (None: no
        timer, or the game is over)."""
        left = self.time_left()
        if left is None or self.end is not None:
            return None
        return self.clock() + left / self._rate

    def bomb(self) -> BombState:
        """The bomb now, as a display shows it."""
        return BombState(self.strike_limit, self.time_left(), self.rate, self.end)

    def tick(self) -> list[GameEvent]:
        """End the game when the timer has run out: ``[Ended(TIMED_OUT)]``, else ``[]``."""
        if self.end is None and self.time_left() == 0.0:
            return self._finish(GameEnd.TIMED_OUT)
        return []

    def click(self, action: Action) -> list[GameEvent]:
        """Make one click through the clicker: ``[Clicked]``, then ``Ended`` when it
        ended the game. A click after the timer ran out is not made: ``[Ended]`` alone.
        Clicking once the game is over is misuse (:class:`MisuseError`)."""
        timed_out = self.tick()
        if timed_out:
            return timed_out
        if self.end is not None:
            raise MisuseError(f"the game is over ({self.end.value}), expected no more clicks")
        result = self.clicker.act(action)
        self.clicks += 1
        self.history.append((action, self.elapsed()))
        events: list[GameEvent] = [Clicked(result)]
        if self._time_left is not None:
            # The time left so far ran at the old rate; a strike speeds up what follows.
            self._time_left = self.time_left()
            self._time_at = self.clock()
            self._rate = timer_rate(self.module.strikes)
        end = self._end_now()
        if end is not None:
            events += self._finish(end)
        return events

    def _end_now(self) -> GameEnd | None:
        # The one place that decides whether the module's state ends the game.
        if self.module.solved:
            return GameEnd.SOLVED
        if self.strike_limit and self.module.strikes >= self.strike_limit:
            return GameEnd.EXPLODED
        return None

    def _finish(self, end: GameEnd) -> list[GameEvent]:
        """End the game, freezing the timer."""
        self._time_left = self.time_left()
        self.end = end
        return [Ended(end)]

    def state(self) -> dict[str, Any]:
        """The game as JSON-ready values: the bomb, the clicks and the visible module,
        with what :meth:`from_state` rebuilds it from (the version of this shape, the
        module's seed, and each click with its time in seconds since the start)."""
        return {
            "version": GAME_STATE_VERSION,
            "seed": self.module.seed,
            "history": [[str(action), at] for action, at in self.history],
            "strike_limit": self.strike_limit,
            "time_limit": self.time_limit,
            "time_left": self.time_left(),
            "rate": self.rate,
            "clicks": self.clicks,
            "seconds": self.elapsed(),
            "end": None if self.end is None else self.end.value,
            "module": visible_state(self.module),
        }

    @classmethod
    def from_state(
        cls,
        state: dict[str, Any],
        module: Module,
        *,
        clock: Clock,
        clicker: Clicker | None = None,
    ) -> GameSession:
        """The game :meth:`state` describes, on ``module``: a module nobody has clicked,
        rebuilt the way the saved game's was (same rules, interval and seed; ``mittens
        play`` gives it ``Module.from_edgework`` with the state's ``seed``).

        ``clicker`` (the module itself when not given) makes every saved click again at
        its saved time. The game goes
        on from where it was saved: on ``clock``, :meth:`elapsed` is the state's
        ``seconds`` now, and the timer runs on from its time left. Raises
        :class:`SavedGameError` for a state of another version or shape, or one whose
        clicks do not replay on ``module`` to the saved game; a module already clicked
        is misuse (:class:`MisuseError`).
        """
        if not isinstance(state, dict) or state.get("version") != GAME_STATE_VERSION:
            raise SavedGameError(f"game state is not version {GAME_STATE_VERSION} of a "
                                 "game session's state")
        if module.clicks or module.solved or module.strikes:
            raise MisuseError(f"module has {module.clicks} clicks, expected a new module "
                              "to replay a saved game on")
        try:
            session = cls._replayed(state, module, clicker)
        except SavedGameError:
            raise
        except (KeyError, TypeError, ValueError, DefuserError) as exc:
            raise SavedGameError(f"game state is incomplete or malformed ({exc!r})") from exc
        # The replay ran on session time from 0; the game goes on from now on ``clock``.
        offset = clock() - session.clock()
        session.clock = clock
        session.started += offset
        session._time_at += offset
        return session

    @classmethod
    def _replayed(
        cls, state: dict[str, Any], module: Module, clicker: Clicker | None
    ) -> GameSession:
        """The saved game replayed on ``module``, on a replay clock at the saved time."""
        if state["seed"] != module.seed:
            raise SavedGameError(f"game state is of seed {state['seed']}, expected the "
                                 f"module's seed {module.seed}")
        replay = _ReplayClock()
        time_limit = state["time_limit"]
        session = cls(module, clicker=clicker, strike_limit=int(state["strike_limit"]),
                      clock=replay, time_limit=None if time_limit is None else float(time_limit))
        for action, at in state["history"]:
            replay.now = float(at)
            if session.over:
                raise SavedGameError("game state has clicks after the game ended")
            session.click(Action.parse(action))
        replay.now = float(state["seconds"])
        if state["end"] == GameEnd.TIMED_OUT.value:
            session.tick()
        end = None if session.end is None else session.end.value
        found = (session.clicks, end, visible_state(module))
        if found != (state["clicks"], state["end"], state["module"]):
            raise SavedGameError(f"game state's clicks replay to {found}, expected "
                                 f"{(state['clicks'], state['end'], state['module'])}")
        return session


# ---------------------------------------------------------------------- JSON shapes


def visible_state(module: Module) -> dict[str, Any]:
    """What the player can see of the module, as JSON-ready values."""
    return {
        "discard": module.discard_top.code,
        "hand": [c.code for c in module.hand],
        "rule": module.rule,
        "strikes": module.strikes,
        "deals": module.deals,
        "solved": module.solved,
    }


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
