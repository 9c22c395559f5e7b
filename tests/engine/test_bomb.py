"""The shared game around a module: strike limit, explosion, solve, log, clock."""

from __future__ import annotations

import io
import random

import pytest

from defuser.engine.actions import Action, Drew, Struck
from defuser.engine.bomb import Bomb, End, click_fields, end_headline
from defuser.engine.simulator import HiddenState, Module
from defuser.errors import DefuserError
from edgework import Card, Ruleset


def _module(to_mitten: int = 0) -> Module:
    rules = Ruleset("A", 0)
    return Module(
        rules, 9, random.Random(5), start=(Card.RED_CIRCLE, [Card.BLUE_CIRCLE]),
        hidden=HiddenState(to_mitten, None, True),
    )


def test_strikes_explode_the_bomb_at_the_limit() -> None:
    bomb = Bomb(_module(), strike_limit=2)
    bomb.act(Action.draw())
    assert bomb.end is None and not bomb.exploded
    bomb.act(Action.draw())
    assert bomb.end is End.EXPLODED and bomb.exploded and bomb.over
    assert bomb.clicks == 2
    assert all(isinstance(e, Struck) for e in bomb.events)
    with pytest.raises(DefuserError):
        bomb.act(Action.draw())
    assert end_headline(End.EXPLODED, 2) == "BOOM! The bomb exploded at 2 strikes."


def test_limit_zero_never_explodes() -> None:
    bomb = Bomb(_module(), strike_limit=0)
    for _ in range(5):
        bomb.act(Action.draw())
    assert bomb.end is None and bomb.module.strikes == 5


def test_log_lines_reach_the_file_as_they_happen() -> None:
    log = io.StringIO()
    bomb = Bomb(_module(to_mitten=3), log_file=log)
    start = log.getvalue().splitlines()
    assert start == bomb.module.log
    result = bomb.act(Action.draw())
    assert isinstance(bomb.events[-1], Drew)
    assert log.getvalue().splitlines() == bomb.module.log
    assert click_fields(result)["action"] == "draw"


def test_stop_keeps_the_first_end_and_the_clock_is_injected() -> None:
    ticks = iter([10.0, 12.5])
    bomb = Bomb(_module(), clock=lambda: next(ticks))
    assert bomb.elapsed() == 2.5
    bomb.stop(End.QUIT)
    bomb.stop(End.STOPPED)
    assert bomb.end is End.QUIT
