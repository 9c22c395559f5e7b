"""The belief about the mitten cycle: exact against a brute-force posterior, always
containing the true hidden state, and refusing observations that cannot happen."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from engine_helpers import ALL_ACTIONS, belief_contains
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from hypothesis_sizes import examples

from defuser.engine.actions import Action
from defuser.engine.board import Board
from defuser.engine.deck import DealKind, Hidden
from defuser.engine.simulator import Module, Outcome
from defuser.errors import InvalidObservationError
from defuser.strategy import shipped
from defuser.strategy.belief import CycleBelief, Observation, odds
from defuser.strategy.dp.graph import MODEL_VERSION, graph_from_data
from defuser.strategy.policy import make_policy
from edgework import TABLE_LETTERS, Card, Ruleset, TableLetter

# ---------------------------------------------------------------- brute force


def _stream(n: int, p: int, q: int, js: tuple[int, ...]) -> Iterator[DealKind]:
    """The kinds of the cards dealt, straight from the spec's description of the deck.

    ``p``/``q``: the first cycle's hidden positions; ``js``: each full cycle's Defuse
    place (2..N-1 among its N-1 deals).
    """
    first = n - p
    for k in range(1, first):
        yield DealKind.DEFUSE if q >= p and k == q - p + 1 else DealKind.PLAIN
    yield DealKind.MITTEN
    for j in js:
        for k in range(1, n):
            yield DealKind.DEFUSE if k == j else DealKind.PLAIN
        yield DealKind.MITTEN


def _hidden_after(n: int, p: int, q: int, js: tuple[int, ...], t: int) -> Hidden:
    """(deals until the mitten is on top, deals until the Defuse is on top) after t deals."""
    kinds = list(_stream(n, p, q, js))
    nxt = next(i for i in range(t, len(kinds)) if kinds[i] is DealKind.MITTEN)
    defuse = next((i for i in range(t, nxt) if kinds[i] is DealKind.DEFUSE), None)
    return Hidden(nxt - t, None if defuse is None else defuse - t)


def _brute_posterior(
    n: int, events: list[tuple[str, object]]
) -> dict[tuple[int, int | None], Fraction]:
    """The posterior over hidden states by enumerating every deck (two full cycles)."""
    weights: dict[tuple[int, int | None], Fraction] = {}
    fulls = [(a, b) for a in range(2, n) for b in range(2, n)]
    for p in range(1, n - 1):
        for q in range(0, n - 1):
            for js in fulls:
                kinds = list(_stream(n, p, q, js))
                t = 0
                ok = True
                for what, value in events:
                    if what == "deal":
                        ok = kinds[t] is value
                        t += 1
                    else:
                        ok = (_hidden_after(n, p, q, js, t)[0] == 0) is value
                    if not ok:
                        break
                if ok:
                    h = _hidden_after(n, p, q, js, t)
                    weights[h] = weights.get(h, Fraction(0)) + 1
    total = sum(weights.values(), Fraction(0))
    return {h: w / total for h, w in weights.items()}


@settings(max_examples=examples(40), deadline=None)
@given(
    n=st.integers(9, 10),
    seed=st.integers(0, 10**6),
    length=st.integers(0, 14),
    reveal=st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_belief_equals_brute_force_posterior(
    n: int, seed: int, length: int, reveal: list[bool]
) -> None:
    rng = random.Random(seed)
    p, q = rng.randint(1, n - 2), rng.randint(0, n - 2)
    js = (rng.randint(2, n - 1), rng.randint(2, n - 1))
    kinds = list(_stream(n, p, q, js))
    belief = CycleBelief.initial(n)
    events: list[tuple[str, object]] = []
    for t in range(length):
        if reveal[t]:
            on_top = _hidden_after(n, p, q, js, t)[0] == 0
            events.append(("top", on_top))
            belief = belief.given_on_top(on_top)
        events.append(("deal", kinds[t]))
        belief = belief.after_deal(kinds[t])
        assert belief_contains(belief, _hidden_after(n, p, q, js, t + 1))
    assert dict(belief.support) == _brute_posterior(n, events)


@pytest.mark.parametrize("n", range(9, 14))
def test_first_cycle_facts_from_the_spec(n: int) -> None:
    belief = CycleBelief.initial(n)
    assert belief.mitten_on_top == 0  # the first card dealt is never the mitten
    assert belief.defuse_next == Fraction(1, n - 1)
    for t in range(1, n - 2):
        belief = belief.after_deal(DealKind.PLAIN)
        # m0 stays uniform on [t, N-2]: the mitten is on top with chance 1/(N-1-t).
        assert belief.mitten_on_top == Fraction(1, n - 1 - t)
        assert belief.defuse_next == Fraction(n - 2 - t, (n - 1 - t) ** 2)
        assert belief.given_on_top(False).defuse_next == Fraction(1, n - 1 - t)
        marginal: dict[int, Fraction] = {}
        for (m, _), w in belief.support:
            marginal[m] = marginal.get(m, Fraction(0)) + w
        assert marginal == {m: Fraction(1, n - 1 - t) for m in range(0, n - 1 - t)}
    belief = belief.after_deal(DealKind.PLAIN)
    assert belief.mitten_on_top == 1 and belief.deals_until_on_top == 0


@pytest.mark.parametrize("n", range(9, 14))
def test_full_cycle_is_known_after_the_mitten(n: int) -> None:
    belief = CycleBelief.initial(n).after_deal(DealKind.PLAIN)
    belief = belief.given_on_top(True).after_deal(DealKind.MITTEN)
    assert belief.deals_until_on_top == n - 1 and not belief.first_cycle
    assert belief.defuse_next == 0  # never the first card after the mitten
    belief = belief.after_deal(DealKind.PLAIN)
    for d in range(n - 2, 0, -1):
        assert belief.deals_until_on_top == d
        assert belief.defuse_next == Fraction(1, d)
        belief = belief.after_deal(DealKind.PLAIN if d > 1 else DealKind.DEFUSE)
    assert belief.mitten_on_top == 1 and not belief.defuse_possible


def test_odds_and_description() -> None:
    assert odds(Fraction(1, 5)) == "1 in 5"
    assert odds(Fraction(2, 7)) == "2 in 7"
    belief = CycleBelief.initial(9).after_deal(DealKind.PLAIN)
    assert belief.describe().startswith("the mitten may be on top (1 in 7)")


# ---------------------------------------------------------------- observations

RULES = Ruleset(TableLetter.A, 3)  # mitten BS; Defuse YC, YH, GS


def _started() -> Observation:
    # RC is rule A (identical): only RC is legal; BH, GT illegal.
    return Observation.start(
        RULES, 9, Card.parse("RC"), [Card.parse(c) for c in ("BH", "RC", "GT")]
    )


def _rejects(obs: Observation, event: str, *args: object) -> str:
    with pytest.raises(InvalidObservationError) as info:
        getattr(obs, event)(*args)
    return str(info.value)


def test_contradictions_are_rejected_with_a_reason() -> None:
    obs = _started()
    assert "full" in _rejects(obs, "drew", Card.parse("RT"))
    assert "would strike" in _rejects(obs, "discarded", Card.parse("RT"))
    assert "not legal" in _rejects(obs, "played", 1)
    assert "legal" in _rejects(obs, "strike_play", 2)
    assert "allowed" in _rejects(obs.played(2), "strike_discard")
    assert "no Defuse" in _rejects(obs, "solve")
    after = obs.played(2)  # BH GT on RC: nothing legal, two cards
    assert "never drawn" in _rejects(after, "drew", RULES.mitten)
    assert "always legal" in _rejects(after, "drew", Card.parse("GT"))
    # The first card dealt is never the mitten.
    assert "mitten" in _rejects(after, "discarded", RULES.mitten)
    assert "cannot be on top" in _rejects(after, "strike_draw")
    assert "opening" in _rejects(Observation.new(RULES, 9), "drew", Card.parse("RT"))


def test_a_rejected_event_changes_nothing() -> None:
    obs = _started()
    before = (obs.hand, obs.discard, obs.belief, obs.clicks, obs.strikes)
    with pytest.raises(InvalidObservationError):
        obs.drew(Card.parse("RT"))
    assert (obs.hand, obs.discard, obs.belief, obs.clicks, obs.strikes) == before


def test_defuse_where_none_can_be() -> None:
    # An empty hand never blocks a discard. Deal until the mitten must be on top (by
    # the 8th deal for N=9); then a Defuse as the first card of a full cycle is impossible.
    obs = Observation.start(RULES, 9, Card.parse("RC"), [Card.parse("RC")]).played(1)
    plain = Card.parse("RT")
    while obs.belief.mitten_on_top < 1:
        obs = obs.discarded(plain)
    assert "plain card" in _rejects(obs, "discarded", plain)
    obs = obs.discarded(RULES.mitten)
    assert obs.belief.deals_until_on_top == 8
    assert "first card after a mitten" in _rejects(obs, "discarded", Card.parse("GS"))
    obs = obs.discarded(plain).discarded(Card.parse("GS"))
    assert "already been dealt" in _rejects(obs, "discarded", Card.parse("YC"))


def test_opening_must_follow_the_start_up() -> None:
    obs = Observation.new(RULES, 9)
    assert "mitten" in _rejects(obs, "opening", RULES.mitten, [Card.parse("RC")])
    assert "no legal plain" in _rejects(
        obs, "opening", Card.parse("RC"), [Card.parse(c) for c in ("BH", "GT", "RT")]
    )
    assert "1 to 3" in _rejects(obs, "opening", Card.parse("RC"), [])


def test_strike_facts_move_the_belief() -> None:
    obs = _started().played(2).discarded(Card.parse("RT"))
    assert 0 < obs.belief.mitten_on_top < 1
    struck = obs.strike_draw()
    assert struck.belief.mitten_on_top == 1 and struck.strikes == 1
    # A draw strike with a full hand proves nothing.
    full = Observation.start(
        RULES, 9, Card.parse("RT"), [Card.parse(c) for c in ("RC", "BH", "RT")]
    )
    assert full.strike_draw().belief == full.belief


# ---------------------------------------------------------------- stateful

CONFIGS = [(Ruleset(TableLetter.A, 3), 9), (Ruleset(TableLetter.D, 5), 10)]


class BeliefMachine(RuleBasedStateMachine):
    """Random clicks and policy clicks on a simulated module, the belief kept from the
    visible results only; the true hidden state must always be in its support."""

    module: Module
    obs: Observation

    @initialize(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32))
    def start(self, config: tuple[Ruleset, int], seed: int) -> None:
        rules, n = config
        self.module = Module(rules, n, random.Random(seed))
        self.obs = Observation.start(rules, n, self.module.discard_top, self.module.hand)

    @rule(action=st.sampled_from(ALL_ACTIONS))
    def random_click(self, action: Action) -> None:
        self.obs = self.obs.after(self.module.act(action))

    @rule(name=st.sampled_from(["optimal", "safe", "oracle"]), clicks=st.integers(1, 12))
    def policy_clicks(self, name: str, clicks: int) -> None:
        policy = make_policy(name, self.module.reveal)
        for _ in range(clicks):
            if self.module.solved:
                return
            result = self.module.act(policy.choose(self.obs))
            assert result.outcome is not Outcome.STRIKE, (name, result)
            self.obs = self.obs.after(result)

    @invariant()
    def hidden_state_is_believed(self) -> None:
        if not hasattr(self, "module"):
            return
        assert belief_contains(self.obs.belief, self.module.reveal())
        assert self.obs.belief.first_cycle == self.module.first_cycle
        assert self.obs.hand == self.module.hand
        assert self.obs.discard == self.module.discard_top
        assert self.obs.solved == self.module.solved


TestBeliefMachine = BeliefMachine.TestCase
TestBeliefMachine.settings = settings(
    max_examples=examples(30), stateful_step_count=25, deadline=None
)


def test_random_play_keeps_the_truth_in_the_belief() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        rules = Ruleset(TABLE_LETTERS[seed % 4], seed % 10)
        n = 9 + seed % 5
        module = Module(rules, n, random.Random(seed))
        obs = Observation.start(rules, n, module.discard_top, module.hand)
        for _ in range(120):
            if module.solved:
                break
            obs = obs.after(module.act(rng.choice(ALL_ACTIONS)))
            assert belief_contains(obs.belief, module.reveal())
            assert obs.belief.first_cycle == module.first_cycle


def test_a_defuse_that_must_have_solved_is_the_solve() -> None:
    # Table A: GS is a Defuse. Rule A on RC: only RC is legal, so GS is illegal.
    obs = Observation.start(RULES, 9, Card.parse("RC"), [Card.parse("RC"), Card.parse("GS")])
    assert "cannot be on top" in _rejects(obs, "played", 2)  # first card: never on top
    obs = obs.played(1)  # RC on RC; GS alone, illegal on RC
    obs = obs.discarded(Card.parse("RT"))  # rule A on RT; the mitten may be on top now
    assert 0 < obs.belief.mitten_on_top < 1
    solved = obs.played(1)
    assert solved.solved and solved.belief.mitten_on_top == 1 and solved.hand == ()


def test_equal_beliefs_are_one_object() -> None:
    """Equal beliefs, however reached, are one instance, and so are the phase graph's keys:
    the dictionaries keyed by beliefs on every click (the phase index, the memoised
    updates) find them by identity. Comparing their supports Fraction by Fraction was a
    tenth of `mittens bench`'s per-click time (issue 20)."""
    from defuser.strategy.dp.graph import build_graph

    start = CycleBelief.new_cycle(11)
    one = start.after_deal(DealKind.PLAIN).after_deal(DealKind.PLAIN).after_deal(DealKind.DEFUSE)
    two = start.after_deal(DealKind.PLAIN).after_deal(DealKind.DEFUSE).after_deal(DealKind.PLAIN)
    assert one == two and one is two
    assert CycleBelief.point(11, Hidden(3, None)) is CycleBelief.point(11, Hidden(3, None))
    assert CycleBelief.point(11, Hidden(7, None)) is one
    first = CycleBelief.initial(11).after_deal(DealKind.PLAIN)
    assert first.key == CycleBelief(11, False, first.support) and first.key is first.key
    for oracle in (False, True):
        graph = build_graph(11, oracle=oracle)
        for key in graph.index:
            assert key.key is key
    graph = build_graph(11)
    assert any(key is one for key in graph.index)
    assert graph.phases[graph.find(one)].belief == one


def test_events_leave_the_board_the_rulebook_gives() -> None:
    """An observation after an event carries the board it leaves when the event already
    made it (a play, a solve, a strike); it is the board of its discard top and hand."""
    for seed in range(30):
        module = Module(Ruleset(TableLetter.C, 3), 10, random.Random(seed))
        obs = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
        policy = make_policy("optimal")
        rng = random.Random(seed)
        while not module.solved and obs.clicks < 60:
            action = policy.choose(obs) if rng.random() < 0.7 else rng.choice(ALL_ACTIONS)
            obs = obs.after(module.act(action))
            assert obs.discard is not None
            assert obs.board == Board(obs.rules, obs.discard, obs.hand, obs.solved)
            assert (obs.discard, obs.hand, obs.solved) == (
                module.discard_top, module.hand, module.solved
            )


def test_a_belief_weighs_the_decks_one_hidden_type() -> None:
    """Every belief's support holds ``deck.Hidden`` states: the priors, the updates, and
    the phase graphs read back from the shipped data."""
    beliefs = [CycleBelief.initial(12), CycleBelief.new_cycle(12)]
    beliefs += [b.after_deal(DealKind.PLAIN) for b in beliefs]
    data = shipped.load_graph(12, model=MODEL_VERSION)
    beliefs += [phase.belief for phase in graph_from_data(data, 12).phases]
    assert {type(h) for b in beliefs for h, _ in b.support} == {Hidden}
