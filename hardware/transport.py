"""Byte transport to the prop: pyserial ports opened by URL, and port discovery.

Every port name pyserial understands works: ``/dev/ttyACM0``, ``COM3``,
``/dev/serial/by-id/...``, ``socket://host:port``, ``rfc2217://host:port``,
``spy:///dev/ttyACM0``, ``hwgrep://2341:0043``, ``loop://``, and the project's own
``propsim://`` (the simulated prop, registered here through pyserial's
``protocol_handler_packages``). :class:`Link` turns pyserial's many exceptions into one
:class:`~hardware.errors.LinkError` (a fault), except a port URL that cannot be read
(an unknown scheme, a malformed URL, a ``propsim://`` option): that is bad input, a
:class:`~hardware.errors.PortURLError`. Discovery reads ``serial.tools.list_ports`` and
matches a board by its USB identity (vendor id, product id, serial number), so a prop
that comes back under another name is found again.
"""

from __future__ import annotations

import contextlib
import os
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Protocol

import serial
import serial.tools.list_ports

from edgework.errors import MittensError
from hardware.errors import LinkError, PortNotFoundError, PortURLError

#: The protocol's line speed (8N1, no flow control).
BAUDRATE: Final = 115200
#: How long one read waits for bytes; bounds how fast the reader thread notices a close.
READ_TIMEOUT: Final = 0.05

#: USB vendor (and, where it matters, product) ids of boards a prop is likely built on.
KNOWN_BOARDS: Final[dict[tuple[int, int | None], str]] = {
    (0x2341, None): "Arduino",
    (0x2A03, None): "Arduino (arduino.org)",
    (0x1A86, 0x7523): "CH340 USB serial (Nano clones)",
    (0x0403, 0x6001): "FTDI FT232R USB serial",
    (0x10C4, 0xEA60): "CP210x USB serial",
}


def _port_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [serial.SerialException, OSError]
    try:
        import termios
    except ImportError:  # not on Windows
        pass
    else:
        # pyserial lets termios.error (not an OSError) escape from flush() on a dead tty.
        errors.append(termios.error)
    # A port whose device vanished mid-call can leave pyserial with fd None.
    errors += [AttributeError, TypeError]
    return tuple(errors)


#: Everything pyserial raises when a port goes away underneath it.
PORT_ERRORS: Final = _port_errors()


class Port(Protocol):
    """What a :class:`Link` needs of an open port: pyserial's ``SerialBase``, or a
    stand-in with the same calls (a simulated prop's, a test's)."""

    @property
    def in_waiting(self) -> int:
        """Bytes that have arrived and wait to be read."""

    def read(self, size: int, /) -> bytes:
        """At most ``size`` bytes, waiting up to the port's read timeout for the first."""

    def write(self, data: bytes, /) -> int | None:
        """Send ``data``."""

    def flush(self) -> None:
        """Wait until everything written is sent."""

    def reset_input_buffer(self) -> None:
        """Drop what has arrived and was not read."""

    def close(self) -> None:
        """Close the port."""


def register_url_schemes() -> None:
    """Make ``propsim://`` known to ``serial.serial_for_url`` (idempotent)."""
    if "hardware" not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append("hardware")


register_url_schemes()


def open_port(url: str, *, baudrate: int = BAUDRATE) -> serial.Serial:
    """Open ``url`` with the protocol's line settings; raise :class:`LinkError` when it
    fails, :class:`PortURLError` when ``url`` cannot be read (pyserial's ``ValueError``).

    Returns pyserial's port object (whichever URL handler made it, a :class:`Port`).
    """
    try:
        return serial.serial_for_url(
            url,
            baudrate=baudrate,
            bytesize=serial.EIGHTBITS,
            parity=serial.PARITY_NONE,
            stopbits=serial.STOPBITS_ONE,
            timeout=READ_TIMEOUT,
            write_timeout=2.0,
        )
    except (PortURLError, ValueError) as exc:
        if isinstance(exc, MittensError) and not isinstance(exc, PortURLError):
            raise  # a misuse, a bug: never worded as a port that would not open
        raise PortURLError(f"cannot open port {url!r}: {exc}") from exc
    except PORT_ERRORS as exc:
        raise LinkError(f"cannot open port {url!r}: {_open_reason(exc)}") from exc


def _open_reason(exc: BaseException) -> str:
    """Why a port did not open, once: pyserial's message repeats the path and the OS
    error ("could not open port X: [Errno 2] No such file or directory: 'X'")."""
    for error in (exc, exc.__cause__, exc.__context__):
        errno = getattr(error, "errno", None)
        if isinstance(errno, int) and errno > 0:
            return os.strerror(errno)
    return str(exc)


class Link:
    """One open port: write bytes, read what has arrived, close; errors are LinkError."""

    def __init__(self, url: str, port: Port) -> None:
        self.url = url
        self._port = port

    @classmethod
    def open(cls, url: str, opener: Callable[[str], Port] = open_port) -> Link:
        """Open ``url`` and drop whatever was waiting in its buffers.

        A port that knows a more exact name for itself (``resolved_url``, as a new
        simulated prop does) gives the link that name, so it can be opened again.
        """
        port = opener(url)
        resolved = getattr(port, "resolved_url", None)
        link = cls(resolved if isinstance(resolved, str) else url, port)
        try:
            port.reset_input_buffer()
        except PORT_ERRORS as exc:
            link.close()
            raise LinkError(f"port {url!r} failed right after opening: {exc}") from exc
        return link

    def write(self, data: bytes) -> None:
        """Send ``data`` completely."""
        try:
            self._port.write(data)
            self._port.flush()
        except PORT_ERRORS as exc:
            raise LinkError(f"writing to {self.url!r} failed: {exc}") from exc

    def read(self) -> bytes:
        """What has arrived, waiting at most :data:`READ_TIMEOUT` for the first byte."""
        try:
            waiting = self._port.in_waiting
            return bytes(self._port.read(max(1, min(waiting, 4096))))
        except PORT_ERRORS as exc:
            raise LinkError(f"reading from {self.url!r} failed: {exc}") from exc

    def close(self) -> None:
        """Close the port; never raises."""
        # Closing a port whose device vanished can fail; it is closed either way.
        with contextlib.suppress(*PORT_ERRORS):
            self._port.close()


@dataclass(frozen=True, slots=True)
class PortInfo:
    """What the system says about one serial port."""

    device: str
    description: str = ""
    hwid: str = ""
    vid: int | None = None
    pid: int | None = None
    serial_number: str | None = None
    manufacturer: str | None = None
    product: str | None = None

    @property
    def board(self) -> str | None:
        """The kind of board this USB identity suggests, or None when unknown."""
        if self.vid is None:
            return None
        return KNOWN_BOARDS.get((self.vid, self.pid)) or KNOWN_BOARDS.get((self.vid, None))

    @property
    def identity(self) -> UsbIdentity | None:
        """The port's USB identity, or None for ports that are not USB."""
        if self.vid is None or self.pid is None:
            return None
        return UsbIdentity(self.vid, self.pid, self.serial_number)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready view."""
        return {
            "device": self.device,
            "description": self.description,
            "hwid": self.hwid,
            "vid": None if self.vid is None else f"{self.vid:04X}",
            "pid": None if self.pid is None else f"{self.pid:04X}",
            "serial_number": self.serial_number,
            "manufacturer": self.manufacturer,
            "product": self.product,
            "board": self.board,
        }


@dataclass(frozen=True, slots=True)
class UsbIdentity:
    """A USB device's vendor id, product id and (when it has one) serial number."""

    vid: int
    pid: int
    serial_number: str | None = None

    def matches(self, port: PortInfo) -> bool:
        """True when ``port`` is this device (the serial number must agree when known)."""
        if port.vid != self.vid or port.pid != self.pid:
            return False
        return self.serial_number is None or port.serial_number == self.serial_number

    def __str__(self) -> str:
        text = f"USB {self.vid:04X}:{self.pid:04X}"
        return text if self.serial_number is None else f"{text} serial {self.serial_number}"


PortLister = Callable[[], list[PortInfo]]


def system_ports() -> list[PortInfo]:
    """The serial ports the operating system lists, sorted by name."""
    return [
        PortInfo(
            device=info.device,
            description=info.description or "",
            hwid=info.hwid or "",
            vid=info.vid,
            pid=info.pid,
            serial_number=info.serial_number,
            manufacturer=info.manufacturer,
            product=info.product,
        )
        for info in sorted(serial.tools.list_ports.comports())
    ]


def _same_port(url: str, device: str) -> bool:
    if "://" in url or "://" in device:
        return urllib.parse.urlsplit(url)[:3] == urllib.parse.urlsplit(device)[:3]
    return os.path.realpath(url) == os.path.realpath(device)


def identity_of(url: str, ports: Iterable[PortInfo]) -> UsbIdentity | None:
    """The USB identity of the port ``url`` names (following symlinks), if listed."""
    for port in ports:
        if _same_port(url, port.device):
            return port.identity
    return None


def find_ports(identity: UsbIdentity, ports: Iterable[PortInfo]) -> list[str]:
    """The names of the listed ports that are the device ``identity``."""
    return [port.device for port in ports if identity.matches(port)]


def candidate_ports(ports: Iterable[PortInfo]) -> list[PortInfo]:
    """Ports that could be a prop: USB serial ports, known boards first."""
    usb = [port for port in ports if port.vid is not None]
    return sorted(usb, key=lambda port: (port.board is None, port.device))


def discover(ports: Iterable[PortInfo]) -> str:
    """The one port that looks like a prop; raise :class:`PortNotFoundError` otherwise."""
    candidates = candidate_ports(ports)
    known = [port for port in candidates if port.board is not None]
    pool = known or candidates
    if len(pool) == 1:
        return pool[0].device
    if not pool:
        raise PortNotFoundError("no USB serial port found")
    names = tuple(port.device for port in pool)
    raise PortNotFoundError(
        f"several ports could be the prop ({', '.join(names)})", candidates=names
    )
