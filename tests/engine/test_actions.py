"""The shared vocabulary: actions round-trip, simulator results become events, and the
DP's choices name the click they make."""

from __future__ import annotations

import random

import pytest
from engine_helpers import ALL_ACTIONS

from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.events import Discarded, Drew, Played, Solved, Struck
from defuser.engine.simulator import Module, Outcome
from defuser.errors import InvalidCommandError
from defuser.strategy.dp.clicks import DISCARD, DRAW, Choice, PlayKind
from edgework import Card, Ruleset, TableLetter


def test_every_action_round_trips_through_its_command() -> None:
    for action in ALL_ACTIONS:
        assert Action.parse(str(action)) == action


def test_results_become_the_events_an_observer_sees() -> None:
    rules = Ruleset(TableLetter.A, 0)
    seen = []
    for seed in range(40):
        module = Module(rules, 9, random.Random(seed))
        for _ in range(30):
            action = random.Random(seed * 31 + len(module.history)).choice(ALL_ACTIONS)
            result = module.act(action)
            event = result.event
            seen.append(type(event))
            if result.outcome is Outcome.NOTHING:
                assert event is None
            elif result.outcome is Outcome.STRIKE:
                assert isinstance(event, Struck)
                assert event.action == action and event.reason is result.strike
            elif result.outcome is Outcome.SOLVED:
                assert event == Solved(action.slot, result.card)
            elif action.kind is ActionKind.DRAW:
                assert event == Drew(module.hand[-1])
            elif action.kind is ActionKind.DISCARD:
                assert event == Discarded(module.discard_top)
            else:
                assert event == Played(action.slot or 0, module.discard_top)
            if event is not None and not isinstance(event, Solved):
                assert event.action == action
            if module.solved:
                break
    assert {Drew, Discarded, Played, Struck} <= set(seen)


def test_a_blocked_discard_names_its_blocking_slots() -> None:
    rules = Ruleset(TableLetter.A, 0)
    struck = 0
    for seed in range(20):
        module = Module(rules, 9, random.Random(seed))
        result = module.discard()
        if result.outcome is Outcome.STRIKE:
            struck += 1
            assert result.blocking_slots
            assert result.event == Struck(
                Action.discard(), StrikeKind.DISCARD_BLOCKED, None, result.blocking_slots
            )
    assert struck > 0


def test_dp_choices_name_the_click_in_a_real_hand() -> None:
    hand = [Card.RED_CIRCLE, Card.BLUE_SQUARE, Card.RED_CIRCLE]
    assert DRAW.action(hand) == Action.draw()
    assert DISCARD.action(hand) == Action.discard()
    play = Choice(ActionKind.PLAY, Card.BLUE_SQUARE, PlayKind.PLAIN)
    assert play.action(hand) == Action.play(2)
    first = Choice(ActionKind.PLAY, Card.RED_CIRCLE, PlayKind.PROBE)
    assert first.action(hand) == Action.play(1)


def test_clicks_are_made_once() -> None:
    """``Action.draw``, ``discard`` and ``play`` hand out one value per click (they are
    asked on every click); a slot that is not 1-3 is still refused by name."""
    assert Action.draw() is Action.draw() == Action(ActionKind.DRAW)
    assert Action.discard() is Action.discard() == Action(ActionKind.DISCARD)
    for slot in (1, 2, 3):
        assert Action.play(slot) is Action.play(slot) == Action(ActionKind.PLAY, slot)
    for slot in (0, 4, -1):
        with pytest.raises(InvalidCommandError, match=f"play slot {slot} is not a hand slot"):
            Action.play(slot)
