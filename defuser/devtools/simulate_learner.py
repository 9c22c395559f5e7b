"""``python -m defuser.devtools.simulate_learner [--days N] [--seed S]``.

Contract: runs :func:`defuser.trainer.simulate.simulate` (a simulated learner drilling
every day) and prints its figures, one per line; the same seed prints the same lines.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from defuser.trainer.simulate import simulate


def main(argv: Sequence[str] | None = None) -> None:
    """Simulate ``--days`` days of drills with ``--seed`` and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m defuser.devtools.simulate_learner",
                                     description="A simulated learner drilling every day.")
    parser.add_argument("--days", type=int, default=60, help="days to simulate (60)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (1)")
    args = parser.parse_args(argv)
    for line in simulate(args.days, args.seed).lines():
        print(line)


if __name__ == "__main__":
    main()
