"""The DP's expected-value arithmetic is one: every path that values a state gives the
very same float.

A state's value is found three ways: numpy's evaluation of a whole phase, the on-demand
path of a first answer (a state at a time, no numpy), and one click plus the lowest
value among :meth:`~defuser.strategy.dp.solution.Solution.choices` (what the oracle and
the tests read). All three use :mod:`defuser.strategy.dp.expectation`, so they agree to
the bit, for the player and for the oracle (whose mitten deal has a branch per cycle
start, whose chances are summed before they weigh the cycle's start values).
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from defuser.strategy.dp import solution
from defuser.strategy.dp.expectation import (
    SOLVED,
    after_click,
    by_answer,
    deal_value,
    face_weight,
    probe_value,
)
from defuser.strategy.dp.graph import later_phases
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import FACES, HAND_COUNT, STATES
from edgework import Ruleset, TableLetter


@pytest.mark.parametrize(
    ("table", "digit", "interval", "oracle"),
    [(TableLetter.A, 3, 9, False), (TableLetter.D, 8, 12, False), (TableLetter.B, 4, 10, True)],
)
def test_every_path_values_a_state_to_the_same_bit(
    table: TableLetter, digit: int, interval: int, oracle: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every value on demand, however many (a first answer turns to numpy after a few).
    monkeypatch.setattr(solution, "LAZY_VALUES", 10**7)
    rules = Ruleset(table, digit)
    full = solve(rules, interval, oracle=oracle)
    full.complete()
    on_demand = Solution.from_cycle_value(rules, interval, full.cycle_value, oracle=oracle)
    # The phases a first answer values on demand (the others a later cycle fills at once).
    on_demand_phases = [i for i, later in enumerate(later_phases(full.graph)) if not later]
    checked = 0
    for i in on_demand_phases[:8]:
        evaluated = full.full[i]
        assert evaluated is not None
        for s in range(i % 401, STATES, 401):
            chosen = min((v for _, v in full.choices(i, s)), default=math.inf)
            assert float(evaluated[s]) == on_demand.value(i, s) == 1.0 + chosen, (i, s)
            checked += 1
        h = i % HAND_COUNT
        assert full.deal_value(i, h * FACES, draw=False) == on_demand.deal_value(
            i, h * FACES, draw=False
        )
    assert all(values is None for values in on_demand.full)  # no numpy on demand
    assert checked >= 8 * 38


def test_the_arithmetic_is_the_same_on_floats_and_on_arrays() -> None:
    rng = random.Random(3)
    kinds = [(rng.random(), face_weight(n), [rng.uniform(1, 40) for _ in range(6)])
             for n in (5, 3)]
    cycle = [rng.uniform(1, 40) for _ in range(6)]
    mitten = rng.random()
    on_arrays = deal_value(
        [(p, w, np.array(v)) for p, w, v in kinds], mitten, np.array(cycle), np.zeros(6)
    )
    for k in range(6):
        one = deal_value([(p, w, v[k]) for p, w, v in kinds], mitten, cycle[k], 0.0)
        assert one == on_arrays[k]
    counts = np.array([1, 2, 3, 7])
    assert face_weight(counts).tolist() == [face_weight(int(n)) for n in counts]
    fail = np.array([3.5, 7.25])
    assert probe_value(0.3, fail).tolist() == [probe_value(0.3, 3.5), probe_value(0.3, 7.25)]
    assert after_click(np.array([SOLVED, 2.5])).tolist() == [after_click(SOLVED), 3.5]


def test_a_deal_weighs_each_kind_then_the_mitten_last() -> None:
    """The order is part of the arithmetic: each kind's chance times one over its faces
    times their sum, in the order given, and the mitten's chance (one sum, however many
    branches it has) times the cycle's start value last."""
    kinds = [(0.6, face_weight(3), 3.0 + 4.0 + 5.0), (0.1, face_weight(2), 9.0 + 2.0)]
    want = 0.0
    want += 0.6 * (1.0 / 3) * 12.0
    want += 0.1 * (1.0 / 2) * 11.0
    want += (0.2 + 0.1) * 30.0
    assert deal_value(kinds, 0.2 + 0.1, 30.0, 0.0) == want
    assert deal_value([], 0.0, 30.0, 0.0) == 0.0  # no deal, no mitten: nothing after
    assert probe_value(1.0, 12.0) == SOLVED  # a probe with the mitten surely on top solves


def test_a_click_weighed_by_the_belief_is_each_answer_times_its_chance() -> None:
    """by_answer: the on-top value times its chance plus the other times the rest; a
    probe (solved if on top) is probe_value, to the bit."""
    rng = random.Random(5)
    for _ in range(1000):
        on_top, a, b = rng.random(), rng.uniform(0, 40), rng.uniform(0, 40)
        assert by_answer(on_top, a, b) == on_top * a + (1.0 - on_top) * b
        assert by_answer(on_top, SOLVED, b) == probe_value(on_top, b)
    assert by_answer(0.25, 8.0, 4.0) == 5.0
