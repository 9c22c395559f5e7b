"""The answer log: every drill answer in a SQLite database.

Contract: each answer is written in its own transaction, so a crash or Ctrl-C loses at
most the answer in flight and never what was committed; the database runs in WAL mode
with a busy timeout, so two sessions can write at once through one name. A second name
of the same file (a hard link) is refused while a session holds the first
(:mod:`defuser.trainer.namelock`): SQLite keeps the write-ahead log beside the name, so
two names would lose answers. A file that is not a readable stats database of this
program (corrupt, another program's, from a newer version) is reported in one line as
:class:`StatsDatabaseError` and never written to; a failure outside the file (a full
disk, a disk error, a lock held too long) names that cause instead. A database that
could not be created is removed again, so nothing half-made is left.

Reading (``mittens stats``) never writes to the file and leaves nothing beside it:
while a session writes (its ``-wal`` and ``-shm`` are there) it reads in place, else it
reads a private copy of the file and its ``-wal`` (:mod:`defuser.trainer.readcopy`), so
a read-only folder or file is read whole, the log included. Only a drill creates a
database or migrates its schema. A file carrying another program's ``application_id``,
a non-empty file without ours, a schema without the expected columns or a stored value
of the wrong type is one :class:`StatsDatabaseError`, never a traceback. Every stored
answer is read, also one whose session row is missing. A stored answer text is cut to
:data:`MAX_GIVEN_CHARS` characters, so one pasted answer cannot grow the file.

Only :meth:`Store.reset` deletes answers, exactly those it is given (the ones read and
backed up), and the CLI asks first; a session still running writes its row again with
its next answer, so a reset never stops a drill.

Schema 2 adds each answer's FSRS rating and answer-time target, and the learner's
settings (desired retention, caps on new skills, daily goal). A schema-1 file is
migrated in place in one transaction when it is opened: the two columns are added
(empty for the old answers, whose ratings the scheduler derives when it replays them)
and the settings table is created; no answer is changed or lost.

Where the database lives by default is :mod:`defuser.trainer.location`'s business; the
CSV export of the stored answers is :mod:`defuser.trainer.export`'s; which files are
the database's own is :mod:`defuser.trainer.dbfiles`'.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from defuser.errors import DefuserError
from defuser.streams import os_reason
from defuser.trainer import namelock
from defuser.trainer.dbfiles import journal_names, stranded_logs
from defuser.trainer.readcopy import KeptChanging, copy_to_read
from edgework import RuleLetter

#: Marks the file as ours (``PRAGMA application_id``): the bytes "MiTn".
APPLICATION_ID: Final = 0x4D69546E
SCHEMA_VERSION: Final = 2
#: How long a writer waits for another session's transaction (milliseconds).
BUSY_TIMEOUT_MS: Final = 15_000
#: The longest answer text stored (longer answers are cut; they are unreadable anyway).
MAX_GIVEN_CHARS: Final = 200
#: The latest timestamp stored (the end of year 9999, the last an ISO date can show).
_LAST_TIME: Final = 253_402_300_799.0

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS sessions (
        id INTEGER PRIMARY KEY,
        started REAL NOT NULL,
        ended REAL,
        mode TEXT NOT NULL,
        seed INTEGER
    )""",
    """CREATE TABLE IF NOT EXISTS answers (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        at REAL NOT NULL,
        kind TEXT NOT NULL,
        skill TEXT NOT NULL,
        rule TEXT,
        question TEXT NOT NULL,
        expected TEXT NOT NULL,
        given TEXT NOT NULL,
        grade TEXT NOT NULL,
        correct INTEGER NOT NULL,
        seconds REAL NOT NULL,
        loss REAL,
        rating INTEGER,
        target REAL
    )""",
    """CREATE TABLE IF NOT EXISTS settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS answers_at ON answers(at)",
    "CREATE INDEX IF NOT EXISTS answers_skill ON answers(skill)",
)

#: Columns later schemas added to ``answers``, with their SQL types (schema 2).
_ADDED_COLUMNS: Final[tuple[tuple[str, str], ...]] = (("rating", "INTEGER"), ("target", "REAL"))


class _Busy(Exception):
    """Another connection held the lock while this one prepared the database."""

    def __init__(self, error: sqlite3.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite gave up on a lock that another connection holds."""
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _is_outside(exc: sqlite3.Error) -> bool:
    """Whether the cause lies outside the file's contents (a full disk, a disk error)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _CAUSES


class StatsDatabaseError(DefuserError):
    """The stats database cannot be used; the message names the file and the problem.

    ``untouched`` is true when the error concerns a file that exists and was left as it
    was; a front end then says how to use another one (the command line names its option).
    """

    def __init__(self, message: str, *, untouched: bool = False) -> None:
        """Keep ``message``; ``untouched`` marks an existing file that was left alone."""
        super().__init__(message)
        self.untouched = untouched


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """One answer to store."""

    at: float
    kind: str
    skill: str
    rule: RuleLetter | None
    question: Mapping[str, Any]
    expected: str
    given: str
    grade: str
    correct: bool
    seconds: float
    loss: float | None = None
    rating: int | None = None
    target: float | None = None


@dataclass(frozen=True, slots=True)
class AnswerRow:
    """One stored answer, as read back."""

    id: int
    session_id: int
    mode: str
    at: float
    kind: str
    skill: str
    #: The rule letter in force (read back as the letter enum), or ``None``.
    rule: RuleLetter | None
    question: str
    expected: str
    given: str
    grade: str
    correct: bool
    seconds: float
    loss: float | None
    rating: int | None = None
    target: float | None = None


def _fail(path: Path, what: str) -> StatsDatabaseError:
    """The file is not a stats database this version can use; it was not changed."""
    return StatsDatabaseError(
        f"stats database {str(path)!r} {what}; it was left untouched", untouched=True
    )


#: The words for SQLite's primary result codes whose own message hides the cause.
_CAUSES: Final[dict[int, str]] = {
    sqlite3.SQLITE_FULL: "the disk is full",
    sqlite3.SQLITE_IOERR: "a disk error",
    sqlite3.SQLITE_READONLY: "it cannot be written here",
    sqlite3.SQLITE_CANTOPEN: "it cannot be opened",
    sqlite3.SQLITE_BUSY: f"another session kept it locked for {BUSY_TIMEOUT_MS // 1000} s",
    sqlite3.SQLITE_LOCKED: "another connection kept it locked",
}


def sqlite_cause(exc: sqlite3.Error) -> str:
    """What went wrong, in words: a full disk says the disk is full."""
    code = getattr(exc, "sqlite_errorcode", None)
    words = _CAUSES.get(code & 0xFF) if isinstance(code, int) else None
    if words is None:
        return str(exc)
    return words if code == sqlite3.SQLITE_FULL else f"{words}: {exc}"


def _broken(path: Path, doing: str, exc: sqlite3.Error) -> StatsDatabaseError:
    """The database cannot be used now for a reason outside it (a full disk, a lock)."""
    return StatsDatabaseError(f"stats database {str(path)!r} cannot be {doing} "
                              f"({sqlite_cause(exc)})")


def _other_name(path: Path) -> StatsDatabaseError:
    return StatsDatabaseError(
        f"stats database {str(path)!r} is open in another session under another name "
        "(a hard link to the same file); use the same name in both, or wait for it to end"
    )


def _is_database_file(path: Path) -> bool:
    """Whether ``path`` exists; raises when it exists but cannot hold a database."""
    try:
        if path.is_dir():
            raise _fail(path, "is a directory, expected a database file")
        exists = path.exists()
        if exists and not path.is_file():
            # A device or FIFO: SQLite would block on it or put a journal beside it.
            raise _fail(path, "is not a regular file, expected a database file")
    except OSError as exc:
        raise _fail(path, f"cannot be opened ({exc.strerror or exc})") from exc
    return exists


def _make_folder(path: Path, *, make_parents: bool) -> None:
    """Make sure the folder of a database to be created exists (made only with
    ``make_parents``)."""
    if not make_parents and not path.parent.is_dir():
        raise StatsDatabaseError(
            f"stats database {str(path)!r} cannot be created: its folder "
            f"{str(path.parent)!r} does not exist"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StatsDatabaseError(
            f"stats database {str(path)!r} cannot be created ({os_reason(exc)})"
        ) from exc


def _create(path: Path) -> bool:
    """Create the empty file ``path``; whether this call created it (not another session)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
    except FileExistsError:
        return False
    except OSError as exc:
        raise StatsDatabaseError(
            f"stats database {str(path)!r} cannot be created ({os_reason(exc)})"
        ) from exc
    return True


def _remove_created(path: Path) -> None:
    """Remove a database this session created and could not prepare, with its files."""
    for name in (os.fspath(path), *(journal for journal, _ in journal_names(path))):
        with contextlib.suppress(OSError):
            os.unlink(name)


def _check_writable(path: Path) -> None:
    """A drill needs to write the database and the files SQLite keeps beside it."""
    if not os.access(path, os.W_OK):
        raise _fail(path, "is read-only; a drill needs to write its answers there")
    folder = os.path.dirname(os.path.realpath(path))
    if not os.access(folder, os.W_OK):
        raise StatsDatabaseError(
            f"stats database {str(path)!r} cannot be written: its folder {folder!r} is "
            "read-only, and a drill keeps its -wal and -shm files beside the database"
        )
    for name, suffix in journal_names(path):
        if os.path.exists(name) and not os.access(name, os.W_OK):
            raise StatsDatabaseError(
                f"stats database {str(path)!r} cannot be written: its {suffix} file "
                f"{name!r} is read-only; make it writable (a drill needs it), or remove "
                "it while no session runs if it is the -shm file"
            )


def _hold_name(path: Path) -> namelock.NameLock:
    try:
        return namelock.hold(path)
    except namelock.OtherName:
        raise _other_name(path) from None


def _check_stranded(path: Path) -> None:
    """Refuse a file whose answers wait in the log of another of its names."""
    logs = stranded_logs(path)
    if logs:
        other = logs[0].removesuffix("-wal")
        raise StatsDatabaseError(
            f"stats database {str(path)!r} has answers waiting in {logs[0]!r}, the log of "
            f"another name of the same file (a hard link); a drill through {other!r} "
            "moves them into the file when it ends (reading through that name shows them)"
        )


@dataclass(frozen=True, slots=True)
class _Started:
    """What a session row holds, kept to write it again if a reset removed it."""

    started: float
    mode: str
    seed: int | None



_INSERT_ANSWER: Final = (
    "INSERT INTO answers (session_id, at, kind, skill, rule, question, expected,"
    " given, grade, correct, seconds, loss, rating, target)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _answer_row(session_id: int, answer: AnswerRecord) -> tuple[object, ...]:
    """The values of :data:`_INSERT_ANSWER` for one answer of a session."""
    return (
        session_id,
        answer.at,
        answer.kind,
        answer.skill,
        answer.rule,
        json.dumps(answer.question, ensure_ascii=False, sort_keys=True),
        answer.expected,
        answer.given[:MAX_GIVEN_CHARS],
        answer.grade,
        int(answer.correct),
        answer.seconds,
        answer.loss,
        answer.rating,
        answer.target,
    )


class Store:
    """An open stats database. Use :meth:`open`; close with :meth:`close` or ``with``."""

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection,
        *,
        empty: bool = False,
        lock: namelock.NameLock | None = None,
        scratch: str | None = None,
    ) -> None:
        """Wrap an already checked connection; use :meth:`open` instead."""
        self.path = path
        self._db = connection
        #: A read-only open of a file that holds no stats yet (empty, or a new database).
        self._empty = empty
        #: The mark of the name this writer uses (:mod:`defuser.trainer.namelock`).
        self._lock = lock
        #: The private folder a reader's copy lives in, removed on closing.
        self._scratch = scratch
        self._sessions: dict[int, _Started] = {}

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        create: bool = True,
        readonly: bool = False,
        make_parents: bool = True,
    ) -> Store | None:
        """Open (and, with ``create``, create) the database at ``path``.

        Returns ``None`` when the file does not exist and ``create`` is false. Raises
        :class:`StatsDatabaseError` when the file exists but is not a usable database,
        when it is open in another session under another name, or when it is to be
        created in a folder that does not exist and ``make_parents`` is false (a command
        passes it for a path the user typed). With ``readonly`` nothing is ever written,
        and nothing is left beside the file (see the module contract).
        """
        path = Path(path)
        exists = _is_database_file(path)
        if not exists and not create:
            return None
        if readonly:
            return cls._open_readonly(path)
        created = False
        if exists:
            _check_writable(path)
            _check_stranded(path)
        else:
            _make_folder(path, make_parents=make_parents)
            created = _create(path)
        lock = _hold_name(path)
        try:
            db = cls._connect(path, created=created)
        except BaseException:
            if created and lock.alone():
                _remove_created(path)
            lock.close()
            raise
        return cls(path, db, lock=lock)

    @classmethod
    def _connect(cls, path: Path, *, created: bool) -> sqlite3.Connection:
        """A connection to the existing file ``path``, checked and prepared for writing."""
        # mode=rw never creates a file, so an existing path cannot be replaced.
        uri = f"{path.absolute().as_uri()}?mode=rw"
        try:
            db = sqlite3.connect(
                uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
        except sqlite3.Error as exc:
            raise _broken(path, "created" if created else "opened", exc) from exc
        # Two sessions opening a new file at once can meet SQLITE_BUSY while one of them
        # switches the journal to WAL or writes the schema; SQLite does not always wait
        # on its busy handler there, so the preparation is retried until the busy timeout.
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        try:
            while True:
                try:
                    cls._check_and_prepare(path, db, created=created)
                    return db
                except _Busy as busy:
                    if time.monotonic() >= deadline:
                        raise _broken(path, "used", busy.error) from busy
                    time.sleep(0.02)
        except BaseException:
            db.close()
            raise

    @classmethod
    def _open_readonly(cls, path: Path) -> Store:
        """Open an existing file for reading only: nothing is written, nothing is left.

        While a session writes to it (its ``-wal`` and ``-shm`` are there) it is read in
        place, seeing every committed answer; otherwise, or when that fails (a read-only
        ``-shm``), a private copy of the file and its ``-wal`` is read.
        """
        try:
            namelock.check(path)
        except namelock.OtherName:
            raise _other_name(path) from None
        _check_stranded(path)
        real = os.path.realpath(path)
        if os.path.exists(f"{real}-wal") and os.path.exists(f"{real}-shm"):
            with contextlib.suppress(sqlite3.Error, _Busy):
                return cls._read(path, path.absolute().as_uri() + "?mode=ro", None)
        try:
            scratch = tempfile.mkdtemp(prefix="mittens-stats-")
        except OSError as exc:
            raise StatsDatabaseError(f"stats database {str(path)!r} cannot be read (no "
                                     f"room for a private copy: {os_reason(exc)})") from exc
        try:
            try:
                copy = copy_to_read(path, Path(scratch))
            except KeptChanging:
                raise StatsDatabaseError(
                    f"stats database {str(path)!r} kept changing while it was read; "
                    "try again"
                ) from None
            except OSError as exc:
                reason = os_reason(exc)
                if str(exc.filename).startswith(scratch):
                    reason = f"no room for a private copy in {scratch!r}: {reason}"
                raise StatsDatabaseError(
                    f"stats database {str(path)!r} cannot be read ({reason})"
                ) from exc
            try:
                return cls._read(path, copy.as_uri() + "?mode=rw", scratch)
            except (sqlite3.Error, _Busy) as exc:
                error = exc.error if isinstance(exc, _Busy) else exc
                if _is_outside(error):
                    raise _broken(path, "read", error) from exc
                raise _fail(path, f"cannot be read ({error})") from exc
        except BaseException:
            shutil.rmtree(scratch, ignore_errors=True)
            raise

    @classmethod
    def _read(cls, path: Path, uri: str, scratch: str | None) -> Store:
        """A reader on ``uri`` (the file, or a private copy in ``scratch``)."""
        db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                             isolation_level=None)
        try:
            _, tables = cls._identify(path, db)
            if tables:
                cls._check_columns(path, db)
            # A WAL file is read now: a failure to read it is this open's, not later.
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except BaseException:
            db.close()
            raise
        return cls(path, db, empty=not tables, scratch=scratch)

    @staticmethod
    def _identify(path: Path, db: sqlite3.Connection) -> tuple[int, set[str]]:
        """Check the file is ours (or empty); return its schema version and tables."""
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            objects = db.execute("SELECT type, name FROM sqlite_master").fetchall()
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _Busy(exc) from exc
            if _is_outside(exc):
                raise _broken(path, "read", exc) from exc
            raise _fail(path, f"is not a readable SQLite database ({exc})") from exc
        except sqlite3.DatabaseError as exc:
            raise _fail(path, f"is not a readable SQLite database ({exc})") from exc
        tables = {str(name) for kind, name in objects if kind == "table"}
        ours = app_id == APPLICATION_ID
        if not ours and (app_id != 0 or objects or version != 0):
            # Another program's database, even one that has no tables yet.
            raise _fail(path, "is another program's SQLite database, not mittens stats")
        if version > SCHEMA_VERSION:
            raise _fail(
                path, f"was written by a newer mittens (schema {version} > {SCHEMA_VERSION})"
            )
        return int(version), tables

    @staticmethod
    def _check_columns(path: Path, db: sqlite3.Connection) -> None:
        """The tables hold every column this version reads (a damaged schema fails here)."""
        for table, needed in _REQUIRED_COLUMNS.items():
            try:
                have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            except sqlite3.DatabaseError as exc:
                raise _fail(path, f"cannot be read ({exc})") from exc
            missing = [c for c in needed if c not in have]
            if missing:
                raise _fail(
                    path, f"has no {table} column {missing[0]!r}; it is not a stats database "
                    "this version can read"
                )

    @classmethod
    def _check_and_prepare(
        cls, path: Path, db: sqlite3.Connection, *, created: bool = False
    ) -> None:
        version, tables = cls._identify(path, db)
        if tables:
            cls._check_columns(path, db)
        try:
            if tables:
                problems = [r[0] for r in db.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise _fail(path, f"is corrupt ({problems[0]})")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise _fail(path, f"cannot use write-ahead logging (journal mode {mode})")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            if not tables or version < SCHEMA_VERSION:
                _write_schema(db)
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise _Busy(exc) from exc
            raise _broken(path, "created" if created else "used", exc) from exc
        except sqlite3.DatabaseError as exc:
            raise _fail(path, f"cannot be used ({exc})") from exc

    # ----------------------------------------------------------------- writing

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _broken(self.path, "written", exc) from exc
        try:
            yield self._db
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise _broken(self.path, "written", exc) from exc
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise _broken(self.path, "written", exc) from exc

    def start_session(self, mode: str, seed: int | None, at: float | None = None) -> int:
        """Record the start of a drill session; returns its id."""
        started = _Started(time.time() if at is None else at, mode, seed)
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO sessions (started, mode, seed) VALUES (?, ?, ?)",
                (started.started, mode, seed),
            )
        assert cursor.lastrowid is not None
        self._sessions[cursor.lastrowid] = started
        return cursor.lastrowid

    def _keep_session(self, db: sqlite3.Connection, session_id: int) -> None:
        """Write this session's row again if a reset removed it meanwhile (its id is
        never given to another session: a reset keeps the newest row)."""
        started = self._sessions.get(session_id)
        if started is not None:
            db.execute(
                "INSERT OR IGNORE INTO sessions (id, started, mode, seed) VALUES (?, ?, ?, ?)",
                (session_id, started.started, started.mode, started.seed),
            )

    def end_session(self, session_id: int, at: float | None = None) -> None:
        """Record the end of a session (an interrupted one keeps no end time)."""
        with self._transaction() as db:
            self._keep_session(db, session_id)
            db.execute(
                "UPDATE sessions SET ended = ? WHERE id = ?",
                (time.time() if at is None else at, session_id),
            )

    def record(self, session_id: int, answer: AnswerRecord) -> int:
        """Store one answer in its own transaction; returns its id."""
        return self.record_many(session_id, [answer])[0]

    def record_many(self, session_id: int, answers: Sequence[AnswerRecord]) -> list[int]:
        """Store answers of one session in one transaction (all or none, and one wait
        for the disk instead of one per answer); returns their ids in order."""
        ids: list[int] = []
        with self._transaction() as db:
            self._keep_session(db, session_id)
            for answer in answers:
                cursor = db.execute(_INSERT_ANSWER, _answer_row(session_id, answer))
                assert cursor.lastrowid is not None
                ids.append(cursor.lastrowid)
        return ids

    def reset(self, backed_up: Sequence[AnswerRow]) -> int:
        """Delete exactly the answers ``backed_up`` (as :meth:`answers` read them and a
        backup holds them) in one transaction; returns how many were deleted.

        An answer stored since is kept, and so are running sessions: their rows go with
        their last answer, and a drill writes its row again with its next answer (the
        newest session row always stays, so no id is given out twice). When an answer
        read is no longer there, nothing is deleted (:class:`StatsDatabaseError`).
        """
        with self._transaction() as db:
            cursor = db.executemany("DELETE FROM answers WHERE id = ?",
                                    ((row.id,) for row in backed_up))
            if cursor.rowcount != len(backed_up):
                raise StatsDatabaseError(
                    f"stats database {str(self.path)!r} changed while the backup was "
                    "written (another reset?); nothing was deleted"
                )
            db.execute(
                "DELETE FROM sessions WHERE id NOT IN (SELECT session_id FROM answers)"
                " AND id < (SELECT max(id) FROM sessions)"
            )
        return len(backed_up)

    # ----------------------------------------------------------------- reading

    def answers(self) -> list[AnswerRow]:
        """Every stored answer, oldest first (a value of the wrong type, or a rule that
        is not a letter A-L, is an error); an answer whose session row is missing has
        the mode ``''``."""
        if self._empty:
            return []
        try:
            # A schema-1 file read without migrating it (read-only) lacks the added columns.
            have = {row[1] for row in self._db.execute("PRAGMA table_info(answers)")}
            added = ", ".join(
                f"a.{name}" if name in have else "NULL" for name, _ in _ADDED_COLUMNS
            )
            rows = self._db.execute(
                "SELECT a.id, a.session_id, coalesce(s.mode, ''), a.at, a.kind, a.skill,"
                " a.rule, a.question, a.expected, a.given, a.grade, a.correct, a.seconds,"
                f" a.loss, {added}"
                # Every answer, also one whose session row is missing (an edited file).
                " FROM answers a LEFT JOIN sessions s ON s.id = a.session_id"
                " ORDER BY a.at, a.id"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise _fail(self.path, f"cannot be read ({exc})") from exc
        for r in rows:
            problem = _row_problem(r)
            if problem is not None:
                raise _fail(self.path, f"holds an answer that cannot be read ({problem})")
        return [
            AnswerRow(
                id=r[0],
                session_id=r[1],
                mode=r[2],
                at=r[3],
                kind=r[4],
                skill=r[5],
                rule=None if r[6] is None else RuleLetter(r[6]),
                question=r[7],
                expected=r[8],
                given=r[9],
                grade=r[10],
                correct=bool(r[11]),
                seconds=r[12],
                loss=r[13],
                rating=r[14],
                target=r[15],
            )
            for r in rows
        ]

    def settings(self) -> dict[str, str]:
        """The learner's saved settings (key -> value as text)."""
        if self._empty:
            return {}
        try:
            if not self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'settings'"
            ).fetchone():
                return {}  # a schema-1 file read without migrating it
            rows = self._db.execute("SELECT key, value FROM settings").fetchall()
        except sqlite3.DatabaseError as exc:
            raise _fail(self.path, f"cannot be read ({exc})") from exc
        return {str(k): str(v) for k, v in rows}

    def save_setting(self, key: str, value: str) -> None:
        """Save one setting in its own transaction (replacing the old value)."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def close(self) -> None:
        """Close the connection (every answer is already committed), then let the name
        go and remove a reader's private copy."""
        try:
            self._db.close()
        finally:
            if self._lock is not None:
                self._lock.close()
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_schema(db: sqlite3.Connection) -> None:
    """Create or migrate the tables in one transaction; a failed ROLLBACK never hides
    the error that stopped it (a full disk)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in _SCHEMA:
            db.execute(statement)
        _add_missing_columns(db)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise


def _add_missing_columns(db: sqlite3.Connection) -> None:
    """Add the columns a schema-1 ``answers`` table lacks (existing rows get NULL)."""
    have = {row[1] for row in db.execute("PRAGMA table_info(answers)")}
    for name, sql_type in _ADDED_COLUMNS:
        if name not in have:
            db.execute(f"ALTER TABLE answers ADD COLUMN {name} {sql_type}")


#: The columns this version reads, per table (a later schema may add more).
_REQUIRED_COLUMNS: Final[dict[str, tuple[str, ...]]] = {
    "sessions": ("id", "started", "mode"),
    "answers": (
        "id", "session_id", "at", "kind", "skill", "rule", "question", "expected", "given",
        "grade", "correct", "seconds", "loss",
    ),
}

_TEXT: Final = (str,)
#: The rule letters a stored answer's rule may hold.
_RULES: Final = frozenset(letter.value for letter in RuleLetter)
_NUMBER: Final = (int, float)
#: Positions in an :meth:`Store.answers` row and the types each may hold (None: nullable).
_ROW_TYPES: Final[tuple[tuple[str, tuple[type, ...], bool], ...]] = (
    ("id", (int,), False), ("session_id", (int,), False), ("mode", _TEXT, False),
    ("at", _NUMBER, False), ("kind", _TEXT, False), ("skill", _TEXT, False),
    ("rule", _TEXT, True), ("question", _TEXT, False), ("expected", _TEXT, False),
    ("given", _TEXT, False), ("grade", _TEXT, False), ("correct", (int,), False),
    ("seconds", _NUMBER, False), ("loss", _NUMBER, True), ("rating", (int,), True),
    ("target", _NUMBER, True),
)


def _row_problem(row: tuple[Any, ...]) -> str | None:
    """What is wrong with one stored answer row, or ``None`` when every value fits."""
    for (name, types, nullable), value in zip(_ROW_TYPES, row, strict=False):
        if value is None and nullable:
            continue
        if not isinstance(value, types):
            return f"answer {row[0]!r}: {name} is {type(value).__name__} {str(value)[:40]!r}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"answer {row[0]!r}: {name} is {value}"
        if isinstance(value, int) and types is not _TEXT and abs(value) > 2**53:
            return f"answer {row[0]!r}: {name} {value} is out of range"
    at = row[3]
    if not 0 <= at <= _LAST_TIME:
        return f"answer {row[0]!r}: time {at} is not a date"
    rule = row[6]
    if rule is not None and rule not in _RULES:
        return f"answer {row[0]!r}: rule {rule[:40]!r} is not a rule letter A-L"
    rating = row[14] if len(row) > 14 else None
    if rating is not None and not 1 <= rating <= 4:
        return f"answer {row[0]!r}: rating {rating} is not 1-4"
    return None
