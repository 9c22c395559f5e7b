"""How the exact DP behaves on every (table, last digit, N): sweeps and solve time.

Usage: ``python -m defuser.devtools.dpstats [--oracle]``. Solves each of the 200 configurations
from scratch (no cache) and prints how many value-iteration sweeps the cycle's fixed
point took, and the mean and worst wall time of a solve.
"""

from __future__ import annotations

import argparse
import collections
import time

from defuser.strategy.dp.iteration import solve
from edgework.configs import CONFIGS


def main() -> None:
    """Solve every configuration and print the summary."""
    parser = argparse.ArgumentParser(prog="python -m defuser.devtools.dpstats",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--oracle", action="store_true", help="solve the all-seeing problem")
    args = parser.parse_args()
    sweeps: collections.Counter[int] = collections.Counter()
    times: list[float] = []
    for config in CONFIGS:
        start = time.perf_counter()
        solution = solve(config.rules, config.interval, oracle=args.oracle)
        times.append(time.perf_counter() - start)
        sweeps[solution.sweeps] += 1
    who = "oracle" if args.oracle else "player"
    print(
        f"{who}: {len(times)} configurations; sweeps {dict(sorted(sweeps.items()))}; "
        f"solve time mean {sum(times) / len(times):.3f} s, worst {max(times):.3f} s"
    )


if __name__ == "__main__":
    main()
