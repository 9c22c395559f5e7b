"""The ``edge`` drill: reading the bomb's widgets, not numbers.

Contract: a question shows a whole random free-play edge as its widgets, in a random
order, the way a defuser sees them while turning the bomb: battery holders with their
batteries (``[AA AA]`` is an AA holder, 2 batteries; ``[D]`` a D holder, 1 battery),
indicators (``[* FRK]`` lit, ``[  CAR]`` unlit), port plates and the serial-number
sticker. It asks, per skill (:class:`~defuser.trainer.skills.EdgeSkill`), for the
battery count, for N (the mitten interval, from the count), or for the table the serial
selects. Expected answers come from :mod:`edgework`.
"""

from __future__ import annotations

import random

from defuser.engine.generate import random_edgework
from defuser.trainer.answers import Answer, CountAnswer, TableAnswer
from defuser.trainer.facts import WidgetFacts
from defuser.trainer.lookups import table_reason
from defuser.trainer.model import Question
from defuser.trainer.skills import EdgeRead, EdgeSkill, Kind
from edgework import Batteries, Edgework


def holders(batteries: Batteries) -> tuple[int, int]:
    """The AA and D holders that carry ``batteries`` (an AA holder has 2, a D holder 1)."""
    count = batteries.holders or 0
    aa = batteries.count - count
    return aa, count - aa


def widgets(edge: Edgework, rng: random.Random) -> list[str]:
    """Every widget of the edge as drawn on a bomb, shuffled."""
    assert edge.serial is not None and edge.batteries is not None
    aa, d = holders(edge.batteries)
    drawn = ["[AA AA]"] * aa + ["[D]"] * d
    drawn += [f"[{'*' if i.lit else ' '} {i.label}]" for i in edge.indicators]
    drawn += [f"[{' '.join(p.ports) or 'empty plate'}]" for p in edge.port_plates]
    drawn.append(f"[SERIAL# {edge.serial.text}]")
    rng.shuffle(drawn)
    return drawn


def battery_reason(batteries: Batteries) -> str:
    """How the holders add up: ``2 AA holders x 2 + 1 D holder x 1 = 5 batteries``."""
    aa, d = holders(batteries)
    if not aa and not d:
        return "no battery holders: 0 batteries"
    parts = []
    if aa:
        parts.append(f"{aa} AA holder{'s' if aa != 1 else ''} x 2")
    if d:
        parts.append(f"{d} D holder{'s' if d != 1 else ''} x 1")
    return f"{' + '.join(parts)} = {batteries.count} batter{'y' if batteries.count == 1 else 'ies'}"


_ASKS = {
    EdgeRead.BATTERIES: "How many batteries?",
    EdgeRead.INTERVAL: "What is N, the deals from one mitten to the next?",
    EdgeRead.TABLE: "Which table, A-D?",
}


def edge_question(rng: random.Random, skill: EdgeSkill) -> Question:
    """A drawn edge -> the battery count, N, or the serial's table."""
    edge = random_edgework(rng)
    assert edge.serial is not None and edge.batteries is not None
    batteries = edge.batteries
    if skill.read is EdgeRead.BATTERIES:
        expected: Answer = CountAnswer(batteries.count)
        reason = battery_reason(batteries)
    elif skill.read is EdgeRead.INTERVAL:
        expected = CountAnswer(batteries.interval)
        reason = (
            f"{battery_reason(batteries)}; N = {batteries.count} mod 5 + 9 = "
            f"{batteries.interval}"
        )
    else:
        expected, reason = TableAnswer(edge.serial.table), table_reason(edge.serial)
    return Question(
        kind=Kind.EDGE,
        skill=skill,
        text=f"The bomb's edge: {' '.join(widgets(edge, rng))}. {_ASKS[skill.read]}",
        facts=WidgetFacts(edge),
        answer=expected,
        reason=reason,
    )
