"""``python -m defuser.devtools.build_solutions [--output FILE] [--later-output FILE]
[--jobs N] [--later-only]``.

Contract: solves every configuration with :func:`defuser.strategy.shipped_build.solve_all`
and writes the shipped solutions file (:func:`~defuser.strategy.shipped_build.build`)
and the later-cycle file (:func:`~defuser.strategy.shipped_build.build_later`), by
default the package's own, each through a temporary file so that a failed run leaves
the old file whole. ``--later-only`` solves nothing: it writes the later-cycle file from
the fixed points in the solutions file as it is.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from defuser.strategy.shipped import DATA_PATH, LATER_PATH
from defuser.strategy.shipped_build import build, build_later, shipped_starts, solve_all


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    print(f"wrote {path} ({len(data):,} bytes)")


def main(argv: Sequence[str] | None = None) -> None:
    """Write the shipped files (``--output`` and ``--later-output`` elsewhere, ``--jobs``
    workers; ``--later-only``: the later-cycle file alone)."""
    parser = argparse.ArgumentParser(prog="python -m defuser.devtools.build_solutions",
                                     description="Solve every configuration and ship it.")
    parser.add_argument("--output", type=Path, default=Path(DATA_PATH), help="file to write")
    parser.add_argument("--later-output", type=Path, default=Path(LATER_PATH),
                        help="the later-cycle values' file to write")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--later-only", action="store_true",
                        help="write only the later-cycle file, from the solutions file's "
                        "fixed points")
    args = parser.parse_args(argv)
    if args.later_only:
        if not args.output.is_file():
            parser.error(f"{args.output}: no such solutions file; build it without --later-only")
        try:
            starts = shipped_starts(args.output)
        except ValueError as error:
            parser.error(f"{error}; build it without --later-only")
    else:
        results = solve_all(args.jobs)
        _write(args.output, build(results))
        starts = {name: values for name, values, _ in results}
    _write(args.later_output, build_later(starts))


if __name__ == "__main__":
    main()
