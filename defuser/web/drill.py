"""The drills of ``mittens serve``: the very :class:`~defuser.trainer.drill_session.DrillSession`
of ``mittens drill``, driven from the browser.

Contract: a :class:`DrillHub` keeps the drills in progress, each with its own connection
to the stats database (the same store and schedule as the terminal, so a learner can
switch between them, and a terminal drill beside a browser one loses nothing), at most
:data:`MAX_DRILLS` at once; one idle for :data:`IDLE_SECONDS` is ended as if the learner
quit (every answer was stored when it was given), and so is every drill still running
when the server stops (:meth:`DrillHub.close`). Every call must come from one and the
same thread (the routes use one worker thread): an SQLite connection serves the thread
that opened it. :func:`page_data` is
what the page draws and the JSON twin sends: the session's state (``DrillSession.to_json``),
the events since the last answer in plain data (:func:`event_json`), the answer
controls for the question asked (:func:`controls`) and the clocks. The answer clock is the
session's own: it runs from the moment the server asks the question to the moment an
answer arrives, unreadable lines and help excluded, and after a miss it waits for
*Next* before the next question.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from defuser.dashboard.drill_words import (
    caught_up_words,
    cycle_words,
    daily_words,
    edge_words,
    head_words,
    outlook_words,
    place_words,
    plan_words,
)
from defuser.engine.rules import HAND_SIZE
from defuser.trainer.answers import (
    CountAnswer,
    LegalAnswer,
    ProbabilityAnswer,
    RuleAnswer,
    TableAnswer,
)
from defuser.trainer.drill_session import (
    Asked,
    BombTimerRanOut,
    CaughtUp,
    DailyProgress,
    DrillEnded,
    DrillOptions,
    DrillSession,
    DrillStarted,
    Event,
    GameEnded,
    GameStarted,
    Graded,
    HelpShown,
    LineTaken,
    Paused,
    Rejected,
    open_session,
)
from defuser.trainer.explaining import best_vs_next, option_rows
from defuser.trainer.facts import DecideFacts, LegalFacts
from defuser.trainer.location import default_db_path
from defuser.trainer.model import MODES, DrillMode, Question
from defuser.trainer.store import Store
from edgework import RULE_LETTERS, TABLE_LETTERS, CardType, RuleLetter, TableLetter
from edgework.errors import InputError

#: Drills in progress at once (a learner has one or two tabs open).
MAX_DRILLS: Final = 4
#: A drill nobody has answered for this long is ended.
IDLE_SECONDS: Final = 30 * 60
#: What of an unanswered question the page and its JSON show.
SHOWN: Final = frozenset({"kind", "text", "serial", "batteries", "discard", "hand",
                          "history", "strikes"})
#: Bounds of the start form's numbers.
MAX_COUNT: Final = 500
MAX_MINUTES: Final = 240.0
MAX_SECONDS: Final = 3600.0


class DrillFormError(InputError):
    """The start form or an answer cannot be used (one line, for the page)."""


@dataclass
class WebDrill:
    """One drill in progress: its session, its store and what the page shows next."""

    key: str
    session: DrillSession
    store: Store
    events: list[Event] = field(default_factory=list)
    used: float = 0.0
    #: Questions asked so far: the page sends it back with an answer, so an answer from
    #: a stale page (another tab, the Back button) is refused, never stored.
    asked: int = 0
    #: The number of the question whose page was shown (its answer clock restarted).
    shown: int = 0
    #: A word for the page about the last request (a refused stale answer).
    notice: str = ""

    def take(self, events: list[Event]) -> None:
        """Keep ``events`` for the page, counting the questions they ask."""
        if events:
            self.events = events
            self.notice = ""
            self.asked += sum(isinstance(e, Asked) for e in events)


#: A number field's type.
_N = TypeVar("_N", int, float)


def _number(form: Mapping[str, str], name: str, kind: Callable[[str], _N],
            most: float) -> _N | None:
    """A number field of the start form (blank: ``None``), within 0 < value <= most."""
    text = form.get(name, "").strip()
    if not text:
        return None
    try:
        value = kind(text)
    except ValueError:
        raise DrillFormError(f"{name.replace('_', ' ')} {text!r} is not a number") from None
    if not 0 < value <= most:
        raise DrillFormError(f"{name.replace('_', ' ')} {text!r} is out of range, "
                             f"expected more than 0 and at most {most:g}")
    return value


def read_options(form: Mapping[str, str],
                 letters: Mapping[str, Sequence[str]]) -> tuple[DrillMode, DrillOptions]:
    """The mode and options of the start form (``letters``: the ticked tables and rules)."""
    word = form.get("mode", "mixed").strip() or "mixed"
    if word not in MODES:
        raise DrillFormError(f"mode {word[:20]!r} is not a drill mode, expected one of "
                             f"{', '.join(MODES)}")
    mode = DrillMode(word)
    tables = tuple(letters.get("table", ()))
    rules = tuple(letters.get("rule", ()))
    for name, given, known in (("table", tables, TABLE_LETTERS), ("rule", rules, RULE_LETTERS)):
        for letter in given:
            if letter not in known:
                raise DrillFormError(f"{name} {letter[:10]!r} is not a {name} letter, "
                                     f"expected one of {', '.join(known)}")
    options = DrillOptions(
        count=_number(form, "count", int, MAX_COUNT),
        minutes=_number(form, "minutes", float, MAX_MINUTES),
        time_limit=_number(form, "time_limit", float, MAX_SECONDS),
        bomb_timer=(_number(form, "bomb_timer", float, MAX_SECONDS)
                    if mode is DrillMode.GAME else None),
        weakest=_number(form, "weakest", int, 100),
        tables=tuple(map(TableLetter, tables)),
        rules=tuple(map(RuleLetter, rules)),
        settings=_daily_goal(form),
        practice=form.get("practice") == "1",
    )
    return mode, options


def _daily_goal(form: Mapping[str, str]) -> dict[str, float | int | None]:
    """The daily goal to save, when the form sets one (``0``: no goal)."""
    text = form.get("daily_goal", "").strip()
    if not text:
        return {}
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_COUNT:
        raise DrillFormError(f"daily goal {text[:20]!r} is not a whole number from 0 to "
                             f"{MAX_COUNT}")
    return {"daily_goal": int(text)}


class DrillHub:
    """The drills in progress on this server."""

    def __init__(self, database: Path | None, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        """Drills use ``database`` (``None``: the default stats database)."""
        self.database = database
        self.clock = clock
        self.wall = wall
        self.drills: dict[str, WebDrill] = {}

    def path(self) -> Path:
        """The stats database the drills write to."""
        return self.database if self.database is not None else default_db_path()

    def start(self, mode: DrillMode, options: DrillOptions) -> WebDrill:
        """A new drill, its first question asked."""
        self.sweep()
        if sum(not d.session.ended for d in self.drills.values()) >= MAX_DRILLS:
            raise DrillFormError(f"{MAX_DRILLS} drills are already running here; finish or "
                                 "stop one first")
        store = Store.open(self.path())
        assert store is not None
        try:
            session = open_session(store, mode, options, interactive=True,
                                   clock=self.clock, wall=self.wall)
            events = session.start()
        except BaseException:
            store.close()
            raise
        drill = WebDrill(secrets.token_urlsafe(12), session, store, [], self.clock())
        drill.take(events)
        self.drills[drill.key] = drill
        if session.ended:
            self._close(drill)
        return drill

    def get(self, key: str) -> WebDrill | None:
        """The drill ``key`` with its bomb timer brought up to date, or ``None``."""
        drill = self.drills.get(key[:40])
        if drill is not None and not drill.session.ended:
            drill.take(drill.session.tick())
            self._close_if_ended(drill)
        return drill

    def show(self, drill: WebDrill) -> None:
        """The drill's page is being drawn: a question shown for the first time starts
        its answer clock now (see :meth:`DrillSession.shown`)."""
        if drill.session.clock_running() and drill.shown != drill.asked:
            drill.shown = drill.asked
            drill.session.shown()

    def answer(self, drill: WebDrill, line: str, question: int | None = None) -> bool:
        """One line from the page: an answer, ``?`` for help, empty after a pause to go
        on, ``quit`` to stop. ``question`` is the number of the question the page showed;
        an answer to an earlier one is refused (``False``) and nothing is stored."""
        if drill.session.ended or not drill.session.asking:
            return False
        if question is not None and question != drill.asked:
            drill.notice = ("That answer was for an earlier question (another tab, or "
                            "the Back button); it was not taken. Answer this one.")
            return False
        drill.used = self.clock()
        drill.take(drill.session.answer(line[:200]))
        self._close_if_ended(drill)
        return True

    def stop(self, drill: WebDrill) -> None:
        """End the drill now, with its summary."""
        if not drill.session.ended:
            drill.take(drill.session.stop())
        self._close_if_ended(drill)

    def sweep(self) -> None:
        """End drills idle too long, and forget them; of the ended ones, keep only the
        latest few (their summaries), so the drills kept stay bounded."""
        now = self.clock()
        for drill in list(self.drills.values()):
            if now - drill.used > IDLE_SECONDS:
                self.stop(drill)
                del self.drills[drill.key]
        ended = [d for d in self.drills.values() if d.session.ended]
        for drill in sorted(ended, key=lambda d: d.used)[:-MAX_DRILLS]:
            del self.drills[drill.key]

    def close(self) -> None:
        """The server stops: end every drill still running as if its learner quit, so
        the store records each session's end (every answer is already stored), close
        their stores and forget every drill."""
        for drill in list(self.drills.values()):
            self.stop(drill)
        self.drills.clear()

    def _close_if_ended(self, drill: WebDrill) -> None:
        if drill.session.ended:
            self._close(drill)

    def _close(self, drill: WebDrill) -> None:
        drill.store.close()


# ------------------------------------------------------------------------ page data


def controls(question: Question | None) -> dict[str, Any]:
    """The answer buttons for ``question``: ``kind`` and ``choices`` (label, answer
    line, key), or a ``number``/``text`` field, and whether slots are ticked."""
    if question is None:
        return {"kind": "none", "choices": []}
    answer = question.answer
    facts = question.facts
    hand = (len(facts.hand) if isinstance(facts, LegalFacts | DecideFacts) else 0) or HAND_SIZE
    if isinstance(answer, TableAnswer):
        return {"kind": "choice", "choices": [(t, t, t.lower()) for t in TABLE_LETTERS]}
    if isinstance(answer, RuleAnswer):
        return {"kind": "choice", "choices": [(r, r, r.lower()) for r in RULE_LETTERS]}
    if isinstance(answer, CardType):
        return {"kind": "choice", "choices": [
            (t.value, t.value, str(n + 1)) for n, t in enumerate(CardType)]}
    if isinstance(answer, LegalAnswer):
        return {"kind": "slots", "slots": list(range(1, hand + 1))}
    if isinstance(answer, CountAnswer):
        return {"kind": "number", "choices": []}
    if isinstance(answer, ProbabilityAnswer):
        return {"kind": "text", "choices": [], "placeholder": "1/3 or 33%"}
    choices = [("Draw", "draw", "w"), ("Discard", "discard", "d")]
    choices += [(f"Play {n}", f"play {n}", str(n)) for n in range(1, hand + 1)]
    return {"kind": "choice", "choices": choices}


def _graded_json(event: Graded) -> dict[str, Any]:
    answered = event.answered
    grade = answered.grade
    question = answered.question
    obj: dict[str, Any] = {
        "type": "graded", "number": event.number, "verdict": grade.verdict.value,
        "correct": grade.correct, "expected": grade.expected, "given": grade.given,
        "reading": grade.reading, "seconds": round(grade.seconds, 2),
        "target": None if answered.target is None else round(answered.target, 2),
        "slow": answered.slow, "detail": grade.detail, "question": question.text,
        "reason": grade.reason if event.reason else "", "options": [], "why": "",
        "cycle": question.cycle if event.reason else "",
        "click": None if event.click is None else event.click.words,
    }
    if event.reason and question.options:
        obj["options"] = [
            {"action": r.action, "expected_clicks": r.expected_clicks,
             "strike_risk": r.strike_risk, "loss": r.loss, "best": r.best, "note": r.note}
            for r in option_rows(question)
        ]
        obj["why"] = best_vs_next(question)
    return obj


def _daily(daily: DailyProgress | None) -> str | None:
    """The daily goal's progress in words (``None`` without a goal)."""
    return None if daily is None else daily_words(daily)


def event_json(event: Event) -> dict[str, Any] | None:
    """One session event as plain data for the page (``None``: nothing to show)."""
    if isinstance(event, Graded):
        return _graded_json(event)
    if isinstance(event, DrillStarted):
        return {"type": "started", "plan": plan_words(event.plan),
                "daily": _daily(event.daily),
                "outlook": "" if event.outlook is None else outlook_words(event.outlook)}
    if isinstance(event, CaughtUp):
        return {"type": "caught_up", "why": caught_up_words(event.why)}
    if isinstance(event, GameStarted):
        return {"type": "game", "index": event.index, "progress": place_words(event.place),
                "edge": edge_words(event.edge), "expected": round(event.expected_at_start, 2)}
    if isinstance(event, Rejected):
        return {"type": "rejected", "detail": event.detail}
    if isinstance(event, HelpShown):
        return {"type": "help", "notation": event.notation}
    if isinstance(event, Paused):
        return {"type": "paused", "what": event.what.value}
    if isinstance(event, BombTimerRanOut):
        return {"type": "timeout", "late": event.late}
    if isinstance(event, GameEnded):
        s = event.summary
        return {"type": "game_end", "solved": s.solved, "exploded": s.exploded,
                "timed_out": event.timed_out, "clicks": s.clicks, "strikes": s.strikes,
                "loss": round(s.total_loss, 2), "verdicts": dict(s.verdicts),
                "belief": "" if event.belief is None else cycle_words(event.belief)}
    if isinstance(event, DrillEnded):
        return {"type": "ended", "right": event.right, "answered": event.answered,
                "daily": _daily(event.daily), "tallies": [t.to_json() for t in event.tallies]}
    if isinstance(event, Asked | LineTaken):
        return None
    return {"type": "other", "name": type(event).__name__}


def page_data(drill: WebDrill, clock: Callable[[], float]) -> dict[str, Any]:
    """What the drill's page draws and ``/api/drill/<key>`` sends."""
    session = drill.session
    state = session.to_json()
    if state["question"] is not None:
        # Only what the learner sees: a skill's key, N, a game's seed or a decision's
        # option values would give the answer away.
        state["question"] = {k: v for k, v in state["question"].items() if k in SHOWN}
    asked = next((e for e in reversed(drill.events) if isinstance(e, Asked)), None)
    deadline = session.deadline()
    game = session.game
    return {
        "key": drill.key,
        "question_number": drill.asked,
        "notice": drill.notice,
        "plan": plan_words(session.plan()),
        "state": state,
        "feedback": [j for j in (event_json(e) for e in drill.events) if j is not None],
        "head": head_words(asked) if asked is not None else "",
        "controls": controls(session.question),
        "bomb": None if game is None else {
            "left": None if game.time_left is None else round(game.time_left, 2),
            "runs_out_in": None if deadline is None else round(deadline - clock(), 2),
            "strikes": game.walk.module.strikes, "strike_limit": game.strike_limit,
        },
    }
