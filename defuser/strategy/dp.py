"""Exact dynamic programming for the fewest expected clicks to the solve, never striking.

Contract: values are computed from beliefs (:class:`defuser.strategy.belief.CycleBelief`) and the
visible state only; this module never looks at a simulator's hidden state. The same
engine also solves the all-seeing problem (every belief a certainty), which gives the
``oracle`` baseline its exact lower bound.

The model. A *state* is a visible situation: the hand as a multiset of faces (969 of
them, 0 to 3 cards of 16 faces) and the discard top (16 faces), inside a *phase*: one
belief about the deck. Every click costs 1. The clicks weighed are the ones that can
never strike, and what each does comes from the rulebook
(:mod:`defuser.engine.board`), asked under every answer to "is the mitten on top?"
that the phase allows: in a phase where the mitten may be on top, a play that solves
if it is and otherwise goes on the pile (a legal Defuse) is a *probe*, which proves
the mitten is not on top when it does not solve. A deal reveals a card of a kind the
belief says how likely (plain, the Defuse, the mitten), showing one of the faces the
rulebook says that deal can bring, and the belief becomes what that kind implies.
Phases are the distinct beliefs reachable from the start, found by
exploring :class:`~defuser.strategy.belief.CycleBelief` itself, so the DP and the belief can never
disagree. Deals lead to later phases except the mitten, which starts a new cycle: the
values at a cycle's start (discard top = the mitten face) are the fixed point of one
sweep over the cycle, found by value iteration (with Aitken extrapolation) until a sweep
changes no value by more than 1e-11; the first, partial cycle is then solved on demand.

Speed. One phase is one array of 15,504 values, computed in four slices (hands of 0, 1,
2, 3 cards: a play only leads to a smaller hand of the same phase) by numpy, gathering
precomputed candidate indices from one flat vector of "what each action is worth" and
taking each row's minimum. Those candidate rows are generated from the rulebook once
per rule set, with numpy: its answers depend on a state's
:class:`~defuser.engine.board.Facts` only, so the rulebook is asked once per distinct
facts (a few dozen) and the answers are spread over the 15,504 states by array
operations (a few milliseconds; a row per state in Python took ten times as long).
numpy is imported only when a phase is evaluated in full, so a process that answers
from a stored fixed point (:meth:`Solution.from_cycle_value`) never loads it for the
first cycle, which it computes on demand. Nor for a later cycle, whose first question
needs most states of every recurring phase: the package ships those phases' values for
the hands with room for a draw (numpy's own evaluation, to the bit; see
:func:`later_room_values`), and a full hand's value follows from them with the same
arithmetic in a few operations (:class:`ShippedPhase`), so a later cycle's answers cost
milliseconds without numpy (whose import alone costs as much as a process start).
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
from typing import TYPE_CHECKING, Any, Final, cast

from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import (
    Board,
    Effect,
    Facts,
    deal_faces_of,
    facts_by_discard,
    verdict_of,
)
from defuser.engine.deck import DealKind
from defuser.engine.rules import HAND_SIZE
from defuser.errors import UnusableStartError
from defuser.strategy import shipped
from defuser.strategy.belief import CycleBelief
from edgework import Card, MisuseError, Ruleset, TableLetter

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
            tuple(((m, None if e < 0 else e), Fraction(num, den)) for m, e, num, den in support),
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


class _Option(enum.Enum):
    """How the DP values one safe click (see :meth:`_Tables.options`)."""

    DRAW = "draw"
    DISCARD = "discard"
    #: A play that puts the card on the pile whatever the deck: the same phase.
    PLAY = "play"
    #: A play that solves with the mitten on top and otherwise puts the card on the
    #: pile, proving the mitten is not on top: the phase after a failed probe.
    PROBE = "probe"
    #: A click that solves: the last one.
    SOLVE = "solve"


#: The answers to "is the mitten on top?" each mode allows.
_ANSWERS: Final = {Mode.SAFE: (False,), Mode.UNSAFE: (False, True), Mode.ZERO: (True,)}
#: A play's effects (mitten not on top, on top) -> how the DP values it.
_PLAY_OPTIONS: Final = {
    frozenset({Effect.PLAY}): _Option.PLAY,
    frozenset({Effect.SOLVE}): _Option.SOLVE,
    frozenset({Effect.PLAY, Effect.SOLVE}): _Option.PROBE,
}
_PLAIN: Final = DealKind.PLAIN
_DEFUSE: Final = DealKind.DEFUSE
_DRAW_ACTION: Final = Action.draw()
_DISCARD_ACTION: Final = Action.discard()
_PLAY_ACTIONS: Final = tuple(Action.play(slot) for slot in range(1, HAND_SIZE + 1))
@functools.cache
def _moves_a_card(facts: Facts) -> bool:
    """Whether some click can change the hand: a draw, or a play under either answer."""
    if verdict_of(facts, _DRAW_ACTION, False).effect is Effect.DEAL:
        return True
    return any(
        verdict_of(facts, play, t).effect in (Effect.PLAY, Effect.SOLVE)
        for play in _PLAY_ACTIONS[: facts.size]
        for t in (False, True)
    )


_MODE_INDEX: Final = {mode: i for i, mode in enumerate(Mode)}


@functools.cache
def _classify(mode: Mode, facts: Facts) -> tuple[bool, bool, tuple[_Option | None, ...]]:
    """Which clicks are safe on a board with these facts in ``mode``: the draw, the
    discard, and per slot how the DP values its play (``None``: not safe).

    A click is safe when it strikes under no answer the mode allows to "is the mitten
    on top?". (Few facts exist, so each is worked out once.)
    """
    answers = _ANSWERS[mode]
    draw = all(verdict_of(facts, _DRAW_ACTION, t).effect is Effect.DEAL for t in answers)
    discard = all(
        verdict_of(facts, _DISCARD_ACTION, t).effect is Effect.DEAL for t in answers
    )
    plays = tuple(
        _PLAY_OPTIONS.get(frozenset(verdict_of(facts, play, t).effect for t in answers))
        for play in _PLAY_ACTIONS[: facts.size]
    )
    return draw, discard, plays


#: One safe click as the DP values it: how, the face played (-1 for a draw or a
#: discard) and the state it leads to within the phase (-1 when none).
Option = tuple[_Option, int, int]


@functools.cache
def _distinct(h: int) -> tuple[tuple[int, int, int], ...]:
    """Per distinct face of hand ``h``: the face, the hand without one of it, and the
    0-based slot of its first copy (the DP's hands are sorted)."""
    hand = HANDS[h]
    return tuple((c, rest, hand.index(c)) for c, rest in remove_row(h))


@functools.cache
def _derive(mode: Mode, h: int, facts: Facts) -> tuple[Option, ...]:
    """The safe clicks of hand ``h`` with these facts in ``mode`` (see
    :meth:`_Tables.options`)."""
    draw, discard, plays = _classify(mode, facts)
    faces = [(c, rest, plays[i]) for c, rest, i in _distinct(h)]
    solves = [(_Option.SOLVE, c, -1) for c, _, o in faces if o is _Option.SOLVE]
    if solves:
        return tuple(solves)
    out: list[Option] = []
    if draw:
        out.append((_Option.DRAW, -1, -1))
    if discard:
        out.append((_Option.DISCARD, -1, -1))
    out += [(o, c, rest * FACES + c) for c, rest, o in faces if o is not None]
    return tuple(out)


class _Tables:
    """Per rule set: the rulebook's answers for every visible state, asked on first
    use (:meth:`options`, :meth:`draw_faces`), and (built on first use) the
    candidate-action index arrays of every state in each mode for :meth:`evaluate`.

    Nothing here restates a rule: which clicks are safe in a mode, what they lead to
    and which faces a deal brings all come from the rulebook
    (:mod:`defuser.engine.board`), asked with each state's :class:`Facts`.
    """

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.mitten = int(rules.mitten)
        #: The legal faces per discard top (the on-demand values' sharing keys).
        self.legal = [rules.legal_mask(Card(d)) for d in range(FACES)]
        self._cards = tuple(Card)
        # A discard replaces the top, so what it brings cannot depend on the board:
        # ask any board of this rule set.
        anyboard = Board(rules, rules.mitten, ())
        self.plain = [int(c) for c in anyboard.deal_faces(DealKind.PLAIN, draw=False)]
        self.defuses = [int(c) for c in anyboard.deal_faces(DealKind.DEFUSE, draw=False)]
        self._options: dict[int, tuple[Option, ...]] = {}
        self._facts: dict[int, tuple[Facts, ...]] = {}
        self._draw_faces: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def facts(self, state: int) -> Facts:
        """The rulebook's :class:`Facts` of ``state``."""
        h, d = divmod(state, FACES)
        return self.hand_facts(h)[d]

    def hand_facts(self, h: int) -> tuple[Facts, ...]:
        """The rulebook's :class:`Facts` of hand ``h`` on each discard top."""
        found = self._facts.get(h)
        if found is None:
            found = self._facts[h] = facts_by_discard(self.rules, HANDS[h])
        return found

    def options(self, mode: Mode, state: int) -> tuple[Option, ...]:
        """The safe clicks in ``state`` in a phase of ``mode``, in the order the DP
        weighs them: draw, discard, then plays by face (a face held twice is one
        choice). When a click solves, nothing is cheaper: only the solves are listed."""
        key = _MODE_INDEX[mode] * STATES + state
        found = self._options.get(key)
        if found is None:
            found = self._options[key] = _derive(mode, state // FACES, self.facts(state))
        return found

    def draw_faces(self, state: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The plain faces and the Defuse faces a draw can bring in ``state`` (the hand
        must have room)."""
        found = self._draw_faces.get(state)
        if found is None:
            found = self._draw_faces[state] = self._faces(state % FACES, self.facts(state))
        return found

    def _faces(self, d: int, facts: Facts) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self.deal_faces(d, facts, _PLAIN), self.deal_faces(d, facts, _DEFUSE)

    def deal_faces(self, d: int, facts: Facts, kind: DealKind) -> tuple[int, ...]:
        """The faces a draw dealing ``kind`` can bring on discard top ``d`` with these
        facts (the rulebook's :func:`~defuser.engine.board.deal_faces_of`)."""
        found = deal_faces_of(self.rules, self._cards[d], facts, kind, draw=True)
        return tuple([int(c) for c in found])

    @functools.cached_property
    def dead(self) -> list[bool]:
        """Hands that can never be solved: full, and no click ever moves a card out of
        them whatever the discard top. The module never deals such a hand (a draw into
        two illegal cards is legal), but the DP covers every hand, so these start with
        an infinite value instead of a diverging one."""
        return [
            not any(_moves_a_card(self.facts(h * FACES + d)) for d in range(FACES))
            for h in range(HAND_COUNT)
        ]

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


#: A play's :class:`_Option` as a code in the candidate builder's arrays (0: not safe).
_PLAY_CODE: Final = {None: 0, _Option.PLAY: 1, _Option.PROBE: 2, _Option.SOLVE: 3}
#: A facts key (see :func:`_state_keys`): hand size, Defuse slots, legal slots.
_KEY_SIZE: Final = 1 << (2 * HAND_SIZE)
_KEY_DEFUSE: Final = 1 << HAND_SIZE
#: How many facts keys there are.
_KEYS: Final = _KEY_SIZE * (HAND_SIZE + 1)


class _HandLayout:
    """numpy views of :data:`HANDS` that every rule set's rows share.

    ``faces`` holds each hand's faces by slot (slot by hand), padded with 16; ``first``
    whether a slot holds the first copy of its face (the DP's one choice per face);
    ``played`` the state a play of the slot leads to (the hand without it, the card on
    top); ``add`` (hand by face) the hand with that face added (-1 for a full hand).
    """

    __slots__ = ("add", "faces", "first", "played", "size")

    def __init__(
        self,
        faces: IndexArray,
        size: IndexArray,
        first: NDArray[np.bool_],
        played: IndexArray,
        add: IndexArray,
    ) -> None:
        self.faces = faces
        self.size = size
        self.first = first
        self.played = played
        self.add = add


@functools.cache
def _hand_layout() -> _HandLayout:
    """The :class:`_HandLayout`, built once per process."""
    import numpy as np

    faces = np.array([[*h, *(FACES,) * (HAND_SIZE - len(h))] for h in HANDS], np.intp)
    index = np.full((FACES + 1) ** HAND_SIZE, -1, np.intp)
    index[_hand_codes(faces)] = np.arange(HAND_COUNT)
    size = (faces < FACES).sum(axis=1)
    first = (faces < FACES) & np.concatenate(
        (np.ones((HAND_COUNT, 1), bool), faces[:, 1:] != faces[:, :-1]), axis=1
    )
    pad = np.full((HAND_COUNT, 1), FACES, np.intp)
    played = np.stack([
        index[_hand_codes(np.hstack((np.delete(faces, i, axis=1), pad)))] * FACES + faces[:, i]
        for i in range(HAND_SIZE)
    ])
    grown = np.concatenate(
        (np.repeat(faces[:, None, :], FACES, axis=1),
         np.broadcast_to(np.arange(FACES)[None, :, None], (HAND_COUNT, FACES, 1))),
        axis=2,
    )
    grown.sort(axis=2)
    add = np.where(size[:, None] < HAND_SIZE, index[_hand_codes(grown[..., :HAND_SIZE])], -1)
    return _HandLayout(np.ascontiguousarray(faces.T), size, first.T.copy(), played, add)


def _hand_codes(faces: IndexArray) -> IndexArray:
    """A number per sorted, padded hand (the last axis: its faces), one hand one number."""
    code = faces[..., 0]
    for i in range(1, HAND_SIZE):
        code = code * (FACES + 1) + faces[..., i]
    return code


def _state_keys(rules: Ruleset, layout: _HandLayout) -> tuple[IndexArray, dict[int, Facts]]:
    """Per state (hand * 16 + discard top), a key of its rulebook :class:`Facts`, and
    the facts of each key that occurs.

    The rulebook's facts of a board are per slot (whether the rule admits its card, and
    whether it is a Defuse, bit ``i`` for slot ``i + 1``): they are asked of one-card
    boards and put together per hand, as :func:`~defuser.engine.board.facts_by_discard`
    gives them (``tests/strategy/test_dp_rows.py`` holds the rows to the rulebook).
    """
    import numpy as np

    one = [facts_by_discard(rules, (card,)) for card in Card]
    admits = np.zeros((FACES + 1, FACES), np.intp)  # face (16: no card), discard top
    admits[:FACES] = [[f.legal for f in one[c]] for c in range(FACES)]
    defuse = np.array([one[c][0].defuse for c in range(FACES)] + [0], np.intp)
    legal = np.zeros((HAND_COUNT, FACES), np.intp)
    defuses = np.zeros(HAND_COUNT, np.intp)
    for i, slot in enumerate(layout.faces):
        legal |= admits[slot] << i
        defuses |= defuse[slot] << i
    keys = (layout.size * _KEY_SIZE + defuses * _KEY_DEFUSE)[:, None] + legal
    facts = {}
    for key in _distinct_values(keys, _KEYS)[0].tolist():
        size, rest = divmod(key, _KEY_SIZE)
        facts[key] = Facts(size, rest % _KEY_DEFUSE, rest // _KEY_DEFUSE)
    return keys.ravel(), facts


def _candidate_cells(
    mode: Mode, keys: IndexArray, facts: dict[int, Facts], layout: _HandLayout
) -> IndexArray:
    """Per state (a column), the cells of X its safe clicks read in ``mode`` (the order
    of :meth:`_Tables.options`: draw, discard, plays by face; a solve reads the one zero
    cell alone), packed to the top and padded with -1."""
    import numpy as np

    draw = np.zeros(_KEYS, bool)
    discard = np.zeros_like(draw)
    plays = np.zeros((HAND_SIZE, _KEYS), np.intp)
    for key, f in facts.items():
        draw[key], discard[key], options = _classify(mode, f)
        plays[: len(options), key] = [_PLAY_CODE[o] for o in options]
    states = np.arange(STATES)
    hands = states // FACES
    play = np.where(layout.first[:, hands], plays[:, keys], 0)
    target = layout.played[:, hands]
    cells = np.vstack((
        np.where(draw[keys], _DRAW_OFF + states, -1),
        np.where(discard[keys], _DISC_OFF + hands, -1),
        np.where(play == 1, target, np.where(play == 2, _PROBE_OFF + target, -1)),
    ))
    solves = (play == 3).any(axis=0)
    cells[:, solves] = -1
    cells[0, solves] = _ZERO_CELL
    valid = cells >= 0
    _, columns = np.nonzero(valid)
    packed = np.full_like(cells, -1)
    packed[(np.cumsum(valid, axis=0) - 1)[valid], columns] = cells[valid]
    return packed


def _draw_cells(
    tabs: _Tables, kind: DealKind, keys: IndexArray, facts: dict[int, Facts],
    layout: _HandLayout,
) -> tuple[IndexArray, IndexArray]:
    """Per state with room in the hand (a column), the states a draw dealing ``kind``
    leads to, one per face the rulebook says it can bring (padded with -1), and how
    many faces."""
    import numpy as np

    states = np.arange(ROOM_STATES)
    discards = states % FACES
    groups, inverse = _distinct_values(discards * _KEYS + keys[:ROOM_STATES], FACES * _KEYS)
    faces = np.full((FACES, len(groups)), -1, np.intp)
    counts = np.zeros(len(groups), np.intp)
    for g, group in enumerate(groups.tolist()):
        d, key = divmod(group, _KEYS)
        found = deal_faces_of(tabs.rules, Card(d), facts[key], kind, draw=True)
        faces[: len(found), g] = found
        counts[g] = len(found)
    drawn = faces[:, inverse]
    cells = np.where(drawn >= 0, layout.add[states // FACES, drawn] * FACES + discards, -1)
    return cells, counts[inverse]


def _distinct_values(values: IndexArray, bound: int) -> tuple[IndexArray, IndexArray]:
    """The distinct values (each in ``range(bound)``) in increasing order, and where
    each value is among them (``numpy.unique`` would import ``numpy.ma``)."""
    import numpy as np

    present = np.zeros(bound, bool)
    present[values] = True
    distinct = np.flatnonzero(present)
    where = np.zeros(bound, np.intp)
    where[distinct] = np.arange(len(distinct))
    return distinct, where[values]


def _columns(cells: IndexArray, pad: int) -> IndexArray:
    """Cells packed to the top (-1: none) as the array :class:`_Arrays` gathers with:
    as many rows as the fullest column needs, padded with ``pad``.

    numpy reduces a few long rows much faster than many short columns.
    """
    import numpy as np

    width = int((cells >= 0).sum(axis=0).max())
    top = cells[:width]
    out: IndexArray = np.ascontiguousarray(np.where(top >= 0, top, pad))
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
        layout = _hand_layout()
        keys, facts = _state_keys(tabs.rules, layout)
        slices = [(SIZE_START[k] * FACES, SIZE_START[k + 1] * FACES) for k in range(HAND_SIZE + 1)]
        self.slices = slices
        self.cands = {}
        for mode in (Mode.SAFE, Mode.UNSAFE, Mode.ZERO):
            cells = _candidate_cells(mode, keys, facts, layout)
            self.cands[mode] = [_columns(cells[:, a:b], inf_cell) for a, b in slices]
        # Padding of the draw rows points at a zero appended to the successor's values.
        plain, counts = _draw_cells(tabs, _PLAIN, keys, facts, layout)
        self.draw_plain = _columns(plain, STATES)
        self.draw_weight = 1.0 / counts
        self.draw_defuse = _columns(_draw_cells(tabs, _DEFUSE, keys, facts, layout)[0], STATES)
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
def tables_for(table: TableLetter, last_digit: int) -> _Tables:
    """The precomputed tables of one rule set (shared by every N; the last few kept)."""
    return _Tables(Ruleset(table, last_digit))


def later_room_values(rules: Ruleset, interval: int, cycle_value: list[float]) -> list[float]:
    """The player's later-cycle values as :func:`~defuser.strategy.shipped.load_later`
    returns them for these cycle-start values: every recurring phase (in increasing
    order) evaluated with numpy, its first :data:`ROOM_STATES` values (the build step's
    work, see :mod:`defuser.strategy.shipped_build`)."""
    sol = Solution.from_cycle_value(rules, interval, cycle_value)
    sol._evaluate(recurrent=True)  # numpy, whatever is shipped
    out: list[float] = []
    for found, phase in zip(sol.full, sol.graph.phases, strict=True):
        if phase.recurrent:
            assert found is not None and not isinstance(found, ShippedPhase)
            out += found[:ROOM_STATES].tolist()
    return out


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




class _PhaseDeals:
    """A phase's deals laid out for the on-demand path: per outcome its probability,
    successor phase (-1 for the mitten, which starts a new cycle) and whether it deals a
    plain card; the faces a discard can show (a draw's are the state's own,
    :meth:`_Tables.draw_faces`). A plain class: a dataclass costs start-up time to
    define, and these are only read."""

    __slots__ = ("all_outcomes", "defuses", "outcomes", "plain")

    def __init__(self, phase: Phase, tabs: _Tables) -> None:
        """The layout of ``phase`` under ``tabs``' rule set."""
        every = tuple(
            (o.probability, -1 if o.kind is DealKind.MITTEN else o.phase, o.kind is DealKind.PLAIN)
            for o in phase.outcomes
        )
        self.outcomes = tuple(o for o in every if o[1] >= 0)
        self.all_outcomes = every
        self.plain = tuple(tabs.plain)
        self.defuses = tuple(tabs.defuses)


class ShippedPhase:
    """A recurring phase's values from the values shipped for a later cycle: the states
    whose hand has room for a draw as stored (:data:`ROOM_STATES` of them), and a full
    hand's value worked out when first asked, with the very arithmetic of
    :meth:`_Arrays.evaluate` (the same operations on the same floats in the same order),
    so every value is the float numpy's evaluation gives. A full hand cannot draw: its
    value needs its discard (the same hand in the next phases, down to the cycle's
    start values) and plays that lead to stored states, never a whole phase.

    A plain class: a dataclass costs start-up time to define.
    """

    __slots__ = ("discards", "full_hands", "index", "room", "solution")

    def __init__(self, solution: Solution, index: int, room: list[float]) -> None:
        """Phase ``index`` of ``solution``, whose room states hold ``room``."""
        self.solution = solution
        self.index = index
        self.room = room
        self.full_hands: dict[int, float] = {}
        self.discards: dict[int, float] = {}

    def __getitem__(self, state: int) -> float:
        """The value of ``state`` in this phase."""
        if state < ROOM_STATES:
            return self.room[state]
        found = self.full_hands.get(state)
        if found is None:
            found = self.full_hands[state] = self._full_hand(state)
        return found

    def _full_hand(self, state: int) -> float:
        """A full hand's value: one click plus the cheapest safe click's value after it
        (``_Arrays.evaluate``'s row minimum, then ``+= 1.0``)."""
        sol = self.solution
        phase = sol.graph.phases[self.index]
        best = math.inf
        for option, _, target in sol.tables.options(phase.mode, state):
            if option is _Option.SOLVE:
                found = 0.0
            elif option is _Option.DISCARD:
                found = self.discard(state // FACES)
            elif option is _Option.PLAY:
                found = self[target]
            elif option is _Option.PROBE:
                fail = sol.full[phase.probe_fail]
                assert fail is not None
                found = (1.0 - phase.on_top) * float(fail[target])
            else:  # pragma: no cover - the rulebook lets no full hand draw
                raise MisuseError("a full hand cannot draw")
            if found < best:
                best = found
        return best + 1.0

    def discard(self, h: int) -> float:
        """The value after a discard with hand ``h`` (the click excluded), summed as
        ``_Arrays.evaluate`` sums it: per deal, the faces in order, weighted by the
        deal's chance times one over their number; the mitten's share last."""
        found = self.discards.get(h)
        if found is not None:
            return found
        sol = self.solution
        here = h * FACES
        total = 0.0
        mitten = 0.0
        for o in sol.graph.phases[self.index].outcomes:
            if o.kind is DealKind.MITTEN:
                mitten += o.probability
                continue
            faces = sol.tables.plain if o.kind is DealKind.PLAIN else sol.tables.defuses
            after = sol.full[o.phase]
            assert after is not None
            part = float(after[here + faces[0]])
            for c in faces[1:]:
                part += float(after[here + c])
            total += (o.probability * (1.0 / len(faces))) * part
        if mitten:
            total += mitten * sol.cycle_value[h]
        self.discards[h] = total
        return total


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
        self._later = _later_phases(graph)
        self._modes = [ph.mode for ph in graph.phases]
        self._safe = [mode is Mode.SAFE for mode in self._modes]
        self._deals = [_PhaseDeals(ph, self.tables) for ph in graph.phases]
        #: Values shared by the states of a phase without draws that differ only in a
        #: discard top admitting the same cards of the hand (see :meth:`value`).
        self._alike: dict[int, float] = {}
        #: Discard values, which depend on the phase and the hand only.
        self._discards: dict[int, float] = {}

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
                oracle=self.graph.refine is _oracle_refine,
            )
            if room is not None:
                for k, i in enumerate(recurrent):
                    stored = room[k * ROOM_STATES : (k + 1) * ROOM_STATES]
                    self.full[i] = ShippedPhase(self, i, stored)
                return
        self._evaluate(recurrent=True)

    def _evaluate(self, *, recurrent: bool) -> None:
        """Evaluate with numpy every phase (only the recurring ones if ``recurrent``)
        that has no values yet; shipped values are first replaced by evaluated ones."""
        for i, found in enumerate(self.full):
            if isinstance(found, ShippedPhase):
                self.full[i] = None
        arrays = cast("list[FloatArray | None]", self.full)
        for i in self.graph.order:
            if arrays[i] is None and (self.graph.phases[i].recurrent or not recurrent):
                arrays[i] = self.tables.evaluate(self.graph.phases[i], arrays, self.cycle_value)

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
        self._evaluate(recurrent=False)
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
        mode = self._modes[phase]
        h = state // FACES
        best = math.inf
        memo = self._memo
        value = self.value
        here = phase * STATES
        for option, _, target in self.tables.options(mode, state):
            if option is _Option.SOLVE:
                return 0.0
            if option is _Option.DRAW:
                found = self._draw_value(phase, h, state)
            elif option is _Option.DISCARD:
                found = self._discard_value(phase, h)
            elif option is _Option.PROBE:
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

    def _draw_value(self, phase: int, h: int, state: int) -> float:
        """:meth:`deal_value` of a draw (same arithmetic), for :meth:`_best`."""
        deals = self._deals[phase]
        plain, defuse = self.tables.draw_faces(state)
        d = state - h * FACES
        add = add_row(h)
        memo = self._memo
        value = self.value
        total = 0.0
        # The states a drawn plain face or Defuse leads to, in face order (every phase).
        plain_at = [add[c] * FACES + d for c in plain]
        defuse_at = [add[c] * FACES + d for c in defuse]
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
        add = add_row(h)
        total = 0.0
        for o in self.graph.phases[phase].outcomes:
            if o.kind is DealKind.MITTEN:
                if draw:
                    raise MisuseError("a draw cannot deal the mitten")
                total += o.probability * self.cycle_value[h]
                continue
            if draw:
                plain, defuse = tabs.draw_faces(state)
                faces = plain if o.kind is DealKind.PLAIN else defuse
                targets = [add[c] * FACES + d for c in faces]
            else:
                faces = tuple(tabs.plain if o.kind is DealKind.PLAIN else tabs.defuses)
                targets = [h * FACES + c for c in faces]
            part = sum(self.value(o.phase, t) for t in targets)
            total += o.probability * part / len(faces)
        return total

    def choices(self, phase: int, state: int) -> list[tuple[Choice, float]]:
        """The safe actions in a state and their values after this click.

        Each is a :class:`Choice`: a draw, a discard, or a play of a face (a plain play,
        a probe or the solve); the value excludes the click itself.
        """
        ph = self.graph.phases[phase]
        out: list[tuple[Choice, float]] = []
        for option, c, target in self.tables.options(ph.mode, state):
            if option is _Option.SOLVE:
                out.append((_SOLVES[c], 0.0))
            elif option is _Option.DRAW:
                out.append((DRAW, self.deal_value(phase, state, draw=True)))
            elif option is _Option.DISCARD:
                out.append((DISCARD, self.deal_value(phase, state, draw=False)))
            elif option is _Option.PROBE:
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
    :data:`TOLERANCE`, so the extrapolation affects speed, never the answer. A ``start``
    it does not converge from is :class:`~defuser.errors.UnusableStartError`.
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
            if start is not None:
                raise UnusableStartError("the cycle's value iteration did not converge from "
                                         "the stored start")
            raise MisuseError("the cycle's value iteration did not converge")
    return Solution(rules, interval, graph, values, cycle_value, sweeps)


def _aitken(value: float, delta: float, last: float) -> float:
    """Extrapolate a geometric sequence: ``value`` moved by ``delta`` after ``last``."""
    if delta == 0.0 or last == 0.0 or (delta > 0) != (last > 0) or abs(delta) >= abs(last):
        return value
    r = delta / last
    return value + delta * r / (1.0 - r)
