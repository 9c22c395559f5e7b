"""The conformance checker's hands and clock for a simulated prop in this process.

:class:`SimActor` presses and resets it; :class:`SimClock` knows when it has nothing
more to send, so the checker's waits end at once (see :mod:`hardware.conformance`).
"""

from __future__ import annotations

from hardware.propsim.twin import PropSim
from hardware.protocol import Button


class SimActor:
    """Presses and resets a simulated prop for the conformance checker."""

    def __init__(self, sim: PropSim) -> None:
        self.sim = sim

    def press(self, button: Button) -> None:
        """Press ``button`` on the simulated prop."""
        self.sim.press(button)

    def reset(self) -> None:
        """Restart the simulated prop (it sends BOOT)."""
        self.sim.restart()


class SimClock:
    """Emulated time for a simulated prop in this process: the conformance checker's
    clock, and the clock of ``mittens prop`` on a scripted simulated prop (its presses
    come from the script, never from the wall clock).

    The simulated prop answers at once, so when nothing waits for the host it will send
    nothing more until it hears more or a button is pressed: a wait then ends at its
    deadline at once, and time moves on to it (:meth:`idle_until`, a
    :class:`~hardware.device.Device`'s ``idle``); :meth:`sleep` moves it on by itself.
    """

    def __init__(self, sim: PropSim) -> None:
        self.sim = sim
        self._now = 0.0

    def now(self) -> float:
        """Seconds of checker time so far."""
        return self._now

    def idle_until(self, deadline: float) -> bool:
        """True (time moves on to ``deadline``) when the prop has nothing waiting."""
        if self.sim.has_output():
            return False
        self._now = max(self._now, deadline)
        return True

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self._now += max(0.0, seconds)
