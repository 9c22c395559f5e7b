"""``mittens serve``'s stats dashboard, in-process: it draws for an empty, a one-session
and a 60-day database, its JSON twin is ``mittens stats --json``'s report with the weekly
and daily series, nothing in it names a file path or the network, and it reads the
database without writing to it."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from defuser.trainer.progress import local_day
from defuser.trainer.sample import sample_database as learner_db
from defuser.web.app import WebSettings, create_app
from defuser.web.server import plan
from defuser.web.statsroutes import stats_data


def client_for(database: Path, now: float) -> TestClient:
    settings = WebSettings(plan("127.0.0.1", 80).guard(), database=database, clock=lambda: now)
    return TestClient(create_app(settings), base_url="http://127.0.0.1")


@pytest.fixture(scope="module")
def sixty_days(memory_tmp: Callable[[str], Path]) -> tuple[Path, float]:
    path = memory_tmp("stats") / "stats.sqlite3"
    last = learner_db(path, days=60, answers=1200)
    return path, last + 3600


def test_an_empty_database_says_what_to_do(memory_path: Path) -> None:
    client = client_for(memory_path / "none.sqlite3", time.time())
    page = client.get("/stats")
    assert page.status_code == 200 and "No answers yet" in page.text
    assert not (memory_path / "none.sqlite3").exists()
    data = client.get("/api/stats").json()
    assert data["report"]["total"]["answers"] == 0


def test_one_session_draws_every_part(memory_path: Path) -> None:
    path = memory_path / "one.sqlite3"
    last = learner_db(path, days=1, answers=25)
    page = client_for(path, last + 60).get("/stats").text
    for part in ("Summary", "Accuracy per kind, by week", "Answer time per kind, by week",
                 "Retention against the target", "Practice calendar", "Reviews due",
                 "Table A: the card type of each face", "Table E:", "To work on"):
        assert part in page, part
    assert page.count("<svg") >= 5


def test_sixty_days_of_answers(sixty_days: tuple[Path, float]) -> None:
    path, now = sixty_days
    client = client_for(path, now)
    data = client.get("/api/stats").json()
    report, series = data["report"], data["progress"]
    assert report["total"]["answers"] == 1200
    assert "database" not in report
    assert sum(d["answers"] for d in series["days"]) == 1200
    assert len(series["weeks"]) >= 9
    practised = [d for d in series["days"] if d["answers"]]
    assert 40 <= len(practised) <= 60
    assert series["days"][-1]["day"] == local_day(now).isoformat()
    for kind in series["kinds"]:
        assert len(kind["accuracy"]) == len(series["weeks"])
    page = client.get("/stats").text
    assert "1200" in page


def test_the_page_names_no_path_and_nothing_outside(sixty_days: tuple[Path, float]) -> None:
    path, now = sixty_days
    page = client_for(path, now).get("/stats").text
    assert str(path.parent) not in page and "sqlite3" not in page
    assert not re.search(r"(src|href)=\"https?:", page)


def test_reading_changes_no_stored_answer(sixty_days: tuple[Path, float]) -> None:
    path, now = sixty_days
    wal = path.with_name(path.name + "-wal")
    before = (path.read_bytes(), wal.read_bytes() if wal.exists() else b"")
    names = sorted(p.name for p in path.parent.iterdir())
    stats_data(path, now)
    assert (path.read_bytes(), wal.read_bytes() if wal.exists() else b"") == before
    assert sorted(p.name for p in path.parent.iterdir()) == names


def test_a_database_that_cannot_be_read_is_one_line(memory_path: Path) -> None:
    bad = memory_path / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    client = client_for(bad, time.time())
    page = client.get("/stats")
    assert page.status_code == 500
    (error,) = re.findall(r'<p class="error" role="alert">([^<]*)</p>', page.text)
    assert "\n" not in error and "Traceback" not in page.text
    assert client.get("/api/stats").status_code == 500
    assert bad.read_bytes() == b"not a database at all" * 100
