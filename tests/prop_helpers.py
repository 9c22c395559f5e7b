"""Shared pieces for the prop tests: fast timing, simulated time, a fake prop and a fake
clock, a game on the prop, a reference replay, consistency checks.

The checks take a :class:`~hardware.bridge.Bridge` and the list of buttons the prop
really pressed, so the same checks serve the simulated prop and the firmware in simavr.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from defuser.engine.game import Clock, GameSession
from defuser.engine.simulator import Module
from edgework import Edgework
from hardware.bridge import Bridge, Prop, action_for, display_commands
from hardware.device import Device
from hardware.display import DisplayState
from hardware.game import PlayedProp, Pressed, PropGame
from hardware.propsim import registry
from hardware.propsim.script import ScriptStep
from hardware.propsim.twin import Faults, PropSim
from hardware.protocol import Button, ButtonPressed, Cue, DisplayCommand
from hardware.session import Notice, Timing
from hardware.transport import READ_TIMEOUT, open_port

#: Timeouts short enough for tests, long enough for a loaded 2-core machine.
FAST = Timing(
    reply_timeout=0.25,
    attempts=4,
    heartbeat=0.05,
    handshake_timeout=2.0,
    reconnect_interval=0.02,
    reconnect_timeout=5.0,
)


def unique_name(prefix: str = "t") -> str:
    """A registry name no other test uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@contextmanager
def simulated_prop(
    script: Sequence[ScriptStep] = (), faults: Faults | None = None
) -> Iterator[PropSim]:
    """A registered simulated prop, unplugged afterwards (whatever name it ends with)."""
    sim = registry.create(unique_name(), script=script, faults=faults)
    try:
        yield sim
    finally:
        unplug_sim(sim.name)


def unplug_sim(name: str) -> None:
    """Unplug the simulated prop called ``name``, if any: discovery no longer lists it."""
    sim = registry.lookup(name)
    if sim is not None:
        sim.unplug()


def plug_in_elsewhere(sim: PropSim, name: str) -> PropSim:
    """``sim``'s board plugged in again under the device name ``name``, as the host sees
    it: a twin with the same USB serial number, faults and protocol version, powered up
    afresh (``sim`` itself stays unplugged)."""
    return registry.create(
        name, faults=sim.faults, usb_serial=sim.usb_serial, max_version=sim.max_version
    )


class SimTime:
    """Time for a :class:`Device` talking to a simulated prop in this process.

    The simulated prop answers at once, so time passes only while the host waits: a read
    that finds nothing waiting moves the clock on by the port's read timeout (what a real
    port would have waited) instead of waiting, and so does sleeping. No test waits on
    the wall clock, and the timeouts, heartbeats and retries are the configured ones.
    """

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        """Seconds of simulated time so far."""
        return self.now

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass at once."""
        self.now += max(0.0, seconds)

    def opener(self, url: str) -> TimedPort:
        """Open ``url`` as the Device would, reads on this clock."""
        return TimedPort(open_port(url), self)


class TimedPort:
    """A port whose empty reads take simulated time (see :class:`SimTime`)."""

    def __init__(self, port: Any, time: SimTime) -> None:
        self._port = port
        self._time = time
        self.resolved_url = getattr(port, "resolved_url", None)

    @property
    def in_waiting(self) -> int:
        """Bytes waiting to be read."""
        return int(self._port.in_waiting)

    def read(self, size: int = 1) -> bytes:
        """What is waiting (up to ``size``), or nothing after the read timeout."""
        if not self._port.in_waiting:
            self._time.sleep(READ_TIMEOUT)
            return b""
        return bytes(self._port.read(size))

    def write(self, data: bytes) -> int:
        """Hand ``data`` to the prop."""
        return int(self._port.write(data))

    def flush(self) -> None:
        """Nothing is buffered."""
        self._port.flush()

    def reset_input_buffer(self) -> None:
        """Drop what was not read yet."""
        self._port.reset_input_buffer()

    def close(self) -> None:
        """Close the port."""
        self._port.close()


def make_device(
    url: str,
    notices: list[Notice] | None = None,
    trace: list[str] | None = None,
    *,
    timing: Timing = FAST,
    session_seed: int | None = None,
    time: SimTime | None = None,
) -> Device:
    """A Device with test timing that records notices and trace lines, on simulated time
    (its own :class:`SimTime` unless ``time`` is given)."""

    time = time or SimTime()

    def record(direction: str, text: str) -> None:
        if trace is not None:
            trace.append(f"{direction} {text}")

    return Device(
        url,
        timing=timing,
        lister=registry.sim_ports,
        on_notice=None if notices is None else notices.append,
        trace=record,
        session_seed=session_seed,
        opener=time.opener,
        clock=time.clock,
        sleep=time.sleep,
    )


class FakeClock:
    """A clock that stands still until a test moves ``now``."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeProp:
    """Records what it is told, in order (``wire``); hands out prepared presses. A wait
    for a press that finds none moves ``clock`` (when given) on by its timeout."""

    def __init__(self, presses: Sequence[ButtonPressed] = (), clock: FakeClock | None = None
                 ) -> None:
        self.presses = list(presses)
        self.clock = clock
        self.sent: list[DisplayCommand] = []
        self.acked: list[int] = []
        self.sounds: list[Cue] = []
        self.wire: list[str] = []
        self.waits: list[float | None] = []
        self.synced: list[float | None] = []

    def post(self, command: DisplayCommand) -> None:
        self.sent.append(command)
        self.wire.append(type(command).WORD)

    def sound(self, cue: Cue) -> None:
        self.sounds.append(cue)
        self.wire.append(f"SOUND {cue.value}")

    def ack(self, press: ButtonPressed) -> None:
        self.acked.append(press.seq)
        self.wire.append(f"ACK {press.seq}")

    def sync(self, timeout: float | None = None) -> bool:
        self.synced.append(timeout)
        return True

    def next_press(self, timeout: float | None) -> ButtonPressed | None:
        self.waits.append(timeout)
        if self.presses:
            return self.presses.pop(0)
        if self.clock is not None and timeout is not None:
            self.clock.now += timeout
        return None

    def display_state(self) -> DisplayState:
        return DisplayState.of(self.sent)


def prop_game(
    module: Module,
    edgework: Edgework,
    prop: PlayedProp,
    *,
    strike_limit: int = 0,
    clock: Clock = lambda: 0.0,
    time_limit: float | None = None,
    settle: float = 1.0,
) -> PropGame:
    """``module`` played on ``prop`` (no strike limit unless given)."""
    session = GameSession(module, strike_limit=strike_limit, clock=clock, time_limit=time_limit)
    return PropGame(session, Bridge(module, edgework, prop), prop, settle=settle)


def next_pressed(game: PropGame, prop: Prop | None = None, attempts: int = 10) -> Pressed:
    """Step ``game`` until a press of the prop is played (at most ``attempts`` waits);
    that press, after ``prop`` (when given) shows what it did."""
    for _ in range(attempts):
        for event in game.step():
            if isinstance(event, Pressed):
                if prop is not None:
                    assert prop.sync(5.0), "the display never reached the prop"
                return event
    raise AssertionError("a press never reached the host")


def replay(edgework: Edgework, seed: int, buttons: Sequence[Button]) -> Module:
    """A fresh module with the same seed, clicked through the same buttons."""
    module = Module.from_edgework(edgework, seed)
    for button in buttons:
        module.act(action_for(button))
    return module


def assert_consistent(
    bridge: Bridge, seed: int, pressed: Sequence[Button], applied: Sequence[Button]
) -> None:
    """Nothing lost, nothing doubled, game state intact.

    Every press the prop made was ``applied`` once, in order; the host's module equals a
    replay of those presses; the prop's display state equals the module's.
    """
    assert list(applied) == list(pressed)
    reference = replay(bridge.edgework, seed, pressed)
    module = bridge.module
    assert module.discard_top == reference.discard_top
    assert module.hand == reference.hand
    assert (module.strikes, module.solved, module.deals) == (
        reference.strikes,
        reference.solved,
        reference.deals,
    )
    assert module.log == reference.log


def assert_display(shown: DisplayState, bridge: Bridge) -> None:
    """The display state the device holds is the module's and the bomb's full state."""
    assert shown.commands() == display_commands(bridge.module, bridge.edgework, bridge.bomb)


def sim_shows(sim: PropSim, bridge: Bridge) -> bool:
    """True when the simulated prop's display equals the module's state."""
    module, edge = bridge.module, bridge.edgework
    shown = sim.display.state
    padded = [*module.hand, None, None, None][:3]
    batteries = edge.batteries.count if edge.batteries else 0
    holders = edge.batteries.holders if edge.batteries else None
    return (
        sim.display.shown
        and shown.serial == str(edge.serial)
        and (shown.batteries, shown.holders) == (batteries, holders)
        and shown.top == module.discard_top
        and list(shown.hand) == padded
        and shown.strikes == module.strikes
        and shown.solved == module.solved
    )
