"""Action values: what every click is worth in a visible situation, and the best one.

Contract: everything here reads only an :class:`~defuser.strategy.belief.Observation`
and the exact solution of its configuration (never hidden state).
:func:`action_values` gives every action's expected clicks to the solve (this click
included, then playing optimally) and its chance of a strike; :func:`best_action` picks
the safe one with the fewest (ties by a fixed preference: plays, lowest slot first,
then discard, then draw); :func:`recommend` adds the one-line reason::

    rec = recommend(obs)          # Recommendation(action, expected_clicks, reason, values)
    for av in action_values(obs): # ActionValue(action, expected_clicks, strike_probability)
        print(av.action, av.expected_clicks, av.strike_probability)

What each click does comes from the rulebook (:class:`~defuser.engine.board.Board`),
with the mitten on top and not, weighed by the belief. Solutions come from a
:class:`~defuser.strategy.solutions.SolutionStore`: the process's own unless one is
passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import Board, Effect, played_from
from defuser.engine.rules import HAND_SIZE
from defuser.errors import DefuserError
from defuser.strategy.belief import Observation
from defuser.strategy.dp.expectation import by_answer
from defuser.strategy.dp.solution import Solution
from defuser.strategy.dp.states import state_index
from defuser.strategy.reasons import reason_parts
from defuser.strategy.solutions import SolutionStore, solution_for
from edgework.errors import MisuseError

#: Two action values closer than this are a tie (broken by a fixed preference).
TIE: Final = 1e-9



@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action in a visible situation: the expected clicks to the solve if taken now
    (this click included, then playing optimally) and its chance of a strike."""

    action: Action
    expected_clicks: float
    strike_probability: Fraction

    @property
    def safe(self) -> bool:
        """Whether the action can never strike."""
        return self.strike_probability == 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict: ``command``, ``expected_clicks``, ``strike_probability``."""
        return {
            "command": str(self.action),
            "expected_clicks": _json_float(self.expected_clicks),
            "strike_probability": float(self.strike_probability),
        }


@dataclass(frozen=True, slots=True)
class Recommendation:
    """The optimal policy's answer: what to do, why, and the expected clicks left.

    ``action`` is ``None`` before the opening state is known and after the solve.
    ``expected_clicks`` counts this click and every later one (``None`` when there is
    no action).
    """

    action: Action | None
    expected_clicks: float | None
    reason: str
    values: tuple[ActionValue, ...] = ()
    #: Why ``action`` is best, without the click's own name (``reason`` gives both).
    why: str = ""


def _json_float(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 6)


def _context(obs: Observation, store: SolutionStore | None) -> tuple[Solution, int, int]:
    if obs.discard is None:
        raise DefuserError("no opening state yet: give the discard top and the hand first")
    sol = solution_for(obs.rules, obs.interval, store=store)
    try:
        phase = sol.graph.find(obs.belief)
    except KeyError:  # pragma: no cover - every reachable belief has a phase
        raise DefuserError("this belief about the deck is not one the module can reach") from None
    return sol, phase, state_index(obs.discard, obs.hand)


def action_values(
    obs: Observation, store: SolutionStore | None = None
) -> tuple[ActionValue, ...]:
    """Every action's expected clicks to the solve in this situation, and strike risk.

    Actions: ``draw``, ``discard`` and ``play`` for each occupied slot. A strike costs
    its click and changes nothing on the module, but can teach something (a draw strike
    with room proves the mitten is on top); that is counted.
    """
    if obs.solved:
        return ()
    sol, phase, s = _context(obs, store)
    board = obs.board
    chances = _chances(obs.belief.mitten_on_top)
    return tuple(
        _action_value(obs, sol, phase, s, board, action, chances)
        for action in _ACTIONS[len(obs.hand)]
    )


#: Per hand size, the actions :func:`action_values` weighs: draw, discard, each play.
_ACTIONS: Final = tuple(
    (Action.draw(), Action.discard(), *(Action.play(slot) for slot in range(1, size + 1)))
    for size in range(HAND_SIZE + 1)
)
_NO_RISK: Final = Fraction(0)
_SURE: Final = Fraction(1)
_ON_TOP: Final = ((True, _SURE),)
_NOT_ON_TOP: Final = ((False, _SURE),)


def _chances(on_top: Fraction) -> tuple[tuple[bool, Fraction], ...]:
    """The answers to "is the mitten on top?" that a belief with this chance of it
    allows, each with its chance."""
    if on_top == 0:
        return _NOT_ON_TOP
    if on_top == 1:
        return _ON_TOP
    return ((True, on_top), (False, 1 - on_top))


def _action_value(
    obs: Observation,
    sol: Solution,
    phase: int,
    s: int,
    board: Board,
    action: Action,
    chances: tuple[tuple[bool, Fraction], ...],
) -> ActionValue:
    """One action's value: the rulebook says what it does with the mitten on top and
    not; each answer the belief allows (``chances``: the answers with their chance)
    is weighed by its chance, and an effect that tells the two apart moves the belief
    with it."""
    if len(chances) == 1:  # the belief knows whether the mitten is on top
        on_top, chance = chances[0]
        effect = board.verdict(action, mitten_on_top=on_top).effect
        after = _after(sol, phase, s, board, action, effect)
        return ActionValue(action, 1.0 + after, chance if effect is Effect.STRIKE else _NO_RISK)
    effects = [board.verdict(action, mitten_on_top=on_top).effect for on_top, _ in chances]
    strike = _NO_RISK
    for (_, w), effect in zip(chances, effects, strict=True):
        if effect is Effect.STRIKE:
            strike += w
    if effects[0] is effects[-1]:
        return ActionValue(action, 1.0 + _after(sol, phase, s, board, action, effects[0]), strike)
    if_on_top, if_not = (
        _after(sol, sol.graph.find(obs.belief.given_on_top(on_top)), s, board, action, effect)
        for (on_top, _), effect in zip(chances, effects, strict=True)
    )
    value = by_answer(float(obs.belief.mitten_on_top), if_on_top, if_not)
    return ActionValue(action, 1.0 + value, strike)


def _after(
    sol: Solution, phase: int, s: int, board: Board, action: Action, effect: Effect
) -> float:
    """Expected clicks after ``action`` had ``effect`` in state ``s`` of ``phase``."""
    if effect is Effect.SOLVE:
        return 0.0
    if effect is Effect.STRIKE:
        return sol.value(phase, s)  # a strike moves nothing
    if effect is Effect.DEAL:
        return sol.deal_value(phase, s, draw=action.kind is ActionKind.DRAW)
    assert action.slot is not None
    top, rest = played_from(board.hand, action.slot)
    return sol.value(phase, state_index(top, rest))


def _preference(av: ActionValue) -> tuple[int, int]:
    # Ties go to plays (lowest slot), then discard, then draw: the order a player
    # naturally checks the hand, the pile and the deck.
    kind = av.action.kind
    if kind is ActionKind.PLAY:
        return (0, av.action.slot or 0)
    return (1, 0) if kind is ActionKind.DISCARD else (2, 0)


def best_action(values: tuple[ActionValue, ...]) -> ActionValue:
    """The safe action with the fewest expected clicks (ties by a fixed preference)."""
    safe = [av for av in values if av.safe]
    if not safe:
        raise MisuseError("no action is safe here")  # pragma: no cover - discard or play
    low = min(av.expected_clicks for av in safe)
    return min((av for av in safe if av.expected_clicks <= low + TIE), key=_preference)


def recommend(obs: Observation, store: SolutionStore | None = None) -> Recommendation:
    """The optimal safe action now, its expected clicks to the solve and why."""
    if obs.discard is None:
        return Recommendation(None, None, "Give the opening state first.")
    if obs.solved:
        return Recommendation(None, None, "Solved: nothing more to do.")
    values = action_values(obs, store)
    best = best_action(values)
    head, why = reason_parts(obs, best, values)
    return Recommendation(best.action, best.expected_clicks, f"{head}: {why}", values, why)
