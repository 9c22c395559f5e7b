"""Game logs that stress the log reader's bounds, for docs/benchmarks.md and the tests.

Run as a script to write one (``python tests/gamelog_stress.py KIND [--out FILE]``):

- ``many-bombs``: one round that generates 3,000 bombs, then 3,000 module instances
  (``--edgework``: each bomb with a serial number and batteries, each module with its
  whole start-up; else a generator line per bomb and a table line per module);
- ``long-module``: one module of a log without edgework, with 100,000 action lines;
- ``endless-ids``: module instances with ever new ids, each a start-up and a few clicks,
  without end (``--megabytes`` bounds it; a log growing while it is followed);
- ``follow-memory``: feeds the endless log to a ``--follow`` session (the
  :class:`~defuser.apps.follow.Follower`) and prints, after each of ``--marks`` MiB of
  input, the process's largest resident memory so far and what the bounds left out.

Each kind is also a generator of lines (:func:`many_bombs`, :func:`long_module`,
:func:`endless_ids`) for tests that assert the reader's bounds.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections.abc import Iterator
from typing import TextIO

from defuser.engine import modlog
from defuser.engine.generate import random_serial
from edgework import Card, Ruleset, SerialNumber, TableLetter


def _start_up(serial: SerialNumber, rng: random.Random) -> list[str]:
    """A start-up the module may write on a bomb with this serial number."""
    rules = Ruleset(serial.table, serial.last_digit)
    while True:
        discard = rng.choice([c for c in Card if c is not rules.mitten])
        hand = [rng.choice(rules.plain_faces) for _ in range(3)]
        if any(rules.is_legal(card, discard) for card in hand):
            break
    return [
        modlog.table(rules.table),
        modlog.initial_discard(discard, rules.type_of(discard)),
        modlog.rule(rules.rule(discard)),
        *(modlog.hand_card(n, card, rules.type_of(card)) for n, card in enumerate(hand, 1)),
    ]


def many_bombs(bombs: int = 3_000, modules: int = 3_000, *, edgework: bool = False,
               seed: int = 0) -> Iterator[str]:
    """One round of ``bombs`` bombs, then ``modules`` module instances (see the module)."""
    rng = random.Random(seed)
    yield "Initialize engine version: 2017.4.22f1"
    yield "[State] Enter GameplayState"
    serials = []
    for n in range(bombs):
        yield f"[BombGenerator] Generating bomb with seed {n + 1}"
        if edgework:
            yield f"[BatteryWidget] Randomizing Battery Widget: {rng.choice((1, 2))}"
            serials.append(random_serial(rng))
    for serial in serials:
        yield f"[SerialNumber] Randomizing Serial Number: {serial.text}"
    for module_id in range(1, modules + 1):
        if edgework:
            for message in _start_up(rng.choice(serials), rng):
                yield modlog.line(module_id, message)
        else:
            yield modlog.line(module_id, modlog.table(TableLetter.A))


def long_module(actions: int = 100_000, *, seed: int = 0) -> Iterator[str]:
    """One module without edgework lines: its start-up, then ``actions`` clicks that
    each write one line (draws into the full hand and plays of an illegal card, which
    move nothing), as the module writes them."""
    rng = random.Random(seed)
    serial = random_serial(rng)
    opening = _start_up(serial, rng)
    yield from (modlog.line(1, m) for m in opening)
    rules = Ruleset(serial.table, serial.last_digit)
    discard = modlog.parse(opening[1])
    hand = [modlog.parse(m) for m in opening[3:]]
    assert isinstance(discard, modlog.OpeningDiscardMessage)
    illegal = [m.card for m in hand if isinstance(m, modlog.HandCardMessage)
               and not rules.is_legal(m.card, discard.card)]
    clicks = [modlog.hand_full_strike()] + [modlog.invalid_play(c) for c in illegal[:1]]
    for click in itertools.islice(itertools.cycle(clicks), actions):
        yield modlog.line(1, click)


def endless_ids(*, seed: int = 0, edgeworks: int = 4) -> Iterator[str]:
    """A log that never ends: bombs one after another, each with ten modules of new ids
    that start up and strike once (never solved, so never finished). The bombs' serial
    numbers come from a pool of ``edgeworks`` (a long session meets few of the 200
    table, digit and N combinations; each is solved once)."""
    rng = random.Random(seed)
    pool = [random_serial(rng) for _ in range(edgeworks)]
    yield "Initialize engine version: 2017.4.22f1"
    serial = pool[0]
    for module_id in itertools.count(1):
        if module_id % 10 == 1:
            serial = rng.choice(pool)
            yield "[State] Enter GameplayState"
            yield f"[BombGenerator] Generating bomb with seed {module_id}"
            yield "[BatteryWidget] Randomizing Battery Widget: 2"
            yield f"[SerialNumber] Randomizing Serial Number: {serial.text}"
        for message in _start_up(serial, rng):
            yield modlog.line(module_id, message)
        yield modlog.line(module_id, modlog.hand_full_strike())


def follow_memory(marks: list[int]) -> None:
    """Feed :func:`endless_ids` to a follower; after each mark (MiB of input), print the
    largest resident memory so far, the modules kept and the bounds' notices."""
    import resource
    import time

    from defuser.apps.follow.follower import Follower

    follower = Follower()
    size, start, pending = 0, time.monotonic(), sorted(marks)
    for line in endless_ids():
        follower.feed(line)
        size += len(line) + 1
        if size >= pending[0] * 2**20:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(f"{pending.pop(0)} MiB read: max RSS {rss} MiB, {len(follower.modules)} "
                  f"modules kept, {time.monotonic() - start:.0f} s; {follower.notices()}",
                  flush=True)
            if not pending:
                return


def main(argv: list[str] | None = None) -> int:
    """Write one stress log (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "kind", choices=("many-bombs", "long-module", "endless-ids", "follow-memory"))
    parser.add_argument("--out", help="file to write (default: standard output)")
    parser.add_argument("--edgework", action="store_true", help="many-bombs: full edgework")
    parser.add_argument("--count", type=int, help="bombs and modules, or actions")
    parser.add_argument("--megabytes", type=float, default=200.0, help="endless-ids: stop after")
    parser.add_argument("--marks", type=int, nargs="+", default=[1, 4, 8, 16],
                        help="follow-memory: MiB of input after which to report")
    args = parser.parse_args(argv)
    if args.kind == "follow-memory":
        follow_memory(args.marks)
        return 0
    if args.kind == "many-bombs":
        n = args.count or 3_000
        lines: Iterator[str] = many_bombs(n, n, edgework=args.edgework)
    elif args.kind == "long-module":
        lines = long_module(args.count or 100_000)
    else:
        lines = endless_ids()
    if args.out is None:
        _write(lines, sys.stdout, args.megabytes)
    else:
        with open(args.out, "w", encoding="utf-8", newline="\n") as out:
            _write(lines, out, args.megabytes)
    return 0


def _write(lines: Iterator[str], out: TextIO, megabytes: float) -> None:
    written, limit = 0, megabytes * 2**20
    for line in lines:
        out.write(line + "\n")
        written += len(line) + 1
        if written >= limit:
            break


if __name__ == "__main__":
    sys.exit(main())
