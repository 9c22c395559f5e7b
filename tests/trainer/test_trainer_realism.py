"""The module as the player sees it: the drawn module, strike pressure, the bomb timer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cli_helpers import run_cli
from trainer_helpers import PLACEHOLDER

from defuser.commands.drill import module_view
from defuser.engine.actions import Action
from defuser.engine.game import RATE_PER_STRIKE
from defuser.trainer.answers import TableAnswer
from defuser.trainer.facts import DecideFacts
from defuser.trainer.game import Game
from defuser.trainer.model import Question
from defuser.trainer.skills import DecideSkill, Kind, Move
from edgework import Card, SerialNumber, TableLetter


def decide(hand: list[str], discard: str) -> Question:
    facts = DecideFacts(SerialNumber("AB1CD2"), 1, 10, (), Card.parse(discard),
                        tuple(Card.parse(code) for code in hand), ())
    return Question(Kind.DECIDE, DecideSkill(Move.DRAW), "?", facts, Action.draw(), "")


def test_the_module_view_draws_the_pile_hand_strikes_and_timer() -> None:
    view = module_view(decide(["RC", "BT"], "GS"), False, strikes=2, limit=3, time_left=90.0)
    assert view is not None
    text = view.plain
    assert text.startswith("  pile  ■    hand  1  ●   2  ▲ ")
    assert "strikes XX." in text and "one more strike explodes the bomb" in text
    assert text.endswith("bomb 1:30")
    coloured = module_view(decide(["YH"], "RC"), True)
    assert coloured is not None and any("on yellow3" in str(s.style) for s in coloured.spans)
    table_a = TableAnswer(TableLetter.A)
    table = Question(Kind.TABLE, DecideSkill(Move.DRAW), "?", PLACEHOLDER, table_a, "")
    assert module_view(table, False) is None


def test_the_bomb_timer_runs_faster_after_a_strike_and_explodes() -> None:
    now = [100.0]
    game = Game.new(random.Random(3), timer=10.0, clock=lambda: now[0])
    now[0] = 150.0  # the clock is paused until a click is asked
    assert game.time_left == 10.0 and game.deadline() is None
    game.clock.run(now[0])
    assert game.deadline() == pytest.approx(160.0)
    now[0] = 154.0
    assert not game.ran_out() and game.time_left == pytest.approx(6.0)
    game.clock.pause()
    now[0] = 200.0  # feedback is read with the clock paused
    assert game.time_left == pytest.approx(6.0)
    question = game.question()
    risky = next(o.action for o in question.options if o.strike_risk == 1.0)
    game.session.click(risky)
    assert game.walk.module.strikes == 1
    assert game.timer_rate() == 1 + RATE_PER_STRIKE
    game.clock.run(now[0])
    assert game.deadline() == pytest.approx(200.0 + 6.0 / 1.25)
    now[0] = 204.0  # 4 s at 1.25x: 5 s of bomb time
    assert not game.ran_out() and game.time_left == pytest.approx(1.0)
    now[0] = 205.0
    assert game.ran_out() and game.timed_out and game.over and game.exploded
    calm = Game.new(random.Random(3), clock=lambda: now[0])
    calm.clock.run(now[0])
    now[0] = 1e9
    assert not calm.ran_out() and calm.deadline() is None  # no timer, no explosion


def test_bomb_timer_needs_game_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["drill", "--mode", "rule", "--bomb-timer", "60", "--db",
                   str(tmp_path / "s.db")], monkeypatch)
    assert run.code == 2 and "a bomb timer needs --mode game" in run.err
    assert not (tmp_path / "s.db").exists()
