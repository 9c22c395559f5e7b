"""``python -m hardware.propsim --pty``: the simulated prop on a pseudo-terminal.

Its own argparse command line (a test and demo tool beside ``mittens``): ``--pty``
serves a simulated prop on a pty and prints its path; ``--winning-script EDGEWORK``
prints the presses that win the game ``mittens prop`` plays with that edgework and
``--seed``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from edgework.errors import InputError
from hardware.propsim.pty import PTY_HELP, PtyTwin, serve
from hardware.propsim.registry import create
from hardware.propsim.script import parse_script, script_text
from hardware.propsim.twin import Faults
from hardware.protocol import VERSIONS


def winning_script_for(edgework: str, seed: int) -> str:
    """The presses that win the game ``mittens prop --edgework E --seed S`` plays.

    A demo aid: it peeks at the simulated deck (see :func:`hardware.bridge.winning_actions`).
    """
    from defuser.engine.simulator import Module
    from edgework import Edgework
    from hardware.bridge import button_for, winning_actions

    module = Module.from_edgework(Edgework.parse(edgework), seed)
    return script_text(button_for(action) for action in winning_actions(module))


def _serve(args: argparse.Namespace) -> int:
    """Make the simulated prop the options describe and serve it on a pty."""
    faults = Faults(
        corrupt=args.corrupt, drop=args.drop, seed=args.seed, boot_delay=args.boot_delay,
        reset_on_open=False,
    )
    sim = create(
        args.name,
        script=parse_script(args.script or ""),
        faults=faults,
        max_version=args.version,
    )
    twin = PtyTwin(sim, args.link)
    print(twin.plug(), flush=True)
    if args.link:
        print(f"(also at {args.link})", file=sys.stderr, flush=True)
    print(PTY_HELP, file=sys.stderr, flush=True)
    return serve(twin, read_stdin=not args.no_stdin)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hardware.propsim --pty``: the simulated prop on a pseudo-terminal."""
    parser = argparse.ArgumentParser(
        prog="python -m hardware.propsim",
        description="The simulated Exploding Mittens prop behind a pseudo-terminal.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--pty", action="store_true", help="serve on a pty, print its path")
    mode.add_argument(
        "--winning-script",
        metavar="EDGEWORK",
        help="print presses that win the game mittens prop plays with this edgework "
        "(e.g. '3B 2H // AB3CD4') and --seed, then exit",
    )
    parser.add_argument("--name", help="registry name (default sim-N)")
    parser.add_argument("--link", help="keep a symlink here pointing at the current pty")
    parser.add_argument("--script", help="button presses and faults, e.g. DECK,HAND1,PILE")
    parser.add_argument("--corrupt", type=float, default=0.0, help="chance a line is corrupted")
    parser.add_argument("--drop", type=float, default=0.0, help="chance an event is lost")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed for the fault chances (or the game)"
    )
    parser.add_argument("--boot-delay", type=int, default=0, help="lines lost at start-up")
    parser.add_argument(
        "--version",
        type=int,
        default=VERSIONS[-1],
        choices=VERSIONS,
        help="newest protocol version it speaks (1: a version-1 prop)",
    )
    parser.add_argument("--no-stdin", action="store_true", help="do not read commands")
    args = parser.parse_args(argv)
    try:
        if args.winning_script is not None:
            print(winning_script_for(args.winning_script, args.seed))
            return 0
        return _serve(args)
    except KeyboardInterrupt:
        return 0
    except InputError as exc:  # a misuse is not one: a bug keeps its traceback
        print(f"propsim: error: {exc}", file=sys.stderr)
        return 2




if __name__ == "__main__":
    sys.exit(main())
