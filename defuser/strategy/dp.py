"""Exact dynamic programming for the fewest expected clicks to the solve, never striking.

Contract: values are computed from beliefs (:class:`defuser.strategy.belief.CycleBelief`) and the
visible state only; this module never looks at a simulator's hidden state. The same
engine also solves the all-seeing problem (every belief a certainty), which gives the
``oracle`` baseline its exact lower bound.

The model. A *state* is a visible situation: the hand as a multiset of faces (969 of
them, 0 to 3 cards of 16 faces) and the discard top (16 faces), inside a *phase*: one
belief about the deck. Every click costs 1. The actions that can never strike are:

* draw, when the hand has room and the mitten cannot be on top;
* discard, when no card blocks it (a lone legal Defuse never blocks);
* play a legal card; play any Defuse when the mitten is surely on top (the solve, the
  last click); play a legal Defuse when the mitten may be on top (a *probe*: it solves
  if the mitten is on top, and otherwise proves that it is not).

A deal reveals a plain card (uniform over the table's 12 plain faces, or over the legal
ones when drawing into two illegal cards), the Defuse (uniform over its faces) or the
mitten (its face, by discard only); the belief says how likely each is and what the
belief becomes. Phases are the distinct beliefs reachable from the start, found by
exploring :class:`~defuser.strategy.belief.CycleBelief` itself, so the DP and the belief can never
disagree. Deals lead to later phases except the mitten, which starts a new cycle: the
values at a cycle's start (discard top = the mitten face) are the fixed point of one
sweep over the cycle, found by value iteration (with Aitken extrapolation) until a sweep
changes no value by more than 1e-11; the first, partial cycle is then solved on demand.

Speed. One phase is one array of 15,504 values, computed in four slices (hands of 0, 1,
2, 3 cards: a play only leads to a smaller hand of the same phase) by numpy, gathering
precomputed candidate indices from one flat vector of "what each action is worth" and
taking each row's minimum. numpy is imported only when a phase is evaluated in full, so
a process that answers from a stored fixed point (:meth:`Solution.from_cycle_value`)
never loads it for the first cycle, which it computes on demand; the first question in a
later cycle evaluates every recurring phase at once (:func:`prepare_tables` builds what
that takes ahead of need).
"""

from __future__ import annotations

import bisect
import enum
import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from defuser.engine.actions import Action, ActionKind
from defuser.engine.deck import DealKind
from defuser.engine.rules import HAND_SIZE
from defuser.strategy import shipped
from defuser.strategy.belief import CycleBelief
from edgework import Card, CardType, Ruleset

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IndexArray = NDArray[np.intp]

FACES: Final = 16

#: Every hand as a sorted tuple of face values, smallest hands first.
HANDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    hand
    for size in range(HAND_SIZE + 1)
    for hand in itertools.combinations_with_replacement(range(FACES), size)
)
#: Hand (sorted face values) -> its index in :data:`HANDS`.
HAND_INDEX: Final[dict[tuple[int, ...], int]] = {hand: i for i, hand in enumerate(HANDS)}
#: ``SIZE_START[k]`` is the index of the first hand with ``k`` cards (k = 0..4).
SIZE_START: Final[tuple[int, ...]] = tuple(
    next((i for i, h in enumerate(HANDS) if len(h) >= k), len(HANDS))
    for k in range(HAND_SIZE + 2)
)
HAND_COUNT: Final = len(HANDS)


def _face_sets() -> tuple[int, ...]:
    out = []
    for hand in HANDS:
        faces = 0
        for c in hand:
            faces |= 1 << c
        out.append(faces)
    return tuple(out)


#: Per hand, the faces it holds as a bit set (bit ``c`` for face ``c``).
HAND_FACES: Final[tuple[int, ...]] = _face_sets()
#: Number of states per phase: hand index * 16 + discard top.
STATES: Final = HAND_COUNT * FACES
#: States whose hand has room for a draw come first (hands of 0-2 cards).
ROOM_STATES: Final = SIZE_START[HAND_SIZE] * FACES

# Layout of the flat "candidate values" list X of one phase (see _Tables.evaluate).
_DRAW_OFF: Final = STATES
_DISC_OFF: Final = _DRAW_OFF + ROOM_STATES
_ZERO_CELL: Final = _DISC_OFF + HAND_COUNT
_PROBE_OFF: Final = _ZERO_CELL + 1

#: Convergence threshold of the cycle's value iteration, in clicks.
TOLERANCE: Final = 1e-11

#: A solution computes this many states' values one by one (a first answer needs a few
#: thousand at most) before it evaluates every phase in full, vectorised: a question
#: with many draws ahead would otherwise take seconds state by state. (A later cycle's
#: phases are evaluated in full when first asked about, whatever is left of this.)
LAZY_VALUES: Final = 20_000

#: Bumped whenever the model changes; stored solutions (shipped or cached) of another
#: version are ignored.
MODEL_VERSION: Final = 1


def hand_index(cards: Sequence[Card | int]) -> int:
    """The index in :data:`HANDS` of a hand given in any order."""
    return HAND_INDEX[tuple(sorted(int(c) for c in cards))]


def state_index(discard: Card | int, hand: Sequence[Card | int]) -> int:
    """The index of a visible state inside a phase's value list."""
    return hand_index(hand) * FACES + int(discard)


@functools.cache
def add_row(h: int) -> tuple[int, ...]:
    """``ADD[h]``: per face, the hand ``h`` plus that face (all -1 when ``h`` is full).

    Built per hand on first use: a first answer touches a few hundred of the 969.
    """
    hand = HANDS[h]
    if len(hand) >= HAND_SIZE:
        return (-1,) * FACES
    out = []
    for c in range(FACES):
        at = bisect.bisect(hand, c)  # where c goes in the sorted hand
        out.append(HAND_INDEX[(*hand[:at], c, *hand[at:])])
    return tuple(out)


@functools.cache
def remove_row(h: int) -> tuple[tuple[int, int], ...]:
    """``REMOVE[h]``: (face, hand without one of it) for each distinct face in hand ``h``."""
    hand = HANDS[h]
    pairs = []
    for c in sorted(set(hand)):
        rest = list(hand)
        rest.remove(c)
        pairs.append((c, HAND_INDEX[tuple(rest)]))
    return tuple(pairs)


@functools.cache
def _add_table() -> tuple[tuple[int, ...], ...]:
    """:func:`add_row` of every hand."""
    return tuple(add_row(h) for h in range(HAND_COUNT))


@functools.cache
def _remove_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`remove_row` of every hand."""
    return tuple(remove_row(h) for h in range(HAND_COUNT))


class Mode(enum.Enum):
    """What the belief allows: draws (mitten surely not on top), probes, or the solve."""

    SAFE = "safe"  # the mitten is not on top: draws are safe
    UNSAFE = "unsafe"  # it may be: no draws; a legal Defuse is a probe
    ZERO = "zero"  # it is on top: any Defuse solves; a discard deals the mitten


@dataclass(frozen=True, slots=True)
class DealBranch:
    """One way a deal can go: its probability, the card kind and the phase it leads to."""

    probability: float
    kind: DealKind
    phase: int


class PlayKind(enum.Enum):
    """Why the DP plays a face: a plain legal play, a probe, or the solve."""

    PLAIN = "play"
    #: A legal Defuse while the mitten may be on top: it solves if the mitten is on
    #: top, and otherwise proves that it is not.
    PROBE = "probe"
    #: A Defuse with the mitten surely on top: the last click.
    SOLVE = "solve"


@dataclass(frozen=True, slots=True)
class Choice:
    """One safe click the DP weighs. The DP's hands are multisets, so a play names the
    face (``card``) rather than the slot; :meth:`action` finds the slot in a real hand.
    """

    kind: ActionKind
    card: Card | None = None
    play: PlayKind | None = None

    def action(self, hand: Sequence[Card]) -> Action:
        """The click that makes this choice with ``hand`` (slot order): a play clicks the
        first slot holding the face."""
        if self.card is None:
            return Action(self.kind)
        return Action.play(hand.index(self.card) + 1)


#: The DP's draw and discard choices.
DRAW: Final = Choice(ActionKind.DRAW)
DISCARD: Final = Choice(ActionKind.DISCARD)
_PLAYS: Final = tuple(Choice(ActionKind.PLAY, card, PlayKind.PLAIN) for card in Card)
_PROBES: Final = tuple(Choice(ActionKind.PLAY, card, PlayKind.PROBE) for card in Card)
_SOLVES: Final = tuple(Choice(ActionKind.PLAY, card, PlayKind.SOLVE) for card in Card)


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
            tuple(((m, None if e < 0 else e), Fraction(num, den)) for m, e, num, den in support),
        )
        branches = tuple(DealBranch(float(p), DealKind(k), int(j)) for p, k, j in outcomes)
        phase = Phase(i, belief, Mode(mode), float(on_top), branches, int(probe_fail),
                      bool(recurrent))
        phases.append(phase)
        index[belief.key] = i
    if len(index) != len(phases):
        raise ValueError("two phases share a belief")
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


class _Tables:
    """Per rule set: the faces' kinds and legality, and (built on first use) the
    candidate-action index arrays of every state in each mode for :meth:`evaluate`.

    The light part is all that the on-demand first-cycle values need, so answering a
    first question from a known cycle fixed point never pays for the arrays.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        types = [rules.type_of(Card(c)) for c in range(FACES)]
        self.is_defuse = [t is CardType.DEFUSE for t in types]
        self.plain = [c for c in range(FACES) if types[c].is_plain]
        self.defuses = [c for c in range(FACES) if self.is_defuse[c]]
        self.mitten = int(rules.mitten)
        self.legal = [rules.legal_mask(Card(d)) for d in range(FACES)]
        defuse_faces = sum(1 << c for c in self.defuses)
        self.hand_has_defuse = [bool(faces & defuse_faces) for faces in HAND_FACES]
        # A face no discard top ever admits can never leave the hand; three of them and no
        # Defuse can never be solved (no room to draw, nothing to play). The module never
        # deals such a hand (a draw into two illegal cards is legal), but the DP covers
        # every hand, so these get an infinite value instead of a diverging one.
        any_legal = 0
        for m in self.legal:
            any_legal |= m
        self.dead = [
            len(h) == HAND_SIZE and not faces & (defuse_faces | any_legal)
            for h, faces in zip(HANDS, HAND_FACES, strict=True)
        ]

    @functools.cached_property
    def deal_faces(
        self,
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The plain faces, the Defuse faces and, per discard top, the plain faces a draw
        into two illegal cards can show (the legal ones, or all when none is legal)."""
        plain = tuple(self.plain)
        legal_plain = tuple(
            tuple(c for c in plain if self.legal[d] >> c & 1) or plain for d in range(FACES)
        )
        return plain, tuple(self.defuses), legal_plain

    @functools.cached_property
    def arrays(self) -> _Arrays:
        """The index arrays of :meth:`evaluate` (built once per rule set)."""
        return _Arrays(self)

    def evaluate(
        self,
        phase: Phase,
        values: Sequence[FloatArray | None],
        cycle_value: Sequence[float],
    ) -> FloatArray:
        """The value of every state of ``phase``, its successors being known.

        ``values[i]`` is phase ``i``'s value list (or None while unknown) and
        ``cycle_value[h]`` the expected value at the start of a new cycle with hand ``h``
        (discard top = the mitten face), averaged over where the cycle starts.
        """
        return self.arrays.evaluate(phase, values, cycle_value)


@dataclass(slots=True)
class _CandidateRows:
    """Per state, the cells of the candidate vector X each choice reads (ragged rows).

    ``safe``/``unsafe``/``zero`` are one row per state for each :class:`Mode`; the draw
    rows (one per state with room in the hand) list the successor states per drawn face.
    """

    safe: list[list[int]] = field(default_factory=list)
    unsafe: list[list[int]] = field(default_factory=list)
    zero: list[list[int]] = field(default_factory=list)
    draw_plain: list[list[int]] = field(default_factory=list)
    draw_weight: list[float] = field(default_factory=list)
    draw_defuse: list[list[int]] = field(default_factory=list)

    @classmethod
    def of(cls, tabs: _Tables) -> _CandidateRows:
        """The rows of one rule set, state by state in state order."""
        rows = cls()
        add = _add_table()
        remove = _remove_table()
        for h, hand in enumerate(HANDS):
            room = len(hand) < HAND_SIZE
            for d in range(FACES):
                s = h * FACES + d
                mask = tabs.legal[d]
                legal_cards = [c for c in hand if mask >> c & 1]
                lone_defuse = len(legal_cards) == 1 and tabs.is_defuse[legal_cards[0]]
                allowed = not legal_cards or lone_defuse
                plays = []
                probes = []
                for c, rest in remove[h]:
                    if mask >> c & 1:
                        target = rest * FACES + c
                        plays.append(target)
                        probes.append(_PROBE_OFF + target if tabs.is_defuse[c] else target)
                disc = [_DISC_OFF + h] if allowed else []
                rows.safe.append(([_DRAW_OFF + s] if room else []) + disc + plays)
                rows.unsafe.append(disc + probes)
                rows.zero.append([_ZERO_CELL] if tabs.hand_has_defuse[h] else disc + plays)
                if room:
                    faces = tabs.plain
                    if len(hand) == 2 and not legal_cards:
                        faces = [c for c in tabs.plain if mask >> c & 1] or tabs.plain
                    rows.draw_plain.append([add[h][c] * FACES + d for c in faces])
                    rows.draw_weight.append(1.0 / len(faces))
                    rows.draw_defuse.append([add[h][f] * FACES + d for f in tabs.defuses])
        return rows


def _padded_matrix(rows: list[list[int]], pad: int) -> IndexArray:
    """Ragged rows as one array padded with ``pad``, stored column by column.

    numpy reduces a few long columns much faster than many short rows.
    """
    import numpy as np

    lengths = np.fromiter(map(len, rows), dtype=np.intp, count=len(rows))
    flat = np.fromiter(itertools.chain.from_iterable(rows), dtype=np.intp)
    out = np.full((int(lengths.max()), len(rows)), pad, dtype=np.intp)
    starts = np.cumsum(lengths) - lengths
    row = np.repeat(np.arange(len(rows)), lengths)
    out[np.arange(len(flat)) - np.repeat(starts, lengths), row] = flat
    return out


class _Arrays:
    """numpy index arrays of one rule set: the vectorised form of the DP's recurrence.

    The flat "candidate values" vector X of a phase holds, in this order: the state
    values (filled hand size by hand size: a play only leads to a smaller hand), the
    value after a draw per room state, after a discard per hand, a zero (the solve),
    after a failed probe per state, and one infinity that pads ragged candidate rows.
    """

    def __init__(self, tabs: _Tables) -> None:
        import numpy as np

        self.np = np
        inf_cell = _PROBE_OFF + STATES
        rows = _CandidateRows.of(tabs)
        slices = [(SIZE_START[k] * FACES, SIZE_START[k + 1] * FACES) for k in range(HAND_SIZE + 1)]
        self.slices = slices
        self.cands = {
            mode: [_padded_matrix(cells[a:b], inf_cell) for a, b in slices]
            for mode, cells in (
                (Mode.SAFE, rows.safe), (Mode.UNSAFE, rows.unsafe), (Mode.ZERO, rows.zero)
            )
        }
        # Padding of the draw rows points at a zero appended to the successor's values.
        self.draw_plain = _padded_matrix(rows.draw_plain, STATES)
        self.draw_weight = np.array(rows.draw_weight)
        self.draw_defuse = _padded_matrix(rows.draw_defuse, STATES)
        self.n_plain = 1.0 / len(tabs.plain)
        self.n_defuse = 1.0 / len(tabs.defuses)
        # Discard: per hand, the successor's states with each plain (Defuse) face on top.
        hands = np.arange(HAND_COUNT, dtype=np.intp) * FACES
        self.disc_plain = np.array([hands + c for c in tabs.plain], dtype=np.intp)
        self.disc_defuse = np.array([hands + c for c in tabs.defuses], dtype=np.intp)

    def _column_sum(self, values: FloatArray, columns: IndexArray) -> FloatArray:
        total: FloatArray = values.take(columns[0])
        for column in columns[1:]:
            total += values.take(column)
        return total

    def _column_min(self, values: FloatArray, columns: IndexArray) -> FloatArray:
        low: FloatArray = values.take(columns[0])
        for column in columns[1:]:
            self.np.minimum(low, values.take(column), out=low)
        return low

    def evaluate(
        self,
        phase: Phase,
        values: Sequence[FloatArray | None],
        cycle_value: Sequence[float],
    ) -> FloatArray:
        """See :meth:`_Tables.evaluate`."""
        np = self.np
        disc = np.zeros(HAND_COUNT)
        draw = np.zeros(ROOM_STATES) if phase.mode is Mode.SAFE else np.full(ROOM_STATES, np.inf)
        p_mitten = 0.0
        for o in phase.outcomes:
            if o.kind is DealKind.MITTEN:
                p_mitten += o.probability
                continue
            vals = values[o.phase]
            assert vals is not None
            flat = np.asarray(vals, dtype=float)
            if o.kind is DealKind.PLAIN:
                disc += (o.probability * self.n_plain) * self._column_sum(flat, self.disc_plain)
                if phase.mode is Mode.SAFE:
                    padded = np.append(flat, 0.0)
                    sums = self._column_sum(padded, self.draw_plain)
                    draw += o.probability * self.draw_weight * sums
            else:
                disc += (o.probability * self.n_defuse) * self._column_sum(
                    flat, self.disc_defuse
                )
                if phase.mode is Mode.SAFE:
                    padded = np.append(flat, 0.0)
                    sums = self._column_sum(padded, self.draw_defuse)
                    draw += (o.probability * self.n_defuse) * sums
        if p_mitten:
            disc += p_mitten * np.asarray(cycle_value, dtype=float)
        if phase.mode is Mode.UNSAFE:
            fail = values[phase.probe_fail]
            assert fail is not None
            probe = (1.0 - phase.on_top) * np.asarray(fail, dtype=float)
        else:
            probe = np.full(STATES, np.inf)
        x = np.concatenate((np.zeros(STATES), draw, disc, [0.0], probe, [np.inf]))
        for (a, b), cands in zip(self.slices, self.cands[phase.mode], strict=True):
            x[a:b] = self._column_min(x, cands)
            x[a:b] += 1.0
        out: FloatArray = x[:STATES].copy()
        return out


@functools.lru_cache(maxsize=8)
def tables_for(table: str, last_digit: int) -> _Tables:
    """The precomputed tables of one rule set (shared by every N; the last few kept)."""
    return _Tables(Ruleset(table, last_digit))


def prepare_tables(rules: Ruleset) -> None:
    """Build, ahead of need, what evaluating a phase of ``rules`` in full takes: numpy
    and the rule set's index arrays (about 0.1 s). A session may run this in a
    background thread while it waits for its next line, so that the answer that first
    needs a later cycle only evaluates; no value depends on whether or when it ran."""
    tables_for(rules.table, rules.last_digit).arrays  # noqa: B018 - built on first use


def _later_phases(graph: PhaseGraph) -> list[bool]:
    """Per phase, whether only a later cycle reaches it: a recurring phase that no
    phase of the first, partial cycle leads to (a mitten deal leads to a cycle's start
    values, not to a phase)."""
    first = [i for i, ph in enumerate(graph.phases) if not ph.recurrent]
    seen = set(first)
    while first:
        ph = graph.phases[first.pop()]
        following = [o.phase for o in ph.outcomes if o.kind is not DealKind.MITTEN]
        if ph.probe_fail >= 0:
            following.append(ph.probe_fail)
        for i in following:
            if i not in seen:
                seen.add(i)
                first.append(i)
    return [i not in seen for i in range(len(graph.phases))]




@dataclass(frozen=True, slots=True)
class _PhaseDeals:
    """A phase's deals laid out for the on-demand path: per outcome its probability,
    successor phase (-1 for the mitten, which starts a new cycle) and whether it deals a
    plain card; the faces a deal can show; for a draw into two illegal cards, the legal
    plain faces per discard top."""

    outcomes: tuple[tuple[float, int, bool], ...]
    all_outcomes: tuple[tuple[float, int, bool], ...]
    plain: tuple[int, ...]
    defuses: tuple[int, ...]
    legal_plain: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, phase: Phase, tabs: _Tables) -> _PhaseDeals:
        """The layout of ``phase`` under ``tabs``' rule set."""
        every = tuple(
            (o.probability, -1 if o.kind is DealKind.MITTEN else o.phase, o.kind is DealKind.PLAIN)
            for o in phase.outcomes
        )
        plain, defuses, legal_plain = tabs.deal_faces
        return cls(tuple(o for o in every if o[1] >= 0), every, plain, defuses, legal_plain)


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
        self.full = values
        #: Expected clicks from the start of a new cycle, per hand (discard = the mitten).
        self.cycle_value = cycle_value
        self.sweeps = sweeps
        #: On-demand values, keyed ``phase * STATES + state``.
        self._memo: dict[int, float] = {}
        #: Values still to compute one by one before evaluating every phase is cheaper.
        self._lazy_left = LAZY_VALUES
        #: Phases only a later cycle reaches: the first question there evaluates every
        #: recurring phase at once, since a cycle's start reaches most of their states.
        self._later = _later_phases(graph)
        self._modes = [ph.mode for ph in graph.phases]
        self._safe = [mode is Mode.SAFE for mode in self._modes]
        self._deals = [_PhaseDeals.of(ph, self.tables) for ph in graph.phases]
        #: Values shared by the states of a phase without draws that differ only in a
        #: discard top admitting the same cards of the hand (see :meth:`value`).
        self._alike: dict[int, float] = {}
        #: Discard values, which depend on the phase and the hand only.
        self._discards: dict[int, float] = {}

    def _fill_recurrent(self) -> None:
        """Evaluate every recurring phase in full from the cycle's start values (one
        sweep); a solution built from known start values (:meth:`from_cycle_value`)
        has none of them until it needs many (see :data:`LAZY_VALUES`)."""
        for i in self.graph.order:
            if self.graph.phases[i].recurrent and self.full[i] is None:
                self.full[i] = self.tables.evaluate(
                    self.graph.phases[i], self.full, self.cycle_value
                )

    @classmethod
    def from_cycle_value(
        cls, rules: Ruleset, interval: int, cycle_value: list[float], *, oracle: bool = False
    ) -> Solution:
        """A solution from its cycle-start values alone (a stored fixed point), no sweep.

        Every value follows from them: on demand at first, then all at once, vectorised,
        when many are needed (:data:`LAZY_VALUES`).
        """
        if len(cycle_value) != HAND_COUNT:
            raise ValueError(f"expected {HAND_COUNT} cycle-start values, got {len(cycle_value)}")
        graph = build_graph(interval, oracle=oracle)
        return cls(rules, interval, graph, [None] * len(graph.phases), list(cycle_value), 0)

    def complete(self) -> None:
        """Evaluate every phase in full (bulk use: expectations, tests; and by itself once
        :data:`LAZY_VALUES` states were computed one by one)."""
        self._fill_recurrent()
        for i in self.graph.order:
            if self.full[i] is None:
                self.full[i] = self.tables.evaluate(
                    self.graph.phases[i], self.full, self.cycle_value
                )
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
            found = 1.0 + self._best(phase, state)
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
        found = self._alike[alike] = 1.0 + self._best(phase, state)
        return found

    def _best(self, phase: int, state: int) -> float:
        """The lowest value after one click among :meth:`choices` (the same sums in the
        same order, so the same float), without building the choices: the hot path of a
        first answer, which computes a few thousand states one by one. Every value
        stored in the memo is at least 1 (a click), so ``memo.get(k) or value(...)``
        only calls :meth:`value` for a state not yet known."""
        tabs = self.tables
        h, d = divmod(state, FACES)
        hand = HANDS[h]
        mode = self._modes[phase]
        if mode is Mode.ZERO and tabs.hand_has_defuse[h]:
            return 0.0
        mask = tabs.legal[d]
        is_defuse = tabs.is_defuse
        best = math.inf
        legal_cards = [c for c in hand if mask >> c & 1]
        if mode is Mode.SAFE and len(hand) < HAND_SIZE:
            best = self._draw_value(phase, h, d, hand, mask)
        if not legal_cards or (len(legal_cards) == 1 and is_defuse[legal_cards[0]]):
            found = self._discard_value(phase, h)
            if found < best:
                best = found
        memo = self._memo
        value = self.value
        here = phase * STATES
        for c, rest in remove_row(h):
            if not mask >> c & 1:
                continue
            target = rest * FACES + c
            if mode is Mode.UNSAFE and is_defuse[c]:
                ph = self.graph.phases[phase]
                fail = ph.probe_fail
                found = (1.0 - ph.on_top) * (
                    memo.get(fail * STATES + target) or value(fail, target)
                )
            else:
                found = memo.get(here + target) or value(phase, target)
            if found < best:
                best = found
        return best

    def _draw_value(self, phase: int, h: int, d: int, hand: tuple[int, ...], mask: int) -> float:
        """:meth:`deal_value` of a draw (same arithmetic), for :meth:`_best`."""
        deals = self._deals[phase]
        add = add_row(h)
        memo = self._memo
        value = self.value
        total = 0.0
        # Two cards in hand, neither legal: the draw deals a legal plain face.
        two_illegal = len(hand) == 2 and not mask & HAND_FACES[h]
        plain = deals.legal_plain[d] if two_illegal else deals.plain
        # The states a drawn plain face or Defuse leads to, in face order (every phase).
        plain_at = [add[c] * FACES + d for c in plain]
        defuse_at = [add[c] * FACES + d for c in deals.defuses]
        for probability, successor, is_plain in deals.outcomes:
            targets = plain_at if is_plain else defuse_at
            base = successor * STATES
            part = sum([memo.get(base + t) or value(successor, t) for t in targets])
            total += probability * part / len(targets)
        return total

    def _discard_value(self, phase: int, h: int) -> float:
        """:meth:`deal_value` of a discard (same arithmetic), for :meth:`_best`; the discard
        top is replaced, so the value depends on the phase and the hand only."""
        known = self._discards.get(phase * HAND_COUNT + h)
        if known is not None:
            return known
        deals = self._deals[phase]
        memo = self._memo
        value = self.value
        here = h * FACES
        total = 0.0
        alike = self._alike
        shared = self._shared
        held = HAND_FACES[h]
        admits = [mask & held for mask in self.tables.legal]
        for probability, successor, is_plain in deals.all_outcomes:
            if successor < 0:
                total += probability * self.cycle_value[h]
                continue
            faces = deals.plain if is_plain else deals.defuses
            if self._safe[successor] or self.full[successor] is not None:
                base = successor * STATES + here
                part = sum([memo.get(base + c) or value(successor, here + c) for c in faces])
            else:
                # value()'s own answers, read where discard tops share them (see _shared).
                top = (successor * HAND_COUNT + h) << FACES
                part = sum([
                    alike.get(top | admits[c]) or shared(successor, here + c, top | admits[c])
                    for c in faces
                ])
            total += probability * part / len(faces)
        self._discards[phase * HAND_COUNT + h] = total
        return total

    def deal_value(self, phase: int, state: int, *, draw: bool) -> float:
        """Expected clicks after the card dealt by a draw or a discard (the click excluded).

        For a draw, the belief must allow it (the mitten cannot be on top); the hand must
        have room.
        """
        tabs = self.tables
        h, d = divmod(state, FACES)
        hand = HANDS[h]
        add = add_row(h)
        total = 0.0
        for o in self.graph.phases[phase].outcomes:
            if o.kind is DealKind.MITTEN:
                if draw:
                    raise ValueError("a draw cannot deal the mitten")
                total += o.probability * self.cycle_value[h]
                continue
            if o.kind is DealKind.DEFUSE:
                faces = tabs.defuses
            elif draw and len(hand) == 2 and not any(tabs.legal[d] >> c & 1 for c in hand):
                faces = [c for c in tabs.plain if tabs.legal[d] >> c & 1] or tabs.plain
            else:
                faces = tabs.plain
            if draw:
                targets = [add[c] * FACES + d for c in faces]
            else:
                targets = [h * FACES + c for c in faces]
            part = sum(self.value(o.phase, t) for t in targets)
            total += o.probability * part / len(faces)
        return total

    def choices(self, phase: int, state: int) -> list[tuple[Choice, float]]:
        """The safe actions in a state and their values after this click.

        Each is a :class:`Choice`: a draw, a discard, or a play of a face (a plain play,
        a probe or the solve); the value excludes the click itself.
        """
        tabs = self.tables
        ph = self.graph.phases[phase]
        h, d = divmod(state, FACES)
        hand = HANDS[h]
        mask = tabs.legal[d]
        out: list[tuple[Choice, float]] = []
        if ph.mode is Mode.ZERO:
            for c in sorted(set(hand)):
                if tabs.is_defuse[c]:
                    out.append((_SOLVES[c], 0.0))
            if out:
                return out
        legal_cards = [c for c in hand if mask >> c & 1]
        lone_defuse = len(legal_cards) == 1 and tabs.is_defuse[legal_cards[0]]
        if ph.mode is Mode.SAFE and len(hand) < HAND_SIZE:
            out.append((DRAW, self.deal_value(phase, state, draw=True)))
        if not legal_cards or lone_defuse:
            out.append((DISCARD, self.deal_value(phase, state, draw=False)))
        for c, rest in remove_row(h):
            if not mask >> c & 1:
                continue
            target = rest * FACES + c
            if ph.mode is Mode.UNSAFE and tabs.is_defuse[c]:
                fail = self.value(ph.probe_fail, target)
                out.append((_PROBES[c], (1.0 - ph.on_top) * fail))
            else:
                out.append((_PLAYS[c], self.value(phase, target)))
        return out


def solve(
    rules: Ruleset,
    interval: int,
    *,
    oracle: bool = False,
    start: list[float] | None = None,
) -> Solution:
    """Solve the recurring phases exactly by value iteration over the cycle's start.

    ``start`` may give the cycle-start values to begin from (a cached fixed point makes
    this one confirming sweep). After each sweep, a hand whose value is converging
    geometrically is extrapolated to its limit (Aitken), which is exact for the usual
    slow case, a hand that can keep failing to catch a Defuse and start the next cycle
    the same way; the loop ends only when a plain sweep changes nothing by more than
    :data:`TOLERANCE`, so the extrapolation affects speed, never the answer.
    """
    graph = build_graph(interval, oracle=oracle)
    tabs = tables_for(rules.table, rules.last_digit)
    values: list[FloatArray | None] = [None] * len(graph.phases)
    if start is not None and len(start) == HAND_COUNT:
        cycle_value = list(start)
    else:
        cycle_value = [math.inf if dead else 2.0 * interval + 10.0 for dead in tabs.dead]
    recurrent = [i for i in graph.order if graph.phases[i].recurrent]
    mitten = tabs.mitten
    last: list[float] | None = None
    sweeps = 0
    while True:
        sweeps += 1
        for i in recurrent:
            values[i] = tabs.evaluate(graph.phases[i], values, cycle_value)
        new = [0.0] * HAND_COUNT
        for c, w in graph.cycle_mix.items():
            vals = values[c]
            assert vals is not None
            start_values: list[float] = vals[mitten::FACES].tolist()
            new = [a + w * v for a, v in zip(new, start_values, strict=True)]
        delta = [a - b if a != b else 0.0 for a, b in zip(new, cycle_value, strict=True)]
        change = max(map(abs, delta))
        if last is not None:
            new = [_aitken(v, dv, lv) for v, dv, lv in zip(new, delta, last, strict=True)]
            last = None
        else:
            last = delta
        cycle_value = new
        if change < TOLERANCE:
            break
        if sweeps > 200:
            raise RuntimeError("the cycle's value iteration did not converge")
    return Solution(rules, interval, graph, values, cycle_value, sweeps)


def _aitken(value: float, delta: float, last: float) -> float:
    """Extrapolate a geometric sequence: ``value`` moved by ``delta`` after ``last``."""
    if delta == 0.0 or last == 0.0 or (delta > 0) != (last > 0) or abs(delta) >= abs(last):
        return value
    r = delta / last
    return value + delta * r / (1.0 - r)
