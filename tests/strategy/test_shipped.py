"""The solutions shipped with the package: complete, intact, equal to a fresh DP solve,
and ignored (the DP takes over) when they do not fit the model."""

from __future__ import annotations

import itertools
import math
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from defuser.strategy import shipped, solutions
from defuser.strategy.belief import CycleBelief
from defuser.strategy.cache import DiskCache
from defuser.strategy.dp.graph import (
    MODEL_VERSION,
    build_graph,
    explore_graph,
    graph_from_data,
    graph_to_data,
)
from defuser.strategy.dp.iteration import solve
from defuser.strategy.dp.solution import later_room_values
from defuser.strategy.dp.states import HAND_COUNT, ROOM_STATES, state_index
from defuser.strategy.openings import exact_expected_clicks
from defuser.strategy.solutions import SolutionStore
from edgework import INTERVALS, Ruleset, TableLetter
from edgework.configs import CONFIGS


def load(rules: Ruleset, interval: int, **options: Any) -> shipped.Stored | None:
    """:func:`shipped.load` for the model this DP solves."""
    return shipped.load(
        rules, interval, model=MODEL_VERSION, size=HAND_COUNT, **options
    )


def load_graph(interval: int, **options: Any) -> Any:
    """:func:`shipped.load_graph` for the model this DP solves."""
    return shipped.load_graph(interval, model=MODEL_VERSION, **options)


#: Configurations re-solved from scratch: every table, both ends of N, player and oracle.
SAMPLE = (
    (TableLetter.A, 0, 9, False),
    (TableLetter.B, 4, 13, False),
    (TableLetter.C, 7, 11, False),
    (TableLetter.D, 9, 12, False),
    (TableLetter.B, 1, 10, True),
    (TableLetter.D, 3, 9, True),
)


def test_every_configuration_is_shipped_and_passes_its_checksum() -> None:
    for oracle in (False, True):
        for config in CONFIGS:
            stored = load(config.rules, config.interval, oracle=oracle)
            assert stored is not None, (config, oracle)
            assert len(stored.cycle_value) == HAND_COUNT
            assert all(v >= 1.0 for v in stored.cycle_value)
            assert math.isfinite(stored.expected_clicks) and stored.expected_clicks > 1.0


def test_the_file_is_exactly_what_its_header_lists() -> None:
    raw = Path(shipped.DATA_PATH).read_bytes()
    found = shipped.read_header(shipped.DATA_PATH)
    assert found is not None
    header, base = found
    entries = header["entries"]
    graphs = {shipped.graph_name(n, oracle) for n in INTERVALS for oracle in (False, True)}
    assert len(entries) == 2 * len(CONFIGS) + len(graphs)
    assert graphs <= set(entries)
    ends = sorted((e["offset"], e["offset"] + e["length"]) for e in entries.values())
    assert ends[0][0] == 0 and ends[-1][1] == len(raw) - base  # no gap, nothing extra
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ends))


@pytest.mark.parametrize("oracle", [False, True], ids=["player", "oracle"])
def test_every_shipped_graph_is_the_explored_one(oracle: bool) -> None:
    """Each N's stored phase graph equals a fresh exploration, field by field."""
    for n in INTERVALS:
        data = load_graph(n, oracle=oracle)
        assert data is not None, n
        stored = graph_from_data(data, n, oracle=oracle)
        explored = explore_graph(n, oracle=oracle)
        assert stored.phases == explored.phases
        assert stored.index == explored.index
        assert stored.order == explored.order
        assert stored.cycle_starts == explored.cycle_starts
        assert stored.cycle_mix == explored.cycle_mix
        assert stored.refine is explored.refine
        assert build_graph(n, oracle=oracle).phases == explored.phases


def test_a_damaged_graph_entry_is_explored_instead(tmp_path: Path) -> None:
    """A graph block that fails its checksum is not used (None), and the DP explores."""
    raw = bytearray(Path(shipped.DATA_PATH).read_bytes())
    found = shipped.read_header(shipped.DATA_PATH)
    assert found is not None
    header, base = found
    entry = header["entries"][shipped.graph_name(12, False)]
    raw[base + entry["offset"] + entry["length"] // 2] ^= 0xFF
    damaged = tmp_path / "solutions.bin"
    damaged.write_bytes(bytes(raw))
    assert load_graph(12, path=damaged) is None
    assert load_graph(11, path=damaged) is not None
    assert graph_to_data(explore_graph(12)) == load_graph(12)


@pytest.mark.parametrize(("table", "digit", "interval", "oracle"), SAMPLE)
def test_a_fresh_solve_gives_the_shipped_values(
    table: TableLetter, digit: int, interval: int, oracle: bool
) -> None:
    rules = Ruleset(table, digit)
    stored = load(rules, interval, oracle=oracle)
    assert stored is not None
    fresh = solve(rules, interval, oracle=oracle)
    assert fresh.cycle_value == pytest.approx(stored.cycle_value, rel=0, abs=1e-9)
    assert exact_expected_clicks(fresh, oracle=oracle) == pytest.approx(
        stored.expected_clicks, rel=1e-12
    )


def test_a_solution_from_shipped_values_matches_a_solved_one() -> None:
    rules, n = Ruleset(TableLetter.C, 5), 10
    store = SolutionStore(None)
    loaded = store.solution(rules, n)
    assert loaded.sweeps == 0  # nothing was solved
    solved = solve(rules, n)
    solved.complete()
    rng = random.Random(3)
    start = solved.graph.find(CycleBelief.initial(n))
    phases = [start, *solved.graph.cycle_starts, *rng.sample(range(len(solved.graph.phases)), 8)]
    for phase in phases:
        for _ in range(30):
            size = rng.randint(0, 3)
            s = state_index(rng.randrange(16), [rng.randrange(16) for _ in range(size)])
            want = solved.value(phase, s)
            got = loaded.value(phase, s)
            assert got == want or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)


def test_another_model_version_falls_back_to_the_dp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, n = Ruleset(TableLetter.A, 3), 9
    stored = load(rules, n)
    assert stored is not None
    assert shipped.load(rules, n, model=MODEL_VERSION + 1, size=HAND_COUNT) is None
    assert shipped.load_graph(n, model=MODEL_VERSION + 1) is None
    monkeypatch.setattr(solutions, "MODEL_VERSION", MODEL_VERSION + 1)
    shipped.read_header.cache_clear()
    try:
        store = SolutionStore(DiskCache(tmp_path))
        sol = store.solution(rules, n)
        assert sol.sweeps > 1  # solved from scratch
        assert sol.cycle_value == pytest.approx(stored.cycle_value, abs=1e-9)
        assert store.expected_clicks(rules, n) == pytest.approx(stored.expected_clicks)
    finally:
        shipped.read_header.cache_clear()


def test_a_damaged_file_is_not_used(tmp_path: Path) -> None:
    rules, n = Ruleset(TableLetter.B, 4), 12
    raw = bytearray(Path(shipped.DATA_PATH).read_bytes())
    copy = tmp_path / "solutions.bin"
    copy.write_bytes(bytes(raw))
    assert load(rules, n, path=copy) is not None
    found = shipped.read_header(copy)
    assert found is not None
    header, base = found
    entry = header["entries"][shipped.entry_name("B", 4, 12, False)]
    damaged = tmp_path / "damaged.bin"
    raw[base + entry["offset"] + entry["length"] // 2] ^= 0xFF
    damaged.write_bytes(bytes(raw))
    assert load(rules, n, path=damaged) is None
    # Intact blocks, but a checksum that does not match the values: refused too.
    label = f'"crc32":{entry["crc32"]},'.encode("ascii")
    wrong = f'"crc32":{entry["crc32"] ^ 1},'.encode("ascii")
    relabelled = tmp_path / "relabelled.bin"
    data = Path(shipped.DATA_PATH).read_bytes()
    assert data.count(label) == 1 and len(wrong) == len(label)
    relabelled.write_bytes(data.replace(label, wrong))
    assert load(rules, n, path=relabelled) is None
    truncated = tmp_path / "truncated.bin"
    truncated.write_bytes(bytes(raw[: base + entry["offset"]]))
    assert load(rules, n, path=truncated) is None
    for junk in (b"", b"not ours", shipped.MAGIC + b"00000005\n[1,2]"):
        (tmp_path / "junk.bin").write_bytes(junk)
        shipped.read_header.cache_clear()
        assert load(rules, n, path=tmp_path / "junk.bin") is None


def _later(rules: Ruleset, interval: int, start: list[float], **options: Any) -> list[float] | None:
    """:func:`shipped.load_later` for the model this DP solves and its phase graph."""
    graph = build_graph(interval)
    size = sum(ph.recurrent for ph in graph.phases) * ROOM_STATES
    return shipped.load_later(
        rules, interval, model=MODEL_VERSION, size=size, start=start, **options
    )


def test_every_player_configuration_ships_its_later_cycle_for_its_start_values() -> None:
    found = shipped.read_header(shipped.LATER_PATH)
    assert found is not None
    entries = found[0]["entries"]
    assert set(entries) == {
        shipped.later_name(c.table, c.last_digit, c.interval) for c in CONFIGS
    }
    for config in CONFIGS:  # each computed from the shipped start values
        stored = load(config.rules, config.interval)
        assert stored is not None
        entry = entries[shipped.later_name(config.table, config.last_digit, config.interval)]
        assert entry["start_crc32"] == zlib.crc32(shipped.pack(stored.cycle_value)), config
    for config in CONFIGS[::37]:  # and intact (each N, every table)
        stored = load(config.rules, config.interval)
        assert stored is not None
        room = _later(config.rules, config.interval, stored.cycle_value)
        assert room is not None and all(v >= 1.0 for v in room), config
    rules, n = Ruleset(TableLetter.C, 7), 11
    stored = load(rules, n)
    assert stored is not None
    assert _later(rules, n, stored.cycle_value, oracle=True) is None  # the player's only
    other = list(stored.cycle_value)
    other[5] = math.nextafter(other[5], math.inf)
    assert _later(rules, n, other) is None  # computed from other start values


def test_the_later_cycle_file_is_what_its_builder_writes() -> None:
    raw = Path(shipped.LATER_PATH).read_bytes()
    found = shipped.read_header(shipped.LATER_PATH)
    assert found is not None
    header, base = found
    ends = sorted((e["offset"], e["offset"] + e["length"]) for e in header["entries"].values())
    assert ends[0][0] == 0 and ends[-1][1] == len(raw) - base  # no gap, nothing extra
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ends))
    rules, n = Ruleset(TableLetter.D, 9), 12
    stored = load(rules, n)
    assert stored is not None
    assert _later(rules, n, stored.cycle_value) == later_room_values(
        rules, n, stored.cycle_value
    )


def test_a_damaged_later_cycle_file_is_not_used(tmp_path: Path) -> None:
    rules, n = Ruleset(TableLetter.B, 4), 12
    stored = load(rules, n)
    assert stored is not None
    raw = bytearray(Path(shipped.LATER_PATH).read_bytes())
    found = shipped.read_header(shipped.LATER_PATH)
    assert found is not None
    header, base = found
    entry = header["entries"][shipped.later_name("B", 4, 12)]
    raw[base + entry["offset"] + entry["length"] // 2] ^= 0xFF
    damaged = tmp_path / "later.bin"
    damaged.write_bytes(bytes(raw))
    assert _later(rules, n, stored.cycle_value, path=damaged) is None
    assert _later(rules, n, stored.cycle_value, path=tmp_path / "missing.bin") is None
