"""Random vanilla edgework: valid in strict mode, seeded, covering every interval."""

from __future__ import annotations

import random
from collections import Counter

from defuser.engine.generate import (
    SERIAL_LETTERS,
    WIDGETS,
    random_batteries,
    random_edgework,
    random_serial,
)
from edgework import Edgework, SerialNumber


def test_serials_have_the_vanilla_shape() -> None:
    rng = random.Random(11)
    tables: Counter[str] = Counter()
    for _ in range(3000):
        serial = random_serial(rng)
        text = serial.text
        assert SerialNumber.parse(text, strict=True) == serial
        assert "O" not in text and "Y" not in text
        assert text[2].isdigit() and text[5].isdigit()
        assert text[3] in SERIAL_LETTERS and text[4] in SERIAL_LETTERS
        tables[serial.table] += 1
    assert set(tables) == set("ABCD")


def test_batteries_come_in_holders_and_cover_every_interval() -> None:
    rng = random.Random(12)
    intervals: Counter[int] = Counter()
    for _ in range(3000):
        batteries = random_batteries(rng)
        assert batteries.holders is not None
        assert 0 <= batteries.holders <= WIDGETS
        assert batteries.holders <= batteries.count <= 2 * batteries.holders
        intervals[batteries.interval] += 1
    assert set(intervals) == set(range(9, 14))


def test_edgework_round_trips_through_the_notation() -> None:
    rng = random.Random(13)
    for _ in range(500):
        edge = random_edgework(rng)
        assert edge.batteries is not None and edge.batteries.holders is not None
        widgets = edge.batteries.holders + len(edge.indicators) + len(edge.port_plates)
        assert widgets == WIDGETS
        assert len({i.label for i in edge.indicators}) == len(edge.indicators)
        assert Edgework.parse(str(edge)) == edge


def test_same_seed_same_edgework() -> None:
    assert random_edgework(random.Random(5)) == random_edgework(random.Random(5))
