"""Explaining a ``decide`` answer: every option, why the best beats the next best, and
where the mitten cycle stands.

Contract: pure words and numbers from a decide :class:`~defuser.trainer.model.Question`
(its options carry the optimal policy's expected clicks and strike risk; its
``cycle`` is the cycle state in a player's terms). :func:`option_rows` lists the
options best first, with the loss each would be graded with; :func:`best_vs_next` says
in one sentence why the best click beats the next best one that cannot strike (naming
every click tied with it, and never comparing with a click on an empty slot, which does
nothing), and what a cheaper-looking gamble would risk. The CLI renders them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from defuser.engine.board import ON_TOP_VALUES, Effect, Facts, verdict_of
from defuser.trainer.facts import DecideFacts, LegalFacts
from defuser.trainer.judges import best_option, risky_loss
from defuser.trainer.model import Option, Question

#: Clicks whose expected clicks differ by less than this are as good as each other.
TIE: Final = 0.005


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One line of the option table."""

    action: str
    expected_clicks: float | None
    strike_risk: float
    loss: float
    best: bool
    note: str


def _loss(option: Option, best: Option) -> float:
    assert best.expected_clicks is not None
    clicks = (
        None if option.expected_clicks is None
        else max(option.expected_clicks - best.expected_clicks, 0.0)
    )
    if option.strike_risk > 0:
        return risky_loss(clicks, option.strike_risk)
    return clicks or 0.0


def option_rows(question: Question) -> list[OptionRow]:
    """Every option of a decide question, by the loss it would be graded with (the best
    first; ties keep the question's order)."""
    best = best_option(question)
    rows = [
        OptionRow(
            str(o.action),
            o.expected_clicks,
            o.strike_risk,
            _loss(o, best),
            o is best,
            o.note,
        )
        for o in question.options
    ]
    return sorted(rows, key=lambda r: (not r.best, r.loss))


def wasted(question: Question, option: Option) -> bool:
    """Whether ``option`` does nothing but cost itself, by the rulebook's verdict
    (:func:`~defuser.engine.board.verdict_of`) with the mitten on top and not. Whether
    a click on a module that is not solved does nothing rests on the hand's size alone
    (a click on an empty slot), which is what the question's facts give: the rest of
    the facts asked with (no slot legal, no Defuse) can only turn a click that does
    something into a strike, never into nothing."""
    shown = question.facts
    if not isinstance(shown, LegalFacts | DecideFacts):
        return False
    facts = Facts(size=len(shown.hand), legal=0, defuse=0)
    return all(verdict_of(facts, option.action, on_top).effect is Effect.NOTHING
               for on_top in ON_TOP_VALUES)


def _margin(best: Option, other: Option) -> float:
    assert best.expected_clicks is not None and other.expected_clicks is not None
    return other.expected_clicks - best.expected_clicks


def _names(options: Sequence[Option]) -> str:
    """``draw``, ``draw and play 1``, ``draw, play 1 and play 2``."""
    names = [str(o.action) for o in options]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _safe_words(question: Question, best: Option) -> str:
    """Best against the other clicks that cannot strike and do something: every click
    tied with it, then the next best; never a click on an empty slot."""
    useful = sorted(
        (o for o in question.options
         if o is not best and o.strike_risk == 0 and o.expected_clicks is not None
         and not wasted(question, o)),
        key=lambda o: _margin(best, o),
    )
    tied = [o for o in useful if _margin(best, o) < TIE]
    rest = useful[len(tied):]
    if tied:
        words = (f"{_names([best, *tied])} are as good as each other (within 0.01 "
                 "expected clicks)")
        if rest:
            words += (f"; the next best safe click, {rest[0].action}, costs "
                      f"{_margin(best, rest[0]):.2f} more")
        return words
    if rest:
        runner = rest[0]
        why = f" ({runner.note})" if runner.note else ""
        return (f"{best.action} beats the next best safe click, {runner.action}, by "
                f"{_margin(best, runner):.2f} expected clicks{why}")
    if any(wasted(question, o) for o in question.options):
        return f"{best.action} is the only click that can neither strike nor do nothing"
    return f"{best.action} is the only click that cannot strike"


def best_vs_next(question: Question) -> str:
    """Why the best click beats the next best safe one (every tied click named; clicks
    on empty slots left out), and any cheaper-looking gamble."""
    best = best_option(question)
    assert best.expected_clicks is not None
    parts = [_safe_words(question, best)]
    gambles = [
        o for o in question.options
        if o.strike_risk > 0 and o.expected_clicks is not None
        and o.expected_clicks < best.expected_clicks
    ]
    for gamble in gambles:
        assert gamble.expected_clicks is not None
        parts.append(
            f"{gamble.action} looks {best.expected_clicks - gamble.expected_clicks:.2f} "
            f"clicks cheaper only if a strike cost nothing: it strikes "
            f"{gamble.strike_risk:.0%} of the time"
        )
    return "; ".join(parts) + "."
