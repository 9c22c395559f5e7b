"""The one way every command touches user paths.

Contract:

- **User paths.** Every ``OSError`` on a path the user gave (missing, unreadable, a
  name too long, a full disk, no permission) becomes :class:`PathError`: one line
  naming the path and the reason, exit 2. :func:`open_output` and
  :func:`write_user_file` write files; :func:`read_user_bytes` and
  :func:`iter_user_bytes` read them within a size limit; :func:`read_stdin` reads
  stdin whole within a size limit.
- **Protected files.** Every file a command writes (:func:`open_output`,
  :func:`write_user_file`) passes one rule, :func:`refuse_protected`, before anything
  is truncated: never a stats database or its ``-wal``/``-shm``/``-journal`` files
  (the default database and the one being read, whatever name reaches them: hard and
  symbolic links by the file's identity, a journal that does not exist yet by its
  resolved name), never any other SQLite file, never the input being read.
- **Written files.** :func:`write_user_file` writes through symbolic links and
  into devices and FIFOs instead of replacing them, refuses a file without write
  permission, and keeps an existing file's mode; a regular file is replaced
  atomically, so a failed write leaves the old contents.
- **What cannot work is refused**, never waited on forever: a pipe with nothing reading
  from it is not written (:func:`open_output`, :func:`write_user_file`), a named pipe
  that nothing writes to within :data:`PIPE_WAIT_SECONDS` is not read, and a command
  reading stdin never writes its output into that same stdin (``--log /dev/stdin``).

Reading stdin lines and writing output safely is :mod:`defuser.streams`.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import select
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Final

from defuser.streams import (
    input_lines,
    is_pipe_error,
    os_reason,
    printable,
    prompt_line,
    stdin_is_terminal,
)
from defuser.terminal.app import BadInput


class PathError(BadInput):
    """A user path that cannot be used: one line on stderr, exit 2."""


def path_error(path: str | os.PathLike[str], exc: OSError, what: str, doing: str) -> PathError:
    """The one-line error for ``exc`` on the user path ``path``.

    ``what`` names the path (``log file``), ``doing`` the action (``read``, ``write``).
    """
    shown = printable(os.fspath(path))
    if exc.errno == errno.ENOENT and doing == "read":
        return PathError(f"{what} {shown!r} does not exist")
    return PathError(f"cannot {doing} {what} {shown!r} ({os_reason(exc)})")


@contextlib.contextmanager
def user_path(path: str | os.PathLike[str], what: str, doing: str) -> Iterator[None]:
    """Turn any ``OSError`` inside the block into :class:`PathError` for ``path``."""
    try:
        yield
    except OSError as exc:
        if is_pipe_error(exc):
            raise
        raise path_error(path, exc, what, doing) from None


def read_stdin(limit: int, what: str) -> str:
    """All of stdin as text (UTF-8 with replacement, BOM dropped), at most ``limit`` bytes."""
    stream = sys.stdin
    if stream is None:
        raise PathError(f"{what}: standard input is closed")
    raw = getattr(stream, "buffer", None)
    try:
        if raw is None:
            text = str(stream.read(limit + 1))
            data = text.encode("utf-8", "surrogateescape")
        else:
            data = raw.read(limit + 1)
    except (OSError, ValueError) as exc:
        raise PathError(f"{what}: standard input cannot be read ({exc})") from None
    if len(data) > limit:
        raise PathError(f"{what}: standard input is larger than {limit // 1024} KiB")
    return data.decode("utf-8-sig", "replace")


def iter_stdin_bytes(limit: int, what: str, *, chunk: int = 1 << 20) -> Iterator[bytes]:
    """Standard input's bytes in chunks, as they come; :class:`PathError` if it is closed,
    cannot be read, or holds more than ``limit`` bytes (``what`` names it)."""
    stream = sys.stdin
    raw = getattr(stream, "buffer", None) if stream is not None else None
    if stream is None:
        raise PathError(f"{what}: standard input is closed")
    total = 0
    while True:
        try:
            data = raw.read(chunk) if raw is not None else str(stream.read(chunk)).encode(
                "utf-8", "surrogateescape")
        except (OSError, ValueError) as exc:
            raise PathError(f"{what}: standard input cannot be read ({exc})") from None
        if not data:
            return
        total += len(data)
        if total > limit:
            raise PathError(f"{what} is larger than {limit // (1 << 20)} MiB, too large "
                            "to be one")
        yield data


def confirm(question: str) -> bool:
    """Ask a yes/no question on stderr; only ``y`` or ``yes`` is yes (end of input: no)."""
    sys.stderr.write(f"{question} [y/N]: ")
    sys.stderr.flush()
    answer = prompt_line("") if stdin_is_terminal() else next(input_lines(), None)
    if answer is None:
        sys.stderr.write("\n")
    return (answer or "").strip().lower() in ("y", "yes")


# --------------------------------------------------------------------------- reading files


#: How long reading a named pipe waits for something to be written to it.
PIPE_WAIT_SECONDS: Final = 5.0


#: The names of a descriptor this process was handed: ``/dev/stdin`` and its kin,
#: ``/dev/fd/63`` (a shell's ``<(...)``), ``/proc/self/fd/3`` and ``/proc/PID/fd/3``.
_DESCRIPTOR_NAME = re.compile(
    r"/dev/(?:stdin|stdout|stderr|fd/\d+)|/proc/(?:self|thread-self|\d+)/fd/\d+"
)


def _names_open_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names a file this process has open (``/dev/stdin``,
    ``/dev/fd/63`` from a shell's ``<(...)``), which a shell or a parent gave it. A
    pipe or file that merely lives under ``/dev`` (a FIFO in ``/dev/shm``) is not one;
    a descriptor on an anonymous pipe resolves to ``/proc/PID/fd/pipe:[N]``."""
    if _DESCRIPTOR_NAME.fullmatch(os.path.abspath(path)):
        return True
    real = os.path.realpath(path)
    return real.startswith("/proc/") and "/fd/" in real


def _open_for_reading(path: str | os.PathLike[str], named: str) -> IO[bytes]:
    """``path`` open for reading bytes. Opening never blocks: a named pipe that nothing
    writes to within :data:`PIPE_WAIT_SECONDS` is :class:`PathError`."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode) and not _names_open_file(path):
            # Data, or a writer that came and went (POLLHUP), ends the wait.
            ready, _, _ = select.select([fd], [], [], PIPE_WAIT_SECONDS)
            if not ready:
                raise PathError(f"{named} is a named pipe that nothing is writing to")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def iter_user_bytes(
    path: str | os.PathLike[str], what: str, *, limit: int, chunk: int = 1 << 20
) -> Iterator[bytes]:
    """The bytes of ``path`` in chunks; :class:`PathError` if missing, unreadable, a
    directory or larger than ``limit`` bytes (a device like ``/dev/zero`` too)."""
    shown = printable(os.fspath(path))
    with user_path(path, what, "read"):
        if Path(path).is_dir():
            raise PathError(f"{what} {shown!r} is a directory, expected a file")
        with _open_for_reading(path, f"{what} {shown!r}") as handle:
            total = 0
            while True:
                data = handle.read(chunk)
                if not data:
                    return
                total += len(data)
                if total > limit:
                    raise PathError(
                        f"{what} {shown!r} is larger than {limit // (1 << 20)} MiB, "
                        "too large to be one"
                    )
                yield data


def read_user_bytes(path: str | os.PathLike[str], what: str, *, limit: int) -> bytes:
    """The whole of ``path`` (see :func:`iter_user_bytes`)."""
    return b"".join(iter_user_bytes(path, what, limit=limit))


# --------------------------------------------------------------------------- writing files


class GuardedText(io.TextIOWrapper):
    """A text file whose write errors (a full disk) are :class:`PathError` naming it."""

    def __init__(self, binary: IO[bytes], path: str, what: str) -> None:
        super().__init__(binary, encoding="utf-8", newline="")
        self.user_path = path
        self.what = what

    def write(self, text: str) -> int:
        """Write ``text``; a full disk is a one-line error."""
        with user_path(self.user_path, self.what, "write"):
            return super().write(text)

    def flush(self) -> None:
        """Flush; a full disk is a one-line error."""
        with user_path(self.user_path, self.what, "write"):
            super().flush()

    def close(self) -> None:
        """Close, even after a failed write (the error is reported once)."""
        if self.closed:
            return
        try:
            with user_path(self.user_path, self.what, "write"):
                super().close()
        finally:
            with contextlib.suppress(OSError, ValueError):
                self.buffer.close()


def _open_for_writing(path: str | os.PathLike[str], named: str) -> IO[bytes]:
    """``path`` open for writing bytes (created or truncated). Opening never blocks: a
    pipe with nothing reading from it is :class:`PathError`."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO without a reader
            raise PathError(f"{named} is a pipe that nothing is reading from") from None
        raise
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def _refuse_stdin(path: str | os.PathLike[str], named: str) -> None:
    """:class:`PathError` if ``path`` is the pipe or file this command reads as stdin
    (its output would be read back as input, or truncate the input)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        given = os.fstat(sys.stdin.fileno())
        if (stat.S_ISFIFO(given.st_mode) or stat.S_ISREG(given.st_mode)) and _same_file(
            given, os.stat(path)
        ):
            raise PathError(f"{named} is the standard input being read; it was not written")


#: Files to protect: (path, description), e.g. the database a command reads.
Protected = Iterable[tuple[str | os.PathLike[str], str]]


def refuse_protected(path: str | os.PathLike[str], named: str, protect: Protected = ()) -> None:
    """:class:`PathError` if ``path`` (``named`` in the message) must not be written: the
    one rule of every file a command writes, checked before anything is truncated.

    Never written: the stats database (the default one, and every one in ``protect``)
    or any of its ``-wal``/``-shm``/``-journal`` files, whatever name reaches them (the
    file's identity, or the resolved name of a journal that does not exist yet); any
    other SQLite database or journal; the standard input being read; and every other
    file in ``protect`` (an input of the command), compared by identity.
    """
    from defuser.trainer.dbfiles import protected_reason  # standard library only
    from defuser.trainer.location import default_db_path
    from defuser.trainer.store import StatsDatabaseError

    files = list(protect)
    with contextlib.suppress(StatsDatabaseError):  # no home: no default database
        default = str(default_db_path())
        files.append((default, f"the stats database {default!r}"))
    reason = protected_reason(path, files)
    if reason is not None:
        raise PathError(f"{named} {printable(reason)}; it was not written")
    _refuse_stdin(path, named)


def open_output(path: str | os.PathLike[str], what: str, protect: Protected = ()) -> GuardedText:
    """Open ``path`` for writing text (created or truncated) as :class:`GuardedText`,
    for a command that reads stdin as it writes; never a protected file
    (:func:`refuse_protected`)."""
    shown = os.fspath(path)
    named = f"{what} {printable(shown)!r}"
    with user_path(shown, what, "write"):
        if Path(shown).is_dir():
            raise PathError(f"{named} is a directory, expected a file")
        refuse_protected(shown, named, protect)
        binary = _open_for_writing(shown, named)
    return GuardedText(binary, shown, what)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _refuse_target(target: os.stat_result, named: str) -> None:
    """:class:`PathError` if the existing file ``target`` (``named`` in messages) is a
    directory or read-only."""
    if stat.S_ISDIR(target.st_mode):
        raise PathError(f"{named} is a directory, expected a file")
    if stat.S_ISREG(target.st_mode) and not target.st_mode & 0o222:
        raise PathError(f"{named} is read-only; it was not written")


def write_user_file(
    path: str | os.PathLike[str],
    write: Callable[[IO[str]], None],
    *,
    what: str,
    protect: Protected = (),
) -> None:
    """Write a text file the user named, safely (see the module contract).

    ``protect`` lists (path, description) pairs that must never be written over, e.g.
    the stats database being read (see :func:`refuse_protected`).
    """
    shown = printable(os.fspath(path))
    with user_path(path, what, "write"):
        refuse_protected(path, f"{what} {shown!r}", protect)
        real = os.path.realpath(path)
        try:
            target: os.stat_result | None = os.stat(path)  # follows every link
        except FileNotFoundError:
            target = None
        if target is not None:
            _refuse_target(target, f"{what} {shown!r}")
        # /dev/stdout and the like name an open file of this process (a pipe, a
        # terminal, a file the shell opened): always written into, never replaced.
        magic = _names_open_file(path)
        if target is not None and (
            magic or not stat.S_ISREG(target.st_mode) or target.st_nlink > 1
        ):
            # A device, a FIFO, a descriptor or a file with other names: write in place.
            binary = _open_for_writing(path, f"{what} {shown!r}")
            with GuardedText(binary, os.fspath(path), what) as stream:
                write(stream)
            return
        directory = os.path.dirname(real) or "."
        import tempfile  # here, not at start-up: most commands never write a file

        handle, temp = tempfile.mkstemp(prefix=".mittens-", dir=directory)
        try:
            with GuardedText(os.fdopen(handle, "wb"), os.fspath(path), what) as stream:
                write(stream)
            if target is not None:
                mode = stat.S_IMODE(target.st_mode)
            else:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(temp, mode)
            os.replace(temp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
