"""Where a configuration's solution comes from: memory, the shipped file, a disk cache,
or the DP.

Contract: :meth:`SolutionStore.solution` always returns the exact solution of the
model for a (rule set, N, player or oracle); the sources differ only in cost. In order:
the store's few most recent solutions in memory; the fixed point shipped with the
package (:mod:`defuser.strategy.shipped`, no solving at all); the store's disk cache
(a fixed point from an earlier process, confirmed by one sweep, so a bad entry costs
sweeps, never a wrong answer); and the DP from scratch, whose fixed point is then
written to the disk cache. The DP is the source of truth and the fallback, e.g. when
the shipped file belongs to another model version.

A store is an object, so a caller can pass its own (a private cache directory, no
shipped data, no cache at all); :func:`default_store` is the process-wide one, using
the user's cache directory.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Final

from defuser.errors import UnusableStartError
from defuser.strategy.cache import DiskCache, default_cache
from defuser.strategy.dp.graph import MODEL_VERSION
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import HAND_COUNT
from defuser.strategy.openings import exact_expected_clicks
from defuser.strategy.shipped import load
from edgework import Ruleset

#: How many solutions a store keeps in memory (a bench walks all 200 configurations).
MEMORY_SLOTS: Final = 4

#: A stored cycle-start value above this is damage, not a value (real ones are < 100).
MAX_STORED_VALUE: Final = 1e6

_Key = tuple[str, int, int, bool]


def cache_name(rules: Ruleset, interval: int, oracle: bool) -> str:
    """The disk-cache entry of one configuration, e.g. ``policy-v1-player-B4-n12.json``."""
    who = "oracle" if oracle else "player"
    return f"policy-v{MODEL_VERSION}-{who}-{rules.table}{rules.last_digit}-n{interval}.json"


def parse_cycle_value(data: object) -> list[float] | None:
    """The cycle-start values of a disk-cache entry, or ``None`` when it is not usable."""
    if not isinstance(data, dict) or data.get("version") != MODEL_VERSION:
        return None
    raw = data.get("cycle_value")
    if not isinstance(raw, list) or len(raw) != HAND_COUNT:
        return None
    out: list[float] = []
    for v in raw:
        if v is None:
            out.append(math.inf)
            continue
        if isinstance(v, bool) or not isinstance(v, float | int):
            return None
        try:
            value = float(v)
        except (OverflowError, ValueError):
            return None
        if not 1.0 <= value <= MAX_STORED_VALUE:
            return None
        out.append(value)
    return out


class SolutionStore:
    """Solutions by configuration, from the cheapest source that has them.

    ``cache`` is the disk cache to read fixed points from and write new ones to
    (``None``: none); ``shipped=False`` ignores the solutions shipped with the package.
    """

    def __init__(
        self,
        cache: DiskCache | None = None,
        *,
        shipped: bool = True,
        memory_slots: int = MEMORY_SLOTS,
    ) -> None:
        self.cache = cache if cache is not None else DiskCache(None)
        self.shipped = shipped
        self.memory_slots = max(1, memory_slots)
        self._solutions: OrderedDict[_Key, Solution] = OrderedDict()
        self._expected: dict[_Key, float] = {}

    def clear(self) -> None:
        """Forget the solutions held in memory."""
        self._solutions.clear()
        self._expected.clear()

    def solution(self, rules: Ruleset, interval: int, *, oracle: bool = False) -> Solution:
        """The exact solution of one configuration."""
        key = (rules.table, rules.last_digit, interval, oracle)
        found = self._solutions.get(key)
        if found is not None:
            self._solutions.move_to_end(key)
            return found
        sol = self._load(key, rules, interval, oracle)
        self._solutions[key] = sol
        while len(self._solutions) > self.memory_slots:
            self._solutions.popitem(last=False)
        return sol

    def _load(self, key: _Key, rules: Ruleset, interval: int, oracle: bool) -> Solution:
        if self.shipped:
            stored = load(rules, interval, model=MODEL_VERSION, size=HAND_COUNT, oracle=oracle)
            if stored is not None:
                self._expected[key] = stored.expected_clicks
                return Solution.from_cycle_value(
                    rules, interval, stored.cycle_value, oracle=oracle
                )
        name = cache_name(rules, interval, oracle)
        start = parse_cycle_value(self.cache.read_json(name))
        try:
            sol = solve(rules, interval, oracle=oracle, start=start)
        except UnusableStartError:  # the cached start only: a solve from nothing is sure
            start = None
            sol = solve(rules, interval, oracle=oracle)
        if start is None or sol.sweeps > 1:
            self.cache.write_json(
                name,
                {
                    "version": MODEL_VERSION,
                    "table": rules.table,
                    "last_digit": rules.last_digit,
                    "interval": interval,
                    "oracle": oracle,
                    "cycle_value": [None if math.isinf(v) else v for v in sol.cycle_value],
                },
            )
        return sol

    def expected_clicks(self, rules: Ruleset, interval: int, *, oracle: bool = False) -> float:
        """The exact expected clicks of the optimal (or oracle) policy for a configuration,
        averaged over the opening states: stored with a shipped solution, else computed."""
        key = (rules.table, rules.last_digit, interval, oracle)
        found = self._expected.get(key)
        if found is None:
            sol = self.solution(rules, interval, oracle=oracle)
            found = self._expected.get(key)
            if found is None:
                found = exact_expected_clicks(sol, oracle=oracle)
                self._expected[key] = found
        return found


_DEFAULT: SolutionStore | None = None


def default_store() -> SolutionStore:
    """The process-wide store: shipped solutions, then the user's cache directory."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = SolutionStore(default_cache())
    return _DEFAULT


def solution_for(
    rules: Ruleset, interval: int, *, oracle: bool = False, store: SolutionStore | None = None
) -> Solution:
    """The exact solution for a rule set and N, from ``store`` (default: the process's)."""
    return (store or default_store()).solution(rules, interval, oracle=oracle)


def expected_clicks(
    rules: Ruleset, interval: int, *, oracle: bool = False, store: SolutionStore | None = None
) -> float:
    """The exact expected clicks to the solve of the optimal (or oracle) policy,
    averaged over the module's random opening state and deck."""
    return (store or default_store()).expected_clicks(rules, interval, oracle=oracle)
