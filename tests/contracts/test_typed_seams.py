"""Values that cross a module's seam are typed, not text compared by value: what the
log-follow session reports on a module, the letters of a stored answer and of the
stats' heatmaps, a drill's focus. The text a person or a JSON reader sees is made at
the edge, from the typed value, and reads as it always did."""

from __future__ import annotations

import typing

import pytest
from gamelog_builder import BombSpec, game_log, simulated_messages

from defuser.apps.follow import (
    Advice,
    Follower,
    FollowEvent,
    LostTrack,
    Moved,
    Narrowed,
    Started,
    event_text,
)
from defuser.apps.tracking import Click, ClickKind, OtherLine, Tracked
from defuser.engine import modlog
from edgework import Card, CardType, RuleLetter


def test_a_follow_advice_carries_a_typed_event() -> None:
    hints = typing.get_type_hints(Advice)
    assert hints["event"] == FollowEvent
    assert str not in typing.get_args(hints["event"])
    act = typing.get_type_hints(Tracked.act)["return"]
    assert str not in typing.get_args(act)


def test_every_event_of_a_followed_game_is_typed_and_its_json_is_its_notation() -> None:
    log = game_log([BombSpec("AB3CD4", [2, 1], {
        1: simulated_messages("AB3CD4", [2, 1], 5, 1)}, seed=11)])
    advice = Follower().feed_all(log.lines)
    assert advice and isinstance(advice[0].event, Started)
    assert isinstance(advice[-1].event, Moved)
    assert advice[-1].event.line == Click(ClickKind.SOLVED)
    for a in advice:
        assert not isinstance(a.event, str)
        assert a.to_json()["event"] == event_text(a.event)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Started(), "start"),
        (LostTrack(), "lost track"),
        (Narrowed(RuleLetter.K), "rule K"),
        (Narrowed(), "blocked"),
        (Moved(Click(ClickKind.DREW, Card.GREEN_SQUARE)), "drew GS"),
        (Moved(Click(ClickKind.DISCARDED, Card.RED_CIRCLE)), "discarded RC"),
        (Moved(Click(ClickKind.PLAYED, Card.YELLOW_CIRCLE, (1, 3))), "played 1 or 3 (YC)"),
        (Moved(Click(ClickKind.STRIKE_PLAY, Card.BLUE_HEART, (2,))), "strike play 2 (BH)"),
        (Moved(Click(ClickKind.PLAYED, Card.BLUE_HEART)), "played ? (BH)"),
        (Moved(Click(ClickKind.STRIKE_DRAW)), "strike draw"),
        (Moved(Click(ClickKind.STRIKE_DISCARD)), "strike discard"),
        (Moved(Click(ClickKind.SOLVED)), "solved"),
        (Moved(Click(ClickKind.STRIKE_DRAW), picked_up=True), "strike draw; picked up again"),
        (Moved(OtherLine(modlog.HandCardMessage(1, Card.RED_CIRCLE, CardType.NOPE))),
         "hand_card"),
    ],
)
def test_the_json_notation_of_each_event(event: FollowEvent, text: str) -> None:
    assert event_text(event) == text
