"""defuser.logs.judge: each click of a replayed module rated against the optimal policy."""

from __future__ import annotations

from fractions import Fraction

from replay_helpers import simulated_check

from defuser.logs.judge import ClickRating, judge
from defuser.logs.stream import EdgeFact


def test_the_policys_own_game_is_best_at_every_click() -> None:
    check = simulated_check(4)
    result = judge(check)
    assert (result.stopped, result.needs) == ("", None)
    assert result.counts == {
        ClickRating.BEST: check.actions, ClickRating.SLOWER: 0, ClickRating.RISKY: 0
    }
    assert list(result.counts) == list(ClickRating)
    assert result.extra_clicks == 0
    first = result.judgements[check.steps[0].line]
    assert first.words() == "best" and first.command == first.best_command
    assert first.strike_probability == 0 and first.best_reason


def test_a_random_clicker_is_rated_risky_and_slower() -> None:
    check = simulated_check(1, player="random")
    result = judge(check)
    counts = result.counts
    assert sum(counts.values()) == len(result.judgements) == check.actions
    assert counts[ClickRating.RISKY] >= check.strikes > 0 and counts[ClickRating.SLOWER] > 0
    assert result.extra_clicks == sum(
        j.extra_clicks for j in result.judgements.values()
        if j.verdict is ClickRating.SLOWER) > 0
    for step in check.steps:
        verdict = result.judgements[step.line]
        if step.strike is not None:  # it struck: the player could know it might
            assert verdict.verdict is ClickRating.RISKY and verdict.strike_probability > 0
        if verdict.strike_probability == 1:
            assert verdict.words() == f"risky: a sure strike (best: {verdict.best_command})"
        if verdict.verdict is ClickRating.SLOWER:
            assert verdict.extra_clicks > 0 and verdict.strike_probability == 0
            assert verdict.words().startswith("safe but slower: +")
        assert Fraction(0) <= verdict.mitten_on_top <= 1


def test_without_n_nothing_is_judged_and_the_batteries_are_asked_for() -> None:
    result = judge(simulated_check(4, lines=8, edgework=False))
    assert result.judgements == {}
    assert result.needs is EdgeFact.BATTERIES and result.stopped.startswith("N is not known")
