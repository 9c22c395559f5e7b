"""The stats dashboard as files to share (``mittens stats --picture``): the same parts as
the browser's dashboard, one self-contained file (its stylesheet inside, no script, nothing
from the network, no file path), valid SVG, and charts that keep every name readable."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.dashboard.charts import Series, count_top, line_chart, spread
from defuser.dashboard.picture import svg_document
from defuser.dashboard.stats import facts, sections
from defuser.trainer.progress import dashboard_data, local_day, practice_days
from defuser.trainer.report import build_report
from defuser.trainer.sample import sample_database as learner_db
from defuser.trainer.store import AnswerRow, Store

PARTS = ("Accuracy per kind, by week", "Answer time per kind, by week",
         "Retention against the target", "Reviews due", "Practice calendar",
         "Table A: the card type of each face", "Table E: the rule letter")


def stored_rows(path: Path) -> list[AnswerRow]:
    """The answers stored in the database at ``path``, oldest first."""
    store = Store.open(path, create=False, readonly=True)
    assert store is not None
    with store:
        return store.answers()


@pytest.fixture(scope="module")
def learner(memory_tmp: Callable[[str], Path]) -> Path:
    path = memory_tmp("dash") / "private-name" / "stats.sqlite3"
    path.parent.mkdir()
    learner_db(path, days=21, answers=300, seed=4)
    return path


@pytest.mark.parametrize("suffix", [".svg", ".html"])
def test_the_picture_is_one_self_contained_file(
    learner: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    target = tmp_path / f"mine{suffix}"
    run = run_cli(["stats", "--db", str(learner), "--picture", str(target)], monkeypatch)
    assert run.code == 0, run.err
    text = target.read_text(encoding="utf-8")
    for part in PARTS:
        assert part in text, part
    assert "private-name" not in text and str(Path.home()) not in text
    assert "<script" not in text and "@import" not in text and "url(" not in text
    links = set(re.findall(r"https?://[^\s\"')]+", text))
    assert links <= {"http://www.w3.org/2000/svg"}
    assert not re.search(r"(src|href)=", text)
    if suffix == ".svg":
        root = ET.fromstring(text.split("?>", 1)[1])
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert int(root.get("width", "0")) == 1280


def test_the_picture_of_an_empty_database(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "empty.sqlite3"
    store = Store.open(db)
    assert store is not None
    store.close()
    for suffix in (".svg", ".html"):
        target = tmp_path / f"empty{suffix}"
        run = run_cli(["stats", "--db", str(db), "--picture", str(target)], monkeypatch)
        assert run.code == 0, run.err
        assert "No answers yet" in target.read_text(encoding="utf-8")


def test_the_html_sections_count_every_answer(learner: Path) -> None:
    rows = stored_rows(learner)
    now = rows[-1].at + 60
    data = dashboard_data(rows, now)
    html = sections(data, local_day(now))
    assert "<dd>300</dd>" in html
    right = sum(r.correct for r in rows)
    cells = re.findall(r"(\d+)/(\d+) right", html)
    assert cells and all(int(a) <= int(b) for a, b in cells)
    assert f"<dd>{round(100 * right / 300)}%</dd>" in html


def test_days_start_on_a_monday_and_end_today() -> None:
    today = dt.date(2026, 11, 26)  # a Thursday
    days = practice_days([], today, days=10)
    assert days[0].day.weekday() == 0 and days[-1].day == today
    assert all(d.answers == 0 for d in days)


def test_end_labels_never_overlap() -> None:
    placed = spread([50.0, 50.0, 51.0, 200.0, 199.0], 12.0, 10.0, 190.0)
    ordered = sorted(placed)
    assert all(b - a >= 12.0 - 1e-9 for a, b in itertools.pairwise(ordered))
    assert max(placed) <= 190.0 and min(placed) >= 10.0
    chart = line_chart("t", "c", ["a", "b"], [Series("x", (0.5, 0.5)), Series("y", (0.5, 0.5))],
                       fmt=str, top=1.0)
    ys = [float(y) for y in re.findall(r'class="end-label" x="[\d.]+" y="([\d.]+)"',
                                        "".join(chart.body))]
    assert len(ys) == 2 and abs(ys[0] - ys[1]) >= 12.0


def test_a_chart_without_data_says_so() -> None:
    chart = line_chart("t", "c", [], [], fmt=str)
    assert "No answers yet" in chart.figure()


def test_a_week_without_answers_breaks_the_line_and_counts_have_whole_ticks() -> None:
    chart = line_chart("t", "c", ["a", "b", "c", "d"], [Series("x", (0.5, None, 0.7, 0.8))],
                       fmt=str, top=1.0)
    (path,) = re.findall(r'<path class="line series-0" d="([^"]+)"', "".join(chart.body))
    assert path.count("M") == 2
    assert [count_top(v) for v in (1, 3.2, 5, 91, 130)] == [4.0, 4.0, 8.0, 100.0, 160.0]


def test_the_dashboard_draws_the_numbers_its_json_twin_gives(tmp_path: Path) -> None:
    """17 right of 103 is 0.165 in the JSON (to 4 decimals), so 16% on the page and in
    the picture, as the JSON reads; unrounded (0.16505) it would say 17%."""
    path = tmp_path / "stats.sqlite3"
    learner_db(path, days=10, answers=103, seed=2)
    rows = [dataclasses.replace(row, correct=n < 17) for n, row in enumerate(stored_rows(path))]
    now = rows[-1].at + 60
    data = dashboard_data(rows, now)
    twin = data.to_json()
    assert twin["report"]["total"]["accuracy"] == 0.165 and f"{17 / 103:.0%}" == "17%"
    assert ("Right", "16%") in facts(data.report)
    assert "<dt>Right</dt><dd>16%</dd>" in sections(data, local_day(now))
    assert ">16%</text>" in svg_document(data, local_day(now), "today")


def test_the_dashboard_data_is_the_report_and_the_series_as_json(learner: Path) -> None:
    rows = stored_rows(learner)
    now = rows[-1].at + 60
    data = dashboard_data(rows, now)
    report = build_report(rows, database="", now=now).to_json()
    del report["database"]
    twin = data.to_json()
    assert list(twin) == ["report", "progress"] and twin["report"] == report
    series = twin["progress"]
    assert list(series) == ["weeks", "days", "kinds", "retention"]
    assert series["weeks"] == list(data.progress.weeks) and len(series["weeks"]) == 4
    assert [d["day"] for d in series["days"]] == [d.day.isoformat() for d in data.progress.days]
    assert [k["kind"] for k in series["kinds"]] == [k.kind.value for k in data.progress.kinds]
    assert all(len(k["accuracy"]) == len(series["weeks"]) for k in series["kinds"])
    assert [w["week"] for w in series["retention"]] == series["weeks"]
    assert json.loads(json.dumps(twin)) == twin
