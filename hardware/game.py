"""One game on the prop: the game session played with the prop's presses and shown on it.

Contract: a :class:`PropGame` is the game loop of ``mittens prop``, below every front end.
It joins three parts that each keep one job: the engine's
:class:`~defuser.engine.game.GameSession` (the module on its bomb: the strike limit, the
timer on the session's injected clock, the end), the :class:`~hardware.bridge.Bridge`
(which click a button is; what the module and the bomb look like on the display) and the
prop (a :class:`~hardware.device.Device`, or a fake in tests). A press goes in as the
click it stands for (:meth:`GameSession.click`); the bridge then posts what the click
changed, acknowledges the press, and posts the bomb's change with its sound when the
click struck or ended the game. The loop waits for each press at most :data:`POLL`
seconds, and no longer than the bomb's time left (plus :data:`PAST_TIME`, so that the
:meth:`GameSession.tick` after it finds the time run out); a simulated prop whose script
has made all its presses (``script_done``) ends it. Between presses a person watches it
at ``pace`` through the injected ``sleep``.

Out come typed events (:class:`PropStarted`, :class:`Pressed` with the press, the module's
answer, every display command it caused and the display, :class:`Over`,
:class:`ScriptRanOut`); :meth:`PropGame.state` is JSON. It prints and writes nothing: a
front end renders the events, and why it stopped before the end (Ctrl-C, a lost link) is
the front end's. The prop is connected by its owner before the game starts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Protocol

from defuser.engine.game import Clicked, GameEnd, GameSession, click_fields
from defuser.engine.simulator import Outcome, Result
from edgework.errors import MisuseError
from hardware.bridge import Bridge, Prop, action_for
from hardware.display import DisplayState
from hardware.protocol import ButtonPressed, DisplayCommand

#: Seconds a wait for a press lasts at most: without a timer the loop still looks twice
#: a second whether a simulated prop's script ran out.
POLL: Final = 0.5
#: Seconds a wait goes past the bomb's time left, so the tick after it finds it run out.
PAST_TIME: Final = 0.01


class PlayedProp(Prop, Protocol):
    """What the game needs from a prop besides the bridge's needs: its presses and
    what it shows."""

    def next_press(self, timeout: float | None) -> ButtonPressed | None:
        """The next press, or None after ``timeout`` seconds."""

    def display_state(self) -> DisplayState:
        """The display state wanted (what the prop shows once it is synced)."""


@dataclass(frozen=True, slots=True)
class PropStarted:
    """The prop shows the whole game (edge, module, bomb): ``shown``."""

    shown: DisplayState


@dataclass(frozen=True, slots=True)
class Pressed:
    """A press was played: the module's answer, every display command it caused (the
    module's change, then the bomb's) in the order posted, and what the prop shows."""

    press: ButtonPressed
    result: Result
    sent: tuple[DisplayCommand, ...]
    shown: DisplayState

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON-ready values (``mittens prop --json``'s ``press``)."""
        return {
            "event": "press",
            "seq": self.press.seq,
            "button": self.press.button.value,
            **click_fields(self.result),
            "log": list(self.result.log),
            "sent": [type(c).WORD for c in self.sent],
            "prop": self.shown.as_json(),
        }


@dataclass(frozen=True, slots=True)
class Over:
    """The game ended (``end``), and the prop was given time to show it: ``shown``."""

    end: GameEnd
    shown: DisplayState


@dataclass(frozen=True, slots=True)
class ScriptRanOut:
    """A simulated prop has made every press of its script: no more will come."""


PropGameEvent = PropStarted | Pressed | Over | ScriptRanOut


class PropGame:
    """The game session ``game`` played on ``prop`` through ``bridge``.

    ``settle`` is how many seconds the prop is given to show the end; ``pace`` the
    seconds to wait after each press that did not end the game, on ``sleep``;
    ``script_done`` says whether a simulated prop has made all its scripted presses.
    """

    def __init__(
        self,
        game: GameSession,
        bridge: Bridge,
        prop: PlayedProp,
        *,
        settle: float,
        pace: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        script_done: Callable[[], bool] | None = None,
    ) -> None:
        self.game = game
        self.bridge = bridge
        self.prop = prop
        self.settle = settle
        self.pace = pace
        self.sleep = sleep
        self.script_done = script_done
        #: Presses played so far.
        self.presses = 0

    def play(self) -> Iterator[PropGameEvent]:
        """The whole game: :meth:`start`, then :meth:`step` until the game is over (then
        :meth:`over`) or the script ran out; each event as it happens, so a front end
        shows a press before the next wait, which may fail."""
        yield self.start()
        while self.game.end is None:
            events = self.step()
            yield from events
            if events and isinstance(events[-1], ScriptRanOut):
                return
            if events and self.pace and self.game.end is None:
                self.sleep(self.pace)
        yield self.over()

    def start(self) -> PropStarted:
        """Show the whole game on the prop and wait until it has it."""
        self.bridge.start(self.game.bomb())
        return PropStarted(self.prop.display_state())

    def timeout(self) -> float:
        """Seconds to wait for the next press: :data:`POLL` at most, and no longer than
        the bomb's time left (plus :data:`PAST_TIME`)."""
        left = self.game.time_left()
        return POLL if left is None else min(POLL, left + PAST_TIME)

    def step(self) -> list[PropGameEvent]:
        """Wait for one press (:meth:`timeout`) and play it: ``[Pressed]``, or ``[]``
        when it came after the time ran out. Without a press, run the timer: ``[]``, or
        ``[ScriptRanOut]`` when the script is done. The game may be over after it."""
        press = self.prop.next_press(self.timeout())
        if press is not None:
            return self.press(press)
        if self.game.tick():
            self.bridge.show_bomb(self.game.bomb(), struck=False)
            return []
        if self.script_done is not None and self.script_done():
            return [ScriptRanOut()]
        return []

    def press(self, press: ButtonPressed) -> list[PropGameEvent]:
        """Play one press the prop reported: ``[Pressed]``; ``[]`` for a press that came
        after the time ran out (taken, never made nor acknowledged)."""
        events = self.game.click(action_for(press.button))
        clicked = [event.result for event in events if isinstance(event, Clicked)]
        if not clicked:
            self.bridge.show_bomb(self.game.bomb(), struck=False)
            return []
        [result] = clicked
        self.presses += 1
        sent = self.bridge.show_click(press)
        ended = self.game.end is not None
        if ended or result.outcome is Outcome.STRIKE:
            sent += self.bridge.show_bomb(self.game.bomb(), struck=not ended)
        return [Pressed(press, result, sent, self.prop.display_state())]

    def over(self) -> Over:
        """The game is over: give the prop ``settle`` seconds to show the end."""
        end = self.game.end
        if end is None:
            raise MisuseError("the game is not over, expected its end before over()")
        self.prop.sync(self.settle)
        return Over(end, self.prop.display_state())

    def state(self) -> dict[str, Any]:
        """The game as JSON-ready values: the game session's state, the presses played
        and what the prop was told to show."""
        return {
            **self.game.state(),
            "presses": self.presses,
            "prop": self.bridge.shown.as_json(),
        }
