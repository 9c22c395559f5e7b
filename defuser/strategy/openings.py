"""The module's opening states and the exact expectation over them.

Contract: :func:`opening_distribution` (from :mod:`defuser.engine.deck`, where the
opening deal is stated) is exact: every opening state the module can deal, with its
probability. :func:`exact_expected_clicks` averages a solution's values over it (and, for the
oracle, over where the first cycle's mitten and Defuse lie), the number ``mittens
bench`` prints as ``exact``.
"""

from __future__ import annotations

import functools
import math

from defuser.engine.deck import opening_distribution
from defuser.strategy.belief import CycleBelief
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import state_index
from edgework import Ruleset, TableLetter


@functools.cache
def _state_weights(table: TableLetter, last_digit: int) -> tuple[tuple[int, float], ...]:
    weights: dict[int, float] = {}
    for (discard, hand), w in opening_distribution(Ruleset(table, last_digit)).items():
        s = state_index(discard, hand)
        weights[s] = weights.get(s, 0.0) + w
    return tuple(weights.items())


def exact_expected_clicks(sol: Solution, *, oracle: bool = False) -> float:
    """The exact expected clicks to the solve of the optimal (or oracle) policy whose
    solution is ``sol``, averaged over the module's random opening state and deck."""
    sol.complete()
    weights = _state_weights(sol.rules.table, sol.rules.last_digit)
    belief = CycleBelief.initial(sol.interval)
    if not oracle:
        phase = sol.graph.find(belief)
        return math.fsum(w * sol.value(phase, s) for s, w in weights)
    total: list[float] = []
    for pw, point in belief.split():
        phase = sol.graph.find(point)
        total.extend(float(pw) * w * sol.value(phase, s) for s, w in weights)
    return math.fsum(total)
