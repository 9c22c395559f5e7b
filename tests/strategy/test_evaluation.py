"""How a solution from stored cycle-start values evaluates: the first cycle on demand,
a later cycle all at once, and the same values however the work is scheduled.

A first answer must not pay for numpy; a later cycle's first answer must not compute
tens of thousands of states one by one before it gives up and evaluates in full; and a
session may build the full evaluation's tables in the background without any value
depending on whether (or when) it did.
"""

from __future__ import annotations

import math
import random

from defuser.engine.deck import DealKind
from defuser.strategy import dp
from defuser.strategy.belief import CycleBelief
from defuser.strategy.solutions import SolutionStore, prepare_in_background
from edgework import INTERVALS, Ruleset

RULES, N = Ruleset("D", 2), 11


def _loaded() -> dp.Solution:
    """A solution as a fresh process has it: stored cycle-start values, nothing else."""
    sol = SolutionStore(None).solution(RULES, N)
    assert sol.sweeps == 0 and all(values is None for values in sol.full)
    return sol


def _first_cycle(graph: dp.PhaseGraph) -> set[int]:
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


def _later_cycle_start(sol: dp.Solution) -> int:
    """A phase only a later cycle reaches."""
    first = _first_cycle(sol.graph)
    return next(i for i in sol.graph.cycle_starts if i not in first)


def test_every_cycle_start_is_a_recurring_phase_the_first_cycle_may_not_reach() -> None:
    for n in INTERVALS:
        graph = dp.build_graph(n)
        first = _first_cycle(graph)
        later = [i for i in graph.cycle_starts if i not in first]
        assert later and all(graph.phases[i].recurrent for i in later)


def test_a_first_answer_computes_on_demand_and_evaluates_no_phase_in_full() -> None:
    sol = _loaded()
    start = sol.graph.find(CycleBelief.initial(N))
    rng = random.Random(2)
    for _ in range(20):
        s = dp.state_index(rng.randrange(16), [rng.randrange(16) for _ in range(3)])
        assert 1.0 <= sol.value(start, s) < math.inf
    assert all(values is None for values in sol.full)


def test_a_later_cycle_is_evaluated_at_once_with_the_values_of_a_full_solve() -> None:
    sol = _loaded()
    phase = _later_cycle_start(sol)
    s = dp.state_index(int(RULES.mitten), [1, 7])
    got = sol.value(phase, s)
    recurrent = [i for i, ph in enumerate(sol.graph.phases) if ph.recurrent]
    assert all(sol.full[i] is not None for i in recurrent)
    assert all(sol.full[i] is None for i, ph in enumerate(sol.graph.phases) if not ph.recurrent)
    solved = dp.solve(RULES, N)
    assert math.isclose(got, solved.value(phase, s), rel_tol=1e-9)


def test_values_do_not_depend_on_tables_prepared_in_the_background() -> None:
    rng = random.Random(4)
    states = [
        dp.state_index(rng.randrange(16), [rng.randrange(16) for _ in range(rng.randint(0, 3))])
        for _ in range(40)
    ]
    dp.tables_for.cache_clear()
    plain = _loaded()
    phases = [plain.graph.find(CycleBelief.initial(N)), _later_cycle_start(plain)]
    want = [plain.value(p, s) for p in phases for s in states]
    dp.tables_for.cache_clear()
    thread = prepare_in_background(RULES)
    prepared = _loaded()
    got = [prepared.value(p, s) for p in phases for s in states]
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert got == want
