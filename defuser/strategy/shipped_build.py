"""Building the files that :mod:`defuser.strategy.shipped` reads.

Contract: :func:`solve_all` solves every configuration (:data:`edgework.configs.CONFIGS`,
for the player and the oracle) from scratch with the DP; :func:`build` returns the
solutions file's bytes for them (with every N's phase graph, explored) and
:func:`build_later` the later-cycle file's (numpy's evaluation of each player
configuration's recurring phases from its cycle-start values), both in the layout
:mod:`defuser.strategy.shipped` describes; the same model gives the same bytes. Nothing
reads this module at run time: it is the build step, run after any change to the model
(about two minutes on two cores)::

    python -m defuser.devtools.build_solutions [--output FILE] [--later-output FILE] [--jobs N]

(``--later-only`` rewrites only the later-cycle file, from the solutions file's fixed
points: :func:`shipped_starts`, a few seconds.)
"""

from __future__ import annotations

import concurrent.futures
import json
import zlib
from typing import TYPE_CHECKING, Any

from defuser.errors import DefuserError
from defuser.strategy.dp.graph import MODEL_VERSION, explore_graph, graph_to_data
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.solution import later_room_values
from defuser.strategy.dp.states import HAND_COUNT
from defuser.strategy.openings import exact_expected_clicks
from defuser.strategy.shipped import (
    DATA_PATH,
    FORMAT_VERSION,
    HEADER_DIGITS,
    MAGIC,
    entry_name,
    graph_name,
    later_name,
    load,
    pack,
)
from edgework import INTERVALS, Ruleset, TableLetter
from edgework.configs import CONFIGS

if TYPE_CHECKING:
    from pathlib import PurePath


def _solve_one(job: tuple[TableLetter, int, int, bool]) -> tuple[str, list[float], float]:
    table, digit, interval, oracle = job
    rules = Ruleset(table, digit)
    sol = solve(rules, interval, oracle=oracle)
    return (
        entry_name(table, digit, interval, oracle),
        sol.cycle_value,
        exact_expected_clicks(sol, oracle=oracle),
    )


def solve_all(jobs: int = 2) -> list[tuple[str, list[float], float]]:
    """Every configuration (player, then oracle) solved from scratch with the DP: its
    entry name, cycle-start values and exact expected clicks."""
    work = [
        (c.table, c.last_digit, c.interval, oracle) for oracle in (False, True) for c in CONFIGS
    ]
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(_solve_one, work, chunksize=4))


def build(results: list[tuple[str, list[float], float]]) -> bytes:
    """The solutions file's bytes for these solved configurations (:func:`solve_all`)."""
    named: list[tuple[str, bytes, dict[str, Any]]] = [
        (name, pack(values), {"expected_clicks": expected}) for name, values, expected in results
    ]
    for oracle in (False, True):
        for interval in INTERVALS:
            data = graph_to_data(explore_graph(interval, oracle=oracle))
            text = json.dumps(data, separators=(",", ":")).encode("ascii")
            named.append((graph_name(interval, oracle), text, {}))
    return _file(named)


def build_later(starts: dict[str, list[float]]) -> bytes:
    """The later-cycle file's bytes: per player configuration, the values
    :func:`~defuser.strategy.dp.solution.later_room_values` gives from its cycle-start values
    (``starts``, by the configuration's entry name), with their CRC-32."""
    named: list[tuple[str, bytes, dict[str, Any]]] = []
    for c in CONFIGS:
        start = starts[entry_name(c.table, c.last_digit, c.interval, False)]
        room = later_room_values(c.rules, c.interval, start)
        extra = {"start_crc32": zlib.crc32(pack(start))}
        named.append((later_name(c.table, c.last_digit, c.interval), pack(room), extra))
    return _file(named)


def _file(named: list[tuple[str, bytes, dict[str, Any]]]) -> bytes:
    """A file in the layout :mod:`defuser.strategy.shipped` reads: each (name, block,
    extra header fields) compressed, listed in the header."""
    entries: dict[str, dict[str, Any]] = {}
    blocks: list[bytes] = []
    offset = 0
    for name, raw, extra in named:
        block = zlib.compress(raw, 9)
        entries[name] = {"offset": offset, "length": len(block), "crc32": zlib.crc32(raw), **extra}
        blocks.append(block)
        offset += len(block)
    header = json.dumps(
        {"format": FORMAT_VERSION, "model": MODEL_VERSION, "entries": entries},
        separators=(",", ":"),
        sort_keys=True,
    ).encode("ascii")
    return MAGIC + f"{len(header):0{HEADER_DIGITS}d}\n".encode("ascii") + header + b"".join(
        blocks
    )


def shipped_starts(path: str | PurePath = DATA_PATH) -> dict[str, list[float]]:
    """The player's cycle-start values stored in the solutions file ``path``, by entry
    name (what a later-cycle file is built from when nothing is solved anew); raises
    :class:`~defuser.errors.DefuserError` (bad input: the file) naming the first
    configuration the file has no usable solution for."""
    starts: dict[str, list[float]] = {}
    for c in CONFIGS:
        stored = load(c.rules, c.interval, model=MODEL_VERSION, size=HAND_COUNT, path=path)
        if stored is None:
            raise DefuserError(f"{path}: no usable solution for {c}")
        starts[entry_name(c.table, c.last_digit, c.interval, False)] = stored.cycle_value
    return starts
