"""A private copy of a database to read, so that reading leaves nothing behind.

Contract: SQLite reading a database in write-ahead-log mode in place needs its ``-shm``
file, and creates it (and an empty ``-wal``) when they are missing: in a folder that
cannot be written it cannot, and beside a read-only file it leaves read-only files that
stop every later drill. :func:`copy_to_read` copies the database and its ``-wal`` (when
there is one) into a folder of the caller's, where reading creates what it needs; the
files it reads are never changed. The copy is checked: if the database or its log
changed while they were copied (a session wrote), it is copied again, and after
:data:`ATTEMPTS` tries :class:`KeptChanging` (a fault) is raised. Standard library
only, besides the project's error root.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Final

from edgework.errors import FaultError

#: How many times a copy is tried while the files keep changing.
ATTEMPTS: Final = 5


class KeptChanging(FaultError):
    """The database changed during every attempt to copy it."""


def _state(path: str) -> tuple[int, int, int] | None:
    """(inode, size, modification time) of ``path``, or ``None`` when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def copy_to_read(path: Path, folder: Path) -> Path:
    """Copy the database ``path`` (and its ``-wal``, named as SQLite names it: after the
    resolved path) into ``folder``; returns the copy's path. ``OSError`` when a file
    cannot be read or copied, :class:`KeptChanging` as in the module contract."""
    real = os.path.realpath(path)
    wal = real + "-wal"
    copy = folder / "stats.sqlite3"
    for _ in range(ATTEMPTS):
        before = (_state(real), _state(wal))
        shutil.copyfile(real, copy)
        copied_wal = Path(f"{copy}-wal")
        if before[1] is not None:
            try:
                shutil.copyfile(wal, copied_wal)
            except FileNotFoundError:
                continue  # the session that wrote it ended meanwhile: copy again
        else:
            copied_wal.unlink(missing_ok=True)
        if (_state(real), _state(wal)) == before:
            return copy
    raise KeptChanging(str(path))
