"""A configuration's values: expected clicks to the solve from every state of every phase.

Contract: a :class:`Solution` holds the values of one (rule set, N, player or oracle),
computed from its phase graph (:mod:`defuser.strategy.dp.graph`), the rulebook's safe
clicks per state (:mod:`defuser.strategy.dp.clicks`) and the values at a new cycle's
start (found by :func:`~defuser.strategy.dp.iteration.solve`, or stored). Values are
computed from beliefs and the visible state only; this never looks at a simulator's
hidden state. Every click costs 1; a state's value is one click plus the cheapest safe
click's value after it, a deal's value the average over what it can bring: the arithmetic
of :mod:`defuser.strategy.dp.expectation`, the very one numpy's evaluation does, so a
value on demand is the float the evaluation in full gives.

The recurring phases can be evaluated in full (numpy, :mod:`defuser.strategy.dp.arrays`);
the first, partial cycle is valued on demand, state by state, and memoised: from any
first-cycle state only a handful of states are reachable, since the hand cannot grow
while the mitten may be on top. A process that answers from a stored fixed point
(:meth:`Solution.from_cycle_value`) never loads numpy for the first cycle, nor for a
later one, whose first question needs most states of every recurring phase: the package
ships those phases' values for the hands with room for a draw (numpy's own evaluation,
to the bit; see :func:`later_room_values`), and a full hand's value follows from them
with the same arithmetic in a few operations (:class:`ShippedPhase`), so a later
cycle's answers cost milliseconds without numpy (whose import alone costs as much as a
process start).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final, cast

from defuser.engine.deck import DealKind
from defuser.strategy import shipped
from defuser.strategy.dp.arrays import PhaseArrays, arrays_for
from defuser.strategy.dp.clicks import Choice, OptionKind, RuleTables, choice_of, tables_for
from defuser.strategy.dp.expectation import (
    SOLVED,
    after_click,
    deal_value,
    face_weight,
    probe_value,
)
from defuser.strategy.dp.graph import (
    MODEL_VERSION,
    Mode,
    Phase,
    PhaseGraph,
    build_graph,
    later_phases,
)
from defuser.strategy.dp.states import (
    FACES,
    HAND_COUNT,
    HAND_FACES,
    ROOM_STATES,
    STATES,
    add_row,
)
from edgework import MisuseError, Ruleset

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]

#: A solution computes this many states' values one by one (a first answer needs a few
#: thousand at most) before it evaluates every phase in full, vectorised: a question
#: with many draws ahead would otherwise take seconds state by state. (A later cycle's
#: phases are evaluated in full when first asked about, whatever is left of this.)
LAZY_VALUES: Final = 20_000


class _PhaseDeals:
    """A phase's deals laid out for the on-demand path: per kind that keeps the cycle
    going its probability, successor phase and whether it deals a plain card, and the
    chance of the mitten (summed in the phase's order); the faces a discard can show
    with their :func:`~defuser.strategy.dp.expectation.face_weight` (a draw's are the
    state's own, :meth:`~defuser.strategy.dp.clicks.RuleTables.draw_faces`). A plain
    class: a dataclass costs start-up time to define, and these are only read."""

    __slots__ = ("defuse_weight", "defuses", "mitten", "outcomes", "plain", "plain_weight")

    def __init__(self, phase: Phase, tabs: RuleTables) -> None:
        """The layout of ``phase`` under ``tabs``' rule set."""
        self.outcomes = tuple(
            (o.probability, o.phase, o.kind is DealKind.PLAIN)
            for o in phase.outcomes
            if o.kind is not DealKind.MITTEN
        )
        mitten = 0.0
        for o in phase.outcomes:
            if o.kind is DealKind.MITTEN:
                mitten += o.probability
        self.mitten = mitten
        self.plain = tuple(tabs.plain)
        self.defuses = tuple(tabs.defuses)
        self.plain_weight = face_weight(len(self.plain))
        self.defuse_weight = face_weight(len(self.defuses))


class ShippedPhase:
    """A recurring phase's values from the values shipped for a later cycle: the states
    whose hand has room for a draw as stored (:data:`ROOM_STATES` of them), and a full
    hand's value worked out when first asked, by the solution's on-demand path
    (:mod:`defuser.strategy.dp.expectation`'s arithmetic, the one numpy's evaluation
    uses), so every value is the float numpy's evaluation gives. A full hand cannot
    draw: its value needs its discard (the same hand in the next phases, down to the
    cycle's start values) and plays that lead to stored states, never a whole phase.

    A plain class: a dataclass costs start-up time to define.
    """

    __slots__ = ("full_hands", "index", "room", "solution")

    def __init__(self, solution: Solution, index: int, room: list[float]) -> None:
        """Phase ``index`` of ``solution``, whose room states hold ``room``."""
        self.solution = solution
        self.index = index
        self.room = room
        self.full_hands: dict[int, float] = {}

    def __getitem__(self, state: int) -> float:
        """The value of ``state`` in this phase."""
        if state < ROOM_STATES:
            return self.room[state]
        found = self.full_hands.get(state)
        if found is None:
            found = self.full_hands[state] = self.solution.best_value(self.index, state)
        return found


class Solution:
    """Every state's value for one (table, last digit, N), for the player or the oracle.

    The phases that recur every cycle are solved in full (one list per phase); the
    first, partial cycle is solved on demand, state by state, and memoised: from any
    first-cycle state only a handful of states are reachable, since the hand cannot grow
    while the mitten may be on top.
    """

    def __init__(
        self,
        rules: Ruleset,
        interval: int,
        graph: PhaseGraph,
        values: list[FloatArray | None],
        cycle_value: list[float],
        sweeps: int,
    ) -> None:
        self.rules = rules
        self.interval = interval
        self.graph = graph
        self.tables = tables_for(rules.table, rules.last_digit)
        #: Per phase, every state's value (``None`` until evaluated): a numpy array, or
        #: a later cycle's shipped values (:class:`ShippedPhase`).
        self.full: list[FloatArray | ShippedPhase | None] = list(values)
        #: Expected clicks from the start of a new cycle, per hand (discard = the mitten).
        self.cycle_value = cycle_value
        self.sweeps = sweeps
        #: On-demand values, keyed ``phase * STATES + state``.
        self._memo: dict[int, float] = {}
        #: Values still to compute one by one before evaluating every phase is cheaper.
        self._lazy_left = LAZY_VALUES
        #: Phases only a later cycle reaches: the first question there gives every
        #: recurring phase all its values at once (shipped, or evaluated), since a
        #: cycle's start reaches most of their states.
        self._later = later_phases(graph)
        self._modes = [ph.mode for ph in graph.phases]
        self._safe = [mode is Mode.SAFE for mode in self._modes]
        self._deals = [_PhaseDeals(ph, self.tables) for ph in graph.phases]
        #: Values shared by the states of a phase without draws that differ only in a
        #: discard top admitting the same cards of the hand (see :meth:`value`).
        self._alike: dict[int, float] = {}
        #: Discard values, which depend on the phase and the hand only.
        self._discards: dict[int, float] = {}

    @property
    def arrays(self) -> PhaseArrays:
        """The rule set's index arrays, with which a phase is evaluated in full (numpy;
        built on first use)."""
        return arrays_for(self.rules.table, self.rules.last_digit)

    def _fill_recurrent(self) -> None:
        """Give every recurring phase all its values, from the cycle's start values (one
        sweep); a solution built from known start values (:meth:`from_cycle_value`)
        has none of them until it needs many (see :data:`LAZY_VALUES`).

        The values shipped for a later cycle (:func:`~defuser.strategy.shipped.load_later`)
        are used when they were computed from these very start values: then no numpy
        is needed, and a full hand's value is worked out when asked (:class:`ShippedPhase`).
        Otherwise numpy evaluates each phase in full; the values are the same floats.
        """
        recurrent = [i for i, ph in enumerate(self.graph.phases) if ph.recurrent]
        if all(self.full[i] is None for i in recurrent):
            room = shipped.load_later(
                self.rules, self.interval, model=MODEL_VERSION,
                size=len(recurrent) * ROOM_STATES, start=self.cycle_value,
                oracle=self.graph.oracle,
            )
            if room is not None:
                for k, i in enumerate(recurrent):
                    stored = room[k * ROOM_STATES : (k + 1) * ROOM_STATES]
                    self.full[i] = ShippedPhase(self, i, stored)
                return
        self.evaluate_phases(recurrent=True)

    def evaluate_phases(self, *, recurrent: bool) -> None:
        """Evaluate with numpy every phase (only the recurring ones if ``recurrent``)
        that has no values yet; shipped values are first replaced by evaluated ones."""
        for i, found in enumerate(self.full):
            if isinstance(found, ShippedPhase):
                self.full[i] = None
        arrays = cast("list[FloatArray | None]", self.full)
        for i in self.graph.order:
            if arrays[i] is None and (self.graph.phases[i].recurrent or not recurrent):
                arrays[i] = self.arrays.evaluate(self.graph.phases[i], arrays, self.cycle_value)

    @classmethod
    def from_cycle_value(
        cls, rules: Ruleset, interval: int, cycle_value: list[float], *, oracle: bool = False
    ) -> Solution:
        """A solution from its cycle-start values alone (a stored fixed point), no sweep.

        Every value follows from them: on demand at first, then all at once, vectorised,
        when many are needed (:data:`LAZY_VALUES`).
        """
        if len(cycle_value) != HAND_COUNT:
            raise MisuseError(f"expected {HAND_COUNT} cycle-start values, got {len(cycle_value)}")
        graph = build_graph(interval, oracle=oracle)
        return cls(rules, interval, graph, [None] * len(graph.phases), list(cycle_value), 0)

    def complete(self) -> None:
        """Evaluate every phase in full (bulk use: expectations, tests; and by itself once
        :data:`LAZY_VALUES` states were computed one by one)."""
        self.evaluate_phases(recurrent=False)
        self._memo.clear()
        self._alike.clear()
        self._discards.clear()

    def value(self, phase: int, state: int) -> float:
        """Expected clicks to the solve from ``state`` in ``phase``, playing optimally."""
        key = phase * STATES + state
        known = self._memo.get(key)
        if known is not None:
            return known
        full = self.full[phase]
        if full is None and self._lazy_left <= 0:
            self.complete()
            full = self.full[phase]
        elif full is None and self._later[phase]:
            self._fill_recurrent()
            full = self.full[phase]
        if full is not None:
            return float(full[state])
        if self._safe[phase]:
            self._lazy_left -= 1
            found = self.best_value(phase, state)
        else:
            h, d = divmod(state, FACES)
            alike = (phase * HAND_COUNT + h) << FACES | self.tables.legal[d] & HAND_FACES[h]
            found = self._alike.get(alike) or self._shared(phase, state, alike)
        self._memo[key] = found
        return found

    def _shared(self, phase: int, state: int, alike: int) -> float:
        """The on-demand value of a state in a phase without draws, computed once for
        all states that share it: no draw is allowed, so the discard top matters only
        through which of the hand's faces it admits (``alike`` says which)."""
        if self._lazy_left <= 0:
            return self.value(phase, state)  # time to evaluate every phase in full
        self._lazy_left -= 1
        found = self._alike[alike] = self.best_value(phase, state)
        return found

    def best_value(self, phase: int, state: int) -> float:
        """The value of ``state`` in ``phase`` worked out from the values after each of its
        safe clicks (:meth:`option_value`): one click plus the lowest. The hot path of a
        first answer, which computes a few thousand states one by one."""
        low = math.inf
        for option, _, target in self.tables.options(self._modes[phase], state):
            found = self.option_value(phase, state, option, target)
            if found < low:
                low = found
        return after_click(low)

    def option_value(self, phase: int, state: int, option: OptionKind, target: int) -> float:
        """The value after one safe click in ``state`` of ``phase``, the click excluded:
        ``option`` says how the DP values it and ``target`` is the state a play leads to.

        Every value stored in the memo is at least 1 (a click), so ``memo.get(k) or
        value(...)`` only calls :meth:`value` for a state not yet known.
        """
        if option is OptionKind.PLAY:
            return self._memo.get(phase * STATES + target) or self.value(phase, target)
        if option is OptionKind.DRAW:
            return self._draw_value(phase, state)
        if option is OptionKind.DISCARD:
            return self._discard_value(phase, state // FACES)
        if option is OptionKind.PROBE:
            ph = self.graph.phases[phase]
            fail = ph.probe_fail
            known = self._memo.get(fail * STATES + target) or self.value(fail, target)
            return probe_value(ph.on_top, known)
        return SOLVED

    def _draw_value(self, phase: int, state: int) -> float:
        """The value after a draw in ``state`` (the hand has room), the click excluded."""
        deals = self._deals[phase]
        plain, defuse = self.tables.draw_faces(state)
        h, d = divmod(state, FACES)
        add = add_row(h)
        memo = self._memo
        value = self.value
        # The states a drawn plain face or Defuse leads to, in face order (every phase).
        plain_at = [add[c] * FACES + d for c in plain]
        defuse_at = [add[c] * FACES + d for c in defuse]
        plain_weight = face_weight(len(plain_at))
        kinds = []
        for probability, successor, is_plain in deals.outcomes:
            targets = plain_at if is_plain else defuse_at
            after = self.full[successor]
            if after is not None:
                part = sum([float(after[t]) for t in targets])
            else:
                base = successor * STATES
                part = sum([memo.get(base + t) or value(successor, t) for t in targets])
            weight = plain_weight if is_plain else deals.defuse_weight
            kinds.append((probability, weight, part))
        return deal_value(kinds, 0.0, 0.0, 0.0)

    def _discard_value(self, phase: int, h: int) -> float:
        """The value after a discard with hand ``h`` in ``phase``, the click excluded; the
        discard top is replaced, so it depends on the phase and the hand only."""
        key = phase * HAND_COUNT + h
        known = self._discards.get(key)
        if known is not None:
            return known
        deals = self._deals[phase]
        here = h * FACES
        kinds = []
        for probability, successor, is_plain in deals.outcomes:
            faces = deals.plain if is_plain else deals.defuses
            weight = deals.plain_weight if is_plain else deals.defuse_weight
            after = self.full[successor]
            if after is not None:
                part = sum([float(after[here + c]) for c in faces])
            elif self._safe[successor]:
                base = successor * STATES + here
                memo = self._memo
                part = sum([memo.get(base + c) or self.value(successor, here + c) for c in faces])
            else:
                part = self._alike_sum(successor, h, faces)
            kinds.append((probability, weight, part))
        found = self._discards[key] = deal_value(kinds, deals.mitten, self.cycle_value[h], 0.0)
        return found

    def _alike_sum(self, phase: int, h: int, faces: tuple[int, ...]) -> float:
        """The sum, in face order, of the on-demand values of hand ``h`` in ``phase`` (one
        without draws) with each of ``faces`` on top: :meth:`value`'s own answers, read
        where discard tops share them (see :meth:`_shared`)."""
        held = HAND_FACES[h]
        legal = self.tables.legal
        alike = self._alike
        here = h * FACES
        top = (phase * HAND_COUNT + h) << FACES
        return sum([
            alike.get(top | legal[c] & held) or self._shared(phase, here + c, top | legal[c] & held)
            for c in faces
        ])

    def deal_value(self, phase: int, state: int, *, draw: bool) -> float:
        """Expected clicks after the card dealt by a draw or a discard (the click excluded).

        For a draw, the belief must allow it (the mitten cannot be on top); the hand must
        have room.
        """
        if not draw:
            return self._discard_value(phase, state // FACES)
        if self._deals[phase].mitten:
            raise MisuseError("a draw cannot deal the mitten")
        return self._draw_value(phase, state)

    def choices(self, phase: int, state: int) -> list[tuple[Choice, float]]:
        """The safe actions in a state and their values after this click.

        Each is a :class:`~defuser.strategy.dp.clicks.Choice`: a draw, a discard, or a
        play of a face (a plain play, a probe or the solve); the value excludes the click
        itself.
        """
        return [
            (choice_of(option, face), self.option_value(phase, state, option, target))
            for option, face, target in self.tables.options(self._modes[phase], state)
        ]

def later_room_values(rules: Ruleset, interval: int, cycle_value: list[float]) -> list[float]:
    """The player's later-cycle values as :func:`~defuser.strategy.shipped.load_later`
    returns them for these cycle-start values: every recurring phase (in increasing
    order) evaluated with numpy, its first :data:`ROOM_STATES` values (the build step's
    work, see :mod:`defuser.strategy.shipped_build`)."""
    sol = Solution.from_cycle_value(rules, interval, cycle_value)
    sol.evaluate_phases(recurrent=True)  # numpy, whatever is shipped
    out: list[float] = []
    for found, phase in zip(sol.full, sol.graph.phases, strict=True):
        if phase.recurrent:
            assert found is not None and not isinstance(found, ShippedPhase)
            out += found[:ROOM_STATES].tolist()
    return out

