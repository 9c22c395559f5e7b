"""The game on the prop (hardware/game.py): a press goes through the game session and the
bridge shows it, in one path; the loop's waits, the timer, the pace, a script's end,
all on a fake prop and a fake clock."""

from __future__ import annotations

import json

import pytest
from prop_helpers import FakeClock, FakeProp, prop_game

from defuser.engine.game import GameEnd
from defuser.engine.simulator import Module, Outcome
from edgework import Edgework
from edgework.errors import MisuseError
from hardware.bridge import button_for, winning_actions
from hardware.game import POLL, Over, Pressed, PropGame, PropStarted, ScriptRanOut
from hardware.protocol import (
    Button,
    ButtonPressed,
    Cue,
    GameState,
    ShowGame,
    ShowStrikes,
    ShowTimer,
)

EDGE = Edgework.parse("3B 2H // AB3CD4")


def presses(*buttons: Button) -> list[ButtonPressed]:
    return [ButtonPressed(seq, button) for seq, button in enumerate(buttons, start=1)]


def winning(seed: int) -> list[ButtonPressed]:
    return presses(*(button_for(a) for a in winning_actions(Module.from_edgework(EDGE, seed))))


def test_a_press_goes_through_the_session_to_the_bridge_in_one_path() -> None:
    module = Module.from_edgework(EDGE, 7)
    clock = FakeClock()
    prop = FakeProp()
    game = prop_game(module, EDGE, prop, strike_limit=3, clock=clock, time_limit=60.0)
    game.start()
    prop.wire.clear()
    clock.now = 10.0
    # Seed 7 with this edge: discarding first is a strike (discard blocked).
    [event] = game.press(ButtonPressed(1, Button.PILE))
    assert isinstance(event, Pressed) and event.result.outcome is Outcome.STRIKE
    assert event.press == ButtonPressed(1, Button.PILE)
    # The module's change, the ACK, then the bomb's change and its sound, as on the wire;
    # the event carries every command the press caused.
    assert prop.wire == ["STRIKES", "ACK 1", "TIMER", "SOUND STRIKE"]
    assert event.sent == (ShowStrikes(1), ShowTimer(50_000, 1250))
    assert event.shown == prop.display_state()
    assert event.as_dict()["sent"] == ["STRIKES", "TIMER"]
    prop.wire.clear()
    clock.now = 60.0
    # A press after the time ran out is taken but never made nor acknowledged.
    assert game.press(ButtonPressed(2, Button.DECK)) == []
    assert module.clicks == 1 and game.game.end is GameEnd.TIMED_OUT
    assert prop.wire == ["TIMER", "GAME", "SOUND BOOM"] and prop.acked == [1]
    assert prop.sent[-2:] == [ShowTimer(0, 0), ShowGame(GameState.TIMEOUT)]


def test_only_what_changed_is_sent_and_every_press_acknowledged() -> None:
    module = Module.from_edgework(EDGE, 11)
    prop = FakeProp(presses(Button.PILE, Button.HAND3))
    game = prop_game(module, EDGE, prop)
    started = game.start()
    assert prop.synced == [None]
    assert [type(c).WORD for c in started.shown.commands()] == [
        "SERIAL", "BATT", "HOLDERS", "INDS", "PLATES", "TOP", "HAND", "STRIKES", "LIMIT",
        "TIMER", "GAME", "SOLVED",
    ]
    full = len(prop.sent)
    [first] = game.step()
    [second] = game.step()
    assert isinstance(first, Pressed) and isinstance(second, Pressed)
    if first.result.outcome is Outcome.STRIKE:
        assert first.sent == (ShowStrikes(1),)  # no limit, no timer: nothing else changes
    assert game.step() == [] and prop.waits == [POLL] * 3
    assert prop.acked == [1, 2]
    assert prop.sent[full:] == [*first.sent, *second.sent]


def test_a_whole_game_at_a_pace() -> None:
    waits: list[float] = []
    module = Module.from_edgework(EDGE, 3)
    prop = FakeProp(winning(3))
    played = prop_game(module, EDGE, prop, strike_limit=3)
    game = PropGame(played.game, played.bridge, prop, settle=2.5, pace=0.4, sleep=waits.append)
    events = list(game.play())
    assert isinstance(events[0], PropStarted)
    assert events[-1] == Over(GameEnd.SOLVED, prop.display_state())
    pressed = [e for e in events if isinstance(e, Pressed)]
    assert len(pressed) == len(events) - 2 == game.presses >= 2
    assert waits == [0.4] * (len(pressed) - 1)  # after each press but the last, which ends it
    # The solve: the module's SOLVED, then the bomb's GAME with its sound; then the prop
    # is given its time to show the end.
    assert [type(c).WORD for c in pressed[-1].sent][-2:] == ["SOLVED", "GAME"]
    assert prop.wire[-1] == "SOUND SOLVE" and prop.synced[-1] == 2.5
    assert prop.display_state().game is GameState.SOLVED and module.solved


def test_the_waits_end_with_the_time_left_and_the_bomb_explodes() -> None:
    clock = FakeClock()
    module = Module.from_edgework(EDGE, 3)
    prop = FakeProp(clock=clock)
    game = prop_game(module, EDGE, prop, clock=clock, time_limit=1.2, settle=2.0)
    events = list(game.play())
    assert [type(e) for e in events] == [PropStarted, Over]
    # Half a second at most, then the time left and a hundredth more; the tick after
    # it finds the time run out.
    assert prop.waits == [POLL, POLL, pytest.approx(0.21)]
    assert events[-1] == Over(GameEnd.TIMED_OUT, prop.display_state())
    assert prop.wire[-3:] == ["TIMER", "GAME", "SOUND BOOM"] and prop.synced[-1] == 2.0
    assert module.clicks == 0


def test_a_strike_at_the_limit_explodes_with_one_sound() -> None:
    module = Module.from_edgework(EDGE, 7)
    prop = FakeProp(presses(Button.PILE, Button.PILE))
    game = prop_game(module, EDGE, prop, strike_limit=2)
    events = list(game.play())
    assert isinstance(events[-1], Over) and events[-1].end is GameEnd.EXPLODED
    # The first strike's sound, then the explosion's (not a strike's) for the second.
    assert prop.sounds == [Cue.STRIKE, Cue.BOOM]


def test_a_script_that_ran_out_ends_the_game_without_an_end() -> None:
    module = Module.from_edgework(EDGE, 7)
    prop = FakeProp(presses(Button.DECK))
    played = prop_game(module, EDGE, prop)
    # Asked only when no press came: after the one press the script has.
    game = PropGame(played.game, played.bridge, prop, settle=1.0, script_done=lambda: True)
    events = list(game.play())
    assert [type(e) for e in events] == [PropStarted, Pressed, ScriptRanOut]
    assert game.game.end is None and prop.synced == [None]  # no wait for an end
    with pytest.raises(MisuseError, match="not over"):
        game.over()


def test_the_state_is_json() -> None:
    module = Module.from_edgework(EDGE, 7)
    game = prop_game(module, EDGE, FakeProp(presses(Button.PILE)), strike_limit=3)
    game.start()
    game.step()
    state = json.loads(json.dumps(game.state()))
    assert state["presses"] == 1 and state["module"]["strikes"] == 1
    assert state["prop"]["strikes"] == 1 and state["strike_limit"] == 3
