"""The module's log messages as the replay reads them.

Contract: :func:`read_message` names a message and gives its fields as values (cards,
card types, numbers, slots) or says it is not a message the module writes;
:data:`CLICKS` says, for each message that starts one click of the player, which click
it was and how it ended, so nothing else dispatches on message names to learn that.
"""

from __future__ import annotations

import functools
from typing import Any, Final, NamedTuple

from defuser.engine import modlog
from defuser.engine.actions import ActionKind, StrikeKind
from defuser.engine.rules import HAND_SIZE
from defuser.engine.simulator import Outcome
from edgework import TABLE_LETTERS, Card, CardType, InvalidCardError


class Click(NamedTuple):
    """The click a message starts: which one, how it ended, and why it struck."""

    kind: ActionKind
    outcome: Outcome
    strike: StrikeKind | None = None


#: Messages that start an action (one click of the player), and what each one was.
CLICKS: Final[dict[str, Click]] = {
    "drew": Click(ActionKind.DRAW, Outcome.OK),
    "draw_mitten_strike": Click(ActionKind.DRAW, Outcome.STRIKE, StrikeKind.MITTEN_ON_TOP),
    "hand_full_strike": Click(ActionKind.DRAW, Outcome.STRIKE, StrikeKind.HAND_FULL),
    "discarded": Click(ActionKind.DISCARD, Outcome.OK),
    "discard_blocked": Click(ActionKind.DISCARD, Outcome.STRIKE, StrikeKind.DISCARD_BLOCKED),
    "played": Click(ActionKind.PLAY, Outcome.OK),
    "invalid_play": Click(ActionKind.PLAY, Outcome.STRIKE, StrikeKind.INVALID_PLAY),
    "solved": Click(ActionKind.PLAY, Outcome.SOLVED),
}
#: Messages that start an action (one click of the player).
ACTION_STARTS: Final = frozenset(CLICKS)
#: Messages that report a strike (a blocked discard counts once, at its first line).
STRIKE_STARTS: Final = frozenset(
    name for name, click in CLICKS.items() if click.outcome is Outcome.STRIKE
)
#: Messages of the start-up.
STARTUP_MESSAGES: Final = frozenset({"table", "initial_discard", "hand_card"})
#: Messages that tell the new rule letter (after a play or at start-up, after a discard).
RULE_MESSAGES: Final = frozenset({"rule", "rule_now"})

ORDINAL_SLOT: Final = {ordinal: i + 1 for i, (ordinal, _) in enumerate(modlog.SLOT_EXCLAMATIONS)}
SLOT_EXCLAIM: Final = {i + 1: excl for i, (_, excl) in enumerate(modlog.SLOT_EXCLAMATIONS)}
ORDINAL_WORD: Final = {i + 1: ordinal for i, (ordinal, _) in enumerate(modlog.SLOT_EXCLAMATIONS)}


def read_message(message: str) -> tuple[str | None, dict[str, Any]]:
    """Which module message this is and its fields as values (cards, types, numbers).

    Returns ``(None, {})`` for text the module never writes.
    """
    name, fields = _read_message(message)
    return name, dict(fields)


#: How many messages :func:`_read_message` remembers: the module writes some 800
#: different ones (a countdown up to 99), and a log repeats them all the time.
_READ_CACHE_SIZE: Final = 4096


@functools.lru_cache(maxsize=_READ_CACHE_SIZE)
def _read_message(message: str) -> tuple[str | None, tuple[tuple[str, Any], ...]]:
    """:func:`read_message`, with the fields as immutable pairs so that it can be cached."""
    found = modlog.classify(message)
    if found is None:
        return None, ()
    name, raw = found
    fields: dict[str, Any] = {}
    try:
        for key, value in raw.items():
            if key == "face":
                fields["face"] = Card.parse(value)
            elif key == "type":
                fields["type"] = CardType(value)
            elif key in ("k", "n"):
                fields[key] = int(value)
            elif key == "ordinal":
                fields["slot"] = ORDINAL_SLOT[value]
            else:
                fields[key] = value
    except (InvalidCardError, ValueError, KeyError):
        return None, ()
    return name, tuple(fields.items())


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
    for letter in "ABCDEFGHIJKL":
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
