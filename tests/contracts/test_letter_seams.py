"""Table and rule letters cross the seams as edgework's letter enums, not bare text:
a module line read back, a stored skill key, a typed drill answer."""

from __future__ import annotations

from defuser.engine import modlog
from defuser.trainer.answers import read_rule, read_table
from defuser.trainer.skills import CellSkill, LegalSkill, TableSkill, parse_skill
from edgework import RuleLetter, TableLetter


def test_module_lines_carry_letter_enums() -> None:
    table = modlog.parse("You should use Table C.")
    rule = modlog.parse("The rule used is J.")
    now = modlog.parse("The rule used now is A.")
    assert isinstance(table, modlog.TableMessage) and table.table is TableLetter.C
    assert isinstance(rule, modlog.RuleMessage) and rule.rule is RuleLetter.J
    assert isinstance(now, modlog.RuleNowMessage) and now.rule is RuleLetter.A
    assert modlog.parse("You should use Table E.") is None


def test_stored_skill_keys_carry_letter_enums() -> None:
    table = parse_skill("table:B")
    cell = parse_skill("identify:D:RC")
    legal = parse_skill("legal:L")
    assert isinstance(table, TableSkill) and table.table is TableLetter.B
    assert isinstance(cell, CellSkill) and cell.table is TableLetter.D
    assert isinstance(legal, LegalSkill) and legal.letter is RuleLetter.L


def test_typed_answers_carry_letter_enums() -> None:
    assert read_table("table b") is TableLetter.B
    assert read_rule("rule l") is RuleLetter.L
