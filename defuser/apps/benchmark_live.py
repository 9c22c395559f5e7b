"""Measure ``mittens live --json`` from the outside, as a program driving it would.

Before each game, ``mittens --help`` is run and timed as a whole process: the cost of
starting the program at all, which the first answer is compared with.

Contract: each game starts a fresh ``mittens live --json`` process for a seeded
simulated module, sends the opening state at once, then after every answer performs
the recommended click on the simulator and reports what happened, exactly as the
protocol documents. It records the wall time from starting the process to the first
answer (interpreter start-up, imports and the policy's computation included) and the
time of every later answer (line written to reply read), and checks the games: no
strike, every module solved. With ``cold=True`` every process gets an empty cache
directory; otherwise the configuration's solution is put in the shared cache directory
first, as after an earlier session. (Solutions ship with the package, so the cache is
only read when the shipped ones cannot be used: both modes time the same path.) A
process that goes away before it answers is a fault, :class:`LiveProcessError`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from defuser.apps.benchmark import game_seed
from defuser.engine.actions import Action, ActionKind
from defuser.engine.simulator import Module, Outcome, Result
from defuser.paths import APP_NAME
from defuser.strategy.cache import DiskCache
from defuser.strategy.solutions import SolutionStore
from edgework import Ruleset, TableLetter
from edgework.configs import CONFIGS
from edgework.errors import FaultError


@dataclass(slots=True)
class LiveTimings:
    """What :func:`measure` saw."""

    games: int = 0
    solved: int = 0
    strikes: int = 0
    clicks: list[int] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    later: list[float] = field(default_factory=list)
    #: ``mittens --help`` as a whole process, once before each game: the start-up cost
    #: the first answer is compared with.
    start: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Timings in milliseconds, and the games' outcome."""
        return {
            "games": self.games,
            "solved": self.solved,
            "strikes": self.strikes,
            "clicks_mean": round(statistics.fmean(self.clicks), 3) if self.clicks else None,
            "first_answer_ms": _stats(self.first),
            "later_answers_ms": _stats(self.later),
            "process_start_ms": _stats(self.start),
            "first_answer_vs_start": (
                round(statistics.median(self.first) / statistics.median(self.start), 3)
                if self.first and self.start
                else None
            ),
            "errors": self.errors,
        }


def _stats(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"count": 0, "median": None, "p95": None, "max": None}
    ordered = sorted(values)
    p95 = ordered[max(0, int(0.95 * len(ordered) + 0.5) - 1)]
    return {
        "count": len(values),
        "median": round(statistics.median(values) * 1000, 3),
        "p95": round(p95 * 1000, 3),
        "max": round(ordered[-1] * 1000, 3),
    }


def event_line(result: Result) -> str:
    """The ``mittens live`` line that reports a simulator's result."""
    action, card = result.action, result.card
    if result.outcome is Outcome.SOLVED:
        return f"solved {action.slot}"
    if result.outcome is Outcome.STRIKE:
        return f"strike {action}"
    assert card is not None  # a draw or a discard that went through moved a card
    if action.kind is ActionKind.DRAW:
        return f"drew {card.code}"
    if action.kind is ActionKind.DISCARD:
        return f"discarded {card.code}"
    return f"played {action.slot}"


class LiveProcessError(FaultError):
    """A measured ``mittens live`` process went away before it answered a line."""


def _ask(proc: subprocess.Popen[str], line: str) -> tuple[dict[str, Any], float]:
    stdin: IO[str] | None = proc.stdin
    stdout: IO[str] | None = proc.stdout
    assert stdin is not None and stdout is not None
    start = time.perf_counter()
    try:
        stdin.write(line + "\n")
        stdin.flush()
    except BrokenPipeError:
        raise LiveProcessError(f"mittens live closed its input before {line!r}") from None
    reply = stdout.readline()
    elapsed = time.perf_counter() - start
    if not reply:
        raise LiveProcessError(f"mittens live closed its output after {line!r}")
    return json.loads(reply), elapsed


def measure(
    games: int,
    seed: int,
    *,
    cold: bool = True,
    progress: Callable[[int], None] | None = None,
    command: list[str] | None = None,
) -> LiveTimings:
    """Play ``games`` modules through ``mittens live --json`` and time every answer."""
    timings = LiveTimings()
    base = command or [sys.executable, "-m", "defuser"]
    shared = tempfile.mkdtemp(prefix="mittens-bench-live-")
    rng = random.Random(seed)
    try:
        for g in range(games):
            index = rng.randrange(len(CONFIGS))
            config = CONFIGS[index]
            module = Module(config.rules, config.interval, random.Random(game_seed(seed, index, g)))
            cache_home = tempfile.mkdtemp(dir=shared) if cold else shared
            if not cold:
                _prime(cache_home, config.rules, config.interval)
            env = dict(os.environ, XDG_CACHE_HOME=cache_home, NO_COLOR="1")
            serial = serial_for(config.table, config.last_digit)
            args = [*base, "live", "--json", "--lenient-serial", "--serial", serial,
                    "--batteries", str(config.interval - 9)]
            begin = time.perf_counter()
            subprocess.run([*base, "--help"], env=env, stdout=subprocess.DEVNULL, check=False)
            timings.start.append(time.perf_counter() - begin)
            _time_one_game(args, env, module, str(config), timings)
            if progress is not None:
                progress(1)
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    return timings


def _time_one_game(
    args: list[str], env: dict[str, str], module: Module, config: str, timings: LiveTimings
) -> None:
    """Play ``module`` through one ``mittens live`` process (``args``), adding its times."""
    begin = time.perf_counter()
    proc = subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1,
    )
    try:
        opening = " ".join(c.code for c in (module.discard_top, *module.hand))
        reply, _ = _ask(proc, f"start {opening}")
        timings.first.append(time.perf_counter() - begin)
        clicks = 0
        while reply["ok"] and reply["recommendation"]["action"] != "none":
            result = module.act(Action.parse(reply["recommendation"]["command"]))
            clicks += 1
            reply, elapsed = _ask(proc, event_line(result))
            timings.later.append(elapsed)
            if clicks > 2000:
                break
        if not reply["ok"]:
            timings.errors.append(f"{config}: {reply['error']}")
        timings.games += 1
        timings.solved += int(module.solved)
        timings.strikes += module.strikes
        timings.clicks.append(clicks)
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


def _prime(cache_home: str, rules: Ruleset, interval: int) -> None:
    """Put this configuration's solution in the cache directory the process will use."""
    store = SolutionStore(DiskCache(Path(cache_home) / APP_NAME), shipped=False)
    store.solution(rules, interval)


def serial_for(table: TableLetter, last_digit: int) -> str:
    """A vanilla serial number that selects ``table`` (A-D) and ends in ``last_digit``: the
    serial the timing harness gives each configuration."""
    # A vowel and a repeated character pick the table: A both, B vowel, C repeat, D
    # neither. The middle digit differs from the last so only the letters repeat.
    letters = {
        TableLetter.A: "AAB", TableLetter.B: "AEB", TableLetter.C: "BBC", TableLetter.D: "BCD"
    }[table]
    middle = (last_digit + 1) % 10
    return f"{letters[:2]}{middle}{letters[2]}X{last_digit}"
