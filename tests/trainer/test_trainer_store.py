"""The stats database: transactions, concurrent sessions, interrupted sessions, and
files that are not ours or are corrupt (reported, never written to)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from cli_helpers import run_cli_bytes, start_process

from defuser.trainer.export import write_csv
from defuser.trainer.location import default_db_path
from defuser.trainer.report import build_scheduler
from defuser.trainer.store import APPLICATION_ID, AnswerRecord, StatsDatabaseError, Store

ROOT = Path(__file__).resolve().parents[2]


def integrity(path: Path) -> str:
    """SQLite's full integrity check of the file at ``path``: ``ok`` or the first problem."""
    raw = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        return str(raw.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        raw.close()


def record(n: int, *, correct: bool = True, kind: str = "table") -> AnswerRecord:
    """A plausible answer number ``n``."""
    return AnswerRecord(
        at=1_700_000_000.0 + n,
        kind=kind,
        skill=f"{kind}:B",
        rule=None,
        question={"text": f"question {n}"},
        expected="B",
        given="B" if correct else "C",
        grade="right" if correct else "wrong",
        correct=correct,
        seconds=1.5,
    )


def digest(path: Path) -> str:
    """The file's SHA-256, to prove it was not touched."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_default_path_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path("linux") == tmp_path / "exploding-mittens" / "stats.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    home = default_db_path("linux")
    assert home == Path.home() / ".local" / "share" / "exploding-mittens" / "stats.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")
    assert default_db_path("linux") == home  # XDG wants absolute


def test_round_trip_and_reset(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "stats.sqlite3"
    assert Store.open(path, create=False) is None
    assert not path.exists()
    with Store.open(path) as store:  # type: ignore[union-attr]
        session = store.start_session("table", 7, at=1_700_000_000.0)
        for n in range(5):
            store.record(session, record(n, correct=n != 2))
        store.end_session(session)
        rows = store.answers()
        assert [r.given for r in rows] == ["B", "B", "C", "B", "B"]
        assert [r.correct for r in rows] == [True, True, False, True, True]
        assert rows[0].mode == "table" and rows[0].seconds == 1.5
        assert integrity(store.path) == "ok"
        assert store.reset(store.answers()) == 5
        assert store.answers() == []
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()


def test_answers_recorded_at_once_are_stored_in_order_or_not_at_all(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.db") as store:  # type: ignore[union-attr]
        session = store.start_session("table", None)
        first = store.record(session, record(0))
        ids = store.record_many(session, [record(n, correct=n != 2) for n in range(1, 4)])
        assert ids == [first + 1, first + 2, first + 3]
        assert [(r.id, r.correct) for r in store.answers()] == [
            (first, True), (ids[0], True), (ids[1], False), (ids[2], True)]
        assert store.record_many(session, []) == []
        # An answer that cannot be written takes the others of its call with it.
        unwritable = dataclasses.replace(record(9), question={"n": object()})
        with pytest.raises(TypeError):
            store.record_many(session, [record(5), unwritable])
        assert len(store.answers()) == 4


def test_csv_export(tmp_path: Path) -> None:
    import io

    with Store.open(tmp_path / "s.db") as store:  # type: ignore[union-attr]
        session = store.start_session("rule", None)
        store.record(session, record(1))
        stream = io.StringIO()
        write_csv(store.answers(), stream)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("id,session,mode,time,kind,skill,rule,question")
    assert ",table,table:B," in lines[1]
    assert len(lines) == 2


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from defuser.trainer.store import AnswerRecord, Store

    store = Store.open(Path(sys.argv[1]))
    session = store.start_session(sys.argv[2], None)
    sys.stdout.write("ready\\n"); sys.stdout.flush()
    sys.stdin.readline()  # start together
    for n in range(int(sys.argv[3])):
        store.record(session, AnswerRecord(
            at=float(n), kind="table", skill="table:A", rule=None,
            question={"n": n}, expected="A", given="A", grade="right",
            correct=True, seconds=0.1))
    store.end_session(session)
    store.close()
    """
)


def test_two_sessions_write_at_once(memory_path: Path) -> None:
    path = memory_path / "stats.sqlite3"  # 300 answers, each synced: in memory if possible
    count = 150
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), mode, str(count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for mode in ("first", "second")
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        assert proc.wait(timeout=60) == 0
    with Store.open(path) as store:  # type: ignore[union-attr]
        rows = store.answers()
        assert integrity(store.path) == "ok"
    assert len(rows) == 2 * count
    for mode in ("first", "second"):
        mine = [r for r in rows if r.mode == mode]
        assert sorted(int(r.question.split(":")[1].rstrip("}")) for r in mine) == list(
            range(count)
        )


def test_threads_with_their_own_connections(memory_path: Path) -> None:
    path = memory_path / "stats.sqlite3"  # 180 answers, each synced: in memory if possible
    Store.open(path).close()  # type: ignore[union-attr]
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            with Store.open(path) as store:  # type: ignore[union-attr]
                session = store.start_session(name, None)
                for n in range(60):
                    store.record(session, record(n))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with Store.open(path) as store:  # type: ignore[union-attr]
        assert len(store.answers()) == 180


def test_garbage_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 100)
    before = digest(path)
    with pytest.raises(StatsDatabaseError, match="not a readable SQLite database"):
        Store.open(path)
    for args in (("stats",), ("drill", "--mode", "table", "--count", "1"),
                 ("stats", "--reset", "--yes")):
        result = run_cli_bytes([*args, "--db", str(path)], b"B\n").text
        assert result.code == 2
        assert result.out == ""
        lines = result.err.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and "left untouched" in lines[0]
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stats.sqlite3"]


def test_another_programs_database_is_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE recipes (name TEXT)")
    raw.execute("INSERT INTO recipes VALUES ('soup')")
    raw.commit()
    raw.close()
    before = digest(path)
    with pytest.raises(StatsDatabaseError, match="another program"):
        Store.open(path)
    assert digest(path) == before


def test_corrupt_database_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    with Store.open(path) as store:  # type: ignore[union-attr]
        session = store.start_session("table", None)
        store.record_many(session, [record(n) for n in range(400)])
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode = DELETE")  # fold the WAL back into the file
    raw.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[2 * page : 3 * page] = b"\xff" * page  # wreck a page in the middle
    path.write_bytes(bytes(data))
    before = digest(path)
    result = run_cli_bytes(["stats", "--db", str(path)]).text
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "left untouched" in result.err
    assert digest(path) == before


def test_directory_as_database_is_an_input_error(tmp_path: Path) -> None:
    result = run_cli_bytes(["stats", "--db", str(tmp_path)]).text
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1


def _drill_proc(path: Path) -> subprocess.Popen[str]:
    return start_process(
        ["drill", "--mode", "table", "--seed", "3", "--count", "20", "--db", str(path)],
        text=True,
    )


def _answer_three(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    answered = 0
    while answered < 3:
        line = proc.stdout.readline()
        assert line, "the drill ended early"
        if line.startswith("["):
            proc.stdin.write("B\n")
            proc.stdin.flush()
        if line.strip().startswith(("RIGHT", "WRONG")):
            answered += 1


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_interrupted_session_keeps_earlier_answers(memory_path: Path, how: int) -> None:
    path = memory_path / "stats.sqlite3"
    proc = _drill_proc(path)
    _answer_three(proc)
    proc.send_signal(how)
    _, err = proc.communicate(timeout=30)
    if how == signal.SIGINT:
        assert proc.returncode == 130
        assert "Traceback" not in err
    with Store.open(path) as store:  # type: ignore[union-attr]
        assert integrity(store.path) == "ok"
        assert len(store.answers()) == 3
    # the next session starts cleanly and adds to the same file
    result = run_cli_bytes(["drill", "--mode", "table", "--seed", "3", "--count", "2",
                            "--db", str(path)], b"A\nB\n").text
    assert result.code == 0, result.err
    with Store.open(path) as store:  # type: ignore[union-attr]
        assert len(store.answers()) == 5


# --------------------------------------------------------------------------- schema 1 -> 2

#: A stats database written by the release before schema 2 (56 answers, 10 sessions).
SCHEMA_1_FIXTURE = ROOT / "tests" / "data" / "stats-v1.sqlite"


def _raw(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every schema-1 column of every answer and session, straight from SQLite."""
    with sqlite3.connect(path) as db:
        answers = db.execute(
            "SELECT id, session_id, at, kind, skill, rule, question, expected, given, grade,"
            " correct, seconds, loss FROM answers ORDER BY id"
        ).fetchall()
        sessions = db.execute("SELECT * FROM sessions ORDER BY id").fetchall()
    return answers, sessions


def test_a_schema_1_database_is_migrated_without_losing_an_answer(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(SCHEMA_1_FIXTURE.read_bytes())
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    before = _raw(path)
    assert len(before[0]) == 56 and len(before[1]) == 10
    store = Store.open(path)
    assert store is not None
    with store:
        rows = store.answers()
        assert store.settings() == {}
        assert integrity(store.path) == "ok"
    assert len(rows) == 56
    assert {r.rating for r in rows} == {None} and {r.target for r in rows} == {None}
    assert _raw(path) == before  # every old value unchanged
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        columns = [r[1] for r in db.execute("PRAGMA table_info(answers)")]
    assert columns[-2:] == ["rating", "target"]
    # The migrated log primes the FSRS scheduler: every old answer is replayed.
    scheduler = build_scheduler(rows)
    assert sum(s.seen for s in scheduler.skills.values()) == 56
    # New answers go after the old ones; opening again changes nothing.
    with Store.open(path) as again:  # type: ignore[union-attr]
        session = again.start_session("table", None)
        again.record(session, AnswerRecord(
            at=1_800_000_000.0, kind="table", skill="table:B", rule=None,
            question={"text": "q"}, expected="B", given="B", grade="right", correct=True,
            seconds=1.0, rating=4, target=4.0,
        ))
        again.save_setting("retention", "0.85")
        rows = again.answers()
        assert again.settings() == {"retention": "0.85"}
    assert len(rows) == 57 and rows[-1].rating == 4 and rows[-1].target == 4.0
    assert _raw(path)[0][:56] == before[0]


def test_mittens_stats_reads_a_schema_1_database(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(SCHEMA_1_FIXTURE.read_bytes())
    run = run_cli_bytes(["stats", "--json", "--db", str(path)]).text
    assert run.code == 0, run.err
    report = json.loads(run.out)
    assert report["total"]["answers"] == 56 and report["sessions"] == 10
