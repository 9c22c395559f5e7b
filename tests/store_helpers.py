"""Stats databases for tests, written through the store itself (no drill needed).

- :func:`answer` is one stored answer, the ``n``-th (its question holds ``n``).
- :func:`open_store` opens (creating) a database for writing.
- :func:`make_db` writes a database of ``count`` answers in one ended session.
- :func:`copy_in_read_only_folder` puts a copy of a database in a folder nobody may
  write to.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from defuser.trainer.store import AnswerRecord, Store


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
    """``path`` made a database holding ``count`` answers in one ended session."""
    with open_store(path) as store:
        store._db.execute("PRAGMA synchronous = OFF")  # a test's file: no wait for the disk
        session = store.start_session("table", 1)
        for n in range(count):
            store.record(session, answer(n))
        store.end_session(session)
    return path


def copy_in_read_only_folder(db: Path, folder: Path, name: str, mode: int) -> Path:
    """A copy of ``db`` named ``name`` with file ``mode``, in the new ``folder``, which
    is then made read-only (restore its mode before removing it)."""
    folder.mkdir()
    copy = folder / name
    shutil.copyfile(db, copy)
    copy.chmod(mode)
    folder.chmod(0o555)
    return copy
