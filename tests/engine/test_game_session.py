"""The game session around a module: strike limit, explosion, solve, timer, events,
clickers and displays, on a fake clock."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from defuser.engine.actions import Action, ActionKind
from defuser.engine.deck import Hidden
from defuser.engine.game import (
    BombState,
    Clicked,
    Ended,
    GameEnd,
    GameSession,
    SavedGameError,
    click_fields,
    timer_rate,
)
from defuser.engine.simulator import Module, Outcome, Result
from defuser.errors import DefuserError
from edgework import Card, Edgework, Ruleset, TableLetter
from edgework.errors import MisuseError


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _module(to_mitten: int = 0) -> Module:
    rules = Ruleset(TableLetter.A, 0)
    return Module(
        rules, 9, random.Random(5), start=(Card.RED_CIRCLE, [Card.BLUE_CIRCLE]),
        hidden=Hidden(to_mitten, None),
    )


def module() -> Module:
    return Module.from_edgework(Edgework.parse("3B 2H // AB3CD4"), 7)


def test_strikes_explode_the_bomb_at_the_limit() -> None:
    session = GameSession(_module(), strike_limit=2, clock=Clock())
    first = session.click(Action.draw())
    assert [type(e) for e in first] == [Clicked] and session.end is None
    second = session.click(Action.draw())
    assert second[1:] == [Ended(GameEnd.EXPLODED)] and session.over
    assert session.clicks == 2
    assert all(isinstance(e, Clicked) and e.result.outcome is Outcome.STRIKE
               for e in first + second[:1])
    with pytest.raises(MisuseError, match="the game is over"):
        session.click(Action.draw())


def test_limit_zero_never_explodes() -> None:
    session = GameSession(_module(), strike_limit=0, clock=Clock())
    for _ in range(5):
        session.click(Action.draw())
    assert session.end is None and session.module.strikes == 5


def test_a_click_event_carries_its_log_lines() -> None:
    session = GameSession(_module(to_mitten=3), clock=Clock())
    before = list(session.module.log)
    [event] = session.click(Action.draw())
    assert isinstance(event, Clicked)
    assert before + list(event.result.log) == session.module.log
    assert click_fields(event.result)["action"] == "draw"


def test_the_clock_is_injected_and_the_state_is_json() -> None:
    clock = Clock()
    session = GameSession(_module(), clock=clock, time_limit=60.0)
    clock.now += 2.5
    assert session.elapsed() == 2.5
    state = json.loads(json.dumps(session.state()))
    assert state["time_left"] == 57.5 and state["seconds"] == 2.5 and state["end"] is None
    assert state["module"]["hand"] == ["BC"] and state["strike_limit"] == 3


# ------------------------------------------------------------------ the bomb timer


def test_the_rate_rises_a_quarter_per_strike_up_to_four() -> None:
    assert [timer_rate(n) for n in range(7)] == [1.0, 1.25, 1.5, 1.75, 2.0, 2.0, 2.0]


def test_a_strike_speeds_up_the_time_that_follows() -> None:
    clock = Clock()
    session = GameSession(module(), clock=clock, time_limit=300.0)
    assert session.time_left() == 300.0 and session.rate == 1.0
    assert session.deadline() == 400.0
    clock.now += 10.0
    assert session.time_left() == 290.0
    # Seed 7 with this edge: discarding first is a strike (discard blocked).
    [event] = session.click(Action(ActionKind.DISCARD))
    assert isinstance(event, Clicked) and event.result.strike is not None
    assert session.rate == 1.25 and session.deadline() == 110.0 + 290.0 / 1.25
    clock.now += 10.0
    assert session.time_left() == pytest.approx(277.5)


def test_time_out_ends_the_game_and_a_late_click_is_not_made() -> None:
    clock = Clock()
    session = GameSession(module(), clock=clock, time_limit=5.0)
    clock.now += 4.9
    assert session.tick() == []
    clock.now += 0.2
    assert session.click(Action(ActionKind.DRAW)) == [Ended(GameEnd.TIMED_OUT)]
    assert session.time_left() == 0.0 and session.rate == 0.0 and session.deadline() is None
    assert session.clicks == 0 and session.module.clicks == 0
    assert session.tick() == []  # the end is told once
    with pytest.raises(MisuseError):
        session.click(Action(ActionKind.DRAW))


def test_the_timer_freezes_at_the_end() -> None:
    clock = Clock()
    session = GameSession(module(), clock=clock, time_limit=60.0)
    clock.now += 61.0
    assert session.tick() == [Ended(GameEnd.TIMED_OUT)]
    clock.now += 30.0
    assert session.time_left() == 0.0 and session.rate == 0.0
    assert session.state()["end"] == "timeout"


def test_no_timer_and_bad_limits() -> None:
    session = GameSession(module(), clock=Clock())
    assert session.time_left() is None and session.tick() == [] and session.rate == 0.0
    assert session.deadline() is None
    with pytest.raises(DefuserError):
        GameSession(module(), time_limit=0.0)
    with pytest.raises(DefuserError):
        GameSession(module(), strike_limit=-1)


# ------------------------------------------------------------------ clickers and the bomb


class Recorder:
    """A clicker that clicks the module and keeps what it clicked."""

    def __init__(self, target: Module) -> None:
        self.target = target
        self.clicked: list[Action] = []

    def act(self, action: Action) -> Result:
        self.clicked.append(action)
        return self.target.act(action)


def test_the_clicker_makes_the_clicks_and_the_bomb_follows_strikes_and_the_end() -> None:
    clock = Clock()
    game = module()
    recorder = Recorder(game)
    session = GameSession(game, clicker=recorder, strike_limit=2, clock=clock,
                          time_limit=100.0)
    session.click(Action(ActionKind.DISCARD))  # a strike: the timer speeds up
    assert session.bomb() == BombState(2, 100.0, 1.25, None)
    clock.now += 4.0
    session.click(Action(ActionKind.DISCARD))  # the second strike: the bomb explodes
    assert recorder.clicked == [Action(ActionKind.DISCARD)] * 2 and game.clicks == 2
    assert session.bomb() == BombState(2, 95.0, 0.0, GameEnd.EXPLODED)


def test_a_click_that_does_not_strike_leaves_the_bomb_as_it_was() -> None:
    game = _module(to_mitten=3)
    clock = Clock()
    session = GameSession(game, clicker=Recorder(game), clock=clock, time_limit=100.0)
    [event] = session.click(Action.draw())
    assert isinstance(event, Clicked) and event.result.outcome is Outcome.OK
    assert session.bomb() == BombState(3, 100.0, 1.0, None)


# ------------------------------------------------------------- saving and restoring

#: Seed 7 with this edge: strikes on the first two clicks, on the fourth, the eighth
#: and the eleventh (``strike_limit`` 5 explodes there).
CLICKS = [Action.discard(), Action.draw(), Action.play(1), Action.play(2), Action.play(3),
          Action.draw(), Action.discard(), Action.draw(), Action.play(1), Action.draw(),
          Action.draw()]


def _played(clock: Clock, count: int, strike_limit: int, time_limit: float) -> GameSession:
    """The game of CLICKS' first ``count`` clicks, 1.25 s apart (0.5 s after the last)."""
    session = GameSession(module(), clock=clock, strike_limit=strike_limit,
                          time_limit=time_limit)
    for action in CLICKS[:count]:
        clock.now += 1.25
        session.click(action)
    clock.now += 0.5
    return session


def _saved(session: GameSession) -> dict[str, Any]:
    """The session's state through JSON text, as a front end would keep it."""
    state: dict[str, Any] = json.loads(json.dumps(session.state()))
    return state


def test_a_game_saved_mid_game_goes_on_as_the_original() -> None:
    clock, later = Clock(), Clock()
    original = _played(clock, 3, strike_limit=5, time_limit=300.0)
    assert original.module.strikes == 2 and not original.over and original.rate == 1.5
    saved = _saved(original)
    assert saved["seed"] == 7 and saved["version"] == 1
    assert saved["history"] == [["discard", 1.25], ["draw", 2.5], ["play 1", 3.75]]
    later.now = 5000.0
    rebuilt = GameSession.from_state(saved, module(), clock=later)
    assert rebuilt.state() == saved and rebuilt.history == original.history
    # 1.25 s at 1x, 1.25 s at 1.25x (a strike), 1.75 s at 1.5x (a second strike).
    assert rebuilt.time_left() == original.time_left() == 300.0 - 1.25 - 1.5625 - 2.625
    assert rebuilt.deadline() == 5000.0 + 294.5625 / 1.5
    for action in CLICKS[3:]:
        clock.now += 2.0
        later.now += 2.0
        assert rebuilt.click(action) == original.click(action)
        assert rebuilt.state() == original.state()
    assert rebuilt.end is GameEnd.EXPLODED and rebuilt.module.strikes == 5


def test_a_game_saved_after_its_end_stays_ended() -> None:
    clock, later = Clock(), Clock()
    exploded = _played(clock, 2, strike_limit=2, time_limit=300.0)
    timed_out = _played(clock, 1, strike_limit=3, time_limit=3.0)
    clock.now += 10.0
    assert timed_out.tick() == [Ended(GameEnd.TIMED_OUT)]
    clock.now += 7.0
    for original, end in ((exploded, GameEnd.EXPLODED), (timed_out, GameEnd.TIMED_OUT)):
        saved = _saved(original)
        rebuilt = GameSession.from_state(saved, module(), clock=later)
        assert rebuilt.end is end and rebuilt.state() == saved
        assert rebuilt.tick() == [] and rebuilt.deadline() is None
        later.now += 30.0
        assert rebuilt.time_left() == original.time_left()
        with pytest.raises(MisuseError, match="the game is over"):
            rebuilt.click(Action.draw())


def _broken(saved: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    return {**saved, key: value}


def test_a_state_of_another_version_or_shape_is_refused() -> None:
    saved = _saved(_played(Clock(), 3, strike_limit=5, time_limit=300.0))
    assert GameSession.from_state(saved, module(), clock=Clock()).clicks == 3
    refused = [
        (_broken(saved, "version", 2), "not version 1"),
        ([saved], "not version 1"),
        ({k: v for k, v in saved.items() if k != "history"}, "malformed.*history"),
        (_broken(saved, "history", [["jump", 1.0]]), "malformed"),
        (_broken(saved, "history", [["draw"]]), "malformed"),
        (_broken(saved, "seed", 8), "seed 8, expected the module's seed 7"),
        (_broken(saved, "clicks", 4), "replay to"),
        (_broken(saved, "history", saved["history"][:2]), "replay to"),
        (_broken(saved, "strike_limit", 2), "clicks after the game ended"),
        (_broken(saved, "time_limit", 3.0), "replay to"),
    ]
    for state, message in refused:
        with pytest.raises(SavedGameError, match=message):
            GameSession.from_state(state, module(), clock=Clock())  # type: ignore[arg-type]
    clicked = module()
    clicked.act(Action.draw())
    with pytest.raises(MisuseError, match="expected a new module"):
        GameSession.from_state(saved, clicked, clock=Clock())
