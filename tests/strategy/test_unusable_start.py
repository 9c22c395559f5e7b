"""A cached start the value iteration does not converge from: bad data, solved afresh;
not converging from nothing is a bug, and passes through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from defuser.errors import UnusableStartError
from defuser.strategy import solutions
from defuser.strategy.cache import DiskCache
from defuser.strategy.dp import iteration
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import HAND_COUNT
from defuser.strategy.solutions import SolutionStore
from edgework import MisuseError, Ruleset, TableLetter

RULES, N = Ruleset(TableLetter.C, 4), 10


def _store_with_a_cached_start(tmp_path: Path) -> SolutionStore:
    folder = tmp_path / "exploding-mittens"
    folder.mkdir()
    store = SolutionStore(DiskCache(folder), shipped=False)
    store.solution(RULES, N)  # writes the cache entry
    [entry] = folder.glob("*.json")
    assert len(json.loads(entry.read_text(encoding="utf-8"))["cycle_value"]) == HAND_COUNT
    store.clear()
    return store


def test_a_start_it_does_not_converge_from_is_solved_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store_with_a_cached_start(tmp_path)
    starts: list[object] = []

    def solve(rules: Ruleset, interval: int, *, oracle: bool = False,
              start: list[float] | None = None) -> Solution:
        starts.append(start)
        if start is not None:
            raise UnusableStartError("did not converge from the stored start")
        return iteration.solve(rules, interval, oracle=oracle)

    monkeypatch.setattr(solutions, "solve", solve)
    assert store.solution(RULES, N).cycle_value == pytest.approx(
        iteration.solve(RULES, N).cycle_value, abs=1e-9)
    assert starts[0] is not None and starts[1:] == [None]


def test_not_converging_from_nothing_is_a_misuse_that_passes_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store_with_a_cached_start(tmp_path)

    def solve(rules: Ruleset, interval: int, *, oracle: bool = False,
              start: list[float] | None = None) -> Solution:
        raise MisuseError("the cycle's value iteration did not converge")

    monkeypatch.setattr(solutions, "solve", solve)
    with pytest.raises(MisuseError):
        store.solution(RULES, N)
