"""Judge each decision of a replayed module against the optimal zero-strike policy.

Contract: :func:`judge` takes a :class:`~defuser.logs.check.ModuleCheck` and walks its
replay through a :class:`~defuser.strategy.belief.Observation`, which sees only what the player
saw (cards, strikes; never the log's countdown lines). Before every action it asks the
policy (:func:`defuser.strategy.values.action_values`) for the expected clicks to the solve of
every action and their chance of a strike, and rates the action taken:

- :attr:`ClickRating.BEST`: safe and as fast as the optimal policy's choice;
- :attr:`ClickRating.SLOWER`: safe, but it costs ``extra_clicks`` more clicks on average;
- :attr:`ClickRating.RISKY`: it could strike, with ``strike_probability`` (1 for a certain
  strike).

Judging needs N, so a module whose N the log leaves open is not judged, and judging
stops at the first action the rules do not allow (the checker reports it); what
edgework would let it be judged is an :class:`~defuser.logs.stream.EdgeFact`.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from fractions import Fraction

from defuser.engine.actions import Action
from defuser.errors import DefuserError
from defuser.logs.check.module import ModuleCheck
from defuser.logs.check.steps import ReplayStep
from defuser.logs.stream import EdgeFact
from defuser.strategy.belief import Observation, odds
from defuser.strategy.reasons import reason_line
from defuser.strategy.values import TIE, ActionValue, action_values, best_action


class ClickRating(enum.StrEnum):
    """How one action compares with the optimal policy (its value is the JSON
    ``verdict``, and the key of the module's ``verdicts`` counts)."""

    #: Safe and as fast as the optimal policy's choice.
    BEST = "best"
    #: Safe, but slower on average.
    SLOWER = "slower"
    #: It could strike.
    RISKY = "risky"


@dataclass(frozen=True, slots=True)
class ClickJudgement:
    """How one action compares with the optimal policy, and the cycle before it."""

    line: int
    verdict: ClickRating
    command: str
    expected_clicks: float | None
    best_command: str
    best_clicks: float | None
    extra_clicks: float
    strike_probability: Fraction
    #: The optimal policy's reason for its own choice.
    best_reason: str
    #: Where the cycle stood before the action, as the player could know it.
    cycle: str
    mitten_on_top: Fraction
    deals_until_on_top: int | None

    def words(self) -> str:
        """The verdict in a few words."""
        if self.verdict is ClickRating.BEST:
            return "best"
        if self.verdict is ClickRating.SLOWER:
            return (
                f"safe but slower: +{self.extra_clicks:.2f} expected clicks "
                f"(best: {self.best_command})"
            )
        if self.strike_probability == 1:
            return f"risky: a sure strike (best: {self.best_command})"
        return (
            f"risky: strike chance {odds(self.strike_probability)} (best: {self.best_command})"
        )


@dataclass(slots=True)
class ModuleJudgement:
    """The judgements of one module's actions, by the line that starts each action."""

    judgements: dict[int, ClickJudgement] = field(default_factory=dict)
    #: Why the module (or the rest of it) could not be judged; empty when all was.
    stopped: str = ""
    #: The edgework that would let it be judged, if any.
    needs: EdgeFact | None = None

    @property
    def counts(self) -> dict[ClickRating, int]:
        """How many actions got each rating (every rating, in order)."""
        out = dict.fromkeys(ClickRating, 0)
        for j in self.judgements.values():
            out[j.verdict] += 1
        return out

    @property
    def extra_clicks(self) -> float:
        """The expected clicks lost by safe but slower choices, in all."""
        return sum(
            j.extra_clicks for j in self.judgements.values() if j.verdict is ClickRating.SLOWER
        )


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else x


def judge(check: ModuleCheck) -> ModuleJudgement:
    """Rate every action of ``check``'s replay against the optimal policy."""
    result = ModuleJudgement()
    rules, opening = check.rules, check.opening
    if not check.replayed or rules is None or opening is None:
        result.stopped = "the module could not be replayed"
        return result
    if check.interval is None:
        result.stopped = (
            "N is not known (the batteries are not in the log and no mitten was seen), so "
            "the decisions are not judged"
        )
        result.needs = EdgeFact.BATTERIES
        return result
    if len(check.digit_candidates) > 1:
        result.stopped = (
            "the serial number's last digit is not known, so the decisions are not judged"
        )
        result.needs = EdgeFact.SERIAL
        return result
    try:
        obs = Observation.start(rules, check.interval, opening[0], opening[1])
    except DefuserError as exc:
        result.stopped = f"the opening state is not one the module starts with ({exc})"
        return result
    for step in check.steps:
        if obs.solved:
            break
        action = step.action
        if action is None:
            result.stopped = f"line {step.line}: the played card is not in the hand"
            return result
        try:
            values = action_values(obs)
            result.judgements[step.line] = _rate(step.line, obs, action, values)
            obs = _advance(obs, step)
        except DefuserError as exc:
            result.stopped = f"judging stops at line {step.line}: {exc}"
            return result
    return result


def _rate(
    line: int, obs: Observation, action: Action, values: tuple[ActionValue, ...]
) -> ClickJudgement:
    taken = next(v for v in values if v.action == action)
    best = best_action(values)
    belief = obs.belief
    extra = max(0.0, taken.expected_clicks - best.expected_clicks)
    if taken.strike_probability > 0:
        verdict = ClickRating.RISKY
    elif extra <= TIE or math.isclose(taken.expected_clicks, best.expected_clicks):
        verdict, extra = ClickRating.BEST, 0.0
    else:
        verdict = ClickRating.SLOWER
    return ClickJudgement(
        line=line,
        verdict=verdict,
        command=str(action),
        expected_clicks=_finite(taken.expected_clicks),
        best_command=str(best.action),
        best_clicks=_finite(best.expected_clicks),
        extra_clicks=extra if math.isfinite(extra) else 0.0,
        strike_probability=taken.strike_probability,
        best_reason=reason_line(obs, best, values),
        cycle=belief.describe(),
        mitten_on_top=belief.mitten_on_top,
        deals_until_on_top=belief.deals_until_on_top,
    )


def _advance(obs: Observation, step: ReplayStep) -> Observation:
    event = step.event
    if event is None:
        raise DefuserError(f"the action at line {step.line} cannot be followed")
    return obs.apply(event)
