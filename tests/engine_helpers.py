"""Shared helpers for tests that drive the engine's module."""

from __future__ import annotations

from typing import Final

import pytest

from defuser.engine.actions import Action
from defuser.engine.board import Board
from defuser.engine.deck import Hidden
from defuser.engine.rules import HAND_SIZE
from defuser.strategy.belief import CycleBelief

#: Every click there is: draw, discard, play 1..3.
ALL_ACTIONS: Final[tuple[Action, ...]] = (
    Action.draw(),
    Action.discard(),
    *(Action.play(slot) for slot in range(1, HAND_SIZE + 1)),
)


def boards_made(monkeypatch: pytest.MonkeyPatch) -> list[Board]:
    """The boards made from now on (to the end of the test): to show that a hot path
    asks the rulebook without making a :class:`Board` each time."""
    made: list[Board] = []
    post_init = Board.__post_init__

    def counted(board: Board) -> None:
        made.append(board)
        post_init(board)

    monkeypatch.setattr(Board, "__post_init__", counted)
    return made


def belief_contains(belief: CycleBelief, hidden: Hidden) -> bool:
    """Whether a hidden deck state is possible under ``belief``: the tests' invariant
    (whether the first mitten was dealt, the module's ``first_cycle``, is no part of
    the hidden deck: the tests compare it with the belief's beside this)."""
    return any(h == hidden for h, _ in belief.support)
