"""Focus options (a table, a rule, the weakest skills) and session goals."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.trainer.focus import Focus, answers_today
from defuser.trainer.grading import grade
from defuser.trainer.kinds import KIND_SPECS
from defuser.trainer.model import DrillMode
from defuser.trainer.session import Drill, FocusError
from defuser.trainer.skills import CellSkill, Kind, LegalSkill, RuleSkill, Skill, TableSkill
from defuser.trainer.store import AnswerRow
from edgework import TABLE_E, RuleLetter, TableLetter

T0 = 1_700_000_000.0


def every_skill() -> list[Skill]:
    return [s for spec in KIND_SPECS.values() for s in spec.skills]


def test_a_table_focus_covers_its_serial_skill_and_cells() -> None:
    focus = Focus(tables=(TableLetter.B,))
    chosen = [s for s in every_skill() if focus.allows(s)]
    assert TableSkill(TableLetter.B) in chosen and len(chosen) == 17
    assert all(isinstance(s, TableSkill | CellSkill) and s.table == "B" for s in chosen)
    table_e = [s for s in every_skill() if Focus(tables=("E",)).allows(s)]
    assert len(table_e) == 60 and all(isinstance(s, RuleSkill) for s in table_e)


def test_a_rule_focus_covers_applying_it_and_the_cells_that_give_it() -> None:
    focus = Focus(rules=(RuleLetter.L,))
    chosen = [s for s in every_skill() if focus.allows(s)]
    assert LegalSkill(RuleLetter.L) in chosen
    cells = [s for s in chosen if isinstance(s, RuleSkill)]
    assert cells and all(TABLE_E[s.card_type][s.digit] == "L" for s in cells)
    expected = sum(row.count("L") for row in TABLE_E.values())
    assert len(cells) == expected


def test_a_focused_drill_asks_only_in_focus() -> None:
    for seed in (None, 5):
        drill = Drill(DrillMode.MIXED, store=None, seed=seed, tables=(TableLetter.C,),
                      clock=lambda: T0)
        assert drill.kinds == (Kind.TABLE, Kind.IDENTIFY)
        for _ in range(8):
            q = drill.next_question()
            assert q is not None
            assert isinstance(q.skill, TableSkill | CellSkill) and q.skill.table == "C"
            drill.record(q, grade(q, q.expected, 1.0))


def test_weakest_focus_asks_only_the_weakest() -> None:
    history = [
        AnswerRow(n, 1, "rule", T0 + n, "rule", key, None, "{}", "x", "y", "wrong", False,
                  3.0, None)
        for n, key in enumerate(["rule:Attack:3", "rule:Nope:0", "rule:Nope:0", "legal:J"])
    ]
    drill = Drill(DrillMode.RULE, store=None, history=history, weakest=2, clock=lambda: T0 + 99)
    assert drill.focus.weakest is not None and len(drill.focus.weakest) == 2
    for _ in range(5):
        q = drill.next_question()
        assert q is not None and q.skill in drill.focus.weakest
        drill.record(q, grade(q, "B" if q.expected != "B" else "C", 1.0))  # missed again


def test_a_focus_with_nothing_to_ask_is_an_error() -> None:
    with pytest.raises(FocusError, match="nothing to ask in the focus on Table B"):
        Drill(DrillMode.DECIDE, store=None, tables=(TableLetter.B,))
    with pytest.raises(FocusError, match="no skill has been missed"):
        Drill(DrillMode.RULE, store=None, weakest=3)


def test_focus_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "stats.sqlite3"
    run = run_cli(["drill", "--mode", "identify", "--table", "c", "--seed", "3", "--count",
                   "4", "--json", "--db", str(db)], monkeypatch, stdin="Nope\n" * 4)
    assert run.code == 0, run.err
    skills = [json.loads(line)["skill"] for line in run.out.splitlines()]
    assert len(skills) == 4 and all(s.startswith("identify:C:") for s in skills)
    run = run_cli(["drill", "--mode", "decide", "--rule", "L", "--db", str(db)], monkeypatch)
    assert run.code == 2 and "nothing to ask in the focus on rule L" in run.err
    assert run.err.count("\n") == 1


def test_daily_goal_progress_is_shown_and_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "stats.sqlite3"
    args = ["drill", "--mode", "table", "--seed", "1", "--count", "1", "--db", str(db)]
    run = run_cli([*args, "--daily-goal", "2"], monkeypatch, stdin="A\n")
    assert run.code == 0, run.err
    assert "Daily goal: 1/2 answers today, 1 to go" in run.err
    run = run_cli(args, monkeypatch, stdin="A\n")  # the goal was saved
    assert "Daily goal: 2/2 answers today, reached!" in run.err
    assert answers_today([time.time(), time.time() - 3 * 86_400], time.time()) == 1
