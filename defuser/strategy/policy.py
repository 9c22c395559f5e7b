"""Policies: the Bayes-optimal zero-strike policy and the ``safe`` and ``oracle`` baselines.

Contract: the solver never sees hidden state. :class:`OptimalPolicy` and
:class:`SafePolicy` read only an :class:`~defuser.strategy.belief.Observation`; the ``oracle``
baseline is the one deliberate exception, given a module's ``reveal`` to show how far
perfect knowledge of the deck would go (a lower bound, not a rival).

Every policy has one method, ``choose(observation) -> Action``, so the live session,
the benchmark, the trainer and the prop bridge can swap them. The optimal policy also
explains itself: :func:`recommend` returns the action, its one-line reason and the
expected clicks to the solve, and :func:`action_values` the expected clicks of every
action (strike-risking ones flagged with their chance of a strike)::

    rec = recommend(obs)          # Recommendation(action, expected_clicks, reason, values)
    for av in action_values(obs): # ActionValue(action, expected_clicks, strike_probability)
        print(av.action, av.expected_clicks, av.strike_probability)

Solutions come from :mod:`defuser.strategy.solutions` (shipped with the package, else
cached or solved by :mod:`defuser.strategy.dp`); ``expected_clicks`` and
``opening_distribution`` are re-exported here for the policies' callers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, Protocol

from defuser.engine.actions import Action, ActionKind
from defuser.engine.rules import HAND_SIZE
from defuser.errors import DefuserError
from defuser.strategy.belief import CycleBelief, Observation, odds
from defuser.strategy.dp import Choice, Solution, state_index
from defuser.strategy.openings import opening_distribution
from defuser.strategy.solutions import expected_clicks, solution_for
from edgework import CardType

if TYPE_CHECKING:
    from defuser.engine.simulator import HiddenState

#: Two action values closer than this are a tie (broken by a fixed preference).
TIE: Final = 1e-9


# ---------------------------------------------------------------------- values


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


def _json_float(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 6)


def _context(obs: Observation) -> tuple[Solution, int, int]:
    if obs.discard is None:
        raise DefuserError("no opening state yet: give the discard top and the hand first")
    sol = solution_for(obs.rules, obs.interval)
    try:
        phase = sol.graph.find(obs.belief)
    except KeyError:  # pragma: no cover - every reachable belief has a phase
        raise DefuserError("this belief about the deck is not one the module can reach") from None
    return sol, phase, state_index(obs.discard, obs.hand)


def action_values(obs: Observation) -> tuple[ActionValue, ...]:
    """Every action's expected clicks to the solve in this situation, and strike risk.

    Actions: ``draw``, ``discard`` and ``play`` for each occupied slot. A strike costs
    its click and changes nothing on the module, but can teach something (a draw strike
    with room proves the mitten is on top); that is counted.
    """
    if obs.solved:
        return ()
    sol, phase, s = _context(obs)
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
        raise DefuserError("no action is safe here")  # pragma: no cover - discard or play
    low = min(av.expected_clicks for av in safe)
    return min((av for av in safe if av.expected_clicks <= low + TIE), key=_preference)


def recommend(obs: Observation) -> Recommendation:
    """The optimal safe action now, its expected clicks to the solve and why."""
    if obs.discard is None:
        return Recommendation(None, None, "Give the opening state: start <discard> <hand cards>.")
    if obs.solved:
        return Recommendation(None, None, "Solved: nothing more to do.")
    values = action_values(obs)
    best = best_action(values)
    return Recommendation(best.action, best.expected_clicks, explain(obs, best, values), values)


# ---------------------------------------------------------------------- reasons


def explain(obs: Observation, chosen: ActionValue, values: tuple[ActionValue, ...]) -> str:
    """A one-line reason for ``chosen`` that a player understands.

    ``values`` are the situation's action values (from :func:`action_values`); a reason
    quotes them where a close alternative deserves a number.
    """
    belief = obs.belief
    p = belief.mitten_on_top
    action = chosen.action
    holds_defuse = bool(obs.defuse_slots())
    room = len(obs.hand) < HAND_SIZE
    d = belief.deals_until_on_top
    if action.kind is ActionKind.PLAY:
        assert action.slot is not None and obs.discard is not None
        card = obs.hand[action.slot - 1]
        name = f"Play {action.slot} ({card.code}"
        if obs.rules.type_of(card) is CardType.DEFUSE:
            if p == 1:
                return f"{name}, a Defuse): the mitten is on top, so this solves the module."
            if p > 0:
                return (
                    f"{name}, a Defuse): it is legal, so it cannot strike, and it solves "
                    f"the module if the mitten is on top ({odds(p)})."
                )
        rule = obs.rules.rule(card)
        legal = obs.legal_slots
        if not room and p == 0 and belief.defuse_possible and not holds_defuse:
            why = "it is legal, and it frees a slot so the Defuse can be drawn when it comes"
        elif obs.blocking_slots and len(legal) == 1:
            why = "it is the only legal card, and it blocks the discard"
        elif obs.blocking_slots:
            why = (
                f"legal cards block the discard, and this one sets the best next rule ({rule})"
            )
        else:
            why = f"it is legal, and the rule it sets ({rule}) suits your hand best"
        return f"{name}): {why}."
    if action.kind is ActionKind.DISCARD:
        if p == 1:
            return (
                "Discard: the mitten is on top and you hold no Defuse; discard it to start "
                "the next cycle."
            )
        if p > 0:
            return (
                f"Discard: the mitten may be on top ({odds(p)}); discarding is safe and "
                "moves the deck."
            )
        if holds_defuse:
            where = "" if d is None else f" ({d} deal{'s' if d != 1 else ''} away)"
            return (
                f"Discard: you hold a Defuse; discarding moves the deck toward the "
                f"mitten{where} and keeps your hand free."
            )
        if not belief.defuse_possible:
            return (
                "Discard: no Defuse can come before the mitten, so move the deck without "
                "filling your hand."
            )
        if belief.defuse_next == 0:
            return (
                "Discard: the next card cannot be the Defuse, so deal it onto the pile and "
                "keep your hand free."
            )
        if not room:
            return (
                "Discard: the hand is full and nothing is playable, so discarding is the "
                f"only safe move (the Defuse comes next {odds(belief.defuse_next)})."
            )
        draw = next((av for av in values if av.action.kind is ActionKind.DRAW), None)
        extra = 0.0 if draw is None else draw.expected_clicks - chosen.expected_clicks
        cost = f" (drawing costs {extra:.2f} clicks more on average)" if extra >= 0.005 else ""
        return (
            f"Discard: the Defuse is unlikely next ({odds(belief.defuse_next)}), and a "
            f"drawn card would cost a play later{cost}."
        )
    # draw
    if not holds_defuse and belief.defuse_next == 1:
        return "Draw: the next card is the Defuse; draw it into your hand."
    if not holds_defuse and belief.defuse_next > 0:
        return (
            f"Draw: the mitten is not on top, and the Defuse may come next "
            f"({odds(belief.defuse_next)}); drawing catches it."
        )
    if obs.blocking_slots:
        return (
            "Draw: the mitten is not on top; the discard is blocked, and drawing is "
            "cheaper than playing."
        )
    return "Draw: the mitten is not on top; drawing is safe and moves the deck."


# ---------------------------------------------------------------------- policies


class Policy(Protocol):
    """Anything that picks the next click from what a player sees."""

    name: str

    def choose(self, observation: Observation) -> Action:
        """The next click."""


class OptimalPolicy:
    """The Bayes-optimal policy: fewest expected clicks, never a strike."""

    name = "optimal"

    def choose(self, observation: Observation) -> Action:
        """The recommended action (the observation must be started and not solved)."""
        if observation.discard is None or observation.solved:
            raise DefuserError("there is nothing to choose: the module is not started or solved")
        return best_action(action_values(observation)).action


class SafePolicy:
    """The careful human baseline: never draws blind.

    Solves when the mitten is known to be on top and a Defuse is in hand; draws only
    when the phase is known, the mitten is not on top, no Defuse is held and this
    cycle's Defuse may come next; otherwise plays the first legal card that is not a
    Defuse (a lone legal Defuse does not block), else discards.
    """

    name = "safe"

    def choose(self, observation: Observation) -> Action:
        """The baseline's next click."""
        obs = observation
        belief = obs.belief
        defuses = obs.defuse_slots()
        if belief.mitten_on_top == 1 and defuses:
            return Action.play(defuses[0])
        known = belief.deals_until_on_top
        if (
            known is not None
            and known > 0
            and not defuses
            and len(obs.hand) < HAND_SIZE
            and belief.defuse_next > 0
        ):
            return Action.draw()
        if not obs.blocking_slots:
            return Action.discard()
        for slot in obs.legal_slots:
            if slot not in defuses:
                return Action.play(slot)
        return Action.play(obs.legal_slots[0])


class OraclePolicy:
    """Optimal play for someone who sees the deck: a lower bound on expected clicks.

    It reads the hidden state through ``reveal`` (a module's :meth:`reveal`) and plays
    the exact optimum of the same model with every belief a certainty.
    """

    name = "oracle"

    def __init__(self, reveal: Callable[[], HiddenState]) -> None:
        self.reveal = reveal

    def choose(self, observation: Observation) -> Action:
        """The all-seeing next click."""
        obs = observation
        assert obs.discard is not None
        hidden = self.reveal()
        sol = solution_for(obs.rules, obs.interval, oracle=True)
        belief = CycleBelief.point(obs.interval, (hidden.deals_until_mitten, hidden.defuse_in))
        phase = sol.graph.find(belief)
        s = state_index(obs.discard, obs.hand)
        choices = sol.choices(phase, s)
        low = min(v for _, v in choices)
        options = [a for a, v in choices if v <= low + TIE]
        return _oracle_action(obs, options)


def _oracle_action(obs: Observation, options: list[Choice]) -> Action:
    def rank(option: Choice) -> tuple[int, int]:
        if option.card is not None:
            return (0, obs.hand.index(option.card))
        return (1, 0) if option.kind is ActionKind.DISCARD else (2, 0)

    return min(options, key=rank).action(obs.hand)


#: The policies ``mittens bench`` knows, in report order.
POLICY_NAMES: Final[tuple[str, ...]] = ("optimal", "safe", "oracle")


def make_policy(name: str, reveal: Callable[[], HiddenState] | None = None) -> Policy:
    """A policy by name; ``oracle`` needs the module's ``reveal``."""
    if name == "optimal":
        return OptimalPolicy()
    if name == "safe":
        return SafePolicy()
    if name == "oracle":
        if reveal is None:
            raise DefuserError("the oracle policy needs the module's hidden state")
        return OraclePolicy(reveal)
    raise DefuserError(f"policy {name!r} is not known, expected one of {', '.join(POLICY_NAMES)}")


__all__ = [
    "POLICY_NAMES",
    "TIE",
    "ActionValue",
    "OptimalPolicy",
    "OraclePolicy",
    "Policy",
    "Recommendation",
    "SafePolicy",
    "action_values",
    "best_action",
    "expected_clicks",
    "explain",
    "make_policy",
    "opening_distribution",
    "recommend",
    "solution_for",
]
