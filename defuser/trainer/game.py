"""``--mode game``: one whole simulated module, played click by click as the defuser.

Contract: before each click the current situation becomes a ``decide`` question (what
the player sees, with the optimal policy's expected clicks for every action); the
player's click is graded like any ``decide`` answer and then really played on the
simulator, strikes included. The game ends at the solve, when the strikes reach the
limit (the bomb explodes), when the bomb timer runs out, or when the caller stops.

The game is a :class:`~defuser.engine.game.GameSession` that clicks through the walk (so
the belief follows every click); its clock is the answer time the caller spends, not
the wall clock: the bomb timer runs only while the player answers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from defuser.engine.actions import Action, StrikeKind
from defuser.engine.game import STRIKE_LIMIT, Clicked, GameEnd, GameSession, timer_rate
from defuser.engine.simulator import Outcome, Result
from defuser.strategy import explain
from defuser.strategy.belief import odds
from defuser.strategy.values import recommend
from defuser.trainer.lookups import card_words, hand_words
from defuser.trainer.model import Grade, Question
from defuser.trainer.situations import Walk, batteries_words, decide_question_for, random_edgework


class AnswerClock:
    """The game's clock: the seconds of answer time spent so far."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


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
    clock: AnswerClock
    total_loss: float = 0.0
    verdicts: Counter[str] = field(default_factory=Counter)
    expected_at_start: float = 0.0

    @classmethod
    def new(
        cls,
        rng: random.Random,
        *,
        strike_limit: int = STRIKE_LIMIT,
        timer: float | None = None,
    ) -> Game:
        """A game on random vanilla edgework; its module seed comes from ``rng``;
        ``timer`` sets a bomb timer in seconds."""
        edgework = random_edgework(rng)
        seed = rng.randrange(1 << 30)
        walk = Walk.start(edgework, seed)
        clock = AnswerClock()
        session = GameSession(
            walk.module, clicker=walk, strike_limit=strike_limit, clock=clock, time_limit=timer
        )
        game = cls(walk, seed, session, clock)
        start = recommend(game.walk.observation).expected_clicks
        game.expected_at_start = start if start is not None else 0.0
        return game

    @property
    def time_left(self) -> float | None:
        """Seconds left on the bomb timer (``None`` without a timer)."""
        return self.session.time_left()

    def timer_rate(self) -> float:
        """How fast the bomb timer runs: a quarter faster per strike, as on a real bomb."""
        return timer_rate(self.walk.module.strikes)

    def spend(self, seconds: float) -> bool:
        """Run the bomb timer for an answer that took ``seconds``; when it runs out the
        bomb explodes (before the click). Returns whether it ran out."""
        if not self.over:
            self.clock.now += seconds
            self.session.tick()
        return self.timed_out

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

    def edge_words(self) -> str:
        """The bomb's edge as the defuser reads it out."""
        edge = self.walk.edgework
        assert edge.serial is not None and edge.batteries is not None
        return f"serial {edge.serial.text}, {batteries_words(edge.batteries.count)}"

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
        return Question(
            kind=full.kind,
            skill=full.skill,
            text=f"{self.state_words()} What do you do?",
            facts={**full.facts, "seed": self.seed, "strikes": self.walk.module.strikes},
            answer=full.answer,
            reason=full.reason,
            rule=full.rule,
            options=full.options,
            cycle=full.cycle,
            why="game",
        )

    def play(self, grade: Grade) -> Result:
        """Play the graded click on the module (the grade must have read an action)."""
        assert grade.reading is not None
        clicked = self.session.click(Action.parse(grade.reading))[0]
        assert isinstance(clicked, Clicked), "a game over takes no click"
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

    def belief_words(self) -> str:
        """Where the mitten cycle stands, for the summary of a stopped game."""
        belief = self.walk.observation.belief
        known = belief.deals_until_on_top
        if known is not None:
            return f"the mitten was {known} deal{'s' if known != 1 else ''} from the top"
        if belief.mitten_on_top == 0:
            return "the mitten could not be on top yet"
        return f"the mitten was on top with chance {odds(belief.mitten_on_top)}"

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
