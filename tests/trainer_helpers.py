"""Trainer fixtures shared by several test files.

- :func:`question_53` is a ``decide`` question with known numbers (an empty hand on a
  yellow circle), for the explanations and the situations;
- :data:`PLACEHOLDER` is facts for a question whose judge reads none;
- :func:`steady` zeroes the answer times of a drill transcript, for golden files.
"""

from __future__ import annotations

import re

from defuser.engine.actions import Action
from defuser.trainer.facts import DecideFacts, TableFacts
from defuser.trainer.model import Option, Question
from defuser.trainer.skills import DecideSkill, Kind, Move
from edgework import Card, SerialNumber

#: Facts for a test question whose judge reads none (a table question's).
PLACEHOLDER = TableFacts(SerialNumber("AB1CD2"))

#: The cycle line of :func:`question_53`.
CYCLE = "N = 1 mod 5 + 9 = 10. The first mitten is card 2..N-1 = 2..9 of the deals."

#: Answer times vary from run to run; goldens show them as 0.0.
SECONDS = re.compile(r"(\d+\.\d) s\b")
JSON_SECONDS = re.compile(r'"seconds": [0-9.e-]+')


def question_53() -> Question:
    """Question 53 of ``mittens drill --mode decide --seed 11`` (its numbers)."""
    return Question(
        kind=Kind.DECIDE,
        skill=DecideSkill(Move.DISCARD),
        text="Discard pile: yellow circle (YC). Hand: empty. What do you do?",
        facts=DecideFacts(SerialNumber("AB1CD2"), 1, 10, (), Card.YELLOW_CIRCLE, (), ()),
        answer=Action.discard(),
        reason="",
        options=(
            Option(Action.draw(), 13.5645, 1 / 3, "the mitten may be on top (1 in 3)"),
            Option(Action.discard(), 14.4476, 0.0),
            Option(Action.play(1), 15.4476, 0.0, "slot 1 is empty: the click does nothing"),
        ),
        cycle=CYCLE,
    )


def steady(text: str) -> str:
    """A transcript with answer times zeroed (scripted answers take ~0 s anyway)."""
    return JSON_SECONDS.sub('"seconds": 0.0', SECONDS.sub("0.0 s", text))
