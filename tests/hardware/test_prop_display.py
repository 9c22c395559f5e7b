"""The display state: apply, diff, the parts as values, the JSON view and the edge."""

from __future__ import annotations

from defuser.engine.simulator import Module
from edgework import Card, Edgework
from hardware.bridge import display_commands, edge_commands
from hardware.display import DisplayState
from hardware.protocol import (
    GameState,
    ShowBatteries,
    ShowIndicator,
    ShowSerial,
    ShowStrikes,
    ShowTimer,
    ShowTop,
)

EDGE = Edgework.parse("5B 3H // *FRK, CAR // [Parallel, Serial] [Empty] // AB3CD4")


def test_an_empty_state_reads_as_the_prop_starts() -> None:
    state = DisplayState()
    assert not state and state.commands() == [] and state.as_json() == {}
    assert (state.serial, state.top, state.hand, state.strikes) == (None, None, (None,) * 3, 0)
    assert (state.solved, state.game, state.timer, state.limit) == (False, GameState.PLAYING,
                                                                    None, 0)


def test_apply_sets_one_part_and_keeps_the_rest() -> None:
    state = DisplayState.of(edge_commands(EDGE))
    later = state.apply(ShowSerial("XY1ZW2")).apply(ShowIndicator(2, "CAR", True))
    assert state.serial == "AB3CD4" and later.serial == "XY1ZW2"
    assert [ind.lit for ind in later.indicators()] == [True, True]
    assert later.apply(ShowSerial("XY1ZW2")) is later
    assert later.commands()[0] == ShowSerial("XY1ZW2")


def test_diff_lists_what_differs_in_resend_order() -> None:
    state = DisplayState.of(edge_commands(EDGE))
    other = state.apply(ShowStrikes(2)).apply(ShowSerial(None)).apply(ShowTop(Card.RED_CIRCLE))
    assert state.diff(other) == [ShowSerial(None), ShowTop(Card.RED_CIRCLE), ShowStrikes(2)]
    assert other.diff(state) == [ShowSerial("AB3CD4")]  # parts state lacks stay
    assert state.diff(state) == []


def test_the_views_of_a_whole_display() -> None:
    module = Module.from_edgework(EDGE, seed=3)
    state = DisplayState.of(display_commands(module, EDGE))
    assert state.commands() == display_commands(module, EDGE)
    assert state.widgets() == ["serial AB3CD4", "5B 3H", "2xAA 1xD", "*FRK", "CAR",
                               "[Parallel, Serial]", "[Empty]"]
    assert state.edge_text() == "*FRK, CAR // [Parallel, Serial] [Empty]"
    view = state.as_json()
    assert list(view) == ["serial", "batteries", "holders", "aa_holders", "d_holders",
                          "indicators", "plates", "top", "hand", "strikes", "strike_limit",
                          "timer_ms", "timer_rate", "game", "solved"]
    assert view["indicators"] == ["*FRK", "CAR"]
    assert view["plates"] == [["Parallel", "Serial"], []]
    assert state.apply(ShowTimer(61_000, 1250)).timer == (61_000, 1250)
    assert DisplayState.of([ShowBatteries(2, None)]).widgets() == ["2B"]
