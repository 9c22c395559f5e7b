"""Reasons: the one line that tells a player why the optimal click is the best one.

Contract: :func:`reason_line` is a pure function of the observation and the situation's
action values (from :mod:`defuser.strategy.values`); it quotes a value where a close
alternative deserves a number, and never looks at hidden state. It words the rules and
never states one: what a click does (a Defuse that solves, the cards that block the
discard, room in the hand) is the rulebook's answer (:class:`~defuser.engine.board.Board`).
"""

from __future__ import annotations

from typing import Protocol

from defuser.engine.actions import Action, ActionKind
from defuser.engine.board import Effect
from defuser.strategy.belief import Observation, odds


class ValuedClick(Protocol):
    """What a reason reads of an action's value (:class:`defuser.strategy.values.ActionValue`
    has it): the click and its expected clicks to the solve."""

    @property
    def action(self) -> Action:
        """The click."""

    @property
    def expected_clicks(self) -> float:
        """Expected clicks to the solve if it is taken now, this one included."""


def reason_line(obs: Observation, chosen: ValuedClick, values: tuple[ValuedClick, ...]) -> str:
    """A one-line reason for ``chosen`` that a player understands: the click, then why
    (``Discard: the mitten may be on top (1 in 4); ...``).

    ``values`` are the situation's action values (from :func:`action_values`); a reason
    quotes them where a close alternative deserves a number.
    """
    head, why = reason_parts(obs, chosen, values)
    return f"{head}: {why}"


def reason_parts(
    obs: Observation, chosen: ValuedClick, values: tuple[ValuedClick, ...]
) -> tuple[str, str]:
    """The reason for ``chosen`` in its two parts: the click as the player reads it
    (``Play 2 (RC)``, ``Discard``) and why it is best."""
    action = chosen.action
    if action.kind is ActionKind.PLAY:
        return _play_reason(obs, chosen)
    if action.kind is ActionKind.DISCARD:
        return _discard_reason(obs, chosen, values)
    return _draw_reason(obs)


def _play_reason(obs: Observation, chosen: ValuedClick) -> tuple[str, str]:
    action = chosen.action
    belief = obs.belief
    p = belief.mitten_on_top
    board = obs.board
    holds_defuse = bool(board.defuse_slots())
    room = board.has_room
    assert action.slot is not None
    card = board.hand[action.slot - 1]
    name = f"Play {action.slot} ({card.code}"
    if board.verdict(action, mitten_on_top=True).effect is Effect.SOLVE:  # a Defuse
        if p == 1:
            return f"{name}, a Defuse)", "the mitten is on top, so this solves the module."
        if p > 0:
            return f"{name}, a Defuse)", (
                f"it is legal, so it cannot strike, and it solves "
                f"the module if the mitten is on top ({odds(p)})."
            )
    rule = obs.rules.rule(card)
    legal = board.legal_slots
    if not room and p == 0 and belief.defuse_possible and not holds_defuse:
        why = "it is legal, and it frees a slot so the Defuse can be drawn when it comes"
    elif board.blocking_slots and len(legal) == 1:
        why = "it is the only legal card, and it blocks the discard"
    elif board.blocking_slots:
        why = (
            f"legal cards block the discard, and this one sets the best next rule ({rule})"
        )
    else:
        why = f"it is legal, and the rule it sets ({rule}) suits your hand best"
    return f"{name})", f"{why}."


def _discard_reason(
    obs: Observation, chosen: ValuedClick, values: tuple[ValuedClick, ...]
) -> tuple[str, str]:
    belief = obs.belief
    p = belief.mitten_on_top
    board = obs.board
    holds_defuse = bool(board.defuse_slots())
    room = board.has_room
    d = belief.deals_until_on_top
    if p == 1:
        return "Discard", (
            "the mitten is on top and you hold no Defuse; discard it to start "
            "the next cycle."
        )
    if p > 0:
        return "Discard", (
            f"the mitten may be on top ({odds(p)}); discarding is safe and "
            "moves the deck."
        )
    if holds_defuse:
        where = "" if d is None else f" ({d} deal{'s' if d != 1 else ''} away)"
        return "Discard", (
            f"you hold a Defuse; discarding moves the deck toward the "
            f"mitten{where} and keeps your hand free."
        )
    if not belief.defuse_possible:
        return "Discard", (
            "no Defuse can come before the mitten, so move the deck without "
            "filling your hand."
        )
    if belief.defuse_next == 0:
        return "Discard", (
            "the next card cannot be the Defuse, so deal it onto the pile and "
            "keep your hand free."
        )
    if not room:
        return "Discard", (
            "the hand is full and nothing is playable, so discarding is the "
            f"only safe move (the Defuse comes next {odds(belief.defuse_next)})."
        )
    draw = next((av for av in values if av.action.kind is ActionKind.DRAW), None)
    extra = 0.0 if draw is None else draw.expected_clicks - chosen.expected_clicks
    cost = f" (drawing costs {extra:.2f} clicks more on average)" if extra >= 0.005 else ""
    return "Discard", (
        f"the Defuse is unlikely next ({odds(belief.defuse_next)}), and a "
        f"drawn card would cost a play later{cost}."
    )


def _draw_reason(obs: Observation) -> tuple[str, str]:
    belief = obs.belief
    board = obs.board
    holds_defuse = bool(board.defuse_slots())
    if not holds_defuse and belief.defuse_next == 1:
        return "Draw", "the next card is the Defuse; draw it into your hand."
    if not holds_defuse and belief.defuse_next > 0:
        return "Draw", (
            f"the mitten is not on top, and the Defuse may come next "
            f"({odds(belief.defuse_next)}); drawing catches it."
        )
    if board.blocking_slots:
        return "Draw", (
            "the mitten is not on top; the discard is blocked, and drawing is "
            "cheaper than playing."
        )
    return "Draw", "the mitten is not on top; drawing is safe and moves the deck."
