"""``--mode game``: one whole simulated module, played click by click as the defuser.

Contract: before each click the current situation becomes a ``decide`` question (what
the player sees, with the optimal policy's expected clicks for every action); the
player's click is graded like any ``decide`` answer and then really played on the
simulator, strikes included. The game ends at the solve, when the strikes reach the
limit (the bomb explodes), when the bomb timer runs out, or when the caller stops.

The game is a :class:`~defuser.engine.game.GameSession` that clicks through the walk (so
the belief follows every click). Its clock (:class:`ShownClock`) runs in real time on the
drill's injected clock, but only while a click is being asked: the bomb timer runs down
while the player thinks and explodes on its own when it runs out (the drill session
asks the game session by its ``deadline()``), and it stands still while the player reads
the feedback. :meth:`Game.state` is JSON and :meth:`Game.from_state` rebuilds the same
game by replaying its clicks, each at the game-clock time it was made.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from defuser.engine.actions import Action, StrikeKind
from defuser.engine.game import STRIKE_LIMIT, Clicked, GameEnd, GameSession, timer_rate
from defuser.engine.simulator import Outcome, Result
from defuser.strategy import explain
from defuser.strategy.values import recommend
from defuser.trainer.facts import DecideFacts, GameFacts
from defuser.trainer.lookups import card_words, hand_words
from defuser.trainer.model import Grade, Question
from defuser.trainer.situations import (
    Walk,
    decide_question_for,
    random_vanilla_edgework,
)
from edgework import Batteries, Edgework, SerialNumber


class ShownClock:
    """The game's clock: the seconds its clicks have been asked, on the drill's clock
    (``base``). It runs from :meth:`run` to :meth:`pause`."""

    def __init__(self, base: Callable[[], float], spent: float = 0.0) -> None:
        self.base = base
        #: Seconds counted before the present run, and when that run began on ``base``
        #: (``None`` while paused).
        self.spent = spent
        self.since: float | None = None

    def __call__(self) -> float:
        if self.since is None:
            return self.spent
        return self.spent + max(self.base() - self.since, 0.0)

    def run(self, at: float) -> None:
        """Start counting from ``at`` (a time on the drill's clock), unless running."""
        if self.since is None:
            self.since = at

    def pause(self, at: float | None = None) -> None:
        """Stop counting at ``at`` (a time on the drill's clock; now when not given);
        the seconds so far are kept."""
        if self.since is not None:
            end = self.base() if at is None else at
            self.spent += max(end - self.since, 0.0)
            self.since = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """How one game went."""

    solved: bool
    exploded: bool
    clicks: int
    strikes: int
    deals: int
    expected_at_start: float
    total_loss: float
    verdicts: dict[str, int]


@dataclass(slots=True)
class Game:
    """A module on random vanilla edgework and its grading; the :class:`GameSession`
    around the walk's module keeps the strikes, the explosion, the timer and the clicks."""

    walk: Walk
    seed: int
    session: GameSession
    clock: ShownClock
    total_loss: float = 0.0
    verdicts: Counter[str] = field(default_factory=Counter)
    expected_at_start: float = 0.0
    #: Every click played, with the game-clock time it was made at.
    played: list[tuple[Action, float]] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        rng: random.Random,
        *,
        strike_limit: int = STRIKE_LIMIT,
        timer: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Game:
        """A game on random vanilla edgework; its module seed comes from ``rng``;
        ``timer`` sets a bomb timer in seconds; ``clock`` is the drill's clock."""
        edgework = random_vanilla_edgework(rng)
        game = cls.start(edgework, rng.randrange(1 << 30), strike_limit=strike_limit,
                         timer=timer, clock=clock)
        start = recommend(game.walk.observation).expected_clicks
        game.expected_at_start = start if start is not None else 0.0
        return game

    @classmethod
    def start(
        cls,
        edgework: Edgework,
        seed: int,
        *,
        strike_limit: int = STRIKE_LIMIT,
        timer: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Game:
        """A game on ``edgework`` whose module is seeded with ``seed``, its clock paused
        until the first click is asked."""
        walk = Walk.start(edgework, seed)
        shown = ShownClock(clock)
        session = GameSession(
            walk.module, clicker=walk, strike_limit=strike_limit, clock=shown, time_limit=timer
        )
        return cls(walk, seed, session, shown)

    @property
    def time_left(self) -> float | None:
        """Seconds left on the bomb timer (``None`` without a timer)."""
        return self.session.time_left()

    def timer_rate(self) -> float:
        """How fast the bomb timer runs: a quarter faster per strike, as on a real bomb."""
        return timer_rate(self.walk.module.strikes)

    def ran_out(self) -> bool:
        """Whether the bomb timer has run out (the bomb then explodes, if it had not
        yet: the game session's ``tick``)."""
        if not self.over:
            self.session.tick()
        return self.timed_out

    def deadline(self) -> float | None:
        """When the bomb timer runs out, on the drill's clock, while the clock runs
        (``None``: no timer, the game is over, or the clock is paused)."""
        at = self.session.deadline()
        if at is None or self.clock.since is None:
            return None
        return self.clock.base() + (at - self.clock())

    @property
    def end(self) -> GameEnd | None:
        """How the game ended (None: not yet)."""
        return self.session.end

    @property
    def timed_out(self) -> bool:
        """Whether the bomb timer ran out."""
        return self.session.end is GameEnd.TIMED_OUT

    @property
    def strike_limit(self) -> int:
        """The strikes at which the bomb explodes (0: never)."""
        return self.session.strike_limit

    @property
    def clicks(self) -> int:
        """Clicks played so far."""
        return self.session.clicks

    @property
    def solved(self) -> bool:
        """Whether the module is solved."""
        return self.session.end is GameEnd.SOLVED

    @property
    def exploded(self) -> bool:
        """Whether the bomb exploded: the strikes reached the limit (0 means no limit),
        or the timer ran out."""
        return self.session.end in (GameEnd.EXPLODED, GameEnd.TIMED_OUT)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.session.over

    def state_words(self) -> str:
        """What is on the module now: the discard top, the hand, the strikes."""
        module = self.walk.module
        limit = f"/{self.strike_limit}" if self.strike_limit else ""
        return (
            f"Discard pile: {card_words(module.discard_top)}. Hand: {hand_words(module.hand)}. "
            f"Strikes: {module.strikes}{limit}."
        )

    def question(self) -> Question:
        """The current situation as a ``decide`` question (its text is the visible state)."""
        full = decide_question_for(self.walk.situation())
        assert isinstance(full.facts, DecideFacts)
        return Question(
            kind=full.kind,
            skill=full.skill,
            text=f"{self.state_words()} What do you do?",
            facts=GameFacts.of(full.facts, seed=self.seed, strikes=self.walk.module.strikes),
            answer=full.answer,
            reason=full.reason,
            rule=full.rule,
            options=full.options,
            cycle=full.cycle,
            why="game",
        )

    def play(self, grade: Grade) -> Result:
        """Play the graded click on the module (the grade must have read an action)."""
        assert grade.action is not None
        clicked = self.session.click(grade.action)[0]
        assert isinstance(clicked, Clicked), "a game over takes no click"
        self.played.append((grade.action, self.clock()))
        result = clicked.result
        self.verdicts[grade.verdict.value] += 1
        if grade.loss is not None:
            self.total_loss += grade.loss
        return result

    def outcome_words(self, result: Result) -> str:
        """What the click did, and for a strike why, in one or two sentences."""
        module = self.walk.module
        rules = module.rules
        action = str(result.action)
        if result.outcome is Outcome.NOTHING:
            return f"{action}: nothing happens ({result.note})."
        if result.outcome is Outcome.SOLVED:
            # The game's end ("Module solved!") is announced once, by the summary.
            return f"{action}: Defuse played with the mitten on top."
        if result.outcome is Outcome.OK:
            assert result.card is not None
            kind = rules.type_of(result.card).value
            verb = result.action.kind.past_tense
            return f"{action}: you {verb} {card_words(result.card)}, {kind}."
        assert result.strike is not None
        why = explain.strike_reason(rules, module.discard_top, module.hand, result)
        text = f"{action}: STRIKE {module.strikes}: {why}."
        if result.strike is StrikeKind.MITTEN_ON_TOP:
            text += " (Now you know the mitten is on top.)"
        return text

    def summary(self) -> GameSummary:
        """The game's totals."""
        module = self.walk.module
        return GameSummary(
            solved=self.solved,
            exploded=self.exploded,
            clicks=self.clicks,
            strikes=module.strikes,
            deals=module.deals,
            expected_at_start=self.expected_at_start,
            total_loss=self.total_loss,
            verdicts=dict(self.verdicts),
        )

    def state(self) -> dict[str, Any]:
        """The game as JSON: its edge, module seed, bomb, clock and every click played."""
        edge = self.walk.edgework
        assert edge.serial is not None and edge.batteries is not None
        return {
            "serial": edge.serial.text,
            "batteries": str(edge.batteries),
            "seed": self.seed,
            "strike_limit": self.strike_limit,
            "timer": self.session.time_limit,
            "clock": {"spent": self.clock.spent, "since": self.clock.since},
            "played": [[str(action), at] for action, at in self.played],
            "total_loss": self.total_loss,
            "verdicts": dict(self.verdicts),
            "expected_at_start": self.expected_at_start,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], clock: Callable[[], float]) -> Game:
        """The game :meth:`state` describes, on the drill's ``clock`` (the same clock,
        or one with the same time base): every click replayed at its game-clock time."""
        edgework = Edgework(SerialNumber.parse(state["serial"]),
                            Batteries.parse(state["batteries"]))
        game = cls.start(edgework, int(state["seed"]), strike_limit=int(state["strike_limit"]),
                         timer=state["timer"], clock=clock)
        for text, at in state["played"]:
            action = Action.parse(text)
            game.clock.spent = float(at)
            game.session.click(action)
            game.played.append((action, float(at)))
        game.clock.spent = float(state["clock"]["spent"])
        game.ran_out()
        game.clock.since = state["clock"]["since"]
        game.total_loss = float(state["total_loss"])
        game.verdicts = Counter(state["verdicts"])
        game.expected_at_start = float(state["expected_at_start"])
        return game
