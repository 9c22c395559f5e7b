"""Stateful test: the simulator against the naive oracle of ``oracle_module``.

Hypothesis picks the edgework, the seed, the hidden first cycle (p, q) and either the
module's own random start-up or an arbitrary injected discard top and hand (so rare
states, a Defuse or a mitten face in hand, an empty hand, come up often). Then it
clicks at random and copies the module; after every step the outcome, the card moved,
the visible state, the hidden state and every log line must agree with the oracle.
"""

from __future__ import annotations

import random

import oracle_manual as manual
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)
from hypothesis_sizes import examples
from oracle_manual import Face
from oracle_module import NaiveModule

from defuser.engine.actions import Action, ActionKind
from defuser.engine.deck import Hidden
from defuser.engine.simulator import Module, Outcome, Result
from edgework import TABLE_LETTERS, Card, Ruleset, TableLetter, interval_for

FACES = [(c, s) for s in ("circle", "heart", "triangle", "square")
         for c in ("red", "blue", "green", "yellow")]


def face(card: Card) -> Face:
    return (card.colour.word, card.shape.word)


def card(f: Face) -> Card:
    return Card.parse(f"{f[0]} {f[1]}")


faces = st.sampled_from(FACES)


class SimulatorVersusOracle(RuleBasedStateMachine):
    """Drive :class:`Module` and :class:`NaiveModule` side by side."""

    def __init__(self) -> None:
        super().__init__()
        self.sim: Module
        self.oracle: NaiveModule
        self.clicks = 0

    @initialize(
        table=st.sampled_from(TABLE_LETTERS),
        digit=st.integers(0, 9),
        batteries=st.integers(0, 14),
        seed=st.integers(0, 2**32),
        data=st.data(),
        start_mode=st.sampled_from(["random", "injected"]),
        hidden_mode=st.sampled_from(["given", "random"]),
        module_id=st.integers(1, 3),
    )
    def start(
        self,
        table: TableLetter,
        digit: int,
        batteries: int,
        seed: int,
        data: st.DataObject,
        start_mode: str,
        hidden_mode: str,
        module_id: int,
    ) -> None:
        n = manual.interval(batteries)
        assert interval_for(batteries) == n
        rules = Ruleset(table, digit)
        p = data.draw(st.integers(1, n - 2), label="p")
        q = data.draw(st.integers(0, n - 2), label="q")
        start: tuple[Card, list[Card]] | None = None
        if start_mode == "injected":
            discard = data.draw(faces, label="discard")
            hand = data.draw(st.lists(faces, max_size=3), label="hand")
            start = (card(discard), [card(f) for f in hand])
        mitten_deal, defuse_deal = NaiveModule.first_cycle(n, p, q)
        hidden = None
        if hidden_mode == "given":
            hidden = Hidden(mitten_deal - 1, None if defuse_deal is None else defuse_deal - 1)
        self.sim = Module(rules, n, random.Random(seed), module_id, start=start, hidden=hidden)
        if start_mode == "random":
            self.check_random_start(table, digit)
        truth = self.sim.reveal()
        assert self.sim.first_cycle
        # The first card dealt is never the mitten; the mitten is card 2..N-1.
        assert 1 <= truth.deals_until_mitten <= n - 2
        if truth.defuse_in is not None:
            assert 0 <= truth.defuse_in < truth.deals_until_mitten
        self.oracle = NaiveModule.start(
            table, digit, n, face(self.sim.discard_top), [face(c) for c in self.sim.hand],
            1, 0, module_id,
        )
        self.oracle.next_mitten_deal = truth.deals_until_mitten + 1
        self.oracle.defuse_deal = None if truth.defuse_in is None else truth.defuse_in + 1
        if hidden_mode == "given":
            assert self.oracle.next_mitten_deal == mitten_deal
            assert self.oracle.defuse_deal == defuse_deal

    def check_random_start(self, table: str, digit: int) -> None:
        """The spec's start-up: discard not the mitten, three cards, one legal plain."""
        discard = face(self.sim.discard_top)
        hand = [face(c) for c in self.sim.hand]
        assert discard != manual.mitten_face(table)
        assert len(hand) == 3
        assert manual.card_type(table, hand[2]) not in ("Defuse", "Exploding Mitten")
        assert any(
            manual.is_legal(table, digit, c, discard)
            and manual.card_type(table, c) not in ("Defuse", "Exploding Mitten")
            for c in hand
        )

    # ------------------------------------------------------------ clicks

    def click(self, action: Action) -> None:
        before_hand = self.sim.hand
        self.clicks += 1
        kind = action.kind.value
        allowed = None
        if self.oracle.predict(kind, action.slot).deals:
            allowed = self.oracle.allowed_faces(kind)
        result = self.sim.act(action)
        assert self.sim.history[-1] == result
        dealt = face(result.card) if allowed is not None and result.card is not None else None
        if dealt is not None and allowed is not None:
            assert dealt in allowed
        place = None
        truth = self.sim.reveal()
        if dealt is not None and dealt == manual.mitten_face(self.oracle.table) and (
            self.oracle.deals + 1 == self.oracle.next_mitten_deal
        ):
            assert truth.defuse_in is not None
            place = truth.defuse_in + 1
        expected = self.oracle.apply(kind, action.slot, dealt, place)
        event(f"{kind}: {result.outcome.value} {result.strike.value if result.strike else ''}")
        if place is not None:
            event("a mitten was dealt")
        if allowed is not None and len(allowed) < 10:
            event("a restricted deal (guaranteed-legal draw, Defuse or mitten)")
        self.compare(result, expected.kind, expected.strike, expected.blocking, before_hand)

    def compare(
        self,
        result: Result,
        kind: str,
        strike: str | None,
        blocking: list[int],
        before_hand: tuple[Card, ...],
    ) -> None:
        assert result.outcome.value == kind
        assert (result.strike.value if result.strike else None) == strike
        assert list(result.blocking_slots) == blocking
        new_lines = self.oracle.log[len(self.oracle.log) - len(result.log) :]
        assert list(result.log) == (new_lines if result.log else [])
        slot = result.action.slot
        if result.outcome is Outcome.NOTHING or (
            result.outcome is Outcome.STRIKE and result.action.kind is not ActionKind.PLAY
        ):
            assert result.card is None
        elif result.action.kind is ActionKind.PLAY:
            assert slot is not None
            assert result.card == before_hand[slot - 1]
        else:
            assert result.card is not None

    @rule()
    def draw(self) -> None:
        self.click(Action(ActionKind.DRAW))

    @rule()
    def discard(self) -> None:
        self.click(Action(ActionKind.DISCARD))

    @rule(slot=st.integers(1, 3))
    def play(self, slot: int) -> None:
        self.click(Action(ActionKind.PLAY, slot))

    @rule(count=st.integers(1, 20), solve=st.booleans())
    def play_well(self, count: int, solve: bool) -> None:
        """Sensible clicks (peeking at the truth, as only a test may) to go deep;
        without ``solve`` it discards the mitten instead, to reach later cycles."""
        for _ in range(count):
            self.click(self.good_action(solve))

    def good_action(self, solve: bool) -> Action:
        sim = self.sim
        on_top = sim.reveal().deals_until_mitten == 0
        defuses = [i for i, c in enumerate(sim.hand, 1) if sim.rules.type_of(c).value == "Defuse"]
        if on_top and defuses and solve:
            return Action(ActionKind.PLAY, defuses[0])
        playable = [i for i in sim.legal_slots if i not in defuses]
        if playable:
            return Action(ActionKind.PLAY, playable[0])
        if on_top or len(sim.hand) == 3:
            return Action(ActionKind.DISCARD)
        return Action(ActionKind.DRAW)

    @rule(index=st.integers(0, 4))
    def copies_agree(self, index: int) -> None:
        action = [
            Action(ActionKind.DRAW),
            Action(ActionKind.DISCARD),
            *(Action(ActionKind.PLAY, s) for s in (1, 2, 3)),
        ][index]
        log_length = len(self.sim.log)
        first, second = self.sim.copy(), self.sim.copy()
        assert first.act(action) == second.act(action)
        assert first.log == second.log and first.reveal() == second.reveal()
        assert len(self.sim.log) == log_length

    # ------------------------------------------------------------ invariants

    @invariant()
    def same_state(self) -> None:
        sim, oracle = self.sim, self.oracle
        assert sim.log == oracle.log
        assert face(sim.discard_top) == oracle.discard
        assert [face(c) for c in sim.hand] == oracle.hand
        assert sim.strikes == oracle.strikes
        assert sim.solved == oracle.solved
        assert sim.deals == oracle.deals
        assert len(sim.history) == sim.clicks == self.clicks
        truth = sim.reveal()
        assert truth.deals_until_mitten == oracle.next_mitten_deal - oracle.deals - 1
        expected_defuse = (
            None if oracle.defuse_deal is None else oracle.defuse_deal - oracle.deals - 1
        )
        assert truth.defuse_in == expected_defuse
        assert sim.first_cycle == (oracle.mittens_dealt == 0)


# Deeper and more runs than the profile's default: each run is cheap, and the deck's
# later cycles need long games to come up.
SimulatorVersusOracle.TestCase.settings = settings(
    max_examples=examples(200), stateful_step_count=80
)
TestSimulatorVersusOracle = SimulatorVersusOracle.TestCase
