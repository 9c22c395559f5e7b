"""``python -m defuser.devtools.bench_dashboard [REPEATS]``.

Contract: times the stats dashboard at the server with
:func:`defuser.web.benchmark_stats.measure` (``REPEATS`` renders, 20 by default) and
prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from defuser.web.benchmark_stats import measure


def main(argv: Sequence[str] | None = None) -> None:
    """Print :func:`~defuser.web.benchmark_stats.measure`'s figures."""
    parser = argparse.ArgumentParser(prog="python -m defuser.devtools.bench_dashboard",
                                     description="Time the stats dashboard at the server.")
    parser.add_argument("repeats", type=int, nargs="?", default=20,
                        help="renders to time (20)")
    print(json.dumps(measure(parser.parse_args(argv).repeats)))


if __name__ == "__main__":
    main()
