"""Questions on live situations: ``cycle`` (where is the mitten?) and ``decide``.

Situations come from real simulated games: a :class:`~defuser.simulator.Module` on
random vanilla edgework is driven by a wandering player that never strikes on purpose,
and the question is asked from what a player has seen (an
:class:`~defuser.cycle.Observation`), never from the hidden deck. Expected answers come
from the exact belief (:mod:`defuser.cycle`) and, for ``decide``, from the optimal
zero-strike policy's expected clicks for every candidate action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from defuser.cycle import Observation, odds
from defuser.generate import random_batteries, random_serial
from defuser.rules import HAND_SIZE
from defuser.simulator import Action, ActionKind, Module, Outcome, Result
from defuser.trainer.model import Kind, Question
from edgework import Batteries, CardType, Edgework, Ruleset

#: Attempts at a wandering game that ends in the wanted kind of situation.
_MAX_GAMES: Final = 400
#: Clicks a wandering game may take before it is cut short.
_MAX_CLICKS: Final = 200


@dataclass(frozen=True, slots=True)
class Situation:
    """A moment of a simulated game, as the player has seen it."""

    edgework: Edgework
    module: Module
    observation: Observation

    @property
    def rules(self) -> Ruleset:
        """The module's table and Table E column."""
        return self.module.rules

    @property
    def batteries(self) -> Batteries:
        """The bomb's batteries (N comes from their count)."""
        assert self.edgework.batteries is not None
        return self.edgework.batteries

    def events(self) -> list[dict[str, object]]:
        """Each deal and each draw strike so far, as JSON-able records.

        A deal is ``{"deal": 3, "action": "discard", "card": "RH", "type": "..."}``; a
        draw strike is ``{"strike": "draw", "hand": 2}`` (cards in hand at the time).
        """
        events: list[dict[str, object]] = []
        deals = 0
        for result in self.module.history:
            if result.outcome is Outcome.OK and result.action.kind is not ActionKind.PLAY:
                deals += 1
                assert result.card is not None
                events.append(
                    {
                        "deal": deals,
                        "action": result.action.kind.value,
                        "card": result.card.code,
                        "type": self.rules.type_of(result.card).value,
                    }
                )
            elif result.outcome is Outcome.STRIKE and result.action.kind is ActionKind.DRAW:
                events.append({"strike": "draw", "hand": len(self.module.hand)})
        return events


def event_words(event: dict[str, object]) -> str:
    """One event for a prompt: ``3 discarded RH (Exploding Mitten)``."""
    if "strike" in event:
        return f"a draw struck with {event['hand']} cards in hand"
    verb = "drew" if event["action"] == "draw" else "discarded"
    return f"{event['deal']} {verb} {event['card']} ({event['type']})"


def random_module(rng: random.Random) -> tuple[Edgework, Module]:
    """A fresh module on random vanilla edgework, seeded from ``rng``."""
    edge = Edgework(random_serial(rng), random_batteries(rng))
    return edge, Module.from_edgework(edge, rng.randrange(1 << 30))


def wander_step(rng: random.Random, obs: Observation, *, risky: float = 0.0) -> Action | None:
    """A plausible player's next click that cannot strike, or ``None`` when stuck.

    Deals are favoured over plays so that the deck moves. With chance ``risky`` the
    player draws although the mitten may be on top (a strike teaches something too).
    Defuses are never played, so the game is never solved on the way.
    """
    rules = obs.rules
    choices: list[tuple[Action, float]] = []
    for slot in obs.legal_slots:
        if rules.type_of(obs.hand[slot - 1]) is not CardType.DEFUSE:
            choices.append((Action.play(slot), 1.0))
    if obs.discard_allowed:
        choices.append((Action.discard(), 3.0))
    room = len(obs.hand) < HAND_SIZE
    if obs.draw_safe:
        choices.append((Action.draw(), 3.0))
    elif room and obs.belief.mitten_on_top < 1 and rng.random() < risky:
        return Action.draw()
    if not choices:
        return None
    pick: Action = rng.choices(
        [a for a, _ in choices], weights=[w for _, w in choices]
    )[0]
    return pick


def wander(
    rng: random.Random,
    *,
    stop: Callable[[Observation], bool],
    risky: float = 0.0,
) -> Situation | None:
    """Play a random module until ``stop`` holds; ``None`` when the game got stuck first."""
    edge, module = random_module(rng)
    obs = Observation.start(module.rules, module.interval, module.discard_top, module.hand)
    for _ in range(_MAX_CLICKS):
        if stop(obs):
            return Situation(edge, module, obs)
        action = wander_step(rng, obs, risky=risky)
        if action is None:
            return None
        result: Result = module.act(action)
        obs = obs.after(result)
    return None


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
    history = situation.module.history
    mitten_deals = [
        i
        for i, r in enumerate(_deals(history), start=1)
        if r.card is not None and r.card == obs.rules.mitten
    ]
    if known is not None:
        if belief.mitten_on_top == 1 and any(
            r.outcome is Outcome.STRIKE and r.action.kind is ActionKind.DRAW for r in history
        ):
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


def _deals_words(count: int) -> str:
    return f"{count} deal{'s' if count != 1 else ''}"


def _deals(history: list[Result]) -> list[Result]:
    return [
        r
        for r in history
        if r.outcome is Outcome.OK and r.action.kind is not ActionKind.PLAY
    ]


def cycle_situation(rng: random.Random, skill: str) -> Situation:
    """A game stopped where a ``cycle`` question of ``skill`` can be asked."""
    want_known = skill == "cycle:known"
    for _ in range(_MAX_GAMES):
        target = rng.randint(0, 20)

        def stop(obs: Observation, target: int = target) -> bool:
            return obs.deals >= target or (
                obs.belief.deals_until_on_top == 0 and rng.random() < 0.3
            )

        situation = wander(rng, stop=stop, risky=0.04)
        if situation is None:
            continue
        known = situation.observation.belief.deals_until_on_top is not None
        if known == want_known:
            return situation
    raise RuntimeError(f"no wandering game gave a {skill} situation")


def batteries_words(count: int) -> str:
    """``1 battery``, ``3 batteries``."""
    return f"{count} batter{'y' if count == 1 else 'ies'}"


def cycle_question_for(situation: Situation, skill: str) -> Question:
    """The ``cycle`` question for a situation: deals to the mitten, or its chance now."""
    obs = situation.observation
    belief = obs.belief
    known = belief.deals_until_on_top is not None
    events = situation.events()
    history = "; ".join(event_words(e) for e in events) if events else "nothing dealt yet"
    edge = situation.edgework
    assert edge.serial is not None
    head = (
        f"Serial {edge.serial.text}, {batteries_words(situation.batteries.count)}. "
        f"Deals: {history}."
    )
    if known:
        expected = str(belief.deals_until_on_top)
        ask = "How many more deals until the mitten is on top (0 = on top now)?"
    else:
        expected = str(belief.mitten_on_top)
        ask = "What is the chance the mitten is on top now?"
    return Question(
        kind=Kind.CYCLE,
        skill=skill,
        text=f"{head} {ask}",
        facts={
            "serial": edge.serial.text,
            "batteries": situation.batteries.count,
            "interval": obs.interval,
            "history": events,
            "asks": "deals" if known else "probability",
        },
        expected=expected,
        reason=cycle_reason(situation),
    )


def cycle_question(rng: random.Random, skill: str) -> Question:
    """A history of deals -> deals until the mitten is on top, or the chance it is now."""
    return cycle_question_for(cycle_situation(rng, skill), skill)


SITUATION_GENERATORS: Final[dict[Kind, Callable[[random.Random, str], Question]]] = {
    Kind.CYCLE: cycle_question,
}
