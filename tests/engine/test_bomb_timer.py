"""The bomb timer: the game's rate per strike, time-outs, a frozen end (fake clock)."""

from __future__ import annotations

import pytest

from defuser.engine.actions import Action, ActionKind
from defuser.engine.bomb import Bomb, End, timer_rate
from defuser.engine.simulator import Module
from defuser.errors import DefuserError
from edgework import Edgework


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def module() -> Module:
    return Module.from_edgework(Edgework.parse("3B 2H // AB3CD4"), 7)


def test_the_rate_rises_a_quarter_per_strike_up_to_four() -> None:
    assert [timer_rate(n) for n in range(7)] == [1.0, 1.25, 1.5, 1.75, 2.0, 2.0, 2.0]


def test_a_strike_speeds_up_the_time_that_follows() -> None:
    clock = Clock()
    bomb = Bomb(module(), clock=clock, time_limit=300.0)
    assert bomb.time_left() == 300.0 and bomb.rate == 1.0
    clock.now += 10.0
    assert bomb.time_left() == 290.0
    # Seed 7 with this edge: discarding first is a strike (discard blocked).
    result = bomb.act(Action(ActionKind.DISCARD))
    assert result.strike is not None and bomb.rate == 1.25
    clock.now += 10.0
    assert bomb.time_left() == pytest.approx(277.5)


def test_time_out_ends_the_game_and_a_late_click_is_refused() -> None:
    clock = Clock()
    bomb = Bomb(module(), clock=clock, time_limit=5.0)
    clock.now += 4.9
    assert bomb.tick() is None
    clock.now += 0.2
    assert bomb.tick() is End.TIMEOUT and bomb.time_left() == 0.0 and bomb.rate == 0.0
    with pytest.raises(DefuserError):
        bomb.act(Action(ActionKind.DRAW))
    assert bomb.clicks == 0


def test_the_timer_freezes_at_the_end() -> None:
    clock = Clock()
    bomb = Bomb(module(), clock=clock, time_limit=60.0)
    clock.now += 5.0
    bomb.stop(End.QUIT)
    clock.now += 30.0
    assert bomb.time_left() == 55.0 and bomb.rate == 0.0


def test_no_timer_and_bad_limits() -> None:
    bomb = Bomb(module())
    assert bomb.time_left() is None and bomb.tick() is None and bomb.rate == 0.0
    with pytest.raises(DefuserError):
        Bomb(module(), time_limit=0.0)
