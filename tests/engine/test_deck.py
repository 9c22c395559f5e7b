"""The deck's rules, written once: the random draws stay inside the priors the belief
enumerates, and the opening distribution covers exactly what the opening deal can give."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from defuser.engine import deck
from defuser.engine.deck import DealKind
from edgework import INTERVALS, Card, Ruleset


@pytest.mark.parametrize("n", INTERVALS)
def test_random_cycles_stay_inside_their_priors(n: int) -> None:
    rng = random.Random(n)
    first = set(deck.first_cycle_prior(n))
    fresh = set(deck.new_cycle_prior(n))
    assert {deck.random_first_cycle(n, rng) for _ in range(2000)} == first
    assert {deck.random_new_cycle(n, rng) for _ in range(2000)} == fresh
    assert {until for until, _ in first} == set(deck.first_mitten_distances(n))
    assert all(until == deck.cycle_length(n) for until, _ in fresh)


@pytest.mark.parametrize("n", INTERVALS)
def test_a_full_cycle_deals_one_defuse_at_an_allowed_place_then_the_mitten(n: int) -> None:
    for hidden in deck.new_cycle_prior(n):
        kinds = []
        while deck.next_deal(hidden) is not DealKind.MITTEN:
            kinds.append(deck.next_deal(hidden))
            hidden = deck.after_deal(hidden)
        assert len(kinds) == deck.cycle_length(n)
        assert kinds.count(DealKind.DEFUSE) == 1
        place = kinds.index(DealKind.DEFUSE) + 1
        assert place in deck.defuse_places(n)
        assert deck.place_in_cycle(n, deck.cycle_length(n) - place + 1) == place


def test_the_opening_distribution_matches_the_opening_deal() -> None:
    rules = Ruleset("B", 4)
    dist = deck.opening_distribution(rules)
    assert math.isclose(sum(dist.values()), 1.0)
    rng = random.Random(11)
    draws = 20000
    seen: Counter[tuple[Card, tuple[Card, ...]]] = Counter()
    for _ in range(draws):
        discard, hand = deck.random_opening(rules, rng)
        assert deck.opening_has_legal_plain(rules, discard, hand)
        assert discard in deck.opening_discards(rules)
        seen[discard, tuple(hand)] += 1
    assert set(seen) <= set(dist)
    # The commonest openings come up about as often as the distribution says.
    for state, count in seen.most_common(5):
        assert abs(count / draws - dist[state]) < 0.01
