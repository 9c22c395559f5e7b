"""``python -m defuser.devtools.build_solutions [--output FILE] [--jobs N]``.

Contract: solves every configuration with :func:`defuser.strategy.shipped_build.build`
and writes the shipped solutions file (by default the package's own), through a
temporary file so that a failed run leaves the old file whole.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from defuser.strategy.shipped import DATA_PATH
from defuser.strategy.shipped_build import build


def main(argv: Sequence[str] | None = None) -> None:
    """Write the shipped solutions file (``--output`` elsewhere, ``--jobs`` workers)."""
    parser = argparse.ArgumentParser(prog="python -m defuser.devtools.build_solutions",
                                     description="Solve every configuration and ship it.")
    parser.add_argument("--output", type=Path, default=Path(DATA_PATH), help="file to write")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    data = build(args.jobs)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.output.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(args.output)
    print(f"wrote {args.output} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
