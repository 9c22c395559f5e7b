"""hardware.propsim.checking: the conformance checker's hands and clock on a simulated prop."""

from __future__ import annotations

from prop_helpers import unique_name

from hardware.framing import LineFramer
from hardware.propsim.checking import SimActor, SimClock
from hardware.propsim.twin import PropSim
from hardware.protocol import Boot, Button, ButtonPressed, decode_device


def sent(sim: PropSim) -> list[object]:
    """What the prop sent since the last look, decoded (bad lines left out)."""
    lines = LineFramer().feed(sim.take_output())
    return [decode_device(line) for line in lines if isinstance(line, str)]


def test_the_actor_presses_and_resets_the_prop() -> None:
    sim = PropSim(unique_name("actor"))
    actor = SimActor(sim)
    assert sent(sim) == [Boot(2)]
    actor.press(Button.PILE)
    [event] = sent(sim)
    assert isinstance(event, ButtonPressed) and event.button is Button.PILE
    assert [p.button for p in sim.presses] == [Button.PILE]
    actor.reset()
    assert sent(sim) == [Boot(2)] and sim.seq == 0


def test_the_clock_skips_to_a_deadline_only_while_the_prop_has_nothing_to_send() -> None:
    sim = PropSim(unique_name("clock"))  # its BOOT line waits for the host
    clock = SimClock(sim)
    assert clock.now() == 0.0
    assert not clock.idle_until(5.0) and clock.now() == 0.0
    sim.discard_output()
    assert clock.idle_until(5.0) and clock.now() == 5.0
    assert clock.idle_until(3.0) and clock.now() == 5.0  # time never goes back
    clock.sleep(0.5)
    clock.sleep(-2.0)
    assert clock.now() == 5.5
