"""Issue 22 round 2, items 2-5, 7 and 13, and issue 23 item 9: stored answers are never
lost to a second name, a reset, a read-only folder or a full disk.

Real SQLite files in ``tmp_path``, real hard and symbolic links, real processes where
only a process shows it (a closed stdout, file modes as a user without root's override).
A full disk is SQLite's own error code, raised where SQLite would raise it.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import (
    mittens_command,
    one_line_error,
    process_env,
    run_cli_bytes,
    run_process,
    start_process,
    stored_answers,
)
from store_helpers import answer, copy_in_read_only_folder, make_db, open_store, wal_frames

from defuser.commands import stats as stats_command
from defuser.trainer.export import write_csv
from defuser.trainer.store import StatsDatabaseError, Store

#: A user's shell: Python buffers stdout, so a lost backup shows only when flushed.
BUFFERED: dict[str, str | None] = {"PYTHONUNBUFFERED": None}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database with three answers in one ended session."""
    return make_db(tmp_path / "s.db")


# ------------------------------------------------------------- item 2: two names at once


def test_a_second_name_of_an_open_database_is_refused(db: Path, tmp_path: Path) -> None:
    # Two drills through two hard links shared neither locks nor log: 163 answers
    # acknowledged, 83 stored.
    hard = tmp_path / "hard.db"
    os.link(db, hard)
    with open_store(db) as first:
        session = first.start_session("table", 1)
        with pytest.raises(StatsDatabaseError, match="another name"):
            Store.open(hard)
        err = one_line_error(run_cli_bytes(
            ["drill", "--seed", "1", "--count", "1", "--db", str(hard)], b"A\n").text)
        assert "hard link" in err
        # A reader through the other name would miss what the first writes: refused too.
        one_line_error(run_cli_bytes(["stats", "--db", str(hard)]).text)
        first.record(session, answer(9))
    # Once the first is closed, the other name is free; nothing acknowledged was lost.
    with open_store(hard) as second:
        assert len(second.answers()) == 4


def test_the_same_file_through_a_symlink_is_the_same_name(db: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.db"
    link.symlink_to(db)
    with open_store(db) as first, open_store(link) as second:
        a, b = first.start_session("table", 1), second.start_session("table", 2)
        first.record(a, answer(5))
        second.record(b, answer(6))
        assert stored_answers(link) == 5


# ------------------------------------------------------------- item 3: a backup nowhere


@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
def test_reset_with_a_backup_to_a_closed_stdout_deletes_nothing(db: Path, target: str) -> None:
    # 'mittens stats --export - --reset --yes >&-' wrote the backup nowhere, exit 0,
    # then deleted every answer.
    done = run_process(["stats", "--db", str(db), "--export", target, "--reset", "--yes"],
                       close=[1], env=BUFFERED).text
    one_line_error(done)
    assert "nothing was deleted" in done.err or "cannot write" in done.err
    assert stored_answers(db) == 3


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_reset_with_a_backup_to_a_full_disk_deletes_nothing(db: Path) -> None:
    one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export", "/dev/full",
                                  "--reset", "--yes"]).text)
    assert stored_answers(db) == 3
    with_null = run_cli_bytes(["stats", "--db", str(db), "--export", os.devnull, "--reset",
                               "--yes"]).text
    assert "null device" in one_line_error(with_null)
    assert stored_answers(db) == 3


def test_a_backup_that_lacks_an_answer_deletes_nothing(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A backup that lost its last row on the way (a filter, a full disk the OS hid).
    monkeypatch.setattr(stats_command, "write_csv",
                        lambda rows, stream: write_csv(rows[:-1], stream))
    backup = tmp_path / "backup.csv"
    err = one_line_error(run_cli_bytes(["stats", "--db", str(db), "--export", str(backup),
                                        "--reset", "--yes"]).text)
    assert "holds 2 of the 3 answers" in err
    assert stored_answers(db) == 3


def test_a_backup_whose_reader_goes_away_deletes_nothing(tmp_path: Path) -> None:
    # 'stats --export - --reset --yes | head -1': the backup did not arrive whole.
    big = make_db(tmp_path / "big.db", 1500)  # more than a pipe holds: the writer waits
    proc = start_process(["stats", "--db", str(big), "--export", "-", "--reset", "--yes"],
                         stdin=subprocess.DEVNULL, env=BUFFERED)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # as 'head -1' does after its line
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.wait(timeout=60)
    assert proc.returncode == 2, err
    assert "nothing was deleted" in err and len(err.strip().splitlines()) == 1
    assert stored_answers(big) == 1500


def test_an_export_to_stdout_appended_to_the_database_is_refused(db: Path) -> None:
    before = db.read_bytes()
    for extra in ([], ["--reset", "--yes"]):
        with db.open("ab") as appended:
            done = subprocess.run(
                mittens_command(["stats", "--db", str(db), "--export", "-", *extra]),
                stdout=appended, stderr=subprocess.PIPE, env=process_env(BUFFERED),
                check=False)
        assert done.returncode == 2
        assert b"standard output is the stats database" in done.stderr
    assert db.read_bytes() == before


def test_a_backup_on_stdout_is_flushed_before_the_reset(db: Path) -> None:
    done = run_process(["stats", "--db", str(db), "--export", "-", "--reset", "--yes"],
                       env=BUFFERED).text
    assert done.code == 0, done.err
    assert len(done.out.splitlines()) == 4  # the header and three answers
    assert stored_answers(db) == 0


# ------------------------------------------------------------- item 4: answers without a session


def test_answers_without_their_session_are_seen_exported_and_reset(
    db: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(db) as con:  # foreign keys are off, as in an old release
        con.execute("DELETE FROM sessions")
    con.close()
    assert stored_answers(db) == 3
    backup = tmp_path / "backup.csv"
    done = run_cli_bytes(["stats", "--db", str(db), "--export", str(backup), "--reset",
                          "--yes"]).text
    assert done.code == 0, done.err
    assert "Exported 3 answers" in done.err
    assert "Deleted 3 answers" in done.out
    assert len(backup.read_text(encoding="utf-8").splitlines()) == 4


# ------------------------------------------------------------- item 7: reset during a drill


def test_a_reset_never_stops_a_running_drill(db: Path) -> None:
    # 'stats --reset --yes' from another terminal killed the drill: FOREIGN KEY
    # constraint failed, and nothing more of that session could be stored.
    with open_store(db) as drill:
        session = drill.start_session("table", 1)
        drill.record(session, answer(10))
        done = run_cli_bytes(["stats", "--db", str(db), "--reset", "--yes"]).text
        assert done.code == 0, done.err
        assert "Deleted 4 answers" in done.out
        drill.record(session, answer(11))
        drill.record(session, answer(12))
        drill.end_session(session)
        with open_store(db) as other:  # a session started later never takes its id
            assert other.start_session("table", 2) > session
    with open_store(db) as store:
        rows = store.answers()
    assert [r.session_id for r in rows] == [session, session]
    assert {r.mode for r in rows} == {"table"}


def test_reset_deletes_only_what_it_read(db: Path) -> None:
    with open_store(db) as reader, open_store(db) as drill:
        read = reader.answers()
        session = drill.start_session("table", 1)
        drill.record(session, answer(20))  # stored after the backup was read
        assert reader.reset(read) == 3
        assert [r.question for r in drill.answers()] == ['{"n": 20}']
        with pytest.raises(StatsDatabaseError, match="nothing was deleted"):
            reader.reset(read)  # those answers are gone: nothing else goes with them
    assert stored_answers(db) == 1


# ------------------------------------------------------------- item 5 and issue 23 item 9


def crashed_copy(db: Path, folder: Path) -> Path:
    """A copy of ``db`` as a drill killed after six more answers leaves it: the answers
    in the ``-wal``, no ``-shm``."""
    with open_store(db) as drill:
        session = drill.start_session("table", 1)
        for n in range(6):
            drill.record(session, answer(30 + n))
        copy = folder / "s.db"
        shutil.copyfile(db, copy)
        shutil.copyfile(f"{db}-wal", f"{copy}-wal")
    assert wal_frames(copy) >= 6  # the answers are in the log, not yet in the file
    return copy


def test_a_read_only_folder_with_a_wal_and_no_shm_is_read_whole(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    # stats fell back to immutable=1, which skips the WAL: 6 of 12 answers shown and
    # exported, exit 0, without a word.
    prefix, work = unprivileged
    folder = work / "ro"
    folder.mkdir()
    copy = crashed_copy(db, folder)
    folder.chmod(0o555)
    done = run_process(["stats", "--db", str(copy), "--json"], prefix=prefix).text
    assert done.code == 0, done.err
    assert json.loads(done.out)["total"]["answers"] == 9
    csv = run_process(["stats", "--db", str(copy), "--export", "-"], prefix=prefix).text
    assert len(csv.out.splitlines()) == 10
    assert sorted(p.name for p in folder.iterdir()) == ["s.db", "s.db-wal"]


def test_stats_leaves_nothing_beside_the_database(db: Path, tmp_path: Path) -> None:
    # A read-only file read in place left read-only -wal and -shm files behind, and
    # every drill failed after that.
    clean = tmp_path / "clean"
    clean.mkdir()
    shutil.copyfile(db, clean / "s.db")
    (clean / "s.db").chmod(0o444)
    assert stored_answers(clean / "s.db") == 3
    assert sorted(p.name for p in clean.iterdir()) == ["s.db"]
    folder = tmp_path / "crash"
    folder.mkdir()
    copy = crashed_copy(db, folder)
    copy.chmod(0o444)
    assert stored_answers(copy) == 9
    assert sorted(p.name for p in folder.iterdir()) == ["s.db", "s.db-wal"]


def test_a_drill_names_a_read_only_file_beside_the_database(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    copy = work / "s.db"
    shutil.copyfile(db, copy)
    shm = Path(f"{copy}-shm")
    shm.write_bytes(bytes(32768))
    shm.chmod(0o444)
    copy.chmod(0o666)
    done = run_process(["drill", "--seed", "1", "--count", "1", "--db", str(copy)], b"A\n",
                       prefix=prefix).text
    err = one_line_error(done)
    assert "s.db-shm" in err and "read-only" in err


def test_a_reader_sees_a_running_drill_in_place(db: Path) -> None:
    with open_store(db) as drill:
        session = drill.start_session("table", 1)
        drill.record(session, answer(40))
        assert wal_frames(db) > 0  # the answer is in the log, not yet in the file
        assert stored_answers(db) == 4
        drill.record(session, answer(41))
        assert stored_answers(db) == 5


# ------------------------------------------------------------- item 13: the real cause


class FullDisk(sqlite3.Connection):
    """A connection on a disk that fills up: ``COMMIT`` of a write fails as SQLite's
    does (SQLITE_FULL, the transaction rolled back by SQLite itself)."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql == "COMMIT":
            super().execute("ROLLBACK")
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = sqlite3.SQLITE_FULL
            error.sqlite_errorname = "SQLITE_FULL"
            raise error
        return super().execute(sql, *args)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    connect = sqlite3.connect

    def on_a_full_disk(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return connect(*args, factory=FullDisk, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", on_a_full_disk)


def test_a_full_disk_says_the_disk_is_full(db: Path, full_disk: None) -> None:
    done = run_cli_bytes(["drill", "--seed", "1", "--count", "2", "--db", str(db)],
                         b"A\nB\n").text
    err = one_line_error(done)
    assert "the disk is full" in err
    assert "move it away" not in err and "untouched" not in err


def test_creating_a_database_on_a_full_disk_leaves_nothing(
    tmp_path: Path, full_disk: None
) -> None:
    new = tmp_path / "new.db"
    err = one_line_error(run_cli_bytes(
        ["drill", "--seed", "1", "--count", "1", "--db", str(new)], b"A\n").text)
    assert "the disk is full" in err
    assert "cannot rollback" not in err and "untouched" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("folder_exists", [True, False])
def test_a_full_disk_when_the_file_or_its_folder_is_made_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder_exists: bool
) -> None:
    home = tmp_path / "data"
    if folder_exists:
        (home / "exploding-mittens").mkdir(parents=True)
    real_open, real_mkdir = os.open, os.mkdir

    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device", str(args[0]))

    def open_full(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_EXCL:
            no_room(path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_full)
    monkeypatch.setattr(os, "mkdir", no_room if not folder_exists else real_mkdir)
    done = run_cli_bytes(["drill", "--seed", "1", "--count", "1"], b"A\n",
                         env={"XDG_DATA_HOME": str(home)}).text
    err = one_line_error(done)
    assert "cannot be created (the disk is full)" in err
    assert "untouched" not in err and "move it away" not in err


def test_answers_left_in_another_names_log_are_never_overwritten(
    db: Path, tmp_path: Path
) -> None:
    # A drill killed while using the name hard.db left its answers in hard.db-wal; a
    # session through s.db would not see them, and its writes would be undone when
    # that log is replayed.
    hard = tmp_path / "hard.db"
    os.link(db, hard)
    tests = Path(__file__).parents[1]
    killed = run_process([str(hard)], script=(
        "import os, sys; from pathlib import Path; from store_helpers import answer, "
        "open_store\nstore = open_store(Path(sys.argv[1]))\n"
        "session = store.start_session('table', 1)\n"
        "for n in range(4): store.record(session, answer(50 + n))\nos._exit(0)"
    ), env={"PYTHONPATH": os.pathsep.join((str(tests.parent), str(tests)))}).text
    assert killed.code == 0, killed.err
    assert Path(f"{hard}-wal").stat().st_size > 32
    with pytest.raises(StatsDatabaseError, match=r"hard\.db-wal"):
        Store.open(db)
    assert "hard.db-wal" in one_line_error(run_cli_bytes(["stats", "--db", str(db)]))
    assert stored_answers(hard) == 7
    done = run_cli_bytes(["drill", "--seed", "1", "--count", "1", "--db", str(hard)], b"A\n")
    assert done.code == 0, done.err
    assert stored_answers(db) == 8


def test_a_drill_in_a_read_only_folder_names_the_folder(
    db: Path, unprivileged: tuple[list[str], Path]
) -> None:
    prefix, work = unprivileged
    folder = work / "ro"
    copy = copy_in_read_only_folder(db, folder, "s.db", 0o666)
    err = one_line_error(run_process(
        ["drill", "--seed", "1", "--count", "1", "--db", str(copy)], b"A\n",
        prefix=prefix))
    assert f"its folder {str(folder)!r} is read-only" in err


@pytest.mark.parametrize("step", ["folder", "copy"])
def test_no_room_for_a_private_copy_is_one_line(
    db: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device", str(args[-1]) if args else "")

    if step == "folder":
        monkeypatch.setattr(tempfile, "mkdtemp", full)
    else:
        monkeypatch.setattr(shutil, "copyfile", lambda src, dst: full(src, str(dst)))
    err = one_line_error(run_cli_bytes(["stats", "--db", str(db)]))
    assert "no room for a private copy" in err and "the disk is full" in err
    assert "untouched" not in err
