"""``python -m defuser.devtools.bench_web [GAMES] [CHROMIUM]``.

Contract: times ``mittens serve`` from outside with :func:`defuser.web.benchmark.measure`
(``GAMES`` simulated modules, 20 by default; the first render too when the path of a
Chromium is given) and prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from defuser.web.benchmark import measure


def main(argv: Sequence[str] | None = None) -> None:
    """Print :func:`~defuser.web.benchmark.measure`'s figures for the arguments given."""
    parser = argparse.ArgumentParser(prog="python -m defuser.devtools.bench_web",
                                     description="Time mittens serve from outside.")
    parser.add_argument("games", type=int, nargs="?", default=20,
                        help="simulated modules to play (20)")
    parser.add_argument("chromium", nargs="?", default=None,
                        help="a Chromium executable, to time the first render too")
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.games, args.chromium), indent=2))


if __name__ == "__main__":
    main()
