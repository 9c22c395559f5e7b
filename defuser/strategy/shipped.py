"""Reading the solutions shipped with the package: every configuration's cycle fixed
point, every N's phase graph, and the player's later-cycle values.

Contract: :func:`load` returns the stored cycle-start values and exact expected clicks
of one (table, last digit, N, player or oracle), and :func:`load_graph` the stored
phase graph of one (N, player or oracle); each returns ``None`` when the shipped file is
missing, was written for another model version (the caller says which one it has) or
file format, or the entry fails its checksum (CRC-32 of the block, on top of zlib's own
check); they never raise. Callers then fall back to the DP, which stays the source of
truth: these are its own results, written by :mod:`defuser.strategy.shipped_build`,
and a stored fixed point gives exactly the values a fresh solve gives (to the DP's
1e-11 tolerance), a stored graph exactly the graph
:func:`~defuser.strategy.dp.graph.explore_graph` finds. This module reads the file format
only: it imports nothing from the DP (which reads its graphs through it).

File layout (``data/solutions.bin``): a magic line, the length of a JSON header as
eight ASCII digits and a newline, the header, then one zlib-compressed block per entry.
A configuration's block (entry name such as ``player-B4-n12``) holds its 969
cycle-start values as little-endian IEEE doubles (``inf`` for a hand that can never be
solved); a graph's block (``graph-player-n12``) holds it as compact JSON
(:func:`~defuser.strategy.dp.graph.graph_to_data`). The header maps each entry name to its
offset (from the end of the header), length and the CRC-32 of the uncompressed block,
plus, for a configuration, the exact expected clicks. Only the header and the requested
blocks are read, so a process pays for the one configuration it plays.

A second file in the same layout (``data/later.bin``, :func:`load_later`) holds, per
player configuration (entry ``later-B4-n12``), the values of every recurring phase's
states whose hand has room for a draw, as numpy's evaluation from the stored
cycle-start values gives them (:func:`~defuser.strategy.dp.solution.later_room_values`; the
entry records the CRC-32 of those start values), so that a later cycle is answered
without numpy. It is read only when a game reaches a later cycle.

Regenerate both (about two minutes on two cores) after any change to the model::

    python -m defuser.devtools.build_solutions
"""

from __future__ import annotations

import array
import functools
import json
import os
import sys
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from edgework import Ruleset

if TYPE_CHECKING:
    from pathlib import PurePath

#: Where the file lives inside the package (a string: a process that reads its
#: solution has no other use for pathlib).
DATA_PATH: Final = os.path.join(
    os.path.dirname(os.path.realpath(__file__)), "data", "solutions.bin"
)
#: The values shipped for a later cycle (:func:`load_later`), in a file of its own so
#: that a first answer reads no more than it needs.
LATER_PATH: Final = os.path.join(os.path.dirname(DATA_PATH), "later.bin")
MAGIC: Final = b"exploding-mittens solutions\n"
#: Bumped when the file layout changes (the model has
#: :data:`~defuser.strategy.dp.graph.MODEL_VERSION`).
FORMAT_VERSION: Final = 2
#: How many ASCII digits give the header's length.
HEADER_DIGITS: Final = 8


@dataclass(frozen=True, slots=True)
class Stored:
    """One configuration's stored results."""

    cycle_value: list[float]
    expected_clicks: float


def entry_name(table: str, last_digit: int, interval: int, oracle: bool) -> str:
    """The header key of one configuration: ``player-B4-n12`` or ``oracle-B4-n12``."""
    who = "oracle" if oracle else "player"
    return f"{who}-{table}{last_digit}-n{interval}"


def pack(values: list[float]) -> bytes:
    """Doubles as the file stores them: little-endian IEEE, 8 bytes each."""
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
def read_header(path: str | PurePath) -> tuple[dict[str, Any], int] | None:
    """The parsed header of the solutions file ``path`` (its ``entries`` name each
    block's offset, length and CRC-32) and the offset where its blocks start; ``None``
    for a file that is not one. Read once per path (``read_header.cache_clear()``
    forgets). The model version the file was written for is checked by
    :func:`_read_block`."""
    try:
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                return None
            size = int(f.read(HEADER_DIGITS + 1))
            header = json.loads(f.read(size))
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(header, dict)
        or header.get("format") != FORMAT_VERSION
        or not isinstance(header.get("entries"), dict)
    ):
        return None
    return header, len(MAGIC) + HEADER_DIGITS + 1 + size


def _read_block(
    path: str | PurePath, name: str, model: int
) -> tuple[bytes, dict[str, Any]] | None:
    """The uncompressed block of one entry and its header record, checked (the file
    written for model version ``model``); or ``None``."""
    found = read_header(path)
    if found is None:
        return None
    header, base = found
    if header.get("model") != model:
        return None
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
    rules: Ruleset,
    interval: int,
    *,
    model: int,
    size: int,
    oracle: bool = False,
    path: str | PurePath = DATA_PATH,
) -> Stored | None:
    """One configuration's stored fixed point (``size`` values) and expectation, written
    for model version ``model`` and checked; ``None`` if unusable."""
    name = entry_name(rules.table, rules.last_digit, interval, oracle)
    found = _read_block(path, name, model)
    if found is None:
        return None
    raw, entry = found
    expected = entry.get("expected_clicks")
    if len(raw) != 8 * size or not isinstance(expected, float):
        return None
    return Stored(_unpack(raw), expected)


def graph_name(interval: int, oracle: bool) -> str:
    """The header key of one phase graph: ``graph-player-n12`` or ``graph-oracle-n12``."""
    return f"graph-{'oracle' if oracle else 'player'}-n{interval}"


def load_graph(
    interval: int, *, model: int, oracle: bool = False,
    path: str | PurePath = DATA_PATH,
) -> Any:
    """One N's stored phase graph as :func:`~defuser.strategy.dp.graph.graph_to_data` wrote it
    for model version ``model`` (checked by its CRC-32), or ``None`` if unusable."""
    found = _read_block(path, graph_name(interval, oracle), model)
    if found is None:
        return None
    try:
        return json.loads(found[0])
    except (ValueError, RecursionError):
        return None



def later_name(table: str, last_digit: int, interval: int) -> str:
    """The header key of one configuration's later-cycle values: ``later-B4-n12``."""
    return f"later-{table}{last_digit}-n{interval}"


def load_later(
    rules: Ruleset,
    interval: int,
    *,
    model: int,
    size: int,
    start: list[float],
    oracle: bool = False,
    path: str | PurePath = LATER_PATH,
) -> list[float] | None:
    """The values of a later cycle's states with room in the hand (``size`` of them: per
    recurring phase in increasing order, its hands of 0-2 cards), as numpy's evaluation
    from the cycle-start values ``start`` gives them; ``None`` when they were computed
    from other start values (their CRC-32 is in the entry), for another model version,
    for the oracle (only the player's are shipped), or fail their checksum."""
    if oracle:
        return None
    found = _read_block(path, later_name(rules.table, rules.last_digit, interval), model)
    if found is None:
        return None
    raw, entry = found
    if len(raw) != 8 * size or entry.get("start_crc32") != zlib.crc32(pack(start)):
        return None
    return _unpack(raw)
