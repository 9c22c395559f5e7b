"""The benchmark: play many simulated modules with each policy and summarise them.

Contract: a game is a :class:`~defuser.engine.simulator.Module` seeded from the benchmark seed,
the configuration and the game number, so a seed replays the whole benchmark and every
policy meets the same modules (same opening state, same first cycle). Policies see only
an :class:`~defuser.strategy.belief.Observation` built from each click's visible result, except
the ``oracle``, which reads the module's hidden state by design. Games are spread evenly
over all 200 configurations (table A-D, last digit 0-9, N 9-13).

Next to the optimal policy's measured clicks stands its exact expectation (from the DP,
averaged over the opening states exactly), with the 95% interval of the measured mean,
so the two can be compared.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.pool
import os
import random
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from defuser.engine.simulator import Module
from defuser.strategy.belief import Observation
from defuser.strategy.policy import POLICY_NAMES, make_policy
from defuser.strategy.solutions import expected_clicks, solution_for
from edgework.configs import CONFIGS, Config
from edgework.errors import FaultError, MisuseError

#: A game that reaches this many clicks is stopped and counted as unsolved.
MAX_CLICKS: Final = 5000

#: z for a two-sided 95% normal interval.
Z95: Final = 1.959963984540054


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game."""

    policy: str
    config: Config
    seed: int
    clicks: int
    strikes: int
    solved: bool


def game_seed(seed: int, config_index: int, game: int) -> int:
    """The module seed of game ``game`` of configuration ``config_index``."""
    return (seed * len(CONFIGS) + config_index) * 1_000_000 + game


def play(module: Module, policy_name: str, *, max_clicks: int = MAX_CLICKS) -> GameRecord:
    """Play one module to the solve (or ``max_clicks``) with a named policy."""
    policy = make_policy(policy_name, module.reveal)
    obs = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
    clicks = 0
    while not module.solved and clicks < max_clicks:
        result = module.act(policy.choose(obs))
        obs = obs.after(result)
        clicks += 1
    config = Config(module.rules.table, module.rules.last_digit, module.interval)
    seed = module.seed if module.seed is not None else -1
    return GameRecord(policy_name, config, seed, clicks, module.strikes, module.solved)


@dataclass(slots=True)
class Summary:
    """Clicks, strikes and solves of one policy over a set of games."""

    games: int = 0
    strikes: int = 0
    unsolved: int = 0
    clicks: list[int] = field(default_factory=list)
    #: The exact expected clicks of the games' configurations (optimal and oracle).
    exact_sum: float = 0.0
    has_exact: bool = False

    def add(self, game: GameRecord, exact: float | None) -> None:
        """Count one game (``exact``: its configuration's exact expectation, if known)."""
        self.games += 1
        self.strikes += game.strikes
        self.unsolved += 0 if game.solved else 1
        self.clicks.append(game.clicks)
        if exact is not None:
            self.exact_sum += exact
            self.has_exact = True

    @property
    def mean(self) -> float:
        """Mean clicks per game."""
        return statistics.fmean(self.clicks) if self.clicks else math.nan

    @property
    def interval95(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean clicks (normal approximation)."""
        if len(self.clicks) < 2:
            return (math.nan, math.nan)
        half = Z95 * statistics.stdev(self.clicks) / math.sqrt(len(self.clicks))
        return (self.mean - half, self.mean + half)

    @property
    def exact(self) -> float | None:
        """The exact expected clicks over the same configurations, when known."""
        return self.exact_sum / self.games if self.has_exact and self.games else None

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile of clicks (nearest rank)."""
        if not self.clicks:
            return math.nan
        ordered = sorted(self.clicks)
        rank = max(1, math.ceil(q / 100 * len(ordered)))
        return float(ordered[rank - 1])

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-able numbers."""
        low, high = self.interval95
        exact = self.exact
        return {
            "games": self.games,
            "strikes": self.strikes,
            "solved": self.games - self.unsolved,
            "unsolved": self.unsolved,
            "clicks_mean": _num(self.mean),
            "clicks_median": _num(statistics.median(self.clicks)) if self.clicks else None,
            "clicks_p95": _num(self.percentile(95)),
            "mean_ci95": [_num(low), _num(high)],
            "exact_expected_clicks": None if exact is None else _num(exact),
            "exact_inside_ci95": None if exact is None else bool(low <= exact <= high),
        }


def _num(x: float) -> float | None:
    return None if math.isnan(x) or math.isinf(x) else round(x, 4)


@dataclass(slots=True)
class Report:
    """The benchmark's results: per policy, per N and overall."""

    games: int
    seed: int
    policies: tuple[str, ...]
    by_n: dict[str, dict[int, Summary]]
    overall: dict[str, Summary]

    def to_json(self) -> dict[str, Any]:
        """The whole report as one JSON-able dict."""
        return {
            "games_per_policy": self.games,
            "seed": self.seed,
            "policies": {
                name: {
                    "overall": self.overall[name].to_json(),
                    "by_n": {str(n): s.to_json() for n, s in sorted(self.by_n[name].items())},
                }
                for name in self.policies
            },
        }


def allocate(games: int) -> list[int]:
    """How many games each configuration gets: as even as possible, in order."""
    if games < 1:
        raise MisuseError(f"games {games} is not positive, expected 1 or more")
    base, extra = divmod(games, len(CONFIGS))
    return [base + (1 if i < extra else 0) for i in range(len(CONFIGS))]


def play_config(
    index: int, count: int, seed: int, names: Sequence[str]
) -> list[tuple[GameRecord, float | None]]:
    """Play configuration ``index``'s ``count`` games with each policy.

    Returns each game with its configuration's exact expected clicks (for ``optimal``
    and ``oracle``; ``None`` for ``safe``).
    """
    config = CONFIGS[index]
    rules = config.rules
    games: list[tuple[GameRecord, float | None]] = []
    for name in names:
        exact: float | None = None
        if name in ("optimal", "oracle"):
            oracle = name == "oracle"
            exact = expected_clicks(rules, config.interval, oracle=oracle)
            # Many games of one configuration: every value in full at once is cheaper
            # than value by value.
            solution_for(rules, config.interval, oracle=oracle).complete()
        for g in range(count):
            module = Module(rules, config.interval, random.Random(game_seed(seed, index, g)))
            module.seed = game_seed(seed, index, g)
            games.append((play(module, name), exact))
    return games


class WorkerStartError(FaultError):
    """The worker processes could not be started (e.g. a limit on processes)."""

    def __init__(self, workers: int, reason: str) -> None:
        super().__init__(f"could not start {workers} worker processes: {reason}")
        self.workers = workers
        self.reason = reason


def usable_cpus() -> int:
    """How many CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def worker_count(jobs: int | None, tasks: int) -> int:
    """Worker processes for ``tasks`` pieces of work: ``jobs`` (``None``: one per usable
    CPU), never more than there is work for."""
    wanted = usable_cpus() if jobs is None else jobs
    return max(1, min(wanted, tasks))


def _play_group(
    task: tuple[list[tuple[int, int]], int, Sequence[str]],
) -> list[tuple[int, list[tuple[GameRecord, float | None]]]]:
    group, seed, names = task
    return [(index, play_config(index, count, seed, names)) for index, count in group]


@contextlib.contextmanager
def _worker_pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` processes, all started up front, and all ended on exit.

    A failed start (a process limit) ends the workers already started and raises
    :class:`WorkerStartError`; leaving the block, normally or by an exception (Ctrl-C
    included), terminates every worker, so none is left behind.
    """
    try:
        pool = multiprocessing.Pool(workers)
    except OSError as exc:
        raise WorkerStartError(workers, exc.strerror or str(exc)) from None
    try:
        yield pool
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run(
    games: int,
    seed: int,
    policies: Sequence[str] = POLICY_NAMES,
    *,
    progress: Callable[[int], None] | None = None,
    configs: Iterable[int] | None = None,
    jobs: int | None = 1,
) -> Report:
    """Play ``games`` modules with each policy; ``progress(n)`` after every n games.

    ``configs`` restricts the run to some configuration indices (the allocation of
    games stays that of the full run). ``jobs`` > 1 plays configurations in that many
    worker processes (``None``: one per usable CPU; never more than there are
    configurations to play); the results do not depend on it.
    """
    names = tuple(dict.fromkeys(policies))
    for name in names:
        if name not in POLICY_NAMES:
            raise MisuseError(
                f"policy {name!r} is not known, expected one of {', '.join(POLICY_NAMES)}"
            )
    counts = allocate(games)
    chosen = sorted(set(range(len(CONFIGS)) if configs is None else configs))
    work = [(i, counts[i]) for i in chosen if counts[i] > 0]
    by_n: dict[str, dict[int, Summary]] = {name: {} for name in names}
    overall = {name: Summary() for name in names}

    def collect(results: list[tuple[GameRecord, float | None]]) -> None:
        for game, exact in results:
            by_n[game.policy].setdefault(game.config.interval, Summary()).add(game, exact)
            overall[game.policy].add(game, exact)
        if progress is not None:
            progress(len(results))

    # A worker takes every configuration of one rule set (its N = 9..13), which share
    # the DP's per-rule-set index arrays.
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for index, count in work:
        config = CONFIGS[index]
        groups.setdefault((config.table, config.last_digit), []).append((index, count))
    workers = worker_count(jobs, len(groups))
    if workers <= 1:
        for index, count in work:
            collect(play_config(index, count, seed, names))
    else:
        results: dict[int, list[tuple[GameRecord, float | None]]] = {}
        tasks = [(group, seed, names) for group in groups.values()]
        with _worker_pool(workers) as pool:
            for done in pool.imap_unordered(_play_group, tasks):
                for index, played in done:
                    results[index] = played
                    if progress is not None:
                        progress(len(played))
        saved, progress = progress, None
        for index, _ in work:
            collect(results[index])
        progress = saved
    return Report(games, seed, names, by_n, overall)
