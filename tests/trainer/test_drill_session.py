"""The drill session below every front end: its answer clock (an injected clock, never
the global one), its loop and its events, its goal and its state as JSON."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence

import pytest
from trainer_helpers import PLACEHOLDER

from defuser.dashboard.drill_words import head_words, place_words, plan_words
from defuser.trainer.answers import TableAnswer
from defuser.trainer.drill_session import (
    Asked,
    BombTimerRanOut,
    CaughtUp,
    DrillEnded,
    DrillPlan,
    DrillSession,
    DrillStarted,
    GameEnded,
    GameStarted,
    Goal,
    Graded,
    HelpShown,
    LineTaken,
    Paused,
    Place,
    Rejected,
    SessionMisuse,
    Upcoming,
)
from defuser.trainer.focus import Focus
from defuser.trainer.model import DrillMode, Question
from defuser.trainer.session import Drill
from defuser.trainer.skills import Kind, Skill, TableSkill
from edgework import TableLetter
from edgework.errors import InputError, MisuseError


def table_question(rng: random.Random, skill: Skill) -> Question:
    """Always the same Table B question."""
    return Question(Kind.TABLE, TableSkill(TableLetter.B), "Serial AB1CD2. Which table?",
                    PLACEHOLDER, TableAnswer(TableLetter.B), "x")


def session_of(
    now: list[float], *, count: int = 2, interactive: bool = True, time_limit: float | None = None
) -> DrillSession:
    """A table drill of ``count`` questions on the clock ``now[0]``, storing nothing."""
    drill = Drill(DrillMode.TABLE, store=None, seed=1, time_limit=time_limit, maker=table_question)
    return DrillSession(drill, Goal(count, None, 0, 0), interactive=interactive,
                        clock=lambda: now[0])


def graded(events: Sequence[object]) -> list[Graded]:
    return [e for e in events if isinstance(e, Graded)]


def test_the_loop_asks_grades_and_ends() -> None:
    now = [0.0]
    session = session_of(now)
    events = session.start()
    assert [type(e) for e in events] == [DrillStarted, Asked]
    assert isinstance(events[1], Asked) and head_words(events[1]) == "[1/2] table:"
    assert session.asking and session.clock_running()
    now[0] = 1.5
    assert session.elapsed() == 1.5
    events = session.answer("B")
    assert [type(e) for e in events] == [LineTaken, Graded, Asked]
    assert graded(events)[0].answered.grade.seconds == 1.5
    events = session.answer("C")
    assert [type(e) for e in events] == [LineTaken, Graded, DrillEnded]
    end = events[-1]
    assert isinstance(end, DrillEnded) and (end.right, end.answered) == (1, 2)
    assert not session.asking and session.ended
    with pytest.raises(SessionMisuse) as misuse:
        session.answer("B")
    # A front end's mistake, not the learner's bad input (which exits 2).
    assert isinstance(misuse.value, MisuseError) and not isinstance(misuse.value, InputError)


def test_the_answer_clock_runs_through_help_and_unreadable_lines() -> None:
    # Issue 23: help restarted the clock and an unreadable line froze it. 9 s before
    # asking for help, 2 s after it, 20 s more after an unreadable line: 31 s in all.
    now = [0.0]
    session = session_of(now, count=1)
    session.start()
    now[0] = 9.0
    assert [type(e) for e in session.answer("help")] == [HelpShown]
    now[0] = 11.0
    events = session.answer("Defsue")
    assert isinstance(events[-1], Rejected) and events[-1].again
    assert session.clock_running() and session.elapsed() == pytest.approx(11.0)
    now[0] = 31.0
    (result,) = graded(session.answer("B"))
    assert result.answered.grade.correct
    assert result.answered.grade.seconds == pytest.approx(31.0)


def test_a_time_limit_cannot_be_dodged_by_an_unreadable_line() -> None:
    now = [0.0]
    session = session_of(now, count=1, time_limit=5)
    session.start()
    now[0] = 0.1
    session.answer("x")
    now[0] = 11.0
    (result,) = graded(session.answer("B"))
    assert result.answered.grade.verdict.value == "too slow"
    assert result.answered.grade.seconds == pytest.approx(11.0)


def test_an_unreadable_line_past_the_time_limit_is_still_no_answer() -> None:
    # Found with the terminal test: past --time-limit an unreadable line was graded
    # "too slow" and stored, instead of being asked again.
    now = [0.0]
    session = session_of(now, count=1, time_limit=5)
    session.start()
    now[0] = 9.5
    events = session.answer("Z")
    assert isinstance(events[-1], Rejected) and session.drill.answered == []
    now[0] = 11.0
    (result,) = graded(session.answer("B"))
    assert result.answered.grade.seconds == pytest.approx(11.0)


def test_time_limit_grades_slow_answers() -> None:
    now = [0.0]
    session = session_of(now, interactive=False, time_limit=5)
    session.start()
    grades = []
    for answer in ("A", "B"):
        now[0] += 7  # every answer takes 7 seconds
        grades += [e.to_json()["grade"] for e in graded(session.answer(answer))]
    assert grades == ["too slow", "too slow"]


def test_from_a_pipe_an_unreadable_line_is_graded_and_quit_stops() -> None:
    now = [0.0]
    session = session_of(now, count=3, interactive=False)
    session.start()
    (result,) = graded(session.answer("zz"))
    assert result.answered.grade.verdict.value == "unreadable"
    assert session.answer("") and session.asking  # a blank line is an answer too
    events = session.answer("quit")
    assert isinstance(events[-1], DrillEnded) and not events[-1].interrupted
    assert session.ended


def test_the_state_is_json() -> None:
    now = [0.0]
    session = session_of(now)
    session.start()
    now[0] = 0.25
    state = json.loads(json.dumps(session.to_json()))
    assert state["question"]["skill"] == "table:B" and state["number"] == 0
    assert state["clock"] == {"running": True, "elapsed": 0.25, "target": 4.0, "limit": None,
                              "bomb_left": None}
    events = session.interrupt()
    assert isinstance(events[0], DrillEnded) and events[0].interrupted
    assert session.to_json()["ended"] is True


def test_a_timed_session_stops_at_its_deadline() -> None:
    goal = Goal(None, 300.0, 0, 0)
    assert goal.more(0, 0.0) and place_words(goal.place(1, 0.0)) == "1, 5:00 left"
    assert goal.place(1, 0.0) == Place(1, None, 300.0)
    plan = DrillPlan(None, 300.0, True, DrillMode.GAME, False, Focus(), None)
    assert plan_words(plan) == "5 minutes"
    assert goal.more(12, 299.0) and place_words(goal.place(13, 299.0)) == "13, 0:01 left"
    assert not goal.more(13, 301.0)
    counted = Goal(10, 600.0, 0, 0)
    assert not counted.more(10, 0.0) and place_words(counted.place(3, 0.0)).startswith("3/10, ")
    assert Goal.of(None, 5, games=False, daily=0, before=0) == goal
    assert Goal.of(None, None, games=True, daily=0, before=0).count == 1


def test_after_a_miss_the_next_clock_starts_when_the_learner_is_ready() -> None:
    # Issue 23: reading the feedback after a miss was charged to the next question.
    now = [0.0]
    session = session_of(now, count=3)
    session.start()
    now[0] = 1.0
    events = session.answer("C")  # wrong
    assert [type(e) for e in events] == [LineTaken, Graded, Paused]
    assert session.asking and session.waiting and not session.clock_running()
    now[0] = 21.0  # 20 s reading why
    assert [type(e) for e in session.answer("")] == [Asked]
    now[0] = 22.5
    (result,) = graded(session.answer("B"))
    assert result.answered.grade.seconds == pytest.approx(1.5)
    # A right answer goes straight on; so does the last one, and a pipe never waits.
    assert isinstance(session.answer("B")[-1], DrillEnded)


def test_a_pause_takes_quit_and_pipes_never_pause() -> None:
    now = [0.0]
    session = session_of(now, count=3)
    session.start()
    assert isinstance(session.answer("C")[-1], Paused)
    events = session.answer("quit")
    assert isinstance(events[-1], DrillEnded) and session.ended and not session.asking
    piped = session_of(now, count=3, interactive=False)
    piped.start()
    assert isinstance(piped.answer("C")[-1], Asked)


def test_help_does_not_set_the_bomb_timer_back() -> None:
    # Issue 23: '?' restarted the answer clock, and with it the bomb timer's count.
    now = [0.0]
    drill = Drill(DrillMode.GAME, store=None, seed=4)
    session = DrillSession(drill, Goal(1, None, 0, 0), interactive=True, bomb_timer=20.0,
                           clock=lambda: now[0])
    events = session.start()
    asked = next(e for e in events if isinstance(e, Asked))
    assert asked.bomb_left == 20.0
    now[0] = 7.0
    session.answer("?")
    now[0] = 14.0
    (result,) = graded(session.answer(asked.question.expected))
    assert result.answered.grade.seconds == pytest.approx(14.0)
    assert session.game is not None and session.game.time_left == pytest.approx(6.0)


def game_session(now: list[float], *, timer: float | None = 20.0, games: int = 1,
                 interactive: bool = True) -> tuple[DrillSession, Asked]:
    """A game drill with a bomb timer on the clock ``now[0]``, storing nothing; its first
    question."""
    drill = Drill(DrillMode.GAME, store=None, seed=4)
    session = DrillSession(drill, Goal(games, None, 0, 0), interactive=interactive,
                           bomb_timer=timer, clock=lambda: now[0])
    asked = next(e for e in session.start() if isinstance(e, Asked))
    return session, asked


def test_the_bomb_explodes_on_its_own_at_its_deadline() -> None:
    now = [50.0]
    session, _ = game_session(now)
    assert session.deadline() == pytest.approx(70.0)
    now[0] = 69.9
    assert session.tick() == []
    now[0] = 70.0
    events = session.tick()
    assert [type(e) for e in events] == [BombTimerRanOut, GameEnded, DrillEnded]
    ran_out, ended = events[0], events[1]
    assert isinstance(ran_out, BombTimerRanOut) and ran_out.late is None
    assert isinstance(ended, GameEnded) and ended.timed_out and ended.summary.clicks == 0
    assert not session.asking and session.deadline() is None
    assert session.drill.answered == []


def test_a_click_after_the_bomb_ran_out_is_neither_graded_nor_stored() -> None:
    # Issue 23: a click typed after the bomb's timer ran out was graded (a blunder, loss
    # 11) and stored, and the summary said "0 clicks ... no clicks" beside "mean loss 11".
    now = [0.0]
    session, asked = game_session(now, timer=10.0)
    now[0] = 2.0
    first = graded(session.answer(asked.question.expected))
    assert first and first[0].click is not None
    # The next click is asked; 30 s pass and only then a line comes.
    now[0] = 40.0
    events = session.answer("discard")
    assert [type(e) for e in events] == [BombTimerRanOut, GameEnded, DrillEnded]
    ran_out, ended, end = events
    assert isinstance(ran_out, BombTimerRanOut) and ran_out.late == "discard"
    assert isinstance(ended, GameEnded) and ended.timed_out
    summary = ended.summary
    assert summary.clicks == 1 and len(session.drill.answered) == 1
    assert summary.total_loss == pytest.approx(sum(
        a.grade.loss or 0.0 for a in session.drill.answered))
    assert isinstance(end, DrillEnded) and end.answered == 1
    (tally,) = end.tallies
    assert tally.answers == summary.clicks and tally.mean_loss == pytest.approx(
        summary.total_loss / summary.clicks)


def test_help_and_unreadable_clicks_run_the_bomb_down_to_its_end() -> None:
    now = [0.0]
    session, _ = game_session(now, timer=10.0)
    now[0] = 4.0
    assert [type(e) for e in session.answer("?")] == [HelpShown]
    now[0] = 8.0
    assert isinstance(session.answer("Defsue")[-1], Rejected)
    assert session.deadline() == pytest.approx(10.0)
    now[0] = 12.0
    events = session.answer("?")
    assert isinstance(events[0], BombTimerRanOut) and events[0].late is None
    assert session.drill.answered == []


def test_the_bomb_stands_still_while_the_feedback_is_read() -> None:
    now = [0.0]
    session, asked = game_session(now, timer=60.0)
    wrong = next(str(o.action) for o in asked.question.options if o.strike_risk == 1.0)
    now[0] = 5.0
    events = session.answer(wrong)
    assert isinstance(events[-1], Paused) and events[-1].what is Upcoming.CLICK
    assert session.game is not None and session.deadline() is None
    left = session.game.time_left
    assert left == pytest.approx(55.0)
    assert session.to_json()["clock"]["bomb_left"] == pytest.approx(55.0)
    now[0] = 500.0  # a long read of why
    assert session.tick() == [] and session.game.time_left == pytest.approx(left)
    asked = next(e for e in session.answer("") if isinstance(e, Asked))
    assert asked.bomb_left == pytest.approx(55.0)
    rate = session.game.timer_rate()
    assert rate > 1.0  # the strike sped the timer up
    assert session.deadline() == pytest.approx(500.0 + 55.0 / rate)
    now[0] = 502.0
    (result,) = graded(session.answer(asked.question.expected))
    assert result.answered.grade.seconds == pytest.approx(2.0)
    assert session.game.time_left == pytest.approx(55.0 - 2.0 * rate)


def test_a_piped_game_never_pauses_and_a_late_line_is_reported() -> None:
    now = [0.0]
    session, asked = game_session(now, timer=5.0, games=2, interactive=False)
    now[0] = 6.0
    events = session.answer(asked.question.expected)
    assert [type(e) for e in events] == [BombTimerRanOut, GameEnded, GameStarted, Asked]
    assert session.drill.answered == []


def test_the_events_carry_typed_values_and_no_words() -> None:
    # The wording of a plan, a place, a heading, the daily goal, the outlook, why the
    # drill is caught up and what a pause waits for lives in the front ends
    # (defuser.dashboard.drill_words), never in the session's events; so does a game's
    # edge and where the mitten cycle stood when a game was stopped.
    fields = {
        DrillStarted: ("plan", "daily", "outlook"), GameStarted: ("place", "edge"),
        GameEnded: ("belief",),
        Asked: ("place", "click"), CaughtUp: ("why",), Paused: ("what",),
        DrillEnded: ("daily",),
    }
    for event, names in fields.items():
        for name in names:
            annotation = event.__annotations__[name]  # postponed: the annotation's text
            assert not re.search(r"\bstr\b", annotation), (event, name, annotation)
            assert annotation.split(" | ")[0] in TYPED, (event, name, annotation)


#: The typed values the drill session's events carry instead of words.
TYPED = {"DrillPlan", "DailyProgress", "Outlook", "Place", "int", "CaughtUpWhy",
         "Upcoming", "Edgework", "CycleBelief"}
