"""Every skill the trainer schedules, and its name in words.

Skill identifiers are short strings stored with each answer:

- ``table:B``: telling Table B from a serial number;
- ``identify:B:RH``: one cell of Tables A-D (red heart under Table B);
- ``rule:Attack:3``: one cell of Table E (an Attack on the pile, last digit 3);
- ``legal:L``: applying rule L of Table F to a hand (and the discard exemption);
- ``decide:<play|discard|draw|defuse>``: a live decision whose best action is of that
  kind (``defuse`` is playing a Defuse: the solve or a free probe);
- ``cycle:known`` / ``cycle:unknown``: counting deals to the mitten once it has been
  seen, or the chance it is on top before it has.
"""

from __future__ import annotations

from typing import Final

from defuser.trainer.lookups import LOOKUP_SKILLS
from defuser.trainer.model import Kind
from edgework import RULE_TEXTS, Card

DECIDE_SKILLS: Final[tuple[str, ...]] = (
    "decide:play",
    "decide:discard",
    "decide:draw",
    "decide:defuse",
)
CYCLE_SKILLS: Final[tuple[str, ...]] = ("cycle:known", "cycle:unknown")

#: Every skill of every kind.
ALL_SKILLS: Final[dict[Kind, tuple[str, ...]]] = {
    **LOOKUP_SKILLS,
    Kind.DECIDE: DECIDE_SKILLS,
    Kind.CYCLE: CYCLE_SKILLS,
}

_DECIDE_WORDS: Final[dict[str, str]] = {
    "play": "when to play a card",
    "discard": "when to discard",
    "draw": "when to draw",
    "defuse": "when to play a Defuse",
}


def skill_label(skill: str) -> str:
    """A skill in words: ``Table E: Attack, last digit 3``."""
    parts = skill.split(":")
    head = parts[0]
    try:
        if head == "table" and len(parts) == 2:
            return f"serial -> Table {parts[1]}"
        if head == "identify" and len(parts) == 3:
            return f"Table {parts[1]}: {Card.parse(parts[2]).words}"
        if head == "rule" and len(parts) == 3:
            return f"Table E: {parts[1]}, last digit {parts[2]}"
        if head == "legal" and len(parts) == 2:
            return f"rule {parts[1]}: {RULE_TEXTS[parts[1]].rstrip('.')}"
        if head == "decide" and len(parts) == 2:
            return f"decision: {_DECIDE_WORDS.get(parts[1], parts[1])}"
        if head == "cycle" and len(parts) == 2:
            return (
                "cycle: deals until the mitten"
                if parts[1] == "known"
                else "cycle: chance the mitten is on top"
            )
    except (KeyError, ValueError):
        return skill
    return skill
