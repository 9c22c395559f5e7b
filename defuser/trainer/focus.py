"""Focus: limiting a drill to part of the manual, and goals for a session or a day.

Contract: a :class:`Focus` names tables (``A``-``E``, typed
:data:`~defuser.trainer.skills.SkillTable`), rule letters (``A``-``L``, typed
:class:`~edgework.RuleLetter`) and optionally the weakest ``n`` skills;
:meth:`Focus.allows` says whether a skill is in it. A table letter A-D covers that
table's serial skill and its 16 cells; ``E`` covers the 60 cells of Table E. A rule
letter covers applying that rule (``legal``) and every Table E cell that gives it. Given
together, tables and rules are alternatives (a skill in any of them is in focus);
``weakest`` then keeps only the weakest of those. :func:`answers_today` counts the
answers of the learner's current day, for the daily goal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from defuser.trainer.scheduler import DEFAULT_DAY_START, Scheduler, learner_day
from defuser.trainer.skills import (
    TABLE_E_NAME,
    CellSkill,
    LegalSkill,
    RuleSkill,
    Skill,
    SkillTable,
    TableSkill,
)
from edgework import TABLE_E, RuleLetter


@dataclass(frozen=True, slots=True)
class Focus:
    """What a drill is limited to; an empty focus allows everything."""

    tables: tuple[SkillTable, ...] = ()
    rules: tuple[RuleLetter, ...] = ()
    weakest: frozenset[Skill] | None = None

    @property
    def empty(self) -> bool:
        """Whether nothing is focused on."""
        return not self.tables and not self.rules and self.weakest is None

    def _by_area(self, skill: Skill) -> bool:
        if not self.tables and not self.rules:
            return True
        if isinstance(skill, TableSkill | CellSkill) and skill.table in self.tables:
            return True
        if isinstance(skill, RuleSkill):
            letter = TABLE_E[skill.card_type][skill.digit]
            return TABLE_E_NAME in self.tables or letter in self.rules
        return isinstance(skill, LegalSkill) and skill.letter in self.rules

    def allows(self, skill: Skill) -> bool:
        """Whether ``skill`` may be asked."""
        if self.weakest is not None and skill not in self.weakest:
            return False
        return self._by_area(skill)

    def words(self) -> str:
        """The focus in words, for the session header."""
        parts = []
        if self.tables:
            parts.append("Table" + ("s " if len(self.tables) > 1 else " ") + ", ".join(
                self.tables))
        if self.rules:
            parts.append("rule" + ("s " if len(self.rules) > 1 else " ") + ", ".join(
                self.rules))
        if self.weakest is not None:
            parts.append(f"the {len(self.weakest)} weakest skills")
        return " and ".join(parts) or "everything"


def focus_on(
    scheduler: Scheduler,
    *,
    tables: Sequence[SkillTable] = (),
    rules: Sequence[RuleLetter] = (),
    weakest: int | None = None,
    now: float,
) -> Focus:
    """A focus on ``tables`` and ``rules``, narrowed to the ``weakest`` skills in them
    as the scheduler ranks them at ``now`` (empty when none has been missed or slow)."""
    area = Focus(tuple(tables), tuple(rules))
    if weakest is None:
        return area
    ranked = [s.skill for s in scheduler.weakest(len(scheduler.skills), now)]
    chosen = [s for s in ranked if area.allows(s)][:weakest]
    return Focus(area.tables, area.rules, frozenset(chosen))


def answers_today(
    times: Iterable[float], now: float, day_start: int = DEFAULT_DAY_START
) -> int:
    """How many of the answer times fall on the learner's day of ``now`` (the day
    starting at ``day_start`` o'clock)."""
    today = learner_day(now, day_start)
    return sum(1 for at in times if learner_day(at, day_start) == today)
