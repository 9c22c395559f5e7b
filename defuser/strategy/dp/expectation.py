"""The DP's expected-value arithmetic, written once for every path that values a state.

Contract: every value the DP computes is made by these functions: numpy's evaluation of
a whole phase (:meth:`~defuser.strategy.dp.arrays.PhaseArrays.evaluate`, on arrays of
states), the on-demand values of the first cycle and of a later cycle's full hands, and
the values of the choices and deals the action values weigh
(:class:`~defuser.strategy.dp.solution.Solution`, on floats). Each function works on a
float and on a numpy array alike, with the same operations in the same order, so every
path gives the very same float for a state, to the bit.

The arithmetic. A click costs one (:func:`after_click`: a state's value is one click
plus the cheapest safe click's value after it; a solve is worth nothing after it). A
deal (a draw, or a discard's new top) is worth the average over what it can bring
(:func:`deal_value`): per kind of card that keeps the cycle going (plain, the Defuse),
its chance times one over the number of faces it can show (:func:`face_weight`) times
the sum, in face order, of the values those faces lead to; the kinds in the phase's
order; then the mitten's chance times the value at a new cycle's start. A probe that
does not solve proves the mitten is not on top (:func:`probe_value`). A click whose
effect hangs on whether the mitten is on top, weighed by the player's belief, is each
answer's value times its chance (:func:`by_answer`; the action values use it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, TypeVar, overload

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    FloatArray = NDArray[np.float64]
    IndexArray = NDArray[np.intp]

#: A value or an array of them (one per state or per hand).
V = TypeVar("V", float, "FloatArray")

#: What a click costs, in clicks.
CLICK: Final = 1.0
#: What is left after a click that solves.
SOLVED: Final = 0.0


def after_click(best: V) -> V:
    """A state's value: one click plus ``best``, the cheapest safe click's value after
    it (the lowest of :func:`deal_value`, :func:`probe_value`, a play's next state and
    :data:`SOLVED`)."""
    return best + CLICK


@overload
def face_weight(count: int) -> float: ...


@overload
def face_weight(count: IndexArray) -> FloatArray: ...


def face_weight(count: int | IndexArray) -> float | FloatArray:
    """One over the number of faces a deal of one kind can show: each is equally
    likely (a count per state, as an array, gives a weight per state)."""
    return 1.0 / count


def deal_value(
    kinds: Iterable[tuple[float, float | V, V]], mitten: float, cycle: V, zero: V
) -> V:
    """The value after a deal, the click excluded: per kind of card it can bring that
    keeps the cycle going, given as (its chance, its :func:`face_weight`, the sum in face
    order of the values its faces lead to), the chance times the weight times the sum,
    added up in the order given from ``zero``; then ``mitten`` (the chance that the
    mitten is dealt, summed in the phase's order) times ``cycle``, the value at a new
    cycle's start."""
    total = zero
    for probability, weight, faces in kinds:
        total = total + probability * weight * faces
    if mitten:
        total = total + mitten * cycle
    return total


def probe_value(on_top: float, fail: V) -> V:
    """The value after a probe (a legal Defuse while the mitten may be on top), the click
    excluded: it solves with chance ``on_top``, and otherwise leaves ``fail``, the value
    of the next state once the mitten is known not to be on top."""
    return (1.0 - on_top) * fail


def by_answer(on_top: float, if_on_top: float, if_not: float) -> float:
    """The value after a click whose effect depends on whether the mitten is on top,
    the click excluded: the value if it is, times the chance ``on_top`` that it is, plus
    the value if it is not, times the rest. A probe is the case where on top solves
    (:func:`probe_value`, kept apart because it also runs on arrays of states whose
    values may be infinite, where a zero chance times infinity is not zero)."""
    return on_top * if_on_top + (1.0 - on_top) * if_not
