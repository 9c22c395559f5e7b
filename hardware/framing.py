"""Line framing for the prop protocol: bytes in, checked line bodies out. Pure; no I/O.

A line on the wire is ``<body>*<CRC>\\n``: strict printable ASCII, one terminator (LF),
at most :data:`MAX_LINE` bytes before the LF, and a CRC-16/XMODEM of the body as four
upper-case hex digits (``binascii.crc_hqx(body, 0)``, the same as avr-libc's
``_crc_xmodem_update`` from 0). :func:`seal` builds such a line, :func:`unseal` checks
one, and :class:`LineFramer` cuts a byte stream split anywhere into bodies and bad
lines. Every way a line can be bad is a :class:`BadLine`, never an exception, because
line noise is expected and only counted (docs/protocol.md, section 2).
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Final

from edgework.errors import MisuseError

#: The one line terminator.
TERMINATOR: Final = b"\n"
#: Longest line in bytes, not counting the terminator (body + ``*`` + 4 hex digits).
MAX_LINE: Final = 63
#: Longest body in bytes.
MAX_BODY: Final = MAX_LINE - 5
#: Separates the body from its checksum.
CRC_SEPARATOR: Final = "*"

_HEX_UPPER: Final = frozenset(b"0123456789ABCDEF")


def crc16(data: bytes) -> int:
    """CRC-16/XMODEM of ``data`` (polynomial 0x1021, start 0, no reflection)."""
    return binascii.crc_hqx(data, 0)


def is_body_text(body: str) -> bool:
    """True when ``body`` may be sent: 1..MAX_BODY printable ASCII bytes without ``*``."""
    return (
        0 < len(body) <= MAX_BODY
        and all(0x20 <= ord(ch) <= 0x7E for ch in body)
        and CRC_SEPARATOR not in body
    )


def seal(body: str) -> bytes:
    """The complete line for ``body``: body, ``*``, checksum, LF.

    Raises :class:`~edgework.errors.MisuseError` when the body could not travel (too
    long, empty, not printable ASCII, or containing ``*``): that is a bug in the caller.
    """
    if not is_body_text(body):
        raise MisuseError(
            f"line body {body!r} cannot be sent, expected 1-{MAX_BODY} printable ASCII "
            "characters without '*'"
        )
    data = body.encode("ascii")
    return data + b"*" + f"{crc16(data):04X}".encode("ascii") + TERMINATOR


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that was dropped, with why; ``raw`` is what arrived (at most MAX_LINE bytes)."""

    raw: bytes
    reason: str


def unseal(raw: bytes) -> str | BadLine:
    """Check one line (without its terminator) and return its body, or why it is bad."""
    if len(raw) > MAX_LINE:
        return BadLine(raw[:MAX_LINE], f"longer than {MAX_LINE} bytes")
    for byte in raw:
        if not 0x20 <= byte <= 0x7E:
            return BadLine(raw, f"byte 0x{byte:02X} is not printable ASCII")
    if raw.count(b"*") != 1:
        return BadLine(raw, "needs exactly one '*' before the checksum")
    data, _, crc_text = raw.partition(b"*")
    if len(crc_text) != 4 or not set(crc_text) <= _HEX_UPPER:
        return BadLine(raw, "checksum is not 4 upper-case hex digits")
    if not data:
        return BadLine(raw, "empty body")
    expected = crc16(data)
    if int(crc_text, 16) != expected:
        return BadLine(raw, f"checksum {crc_text.decode()} does not match {expected:04X}")
    return data.decode("ascii")


class LineFramer:
    """Cuts a byte stream into line bodies and bad lines; bounded memory.

    Feed it bytes in chunks of any size. A line longer than :data:`MAX_LINE` is dropped
    up to its terminator and reported once. Empty lines are ignored (the protocol uses a
    lone LF to end any partial line left from before).
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False
        #: How many bad lines this framer has dropped.
        self.bad_lines = 0

    def feed(self, data: bytes) -> list[str | BadLine]:
        """Take ``data``; return the complete lines it finished, in order."""
        out: list[str | BadLine] = []
        start = 0
        while start < len(data):
            end = data.find(TERMINATOR, start)
            chunk = data[start:] if end < 0 else data[start:end]
            if not self._overlong:
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE:
                    self._overlong = True
                    del self._buffer[MAX_LINE:]
            if end < 0:
                break
            start = end + 1
            out.extend(self._finish())
        return out

    def _finish(self) -> list[str | BadLine]:
        raw = bytes(self._buffer)
        overlong = self._overlong
        self._buffer.clear()
        self._overlong = False
        if overlong:
            self.bad_lines += 1
            return [BadLine(raw, f"longer than {MAX_LINE} bytes")]
        if not raw:
            return []
        result = unseal(raw)
        if isinstance(result, BadLine):
            self.bad_lines += 1
        return [result]

    def reset(self) -> None:
        """Forget any partial line (after the port was reopened)."""
        self._buffer.clear()
        self._overlong = False

    @property
    def pending(self) -> int:
        """Bytes held of a line not yet terminated."""
        return len(self._buffer)
