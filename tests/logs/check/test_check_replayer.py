"""defuser.logs.check.replayer: each line goes to its stage's handler, or is out of place."""

from __future__ import annotations

from replay_helpers import cards, context, state

from defuser.engine import modlog
from defuser.logs.check import replayer
from defuser.logs.check.state import Branch, ReplayState, Stage
from edgework import Card, CardType

CTX = context()


def step(s: ReplayState, text: str, number: int = 9) -> list[Branch]:
    """The successors of ``s`` after the module line ``text``."""
    return replayer.step(CTX, s, number, modlog.parse(text), text)


def test_a_click_at_idle_goes_to_its_handler() -> None:
    [(after, [])] = step(state(), modlog.played(Card.RED_HEART, CardType.ATTACK))
    assert after == state(hand=cards("blue heart", "blue circle"), discard=Card.RED_HEART,
                          stage=Stage.RULE_AFTER_PLAY, pending_line=9)


def test_lines_out_of_place_are_named() -> None:
    assert step(state(), "The rule used is J.")[0][1] == ["a rule line that follows no play"]
    assert step(state(), "You juggled.")[0][1] == ["'You juggled.' is not a line the module writes"]
    assert step(state(solved_line=30), "Strike!")[0][1] == [
        "the module was solved at line 30; nothing responds after the solve"]
    start = state(stage=Stage.START, discard=None, hand=())
    assert step(start, "The rule used is J.")[0][1] == [
        "the module's start-up is missing before this line"]


def test_a_missing_line_costs_one_finding_and_the_next_is_read() -> None:
    coming = state(stage=Stage.COMING, coming=4, pending_line=7)
    [(after, problems)] = step(coming, "The rule used is J.")
    assert problems == ["expected the countdown line after the deal at line 7 before this line",
                        "a rule line that follows no play"]
    assert after.stage is Stage.IDLE
    assert step(coming, "(The Exploding Mitten is coming in 4 draws.)")[0][1] == []


def test_a_blocked_discard_reads_its_lines_then_its_strike() -> None:
    blocking = state(stage=Stage.BLOCKING, blocking=(1,), listed=0)
    [(listed, [])] = step(blocking, modlog.blocking_slot(1))
    [(ended, [])] = step(listed, "Strike!")
    assert (ended.stage, ended.blocking, ended.listed) == (Stage.IDLE, (), 0)
