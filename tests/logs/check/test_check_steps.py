"""defuser.logs.check.steps: a replay's lines grouped into the player's clicks."""

from __future__ import annotations

import itertools

from replay_helpers import checked, simulated_check

from defuser.engine.actions import ActionKind
from defuser.engine.events import Discarded, Drew, Played, Solved, Struck
from defuser.engine.simulator import Outcome
from defuser.logs.check.messages import ACTION_STARTS
from defuser.logs.check.steps import build_steps


def test_each_click_is_one_step_with_its_lines_and_what_it_did() -> None:
    check = simulated_check(1, player="random")
    steps = build_steps(check.records)
    assert steps == check.steps
    assert len(steps) == check.actions
    assert sum(s.outcome is Outcome.STRIKE for s in steps) == check.strikes > 0
    starts = [r.number for r in check.records if type(r.message) in ACTION_STARTS]
    assert starts == [s.line for s in steps]
    for step, following in itertools.pairwise(steps):
        assert step.line <= step.last_line < following.line
        assert step.after == following.before
    kinds = {type(s.event) for s in steps}
    assert {Drew, Played, Struck, Solved} <= kinds
    for step in steps:
        event, action = step.event, step.action
        assert action is not None and action.kind is step.kind
        assert step.command == str(action)
        if isinstance(event, Played):
            assert step.before.hand[event.slot - 1] == event.card == step.after.discard
        elif isinstance(event, Drew | Discarded):
            assert step.countdown is not None  # a deal is followed by its countdown
    assert steps[-1].outcome is Outcome.SOLVED and steps[-1].kind is ActionKind.PLAY


def test_a_blocked_discard_lists_the_slots_its_lines_name() -> None:
    check = simulated_check(1, player="random")
    blocked = [s for s in check.steps if isinstance(s.event, Struck)
               and s.kind is ActionKind.DISCARD]
    assert blocked
    for step in blocked:
        assert step.blocking_listed and step.last_line == step.line + len(step.blocking_listed) + 1


def test_nothing_but_start_up_lines_is_no_step() -> None:
    check = simulated_check(1, player="random", lines=6)
    assert check.records and build_steps(check.records) == []


def test_a_start_up_line_ends_the_click_before_it() -> None:
    restarted = checked([
        "You should use Table A.",
        "The card on the discard pile is a green circle, which is a(n) Yep card.",
        "The rule used is J.",
        "Card #1 is a red heart, which is a(n) Attack card.",
        "Card #2 is a blue heart, which is a(n) Yep card.",
        "Card #3 is a blue circle, which is a(n) Yep card.",
        "You played a red heart, which is a(n) Attack card.",
        "The rule used is L.",
        "You should use Table A.",
    ])
    [play] = build_steps(restarted.records)
    assert (play.line, play.last_line) == (7, 8)
