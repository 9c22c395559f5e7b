"""defuser.trainer.edge: the ``edge`` drill draws the bomb's widgets and asks what they say."""

from __future__ import annotations

import random

import pytest

from defuser.trainer.answers import CountAnswer, TableAnswer
from defuser.trainer.edge import battery_reason, edge_question, holders, widgets
from defuser.trainer.skills import EdgeRead, EdgeSkill, Kind
from edgework import Batteries, Edgework, Indicator, PortPlate, SerialNumber


@pytest.mark.parametrize(("aa", "d"), [(0, 0), (1, 0), (0, 1), (2, 1), (3, 2)])
def test_the_holders_carry_the_batteries(aa: int, d: int) -> None:
    assert holders(Batteries.from_holders(aa, d)) == (aa, d)


def test_the_reason_adds_up_the_holders() -> None:
    assert battery_reason(Batteries.from_holders(2, 1)) == (
        "2 AA holders x 2 + 1 D holder x 1 = 5 batteries")
    assert battery_reason(Batteries.from_holders(0, 1)) == "1 D holder x 1 = 1 battery"
    assert battery_reason(Batteries.from_holders(1, 0)) == "1 AA holder x 2 = 2 batteries"
    assert battery_reason(Batteries(0, 0)) == "no battery holders: 0 batteries"


def test_every_widget_is_drawn_once_in_a_shuffled_order() -> None:
    edge = Edgework(SerialNumber.parse("AB3CD4"), Batteries.from_holders(1, 2),
                    indicators=(Indicator("FRK", lit=True), Indicator("CAR", lit=False)),
                    port_plates=(PortPlate(("DVI", "RJ45")), PortPlate(())))
    drawn = widgets(edge, random.Random(1))
    assert sorted(drawn) == sorted(["[AA AA]", "[D]", "[D]", "[* FRK]", "[  CAR]",
                                    "[DVI RJ45]", "[empty plate]", "[SERIAL# AB3CD4]"])
    orders = {tuple(widgets(edge, random.Random(seed))) for seed in range(5)}
    assert len(orders) > 1


@pytest.mark.parametrize("read", list(EdgeRead))
def test_a_question_asks_one_reading_of_the_drawn_edge(read: EdgeRead) -> None:
    question = edge_question(random.Random(3), EdgeSkill(read))
    edge = Edgework.parse(str(question.to_json()["edgework"]))
    assert edge.serial is not None and edge.batteries is not None
    assert question.kind is Kind.EDGE and question.skill == EdgeSkill(read)
    assert f"[SERIAL# {edge.serial.text}]" in question.text
    count = edge.batteries.count
    expected = {EdgeRead.BATTERIES: CountAnswer(count),
                EdgeRead.INTERVAL: CountAnswer(count % 5 + 9),
                EdgeRead.TABLE: TableAnswer(edge.serial.table)}[read]
    assert question.answer == expected
    if read is not EdgeRead.TABLE:
        assert question.reason.startswith(battery_reason(edge.batteries))
