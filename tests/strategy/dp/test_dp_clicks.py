"""The clicks the DP weighs are typed clicks: each way the DP values a safe click names
its :class:`~defuser.strategy.dp.clicks.Choice`, and a solution's choices list every safe
click of the rulebook's answers, in their order."""

from __future__ import annotations

from defuser.engine.actions import ActionKind
from defuser.strategy.dp.clicks import (
    DISCARD,
    DRAW,
    Choice,
    OptionKind,
    PlayKind,
    choice_of,
)
from defuser.strategy.dp.states import STATES
from defuser.strategy.solutions import SolutionStore
from edgework import Card, Ruleset, TableLetter


def test_each_way_of_valuing_a_click_names_its_choice() -> None:
    assert choice_of(OptionKind.DRAW, -1) == DRAW
    assert choice_of(OptionKind.DISCARD, -1) == DISCARD
    card = Card(5)
    plays = {
        OptionKind.PLAY: PlayKind.PLAIN,
        OptionKind.PROBE: PlayKind.PROBE,
        OptionKind.SOLVE: PlayKind.SOLVE,
    }
    for option, play in plays.items():
        assert choice_of(option, int(card)) == Choice(ActionKind.PLAY, card, play)


def test_the_choices_are_the_rulebooks_safe_clicks_in_order() -> None:
    sol = SolutionStore(None).solution(Ruleset(TableLetter.C, 0), 10)
    kinds: set[OptionKind] = set()
    for i, phase in enumerate(sol.graph.phases[:30]):
        for s in range(i % 61, STATES, 61):
            options = sol.tables.options(phase.mode, s)
            listed = [choice for choice, _ in sol.choices(i, s)]
            assert listed == [choice_of(kind, face) for kind, face, _ in options]
            kinds.update(kind for kind, _, _ in options)
    assert kinds == set(OptionKind)
