"""The judges: each kind's answer read in its notation and judged against the question's
typed expected answer.

Contract: a judge takes a question and the text typed and returns a :class:`Judgement`
(or raises :class:`~defuser.trainer.answers.UnreadableAnswer`); it never looks at the
time (:func:`defuser.trainer.grading.grade` adds the time limit). Lookup kinds are
right or wrong. A ``decide`` answer is judged by its expected-click
loss against the best action of the optimal zero-strike policy, on a five-step scale
(:data:`DECIDE_SCALE`); an action that risks a strike is always a blunder, and its loss
(:func:`risky_loss`) charges the strike, so a blunder never reports a smaller loss than
the blunder bound. A ``cycle``
probability is right within :data:`PROBABILITY_TOLERANCE` (so ``14%`` is right for 1/7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from defuser.engine.actions import Action
from defuser.trainer.answers import (
    Answer,
    CountAnswer,
    LegalAnswer,
    ProbabilityAnswer,
    RuleAnswer,
    TableAnswer,
    UnreadableAnswer,
    read_action,
    read_count,
    read_legal,
    read_probability,
    read_rule,
    read_table,
    read_type,
)
from defuser.trainer.facts import DecideFacts
from defuser.trainer.model import Option, Question, Verdict

#: A ``decide`` answer losing less than this many expected clicks counts as the best
#: (ties between equally good actions are common: two legal cards of the same effect).
BEST_TOLERANCE: Final = 1e-6

#: Upper bounds (exclusive) of expected-click loss for each verdict short of blunder.
#: A whole module takes 15-30 clicks; half a click is a small slip, three clicks is
#: most of a mitten cycle thrown away.
DECIDE_SCALE: Final[tuple[tuple[float, Verdict], ...]] = (
    (BEST_TOLERANCE, Verdict.BEST),
    (0.5, Verdict.GOOD),
    (1.5, Verdict.INACCURACY),
    (3.0, Verdict.MISTAKE),
)

#: How far a probability answer may be from the exact value: rounding to two decimals
#: or to a whole percent stays inside it.
PROBABILITY_TOLERANCE: Final = 0.006


#: Expected clicks charged per expected strike. An action's expected clicks count a
#: strike as one click that moves nothing, which can make a gamble look cheaper than
#: the best safe click; a strike really costs a third of the bomb (the strike limit is
#: 3), so it is charged like most of a mitten cycle.
STRIKE_PENALTY: Final = 10.0


def risky_loss(clicks_loss: float | None, strike_risk: float) -> float:
    """The loss of an action that can strike: its expected-click loss (0 if it looks
    cheaper; a click that can never solve counts as nothing extra) plus
    :data:`STRIKE_PENALTY` per expected strike, and never below the blunder bound."""
    clicks = max(clicks_loss or 0.0, 0.0)
    return max(clicks + STRIKE_PENALTY * strike_risk, DECIDE_SCALE[-1][0])


def verdict_for_loss(loss: float) -> Verdict:
    """The decide verdict for a zero-strike action losing ``loss`` expected clicks."""
    for bound, verdict in DECIDE_SCALE:
        if loss < bound:
            return verdict
    return Verdict.BLUNDER


@dataclass(frozen=True, slots=True)
class Judgement:
    """A judge's verdict on one answer: how it was read (in the notation), what is
    wrong with it (``detail``), and for a ``decide`` its expected-click ``loss`` and
    the click it read (``action``, typed: what a game plays)."""

    verdict: Verdict
    reading: str
    detail: str = ""
    loss: float | None = None
    action: Action | None = None


def _right_if_equal(question: Question, given: Answer) -> Judgement:
    verdict = Verdict.RIGHT if given == question.answer else Verdict.WRONG
    return Judgement(verdict, str(given))


def judge_table(question: Question, text: str) -> Judgement:
    """A table letter, right when it is the expected one."""
    return _right_if_equal(question, TableAnswer(read_table(text)))


def judge_identify(question: Question, text: str) -> Judgement:
    """A card type, right when it is the expected one."""
    return _right_if_equal(question, read_type(text))


def judge_rule(question: Question, text: str) -> Judgement:
    """A rule letter, right when it is the expected one."""
    return _right_if_equal(question, RuleAnswer(read_rule(text)))


def judge_edge(question: Question, text: str) -> Judgement:
    """A table letter or a whole number read off the widgets, right when expected."""
    if isinstance(question.answer, TableAnswer):
        return _right_if_equal(question, TableAnswer(read_table(text)))
    return _right_if_equal(question, CountAnswer(read_count(text)))


def judge_legal(question: Question, text: str) -> Judgement:
    """Legal slots and the discard, right when both are; the detail says which is wrong."""
    given = read_legal(text)
    expected = question.answer
    assert isinstance(expected, LegalAnswer)
    if given == expected:
        return Judgement(Verdict.RIGHT, str(given))
    parts = []
    if given.slots != expected.slots:
        parts.append("the legal slots are wrong")
    if given.discard != expected.discard:
        parts.append(
            "you may discard" if expected.discard else "discarding would strike"
        )
    return Judgement(Verdict.WRONG, str(given), "; ".join(parts))


def option_for(question: Question, action: Action) -> Option:
    """The candidate ``action`` of a decide question."""
    for option in question.options:
        if option.action == action:
            return option
    raise UnreadableAnswer(f"answer {str(action)!r} is not one of this question's actions")


def best_option(question: Question) -> Option:
    """The zero-strike option with the fewest expected clicks (the first on ties)."""
    safe = [
        o for o in question.options if o.expected_clicks is not None and o.strike_risk == 0
    ]
    return min(safe, key=lambda o: o.expected_clicks or 0.0)


def judge_decide(question: Question, text: str) -> Judgement:
    """An action, graded by its expected-click loss and its strike risk."""
    facts = question.facts
    defuse_slots = facts.defuse_slots if isinstance(facts, DecideFacts) else ()
    action = read_action(text, defuse_slots)
    option = option_for(question, action)
    best = best_option(question)
    assert best.expected_clicks is not None
    clicks_loss = (
        None
        if option.expected_clicks is None
        else max(option.expected_clicks - best.expected_clicks, 0.0)
    )
    if option.strike_risk > 0:
        chance = option.strike_risk
        loss = risky_loss(clicks_loss, chance)
        risk = "a certain strike" if chance >= 1 else f"a {chance:.0%} chance of a strike"
        detail = f"{action} risks {risk}"
        if option.note:
            detail += f": {option.note}"
        clicks = (
            "" if option.expected_clicks is None
            else f"{action}: {option.expected_clicks:.2f} expected clicks to the solve if a "
            "strike only wasted its click; "
        )
        numbers = (
            f"{clicks}best {best.action}: {best.expected_clicks:.2f}; loss {loss:.2f} "
            f"with {STRIKE_PENALTY:g} clicks charged per strike"
        )
        return Judgement(Verdict.BLUNDER, str(action), f"{detail} ({numbers})", loss, action)
    assert clicks_loss is not None
    loss = clicks_loss
    numbers = (
        f"{action}: {option.expected_clicks:.2f} expected clicks to the solve; "
        f"best {best.action}: {best.expected_clicks:.2f}; loss {loss:.2f}"
    )
    verdict = verdict_for_loss(loss)
    detail = numbers
    if option.note and verdict is not Verdict.BEST:
        detail += f" ({option.note})"
    return Judgement(verdict, str(action), detail, loss, action)


def judge_cycle(question: Question, text: str) -> Judgement:
    """A count of deals (exact) or a probability (within the tolerance)."""
    if isinstance(question.answer, CountAnswer):
        return _right_if_equal(question, CountAnswer(read_count(text)))
    assert isinstance(question.answer, ProbabilityAnswer)
    given = read_probability(text)
    expected = question.answer.probability
    close = abs(float(given) - float(expected)) <= PROBABILITY_TOLERANCE
    # Read back in the form typed: a fraction stays a fraction, anything else is a
    # percentage (so "14%" does not come back as 7/50).
    as_fraction = "/" in text or " in " in f" {text.lower()} "
    reading = str(given) if as_fraction else f"{float(given) * 100:.4g}%"
    detail = "" if close else f"{float(given):.1%} is not {float(expected):.1%}"
    return Judgement(Verdict.RIGHT if close else Verdict.WRONG, reading, detail)
