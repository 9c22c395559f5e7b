"""The deck's rules, written once: the random draws stay inside the priors the belief
enumerates, and the opening distribution covers exactly what the opening deal can give."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable

import pytest

from defuser.engine import deck
from defuser.engine.deck import DealKind
from defuser.engine.simulator import Module, Outcome
from edgework import INTERVALS, Card, Ruleset, TableLetter


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
    rules = Ruleset(TableLetter.B, 4)
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


def _cycle_deals(prior: Iterable[deck.Hidden]) -> set[tuple[int, bool, DealKind]]:
    """Every (deals until the mitten, Defuse dealt already, kind dealt) the cycle runs
    through from these hidden states, up to its mitten."""
    seen = set()
    for hidden in prior:
        dealt = False
        while hidden[0] > 0:
            kind = deck.next_deal(hidden)
            seen.add((hidden[0], dealt, kind))
            dealt = dealt or kind is DealKind.DEFUSE
            hidden = deck.after_deal(hidden)
    return seen


@pytest.mark.parametrize("n", INTERVALS)
@pytest.mark.parametrize("full_cycle", [False, True])
def test_a_deal_breaks_the_cycle_exactly_when_the_cycle_never_deals_it(
    n: int, full_cycle: bool
) -> None:
    """``deal_breach`` (what the log replay asks) against the cycle as the deck runs
    it: at every place a deal reaches, the kinds it allows are the kinds dealt there."""
    prior = deck.new_cycle_prior(n) if full_cycle else deck.first_cycle_prior(n)
    dealt = _cycle_deals(prior)
    places = {(until, done) for until, done, _ in dealt}
    assert places
    for until, done in places:
        allowed = {
            kind for kind in DealKind
            if deck.deal_breach(kind, until, defuse_dealt=done, full_cycle=full_cycle,
                                interval=n) is None
        }
        assert allowed == {k for u, d, k in dealt if (u, d) == (until, done)}, (until, done)


def test_each_breach_of_the_cycle_is_named() -> None:
    n = 7
    breach = deck.CycleBreach
    assert deck.deal_breach(DealKind.MITTEN, 3, defuse_dealt=False, full_cycle=True,
                            interval=n) is breach.MITTEN_EARLY
    assert deck.deal_breach(DealKind.DEFUSE, 3, defuse_dealt=True, full_cycle=False,
                            interval=n) is breach.SECOND_DEFUSE
    assert deck.deal_breach(DealKind.DEFUSE, deck.cycle_length(n), defuse_dealt=False,
                            full_cycle=True, interval=n) is breach.DEFUSE_FIRST
    assert deck.deal_breach(DealKind.PLAIN, 1, defuse_dealt=False, full_cycle=True,
                            interval=n) is breach.DEFUSE_DUE
    # N not known: a Defuse's place is not checked.
    assert deck.deal_breach(DealKind.DEFUSE, deck.cycle_length(n), defuse_dealt=False,
                            full_cycle=True, interval=None) is None


def test_the_hidden_deck_has_one_type() -> None:
    """The cycle's functions, the simulator's hidden deck and what ``reveal`` returns are
    all ``deck.Hidden``; whether the first mitten was dealt is the module's visible
    ``first_cycle``, true until the mitten is dealt and false after."""
    n, rng = 10, random.Random(3)
    states = [*deck.first_cycle_prior(n), *deck.new_cycle_prior(n)]
    states += [deck.random_first_cycle(n, rng), deck.random_new_cycle(n, rng)]
    states += [deck.after_deal(h) for h in states if deck.next_deal(h) is not DealKind.MITTEN]
    assert {type(h) for h in states} == {deck.Hidden}
    assert deck.Hidden(3, None) == (3, None) and deck.Hidden(3, 0).defuse_in == 0
    # An empty hand never blocks a discard: every click deals; the second is the mitten.
    start: tuple[Card, list[Card]] = (Card.RED_CIRCLE, [])
    module = Module(Ruleset(TableLetter.B, 4), n, rng, start=start, hidden=deck.Hidden(1, None))
    for _ in range(3 * n):
        assert type(module.reveal()) is deck.Hidden
        assert module.first_cycle == (module.deals < 2)
        assert module.discard().outcome is Outcome.OK
    assert module.deals == 3 * n and not module.first_cycle
