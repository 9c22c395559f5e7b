"""The DP's phases: every belief about the deck a game can reach, and how deals move it.

Contract: a *phase* is one belief (:class:`~defuser.strategy.belief.CycleBelief`) with
its :class:`Mode` (may the mitten be on top?) and its deals (:class:`DealBranch`: a card
kind, its chance, the phase it leads to). The phases are found by exploring the belief
itself, so the DP and the belief can never disagree, for the player (who learns from
every event) or for the oracle (who sees the deck: every belief split into certainties).
:func:`build_graph` reads an N's graph from the shipped file when it is there (written
from :func:`explore_graph` through :func:`graph_to_data`) and explores it otherwise; the
two are equal. Nothing here values a state: see :mod:`defuser.strategy.dp.solution`.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from defuser.engine.deck import DealKind, Hidden
from defuser.strategy import shipped
from defuser.strategy.belief import CycleBelief
from edgework import MisuseError

#: Bumped whenever the model changes; stored solutions (shipped or cached) of another
#: version are ignored.
MODEL_VERSION: Final = 1


class Mode(enum.Enum):
    """What the belief allows: draws (mitten surely not on top), probes, or the solve."""

    SAFE = "safe"  # the mitten is not on top: draws are safe
    UNSAFE = "unsafe"  # it may be: no draws; a legal Defuse is a probe
    ZERO = "zero"  # it is on top: any Defuse solves; a discard deals the mitten

    # Modes key the DP's caches on every state it values; a member is its own
    # identity, and hashing that is cheaper than Enum's hash of the name.
    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class DealBranch:
    """One way a deal can go: its probability, the card kind and the phase it leads to."""

    probability: float
    kind: DealKind
    phase: int


@dataclass(slots=True)
class Phase:
    """One belief and how deals, probes and the mitten move it."""

    index: int
    belief: CycleBelief
    mode: Mode
    on_top: float
    outcomes: tuple[DealBranch, ...]
    #: The phase after a probe that did not solve (UNSAFE only), else -1.
    probe_fail: int
    #: Whether this phase recurs every cycle (reachable from a cycle's start).
    recurrent: bool = False


def _mode_of(belief: CycleBelief) -> Mode:
    top = belief.mitten_on_top
    if top == 0:
        return Mode.SAFE
    if top == 1:
        return Mode.ZERO
    return Mode.UNSAFE


Refine = Callable[[CycleBelief], tuple[tuple[Fraction, CycleBelief], ...]]


def _bayes_refine(belief: CycleBelief) -> tuple[tuple[Fraction, CycleBelief], ...]:
    return ((Fraction(1), belief),)


def _oracle_refine(belief: CycleBelief) -> tuple[tuple[Fraction, CycleBelief], ...]:
    return belief.split()


@dataclass(slots=True)
class PhaseGraph:
    """All phases reachable from a start belief, in an order that solves them backwards.

    ``order`` lists phase indices so that every phase comes after the phases its deals
    and probes lead to, except a mitten deal, which leads back to a cycle's start.
    """

    interval: int
    phases: list[Phase]
    index: dict[CycleBelief, int]
    order: list[int]
    cycle_starts: list[int]
    #: Cycle-start phase -> the chance that a new cycle starts there (1.0 for a player,
    #: who learns nothing when the mitten is dealt; 1/(N-2) each for the oracle).
    cycle_mix: dict[int, float]
    refine: Refine = field(repr=False)

    def find(self, belief: CycleBelief) -> int:
        """The phase of a belief (``KeyError`` when it is not a reachable one)."""
        return self.index[belief.key]

    @property
    def oracle(self) -> bool:
        """Whether this is the oracle's graph (every belief a certainty)."""
        return self.refine is _oracle_refine


@functools.cache
def build_graph(interval: int, *, oracle: bool = False) -> PhaseGraph:
    """The phase graph of one N, for the player or for an oracle, built once and shared.

    It is read from the shipped file when that holds it (written from
    :func:`explore_graph` by :mod:`defuser.strategy.shipped_build`; exploring costs a
    first answer about as much as the rest of its work) and explored otherwise.
    """
    data = shipped.load_graph(interval, model=MODEL_VERSION, oracle=oracle)
    if data is not None:
        try:
            return graph_from_data(data, interval, oracle=oracle)
        except MisuseError:
            raise  # a bug, not a damaged entry
        except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
            pass  # a damaged entry: explore instead
    return explore_graph(interval, oracle=oracle)


def explore_graph(interval: int, *, oracle: bool = False) -> PhaseGraph:
    """Explore every belief reachable from start-up, for the player or for an oracle.

    The player's beliefs come from every possible event: deals of each kind, a probe
    that fails (the mitten is not on top), a draw strike (it is). The oracle's beliefs
    are certainties: each belief is split into its hidden states as soon as it forms.
    """
    refine: Refine = _oracle_refine if oracle else _bayes_refine
    phases: list[Phase] = []
    index: dict[CycleBelief, int] = {}
    starts = [b for _, b in refine(CycleBelief.initial(interval))]
    starts += [b for _, b in refine(CycleBelief.new_cycle(interval))]
    # Every belief a strike can prove (the mitten is on top) is reachable in a live
    # session, so it gets a phase too.
    pending = list(starts)

    def intern(belief: CycleBelief) -> int:
        key = belief.key
        found = index.get(key)
        if found is None:
            found = len(phases)
            index[key] = found
            phases.append(Phase(found, belief, _mode_of(belief), 0.0, (), -1))
            pending.append(belief)
        return found

    for b in starts:
        intern(b)
    while pending:
        belief = pending.pop()
        phase = phases[index[belief.key]]
        if phase.outcomes:
            continue
        phase.on_top = float(belief.mitten_on_top)
        outcomes = []
        for kind in DealKind:
            p = belief.probability(kind)
            if p == 0:
                continue
            for w, nxt in refine(belief.after_deal(kind)):
                outcomes.append(DealBranch(float(p * w), kind, intern(nxt)))
        phase.outcomes = tuple(outcomes)
        if phase.mode is Mode.UNSAFE:
            fail = refine(belief.given_on_top(False))
            phase.probe_fail = intern(fail[0][1]) if len(fail) == 1 else -1
            for _, on_top in refine(belief.given_on_top(True)):
                intern(on_top)
    new_cycle = refine(CycleBelief.new_cycle(interval))
    cycle_mix = {index[b.key]: float(w) for w, b in new_cycle}
    cycle_starts = sorted(cycle_mix)
    order = _post_order(phases)
    _mark_recurrent(phases, cycle_starts)
    return PhaseGraph(interval, phases, index, order, cycle_starts, cycle_mix, refine)


def graph_to_data(graph: PhaseGraph) -> list[Any]:
    """A JSON-able form of a phase graph that :func:`graph_from_data` reads back equal.

    Per phase: first-cycle flag, support as ``[m, e or -1, numerator, denominator]``,
    mode, chance the mitten is on top, outcomes as ``[probability, kind, phase]``, the
    phase after a failed probe and whether it recurs; then the order and cycle mix.
    """
    phases = [
        [
            ph.belief.first_cycle,
            [[m, -1 if e is None else e, w.numerator, w.denominator]
             for (m, e), w in ph.belief.support],
            ph.mode.value,
            ph.on_top,
            [[o.probability, o.kind.value, o.phase] for o in ph.outcomes],
            ph.probe_fail,
            ph.recurrent,
        ]
        for ph in graph.phases
    ]
    return [phases, graph.order, [[c, w] for c, w in sorted(graph.cycle_mix.items())]]


def graph_from_data(data: list[Any], interval: int, *, oracle: bool = False) -> PhaseGraph:
    """The phase graph :func:`graph_to_data` wrote (raises on malformed data)."""
    raw_phases, order, mix = data
    phases: list[Phase] = []
    index: dict[CycleBelief, int] = {}
    for i, (first, support, mode, on_top, outcomes, probe_fail, recurrent) in enumerate(
        raw_phases
    ):
        belief = CycleBelief(
            interval,
            bool(first),
            tuple(
                (Hidden(m, None if e < 0 else e), Fraction(num, den))
                for m, e, num, den in support
            ),
        )
        branches = tuple(DealBranch(float(p), DealKind(k), int(j)) for p, k, j in outcomes)
        phase = Phase(i, belief, Mode(mode), float(on_top), branches, int(probe_fail),
                      bool(recurrent))
        phases.append(phase)
        index[belief.key] = i
    if len(index) != len(phases):
        raise MisuseError("two phases share a belief")
    cycle_mix = {int(c): float(w) for c, w in mix}
    return PhaseGraph(
        interval, phases, index, [int(i) for i in order], sorted(cycle_mix), cycle_mix,
        _oracle_refine if oracle else _bayes_refine,
    )


def _successors(phase: Phase, *, back_edges: bool) -> list[int]:
    nxt = [o.phase for o in phase.outcomes if back_edges or o.kind is not DealKind.MITTEN]
    if phase.probe_fail >= 0:
        nxt.append(phase.probe_fail)
    return nxt


def _post_order(phases: list[Phase]) -> list[int]:
    seen: set[int] = set()
    order: list[int] = []
    for root in range(len(phases)):
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(_successors(phases[root], back_edges=False)))]
        while stack:
            node, children = stack[-1]
            for child in children:
                if child not in seen:
                    seen.add(child)
                    stack.append((child, iter(_successors(phases[child], back_edges=False))))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


def _mark_recurrent(phases: list[Phase], cycle_starts: list[int]) -> None:
    stack = list(cycle_starts)
    while stack:
        i = stack.pop()
        if phases[i].recurrent:
            continue
        phases[i].recurrent = True
        stack.extend(_successors(phases[i], back_edges=True))


def later_phases(graph: PhaseGraph) -> list[bool]:
    """Per phase, whether only a later cycle reaches it: a recurring phase that no
    phase of the first, partial cycle leads to (a mitten deal leads to a cycle's start
    values, not to a phase)."""
    first = [i for i, ph in enumerate(graph.phases) if not ph.recurrent]
    seen = set(first)
    while first:
        for i in _successors(graph.phases[first.pop()], back_edges=False):
            if i not in seen:
                seen.add(i)
                first.append(i)
    return [i not in seen for i in range(len(graph.phases))]
