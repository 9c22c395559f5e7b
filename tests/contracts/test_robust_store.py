"""Issue 15 rows 1, 2, 13-18 and the answer-size bound: the stats store and its files.

Permission cases run the command as an unprivileged user (``nobody`` through
``setpriv`` when the tests run as root), since root ignores file modes.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.trainer import store as store_module
from defuser.trainer.store import APPLICATION_ID, MAX_GIVEN_CHARS

ROOT = Path(__file__).resolve().parents[2]


def mittens(*args: str, stdin: bytes = b"", user: list[str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m defuser ARGS`` (as ``user``, a command prefix, when given)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run(
        [*(user or []), sys.executable, "-m", "defuser", *args],
        input=stdin, capture_output=True, env=env, timeout=120, check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """The stderr of a failed run, after checking it is one line and exit 2."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


@pytest.fixture(scope="module")
def db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stats database with three answers, written once by a real drill session."""
    path = tmp_path_factory.mktemp("template") / "stats.db"
    done = mittens("drill", "--seed", "1", "--count", "3", "--db", str(path), stdin=b"A\nB\nC\n")
    assert done.returncode == 0, done.stderr
    assert not path.with_name("stats.db-wal").exists()  # one file holds it all
    return path


@pytest.fixture
def db(db_template: Path, tmp_path: Path) -> Path:
    """A fresh copy of the three-answer stats database, for one test to change."""
    path = tmp_path / "stats.db"
    shutil.copyfile(db_template, path)
    return path


def answer_count(path: Path) -> int:
    """How many answers ``mittens stats --json`` reports."""
    done = mittens("stats", "--db", str(path), "--json")
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["total"]["answers"])


#: Root without the capabilities that bypass file modes: permissions then apply to it.
_NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


@pytest.fixture
def unprivileged() -> Iterator[tuple[list[str], Path]]:
    """(command prefix for which file modes apply, a directory it may use)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("needs setpriv to drop root's file-mode override")
        prefix = _NO_OVERRIDE
        probe = subprocess.run(
            [*prefix, sys.executable, "-c", "import os; open(os.devnull).close()"],
            capture_output=True, timeout=60, check=False,
        )
        if probe.returncode != 0:
            pytest.skip("cannot drop root's file-mode override here")
    work = Path(tempfile.mkdtemp(prefix="mittens-perm-"))
    work.chmod(0o777)
    try:
        yield prefix, work
    finally:
        for child in work.rglob("*"):
            with_mode = child.stat().st_mode
            child.chmod(with_mode | stat.S_IWUSR | stat.S_IRUSR | stat.S_IXUSR)
        work.chmod(0o777)
        shutil.rmtree(work)


# ---------------------------------------------------------------- rows 1 and 2: export


def test_export_with_reset_writes_the_backup_first(db: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup.csv"
    done = mittens("stats", "--db", str(db), "--export", str(backup), "--reset", "--yes")
    assert done.returncode == 0, done.stderr
    assert len(backup.read_text(encoding="utf-8").splitlines()) == 4  # header + 3
    assert answer_count(db) == 0


def test_export_refuses_the_database_itself(db: Path, tmp_path: Path) -> None:
    before = db.read_bytes()
    one_line_error(mittens("stats", "--db", str(db), "--export", str(db)))
    assert db.read_bytes() == before
    assert answer_count(db) == 3
    link = tmp_path / "link.csv"
    link.symlink_to(db)
    one_line_error(mittens("stats", "--db", str(db), "--export", str(link)))
    assert answer_count(db) == 3


def test_export_writes_through_a_symlink_and_keeps_the_mode(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.csv"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o644)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    done = mittens("stats", "--db", str(db), "--export", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("id,session")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_export_writes_into_a_hard_linked_file_in_place(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "a.csv"
    target.write_text("old\n", encoding="utf-8")
    other = tmp_path / "b.csv"
    os.link(target, other)
    assert mittens("stats", "--db", str(db), "--export", str(target)).returncode == 0
    assert other.read_text(encoding="utf-8").startswith("id,session")


def test_export_refuses_a_read_only_file(db: Path, tmp_path: Path) -> None:
    target = tmp_path / "ro.csv"
    target.write_text("keep\n", encoding="utf-8")
    target.chmod(0o444)
    one_line_error(mittens("stats", "--db", str(db), "--export", str(target)))
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
    one_line_error(mittens("stats", "--db", long))
    one_line_error(mittens("drill", "--seed", "1", "--db", long, stdin=b"A\n"))
    one_line_error(mittens("stats", "--db", str(db), "--export", str(tmp_path / ("y" * 300))))
    one_line_error(mittens("log", "analyze", str(tmp_path / ("z" * 300))))


def test_a_database_in_a_forbidden_directory_is_one_line(
    unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    secret = work / "secret"
    secret.mkdir()
    secret.chmod(0o000)
    one_line_error(mittens("stats", "--db", str(secret / "x.db"), user=prefix))
    one_line_error(mittens("drill", "--seed", "1", "--db", str(secret / "x.db"), user=prefix,
                           stdin=b"A\n"))


# ---------------------------------------------------------------- rows 14 and 15: modes


def test_drill_on_a_read_only_database_is_one_line(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    copy = work / "ro.db"
    shutil.copy(db, copy)
    copy.chmod(0o444)
    err = one_line_error(
        mittens("drill", "--seed", "1", "--count", "1", "--db", str(copy), user=prefix,
                stdin=b"A\n")
    )
    assert "read-only" in err


def test_stats_reads_a_database_in_a_read_only_directory(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    folder = work / "ro"
    folder.mkdir()
    copy = folder / "stats.db"
    shutil.copy(db, copy)
    copy.chmod(0o444)
    folder.chmod(0o555)
    done = mittens("stats", "--db", str(copy), "--json", user=prefix)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"]["answers"] == 3
    assert sorted(p.name for p in folder.iterdir()) == ["stats.db"]


# ---------------------------------------------------------------- row 16: never creates


def test_stats_leaves_an_empty_file_empty(tmp_path: Path) -> None:
    empty = tmp_path / "z.db"
    empty.touch()
    done = mittens("stats", "--db", str(empty), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"]["answers"] == 0
    assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["z.db"]


def test_a_foreign_database_without_tables_is_untouched(tmp_path: Path) -> None:
    foreign = tmp_path / "f.db"
    with sqlite3.connect(foreign) as con:
        con.execute("PRAGMA application_id = 1234")
    before = foreign.read_bytes()
    one_line_error(mittens("stats", "--db", str(foreign)))
    one_line_error(mittens("drill", "--seed", "1", "--db", str(foreign), stdin=b"A\n"))
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
    one_line_error(mittens("stats", "--db", str(path)))
    one_line_error(mittens("drill", "--seed", "1", "--db", str(path), stdin=b"A\n"))


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
    one_line_error(mittens("stats", "--db", str(db)))
    one_line_error(mittens("stats", "--db", str(db), "--export", "-"))


# ---------------------------------------------------------------- bounded answers


def test_a_huge_answer_is_stored_cut(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    done = mittens("drill", "--seed", "1", "--count", "1", "--db", str(path),
                   stdin=b"A" * 300_000 + b"\n")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(path) as con:
        (given,) = con.execute("SELECT given FROM answers").fetchone()
    assert len(given) <= MAX_GIVEN_CHARS
    assert path.stat().st_size < 200_000


def test_store_module_states_the_bound() -> None:
    assert store_module.MAX_GIVEN_CHARS == MAX_GIVEN_CHARS > 0


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_export_to_dev_stdout_writes_into_the_pipe(db: Path) -> None:
    done = mittens("stats", "--db", str(db), "--export", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("id,session")
    assert Path("/dev/stdout").is_symlink() or Path("/dev/stdout").exists()


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="needs /dev/null")
def test_a_device_is_not_a_database(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    for path in ("/dev/null", str(fifo)):
        one_line_error(mittens("stats", "--db", path))
        one_line_error(mittens("drill", "--seed", "1", "--db", path, stdin=b"A\n"))
    assert not Path("/dev/null-journal").exists()


def test_stats_never_passes_escape_codes_from_the_database(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE sessions SET mode = 'x' || char(27) || '[2J'")
        conn.execute("UPDATE answers SET kind = kind, skill = skill || char(27) || '[31m'")
    result = mittens("stats", "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "x\ufffd[2J" in result.stdout  # still shown, made harmless


def test_drill_db_in_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    db = tmp_path / "no-such-folder" / "stats.db"
    result = mittens("drill", "--db", str(db), "--seed", "1", "--count", "1", stdin=b"A\n")
    err = one_line_error(result)
    assert "does not exist" in err and str(db.parent) in err
    assert not db.parent.exists()
