"""Which name a stats database is open under, seen by every mittens on the machine.

Contract: SQLite keeps a database's ``-wal`` and ``-shm`` beside the *name* it was opened
with (resolved through symbolic links), so two sessions that reach one file through two
names (hard links) share neither locks nor log, and one of them loses its answers. A
:class:`NameLock` marks the name in use with a shared lock on one byte of the database
file itself, chosen by a hash of the resolved name, far past SQLite's own lock bytes;
the lock belongs to the open file (Linux's open-file-description locks), so it lives
exactly as long as the :class:`NameLock`, crosses processes and threads alike, and never
disturbs SQLite's locks. Another name in use is a lock on another byte: :func:`hold`
(for a writer, which then keeps the lock) and :func:`check` (for a reader) raise
:class:`OtherName` (a fault: another session) when they see one. Two sessions through
one name, however many, are fine. Where the system has no such locks (not Linux), nothing
is checked.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import sys
from typing import Final

from edgework.errors import FaultError

if sys.platform != "win32":
    import fcntl

#: The first byte of the range that marks names (far past SQLite's lock bytes at 1 GiB).
_BASE: Final = 1 << 40
#: How many bytes the names hash to.
_SPAN: Final = 1 << 30
#: ``struct flock``: type, whence, start, length, pid (padded to its C size).
_FLOCK: Final = "@hhqqi0q"
_SUPPORTED: Final = sys.platform != "win32" and hasattr(fcntl, "F_OFD_SETLK")


class OtherName(FaultError):
    """The database is open through another name (a hard link) by another session."""


def _byte(path: str) -> int:
    digest = hashlib.blake2b(os.path.realpath(path).encode("utf-8", "surrogateescape"))
    return _BASE + int.from_bytes(digest.digest()[:8], "big") % _SPAN


def _taken(fd: int, start: int, length: int) -> bool:
    """Whether another open file holds a lock in the range (never this ``fd``'s own)."""
    if length <= 0:
        return False
    query = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, start, length, 0)
    answer = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, query)
    return int(struct.unpack(_FLOCK, answer)[0]) != fcntl.F_UNLCK


def _others(fd: int, mine: int) -> bool:
    """Whether a name other than the one at byte ``mine`` is in use."""
    return _taken(fd, _BASE, mine - _BASE) or _taken(fd, mine + 1, _BASE + _SPAN - mine - 1)


class NameLock:
    """The mark that a database is open under one name (see the module contract)."""

    def __init__(self, fd: int | None) -> None:
        """Keep the open file that holds the lock (``None``: nothing is locked)."""
        self._fd = fd

    def alone(self) -> bool:
        """Whether no other session holds the database, under any name."""
        if self._fd is None:
            return True
        return not _taken(self._fd, _BASE, _SPAN)

    def close(self) -> None:
        """Let the name go (closing the file releases its lock)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _open(path: str) -> int | None:
    if not _SUPPORTED:
        return None
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None  # unreadable: SQLite says why when it opens it


def hold(path: str | os.PathLike[str]) -> NameLock:
    """Mark ``path`` (an existing database file) as in use under this name, for a writer.

    Raises :class:`OtherName` when another session has it open under another name.
    """
    name = os.fspath(path)
    fd = _open(name)
    if fd is None:
        return NameLock(None)
    mine = _byte(name)
    try:
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK,
                    struct.pack(_FLOCK, fcntl.F_RDLCK, os.SEEK_SET, mine, 1, 0))
        # Marked first, then looked: of two sessions starting at once, the later one to
        # look sees the other's mark.
        if _others(fd, mine):
            raise OtherName(name)
    except OSError:
        os.close(fd)
        return NameLock(None)
    except BaseException:
        os.close(fd)
        raise
    return NameLock(fd)


def check(path: str | os.PathLike[str]) -> None:
    """For a reader: :class:`OtherName` when a session has ``path``'s file open under
    another name (what it wrote may be in a log this name does not see)."""
    name = os.fspath(path)
    fd = _open(name)
    if fd is None:
        return
    try:
        if _others(fd, _byte(name)):
            raise OtherName(name)
    except OSError:
        return
    finally:
        os.close(fd)
