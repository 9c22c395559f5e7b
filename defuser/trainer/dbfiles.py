"""The files a SQLite database is made of, recognised by their identity and contents.

Contract: SQLite keeps a database in its main file and, beside it, a write-ahead log
(``-wal``), its shared-memory index (``-shm``) and a rollback journal (``-journal``),
named after the main file's *resolved* path (symbolic links followed). This module only
looks: :func:`protected_reason` says why a path must never be written by a program that
writes text files (it is a SQLite database or one of its files, by content, by identity
with a given database, or by a journal name that belongs to an existing database, even
one that does not exist yet); :func:`stranded_logs` finds the write-ahead logs that
another name of the same file (a hard link in its folder) still holds. It never opens a
file for writing and reads at most the first :data:`HEADER_BYTES` bytes of a regular
file. Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
from collections.abc import Iterable, Iterator
from typing import Final

#: The suffixes SQLite appends to a database's resolved path for its other files.
JOURNAL_SUFFIXES: Final = ("-wal", "-shm", "-journal")
#: How many leading bytes identify a file.
HEADER_BYTES: Final = 32

_DATABASE_MAGIC: Final = b"SQLite format 3\x00"
_WAL_MAGICS: Final = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
_JOURNAL_MAGIC: Final = b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7"
#: The version a ``-shm`` file's index header starts with (native byte order).
_SHM_VERSION: Final = struct.pack("=I", 3007000)


def _header(path: str) -> bytes:
    """The first bytes of the regular file ``path`` (empty if it is none or unreadable)."""
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(os.stat(path).st_mode):
            return b""  # a device or a pipe is never opened (a serial port resets)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                return os.read(fd, HEADER_BYTES)
        finally:
            os.close(fd)
    return b""


def sqlite_kind(path: str | os.PathLike[str]) -> str | None:
    """What SQLite file ``path`` is by its contents (``a SQLite database``, ``a SQLite
    write-ahead log``, ...), or ``None`` when it is none of them (or cannot be read)."""
    head = _header(os.fspath(path))
    if head.startswith(_DATABASE_MAGIC):
        return "a SQLite database"
    if head[:4] in _WAL_MAGICS:
        return "a SQLite write-ahead log (-wal)"
    if head.startswith(_JOURNAL_MAGIC):
        return "a SQLite rollback journal (-journal)"
    if len(head) >= 8 and head[:4] == _SHM_VERSION and head[4:8] == b"\x00\x00\x00\x00":
        return "a SQLite shared-memory index (-shm)"
    return None


def journal_names(database: str | os.PathLike[str]) -> Iterator[tuple[str, str]]:
    """(path, suffix) of every file SQLite may keep beside ``database``: after the name
    as given and after the resolved one (SQLite uses the resolved name)."""
    given = os.path.abspath(database)
    names = dict.fromkeys((given, os.path.realpath(given)))
    for name in names:
        for suffix in JOURNAL_SUFFIXES:
            yield name + suffix, suffix


def _same_file(path: str, target: os.stat_result) -> bool:
    with contextlib.suppress(OSError):
        other = os.stat(path)
        return (other.st_dev, other.st_ino) == (target.st_dev, target.st_ino)
    return False


def _journal_of(real: str) -> tuple[str, str] | None:
    """(database, suffix) when the resolved name ``real`` is a journal name of an
    existing SQLite database (the journal itself may not exist yet)."""
    for suffix in JOURNAL_SUFFIXES:
        base = real.removesuffix(suffix)
        if base != real and sqlite_kind(base) == "a SQLite database":
            return base, suffix
    return None


def protected_reason(
    path: str | os.PathLike[str], databases: Iterable[tuple[str | os.PathLike[str], str]]
) -> str | None:
    """Why ``path`` must never be written over, or ``None`` when it may be.

    ``databases`` are (path, description) pairs of databases to protect with every file
    of theirs, whatever names reach them: the same file (device and inode, so hard and
    symbolic links too), or one of their journal names, existing or not. Any other
    SQLite file, recognised by its contents or as the journal of a SQLite database
    beside it, is protected too. The reason reads after the path: ``is the stats
    database 's.db'``.
    """
    real = os.path.realpath(path)
    try:
        target: os.stat_result | None = os.stat(path)
    except OSError:
        target = None
    for database, description in databases:
        db = os.fspath(database)
        if target is not None and _same_file(db, target):
            return f"is {description}"
        for name, suffix in journal_names(db):
            if real == os.path.realpath(name) or (target and _same_file(name, target)):
                return f"is the {suffix} file of {description}"
    kind = sqlite_kind(path) if target is not None else None
    if kind is not None:
        return f"is {kind}"
    journal = _journal_of(real)
    if journal is not None:
        base, suffix = journal
        return f"is the {suffix} file of the SQLite database {base!r}"
    return None


#: The size of a write-ahead log's header: a log no larger holds no answers.
WAL_HEADER_BYTES: Final = 32


def stranded_logs(database: str | os.PathLike[str]) -> list[str]:
    """The ``-wal`` files holding data beside other names of ``database``'s file in its
    folder (hard links): what a session killed while using that name left, which only
    that name can read back (SQLite names the log after the name)."""
    try:
        own = os.stat(database)
        if own.st_nlink < 2:
            return []
        real = os.path.realpath(database)
        found = []
        with os.scandir(os.path.dirname(real)) as entries:
            for entry in entries:
                if entry.path == real or entry.inode() != own.st_ino:
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
                wal = entry.path + "-wal"
                if os.path.exists(wal) and os.path.getsize(wal) > WAL_HEADER_BYTES:
                    found.append(wal)
        return sorted(found)
    except OSError:
        return []
