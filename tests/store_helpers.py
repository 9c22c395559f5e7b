"""Stats databases for tests, written through the store itself (no drill needed).

- :func:`answer` is one stored answer, the ``n``-th (its question holds ``n``).
- :func:`open_store` opens (creating) a database for writing.
- :func:`make_db` writes a database of ``count`` answers in one ended session.
- :func:`wal_frames` is how many pages a database's ``-wal`` holds.
- :func:`copy_in_read_only_folder` puts a copy of a database in a folder nobody may
  write to.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from defuser.trainer.store import AnswerRecord, Store

#: A folder in memory where the system has one (``None``: the usual temporary folder): the
#: store syncs every answer to the disk, and a memory file system makes those syncs free
#: (1500 answers: 0.15 s, not 7 s). The web tests' scratch folders are made in it too.
MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
#: The sizes of a ``-wal`` file's header and of each frame's header.
_WAL_HEADER, _FRAME_HEADER = 32, 24


def answer(n: int) -> AnswerRecord:
    """A stored answer, the ``n``-th (a second apart, its question ``{"n": n}``)."""
    return AnswerRecord(at=1_700_000_000.0 + n, kind="table", skill="table:A", rule=None,
                        question={"n": n}, expected="A", given="A", grade="right",
                        correct=True, seconds=1.0)


def open_store(path: Path) -> Store:
    """The database ``path`` open for writing (created if missing)."""
    store = Store.open(path)
    assert store is not None
    return store


def make_db(path: Path, count: int = 3) -> Path:
    """``path`` made a database holding ``count`` answers in one ended session.

    It is written in a memory folder and copied to ``path`` once closed (the store
    then leaves no ``-wal`` beside it), so the test waits for no disk."""
    with tempfile.TemporaryDirectory(dir=MEMORY) as scratch:
        built = Path(scratch) / "s.db"
        with open_store(built) as store:
            session = store.start_session("table", 1)
            store.record_many(session, [answer(n) for n in range(count)])
            store.end_session(session)
        assert not Path(f"{built}-wal").exists()
        shutil.copyfile(built, path)
    return path


def wal_frames(db: Path) -> int:
    """How many pages the ``-wal`` beside ``db`` holds (0 without one)."""
    wal = Path(f"{db}-wal")
    if not wal.exists():
        return 0
    page = int.from_bytes(wal.read_bytes()[8:12], "big")
    return (wal.stat().st_size - _WAL_HEADER) // (_FRAME_HEADER + page)


def copy_in_read_only_folder(db: Path, folder: Path, name: str, mode: int) -> Path:
    """A copy of ``db`` named ``name`` with file ``mode``, in the new ``folder``, which
    is then made read-only (restore its mode before removing it)."""
    folder.mkdir()
    copy = folder / name
    shutil.copyfile(db, copy)
    copy.chmod(mode)
    folder.chmod(0o555)
    return copy
