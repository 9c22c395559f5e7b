"""A made-up learner's stats database, for benchmarks and tests of the stats views.

Contract: :func:`sample_database` writes a new database through the real
:class:`~defuser.trainer.store.Store` (its schema, sessions and answers): ``answers``
answers over ``days`` days, one session on most days, skills drawn from more of the
curriculum as the days go by, accuracy rising and times varying. It is seeded, so the
same call writes the same answers. Nothing here is used by a drill.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from defuser.trainer.kinds import all_skills
from defuser.trainer.model import DrillMode
from defuser.trainer.store import AnswerRecord, Store

#: Noon, local time, of the first day of every built database (a fixed day: reproducible).
FIRST_DAY = dt.datetime(2026, 9, 1, 12, 0)


def sample_database(path: Path, *, days: int, answers: int, seed: int = 0,
                    first: dt.datetime = FIRST_DAY) -> float:
    """Write ``answers`` answers over ``days`` days (one session a day, most days) into a
    new database at ``path``; the time of the last answer."""
    rng = random.Random(seed)
    skills = [s for kind_skills in all_skills().values() for s in kind_skills]
    practised = [d for d in range(days) if d == days - 1 or rng.random() < 0.8]
    per_day = max(1, answers // len(practised))
    at = first.timestamp()
    written = 0
    store = Store.open(path)
    assert store is not None
    with store:
        for number, day in enumerate(practised):
            count = answers - written if number == len(practised) - 1 else per_day
            at = (first + dt.timedelta(days=day)).timestamp()
            session = store.start_session(DrillMode.MIXED.value, seed=day, at=at)
            day_answers = []
            for _ in range(count):
                skill = rng.choice(skills[: 40 + 8 * day])
                correct = rng.random() < min(0.95, 0.55 + day / 100)
                seconds = rng.uniform(1.0, 9.0) * (1.4 if not correct else 1.0)
                at += seconds + rng.uniform(1.0, 4.0)
                day_answers.append(AnswerRecord(
                    at=at, kind=skill.kind.value, skill=skill.key, rule=None,
                    question={"text": "?"}, expected="x", given="x" if correct else "y",
                    grade="RIGHT" if correct else "WRONG", correct=correct, seconds=seconds,
                ))
            # A made-up day is written at once: one wait for the disk, not one per answer.
            store.record_many(session, day_answers)
            written += count
            store.end_session(session, at=at)
    return at
