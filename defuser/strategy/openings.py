"""The module's opening states and the exact expectation over them.

Contract: :func:`opening_distribution` is exact (no sampling): every opening state the
module can deal, with its probability, derived from the start-up rules alone.
:func:`exact_expected_clicks` averages a solution's values over it (and, for the
oracle, over where the first cycle's mitten and Defuse lie), the number ``mittens
bench`` prints as ``exact``.
"""

from __future__ import annotations

import functools
import math

from defuser.strategy.belief import CycleBelief
from defuser.strategy.dp import FACES, Solution, state_index
from edgework import Card, Ruleset


def opening_distribution(rules: Ruleset) -> dict[tuple[Card, tuple[Card, ...]], float]:
    """Every opening state (discard top, hand in slot order) with its exact probability.

    The spec's start-up: the discard top uniform over the 15 faces that are not the
    mitten; three plain cards; while none is legal and plain, slot 1 or 2 re-rolled
    over all 16 faces. The re-roll loop has a closed form: the slot re-rolled last holds
    a uniform legal plain face, and the other slot still holds its first card with
    probability ``2g/(1+g)`` (g: the chance that one re-roll succeeds), else a uniform
    face that is not legal-and-plain.
    """
    plain = rules.plain_faces
    discards = [c for c in Card if c != rules.mitten]
    dist: dict[tuple[Card, tuple[Card, ...]], float] = {}

    def add(discard: Card, hand: tuple[Card, ...], w: float) -> None:
        dist[discard, hand] = dist.get((discard, hand), 0.0) + w

    for discard in discards:
        good = [c for c in plain if rules.is_legal(c, discard)]
        bad = [c for c in Card if c not in good]
        stuck = [c for c in plain if c not in good]
        g = len(good) / FACES
        keep = 2 * g / (1 + g)
        base = 1.0 / len(discards) / len(plain) ** 3
        for a in plain:
            for b in plain:
                for c in plain:
                    if a in good or b in good or c in good:
                        add(discard, (a, b, c), base)
        # Bad openings: (a, b, c) all stuck. Slot 1 or 2 ends holding a good face; the
        # other slot keeps its first card or holds a bad face; the first card of the
        # re-rolled slot no longer matters, so sum it out.
        for c in stuck:
            for new in good:
                w = base * len(stuck) * 0.5 / len(good)
                for other in stuck:
                    add(discard, (new, other, c), w * keep)
                    add(discard, (other, new, c), w * keep)
                for x in bad:
                    w_x = w * len(stuck) * (1 - keep) / len(bad)
                    add(discard, (new, x, c), w_x)
                    add(discard, (x, new, c), w_x)
    return dist



@functools.cache
def _state_weights(table: str, last_digit: int) -> tuple[tuple[int, float], ...]:
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
