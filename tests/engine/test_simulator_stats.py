"""Statistical tests of the simulator's deck and start-up, with fixed seeds.

Each test samples many modules with fixed seeds and compares the counts with what the
spec implies: exact-binomial-style bounds at five standard deviations and chi-square
bounds at the 5-sigma quantile (Wilson-Hilferty), so a correct simulator passes with
any seeds and a wrong distribution fails by a wide margin. Structural facts (the
mitten every N-th deal, one Defuse per full cycle) are checked on every sample.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from defuser.engine.actions import Action, ActionKind
from defuser.engine.deck import Hidden
from defuser.engine.simulator import Module
from edgework import TABLE_LETTERS, Card, CardType, Ruleset, TableLetter

SIGMAS = 5.0
DISCARD = Action(ActionKind.DISCARD)
DRAW = Action(ActionKind.DRAW)


def chi_square_limit(df: int, z: float = SIGMAS) -> float:
    """The chi-square quantile for ``df`` degrees of freedom at ``z`` sigmas."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def chi_square(observed: Sequence[int], probabilities: Sequence[float]) -> float:
    """Pearson's statistic for counts against cell probabilities."""
    total = sum(observed)
    cells = zip(observed, probabilities, strict=True)
    return sum((o - total * p) ** 2 / (total * p) for o, p in cells)


def assert_uniform(counts: Counter[int] | Counter[Card], support: Iterable[object]) -> None:
    """Counts over exactly ``support``, uniform within the chi-square bound."""
    cells = list(support)
    assert set(counts) <= set(cells), f"values outside {cells}: {set(counts) - set(cells)}"
    observed = [counts.get(c, 0) for c in cells]  # type: ignore[call-overload]
    if len(cells) == 1:
        return
    stat = chi_square(observed, [1 / len(cells)] * len(cells))
    assert stat < chi_square_limit(len(cells) - 1), (stat, observed)


def assert_binomial(successes: int, trials: int, p: float) -> None:
    """``successes`` out of ``trials`` is within five sigmas of ``trials * p``."""
    mean = trials * p
    sd = math.sqrt(trials * p * (1 - p))
    assert abs(successes - mean) <= SIGMAS * sd + 1, (successes, trials, p, mean)


def deal_sequence(module: Module, deals: int) -> list[Card]:
    """Discard ``deals`` times from an empty hand (always allowed); the cards dealt."""
    cards = []
    for _ in range(deals):
        result = module.act(DISCARD)
        assert result.card is not None
        cards.append(result.card)
    return cards


def empty_hand_module(rules: Ruleset, n: int, seed: int) -> Module:
    return Module(rules, n, random.Random(seed), start=(Card.RED_CIRCLE, []))


# ------------------------------------------------------------------ the deck


def test_mitten_every_nth_deal_and_one_defuse_per_full_cycle() -> None:
    for rules, n in ((Ruleset(TableLetter.A, 3), 9), (Ruleset(TableLetter.D, 0), 13)):
        places: Counter[int] = Counter()
        plain: Counter[Card] = Counter()
        defuse_faces: Counter[Card] = Counter()
        module = empty_hand_module(rules, n, 1000 + n)
        cards = deal_sequence(module, 400 * n)
        mittens = [i for i, c in enumerate(cards) if c == rules.mitten]
        assert 2 <= mittens[0] + 1 <= n - 1
        assert all(b - a == n for a, b in itertools.pairwise(mittens))
        for a, b in itertools.pairwise(mittens):
            cycle = cards[a + 1 : b]
            where = [j for j, c in enumerate(cycle, start=1)
                     if rules.type_of(c) is CardType.DEFUSE]
            assert len(where) == 1, cycle
            places[where[0]] += 1
        for c in cards[mittens[0] + 1 :]:
            kind = rules.type_of(c)
            if kind is CardType.DEFUSE:
                defuse_faces[c] += 1
            elif kind.is_plain:
                plain[c] += 1
        assert_uniform(places, range(2, n))
        assert_uniform(plain, rules.plain_faces)
        assert_uniform(defuse_faces, rules.defuse_faces)


def test_first_cycle_from_deals() -> None:
    """First mitten uniform over deals 2..N-1; its Defuse present with chance m/(N-1)."""
    rules, n = Ruleset(TableLetter.B, 7), 11
    first: Counter[int] = Counter()
    present: Counter[int] = Counter()
    for seed in range(3000):
        module = empty_hand_module(rules, n, seed)
        cards = deal_sequence(module, n - 1)
        k = cards.index(rules.mitten) + 1
        first[k] += 1
        defuses = [c for c in cards[: k - 1] if rules.type_of(c) is CardType.DEFUSE]
        assert len(defuses) <= 1
        present[k] += len(defuses)
    assert_uniform(first, range(2, n))
    assert_binomial(sum(present.values()), sum(first.values()), 0.5)
    for k in range(2, n):
        assert_binomial(present[k], first[k], (k - 1) / (n - 1))


def test_first_cycle_distribution_of_hidden_state() -> None:
    """The spec's p and q: mitten card N-p, Defuse card q-p+1 when q >= p, checked
    through reveal() on many fresh modules for every N."""
    for n in range(9, 14):
        rules = Ruleset(TableLetter.C, n % 10)
        first: Counter[int] = Counter()
        cells: Counter[tuple[int, int]] = Counter()
        present = 0
        trials = 2500
        for seed in range(trials):
            module = Module(rules, n, random.Random(seed * 31 + n))
            hidden = module.reveal()
            assert module.first_cycle
            k = hidden.deals_until_mitten + 1  # the mitten is the k-th card dealt
            first[k] += 1
            if hidden.defuse_in is not None:
                present += 1
                cells[(k, hidden.defuse_in + 1)] += 1
        assert_uniform(first, range(2, n))
        assert_binomial(present, trials, 0.5)
        for k in range(2, n):
            here = sum(v for (kk, _), v in cells.items() if kk == k)
            assert_binomial(here, first[k], (k - 1) / (n - 1))
            if k > 2:  # given present, the Defuse is uniform over cards 1..k-1
                assert_uniform(
                    Counter({d: v for (kk, d), v in cells.items() if kk == k}), range(1, k)
                )


# ------------------------------------------------------------------ the guaranteed draw


def draws_into(
    rules: Ruleset, discard: Card, hand: list[Card], hidden: Hidden, samples: int
) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for seed in range(samples):
        module = Module(rules, 10, random.Random(seed), start=(discard, hand), hidden=hidden)
        result = module.act(DRAW)
        assert result.card is not None
        counts[result.card] += 1
    return counts


def test_draw_into_two_illegal_cards_is_legal_and_uniform() -> None:
    rules = Ruleset(TableLetter.A, 3)

    def legal_plain_on(discard: Card) -> list[Card]:
        return [c for c in rules.plain_faces if rules.is_legal(c, discard)]

    discard = next(d for d in Card if 3 <= len(legal_plain_on(d)) <= 6)
    legal_plain = legal_plain_on(discard)
    illegal = [c for c in rules.plain_faces if not rules.is_legal(c, discard)]
    plain_next = Hidden(5, None)
    counts = draws_into(rules, discard, illegal[:2], plain_next, 2000)
    assert_uniform(counts, legal_plain)
    # With one legal card of two, or one card only, the draw is any plain face.
    for hand in ([illegal[0], legal_plain[0]], [illegal[0]]):
        assert_uniform(draws_into(rules, discard, hand, plain_next, 2000), rules.plain_faces)
    # The cycle's Defuse comes as a Defuse even into two illegal cards.
    defuse_next = Hidden(5, 0)
    counts = draws_into(rules, discard, illegal[:2], defuse_next, 600)
    assert_uniform(counts, rules.defuse_faces)


def test_every_discard_admits_some_plain_face() -> None:
    """The guaranteed draw always has a face to give: exhaustive over tables and digits."""
    for table in TABLE_LETTERS:
        for digit in range(10):
            rules = Ruleset(table, digit)
            for discard in Card:
                assert any(rules.is_legal(c, discard) for c in rules.plain_faces)


# ------------------------------------------------------------------ start-up


def start_probabilities(rules: Ruleset) -> tuple[float, float]:
    """Exact chances that the start hand holds (a non-plain face, a mitten face).

    The re-roll loop runs only when the three plain cards are all illegal. Each round
    it stops exactly when the new face is legal and plain (chance a = l/16); the other
    of slots 1-2 was replaced at least once with chance 1 - 2a/(1+a), and its last
    replacement is uniform over the 16-l faces that are not legal-and-plain.
    """
    plain = len(rules.plain_faces)
    nonplain = 16 - plain
    any_nonplain = mitten = 0.0
    discards = [c for c in Card if c != rules.mitten]
    for discard in discards:
        legal = sum(rules.is_legal(c, discard) for c in rules.plain_faces)
        a = legal / 16
        enter = (1 - legal / plain) ** 3
        replaced = 1 - 2 * a / (1 + a)
        any_nonplain += enter * replaced * nonplain / (16 - legal) / len(discards)
        mitten += enter * replaced / (16 - legal) / len(discards)
    return any_nonplain, mitten


def test_start_up_hand_frequencies() -> None:
    rules = Ruleset(TableLetter.A, 5)
    p_nonplain, p_mitten = start_probabilities(rules)
    trials = 12000
    discards: Counter[Card] = Counter()
    slot3: Counter[Card] = Counter()
    nonplain = mitten = defuse = 0
    for seed in range(trials):
        module = Module(rules, 9, random.Random(seed))
        hand, top = module.hand, module.discard_top
        assert len(hand) == 3
        discards[top] += 1
        slot3[hand[2]] += 1
        assert any(rules.is_legal(c, top) and rules.type_of(c).is_plain for c in hand)
        odd = [i for i, c in enumerate(hand, 1) if not rules.type_of(c).is_plain]
        assert len(odd) <= 1 and 3 not in odd
        nonplain += bool(odd)
        mitten += rules.mitten in hand
        defuse += any(rules.type_of(c) is CardType.DEFUSE for c in hand)
    assert_uniform(discards, [c for c in Card if c != rules.mitten])
    assert_uniform(slot3, rules.plain_faces)
    assert_binomial(nonplain, trials, p_nonplain)
    assert_binomial(mitten, trials, p_mitten)
    assert_binomial(defuse, trials, p_nonplain - p_mitten)
