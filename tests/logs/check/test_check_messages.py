"""defuser.logs.check.messages: which click each message starts; lines cut short."""

from __future__ import annotations

from replay_helpers import line

from defuser.engine import modlog
from defuser.engine.actions import ActionKind, StrikeKind
from defuser.engine.simulator import Outcome
from defuser.logs.check.messages import CLICKS, STRIKE_STARTS, Click, click_of, is_cut_short
from edgework import Card, CardType, RuleLetter, TableLetter


def test_each_click_message_says_which_click_and_how_it_ended() -> None:
    assert click_of(line(modlog.drew(Card.RED_HEART, CardType.ATTACK))) == Click(
        ActionKind.DRAW, Outcome.OK)
    assert click_of(line(modlog.hand_full_strike())) == Click(
        ActionKind.DRAW, Outcome.STRIKE, StrikeKind.HAND_FULL)
    assert click_of(line(modlog.discard_blocked())) == Click(
        ActionKind.DISCARD, Outcome.STRIKE, StrikeKind.DISCARD_BLOCKED)
    assert click_of(line(modlog.solved())) == Click(ActionKind.PLAY, Outcome.SOLVED)
    assert click_of(line(modlog.table(TableLetter.A))) is None
    assert click_of(line(modlog.strike())) is None  # it closes a blocked discard
    assert click_of(None) is None


def test_a_strike_starts_exactly_the_clicks_that_struck() -> None:
    for kind, click in CLICKS.items():
        assert (click.strike is not None) == (click.outcome is Outcome.STRIKE) == (
            kind in STRIKE_STARTS), kind
    assert len(STRIKE_STARTS) == len(StrikeKind)


def test_a_line_cut_short_is_the_start_of_a_message_the_module_writes() -> None:
    assert is_cut_short("You drew a gre")
    assert is_cut_short("(The Exploding Mitten is coming in 1")
    assert is_cut_short(modlog.rule_now(RuleLetter.J))
    assert not is_cut_short("You drew a purple")
    assert not is_cut_short("Strike! Strike!")
