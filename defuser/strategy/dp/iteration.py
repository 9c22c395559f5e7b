"""The cycle's fixed point: value iteration over the recurring phases.

Contract: :func:`solve` returns the exact :class:`~defuser.strategy.dp.solution.Solution`
of one (rule set, N, player or oracle): the values at a cycle's start (discard top =
the mitten face) are the fixed point of one sweep over the cycle (every recurring
phase evaluated in full, :mod:`defuser.strategy.dp.arrays`), found by value iteration
with Aitken extrapolation until a plain sweep changes no value by more than
:data:`TOLERANCE`; the first, partial cycle is then valued on demand by the solution.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from defuser.errors import UnusableStartError
from defuser.strategy.dp.arrays import arrays_for
from defuser.strategy.dp.clicks import tables_for
from defuser.strategy.dp.graph import build_graph
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import FACES, HAND_COUNT
from edgework import MisuseError, Ruleset

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]

#: Convergence threshold of the cycle's value iteration, in clicks.
TOLERANCE: Final = 1e-11


def solve(
    rules: Ruleset,
    interval: int,
    *,
    oracle: bool = False,
    start: list[float] | None = None,
) -> Solution:
    """Solve the recurring phases exactly by value iteration over the cycle's start.

    ``start`` may give the cycle-start values to begin from (a cached fixed point makes
    this one confirming sweep). After each sweep, a hand whose value is converging
    geometrically is extrapolated to its limit (Aitken), which is exact for the usual
    slow case, a hand that can keep failing to catch a Defuse and start the next cycle
    the same way; the loop ends only when a plain sweep changes nothing by more than
    :data:`TOLERANCE`, so the extrapolation affects speed, never the answer. A ``start``
    it does not converge from is :class:`~defuser.errors.UnusableStartError`.
    """
    graph = build_graph(interval, oracle=oracle)
    tabs = tables_for(rules.table, rules.last_digit)
    values: list[FloatArray | None] = [None] * len(graph.phases)
    if start is not None and len(start) == HAND_COUNT:
        cycle_value = list(start)
    else:
        cycle_value = [math.inf if dead else 2.0 * interval + 10.0 for dead in tabs.dead]
    arrays = arrays_for(rules.table, rules.last_digit)
    recurrent = [i for i in graph.order if graph.phases[i].recurrent]
    mitten = tabs.mitten
    last: list[float] | None = None
    sweeps = 0
    while True:
        sweeps += 1
        for i in recurrent:
            values[i] = arrays.evaluate(graph.phases[i], values, cycle_value)
        new = [0.0] * HAND_COUNT
        for c, w in graph.cycle_mix.items():
            vals = values[c]
            assert vals is not None
            start_values: list[float] = vals[mitten::FACES].tolist()
            new = [a + w * v for a, v in zip(new, start_values, strict=True)]
        delta = [a - b if a != b else 0.0 for a, b in zip(new, cycle_value, strict=True)]
        change = max(map(abs, delta))
        if last is not None:
            new = [_aitken(v, dv, lv) for v, dv, lv in zip(new, delta, last, strict=True)]
            last = None
        else:
            last = delta
        cycle_value = new
        if change < TOLERANCE:
            break
        if sweeps > 200:
            if start is not None:
                raise UnusableStartError("the cycle's value iteration did not converge from "
                                         "the stored start")
            raise MisuseError("the cycle's value iteration did not converge")
    return Solution(rules, interval, graph, values, cycle_value, sweeps)


def _aitken(value: float, delta: float, last: float) -> float:
    """Extrapolate a geometric sequence: ``value`` moved by ``delta`` after ``last``."""
    if delta == 0.0 or last == 0.0 or (delta > 0) != (last > 0) or abs(delta) >= abs(last):
        return value
    r = delta / last
    return value + delta * r / (1.0 - r)
