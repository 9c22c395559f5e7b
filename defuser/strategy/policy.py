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

Solutions are computed once per (table, last digit, N) by :mod:`defuser.strategy.dp`, kept in
memory, and their cycle-start values are cached on disk (:mod:`defuser.strategy.cache`), so a
later process confirms them in one sweep instead of iterating.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, Protocol

from defuser.engine.actions import Action, ActionKind
from defuser.engine.rules import HAND_SIZE
from defuser.errors import DefuserError
from defuser.strategy import cache
from defuser.strategy.belief import CycleBelief, Observation, odds
from defuser.strategy.dp import FACES, HAND_COUNT, Choice, Solution, solve, state_index
from edgework import Card, CardType, Ruleset

if TYPE_CHECKING:
    from defuser.engine.simulator import HiddenState

#: Bumped whenever the model or the cache format changes; old cache files are ignored.
CACHE_VERSION: Final = 1

#: How many solutions stay in memory (a bench walks all 200 (table, digit, N)).
MEMORY_SLOTS: Final = 4

#: Two action values closer than this are a tie (broken by a fixed preference).
TIE: Final = 1e-9

_SOLUTIONS: OrderedDict[tuple[str, int, int, bool], Solution] = OrderedDict()


def _cache_name(rules: Ruleset, interval: int, oracle: bool) -> str:
    who = "oracle" if oracle else "player"
    return f"policy-v{CACHE_VERSION}-{who}-{rules.table}{rules.last_digit}-n{interval}.json"


def _load_start(rules: Ruleset, interval: int, oracle: bool) -> list[float] | None:
    data = cache.read_json(_cache_name(rules, interval, oracle))
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return None
    raw = data.get("cycle_value")
    if not isinstance(raw, list) or len(raw) != HAND_COUNT:
        return None
    vals = [math.inf if v is None else v for v in raw]
    if not all(isinstance(v, float | int) and not isinstance(v, bool) and v >= 1 for v in vals):
        return None
    return [float(v) for v in vals]


def solution_for(rules: Ruleset, interval: int, *, oracle: bool = False) -> Solution:
    """The exact solution for a rule set and N: from memory, the disk cache, or computed.

    A cached fixed point is only a starting point: one sweep confirms it (and a stale or
    damaged entry just costs a few more sweeps), so a bad cache cannot give a wrong
    answer.
    """
    key = (rules.table, rules.last_digit, interval, oracle)
    found = _SOLUTIONS.get(key)
    if found is not None:
        _SOLUTIONS.move_to_end(key)
        return found
    start = _load_start(rules, interval, oracle)
    sol = solve(rules, interval, oracle=oracle, start=start)
    if start is None or sol.sweeps > 1:
        cache.write_json(
            _cache_name(rules, interval, oracle),
            {
                "version": CACHE_VERSION,
                "table": rules.table,
                "last_digit": rules.last_digit,
                "interval": interval,
                "oracle": oracle,
                "cycle_value": [None if math.isinf(v) else v for v in sol.cycle_value],
            },
        )
    _SOLUTIONS[key] = sol
    while len(_SOLUTIONS) > MEMORY_SLOTS:
        _SOLUTIONS.popitem(last=False)
    return sol


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


# ---------------------------------------------------------------------- openings


def opening_distribution(rules: Ruleset) -> dict[tuple[Card, tuple[Card, ...]], float]:
    """Every opening state (discard top, hand in slot order) with its exact probability.

    The spec's start-up: the discard top uniform over the 15 faces that are not the
    mitten; three plain cards; while none is legal and plain, slot 1 or 2 re-rolled
    over all 16 faces. The re-roll loop has a closed form: the slot re-rolled last holds
    a uniform legal plain face, and the other slot still holds its first card with
    probability ``2g/(1+g)`` (g: the chance that one re-roll succeeds), else a uniform
    face that is not legal-and-plain.
    """
    plain = rules.plain_faces
    discards = [c for c in Card if c != rules.mitten]
    dist: dict[tuple[Card, tuple[Card, ...]], float] = {}

    def add(discard: Card, hand: tuple[Card, ...], w: float) -> None:
        dist[discard, hand] = dist.get((discard, hand), 0.0) + w

    for discard in discards:
        good = [c for c in plain if rules.is_legal(c, discard)]
        bad = [c for c in Card if c not in good]
        stuck = [c for c in plain if c not in good]
        g = len(good) / FACES
        keep = 2 * g / (1 + g)
        base = 1.0 / len(discards) / len(plain) ** 3
        for a in plain:
            for b in plain:
                for c in plain:
                    if a in good or b in good or c in good:
                        add(discard, (a, b, c), base)
        # Bad openings: (a, b, c) all stuck. Slot 1 or 2 ends holding a good face; the
        # other slot keeps its first card or holds a bad face; the first card of the
        # re-rolled slot no longer matters, so sum it out.
        for c in stuck:
            for new in good:
                w = base * len(stuck) * 0.5 / len(good)
                for other in stuck:
                    add(discard, (new, other, c), w * keep)
                    add(discard, (other, new, c), w * keep)
                for x in bad:
                    w_x = w * len(stuck) * (1 - keep) / len(bad)
                    add(discard, (new, x, c), w_x)
                    add(discard, (x, new, c), w_x)
    return dist


def expected_clicks(rules: Ruleset, interval: int, *, oracle: bool = False) -> float:
    """The exact expected clicks to the solve of the optimal (or oracle) policy,
    averaged over the module's random opening state and deck."""
    sol = solution_for(rules, interval, oracle=oracle)
    sol.complete()
    weights: dict[int, float] = {}
    for (discard, hand), w in opening_distribution(rules).items():
        s = state_index(discard, hand)
        weights[s] = weights.get(s, 0.0) + w
    belief = CycleBelief.initial(interval)
    if not oracle:
        phase = sol.graph.find(belief)
        return math.fsum(w * sol.value(phase, s) for s, w in weights.items())
    total: list[float] = []
    for pw, point in belief.split():
        phase = sol.graph.find(point)
        total.extend(float(pw) * w * sol.value(phase, s) for s, w in weights.items())
    return math.fsum(total)
