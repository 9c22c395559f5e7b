"""Issue 15 rows 1, 2, 13-18 and the answer-size bound: the stats store and its files.

Each case runs ``mittens`` in this process with byte streams, except where only a
process shows it: the permission cases run a real process as a user for whom file modes
apply (root without its override, through ``setpriv``, when the tests run as root), and
``--export /dev/stdout`` writes into the process's own stdout.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest
from cli_helpers import (
    one_line_error,
    run_cli,
    run_cli_bytes,
    run_process,
    stored_answers,
)
from store_helpers import copy_in_read_only_folder

from defuser.trainer import store as store_module
from defuser.trainer.store import APPLICATION_ID, MAX_GIVEN_CHARS


@pytest.fixture(scope="module")
def db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stats database with three answers, written once by a real drill session."""
    path = tmp_path_factory.mktemp("template") / "stats.db"
    done = run_cli_bytes(["drill", "--seed", "1", "--count", "3", "--db", str(path)],
                         b"A\nB\nC\n").text
    assert done.code == 0, done.err
    assert not path.with_name("stats.db-wal").exists()  # one file holds it all
    return path


@pytest.fixture
def db(db_template: Path, tmp_path: Path) -> Path:
    """A fresh copy of the three-answer stats database, for one test to change."""
    path = tmp_path / "stats.db"
    shutil.copyfile(db_template, path)
    return path


# ---------------------------------------------------------------- rows 1 and 2: export


def test_export_with_reset_writes_the_backup_first(db: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup.csv"
    done = run_cli_bytes(["stats", "--db", str(db), "--export", str(backup), "--reset",
                          "--yes"]).text
    assert done.code == 0, done.err
    assert len(backup.read_text(encoding="utf-8").splitlines()) == 4  # header + 3
    assert stored_answers(db) == 0


def test_export_refuses_the_database_itself(db: Path, tmp_path: Path) -> None:
    before = db.read_bytes()
    one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export", str(db)]).text)
    assert db.read_bytes() == before
    assert stored_answers(db) == 3
    link = tmp_path / "link.csv"
    link.symlink_to(db)
    one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export", str(link)]).text)
    assert stored_answers(db) == 3


def test_export_writes_through_a_symlink_and_keeps_the_mode(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.csv"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o644)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    done = run_cli_bytes(["stats", "--db", str(db), "--export", str(link)]).text
    assert done.code == 0, done.err
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("id,session")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_export_writes_into_a_hard_linked_file_in_place(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "a.csv"
    target.write_text("old\n", encoding="utf-8")
    other = tmp_path / "b.csv"
    os.link(target, other)
    assert run_cli_bytes(["stats", "--db", str(db), "--export", str(target)]).text.code == 0
    assert other.read_text(encoding="utf-8").startswith("id,session")


def test_export_refuses_a_read_only_file(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "ro.csv"
    target.write_text("keep\n", encoding="utf-8")
    target.chmod(0o444)
    one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export", str(target)]).text)
    assert target.read_text(encoding="utf-8") == "keep\n"


def test_export_on_a_full_disk_is_one_line(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(rows: object, stream: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("defuser.commands.stats.write_csv", full)
    target = tmp_path / "out.csv"
    target.write_text("old\n", encoding="utf-8")
    run = run_cli(["stats", "--db", str(db), "--export", str(target)], monkeypatch)
    assert run.code == 2
    assert "disk is full" in run.err and len(run.err.strip().splitlines()) == 1
    assert target.read_text(encoding="utf-8") == "old\n"  # the old contents survive
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".mittens-")]


# ---------------------------------------------------------------- row 13: paths


def test_a_path_component_too_long_is_one_line(db: Path, tmp_path: Path) -> None:
    long = str(tmp_path / ("x" * 300) / "s.db")
    one_line_error(run_cli_bytes(["stats", "--db", long]).text)
    one_line_error(run_cli_bytes(["drill", "--seed", "1", "--db", long], b"A\n").text)
    one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export",
                                  str(tmp_path / ("y" * 300))]).text)
    one_line_error(run_cli_bytes(["log", "analyze", str(tmp_path / ("z" * 300))]).text)


def test_a_database_in_a_forbidden_directory_is_one_line(
    unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    secret = work / "secret"
    secret.mkdir()
    secret.chmod(0o000)
    one_line_error(run_process(["stats", "--db", str(secret / "x.db")], prefix=prefix).text)
    one_line_error(run_process(["drill", "--seed", "1", "--db", str(secret / "x.db")],
                               b"A\n", prefix=prefix).text)


# ---------------------------------------------------------------- rows 14 and 15: modes


def test_drill_on_a_read_only_database_is_one_line(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    copy = work / "ro.db"
    shutil.copy(db, copy)
    copy.chmod(0o444)
    err = one_line_error(
        run_process(["drill", "--seed", "1", "--count", "1", "--db", str(copy)],
                    b"A\n", prefix=prefix).text
    )
    assert "read-only" in err


def test_stats_reads_a_database_in_a_read_only_directory(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    folder = work / "ro"
    copy = copy_in_read_only_folder(db, folder, "stats.db", 0o444)
    done = run_process(["stats", "--db", str(copy), "--json"], prefix=prefix).text
    assert done.code == 0, done.err
    assert json.loads(done.out)["total"]["answers"] == 3
    assert sorted(p.name for p in folder.iterdir()) == ["stats.db"]


# ---------------------------------------------------------------- row 16: never creates


def test_stats_leaves_an_empty_file_empty(tmp_path: Path) -> None:
    empty = tmp_path / "z.db"
    empty.touch()
    done = run_cli_bytes(["stats", "--db", str(empty), "--json"]).text
    assert done.code == 0, done.err
    assert json.loads(done.out)["total"]["answers"] == 0
    assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["z.db"]


def test_a_foreign_database_without_tables_is_untouched(tmp_path: Path) -> None:
    foreign = tmp_path / "f.db"
    with sqlite3.connect(foreign) as con:
        con.execute("PRAGMA application_id = 1234")
    before = foreign.read_bytes()
    one_line_error(run_cli_bytes(["stats", "--db", str(foreign)]).text)
    one_line_error(run_cli_bytes(["drill", "--seed", "1", "--db", str(foreign)], b"A\n").text)
    assert foreign.read_bytes() == before


# ---------------------------------------------------------------- row 17: damaged contents


def _ours(path: Path, *statements: str) -> None:
    with sqlite3.connect(path) as con:
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.execute(f"PRAGMA user_version = {store_module.SCHEMA_VERSION}")
        for statement in statements:
            con.execute(statement)


@pytest.mark.parametrize(
    "statements",
    [
        ("CREATE TABLE answers (id INTEGER)", "CREATE TABLE sessions (id INTEGER)"),
        ("CREATE TABLE answers (x TEXT)",),
    ],
    ids=["missing-columns", "wrong-table"],
)
def test_our_id_with_a_wrong_schema_is_one_line(
    tmp_path: Path, statements: tuple[str, ...]
) -> None:
    path = tmp_path / "s.db"
    _ours(path, *statements)
    one_line_error(run_cli_bytes(["stats", "--db", str(path)]).text)
    one_line_error(run_cli_bytes(["drill", "--seed", "1", "--db", str(path)], b"A\n").text)


@pytest.mark.parametrize(
    ("column", "value"),
    [("at", "'yesterday'"), ("at", "1e300"), ("seconds", "'slow'"), ("correct", "'yes'"),
     ("at", "-5"), ("rating", "7")],
)
def test_wrongly_typed_stored_values_are_one_line(
    db: Path, column: str, value: str
) -> None:
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE answers SET {column} = {value} WHERE id = 1")
    one_line_error(run_cli_bytes(["stats", "--db", str(db)]).text)
    one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export", "-"]).text)


# ---------------------------------------------------------------- bounded answers


def test_a_huge_answer_is_stored_cut(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    done = run_cli_bytes(["drill", "--seed", "1", "--count", "1", "--db", str(path)],
                         b"A" * 300_000 + b"\n").text
    assert done.code == 0, done.err
    with sqlite3.connect(path) as con:
        (given,) = con.execute("SELECT given FROM answers").fetchone()
    assert len(given) <= MAX_GIVEN_CHARS
    assert path.stat().st_size < 200_000


def test_store_module_states_the_bound() -> None:
    assert store_module.MAX_GIVEN_CHARS == MAX_GIVEN_CHARS > 0


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_export_to_dev_stdout_writes_into_the_pipe(db: Path) -> None:
    done = run_process(["stats", "--db", str(db), "--export", "/dev/stdout"]).text
    assert done.code == 0, done.err
    assert done.out.startswith("id,session")
    assert Path("/dev/stdout").is_symlink() or Path("/dev/stdout").exists()


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_is_not_a_database(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    for path in ("/dev/null", str(fifo)):
        one_line_error(run_cli_bytes(["stats", "--db", path]).text)
        one_line_error(run_cli_bytes(["drill", "--seed", "1", "--db", path], b"A\n").text)
    assert not Path("/dev/null-journal").exists()


def test_stats_never_passes_escape_codes_from_the_database(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sessions SET mode = 'x' || char(27) || '[2J'")
        conn.execute("UPDATE answers SET kind = kind, skill = skill || char(27) || '[31m'")
    result = run_cli_bytes(["stats", "--db", str(db)]).text
    assert result.code == 0, result.err
    assert "\x1b" not in result.out
    assert "x\ufffd[2J" in result.out  # still shown, made harmless


def test_drill_db_in_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    db = tmp_path / "no-such-folder" / "stats.db"
    result = run_cli_bytes(["drill", "--db", str(db), "--seed", "1", "--count", "1"], b"A\n").text
    err = one_line_error(result)
    assert "does not exist" in err and str(db.parent) in err
    assert not db.parent.exists()
