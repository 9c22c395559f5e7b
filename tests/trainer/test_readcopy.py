"""defuser.trainer.readcopy: a private copy of a database and its log, copied whole."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from defuser.trainer.readcopy import ATTEMPTS, KeptChanging, copy_to_read


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database file with its write-ahead log beside it."""
    path = tmp_path / "s.db"
    path.write_bytes(b"main")
    Path(f"{path}-wal").write_bytes(b"log")
    return path


def test_the_file_and_its_log_are_copied(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    copy = copy_to_read(db, folder)
    assert copy.parent == folder and copy.read_bytes() == b"main"
    assert Path(f"{copy}-wal").read_bytes() == b"log"
    assert db.read_bytes() == b"main" and Path(f"{db}-wal").read_bytes() == b"log"


def test_the_log_beside_the_real_file_is_copied_through_a_symbolic_link(
    db: Path, tmp_path: Path
) -> None:
    link = tmp_path / "link.db"
    link.symlink_to(db)
    folder = tmp_path / "copy"
    folder.mkdir()
    assert Path(f"{copy_to_read(link, folder)}-wal").read_bytes() == b"log"


def test_without_a_log_an_old_copy_of_one_is_removed(db: Path, tmp_path: Path) -> None:
    folder = tmp_path / "copy"
    folder.mkdir()
    copy_to_read(db, folder)
    Path(f"{db}-wal").unlink()
    copy = copy_to_read(db, folder)
    assert copy.read_bytes() == b"main" and not Path(f"{copy}-wal").exists()


def writing_while_copied(monkeypatch: pytest.MonkeyPatch, db: Path, times: int) -> list[int]:
    """Make a session write to ``db`` during each of the first ``times`` copies of it;
    returns the list the copies are counted in."""
    copies: list[int] = []
    real: Callable[..., object] = shutil.copyfile

    def copyfile(src: str, dst: object) -> object:
        done = real(src, dst)
        if src == str(db.resolve()):
            copies.append(1)
            if len(copies) <= times:
                db.write_bytes(db.read_bytes() + b"+")
        return done

    monkeypatch.setattr(shutil, "copyfile", copyfile)
    return copies


def test_a_database_written_during_the_copy_is_copied_again(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = writing_while_copied(monkeypatch, db, 2)
    copy = copy_to_read(db, tmp_path)
    assert len(copies) == 3 and copy.read_bytes() == b"main++"


def test_a_database_that_never_holds_still_is_one_error(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = writing_while_copied(monkeypatch, db, ATTEMPTS)
    with pytest.raises(KeptChanging, match=r"s\.db"):
        copy_to_read(db, tmp_path)
    assert len(copies) == ATTEMPTS
