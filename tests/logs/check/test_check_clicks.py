"""defuser.logs.check.clicks: each click of a replay against the rulebook.

Each test takes one replay state (``replay_helpers.state``: rule J, squares illegal, the
blue square the mitten, 5 deals away) and one click, and checks the successors and the
contradictions the click costs.
"""

from __future__ import annotations

from replay_helpers import cards, context, line, state

from defuser.engine import modlog
from defuser.logs.check import clicks
from defuser.logs.check.state import Stage, rule_why, ruleset
from edgework import Card, CardType

CTX = context()


def test_a_legal_play_moves_the_card_and_costs_nothing() -> None:
    [(after, problems)] = clicks.played(CTX, state(), 7, Card.RED_HEART, CardType.ATTACK)
    assert problems == []
    assert after.hand == cards("blue heart", "blue circle")
    assert (after.discard, after.stage, after.pending_line) == (
        Card.RED_HEART, Stage.RULE_AFTER_PLAY, 7)


def test_a_play_the_line_types_wrongly_costs_the_type() -> None:
    [(_, problems)] = clicks.played(CTX, state(), 7, Card.RED_HEART, CardType.YEP)
    assert problems == [
        "red heart is an Attack card in Table A, but the line calls it a Yep card"]


def test_a_play_of_an_illegal_card_is_blamed_and_repaired_by_each_legal_card() -> None:
    s = state(hand=cards("red square", "blue heart", "blue circle"))
    branches = clicks.played(CTX, s, 7, Card.RED_SQUARE, CardType.ATTACK)
    assert all("red square cannot be played under rule J" in p[0] for _, p in branches)
    assert [b.discard for b, _ in branches] == [
        Card.RED_SQUARE, Card.BLUE_HEART, Card.BLUE_CIRCLE]


def test_a_play_of_a_card_not_in_hand_is_blamed() -> None:
    branches = clicks.played(CTX, state(), 7, Card.GREEN_HEART, CardType.YEP)
    assert branches[0][1][-1].startswith("green heart is not in the hand (hand: red heart")


def test_an_invalid_play_strikes_only_for_an_illegal_card() -> None:
    s = state(hand=cards("red square", "blue heart", "blue circle"))
    assert clicks.invalid_play(CTX, s, Card.RED_SQUARE) == (s, [])
    _, problems = clicks.invalid_play(CTX, s, Card.BLUE_HEART)
    why = rule_why(ruleset("A", 3), Card.GREEN_CIRCLE)
    assert problems == [f"blue heart is legal under {why}, so playing it succeeds"]


def test_a_blocked_discard_lists_the_legal_slots() -> None:
    after, problems = clicks.discard_blocked(CTX, state(), 9)
    assert (after.blocking, after.stage, problems) == ((1, 2, 3), Stage.BLOCKING, [])


def test_a_lone_legal_defuse_never_blocks_a_discard() -> None:
    s = state(hand=cards("yellow circle", "red square", "yellow square"))
    after, [problem] = clicks.discard_blocked(CTX, s, 9)
    assert after.blocking is None
    assert "a lone legal Defuse never blocks a discard" in problem


def test_a_discard_that_should_have_struck_is_blamed() -> None:
    branches = clicks.discarded(CTX, state(), 9, Card.RED_CIRCLE, CardType.NOPE)
    assert branches[0][1][0].startswith("discarding was not allowed: slot 1 (red heart)")


def test_the_blocking_lines_name_the_blocking_slots_in_order() -> None:
    s = state(stage=Stage.BLOCKING, blocking=(1, 3))
    message = line(modlog.blocking_slot(3))
    assert isinstance(message, modlog.BlockingSlotMessage)
    after, [problem] = clicks.blocking_line(CTX, s, message)
    assert after.listed == 1 and problem.startswith("expected '... the first card! Woah!'")
    end, [missing] = clicks.blocking_end(CTX, after)
    assert end.stage is Stage.IDLE
    assert missing.startswith("the list of blocking cards misses slot 3 (blue circle)")


def test_a_mitten_strike_needs_the_mitten_on_top() -> None:
    assert clicks.mitten_strike(CTX, state(until=0))[1] == []
    assert "it is 5 deal(s) away" in clicks.mitten_strike(CTX, state())[1][0]
    assert "no card has been dealt yet" in clicks.mitten_strike(CTX, state(until=None))[1][0]


def test_a_full_hand_strike_needs_a_full_hand_and_the_mitten_elsewhere() -> None:
    assert clicks.hand_full(CTX, state())[1] == []
    short = state(hand=cards("red heart", "blue heart"))
    assert "held only 2 card(s)" in clicks.hand_full(CTX, short)[1][0]
    assert "that check comes first" in clicks.hand_full(CTX, state(until=0))[1][0]


def test_a_draw_into_a_full_hand_strikes() -> None:
    branches = clicks.drew(CTX, state(), 9, Card.RED_CIRCLE, CardType.NOPE)
    assert all(p[0].startswith("the hand held 3 cards") for _, p in branches)
    assert all(b.hand == state().hand for b, _ in branches)
    drawn = clicks.drew(CTX, state(until=0, hand=()), 9, Card.RED_CIRCLE, CardType.NOPE)
    assert "so a draw strikes ('You were going" in drawn[0][1][0]


def test_the_solve_needs_the_mitten_on_top_and_a_defuse() -> None:
    s = state(until=0, hand=cards("yellow heart", "red heart"))
    [(after, problems)] = clicks.solved(CTX, s, 20)
    assert problems == [] and after.solved_line == 20
    assert (after.discard, after.hand) == (Card.YELLOW_HEART, cards("red heart"))
    [(_, early)] = clicks.solved(CTX, s._replace(until=2), 20)
    assert early == ["the Exploding Mitten was not on top of the deck (it is 2 deal(s) away "
                     "by the countdown), so a Defuse cannot solve the module"]
    [(_, none)] = clicks.solved(CTX, state(until=0), 20)
    assert none[0].startswith("there is no Defuse in the hand")
