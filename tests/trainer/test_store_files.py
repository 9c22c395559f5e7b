"""Issue 22 round 2, items 1 and 6: no file the toolkit writes is ever the stats database.

Every writer (``play --log``, ``prop --log``/``--trace``, ``stats --export``/``--picture``)
goes through one rule: never the stats database or its ``-wal``/``-shm``/``-journal``,
whatever name reaches it (hard links and symbolic links by the file's identity, a
journal that does not exist yet by its resolved name), never the input being read. Real
databases written by real drills, real links, in ``tmp_path``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run_cli_bytes, stored_answers
from store_helpers import make_db

from defuser.trainer.dbfiles import protected_reason, sqlite_kind


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A stats database with three answers."""
    return make_db(tmp_path / "s.db")


def writers(target: Path, db: Path) -> list[tuple[list[str], bytes]]:
    """Every command line that writes ``target`` (with the stdin it needs)."""
    return [
        (["play", "--seed", "1", "--log", str(target)], b"draw\nquit\n"),
        (["prop", "--demo", "--seed", "1", "--log", str(target)], b""),
        (["prop", "--demo", "--seed", "1", "--trace", str(target)], b""),
        (["stats", "--db", str(db), "--export", str(target)], b""),
        (["stats", "--db", str(db), "--picture", str(target) + ".svg"], b""),
    ]


def refused_everywhere(target: Path, db: Path) -> None:
    """Every writer refuses ``target`` in one line and leaves the database whole."""
    before = db.read_bytes()
    for args, stdin in writers(target, db):
        if args[-1].endswith(".svg"):
            continue  # a picture name never ends like a database; checked below
        err = one_line_error(run_cli_bytes(args, stdin).text)
        assert "it was not written" in err, (args, err)
        assert db.read_bytes() == before, args
    assert stored_answers(db) == 3


def test_play_and_prop_never_overwrite_a_stats_database(db: Path) -> None:
    # printf 'draw\nquit\n' | mittens play --seed 1 --log s.db overwrote it, exit 0.
    refused_everywhere(db, db)


def test_the_default_database_is_protected_too(db: Path, tmp_path: Path) -> None:
    home = tmp_path / "xdg"
    default = home / "exploding-mittens" / "stats.sqlite3"
    default.parent.mkdir(parents=True)
    shutil.copyfile(db, default)
    env = {"XDG_DATA_HOME": str(home)}
    before = default.read_bytes()
    for args, stdin in writers(default, db)[:3]:
        one_line_error(run_cli_bytes(args, stdin, env=env).text)
    # Its journals, even while none exists (a drill would create them).
    for suffix in ("-wal", "-shm", "-journal"):
        journal = Path(f"{default}{suffix}")
        err = one_line_error(run_cli_bytes(
            ["play", "--seed", "1", "--log", str(journal)], b"quit\n", env=env).text)
        assert f"{suffix} file" in err
        assert not journal.exists()
    assert default.read_bytes() == before


def test_hard_and_symbolic_links_to_the_database_are_refused(db: Path, tmp_path: Path) -> None:
    hard = tmp_path / "hard.csv"
    os.link(db, hard)
    soft = tmp_path / "soft.log"
    soft.symlink_to(db)
    refused_everywhere(hard, db)
    refused_everywhere(soft, db)


def test_a_journal_named_through_a_symlinked_database_is_refused(
    db: Path, tmp_path: Path
) -> None:
    # With the database named through a symlink, SQLite keeps REAL.db-wal; the export
    # replaced a running drill's log.
    link = tmp_path / "link.db"
    link.symlink_to(db)
    for suffix in ("-wal", "-shm", "-journal"):
        target = Path(f"{db}{suffix}")
        err = one_line_error(run_cli_bytes(
            ["stats", "--db", str(link), "--export", str(target)]).text)
        assert f"{suffix} file" in err
        assert not target.exists()
    assert stored_answers(link) == 3


def test_an_existing_journal_under_another_name_is_refused(db: Path, tmp_path: Path) -> None:
    # A write-ahead log as a drill leaves it when killed, reached by a hard link.
    wal = Path(f"{db}-wal")
    wal.write_bytes(b"\x37\x7f\x06\x82" + bytes(28))
    other = tmp_path / "notes.txt"
    os.link(wal, other)
    err = one_line_error(run_cli_bytes(["play", "--seed", "1", "--log", str(other)],
                                       b"quit\n").text)
    assert "write-ahead log" in err
    assert wal.read_bytes().startswith(b"\x37\x7f\x06\x82")


def test_prop_trace_is_never_its_own_log(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    err = one_line_error(run_cli_bytes(
        ["prop", "--demo", "--seed", "1", "--log", str(log), "--trace", str(log)]).text)
    assert "log file" in err


def test_ordinary_files_are_still_written(db: Path, tmp_path: Path) -> None:
    for args, stdin in writers(tmp_path / "out.txt", db):
        done = run_cli_bytes(args, stdin).text
        assert done.code == 0, (args, done.err)
    assert sqlite_kind(tmp_path / "out.txt") is None
    assert protected_reason(tmp_path / "new.txt", [(db, "the database")]) is None
