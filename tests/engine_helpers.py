"""Shared helpers for tests that drive the engine's module."""

from __future__ import annotations

from typing import Final

from defuser.engine.actions import Action
from defuser.engine.rules import HAND_SIZE

#: Every click there is: draw, discard, play 1..3.
ALL_ACTIONS: Final[tuple[Action, ...]] = (
    Action.draw(),
    Action.discard(),
    *(Action.play(slot) for slot in range(1, HAND_SIZE + 1)),
)
