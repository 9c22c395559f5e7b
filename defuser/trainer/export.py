"""The stored answers as CSV, one row per answer, times in ISO 8601 UTC.

Contract: :func:`write_csv` writes a header row (:data:`CSV_COLUMNS`) and then one row
per :class:`~defuser.trainer.store.AnswerRow`, oldest first as given; it writes to the
stream it is handed and never opens a file (the command decides where it goes).
:func:`count_rows` reads such a file back and counts its answers, so that a backup is
checked before the answers it holds are deleted.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Final

if TYPE_CHECKING:
    from defuser.trainer.store import AnswerRow

CSV_COLUMNS: Final[tuple[str, ...]] = (
    "id",
    "session",
    "mode",
    "time",
    "kind",
    "skill",
    "rule",
    "question",
    "expected",
    "given",
    "grade",
    "correct",
    "seconds",
    "loss",
)


def iso_time(at: float) -> str:
    """A stored timestamp as ISO 8601 in UTC, to the second."""
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_csv(rows: list[AnswerRow], stream: IO[str]) -> None:
    """Write answers as CSV with a header row (:data:`CSV_COLUMNS`)."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow(
            (
                r.id,
                r.session_id,
                r.mode,
                iso_time(r.at),
                r.kind,
                r.skill,
                r.rule or "",
                r.question,
                r.expected,
                r.given,
                r.grade,
                int(r.correct),
                f"{r.seconds:.3f}",
                "" if r.loss is None else f"{r.loss:.3f}",
            )
        )


def count_rows(lines: Iterable[str]) -> int | None:
    """How many answers a CSV written by :func:`write_csv` holds, or ``None`` when it
    does not start with the header row (it is not such a file)."""
    reader = csv.reader(lines)
    if tuple(next(reader, ())) != CSV_COLUMNS:
        return None
    return sum(1 for _ in reader)
