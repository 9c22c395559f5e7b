"""Explaining a ``decide`` answer: every option, why the best beats the next best, and
where the mitten cycle stands.

Contract: pure words and numbers from a decide :class:`~defuser.trainer.model.Question`
(its options carry the optimal policy's expected clicks and strike risk; its
``cycle`` is the cycle state in a player's terms). :func:`option_rows` lists the
options best first, with the loss each would be graded with; :func:`best_vs_next` says
in one sentence why the best click beats the next best one, and what a cheaper-looking
gamble would risk. The CLI renders them.
"""

from __future__ import annotations

from dataclasses import dataclass

from defuser.trainer.judges import best_option, risky_loss
from defuser.trainer.model import Option, Question


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


def best_vs_next(question: Question) -> str:
    """Why the best click beats the next best safe one, and any cheaper-looking gamble."""
    best = best_option(question)
    assert best.expected_clicks is not None
    safe = [
        o for o in question.options
        if o is not best and o.strike_risk == 0 and o.expected_clicks is not None
    ]
    parts = []
    if safe:
        runner = min(safe, key=lambda o: o.expected_clicks or 0.0)
        assert runner.expected_clicks is not None
        gap = runner.expected_clicks - best.expected_clicks
        if gap < 0.005:
            parts.append(
                f"{best.action} and {runner.action} are as good as each other (within "
                "0.01 expected clicks)"
            )
        else:
            why = f" ({runner.note})" if runner.note else ""
            parts.append(
                f"{best.action} beats the next best safe click, {runner.action}, by "
                f"{gap:.2f} expected clicks{why}"
            )
    else:
        parts.append(f"{best.action} is the only click that cannot strike")
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
