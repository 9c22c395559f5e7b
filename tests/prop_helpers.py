"""Shared pieces for the prop tests: fast timing, a reference replay, consistency checks.

The checks take a :class:`~hardware.bridge.Bridge` and the list of buttons the prop
really pressed, so the same checks serve the simulated prop and the firmware in simavr.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from defuser.engine.simulator import Module
from edgework import Edgework
from hardware.bridge import Bridge, action_for, display_commands
from hardware.device import Device, Notice, Timing
from hardware.display import DisplayState
from hardware.propsim import registry
from hardware.propsim.script import ScriptStep
from hardware.propsim.twin import Faults, PropSim
from hardware.protocol import Button

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


def make_device(
    url: str,
    notices: list[Notice] | None = None,
    trace: list[str] | None = None,
    *,
    timing: Timing = FAST,
    session_seed: int | None = None,
) -> Device:
    """A Device with test timing that records notices and trace lines."""

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
    )


def replay(edgework: Edgework, seed: int, buttons: Sequence[Button]) -> Module:
    """A fresh module with the same seed, clicked through the same buttons."""
    module = Module.from_edgework(edgework, seed)
    for button in buttons:
        module.act(action_for(button))
    return module


def assert_consistent(bridge: Bridge, seed: int, pressed: Sequence[Button]) -> None:
    """Nothing lost, nothing doubled, game state intact.

    Every press the prop made was applied once, in order; the host's module equals a
    replay of those presses; the prop's display state equals the module's.
    """
    applied = [step.press.button for step in bridge.steps]
    assert applied == list(pressed)
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
    """The display state the device holds is the module's full state."""
    assert shown.commands() == display_commands(bridge.module, bridge.edgework)


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
