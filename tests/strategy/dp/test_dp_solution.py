"""How a solution from stored cycle-start values evaluates: the first cycle on demand,
a later cycle all at once, and the same values however the work is scheduled.

A first answer must not pay for numpy; a later cycle's first answer must not compute
tens of thousands of states one by one, nor wait for numpy: it reads the values shipped
for it, which are numpy's evaluation to the bit, and numpy evaluates only when they do
not fit.
"""

from __future__ import annotations

import math
import random

from defuser.engine.deck import DealKind
from defuser.strategy.belief import CycleBelief
from defuser.strategy.dp.graph import PhaseGraph, build_graph
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.solution import ShippedPhase, Solution
from defuser.strategy.dp.states import STATES, state_index
from defuser.strategy.solutions import SolutionStore
from edgework import INTERVALS, Ruleset, TableLetter

RULES, N = Ruleset(TableLetter.D, 2), 11


def _loaded() -> Solution:
    """A solution as a fresh process has it: stored cycle-start values, nothing else."""
    sol = SolutionStore(None).solution(RULES, N)
    assert sol.sweeps == 0 and all(values is None for values in sol.full)
    return sol


def _first_cycle(graph: PhaseGraph) -> set[int]:
    """The phases a player can be in before the first mitten is dealt."""
    seen: set[int] = set()
    todo = [graph.find(CycleBelief.initial(graph.interval))]
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        phase = graph.phases[i]
        todo += [o.phase for o in phase.outcomes if o.kind is not DealKind.MITTEN]
        if phase.probe_fail >= 0:
            todo.append(phase.probe_fail)
    return seen


def _later_cycle_start(sol: Solution) -> int:
    """A phase only a later cycle reaches."""
    first = _first_cycle(sol.graph)
    return next(i for i in sol.graph.cycle_starts if i not in first)


def test_every_cycle_start_is_a_recurring_phase_the_first_cycle_may_not_reach() -> None:
    for n in INTERVALS:
        graph = build_graph(n)
        first = _first_cycle(graph)
        later = [i for i in graph.cycle_starts if i not in first]
        assert later and all(graph.phases[i].recurrent for i in later)


def test_a_first_answer_computes_on_demand_and_evaluates_no_phase_in_full() -> None:
    sol = _loaded()
    start = sol.graph.find(CycleBelief.initial(N))
    rng = random.Random(2)
    for _ in range(20):
        s = state_index(rng.randrange(16), [rng.randrange(16) for _ in range(3)])
        assert 1.0 <= sol.value(start, s) < math.inf
    assert all(values is None for values in sol.full)


def test_a_later_cycle_is_evaluated_at_once_with_the_values_of_a_full_solve() -> None:
    sol = _loaded()
    phase = _later_cycle_start(sol)
    s = state_index(int(RULES.mitten), [1, 7])
    got = sol.value(phase, s)
    recurrent = [i for i, ph in enumerate(sol.graph.phases) if ph.recurrent]
    assert all(sol.full[i] is not None for i in recurrent)
    assert all(sol.full[i] is None for i, ph in enumerate(sol.graph.phases) if not ph.recurrent)
    solved = solve(RULES, N)
    assert math.isclose(got, solved.value(phase, s), rel_tol=1e-9)


def test_a_later_cycle_from_the_shipped_values_is_numpys_evaluation_to_the_bit() -> None:
    """Every value of every recurring phase, the full hands' worked out from the shipped
    ones, is the very float numpy's evaluation gives (so every answer is the same)."""
    sol = _loaded()
    sol.value(_later_cycle_start(sol), state_index(int(RULES.mitten), [1, 7]))
    numpy_made = Solution.from_cycle_value(RULES, N, sol.cycle_value)
    numpy_made.complete()
    for i, phase in enumerate(sol.graph.phases):
        if phase.recurrent:
            assert isinstance(sol.full[i], ShippedPhase)
            # Every 7th state: every hand size and discard top, in every phase.
            states = range(i % 7, STATES, 7)
            assert [sol.value(i, s) for s in states] == [
                numpy_made.value(i, s) for s in states
            ], i


def test_a_later_cycle_from_other_start_values_is_evaluated_with_numpy() -> None:
    """Shipped values hold only for the start values they were computed from: a
    solution with any other (a disk cache's, a fresh solve's) evaluates in full."""
    start = [value + 0.5 for value in _loaded().cycle_value]
    sol = Solution.from_cycle_value(RULES, N, start)
    phase = _later_cycle_start(sol)
    s = state_index(int(RULES.mitten), [1, 7])
    got = sol.value(phase, s)
    assert not any(isinstance(found, ShippedPhase) for found in sol.full)
    numpy_made = Solution.from_cycle_value(RULES, N, start)
    numpy_made.complete()
    assert got == numpy_made.value(phase, s)
