"""pyserial URL handler for ``propsim://``: a port whose other end is a simulated prop.

pyserial finds this module through ``serial.protocol_handler_packages`` (the
``hardware`` package is added there by :mod:`hardware.transport`), so
``serial.serial_for_url("propsim://NAME?OPTIONS")`` returns a :class:`Serial` wired to
the :class:`~hardware.propsim.twin.PropSim` of that name (see :func:`hardware.propsim.url.open_url`
for the options). Reads honour the port timeout; an unplugged prop makes every call
raise ``SerialException`` as a vanished USB device does.
"""

from __future__ import annotations

from serial import PortNotOpenError, SerialBase, SerialException

from hardware.propsim.registry import url_of
from hardware.propsim.script import SimError
from hardware.propsim.twin import PropSim
from hardware.propsim.url import open_url


class Serial(SerialBase):
    """A serial port connected to a simulated prop."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._sim: PropSim | None = None
        self._generation = -1
        #: The URL naming this very prop (``propsim://?...`` creates ``propsim://sim-N``).
        self.resolved_url: str | None = None
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def open(self) -> None:
        """Attach to the simulated prop named by the URL (a reset when it resets on open)."""
        if self.is_open:
            raise SerialException("Port is already open.")
        if self.port is None:
            raise SerialException("Port must be configured before it can be used.")
        try:
            sim = open_url(str(self.port))
            self._generation = sim.attach()
        except SimError as exc:
            raise SerialException(str(exc)) from exc
        self._sim = sim
        self.resolved_url = url_of(sim)
        self.is_open = True

    def close(self) -> None:
        """Detach; the simulated prop lives on in the registry."""
        self.is_open = False
        self._sim = None

    def _reconfigure_port(self, force_update: bool = False) -> None:
        """Line settings mean nothing to a simulated prop."""

    def _live(self) -> PropSim:
        if not self.is_open or self._sim is None:
            raise PortNotOpenError()
        return self._sim

    @property
    def in_waiting(self) -> int:
        """Bytes waiting to be read."""
        try:
            return self._live().pending(self._generation)
        except SimError as exc:
            raise SerialException(str(exc)) from exc

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes, waiting at most the port timeout for the first."""
        try:
            return self._live().read(size, self.timeout, self._generation)
        except SimError as exc:
            raise SerialException(str(exc)) from exc

    def write(self, data: bytes) -> int:  # type: ignore[override]
        """Hand ``data`` to the simulated prop, which answers at once."""
        sim = self._live()
        try:
            sim.check_alive(self._generation)
            sim.receive(bytes(data))
        except SimError as exc:
            raise SerialException(str(exc)) from exc
        return len(data)

    def flush(self) -> None:
        """Nothing is buffered on the way out."""

    def reset_input_buffer(self) -> None:
        """Drop what the prop sent that was not read yet."""
        self._live().discard_output()

    def reset_output_buffer(self) -> None:
        """Nothing is buffered on the way out."""

    def _update_dtr_state(self) -> None:
        """No modem lines."""

    def _update_rts_state(self) -> None:
        """No modem lines."""

    def _update_break_state(self) -> None:
        """No break condition."""
