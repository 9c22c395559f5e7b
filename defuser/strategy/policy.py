"""Policies: the Bayes-optimal zero-strike policy and the ``safe`` and ``oracle`` baselines.

Contract: the solver never sees hidden state. :class:`OptimalPolicy` and
:class:`SafePolicy` read only an :class:`~defuser.strategy.belief.Observation`; the ``oracle``
baseline is the one deliberate exception, given a module's ``reveal`` to show how far
perfect knowledge of the deck would go (a lower bound, not a rival).

Every policy has one method, ``choose(observation) -> Action``, so the live session,
the benchmark, the trainer and the prop bridge can swap them; :func:`make_policy` makes
one by name. The strategy's other jobs live beside this module: action values and the
recommendation in :mod:`defuser.strategy.values`, their reasons in
:mod:`defuser.strategy.reasons`, where solutions come from in
:mod:`defuser.strategy.solutions`, the opening states in :mod:`defuser.engine.deck`
(their expectation in :mod:`defuser.strategy.openings`); import those from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol

from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import Effect
from defuser.strategy.belief import CycleBelief, Observation
from defuser.strategy.dp.clicks import Choice
from defuser.strategy.dp.states import state_index
from defuser.strategy.solutions import SolutionStore, solution_for
from defuser.strategy.values import TIE, action_values, best_action
from edgework.errors import MisuseError

if TYPE_CHECKING:
    from defuser.engine.deck import Hidden




class Policy(Protocol):
    """Anything that picks the next click from what a player sees."""

    name: str

    def choose(self, observation: Observation) -> Action:
        """The next click."""


class OptimalPolicy:
    """The Bayes-optimal policy: fewest expected clicks, never a strike."""

    name = "optimal"

    def __init__(self, store: SolutionStore | None = None) -> None:
        self.store = store

    def choose(self, observation: Observation) -> Action:
        """The recommended action (the observation must be started and not solved)."""
        if observation.discard is None or observation.solved:
            raise MisuseError("there is nothing to choose: the module is not started or solved")
        return best_action(action_values(observation, self.store)).action


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
        board = obs.board
        if belief.mitten_on_top == 1:
            for slot in range(1, len(obs.hand) + 1):
                play = Action.play(slot)
                if board.verdict(play, mitten_on_top=True).effect is Effect.SOLVE:
                    return play
        defuses = obs.defuse_slots()
        known = belief.deals_until_on_top
        if known is not None and obs.draw_safe and not defuses and belief.defuse_next > 0:
            return Action.draw()
        if obs.discard_allowed:
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

    def __init__(
        self, reveal: Callable[[], Hidden], store: SolutionStore | None = None
    ) -> None:
        self.reveal = reveal
        self.store = store

    def choose(self, observation: Observation) -> Action:
        """The all-seeing next click."""
        obs = observation
        assert obs.discard is not None
        hidden = self.reveal()
        sol = solution_for(obs.rules, obs.interval, oracle=True, store=self.store)
        belief = CycleBelief.point(obs.interval, hidden)
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


def make_policy(
    name: str,
    reveal: Callable[[], Hidden] | None = None,
    store: SolutionStore | None = None,
) -> Policy:
    """A policy by name; ``oracle`` needs the module's ``reveal``. ``store``: where the
    optimal and oracle policies get solutions (default: the process's store)."""
    if name == "optimal":
        return OptimalPolicy(store)
    if name == "safe":
        return SafePolicy()
    if name == "oracle":
        if reveal is None:
            raise MisuseError("the oracle policy needs the module's hidden state")
        return OraclePolicy(reveal, store)
    raise MisuseError(f"policy {name!r} is not known, expected one of {', '.join(POLICY_NAMES)}")


__all__ = [
    "POLICY_NAMES",
    "OptimalPolicy",
    "OraclePolicy",
    "Policy",
    "SafePolicy",
    "make_policy",
]
