"""``mittens drill`` and ``mittens stats`` from the outside: golden transcripts of
scripted drills (fixed seed, fixed answers), the JSON protocol, stats and its options."""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import check_golden, run_cli
from trainer_helpers import steady

from defuser.cli import main
from defuser.terminal.app import Application
from defuser.trainer.store import AnswerRecord, Store
from edgework import RuleLetter


@pytest.fixture
def db(memory_path: Path) -> Path:
    """A fresh stats database path, in memory where the machine has a memory folder (the
    store syncs each answer to the disk: see ``web_fixtures.memory_tmp``)."""
    return memory_path / "stats.sqlite3"


def test_scripted_identify_drill_golden(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = "Yep\ndp\nnope\nzz\nDEFUSE\n"
    run = run_cli(
        ["drill", "--mode", "identify", "--seed", "7", "--count", "5", "--db", str(db)],
        monkeypatch,
        stdin=answers,
    )
    assert run.code == 0, run.err
    assert "\x1b[" not in run.out  # no colour on a pipe
    assert "> " not in run.out  # no prompts
    check_golden("trainer/drill_identify_seed7.txt", steady(run.out))


def test_scripted_mixed_drill_golden(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answers = "A\nc\ndraw\n11\n14%\nrule a\n1/5\n8\n"
    run = run_cli(
        ["drill", "--mode", "mixed", "--seed", "7", "--count", "8", "--db", str(db)],
        monkeypatch,
        stdin=answers,
    )
    assert run.code == 0, run.err
    check_golden("trainer/drill_mixed_seed7.txt", steady(run.out))
    assert "Session: 6/8 right" in run.out


@pytest.mark.parametrize("mode", ["table", "identify", "rule", "legal", "cycle", "decide"])
def test_every_kind_graded_right_when_answered_as_expected(
    mode: str, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run_cli(
        ["drill", "--mode", mode, "--seed", "3", "--count", "6", "--json", "--db", str(db)],
        monkeypatch,
        stdin="\n" * 6,
    )
    objects = [json.loads(line) for line in first.out.splitlines()]
    assert len(objects) == 6
    assert all(o["kind"] == mode and not o["correct"] for o in objects)
    expected = "".join(o["expected"] + "\n" for o in objects)
    second = run_cli(
        ["drill", "--mode", mode, "--seed", "3", "--count", "6", "--json", "--db", str(db)],
        monkeypatch,
        stdin=expected,
    )
    again = [json.loads(line) for line in second.out.splitlines()]
    assert [o["question"] for o in again] == [o["question"] for o in objects]
    assert all(o["correct"] and o["grade"] in ("right", "best") for o in again)


def test_json_objects_carry_question_expected_given_grade(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(
        ["drill", "--mode", "legal", "--seed", "5", "--count", "3", "--json", "--db", str(db)],
        monkeypatch,
        stdin="1\nnone\n2 discard\n",
    )
    assert run.code == 0, run.err
    check_golden("trainer/drill_legal_seed5.jsonl", steady(run.out))
    for line in run.out.splitlines():
        obj = json.loads(line)
        for key in ("question", "expected", "given", "grade", "correct", "seconds", "reason"):
            assert key in obj
        assert {"serial", "discard", "hand", "text"} <= set(obj["question"])
    assert "Session: " in run.err  # the summary goes to stderr in --json mode


def test_end_of_input_ends_the_session_with_a_summary(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(
        ["drill", "--mode", "table", "--seed", "1", "--count", "5", "--db", str(db)],
        monkeypatch,
        stdin="A\nB\n",
    )
    assert run.code == 0
    assert run.out.count("answer: ") == 2
    assert "Session: " in run.out and "median" in run.out
    with Store.open(db) as store:  # type: ignore[union-attr]
        assert len(store.answers()) == 2


def test_quit_stops_early(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(
        ["drill", "--mode", "rule", "--seed", "1", "--count", "5", "--db", str(db)],
        monkeypatch,
        stdin="A\nquit\nB\n",
    )
    assert run.code == 0
    assert run.out.count("answer: ") == 1


@pytest.mark.parametrize(
    "args",
    [
        ["drill", "--mode", "poker"],
        ["drill", "--count", "0"],
        ["drill", "--time-limit", "-1"],
        ["drill", "--seed", "x"],
    ],
)
def test_bad_options_are_one_line_errors(
    args: list[str], db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli([*args, "--db", str(db)], monkeypatch)
    assert run.code == 2
    assert len(run.err.strip().splitlines()) == 1
    assert not db.exists()


# --------------------------------------------------------------------------- stats

DAY = 86_400.0
#: Monday 2023-11-06 12:00 UTC: far enough back that every skill is due "now".
MONDAY = 1_699_272_000.0


def fill(db: Path) -> None:
    """Three sessions over two weeks with known answers."""
    with Store.open(db) as store:  # type: ignore[union-attr]
        plan = [
            (MONDAY, "table", [("table:A", True, 1.0), ("table:C", False, 3.0),
                               ("table:C", True, 2.0)]),
            (MONDAY + DAY, "rule", [("rule:Attack:3", True, 4.0), ("rule:Attack:3", False, 9.0),
                                    ("rule:Nope:0", True, 2.0)]),
            (MONDAY + 8 * DAY, "legal", [("legal:L", True, 5.0), ("legal:L", True, 6.0),
                                         ("legal:J", False, 12.0), ("legal:J", False, 11.0)]),
        ]
        for start, mode, answers in plan:
            session = store.start_session(mode, None, at=start)
            for n, (skill, correct, seconds) in enumerate(answers):
                kind = skill.split(":")[0]
                rule = RuleLetter(skill.split(":")[1]) if kind == "legal" else (
                    RuleLetter.L if kind == "rule" else None)
                store.record(session, AnswerRecord(
                    at=start + 60 * n, kind=kind, skill=skill, rule=rule,
                    question={"text": skill}, expected="x", given="x" if correct else "y",
                    grade="right" if correct else "wrong", correct=correct, seconds=seconds))
            store.end_session(session, start + 3600)


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Weeks and days in UTC, whatever the machine's zone."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_stats_json_numbers(db: Path, monkeypatch: pytest.MonkeyPatch, utc: None) -> None:
    fill(db)
    run = run_cli(["stats", "--json", "--db", str(db)], monkeypatch)
    assert run.code == 0, run.err
    report = json.loads(run.out)
    assert report["total"]["answers"] == 10 and report["total"]["right"] == 6
    assert report["sessions"] == 3 and report["days"] == 3
    kinds = {k["label"]: k for k in report["by_kind"]}
    assert kinds["table"]["accuracy"] == round(2 / 3, 4)
    assert kinds["legal"]["median_seconds"] == 8.5
    assert kinds["legal"]["p90_seconds"] == pytest.approx(11.7)
    rules = {r["label"]: r["answers"] for r in report["by_rule"]}
    assert rules == {"J": 2, "L": 5}
    assert [w["label"] for w in report["weeks"]] == ["2023-W45", "2023-W46"]
    assert [w["answers"] for w in report["weeks"]] == [6, 4]
    assert report["streaks"] == {
        "best": 3, "current": 0, "best_by_kind": {"table": 1, "rule": 1, "legal": 2}
    }
    weakest = [w["skill"] for w in report["weakest"]]
    assert weakest[0] == "legal:J"
    assert set(weakest[:3]) >= {"legal:J", "rule:Attack:3"}


#: The stats goldens are computed as of this moment (recall and the due forecast
#: depend on it): Monday 2023-11-20 12:00 UTC.
STATS_NOW = MONDAY + 14 * DAY


def test_stats_human_golden(db: Path, monkeypatch: pytest.MonkeyPatch, utc: None) -> None:
    fill(db)
    monkeypatch.setenv("COLUMNS", "100")
    run = run_cli(["stats", "--db", str(db)], monkeypatch, app=Application(wall=lambda: STATS_NOW))
    assert run.code == 0, run.err
    check_golden("trainer/stats.txt", run.out.replace(str(db), "STATS.sqlite3"))


def test_stats_heatmaps_trends_retention_and_forecast(
    db: Path, monkeypatch: pytest.MonkeyPatch, utc: None
) -> None:
    fill(db)
    with Store.open(db) as store:  # type: ignore[union-attr]
        session = store.start_session("identify", None, at=MONDAY + 9 * DAY)
        for n, (correct, seconds) in enumerate([(False, 7.0), (True, 3.0), (True, 9.0)]):
            store.record(session, AnswerRecord(
                at=MONDAY + 9 * DAY + n, kind="identify", skill="identify:B:RC", rule=None,
                question={"text": "q"}, expected="Nope", given="Nope" if correct else "Yep",
                grade="right" if correct else "wrong", correct=correct, seconds=seconds))
    stats_app = Application(wall=lambda: STATS_NOW)
    report = json.loads(run_cli(["stats", "--json", "--db", str(db)], monkeypatch,
                                app=stats_app).out)
    maps = {m["table"]: m for m in report["heatmaps"]}
    assert list(maps) == ["A", "B", "C", "D", "E"]
    assert maps["B"]["rows"][0] == "circle" and maps["B"]["columns"][0] == "red"
    cell = maps["B"]["cells"][0][0]  # circle row, red column: RC
    assert cell["answers"] == 3 and cell["right"] == 2 and cell["median_seconds"] == 7.0
    assert maps["E"]["rows"][4] == "Attack" and maps["E"]["cells"][4][3]["answers"] == 2
    assert maps["A"]["cells"][0][0]["answers"] == 0
    trends = {t["kind"]: t for t in report["speed_trends"]}
    assert trends["legal"]["weeks"] == ["2023-W45", "2023-W46"]
    assert trends["legal"]["median_seconds"] == [None, 8.5]
    retention = report["retention"]
    assert retention["desired"] == 0.9 and retention["skills"] == 7
    assert 0 < retention["predicted"] < 1
    assert retention["reviews"] == 0  # no skill was answered again a day later
    assert retention["reviewed_today"] == 0  # every skill was last reviewed days ago
    assert retention["in_a_week"] < retention["predicted"]
    assert len(report["forecast"]) == 7 and report["forecast"][0] == report["due"]
    # The human view: user data printed as text (no emoji for ':B:'), the heatmap drawn.
    monkeypatch.setenv("COLUMNS", "100")
    text = run_cli(["stats", "--db", str(db)], monkeypatch).out
    assert "Table B: red circle:" in text and "[identify:" not in text  # words, not keys
    assert "\N{NEGATIVE SQUARED LATIN CAPITAL LETTER B}" not in text
    assert "Table E" in text and "Due in the coming days" in text
    assert "due in now" not in text


def test_stats_picture_svg_and_html(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(db)
    for suffix, marker in ((".svg", "<svg"), (".html", "<html")):
        target = tmp_path / f"stats{suffix}"
        run = run_cli(["stats", "--db", str(db), "--picture", str(target)], monkeypatch)
        assert run.code == 0, run.err
        document = target.read_text(encoding="utf-8")
        assert marker in document and "Table A: the card type of each face" in document
        assert "Accuracy per kind, by week" in document and "Practice calendar" in document
    run = run_cli(["stats", "--db", str(db), "--picture", str(tmp_path / "x.png")], monkeypatch)
    assert run.code == 2 and "does not end in .svg or .html" in run.err
    run = run_cli(["stats", "--db", str(db), "--picture", str(db.with_suffix(".svg"))],
                  monkeypatch)
    assert run.code == 0


def test_stats_on_a_missing_database_creates_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["stats", "--db", str(db)], monkeypatch)
    assert run.code == 0 and "No answers yet" in run.out
    run = run_cli(["stats", "--json", "--db", str(db)], monkeypatch)
    assert json.loads(run.out)["total"]["answers"] == 0
    assert not db.exists()


def test_stats_export_csv(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(db)
    target = tmp_path / "answers.csv"
    run = run_cli(["stats", "--export", str(target), "--db", str(db)], monkeypatch)
    assert run.code == 0, run.err
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert len(rows) == 10
    assert rows[0]["skill"] == "table:A" and rows[0]["correct"] == "1"
    assert rows[0]["time"] == "2023-11-06T12:00:00Z"
    run = run_cli(["stats", "--export", "-", "--db", str(db)], monkeypatch)
    assert run.out.splitlines()[0].startswith("id,session,mode,time")


def test_stats_reset_asks_first(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(db)
    run = run_cli(["stats", "--reset", "--db", str(db)], monkeypatch, stdin="n\n")
    assert run.code == 1 and "Delete all 10 stored answers" in run.err
    with Store.open(db) as store:  # type: ignore[union-attr]
        assert len(store.answers()) == 10
    run = run_cli(["stats", "--reset", "--db", str(db)], monkeypatch, stdin="")
    assert run.code == 1  # no answer at all is not a yes
    run = run_cli(["stats", "--reset", "--db", str(db)], monkeypatch, stdin="y\n")
    assert run.code == 0 and "Deleted 10 answers" in run.out
    fill(db)
    run = run_cli(["stats", "--reset", "--yes", "--json", "--db", str(db)], monkeypatch)
    assert json.loads(run.out)["deleted"] == 10


class TerminalInput(io.StringIO):
    """Typed answers that claim to come from a terminal."""

    def isatty(self) -> bool:
        return True


def test_on_a_terminal_help_and_typos_are_not_answers(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", TerminalInput("help\n\nzz\nh\n"))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    main(["drill", "--mode", "rule", "--seed", "2", "--count", "1", "--db", str(db)])
    text = out.getvalue()
    assert "Answer with a rule letter A-L" in text  # help
    assert "answer 'zz' is not a rule letter" in text and "Try again." in text
    assert "chosen: drawn from the seed" in text
    with Store.open(db) as store:  # type: ignore[union-attr]
        rows = store.answers()
    assert [r.given for r in rows] == ["h"]  # H is a rule letter, not help


def test_right_after_a_session_of_misses_no_recall_is_claimed(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On the day of a review the memory model predicts full recall; stats leaves the
    # skills reviewed today out of "predicted recall now" and says so.
    drill = ["drill", "--mode", "table", "--count", "4", "--seed", "1", "--db", str(db)]
    assert run_cli(drill, monkeypatch, stdin="Z\n" * 4).code == 0
    report = json.loads(run_cli(["stats", "--json", "--db", str(db)], monkeypatch).out)
    retention = report["retention"]
    assert retention["predicted"] is None
    assert retention["reviewed_today"] > 0 and retention["skills"] == 0
    assert retention["in_a_week"] < 0.9
    text = run_cli(["stats", "--db", str(db)], monkeypatch).out
    assert "reviewed today, none before" in text and "recall is predicted from tomorrow" in text
    assert "recall 100%" not in text


def test_the_drill_runs_on_the_applications_clocks(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mittens drill`` hands its session the run's clocks (none of its own): each answer
    is stored at the application's wall time, and timed on its monotonic clock."""
    ticks = iter(range(1000, 100000, 2))
    app = Application(clock=lambda: float(next(ticks)), wall=lambda: STATS_NOW)
    run = run_cli(["drill", "--mode", "identify", "--seed", "3", "--count", "2", "--json",
                   "--db", str(db)], monkeypatch, stdin="Nope\n" * 2, app=app)
    assert run.code == 0, run.err
    with Store.open(db) as store:  # type: ignore[union-attr]
        rows = store.answers()
    assert [row.at for row in rows] == [STATS_NOW, STATS_NOW]
    assert all(row.seconds > 0 and row.seconds == int(row.seconds) for row in rows)
