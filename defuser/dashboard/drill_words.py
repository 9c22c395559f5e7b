"""The drill's words both front ends say: a session's plan, where a question stands,
the daily goal, what is due, why nothing is left to ask, a game's edge and where the
mitten cycle stood when a game was stopped.

Contract: each function turns one of the drill session's typed values
(:mod:`defuser.trainer.drill_session`, :mod:`defuser.trainer.session`,
:mod:`defuser.trainer.scheduler`) into the words ``mittens drill`` prints and the web
drill page (and its JSON at ``/api/drill/<key>``) shows, so the two say the very same;
the trainer itself carries numbers, enums and typed fields, never these words. Nothing
here reads a file or the clock.
"""

from __future__ import annotations

from defuser.engine.clock import time_text
from defuser.strategy.belief import CycleBelief, odds
from defuser.trainer.drill_session import Asked, DailyProgress, DrillPlan, Place
from defuser.trainer.scheduler import NewCap, Outlook
from defuser.trainer.session import CaughtUpReason, CaughtUpWhy
from edgework import Edgework


def _counted(count: int, unit: str) -> str:
    return f"{count} {unit}{'s' if count != 1 else ''}"


def place_words(place: Place) -> str:
    """``3/10``, or ``3, 4:10 left`` (``3/10, 4:10 left`` with a count too) in a timed
    session."""
    head = f"{place.number}/{place.count}" if place.count is not None else str(place.number)
    if place.seconds_left is None:
        return head
    return f"{head}, {time_text(int(place.seconds_left) * 1000)} left"


def head_words(asked: Asked) -> str:
    """A question's heading: ``[3/10] table:``, or ``[click 4]`` in a game."""
    if asked.place is None:
        return f"[click {asked.click}]"
    return f"[{place_words(asked.place)}] {asked.question.kind.value}:"


def plan_words(plan: DrillPlan) -> str:
    """The plan for a session's header: ``10 questions, mode table``, ``5 minutes``,
    ``2 games``, with extra practice, the focus and the time limit when set."""
    parts = []
    if plan.count is not None:
        parts.append(_counted(plan.count, "game" if plan.games else "question"))
    if plan.seconds is not None:
        minutes = round(plan.seconds / 60, 1)
        parts.append(f"{minutes:g} minute{'s' if minutes != 1 else ''}")
    what = " or ".join(parts)
    if not plan.games:
        what += f", mode {plan.mode}"
    if plan.practice:
        what += ", extra practice (kept out of the schedule)"
    if not plan.focus.empty:
        what += f", only {plan.focus.words()}"
    if plan.time_limit is not None:
        what += f", {plan.time_limit:g} s per answer"
    return what


def daily_words(daily: DailyProgress) -> str:
    """``Daily goal: 34/50 answers today, 16 to go`` (or ``reached!``)."""
    state = "reached!" if daily.reached else f"{daily.goal - daily.today} to go"
    return f"Daily goal: {daily.today}/{daily.goal} answers today, {state}"


def outlook_words(outlook: Outlook) -> str:
    """``12 due, 5 new``."""
    return f"{outlook.due} due, {outlook.new} new"


def cap_words(cap: NewCap) -> str:
    """``3 new this session, the cap is 3`` or ``2 new today, the daily cap is 2``."""
    if cap.per_day:
        return f"{cap.used} new today, the daily cap is {cap.cap}"
    return f"{cap.used} new this session, the cap is {cap.cap}"


def caught_up_words(why: CaughtUpWhy) -> str:
    """Why nothing is left to ask: ``caught up: nothing due today and no new skills
    left (...)``, or in extra practice ``nothing to practise yet: ...``."""
    if why.reason is CaughtUpReason.NOTHING_TO_PRACTISE:
        return "nothing to practise yet: no skill of this drill has been asked"
    new = f"no new skills left ({cap_words(why.cap)})" if why.cap else "no new skills left"
    return f"caught up: nothing due today and {new}"


def edge_words(edge: Edgework) -> str:
    """A game's edge as the defuser reads it out: ``serial AB1CD2, 3 batteries``."""
    # Imported here: a game's questions load it, a table drill or the stats never do.
    from defuser.trainer.situations import battery_count_words

    assert edge.serial is not None and edge.batteries is not None  # a game's edge is whole
    return f"serial {edge.serial.text}, {battery_count_words(edge.batteries.count)}"


def cycle_words(belief: CycleBelief) -> str:
    """Where the mitten cycle stood, for the summary of a stopped game."""
    known = belief.deals_until_on_top
    if known is not None:
        return f"the mitten was {known} deal{'s' if known != 1 else ''} from the top"
    if belief.mitten_on_top == 0:
        return "the mitten could not be on top yet"
    return f"the mitten was on top with chance {odds(belief.mitten_on_top)}"
