"""The solutions shipped with the package: every configuration's cycle fixed point,
and every N's phase graph.

Contract: :func:`load` returns the stored cycle-start values and exact expected clicks
of one (table, last digit, N, player or oracle), and :func:`load_graph` the stored
phase graph of one (N, player or oracle); each returns ``None`` when the shipped file is
missing, was written for another model version or file format, or the entry fails its
checksum (CRC-32 of the block, on top of zlib's own check); they never raise.
Callers then fall back to the DP, which stays the source of truth: these are its own
results, written by the command below, and a stored fixed point gives exactly the
values a fresh solve gives (to the DP's 1e-11 tolerance), a stored graph exactly the
graph :func:`~defuser.strategy.dp.explore_graph` finds.

File layout (``data/solutions.bin``): a magic line, the length of a JSON header as
eight ASCII digits and a newline, the header, then one zlib-compressed block per entry.
A configuration's block (entry name such as ``player-B4-n12``) holds its 969
cycle-start values as little-endian IEEE doubles (``inf`` for a hand that can never be
solved); a graph's block (``graph-player-n12``) holds it as compact JSON
(:func:`~defuser.strategy.dp.graph_to_data`). The header maps each entry name to its
offset (from the end of the header), length and the CRC-32 of the uncompressed block,
plus, for a configuration, the exact expected clicks. Only the header and the requested
blocks are read, so a process pays for the one configuration it plays.

Regenerate it (about two minutes on two cores) after any change to the model::

    python -m defuser.strategy.shipped
"""

from __future__ import annotations

import array
import functools
import json
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from defuser.strategy.dp import (
    HAND_COUNT,
    MODEL_VERSION,
    explore_graph,
    graph_to_data,
    solve,
)
from edgework import INTERVALS, Ruleset

#: Where the file lives inside the package.
DATA_FILE: Final = Path(__file__).resolve().parent / "data" / "solutions.bin"
MAGIC: Final = b"exploding-mittens solutions\n"
#: Bumped when the file layout changes (the model has :data:`~defuser.strategy.dp.MODEL_VERSION`).
FORMAT_VERSION: Final = 2
_HEADER_DIGITS: Final = 8


@dataclass(frozen=True, slots=True)
class Stored:
    """One configuration's stored results."""

    cycle_value: list[float]
    expected_clicks: float


def entry_name(table: str, last_digit: int, interval: int, oracle: bool) -> str:
    """The header key of one configuration: ``player-B4-n12`` or ``oracle-B4-n12``."""
    who = "oracle" if oracle else "player"
    return f"{who}-{table}{last_digit}-n{interval}"


def _pack(values: list[float]) -> bytes:
    data = array.array("d", values)
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
        data.byteswap()
    return data.tobytes()


def _unpack(raw: bytes) -> list[float]:
    data = array.array("d")
    data.frombytes(raw)
    if sys.byteorder == "big":  # pragma: no cover
        data.byteswap()
    return data.tolist()


@functools.cache
def _header(path: Path) -> tuple[dict[str, Any], int] | None:
    """The parsed header of ``path`` and where its blocks start, or ``None``."""
    try:
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                return None
            size = int(f.read(_HEADER_DIGITS + 1))
            header = json.loads(f.read(size))
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(header, dict)
        or header.get("format") != FORMAT_VERSION
        or header.get("model") != MODEL_VERSION
        or not isinstance(header.get("entries"), dict)
    ):
        return None
    return header, len(MAGIC) + _HEADER_DIGITS + 1 + size


def _read_block(path: Path, name: str) -> tuple[bytes, dict[str, Any]] | None:
    """The uncompressed block of one entry and its header record, checked; or ``None``."""
    found = _header(path)
    if found is None:
        return None
    header, base = found
    entry = header["entries"].get(name)
    try:
        offset, length, checksum = entry["offset"], entry["length"], entry["crc32"]
        with open(path, "rb") as f:
            f.seek(base + int(offset))
            raw = zlib.decompress(f.read(int(length)))
    except (OSError, ValueError, TypeError, KeyError, zlib.error):
        return None
    if zlib.crc32(raw) != checksum:
        return None
    return raw, entry


def load(
    rules: Ruleset, interval: int, *, oracle: bool = False, path: Path = DATA_FILE
) -> Stored | None:
    """One configuration's stored fixed point and expectation, checked; ``None`` if unusable."""
    found = _read_block(path, entry_name(rules.table, rules.last_digit, interval, oracle))
    if found is None:
        return None
    raw, entry = found
    expected = entry.get("expected_clicks")
    if len(raw) != 8 * HAND_COUNT or not isinstance(expected, float):
        return None
    return Stored(_unpack(raw), expected)


def graph_name(interval: int, oracle: bool) -> str:
    """The header key of one phase graph: ``graph-player-n12`` or ``graph-oracle-n12``."""
    return f"graph-{'oracle' if oracle else 'player'}-n{interval}"


def load_graph(interval: int, *, oracle: bool = False, path: Path = DATA_FILE) -> Any:
    """One N's stored phase graph as :func:`~defuser.strategy.dp.graph_to_data` wrote it
    (checked by its CRC-32), or ``None`` if unusable."""
    found = _read_block(path, graph_name(interval, oracle))
    if found is None:
        return None
    try:
        return json.loads(found[0])
    except (ValueError, RecursionError):
        return None


def _solve_one(job: tuple[str, int, int, bool]) -> tuple[str, list[float], float]:
    from defuser.strategy.openings import exact_expected_clicks

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
    from defuser.apps.benchmark import CONFIGS

    work = [
        (c.table, c.last_digit, c.interval, oracle) for oracle in (False, True) for c in CONFIGS
    ]
    import concurrent.futures

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
    return MAGIC + f"{len(header):0{_HEADER_DIGITS}d}\n".encode("ascii") + header + b"".join(
        blocks
    )


def main(argv: list[str] | None = None) -> None:
    """Write the shipped solutions file (``--output`` elsewhere, ``--jobs`` workers)."""
    import argparse

    parser = argparse.ArgumentParser(description="Solve every configuration and ship it.")
    parser.add_argument("--output", type=Path, default=DATA_FILE, help="file to write")
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
