"""The module's log messages as the replay reads them.

Contract: messages are read once into their classes by
:func:`defuser.engine.modlog.parse`; :data:`CLICKS` says, for each message class that
starts one click of the player, which click it was and how it ended, so nothing else
dispatches on message classes to learn that; :func:`is_cut_short` tells a line the file
cut short from one the module never writes.
"""

from __future__ import annotations

import functools
from typing import Final, NamedTuple

from defuser.engine import modlog
from defuser.engine.actions import ActionKind, StrikeKind
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
