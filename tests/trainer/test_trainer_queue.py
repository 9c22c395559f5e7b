"""A scheduled drill from the outside: what its header says is due, a session that stops
when caught up instead of padding, extra practice kept out of the schedule, and the
day-start setting."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.dashboard.drill_words import caught_up_words
from defuser.trainer.drill_session import (
    CaughtUp,
    DrillEnded,
    DrillOptions,
    DrillStarted,
    open_session,
)
from defuser.trainer.model import DrillMode
from defuser.trainer.report import build_report
from defuser.trainer.scheduler import NewCap, Outlook
from defuser.trainer.session import CaughtUpReason, CaughtUpWhy
from defuser.trainer.settings import load_settings
from defuser.trainer.store import Store


def stored(db: Path) -> Store:
    store = Store.open(db)
    assert store is not None
    return store


def test_the_header_counts_due_and_new_and_a_caught_up_session_stops(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    with stored(db) as store:
        options = DrillOptions(count=10, settings={"new_per_session": 3})
        session = open_session(store, DrillMode.TABLE, options, interactive=False)
        events = session.start()
        assert isinstance(events[0], DrillStarted) and events[0].outlook == Outlook(due=0, new=3)
        answered = 0
        while session.asking:
            question = session.question
            assert question is not None
            events = session.answer(question.expected)
            answered += 1
        assert answered == 3  # not padded to 10 with practice
        assert isinstance(events[-2], CaughtUp) and isinstance(events[-1], DrillEnded)
        why = events[-2].why
        assert why == CaughtUpWhy(CaughtUpReason.SCHEDULE_DONE, NewCap(False, 3, 3))
        assert caught_up_words(why) == ("caught up: nothing due today and no new skills left "
                                        "(3 new this session, the cap is 3)")
        assert len(store.answers()) == 3


def test_extra_practice_is_stored_but_never_moves_the_schedule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "stats.sqlite3"
    base = ["drill", "--mode", "table", "--db", str(db)]
    with stored(db) as store:
        options = DrillOptions(count=10, settings={"new_per_session": 2, "new_per_day": 2})
        session = open_session(store, DrillMode.TABLE, options, interactive=False)
        session.start()
        while session.question is not None:
            session.answer(session.question.expected)
        assert len(store.answers()) == 2
        before = build_report(store.answers(), database="x", now=time.time(),
                              settings=load_settings(store.settings()))
    run = run_cli([*base, "--count", "3"], monkeypatch, stdin="A\n" * 3)
    assert run.code == 0, run.err
    assert "Caught up: nothing due today and no new skills left (2 new today, the daily cap " \
           "is 2). 'mittens drill --practice' practises more" in run.err
    assert "No questions answered." in run.out
    run = run_cli([*base, "--count", "6", "--practice", "--json"], monkeypatch,
                  stdin="zz\n" * 6)
    assert run.code == 0, run.err
    lines = [json.loads(line) for line in run.out.splitlines()]
    assert len(lines) == 6 and all(line["rating"] is None for line in lines)
    assert all(line["why"].startswith("extra practice") for line in lines)
    with stored(db) as store:
        rows = store.answers()
        after = build_report(rows, database="x", now=time.time(),
                             settings=load_settings(store.settings()))
    assert {r.mode for r in rows} == {"table", "table practice"}
    assert after.forecast == before.forecast and after.due == before.due
    assert [w.record.split(", ")[0] for w in after.weakest]  # the misses are on record


def test_the_day_start_is_a_saved_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "stats.sqlite3"
    args = ["drill", "--mode", "table", "--seed", "1", "--count", "1", "--db", str(db)]
    run = run_cli([*args, "--day-start", "6"], monkeypatch, stdin="A\n")
    assert run.code == 0, run.err
    with stored(db) as store:
        assert load_settings(store.settings()).day_start == 6
    run = run_cli([*args, "--day-start", "24"], monkeypatch, stdin="A\n")
    assert run.code == 2 and "--day-start" in run.err and "0<=x<=23" in run.err


def test_a_rebuilt_drill_stays_extra_practice_and_keeps_late_answers_hard(
    tmp_path: Path,
) -> None:
    from defuser.trainer.grading import grade
    from defuser.trainer.session import Drill

    with stored(tmp_path / "stats.sqlite3") as store:
        drill = Drill(DrillMode.TABLE, store=store, seed=4, practice=True, time_limit=1.0)
        question = drill.next_question()
        assert question is not None
        assert drill.record(question, grade(question, question.expected, 3.0,
                                            time_limit=1.0)) is None
        twin = Drill.from_state(json.loads(json.dumps(drill.state())), store)
        assert twin.practice and twin.answered[0].grade.late_right
        assert twin.scheduler.skills[question.skill].reviews == 0
        assert {r.mode for r in store.answers()} == {"table practice"}


def test_a_heatmap_cell_counts_every_answer_that_used_it() -> None:
    from defuser.trainer.report import lookups_of
    from defuser.trainer.skills import CellSkill, RuleSkill
    from defuser.trainer.store import AnswerRow
    from edgework import ALL_CARDS, MITTEN_FACES, SerialNumber, TableLetter, card_type, rule_letter

    serial = SerialNumber.parse("BC1DF0")  # no vowel, every character unique: Table D
    assert serial.table == "D"
    discard = next(c for c in ALL_CARDS if rule_letter(TableLetter.D, 0, c) in "IJKL")
    facts = json.dumps({"text": "q", "serial": serial.text, "discard": discard.code})

    def row(kind: str, skill: str, question: str = facts) -> AnswerRow:
        return AnswerRow(1, 1, kind, 0.0, kind, skill, None, question, "x", "x", "right",
                         True, 1.0, None)

    cell = CellSkill(TableLetter.D, discard)
    table_e = RuleSkill(card_type(TableLetter.D, discard), 0)
    mitten = CellSkill(TableLetter.D, MITTEN_FACES[TableLetter.D])
    assert lookups_of(row("rule", table_e.key)) == {cell, table_e}
    assert lookups_of(row("legal", "legal:J")) == {cell, table_e, mitten}
    assert lookups_of(row("identify", "identify:B:RC", '{"text": "q"}')) == {
        CellSkill(TableLetter.B, next(c for c in ALL_CARDS if c.code == "RC"))}
    assert lookups_of(row("cycle", "cycle:known", '{"text": "q", "serial": "BC1DF0"}')) == set()
    assert lookups_of(row("table", "table:D", "not json")) == set()
