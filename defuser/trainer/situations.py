"""Questions on live situations: ``cycle`` (where is the mitten?) and ``decide``.

Situations come from real simulated games: a :class:`~defuser.engine.simulator.Module` on
random vanilla edgework is driven by a player that mixes the optimal policy with other
moves that cannot strike, and the question is asked from what a player has seen (an
:class:`~defuser.strategy.belief.Observation` and the deals so far), never from the hidden deck.
Expected answers come from the exact belief (:mod:`defuser.strategy.belief`) and, for
``decide``, from the optimal zero-strike policy's expected clicks for every candidate
action (:func:`defuser.strategy.values.action_values`). What a click does (which slots
are legal or hold a Defuse, what blocks a discard, why a click strikes, that an empty
slot does nothing) is asked of the rulebook (:class:`~defuser.engine.board.Board`); this
module only words it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Final

from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.board import Effect
from defuser.engine.events import Discarded, Drew, Struck
from defuser.engine.generate import random_batteries, random_serial
from defuser.engine.rules import HAND_SIZE
from defuser.engine.simulator import Module, Result
from defuser.strategy.belief import Observation, odds
from defuser.strategy.solutions import solution_for
from defuser.strategy.values import action_values, best_action, recommend
from defuser.trainer.answers import Answer, CountAnswer, ProbabilityAnswer
from defuser.trainer.facts import (
    CycleAsk,
    CycleFacts,
    DealRecord,
    DealSeen,
    DecideFacts,
    DrawStruck,
)
from defuser.trainer.lookups import card_words, hand_words
from defuser.trainer.model import Option, Question
from defuser.trainer.skills import CycleSkill, DecideSkill, Kind, Move
from edgework import Batteries, CardType, Edgework, Ruleset
from edgework.errors import MisuseError

#: Attempts at a wandering game that ends in the wanted kind of ``cycle`` situation.
_MAX_GAMES: Final = 400
#: Clicks a wandering game may take before it is cut short.
_MAX_CLICKS: Final = 200
#: Modules tried for a ``decide`` situation of the wanted kind before taking any kind.
_DECIDE_MODULES: Final = 3
#: Share of the wandering player's clicks that follow the optimal policy in ``decide``.
_OPTIMAL_SHARE: Final = 0.7
#: A click that does nothing whether the mitten is on top or not (an empty slot).
_NOTHING_EITHER_WAY: Final = (Effect.NOTHING, Effect.NOTHING)



@dataclass(frozen=True, slots=True)
class Situation:
    """A moment of a simulated game, as the player has seen it."""

    edgework: Edgework
    observation: Observation
    events: tuple[DealRecord, ...]

    @property
    def rules(self) -> Ruleset:
        """The module's table and Table E column."""
        return self.observation.rules

    @property
    def batteries(self) -> Batteries:
        """The bomb's batteries (N comes from their count)."""
        assert self.edgework.batteries is not None
        return self.edgework.batteries


@dataclass(slots=True)
class Walk:
    """A simulated module and what its player has seen, advanced click by click.

    ``events`` records every deal (:class:`DealSeen`) and every draw strike
    (:class:`DrawStruck`, with the number of cards in hand at the time).
    """

    edgework: Edgework
    module: Module
    observation: Observation
    events: list[DealRecord] = field(default_factory=list)

    @classmethod
    def start(cls, edgework: Edgework, seed: int) -> Walk:
        """A fresh module for this edgework, its randomness seeded with ``seed``."""
        module = Module.from_edgework(edgework, seed)
        obs = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
        return cls(edgework, module, obs)

    def act(self, action: Action) -> Result:
        """Click: the module answers and the observation and events follow."""
        hand = len(self.observation.hand)
        result = self.module.act(action)
        event = result.event
        if isinstance(event, Drew | Discarded):
            card_type = self.module.rules.type_of(event.card)
            self.events.append(DealSeen(self.observation.deals + 1, event, card_type))
        elif isinstance(event, Struck) and event.action.kind is ActionKind.DRAW:
            self.events.append(DrawStruck(hand))
        self.observation = self.observation.after(result)
        return result

    def situation(self) -> Situation:
        """What the player has seen so far."""
        return Situation(self.edgework, self.observation, tuple(self.events))


def random_vanilla_edgework(rng: random.Random) -> Edgework:
    """Vanilla serial number and batteries (the rest of the edge does not matter here)."""
    return Edgework(random_serial(rng), random_batteries(rng))


def random_walk(rng: random.Random) -> Walk:
    """A fresh module on random vanilla edgework, seeded from ``rng``."""
    return Walk.start(random_vanilla_edgework(rng), rng.randrange(1 << 30))


def wander_step(rng: random.Random, obs: Observation, *, risky: float = 0.0) -> Action | None:
    """A plausible player's next click that cannot strike, or ``None`` when stuck.

    Deals are favoured over plays so that the deck moves. With chance ``risky`` the
    player draws although the mitten may be on top (a strike teaches something too).
    Defuses are never played, so the game is never solved on the way.
    """
    board = obs.board
    defuses = board.defuse_slots()
    choices: list[tuple[Action, float]] = []
    for slot in board.legal_slots:
        if slot not in defuses:
            choices.append((Action.play(slot), 1.0))
    if obs.discard_allowed:
        choices.append((Action.discard(), 3.0))
    if obs.draw_safe:
        choices.append((Action.draw(), 3.0))
    elif board.has_room and obs.belief.mitten_on_top < 1 and rng.random() < risky:
        return Action.draw()
    if not choices:
        return None
    pick: Action = rng.choices([a for a, _ in choices], weights=[w for _, w in choices])[0]
    return pick


def battery_count_words(count: int) -> str:
    """``1 battery``, ``3 batteries``."""
    return f"{count} batter{'y' if count == 1 else 'ies'}"


def event_words(event: DealRecord) -> str:
    """One event for a prompt: ``3 discarded RH (Exploding Mitten)``."""
    if isinstance(event, DrawStruck):
        return f"a draw struck with {event.hand} cards in hand"
    verb = "drew" if isinstance(event.event, Drew) else "discarded"
    return f"{event.deal} {verb} {event.event.card.code} ({event.type.value})"


def history_words(events: tuple[DealRecord, ...]) -> str:
    """Every deal and draw strike so far, in one line."""
    return "; ".join(event_words(e) for e in events) if events else "nothing dealt yet"


def _deals_words(count: int) -> str:
    return f"{count} deal{'s' if count != 1 else ''}"


# --------------------------------------------------------------------------- cycle


def interval_words(batteries: Batteries) -> str:
    """How N follows from the batteries: ``N = 7 mod 5 + 9 = 11``."""
    return f"N = {batteries.count} mod 5 + 9 = {batteries.interval}"


def cycle_reason(situation: Situation) -> str:
    """Why the belief says what it says, in the terms a player counts in."""
    obs = situation.observation
    n = obs.interval
    belief = obs.belief
    head = interval_words(situation.batteries)
    known = belief.deals_until_on_top
    mitten_deals = [
        e.deal for e in situation.events
        if isinstance(e, DealSeen) and e.type is CardType.EXPLODING_MITTEN
    ]
    struck = any(isinstance(e, DrawStruck) for e in situation.events)
    if known is not None:
        if known == 0 and struck:
            return f"{head}. A draw struck with room in the hand: the mitten is on top (0)."
        if mitten_deals:
            last = mitten_deals[-1]
            since = obs.deals - last
            return (
                f"{head}. The mitten was deal {last}; it is on top again after N-1 = {n - 1} "
                f"more deals; {since} dealt since, so {known} to go."
            )
        return (
            f"{head}. The first mitten is card 2..N-1 = 2..{n - 1} of the deals; "
            f"{_deals_words(obs.deals)} without it, so it is on top now (0)."
        )
    p = belief.mitten_on_top
    if obs.deals == 0:
        return f"{head}. Nothing dealt yet, and the first card dealt is never the mitten: 0."
    places = n - 1 - obs.deals
    return (
        f"{head}. The first mitten is card 2..N-1 = 2..{n - 1} of the deals, each equally "
        f"likely; after {_deals_words(obs.deals)} without it, it is one of the next "
        f"{places} cards, so on top now with probability {odds(p)} ({float(p):.0%})."
    )


def cycle_situation(rng: random.Random, skill: CycleSkill) -> Situation:
    """A game stopped where a ``cycle`` question of ``skill`` can be asked."""
    return cycle_walk(rng, skill).situation()


def cycle_walk(rng: random.Random, skill: CycleSkill) -> Walk:
    """The game behind :func:`cycle_situation` (tests compare it with the hidden deck)."""
    want_known = skill.known
    for _ in range(_MAX_GAMES):
        target = rng.randint(0, 20)
        walk = random_walk(rng)
        for _ in range(_MAX_CLICKS):
            obs = walk.observation
            if obs.deals >= target or (
                obs.belief.deals_until_on_top == 0 and rng.random() < 0.3
            ):
                break
            action = wander_step(rng, obs, risky=0.04)
            if action is None:
                break
            walk.act(action)
        known = walk.observation.belief.deals_until_on_top is not None
        if known == want_known:
            return walk
    raise MisuseError(f"no wandering game gave a {skill.key} situation")


def cycle_question_for(situation: Situation, skill: CycleSkill) -> Question:
    """The ``cycle`` question for a situation: deals to the mitten, or its chance now."""
    obs = situation.observation
    belief = obs.belief
    known = belief.deals_until_on_top is not None
    edge = situation.edgework
    assert edge.serial is not None
    head = (
        f"Serial {edge.serial.text}, {battery_count_words(situation.batteries.count)}. "
        f"Deals: {history_words(situation.events)}."
    )
    expected: Answer
    if known:
        assert belief.deals_until_on_top is not None
        expected = CountAnswer(belief.deals_until_on_top)
        ask = "How many more deals until the mitten is on top (0 = on top now)?"
    else:
        expected = ProbabilityAnswer(belief.mitten_on_top)
        ask = "What is the chance the mitten is on top now?"
    return Question(
        kind=Kind.CYCLE,
        skill=skill,
        text=f"{head} {ask}",
        facts=CycleFacts(edge.serial, situation.batteries.count, obs.interval,
                         situation.events, CycleAsk.DEALS if known else CycleAsk.PROBABILITY),
        answer=expected,
        reason=cycle_reason(situation),
    )


def cycle_question(rng: random.Random, skill: CycleSkill) -> Question:
    """A history of deals -> deals until the mitten is on top, or the chance it is now."""
    return cycle_question_for(cycle_situation(rng, skill), skill)


# --------------------------------------------------------------------------- decide


def _risk_note(obs: Observation, action: Action, risk: float) -> str:
    """Why an action can strike, in a few words (the rulebook says why it strikes)."""
    belief = obs.belief
    board = obs.board
    # With the mitten not on top, a click strikes only for a reason the board shows.
    shown = board.verdict(action, mitten_on_top=False)
    if action.kind is ActionKind.DRAW:
        if shown.strike is StrikeKind.HAND_FULL:
            return "the hand is full"
        if belief.mitten_on_top == 1:
            return "the mitten is on top"
        return f"the mitten may be on top ({odds(belief.mitten_on_top)})"
    if action.kind is ActionKind.DISCARD:
        slots = ", ".join(f"{s} ({board.hand[s - 1].code})" for s in shown.blocking)
        return f"slot {slots} can be played, so the discard is blocked"
    assert action.slot is not None
    card = board.hand[action.slot - 1]
    rule = obs.rules.rule(board.discard)
    if board.verdict(action, mitten_on_top=True).effect is Effect.SOLVE and risk < 1:
        return (
            f"{card.code} is a Defuse not legal under rule {rule}: it solves only if the "
            "mitten is on top, and strikes otherwise"
        )
    return f"{card.code} is not legal under rule {rule}"


def options_for(obs: Observation) -> tuple[Option, ...]:
    """Every click in this situation with the optimal policy's expected clicks to the
    solve after it, and its chance of a strike; empty slots cost a click for nothing."""
    values = action_values(obs)
    best = best_action(values)
    options: list[Option] = []
    for av in values:
        risk = float(av.strike_probability)
        clicks = None if math.isinf(av.expected_clicks) else av.expected_clicks
        note = _risk_note(obs, av.action, risk) if risk > 0 else ""
        options.append(Option(av.action, clicks, risk, note))
    board = obs.board
    valued = {av.action for av in values}
    for slot in range(1, HAND_SIZE + 1):
        action = Action.play(slot)
        if action not in valued and board.effects(action) == _NOTHING_EITHER_WAY:
            options.append(
                Option(
                    action,
                    best.expected_clicks + 1.0,
                    0.0,
                    f"slot {slot} is empty: the click does nothing",
                )
            )
    return tuple(options)


def decision_skill(obs: Observation, action: Action) -> DecideSkill:
    """The kind of decision whose best answer is ``action``."""
    if action.kind is ActionKind.PLAY:
        if action.slot in obs.board.defuse_slots():
            return DecideSkill(Move.DEFUSE)
        return DecideSkill(Move.PLAY)
    return DecideSkill(Move.DRAW if action.kind is ActionKind.DRAW else Move.DISCARD)


def situation_words(situation: Situation) -> str:
    """The visible state of a situation for a prompt."""
    obs = situation.observation
    edge = situation.edgework
    assert edge.serial is not None and obs.discard is not None
    return (
        f"Serial {edge.serial.text}, {battery_count_words(situation.batteries.count)}. "
        f"Deals: {history_words(situation.events)}. Discard pile: "
        f"{card_words(obs.discard)}. Hand: {hand_words(obs.hand)}."
    )


def decide_question_for(situation: Situation) -> Question:
    """The ``decide`` question for a situation: the next click, graded by the policy."""
    obs = situation.observation
    recommendation = recommend(obs)
    assert recommendation.action is not None and recommendation.expected_clicks is not None
    edge = situation.edgework
    assert edge.serial is not None and obs.discard is not None
    return Question(
        kind=Kind.DECIDE,
        skill=decision_skill(obs, recommendation.action),
        text=f"{situation_words(situation)} What do you do?",
        facts=DecideFacts(edge.serial, situation.batteries.count, obs.interval,
                          situation.events, obs.discard, tuple(obs.hand),
                          tuple(obs.defuse_slots())),
        answer=recommendation.action,
        reason=(
            f"{recommendation.reason} Expected clicks to the solve: "
            f"{recommendation.expected_clicks:.2f}."
        ),
        rule=obs.rules.rule(obs.discard),
        options=options_for(obs),
        cycle=cycle_reason(situation),
    )


def _interesting(obs: Observation) -> bool:
    """Whether a decision has more than one click that cannot strike."""
    return sum(1 for av in action_values(obs) if av.safe) > 1


def decide_situation(rng: random.Random, skill: DecideSkill) -> Situation:
    """A mid-game situation whose best action is of the kind ``skill`` names.

    Each module is walked once, noting every situation of the wanted kind; one of them
    is taken. After a few modules without one, any non-trivial situation will do (the
    question then trains the skill it really asks).
    """
    fallback: Situation | None = None
    for _ in range(_DECIDE_MODULES):
        walk = random_walk(rng)
        # A walk asks for thousands of values: evaluating every phase at once (about
        # 0.2 s) is cheaper than the one-by-one start a single answer gets.
        solution_for(walk.module.rules, walk.module.interval).complete()
        length = rng.randint(3, 45)
        matches: list[Situation] = []
        for _ in range(length):
            obs = walk.observation
            if obs.solved:
                break
            best = best_action(action_values(obs)).action
            if _interesting(obs) or rng.random() < 0.15:
                if decision_skill(obs, best) == skill:
                    matches.append(walk.situation())
                elif fallback is None or rng.random() < 0.2:
                    fallback = walk.situation()
            wander = wander_step(rng, obs) if rng.random() > _OPTIMAL_SHARE else None
            walk.act(wander if wander is not None else best)
        if matches:
            return rng.choice(matches)
    if fallback is None:
        raise MisuseError(f"no walk gave a {skill.key} situation")
    return fallback


def decide_question(rng: random.Random, skill: DecideSkill) -> Question:
    """A live situation -> the next click, graded against the optimal policy."""
    return decide_question_for(decide_situation(rng, skill))
