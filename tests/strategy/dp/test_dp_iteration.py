"""The DP's values against brute force and against themselves: a brute-force expectimax
over the hidden deck agrees with the DP, the cycle's value iteration reaches its fixed
point, and every path that values a state (on demand, in full with numpy, the choices
listed) gives the very same float."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from defuser.engine.deck import DealKind
from defuser.strategy.belief import CycleBelief
from defuser.strategy.dp.arrays import arrays_for
from defuser.strategy.dp.clicks import tables_for
from defuser.strategy.dp.graph import Mode
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import FACES, HAND_COUNT, hand_index, state_index
from defuser.strategy.solutions import solution_for
from edgework import Card, CardType, Ruleset, TableLetter

SMALL = (Ruleset(TableLetter.B, 7), 9)


# ---------------------------------------------------------------- brute force

Weights = tuple[tuple[tuple[int, int | None], Fraction], ...]


def _brute_value(
    rules: Ruleset, cycle_value: list[float]
) -> Callable[[Weights, int, tuple[int, ...]], float]:
    """Expectimax written from the spec alone, over explicit hidden-state weights.

    A new cycle (the mitten dealt) ends the recursion with the DP's cycle-start value,
    so this checks everything inside a cycle: beliefs, deal odds, faces, the
    guaranteed-legal draw, probes and the solve.
    """
    plain = [int(c) for c in rules.plain_faces]
    defuses = [int(c) for c in rules.defuse_faces]
    mitten = int(rules.mitten)
    is_defuse = [rules.type_of(Card(c)) is CardType.DEFUSE for c in range(16)]

    def legal(c: int, d: int) -> bool:
        return rules.is_legal(Card(c), Card(d))

    def shift(w: Weights, keep: Callable[[int, int | None], bool]) -> Weights:
        acc: dict[tuple[int, int | None], Fraction] = {}
        for (m, e), p in w:
            if keep(m, e):
                key = (m - 1, None if e is None or e == 0 else e - 1)
                acc[key] = acc.get(key, Fraction(0)) + p
        total = sum(acc.values(), Fraction(0))
        return tuple(sorted(((k, v / total) for k, v in acc.items()), key=str))

    @functools.cache
    def value(w: Weights, d: int, hand: tuple[int, ...]) -> float:
        p_top = sum((p for (m, _), p in w if m == 0), Fraction(0))
        if p_top == 1 and any(is_defuse[c] for c in hand):
            return 1.0
        options: list[float] = []
        legal_cards = [c for c in hand if legal(c, d)]
        if not legal_cards or (len(legal_cards) == 1 and is_defuse[legal_cards[0]]):
            total = 0.0
            for kind_p, kind in _kinds(w):
                if kind is DealKind.MITTEN:
                    total += kind_p * cycle_value[hand_index(hand)]
                    continue
                nxt = shift(w, _matcher(kind))
                faces = defuses if kind is DealKind.DEFUSE else plain
                total += kind_p * sum(value(nxt, f, hand) for f in faces) / len(faces)
            options.append(total)
        if p_top == 0 and len(hand) < 3:
            total = 0.0
            for kind_p, kind in _kinds(w):
                nxt = shift(w, _matcher(kind))
                faces = defuses if kind is DealKind.DEFUSE else plain
                if kind is DealKind.PLAIN and len(hand) == 2 and not legal_cards:
                    faces = [c for c in plain if legal(c, d)]
                total += (
                    kind_p
                    * sum(value(nxt, d, tuple(sorted((*hand, f)))) for f in faces)
                    / len(faces)
                )
            options.append(total)
        for c in sorted(set(legal_cards)):
            rest = list(hand)
            rest.remove(c)
            if is_defuse[c] and 0 < p_top < 1:
                clear = tuple(sorted(((h, p / (1 - p_top)) for h, p in w if h[0] != 0), key=str))
                options.append(float(1 - p_top) * value(clear, c, tuple(rest)))
            else:
                options.append(value(w, c, tuple(rest)))
        return 1.0 + min(options)

    def _kinds(w: Weights) -> list[tuple[float, DealKind]]:
        out: dict[DealKind, Fraction] = {}
        for (m, e), p in w:
            kind = DealKind.MITTEN if m == 0 else DealKind.DEFUSE if e == 0 else DealKind.PLAIN
            out[kind] = out.get(kind, Fraction(0)) + p
        return [(float(p), k) for k, p in out.items() if p]

    def _matcher(kind: DealKind) -> Callable[[int, int | None], bool]:
        if kind is DealKind.DEFUSE:
            return lambda m, e: m > 0 and e == 0
        return lambda m, e: m > 0 and e != 0

    assert mitten not in plain
    return value


def _late_beliefs(n: int) -> list[CycleBelief]:
    """Beliefs a few deals before the mitten: full-cycle and first-cycle ones."""
    out = []
    b = CycleBelief.new_cycle(n)
    for _ in range(n - 4):
        b = b.after_deal(DealKind.PLAIN)
    out.append(b)  # 3 deals to go, Defuse still ahead
    out.append(b.after_deal(DealKind.DEFUSE))  # 2 to go, no Defuse left
    f = CycleBelief.initial(n)
    for _ in range(n - 5):
        f = f.after_deal(DealKind.PLAIN)
    out.append(f)  # first cycle, mitten may be on top
    out.append(f.given_on_top(False))  # ... and after a failed probe
    return out


def test_dp_agrees_with_brute_force_expectimax() -> None:
    rules, n = SMALL
    sol = solution_for(rules, n)
    brute = _brute_value(rules, sol.cycle_value)
    rng = random.Random(4)
    checked = 0
    for belief in _late_beliefs(n):
        phase = sol.graph.find(belief)
        weights: Weights = tuple(sorted(belief.support, key=str))
        for _ in range(25):
            size = rng.randint(0, 3)
            hand = tuple(sorted(rng.randrange(16) for _ in range(size)))
            if any(rules.type_of(Card(c)) is CardType.EXPLODING_MITTEN for c in hand):
                continue
            d = rng.randrange(16)
            want = brute(weights, d, hand)
            got = sol.value(phase, state_index(d, hand))
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (belief, d, hand)
            checked += 1
    assert checked > 60


def test_value_iteration_reaches_the_fixed_point() -> None:
    rules, n = SMALL
    sol = solution_for(rules, n)
    tabs = tables_for(rules.table, rules.last_digit)
    arrays = arrays_for(rules.table, rules.last_digit)
    graph = sol.graph
    values: list[NDArray[np.float64] | None] = [None] * len(graph.phases)
    again = [0.0] * HAND_COUNT
    for i in graph.order:
        if graph.phases[i].recurrent:
            values[i] = arrays.evaluate(graph.phases[i], values, sol.cycle_value)
    for c, w in graph.cycle_mix.items():
        vals = values[c]
        assert vals is not None
        again = [a + w * v for a, v in zip(again, vals[tabs.mitten :: FACES], strict=True)]
    for a, b, dead in zip(again, sol.cycle_value, tabs.dead, strict=True):
        assert dead or abs(a - b) < 1e-9


def test_lazy_first_cycle_matches_the_full_solve() -> None:
    rules, n = SMALL
    lazy = solve(rules, n)
    full = solve(rules, n, start=lazy.cycle_value)
    assert full.sweeps == 1  # a cached fixed point is confirmed in one sweep
    full.complete()
    start = full.graph.find(CycleBelief.initial(n))
    rng = random.Random(1)
    for _ in range(40):
        hand = tuple(rng.randrange(16) for _ in range(3))
        s = state_index(rng.randrange(16), hand)
        assert lazy.value(start, s) == full.value(start, s)  # one arithmetic, to the bit


def test_on_demand_values_are_exactly_the_best_choice() -> None:
    """The on-demand path (no choice objects built) gives one click plus the lowest
    value :meth:`Solution.choices` lists, in every kind of phase, to the bit (once many
    later-cycle values are asked for they come from one vectorised sweep, which does the
    same arithmetic)."""
    rules, n = SMALL
    sol = Solution.from_cycle_value(rules, n, solution_for(rules, n).cycle_value)
    rng = random.Random(5)
    modes = set()
    for phase in rng.sample(range(len(sol.graph.phases)), 20):
        modes.add(sol.graph.phases[phase].mode)
        for _ in range(15):
            size = rng.randint(0, 3)
            s = state_index(rng.randrange(16), [rng.randrange(16) for _ in range(size)])
            best = min((v for _, v in sol.choices(phase, s)), default=math.inf)
            got = sol.value(phase, s)
            assert got == 1.0 + best
    assert modes == set(Mode)
