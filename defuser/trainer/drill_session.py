"""The drill's loop as a sans-I/O session: a question shown, an answer read, graded,
stored, the next question; whole games in ``--mode game``.

Contract: :class:`DrillSession` owns the answer clock and the loop state of a drill; it
never reads or prints. A front end calls :meth:`~DrillSession.start`, then feeds each
line the learner types to :meth:`~DrillSession.answer` while
:attr:`~DrillSession.asking`, and calls :meth:`~DrillSession.stop` at the end of input
(or :meth:`~DrillSession.interrupt` when the learner breaks off); each call returns the
typed events to show, in order. The time comes from the injected ``clock`` (monotonic
seconds), never from a global. :meth:`~DrillSession.state` is the whole session as JSON
and :meth:`~DrillSession.from_state` rebuilds it (mid-question, paused or mid-game,
on the same store and clock), so a terminal and a web page, which keeps the state
between two requests, drive the very same object; :meth:`~DrillSession.to_json` is
what a page shows of it now.

The answer time runs from the moment the question is shown (:class:`Asked`) to the
first line that is an answer, whatever is typed in between: help, blank lines and lines
that cannot be read never stop, restart or set it back. A question is shown when the
learner is ready: on a terminal (``interactive``), after a miss or a game's end, the
session pauses (:class:`Paused`) until the next line, so reading the feedback is not
charged to the next question. On a terminal help and blank lines are not answers and an
unreadable line is asked again (even past the time limit). From a pipe an unreadable
line is graded as such, which keeps the answers in step with the questions; in a game it
is skipped instead, since a click that cannot be read cannot be played.

In a game the bomb timer runs in real time on the same clock, but only while a click is
asked (:class:`~defuser.trainer.game.ShownClock`). It explodes on its own: the front end
reads with :meth:`~DrillSession.deadline` as its time-out and calls
:meth:`~DrillSession.tick` when it passes; a line that comes after the deadline is
neither graded nor stored (:class:`BombTimerRanOut` names it). ``quit`` ends the session
early, as the end of input does; every answer is stored (by
:class:`~defuser.trainer.session.Drill`) before its :class:`Graded` event is returned.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from defuser.engine.game import GameEnd, outcome_fields
from defuser.engine.simulator import Result
from defuser.strategy.belief import CycleBelief
from defuser.trainer.focus import Focus, answers_today
from defuser.trainer.grading import grade
from defuser.trainer.kinds import spec_of
from defuser.trainer.model import Answered, DrillMode, Grade, Question, Verdict
from defuser.trainer.report import Tally
from defuser.trainer.scheduler import Outlook
from defuser.trainer.session import CaughtUpWhy, Drill
from defuser.trainer.settings import load_settings
from defuser.trainer.skills import SkillTable
from defuser.trainer.states import StateError, question_from_state, question_state
from defuser.trainer.store import Store
from edgework import Edgework, MisuseError, RuleLetter

if TYPE_CHECKING:  # the game mode's module (the policy, the simulator) loads with a game
    from defuser.trainer.game import Game, GameSummary

#: Questions per drill session, and games per ``--mode game`` session, by default.
DEFAULT_COUNT: Final = 10
DEFAULT_GAMES: Final = 1

QUIT_WORDS: Final = frozenset({"quit", "exit", "q", ":q"})
HELP_WORDS: Final = frozenset({"help", "?"})  # not "h": H is a rule letter


@dataclass(frozen=True, slots=True)
class Goal:
    """How long a session runs and the day's goal: ``count`` questions (or games), or
    ``seconds`` from the start, whichever comes first; ``daily`` answers per day, of
    which ``before`` were given earlier today. Times are seconds since the start."""

    count: int | None
    seconds: float | None
    daily: int
    before: int

    @classmethod
    def of(
        cls, count: int | None, minutes: float | None, *, games: bool, daily: int, before: int
    ) -> Goal:
        """The goal of ``--count`` and ``--minutes`` (a count by default, unless timed)."""
        default = DEFAULT_GAMES if games else DEFAULT_COUNT
        return cls(
            count or (None if minutes is not None else default),
            None if minutes is None else 60 * minutes,
            daily,
            before,
        )

    def more(self, done: int, elapsed: float) -> bool:
        """Whether to ask another after ``done``, ``elapsed`` seconds in."""
        if self.count is not None and done >= self.count:
            return False
        return self.seconds is None or elapsed < self.seconds

    def place(self, number: int, elapsed: float) -> Place:
        """Where the ``number``-th question (or game) stands, ``elapsed`` seconds in."""
        left = None if self.seconds is None else max(self.seconds - elapsed, 0.0)
        return Place(number, self.count, left)

    def daily_progress(self, answered: int) -> DailyProgress | None:
        """The day's answers after ``answered`` of this session against the daily goal
        (``None`` without a goal)."""
        return DailyProgress(self.before + answered, self.daily) if self.daily else None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a question (or game) stands in its session: its ``number``, the session's
    ``count`` (``None``: timed only) and, in a timed session, the ``seconds_left``."""

    number: int
    count: int | None
    seconds_left: float | None


@dataclass(frozen=True, slots=True)
class DailyProgress:
    """The day's answers so far (``today``) against the daily goal (``goal``)."""

    today: int
    goal: int

    @property
    def reached(self) -> bool:
        """Whether the day's goal is reached."""
        return self.today >= self.goal


@dataclass(frozen=True, slots=True)
class DrillPlan:
    """What a session plans: ``count`` questions (or ``games``) or ``seconds`` from
    the start, its mode, extra practice or not, its focus and its answer time limit."""

    count: int | None
    seconds: float | None
    games: bool
    mode: DrillMode
    practice: bool
    focus: Focus
    time_limit: float | None


class Upcoming(enum.Enum):
    """What a paused session shows next: a question, a game's next click, a new game."""

    QUESTION = "question"
    CLICK = "click"
    GAME = "game"


# ------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class DrillStarted:
    """The session began: what it plans, the daily goal's progress (``None`` without a
    goal) and, for a scheduled drill, what it can ask (skills due and new; ``None`` for
    a seeded drill, a game or extra practice)."""

    plan: DrillPlan
    daily: DailyProgress | None
    outlook: Outlook | None = None


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A new game: its number and where it stands in the session, its bomb's edge,
    its module seed and the optimal policy's expected clicks from the start."""

    index: int
    place: Place
    edge: Edgework
    seed: int
    expected_at_start: float


@dataclass(frozen=True, slots=True)
class Asked:
    """A question is shown and the answer clock runs. ``place`` is where it stands in
    the session, or in a game ``click`` its click's number (``place`` is then
    ``None``); ``hint`` whether to show the notation; in a game, the module's
    ``strikes`` and ``strike_limit`` and the bomb timer's seconds left (``bomb_left``)
    go with it."""

    question: Question
    place: Place | None
    click: int | None = None
    hint: bool = True
    strikes: int | None = None
    strike_limit: int = 0
    bomb_left: float | None = None


@dataclass(frozen=True, slots=True)
class HelpShown:
    """The learner asked for help: the question's notation."""

    notation: str


@dataclass(frozen=True, slots=True)
class LineTaken:
    """A line is taken as an answer (a pipe's transcript echoes it)."""

    line: str


@dataclass(frozen=True, slots=True)
class Rejected:
    """An answer that cannot be read was not graded: asked again on a terminal
    (``again``), skipped in a piped game."""

    detail: str
    again: bool


@dataclass(frozen=True, slots=True)
class Paused:
    """After a miss (or a game's end) on a terminal, what comes next (``what``: a
    question, a game's next click, the next game) waits for the learner: any line
    (Enter) shows it and starts its answer clock; ``quit`` stops."""

    what: Upcoming = Upcoming.QUESTION


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """Nothing is left to ask: no skill due and no new skill allowed (``why`` says
    which cap holds), or, in extra practice, nothing seen yet."""

    why: CaughtUpWhy


@dataclass(frozen=True, slots=True)
class ModuleState:
    """The module after a click: the discard top and hand as codes, strikes, solved."""

    discard: str
    hand: tuple[str, ...]
    strikes: int
    solved: bool

    def to_json(self) -> dict[str, Any]:
        """The state as a JSON object."""
        return {"discard": self.discard, "hand": list(self.hand), "strikes": self.strikes,
                "solved": self.solved}


@dataclass(frozen=True, slots=True)
class GradedClick:
    """A graded click played on the game's module: what it did, in fields and words."""

    result: Result
    state: ModuleState
    words: str


@dataclass(frozen=True, slots=True)
class Graded:
    """An answer graded and stored: the ``number``-th of the session. In a game,
    ``game`` is the game's number and ``click`` what the click did (a click is graded
    only when it is played)."""

    answered: Answered
    number: int
    game: int | None = None
    click: GradedClick | None = None

    @property
    def reason(self) -> bool:
        """Whether to show the answer's reason (in a game, only after a click that was
        not the best)."""
        if self.game is None:
            return True
        return self.click is not None and self.answered.grade.verdict is not Verdict.BEST

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object of this answer (a game adds what the click did)."""
        obj = self.answered.to_json(self.number)
        if self.game is not None:
            obj["game"] = self.game
        if self.click is not None:
            obj.update(outcome_fields(self.click.result))
            obj["state"] = self.click.state.to_json()
        return obj


@dataclass(frozen=True, slots=True)
class BombTimerRanOut:
    """The bomb's timer ran out before a click was played; ``late`` is the line that
    came after it (not graded, not stored), ``None`` when it ran out on its own."""

    late: str | None = None


@dataclass(frozen=True, slots=True)
class GameEnded:
    """How a game ended: its totals, the bomb's end (``None`` when the learner stopped),
    whether its timer ran out, and for a stopped game the belief about the mitten cycle
    where it stood (``None`` for a game that ended)."""

    summary: GameSummary
    end: GameEnd | None
    timed_out: bool
    belief: CycleBelief | None = None


@dataclass(frozen=True, slots=True)
class DrillEnded:
    """The session ended: per-kind tallies, answers right and given, whether it was
    interrupted, and the daily goal's progress (``None`` without a goal or when
    interrupted)."""

    tallies: list[Tally]
    right: int
    answered: int
    interrupted: bool
    daily: DailyProgress | None


Event = (
    DrillStarted | GameStarted | Asked | HelpShown | LineTaken | Rejected | Graded | Paused
    | CaughtUp | BombTimerRanOut | GameEnded | DrillEnded
)


#: The version of :meth:`DrillSession.state`'s shape.
STATE_VERSION: Final = 1


class SessionMisuse(MisuseError):
    """The session was driven out of order (an answer with no question asked): a front
    end's programming error, not bad input."""


# ------------------------------------------------------------------------ session


def open_session(
    store: Store,
    mode: DrillMode,
    options: DrillOptions,
    *,
    interactive: bool,
    clock: Callable[[], float] = time.monotonic,
    wall: Callable[[], float] = time.time,
) -> DrillSession:
    """A drill session on ``store``: the learner's settings, changed by the options'
    (and the changes saved), the stored answers priming the schedule, the goal with
    the answers already given today (``wall`` is the calendar's clock)."""
    history = store.answers()
    saved = load_settings(store.settings())
    settings = saved.with_values(**options.settings)
    for key, value in settings.items().items():
        if saved.items()[key] != value:
            store.save_setting(key, value)
    drill = Drill(
        mode, store=store, seed=options.seed, time_limit=options.time_limit,
        history=history, settings=settings, tables=options.tables, rules=options.rules,
        weakest=options.weakest, clock=wall, practice=options.practice,
    )
    goal = Goal.of(
        options.count, options.minutes, games=mode is DrillMode.GAME, daily=settings.daily_goal,
        before=answers_today((r.at for r in history), wall(), settings.day_start),
    )
    return DrillSession(drill, goal, interactive=interactive, bomb_timer=options.bomb_timer,
                        clock=clock)


@dataclass(frozen=True, slots=True)
class DrillOptions:
    """What a learner chose for a session (``None``: the default or the saved setting).
    ``settings`` holds the saved settings to change (retention, caps, daily goal, day
    start); ``practice`` asks for extra practice, kept out of the schedule."""

    count: int | None = None
    minutes: float | None = None
    seed: int | None = None
    time_limit: float | None = None
    tables: tuple[SkillTable, ...] = ()
    rules: tuple[RuleLetter, ...] = ()
    weakest: int | None = None
    bomb_timer: float | None = None
    practice: bool = False
    settings: dict[str, float | int | None] = field(default_factory=dict)


class DrillSession:
    """One drill (or series of games) from the first question to the summary."""

    def __init__(
        self,
        drill: Drill,
        goal: Goal,
        *,
        interactive: bool,
        bomb_timer: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Drive ``drill`` until ``goal``; ``interactive`` is a terminal's rules for
        help, blank and unreadable lines; ``bomb_timer`` is a game's bomb timer
        (seconds); ``clock`` gives monotonic seconds."""
        self.drill = drill
        self.goal = goal
        self.interactive = interactive
        self.bomb_timer = bomb_timer
        self.clock = clock
        #: When the session began, on ``clock`` (its goal's minutes count from here).
        self.begun = clock()
        self.games = drill.mode is DrillMode.GAME
        #: Answers graded (questions or clicks) and games begun.
        self.number = 0
        self.game_index = 0
        self.game: Game | None = None
        self.question: Question | None = None
        #: Whether the session waits for the learner to be ready for the next question.
        self.waiting = False
        self.ended = False
        #: When the answer clock started (on ``clock``): when the question was asked.
        self.started = 0.0

    @property
    def asking(self) -> bool:
        """Whether the session wants a line: an answer, or the learner ready to go on."""
        return self.question is not None or self.waiting

    def clock_running(self) -> bool:
        """Whether the answer clock runs (a question shown and not yet answered)."""
        return self.question is not None

    def shown(self) -> None:
        """The front end has just shown the question asked: its answer clock runs from
        now. A web page reaches the learner a moment after the question is asked (the
        redirect, the page); a terminal prints it at once and never calls this. The bomb
        timer of a game is not moved: it runs in real time."""
        if self.question is not None:
            self.started = self.clock()

    def elapsed(self) -> float:
        """Seconds on the answer clock now (0 when no question waits)."""
        return self.clock() - self.started if self.question is not None else 0.0

    def target(self) -> float:
        """The answer-time target of the question asked (seconds)."""
        assert self.question is not None
        return self.drill.target(self.question)

    def deadline(self) -> float | None:
        """When, on the session's clock, the bomb timer runs out if no click comes
        first: the front end calls :meth:`tick` then (``None``: no bomb timer, or no
        click is being asked)."""
        if self.game is None or self.question is None:
            return None
        return self.game.deadline()

    def tick(self) -> list[Event]:
        """The bomb explodes on its own when its timer has run out while a click was
        asked: the timer's end, the game's end, then what follows (the next game, a
        pause or the session's end). Nothing when it has not run out."""
        return self._ran_out(self.clock(), None)

    def plan(self) -> DrillPlan:
        """What the session plans, for its header."""
        drill, goal = self.drill, self.goal
        return DrillPlan(goal.count, goal.seconds, self.games, drill.mode, drill.practice,
                         drill.focus, drill.time_limit)

    # ------------------------------------------------------------------ inputs

    def start(self) -> list[Event]:
        """Begin: the plan, then the first question (or the end, if there is none)."""
        drill = self.drill
        scheduled = not (self.games or drill.practice or drill.seed is not None)
        outlook = drill.outlook() if scheduled else None
        return [DrillStarted(self.plan(), self.goal.daily_progress(0), outlook),
                *self._next()]

    def answer(self, line: str) -> list[Event]:
        """One line typed while :attr:`asking`: an answer, help, a blank line or quit
        (or, while :attr:`waiting`, any line to go on)."""
        if self.waiting:
            return self._go_on(line)
        question = self.question
        if question is None:
            raise SessionMisuse("an answer came with no question asked")
        word = line.strip().lower()
        now = self.clock()
        late = self._ran_out(now, None if word in QUIT_WORDS | HELP_WORDS else line.strip() or None)
        if late:
            return late + (self.stop() if word in QUIT_WORDS and not self.ended else [])
        if word in QUIT_WORDS:
            return self.stop()
        if self.interactive and word in HELP_WORDS:
            return [HelpShown(spec_of(question.kind).notation)]
        if self.interactive and not word:
            return []
        events: list[Event] = [LineTaken(line.strip())]
        seconds = now - self.started
        result = grade(question, line, seconds, time_limit=self.drill.time_limit)
        # A line that cannot be read is no answer, however long it took (past a time
        # limit its verdict says "too slow"); a click that cannot be read cannot be played.
        if result.reading is None and (self.interactive or self.games):
            return [*events, Rejected(result.detail, again=self.interactive)]
        events += self._record(question, result)
        missed = not result.correct or (self.game is not None and self.game.over)
        return events + self._then(missed)

    def _then(self, pause: bool) -> list[Event]:
        """After feedback: on a terminal, wait for the learner when ``pause`` (after a
        miss, or a game's end) and more follows; else the next question or the end."""
        if self.interactive and pause and self._more():
            self.waiting = True
            game = self.game
            what = (Upcoming.QUESTION if game is None
                    else Upcoming.GAME if game.over else Upcoming.CLICK)
            return [Paused(what)]
        return self._next()

    def _ran_out(self, now: float, late: str | None) -> list[Event]:
        """The events of a bomb whose timer ran out by ``now`` while its click was asked
        (``late``: the line that came after that), or none."""
        game = self.game
        if game is None or self.question is None:
            return []
        game.clock.pause(now)
        if not game.ran_out():
            game.clock.run(now)
            return []
        self.question = None
        return [BombTimerRanOut(late), self._game_ended(game), *self._then(True)]

    def _go_on(self, line: str) -> list[Event]:
        """The learner is ready after a pause: the next question (or quit)."""
        self.waiting = False
        if line.strip().lower() in QUIT_WORDS:
            return self.stop()
        return self._next()

    def _more(self) -> bool:
        """Whether another question (or click) follows now."""
        if self.games:
            in_play = self.game is not None and not self.game.over
            return in_play or self.goal.more(self.game_index, self._since())
        return self.goal.more(self.number, self._since())

    def stop(self) -> list[Event]:
        """End early (quit, or the end of input): a game in play ends as stopped (or
        exploded, when its timer ran out first); the session is marked ended in the
        store."""
        self.waiting = False
        events: list[Event] = []
        game = self.game
        if game is not None and not game.over:
            game.clock.pause()
            if self.question is not None and game.ran_out():
                events.append(BombTimerRanOut())
            events.append(self._game_ended(game))
        return events + self._finish()

    def interrupt(self) -> list[Event]:
        """Break off (Ctrl-C): the summary so far; the session is not marked ended."""
        self.question = None
        self.waiting = False
        self.ended = True
        answered = self.drill.answered
        return [DrillEnded(self.drill.summary(), sum(a.grade.correct for a in answered),
                      len(answered), interrupted=True, daily=None)]

    # ---------------------------------------------------------------- the loop

    def _since(self) -> float:
        return self.clock() - self.begun

    def _ask(self, asked: Asked) -> list[Event]:
        self.question = asked.question
        self.started = self.clock()
        if self.game is not None:
            self.game.clock.run(self.started)
        return [asked]

    def _next(self) -> list[Event]:
        """The next question, the next game or the end."""
        if self.games:
            return self._next_click()
        if not self.goal.more(self.number, self._since()):
            return self._finish()
        question = self.drill.next_question()
        if question is None:
            return [CaughtUp(self.drill.caught_up()), *self._finish()]
        return self._ask(Asked(question, self.goal.place(self.number + 1, self._since())))

    def _next_click(self) -> list[Event]:
        events: list[Event] = []
        game = self.game
        if game is None or game.over:
            if not self.goal.more(self.game_index, self._since()):
                return self._finish()
            game = self._new_game()
            events.append(GameStarted(
                self.game_index, self.goal.place(self.game_index, self._since()),
                game.walk.edgework, game.seed, game.expected_at_start,
            ))
        question = game.question()
        return events + self._ask(Asked(
            question, None, game.clicks + 1, hint=game.clicks == 0,
            strikes=game.walk.module.strikes, strike_limit=game.strike_limit,
            bomb_left=game.time_left,
        ))

    def _new_game(self) -> Game:
        from defuser.trainer.game import Game

        self.game_index += 1
        self.game = Game.new(self.drill.rng, timer=self.bomb_timer, clock=self.clock)
        return self.game

    def _record(self, question: Question, result: Grade) -> list[Event]:
        """Store a graded answer; in a game, stop the bomb timer and play the click."""
        self.question = None
        game = self.game
        if game is not None:
            game.clock.pause(self.started + result.seconds)
        self.drill.record(question, result)
        answered = self.drill.answered[-1]
        if game is None:
            self.number += 1
            return [Graded(answered, self.number)]
        outcome = game.play(result)
        self.number += 1
        module = game.walk.module
        state = ModuleState(module.discard_top.code, tuple(c.code for c in module.hand),
                            module.strikes, module.solved)
        click = GradedClick(outcome, state, game.outcome_words(outcome))
        events: list[Event] = [Graded(answered, self.number, self.game_index, click)]
        if game.over:
            events.append(self._game_ended(game))
        return events

    @staticmethod
    def _game_ended(game: Game) -> GameEnded:
        end = None if game.timed_out else game.end
        belief = None if game.over else game.walk.observation.belief
        return GameEnded(game.summary(), end, game.timed_out, belief)

    def _finish(self) -> list[Event]:
        self.question = None
        self.ended = True
        self.drill.finish()
        answered = self.drill.answered
        return [DrillEnded(self.drill.summary(), sum(a.grade.correct for a in answered),
                      len(answered), interrupted=False,
                      daily=self.goal.daily_progress(len(answered)))]

    # ------------------------------------------------------------------- state

    def state(self) -> dict[str, Any]:
        """Everything the session is, as JSON: :meth:`from_state` rebuilds the same
        session from it (mid-question, mid-game, paused or ended). Its times are on the
        session's clock, so the rebuilt session needs the same clock (or one with the
        same time base: wall-clock time for a session kept across processes)."""
        question = self.question
        return {
            "version": STATE_VERSION,
            "drill": self.drill.state(),
            "goal": {"count": self.goal.count, "seconds": self.goal.seconds,
                     "daily": self.goal.daily, "before": self.goal.before},
            "interactive": self.interactive,
            "bomb_timer": self.bomb_timer,
            "begun": self.begun,
            "number": self.number,
            "game_index": self.game_index,
            "game": None if self.game is None else self.game.state(),
            "question": None if question is None else question_state(question),
            "started": self.started,
            "waiting": self.waiting,
            "ended": self.ended,
        }

    @classmethod
    def from_state(
        cls,
        state: dict[str, Any],
        store: Store | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> DrillSession:
        """The session :meth:`state` describes, storing into ``store`` (the database
        the session began on). Raises :class:`StateError` for a state this version did
        not write or that lacks what it needs."""
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise StateError(f"drill state is not version {STATE_VERSION} of a drill "
                             "session's state")
        try:
            return cls._rebuilt(state, store, clock, wall)
        except MisuseError:
            raise  # a bug, not a malformed state
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"drill state is incomplete or malformed ({exc!r})") from exc

    @classmethod
    def _rebuilt(
        cls,
        state: dict[str, Any],
        store: Store | None,
        clock: Callable[[], float],
        wall: Callable[[], float],
    ) -> DrillSession:
        drill = Drill.from_state(state["drill"], store, clock=wall)
        session = cls(drill, Goal(**state["goal"]), interactive=bool(state["interactive"]),
                      bomb_timer=state["bomb_timer"], clock=clock)
        session.begun = float(state["begun"])
        session.number = int(state["number"])
        session.game_index = int(state["game_index"])
        if state["game"] is not None:
            from defuser.trainer.game import Game

            session.game = Game.from_state(state["game"], clock)
        question = state["question"]
        session.question = None if question is None else question_from_state(question)
        session.started = float(state["started"])
        session.waiting = bool(state["waiting"])
        session.ended = bool(state["ended"])
        return session

    def to_json(self) -> dict[str, Any]:
        """What a page shows of the session now, as JSON: mode, progress, the question
        asked, the answer clock and the bomb's time left (``None`` without a bomb
        timer)."""
        question = self.question
        return {
            "mode": self.drill.mode.value,
            "number": self.number,
            "game": self.game_index if self.games else None,
            "ended": self.ended,
            "waiting": self.waiting,
            "answered": len(self.drill.answered),
            "right": sum(a.grade.correct for a in self.drill.answered),
            "question": None if question is None else {
                "kind": question.kind.value,
                "skill": question.skill.key,
                **question.to_json(),
            },
            "clock": {
                "running": self.clock_running(),
                "elapsed": round(self.elapsed(), 3),
                "target": None if question is None else round(self.target(), 3),
                "limit": self.drill.time_limit,
                "bomb_left": None if self.game is None else self.game.time_left,
            },
        }
