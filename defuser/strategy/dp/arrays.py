"""The DP's vectorised rows: every state's safe clicks of a rule set as numpy index
arrays, and a whole phase evaluated with them.

Contract: the rows say what :mod:`defuser.strategy.dp.clicks` says state by state (the
rulebook's answers), generated from the rulebook once per rule set
(:func:`arrays_for`), never written by hand: its answers depend on a state's
:class:`~defuser.engine.board.Facts` only, so the rulebook is asked once per distinct
facts (a few dozen) and the answers are spread over the 15,504 states by array
operations (a few milliseconds; a row per state in Python took ten times as long).
:meth:`PhaseArrays.evaluate` gives every state of a phase its value from its
successors' (one phase is one array of 15,504 values, computed in four slices: hands
of 0, 1, 2, 3 cards, since a play only leads to a smaller hand of the same phase).
numpy is imported only when the rows are built, so a process that never evaluates a
phase in full never loads it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from defuser.engine.board import Facts, deal_faces_of, facts_by_discard
from defuser.engine.deck import DealKind
from defuser.engine.rules import HAND_SIZE
from defuser.strategy.dp.clicks import OptionKind, RuleTables, classify, tables_for
from defuser.strategy.dp.expectation import (
    SOLVED,
    after_click,
    deal_value,
    face_weight,
    probe_value,
)
from defuser.strategy.dp.graph import Mode, Phase
from defuser.strategy.dp.states import FACES, HAND_COUNT, HANDS, ROOM_STATES, SIZE_START, STATES
from edgework import Card, Ruleset, TableLetter

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IndexArray = NDArray[np.intp]

# Layout of the flat "candidate values" list X of one phase (see PhaseArrays.evaluate).
_DRAW_OFF: Final = STATES
_DISC_OFF: Final = _DRAW_OFF + ROOM_STATES
_ZERO_CELL: Final = _DISC_OFF + HAND_COUNT
_PROBE_OFF: Final = _ZERO_CELL + 1

#: A play's :class:`~defuser.strategy.dp.clicks.OptionKind` as a code in the candidate
#: builder's arrays (0: not safe).
_PLAY_CODE: Final = {None: 0, OptionKind.PLAY: 1, OptionKind.PROBE: 2, OptionKind.SOLVE: 3}
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
    of :meth:`~defuser.strategy.dp.clicks.RuleTables.options`: draw, discard, plays by
    face; a solve reads the one zero cell alone), packed to the top and padded with -1."""
    import numpy as np

    draw = np.zeros(_KEYS, bool)
    discard = np.zeros_like(draw)
    plays = np.zeros((HAND_SIZE, _KEYS), np.intp)
    for key, f in facts.items():
        draw[key], discard[key], options = classify(mode, f)
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
    tabs: RuleTables, kind: DealKind, keys: IndexArray, facts: dict[int, Facts],
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
    """Cells packed to the top (-1: none) as the array :class:`PhaseArrays` gathers with:
    as many rows as the fullest column needs, padded with ``pad``.

    numpy reduces a few long rows much faster than many short columns.
    """
    import numpy as np

    width = int((cells >= 0).sum(axis=0).max())
    top = cells[:width]
    out: IndexArray = np.ascontiguousarray(np.where(top >= 0, top, pad))
    return out


class PhaseArrays:
    """numpy index arrays of one rule set: the vectorised form of the DP's recurrence.

    The flat "candidate values" vector X of a phase holds, in this order: the state
    values (filled hand size by hand size: a play only leads to a smaller hand), the
    value after a draw per room state, after a discard per hand, a zero (the solve),
    after a failed probe per state, and one infinity that pads ragged candidate rows.
    """

    def __init__(self, tabs: RuleTables) -> None:
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
        plain, counts = _draw_cells(tabs, DealKind.PLAIN, keys, facts, layout)
        self.draw_plain = _columns(plain, STATES)
        self.draw_weight = face_weight(counts)
        defuse = _draw_cells(tabs, DealKind.DEFUSE, keys, facts, layout)[0]
        self.draw_defuse = _columns(defuse, STATES)
        self.n_plain = face_weight(len(tabs.plain))
        self.n_defuse = face_weight(len(tabs.defuses))
        # Discard: per hand, the successor's states with each plain (Defuse) face on top.
        hands = np.arange(HAND_COUNT, dtype=np.intp) * FACES
        self.disc_plain = np.array([hands + c for c in tabs.plain], dtype=np.intp)
        self.disc_defuse = np.array([hands + c for c in tabs.defuses], dtype=np.intp)

    def _column_sum(self, values: FloatArray, columns: IndexArray) -> FloatArray:
        """Per column, the sum of the values its rows point at, in row order."""
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
        """The value of every state of ``phase``, its successors being known.

        ``values[i]`` is phase ``i``'s value list (or None while unknown) and
        ``cycle_value[h]`` the expected value at the start of a new cycle with hand ``h``
        (discard top = the mitten face), averaged over where the cycle starts. The
        arithmetic is :mod:`defuser.strategy.dp.expectation`'s, on arrays.
        """
        np = self.np
        draw, disc = self._deals(phase, values, cycle_value)
        if phase.mode is Mode.UNSAFE:
            fail = values[phase.probe_fail]
            assert fail is not None
            probe = probe_value(phase.on_top, np.asarray(fail, dtype=float))
        else:
            probe = np.full(STATES, np.inf)
        x = np.concatenate((np.zeros(STATES), draw, disc, [SOLVED], probe, [np.inf]))
        for (a, b), cands in zip(self.slices, self.cands[phase.mode], strict=True):
            x[a:b] = after_click(self._column_min(x, cands))
        out: FloatArray = x[:STATES].copy()
        return out

    def _deals(
        self,
        phase: Phase,
        values: Sequence[FloatArray | None],
        cycle_value: Sequence[float],
    ) -> tuple[FloatArray, FloatArray]:
        """The value after a draw per state with room in the hand (infinite where the
        phase allows no draw) and after a discard per hand, the click excluded."""
        np = self.np
        safe = phase.mode is Mode.SAFE
        draws: list[tuple[float, float | FloatArray, FloatArray]] = []
        discards: list[tuple[float, float | FloatArray, FloatArray]] = []
        mitten = 0.0
        for o in phase.outcomes:
            if o.kind is DealKind.MITTEN:
                mitten += o.probability
                continue
            vals = values[o.phase]
            assert vals is not None
            flat = np.asarray(vals, dtype=float)
            plain = o.kind is DealKind.PLAIN
            weight = self.n_plain if plain else self.n_defuse
            faces = self.disc_plain if plain else self.disc_defuse
            discards.append((o.probability, weight, self._column_sum(flat, faces)))
            if safe:
                # The draw rows' padding points at a zero appended to the values.
                padded = np.append(flat, 0.0)
                rows = self.draw_plain if plain else self.draw_defuse
                share = self.draw_weight if plain else self.n_defuse
                draws.append((o.probability, share, self._column_sum(padded, rows)))
        cycle = np.asarray(cycle_value, dtype=float)
        disc = deal_value(discards, mitten, cycle, np.zeros(HAND_COUNT))
        if not safe:
            return np.full(ROOM_STATES, np.inf), disc
        return deal_value(draws, 0.0, np.zeros(ROOM_STATES), np.zeros(ROOM_STATES)), disc


@functools.lru_cache(maxsize=8)
def arrays_for(table: TableLetter, last_digit: int) -> PhaseArrays:
    """The index arrays of one rule set (shared by every N; the last few kept), built
    from :func:`~defuser.strategy.dp.clicks.tables_for`'s answers on first use."""
    return PhaseArrays(tables_for(table, last_digit))
