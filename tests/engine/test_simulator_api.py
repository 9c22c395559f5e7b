"""The simulator's API edges: construction checks, NOTHING outcomes, seeds."""

from __future__ import annotations

import random

import pytest
from engine_helpers import ALL_ACTIONS, boards_made

from defuser.engine.actions import Action, ActionKind
from defuser.engine.deck import Hidden
from defuser.engine.simulator import Module, Outcome
from defuser.errors import InvalidHandError, InvalidObservationError
from edgework import Card, Edgework, EdgeworkError, Ruleset, TableLetter

RULES = Ruleset(TableLetter.B, 7)


def test_construction_refuses_impossible_states() -> None:
    rng = random.Random(0)
    with pytest.raises(EdgeworkError):
        Module(RULES, 8, rng)
    with pytest.raises(InvalidHandError):
        Module(RULES, 9, rng, start=(Card.RED_CIRCLE, [Card.RED_CIRCLE] * 4))
    with pytest.raises(InvalidObservationError):
        Module(RULES, 9, rng, hidden=Hidden(9, None))
    with pytest.raises(InvalidObservationError):
        Module(RULES, 9, rng, hidden=Hidden(3, 3))
    with pytest.raises(EdgeworkError):
        Module.from_edgework(Edgework(), 1)


def test_empty_slot_and_after_solve_do_nothing() -> None:
    defuse = RULES.defuse_faces[0]
    module = Module(
        RULES, 9, random.Random(1), start=(Card.RED_CIRCLE, [defuse]),
        hidden=Hidden(0, None),
    )
    empty = module.act(Action(ActionKind.PLAY, 2))
    assert empty.outcome is Outcome.NOTHING and empty.note == "slot 2 is empty"
    assert empty.log == () and module.strikes == 0
    solved = module.act(Action(ActionKind.PLAY, 1))
    assert solved.outcome is Outcome.SOLVED and solved.card == defuse
    assert module.solved and module.discard_top == defuse and module.hand == ()
    log_length = len(module.log)
    for action in (Action(ActionKind.DRAW), Action(ActionKind.DISCARD)):
        after = module.act(action)
        assert after.outcome is Outcome.NOTHING and after.note == "the module is already solved"
    assert len(module.log) == log_length and module.strikes == 0


def test_seeded_modules_repeat_and_remember_their_seed() -> None:
    edge = Edgework.parse("3B 2H // KT4RE7")
    first, second = Module.from_edgework(edge, 42), Module.from_edgework(edge, 42)
    assert first.seed == 42 and first.interval == 12
    for _ in range(20):
        first.act(Action(ActionKind.DISCARD))
        second.act(Action(ActionKind.DISCARD))
    assert first.log == second.log
    assert Module(RULES, 9, random.Random(3)).seed is None


def test_module_id_appears_in_every_line() -> None:
    module = Module(RULES, 9, random.Random(4), module_id=3)
    module.act(Action(ActionKind.DRAW))
    assert all(line.startswith("[Exploding Mittens #3] ") for line in module.log)


def test_a_click_makes_no_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module asks the rulebook with the facts of the board it shows and makes no
    board per click (issue 20: a board per click was part of what slowed
    `mittens bench`); what the click did is the rulebook's all the same (the oracle
    tests hold that)."""
    made = boards_made(monkeypatch)
    rng = random.Random(5)
    clicks = 0
    for seed in range(20):
        module = Module(RULES, 11, random.Random(seed))
        while not module.solved and module.clicks < 40:
            module.act(rng.choice(ALL_ACTIONS))
            clicks += 1
    assert clicks > 400 and made == []
