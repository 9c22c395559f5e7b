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

Solutions come from a :class:`~defuser.strategy.solutions.SolutionStore`: the
process's own unless one is passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from defuser.engine.actions import Action, ActionKind
from defuser.engine.rules import HAND_SIZE
from defuser.errors import DefuserError
from defuser.strategy.belief import Observation
from defuser.strategy.dp import Solution, state_index
from defuser.strategy.reasons import reason_parts
from defuser.strategy.solutions import SolutionStore, solution_for
from edgework import CardType
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
    belief = obs.belief
    p = belief.mitten_on_top
    pf = float(p)
    here = sol.value(phase, s)
    graph = sol.graph
    out: list[ActionValue] = []

    if len(obs.hand) >= HAND_SIZE or p == 1:
        out.append(ActionValue(Action.draw(), 1.0 + here, Fraction(1)))
    elif p == 0:
        out.append(ActionValue(Action.draw(), 1.0 + sol.deal_value(phase, s, draw=True), p))
    else:
        top = graph.find(belief.given_on_top(True))
        clear = graph.find(belief.given_on_top(False))
        value = pf * sol.value(top, s) + (1.0 - pf) * sol.deal_value(clear, s, draw=True)
        out.append(ActionValue(Action.draw(), 1.0 + value, p))

    if obs.blocking_slots:
        out.append(ActionValue(Action.discard(), 1.0 + here, Fraction(1)))
    else:
        value = sol.deal_value(phase, s, draw=False)
        out.append(ActionValue(Action.discard(), 1.0 + value, Fraction(0)))

    assert obs.discard is not None
    for slot, card in enumerate(obs.hand, start=1):
        rest = obs.hand[: slot - 1] + obs.hand[slot:]
        target = state_index(card, rest)
        legal = obs.rules.is_legal(card, obs.discard)
        action = Action.play(slot)
        if obs.rules.type_of(card) is CardType.DEFUSE and p > 0:
            if p == 1:
                out.append(ActionValue(action, 1.0, Fraction(0)))
                continue
            clear = graph.find(belief.given_on_top(False))
            if legal:
                value = (1.0 - pf) * sol.value(clear, target)
                out.append(ActionValue(action, 1.0 + value, Fraction(0)))
            else:
                value = (1.0 - pf) * sol.value(clear, s)
                out.append(ActionValue(action, 1.0 + value, 1 - p))
        elif legal:
            out.append(ActionValue(action, 1.0 + sol.value(phase, target), Fraction(0)))
        else:
            out.append(ActionValue(action, 1.0 + here, Fraction(1)))
    return tuple(out)


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
