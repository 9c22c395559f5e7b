"""The DP's vectorised rows say what the rulebook says, state by state.

A phase evaluated in full (numpy, with the candidate rows built for the whole rule set)
must give every state one click plus the lowest value among the safe clicks that
:meth:`~defuser.strategy.dp.solution.Solution.choices` lists for it, which come from the rulebook
one state at a time. Checked on every state of a phase of each mode, on rule sets of
every table (their Defuse and mitten faces differ), so a row that missed or added a
click, a probe, a solve or a face a draw can bring would show.
"""

from __future__ import annotations

import math

import pytest

from defuser.strategy.dp.arrays import arrays_for
from defuser.strategy.dp.clicks import tables_for
from defuser.strategy.dp.graph import Mode
from defuser.strategy.dp.states import STATES
from defuser.strategy.solutions import SolutionStore
from edgework import Ruleset, TableLetter


@pytest.mark.parametrize(
    ("table", "digit", "interval"), [(TableLetter.A, 3, 9), (TableLetter.D, 8, 10)]
)
def test_full_evaluation_is_the_best_choice_of_every_state(
    table: TableLetter, digit: int, interval: int
) -> None:
    rules = Ruleset(table, digit)
    tables_for.cache_clear()
    arrays_for.cache_clear()
    sol = SolutionStore(None).solution(rules, interval)
    sol.complete()
    chosen: dict[Mode, int] = {}
    for i, phase in enumerate(sol.graph.phases):
        if phase.mode in chosen:
            continue
        # The fullest kind of phase: one whose deals and probes lead somewhere.
        if phase.outcomes and (phase.mode is not Mode.UNSAFE or phase.probe_fail >= 0):
            chosen[phase.mode] = i
    assert set(chosen) == set(Mode)
    for index in chosen.values():
        full = sol.full[index]
        assert full is not None
        for state in range(STATES):
            best = min((v for _, v in sol.choices(index, state)), default=math.inf)
            got = float(full[state])
            assert got == 1.0 + best, (index, state)  # the same arithmetic, to the bit
