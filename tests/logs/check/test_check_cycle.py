"""defuser.logs.check.cycle: each deal against the mitten cycle, and the countdown line."""

from __future__ import annotations

from replay_helpers import cards, context, state

from defuser.engine.board import Board
from defuser.engine.deck import DealKind
from defuser.logs.check import cycle
from defuser.logs.check.state import Stage, ruleset
from edgework import Card

CTX = context()


def test_a_plain_card_moves_the_deck_one_deal() -> None:
    [(after, problems)] = cycle.deal(CTX, state(), 9, Card.RED_CIRCLE, via_draw=True)
    assert problems == []
    assert (after.until, after.coming, after.deals) == (4, 5, 4)


def test_the_mitten_is_never_dealt_before_its_turn() -> None:
    [(_, [problem])] = cycle.deal(CTX, state(), 9, Card.BLUE_SQUARE, via_draw=False)
    assert problem.startswith("the Exploding Mitten (blue square) cannot be dealt here: it "
                              "is 5 deal(s) away")


def test_a_cycle_holds_one_defuse_and_its_last_deal_is_the_defuse() -> None:
    [(after, [])] = cycle.deal(CTX, state(), 9, Card.GREEN_SQUARE, via_draw=False)
    assert after.defuse_line == 9
    [(_, [second])] = cycle.deal(CTX, after, 12, Card.YELLOW_HEART, via_draw=False)
    assert second.startswith("a second Defuse in one cycle: this cycle's Defuse was dealt "
                             "at line 9")
    [(_, [late])] = cycle.deal(CTX, state(until=1), 9, Card.RED_CIRCLE, via_draw=False)
    assert late.startswith("this is the last deal before the mitten and this cycle's "
                           "Defuse has not come yet")


def test_the_first_deal_keeps_every_place_of_the_first_mitten() -> None:
    first = state(until=None, first_cycle=True, n=None)
    branches = cycle.deal(CTX, first, 9, Card.RED_CIRCLE, via_draw=True)
    assert len(branches) > 1 and all(p == [] for _, p in branches)
    assert len({b.until for b, _ in branches}) == len(branches)


def test_a_draw_into_two_illegal_cards_deals_a_legal_plain_face() -> None:
    s = state(hand=cards("red square", "yellow square"))
    legal = Board(ruleset("A", 3), Card.GREEN_CIRCLE, s.hand).deal_faces(
        DealKind.PLAIN, draw=True)
    assert Card.RED_CIRCLE in legal and Card.RED_SQUARE not in legal
    assert cycle.deal(CTX, s, 9, Card.RED_CIRCLE, via_draw=True)[0][1] == []
    [(_, [problem])] = cycle.deal(CTX, s, 9, Card.RED_SQUARE, via_draw=True)
    assert problem.startswith("a draw into two unplayable cards always gives a playable card")
    assert cycle.deal(CTX, s, 9, Card.RED_SQUARE, via_draw=False)[0][1] == []


def test_the_countdown_line_must_say_the_deals_left() -> None:
    s = state(stage=Stage.COMING, coming=4)
    assert cycle.coming_line(CTX, s, 4) == (s._replace(stage=Stage.IDLE), [])
    after, [problem] = cycle.coming_line(CTX, s, 6)
    assert after.stage is Stage.IDLE
    assert problem == ("the line says the mitten is coming in 6 draws, expected 4: the "
                       "previous countdown, less one deal, gives this")
    _, [fresh] = cycle.coming_line(CTX, state(stage=Stage.COMING, coming=11), 10)
    assert "so the line says N-1 (N = 12 from 3 batteries)" in fresh
