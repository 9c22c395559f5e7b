"""Standard streams that never fail a command: the one input path and output path.

Contract:

- **Input.** :func:`input_lines` is the only reader of stdin lines (``live``, ``play``,
  ``drill``, ``solve --batch``, the ``stats --reset`` prompt) and :func:`prompt_line`
  the only reader of a terminal line. Bytes that are not UTF-8 become U+FFFD, a UTF-8
  byte-order mark before the first line is dropped, control characters (other than
  tab) become U+FFFD, a line longer than :data:`MAX_LINE_BYTES` is cut and ends in
  U+FFFD (so every command answers it as unreadable), and a closed stdin is simply the
  end of input. Nothing raises on bad bytes, so no answer already computed is lost.
- **Output.** :func:`setup_streams` (called once by ``main``) makes stdout and stderr
  never raise on a character their encoding lacks: it degrades to ASCII (card glyphs
  become letters, accents are dropped, anything else becomes ``?``); a closed stderr
  becomes a sink, and a closed stdout counts what it is given, so that output is an
  error (exit 2), never lost unseen. A reader that goes away (``mittens ... | head -1``) is
  :class:`ReaderGone`, which ``main`` ends with exit 0. :func:`flush_stdout` writes out
  what stdout holds before the exit status is chosen, so output is never lost unseen
  (a full disk is an error, never exit 0).
- **Terminal safety.** :func:`printable` replaces control characters, so text read
  from files and stdin never drives the terminal; :func:`one_line` also replaces line
  ends, for a line that must stay one (an error).

This module uses only the standard library (the engine may use :func:`printable`).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Final, TextIO

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

#: The longest input line read whole (bytes); a longer line is cut and marked unreadable.
MAX_LINE_BYTES: Final = 64 * 1024
#: The name of the codec error handler that degrades output to ASCII.
ASCII_FALLBACK: Final = "mittens-ascii"
#: Exit status after Ctrl-C, as a shell reports a process ended by SIGINT.
EXIT_INTERRUPTED: Final = 130

#: What the glyphs this program prints look like on an ASCII-only stream.
_ASCII_FOR: Final[dict[str, str]] = {
    "●": "o", "♥": "v", "▲": "^", "■": "#", "█": "#", "▁": "_", "▂": "_", "▃": ".",
    "▄": "-", "▅": "=", "▆": "=", "▇": "#", "·": ".", "—": "-", "–": "-", "…": "...",
    "→": "->", "←": "<-", "×": "x", "≤": "<=", "≥": ">=", "≈": "~", "±": "+/-",
    "‘": "'", "’": "'", "“": '"', "”": '"', "\ufffd": "?",
}

#: Control characters (C0 but tab and newline, DEL, C1) and their visible stand-in.
_CONTROLS: Final = {
    code: "\ufffd"
    for code in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0))
    if code not in (0x09, 0x0A)
}


#: Line ends :func:`printable` keeps: newline, and Unicode's line and paragraph separators.
_LINE_ENDS: Final = {ord("\n"): "\ufffd", 0x2028: "\ufffd", 0x2029: "\ufffd"}


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: an ASCII stand-in for characters the stream cannot encode."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    parts = []
    for char in exc.object[exc.start : exc.end]:
        stand_in = _ASCII_FOR.get(char)
        if stand_in is None:
            folded = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            stand_in = folded or "?"
        parts.append(stand_in)
    return "".join(parts), exc.end


codecs.register_error(ASCII_FALLBACK, _ascii_fallback)


class ReaderGone(Exception):
    """stdout's reader went away (a closed pipe); ``main`` ends quietly with exit 0.

    Not an ``OSError``, so that click does not turn it into its own exit 1 first.
    """


def printable(text: str) -> str:
    """``text`` with every control character (but tab and newline) shown as U+FFFD."""
    return text.translate(_CONTROLS)


def one_line(text: str) -> str:
    """``text`` made :func:`printable` and kept to one line: line ends (from a file name
    or a line read back) are shown as U+FFFD too, so an error is always one line."""
    return printable(text).translate(_LINE_ENDS)


def os_reason(exc: OSError) -> str:
    """A short reason for an OS error: ``No space left on device``, ``File name too long``."""
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    return exc.strerror or type(exc).__name__


def is_pipe_error(exc: OSError) -> bool:
    """Whether ``exc`` says the reader of a pipe went away."""
    return isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE


class _Sink(io.TextIOWrapper):
    """Where a closed stderr writes: nowhere."""

    def __init__(self) -> None:
        super().__init__(open(os.devnull, "wb"), encoding="utf-8")  # noqa: SIM115


class _Count(io.RawIOBase):
    """A writer that keeps nothing and counts the bytes it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def writable(self) -> bool:
        """It takes any write."""
        return True

    def write(self, data: ReadableBuffer) -> int:
        """Count ``data`` and drop it."""
        size = len(memoryview(data).cast("B"))
        self.count += size
        return size


class _ClosedStdout(io.TextIOWrapper):
    """Where a closed stdout writes: nowhere, but counted, so :func:`flush_stdout` can
    say that the output could not be written (exit 2) instead of losing it unseen.

    The null device is opened and held too: it takes the free descriptor 1, so no file
    opened later (the stats database) can become "standard output" for ``/dev/stdout``
    or a child process."""

    def __init__(self) -> None:
        self.placeholder = os.open(os.devnull, os.O_WRONLY)
        self.counter = _Count()
        super().__init__(io.BufferedWriter(self.counter), encoding="utf-8")


def setup_streams() -> None:
    """Make the standard streams safe for every command (called once by ``main``).

    stdout and stderr degrade to ASCII instead of raising on an unencodable character,
    stdin replaces undecodable bytes; a closed stderr becomes a sink, a closed stdout a
    counter that :func:`flush_stdout` reports.
    """
    if sys.stdout is None:
        sys.stdout = _ClosedStdout()
    if sys.stderr is None:
        sys.stderr = _Sink()
    for stream, errors in ((sys.stdout, ASCII_FALLBACK), (sys.stderr, ASCII_FALLBACK),
                           (sys.stdin, "replace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors=errors)


def can_encode(text: str, stream: object) -> bool:
    """Whether ``stream`` can write ``text`` exactly (surrogates never can)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def silence_stdout() -> None:
    """Point stdout at the null device, so the reader that went away is not written to
    again when the interpreter flushes at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def flush_stdout() -> None:
    """Write out what stdout still holds, before the run's exit status is chosen.

    Raises the ``OSError`` a write gives (a full disk, a reader that went away); stdout
    is then pointed at the null device first, so the interpreter's own flush at exit
    cannot fail again (Python's "Exception ignored" and exit 120) or succeed unseen.
    """
    stream = sys.stdout
    if stream is None:
        return
    if isinstance(stream, _ClosedStdout):
        stream.flush()
        if stream.counter.count:
            stream.counter.count = 0
            raise OSError(errno.EBADF, "standard output is closed, so nothing was written")
        return
    try:
        stream.flush()
    except ValueError:
        return  # closed under us: nothing is held
    except OSError:
        silence_stdout()
        with contextlib.suppress(OSError, ValueError):
            stream.flush()  # drop what was held, into the null device
        raise


def stdin_is_terminal() -> bool:
    """Whether stdin is an open terminal (a closed stdin is not)."""
    stream = sys.stdin
    if stream is None:
        return False
    try:
        return bool(stream.isatty())
    except (ValueError, OSError):
        return False


def _decode_line(raw: bytes, *, first: bool, cut: bool) -> str:
    if first and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    text = printable(raw.decode("utf-8", "replace"))
    return text + "\ufffd" if cut else text


def _text_lines(stream: IO[str]) -> Iterator[str]:
    """Lines of a text-only stdin (an in-memory stream in tests)."""
    first = True
    while True:
        line = stream.readline(MAX_LINE_BYTES)
        if not line:
            return
        cut = not line.endswith("\n") and len(line) >= MAX_LINE_BYTES
        while cut:
            rest = stream.readline(MAX_LINE_BYTES)
            if not rest or rest.endswith("\n"):
                break
        data = line.encode("utf-8", "surrogateescape")
        yield _decode_line(data, first=first, cut=cut)
        first = False


def input_lines(stream: TextIO | None = None) -> Iterator[str]:
    """Lines of stdin (or ``stream``) without their line ends, one as soon as it arrives.

    See the module contract: never raises on bad bytes, a closed or unreadable stdin
    ends the input.
    """
    stream = sys.stdin if stream is None else stream
    if stream is None:
        return
    raw = getattr(stream, "buffer", None)
    try:
        if raw is None:
            yield from _text_lines(stream)
            return
        first = True
        while True:
            line = raw.readline(MAX_LINE_BYTES)
            if not line:
                return
            cut = not line.endswith(b"\n") and len(line) >= MAX_LINE_BYTES
            while cut:
                rest = raw.readline(MAX_LINE_BYTES)
                if not rest or rest.endswith(b"\n"):
                    break
            yield _decode_line(line, first=first, cut=cut)
            first = False
    except (OSError, ValueError):
        return  # a closed or unreadable stdin is the end of input


def prompt_line(prompt: str, ask: Callable[[str], str] | None = None) -> str | None:
    """One line typed at a terminal after ``prompt``; ``None`` at the end of input.

    ``ask`` reads the line (``input`` by default, or a rich console's ``input``).
    """
    reader = ask if ask is not None else input
    try:
        line = reader(prompt)
    except EOFError:
        return None
    except UnicodeDecodeError:
        return "\ufffd"
    except (RuntimeError, OSError, ValueError):
        return None  # stdin was closed under us
    return printable(line[: MAX_LINE_BYTES]) + ("\ufffd" if len(line) > MAX_LINE_BYTES else "")
