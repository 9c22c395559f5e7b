"""The module's log messages as the replay reads them.

Contract: messages are read once into their classes by
:func:`defuser.engine.modlog.parse`; :data:`CLICKS` says, for each message class that
starts one click of the player, which click it was and how it ended, so nothing else
dispatches on message classes to learn that; :func:`moved_card` is the card a click's
first line names and :func:`event_of` what the click visibly did, as the typed
:data:`~defuser.engine.events.Event` the belief reads (the replay's steps and a
followed module both turn lines into events here); :func:`is_cut_short` tells a line
the file cut short from one the module never writes.
"""

from __future__ import annotations

import functools
from typing import Final, NamedTuple

from defuser.engine import modlog
from defuser.engine.actions import Action, ActionKind, StrikeKind
from defuser.engine.events import Discarded, Drew, Event, Played, Solved, Struck
from defuser.engine.rules import HAND_SIZE
from defuser.engine.simulator import Outcome
from edgework import RULE_LETTERS, TABLE_LETTERS, Card, CardType


class Click(NamedTuple):
    """The click a message starts: which one, how it ended, and why it struck."""

    kind: ActionKind
    outcome: Outcome
    strike: StrikeKind | None = None


#: Messages that start an action (one click of the player), and what each one was.
CLICKS: Final[dict[type[modlog.Message], Click]] = {
    modlog.DrewMessage: Click(ActionKind.DRAW, Outcome.OK),
    modlog.DrawMittenStrikeMessage: Click(
        ActionKind.DRAW, Outcome.STRIKE, StrikeKind.MITTEN_ON_TOP
    ),
    modlog.HandFullStrikeMessage: Click(ActionKind.DRAW, Outcome.STRIKE, StrikeKind.HAND_FULL),
    modlog.DiscardedMessage: Click(ActionKind.DISCARD, Outcome.OK),
    modlog.DiscardBlockedMessage: Click(
        ActionKind.DISCARD, Outcome.STRIKE, StrikeKind.DISCARD_BLOCKED
    ),
    modlog.PlayedMessage: Click(ActionKind.PLAY, Outcome.OK),
    modlog.InvalidPlayMessage: Click(ActionKind.PLAY, Outcome.STRIKE, StrikeKind.INVALID_PLAY),
    modlog.SolvedMessage: Click(ActionKind.PLAY, Outcome.SOLVED),
}
#: Messages that start an action (one click of the player).
ACTION_STARTS: Final = frozenset(CLICKS)
#: Messages that report a strike (a blocked discard counts once, at its first line).
STRIKE_STARTS: Final = frozenset(
    kind for kind, click in CLICKS.items() if click.outcome is Outcome.STRIKE
)
#: Messages of the start-up.
STARTUP_MESSAGES: Final[frozenset[type[modlog.Message]]] = frozenset(
    {modlog.TableMessage, modlog.OpeningDiscardMessage, modlog.HandCardMessage}
)

SLOT_EXCLAIM: Final = {i + 1: excl for i, (_, excl) in enumerate(modlog.SLOT_EXCLAMATIONS)}
ORDINAL_WORD: Final = {i + 1: ordinal for i, (ordinal, _) in enumerate(modlog.SLOT_EXCLAMATIONS)}


def click_of(message: modlog.Message | None) -> Click | None:
    """The click ``message`` starts, or ``None`` when it starts none."""
    return None if message is None else CLICKS.get(type(message))


#: The first lines of a click that name the card it moved (or, for an invalid play,
#: the card that stayed in its slot).
_CARD_LINES: Final = (
    modlog.DrewMessage, modlog.DiscardedMessage, modlog.PlayedMessage, modlog.InvalidPlayMessage
)


def moved_card(message: modlog.Message | None) -> Card | None:
    """The card a click's first line names (drawn, discarded, played, or not legal to
    play), or ``None`` when it names none."""
    return message.card if isinstance(message, _CARD_LINES) else None


def event_of(
    click: Click, card: Card | None, slot: int | None, blocking: tuple[int, ...] = ()
) -> Event | None:
    """What ``click`` visibly did, as the belief reads it: ``card`` is the card it moved
    (for the solve, the Defuse, when known), ``slot`` the slot a play took it from, and
    ``blocking`` the slots a blocked discard listed. ``None`` when that is not enough:
    a play (other than the solve) without its slot, a deal without its card."""
    if click.outcome is Outcome.SOLVED:
        return Solved(slot, card)
    if click.kind is not ActionKind.PLAY:
        action = Action.draw() if click.kind is ActionKind.DRAW else Action.discard()
    elif slot is None:
        return None
    else:
        action = Action.play(slot)
    if click.outcome is Outcome.STRIKE:
        return Struck(action, click.strike, card, blocking)
    if card is None:
        return None
    if click.kind is ActionKind.DRAW:
        return Drew(card)
    if click.kind is ActionKind.DISCARD:
        return Discarded(card)
    assert slot is not None
    return Played(slot, card)


@functools.cache
def _all_messages() -> tuple[str, ...]:
    """Every message the module can write (for spotting a line cut short)."""
    out: list[str] = []
    faces = list(Card)
    kinds = list(CardType)
    out += [modlog.table(t) for t in TABLE_LETTERS]
    for card in faces:
        out.append(modlog.invalid_play(card))
        for kind in kinds:
            out += [
                modlog.initial_discard(card, kind),
                modlog.drew(card, kind),
                modlog.discarded(card, kind),
                modlog.played(card, kind),
            ]
            out += [modlog.hand_card(n, card, kind) for n in range(1, HAND_SIZE + 1)]
    for letter in RULE_LETTERS:
        out += [modlog.rule(letter), modlog.rule_now(letter)]
    out += [modlog.mitten_coming(k) for k in range(0, 100)]
    out += [modlog.blocking_slot(s) for s in range(1, HAND_SIZE + 1)]
    out += [
        modlog.draw_mitten_strike(),
        modlog.hand_full_strike(),
        modlog.discard_blocked(),
        modlog.strike(),
        modlog.solved(),
    ]
    return tuple(out)


def is_cut_short(message: str) -> bool:
    """Whether ``message`` is the beginning of some message the module writes."""
    return any(full.startswith(message) for full in _all_messages())
