"""Building the solutions file that :mod:`defuser.strategy.shipped` reads.

Contract: :func:`build` solves every configuration (:data:`edgework.configs.CONFIGS`, for the
player and the oracle) from scratch with the DP, explores every N's phase graph, and
returns the file's bytes in the layout :mod:`defuser.strategy.shipped` describes; the
same model gives the same bytes. Nothing reads this module at run time: it is the
build step, run after any change to the model (about two minutes on two cores)::

    python -m defuser.devtools.build_solutions [--output FILE] [--jobs N]
"""

from __future__ import annotations

import array
import concurrent.futures
import json
import sys
import zlib
from typing import Any

from defuser.strategy.dp import MODEL_VERSION, explore_graph, graph_to_data, solve
from defuser.strategy.openings import exact_expected_clicks
from defuser.strategy.shipped import (
    FORMAT_VERSION,
    HEADER_DIGITS,
    MAGIC,
    entry_name,
    graph_name,
)
from edgework import INTERVALS, Ruleset
from edgework.configs import CONFIGS


def _pack(values: list[float]) -> bytes:
    data = array.array("d", values)
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
        data.byteswap()
    return data.tobytes()


def _solve_one(job: tuple[str, int, int, bool]) -> tuple[str, list[float], float]:
    table, digit, interval, oracle = job
    rules = Ruleset(table, digit)
    sol = solve(rules, interval, oracle=oracle)
    return (
        entry_name(table, digit, interval, oracle),
        sol.cycle_value,
        exact_expected_clicks(sol, oracle=oracle),
    )


def build(jobs: int = 2) -> bytes:
    """Solve every configuration from scratch with the DP and return the file's bytes."""
    work = [
        (c.table, c.last_digit, c.interval, oracle) for oracle in (False, True) for c in CONFIGS
    ]
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(_solve_one, work, chunksize=4))
    entries: dict[str, dict[str, Any]] = {}
    blocks: list[bytes] = []
    offset = 0
    named: list[tuple[str, bytes, dict[str, Any]]] = [
        (name, _pack(values), {"expected_clicks": expected}) for name, values, expected in results
    ]
    for oracle in (False, True):
        for interval in INTERVALS:
            data = graph_to_data(explore_graph(interval, oracle=oracle))
            text = json.dumps(data, separators=(",", ":")).encode("ascii")
            named.append((graph_name(interval, oracle), text, {}))
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

