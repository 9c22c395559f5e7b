"""The module's vocabulary: what a player can click, and why a click can strike.

Contract: an :class:`Action` is one click (draw, discard, play a hand slot) and reads
and writes the Twitch Plays command (``str(action)`` / :meth:`Action.parse`);
:class:`StrikeKind` says why a click struck. What a click visibly did is an
:data:`~defuser.engine.events.Event` (:mod:`defuser.engine.events`). Nothing here knows
the hidden deck.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

from defuser.engine.rules import HAND_SIZE
from defuser.errors import InvalidCommandError


class ActionKind(enum.Enum):
    """What the player clicked: the deck, the discard pile or a hand slot."""

    DRAW = "draw"
    DISCARD = "discard"
    PLAY = "play"

    @property
    def past_tense(self) -> str:
        """The verb for a click of this kind that went through: drew, discarded, played."""
        return _PAST_TENSE[self]


_PAST_TENSE: Final = {
    ActionKind.DRAW: "drew",
    ActionKind.DISCARD: "discarded",
    ActionKind.PLAY: "played",
}
_COMMAND = re.compile(r"(?:!\s*\d+\s+)?(?P<verb>\S+)(?P<params>(?:\s+\S+)*)")
_SLOT_WORDS: Final = ("1", "2", "3")


@dataclass(frozen=True, slots=True)
class Action:
    """One click. ``slot`` is 1..3 for :attr:`ActionKind.PLAY` and ``None`` otherwise.

    ``str(action)`` is the Twitch Plays command (``draw``, ``discard``, ``play 2``) and
    :meth:`parse` reads it back.
    """

    kind: ActionKind
    slot: int | None = None

    def __post_init__(self) -> None:
        if self.kind is ActionKind.PLAY:
            if self.slot is None or not 1 <= self.slot <= HAND_SIZE:
                raise InvalidCommandError(
                    f"play slot {self.slot!r} is not a hand slot, expected 1, 2 or 3"
                )
        elif self.slot is not None:
            raise InvalidCommandError(
                f"{self.kind.value} takes no slot, got slot {self.slot!r}"
            )

    def __str__(self) -> str:
        if self.kind is ActionKind.PLAY:
            return f"play {self.slot}"
        return str(self.kind.value)

    @classmethod
    def draw(cls) -> Action:
        """Click the deck."""
        return _CLICKS[0]

    @classmethod
    def discard(cls) -> Action:
        """Click the discard pile."""
        return _CLICKS[1]

    @classmethod
    def play(cls, slot: int) -> Action:
        """Click hand slot ``slot`` (1-3)."""
        if type(slot) is int and 1 <= slot <= HAND_SIZE:
            return _CLICKS[1 + slot]
        return cls(ActionKind.PLAY, slot)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read a Twitch Plays command: ``draw``, ``discard`` or ``play <1-3>``.

        Case does not matter, spaces around and between words are allowed, and an
        optional ``!<n> `` module prefix is skipped (``!1 play 2``). A refused command
        (unknown verb, ``play`` without a number, a number other than 1-3, more than one
        parameter) raises :class:`InvalidCommandError`; the real module gives no strike.
        """
        match = _COMMAND.fullmatch(text.strip())
        if match is None:
            raise InvalidCommandError(
                f"command {text!r} is empty, expected draw, discard or play <1-3>"
            )
        verb = match.group("verb").lower()
        params = match.group("params").split()
        kind = _VERBS.get(verb)
        if kind is None:
            raise InvalidCommandError(
                f"command {text!r} is not a module command, expected draw, discard or "
                "play <1-3>"
            )
        if kind is not ActionKind.PLAY:
            if params:
                raise InvalidCommandError(
                    f"command {text!r} gives {verb} a parameter, expected just {verb!r}"
                )
            return cls(kind)
        return cls(kind, _parse_slot(text, params))


_VERBS: Final = {kind.value: kind for kind in ActionKind}
#: Every click, made once (actions are values): draw, discard, play 1-3.
_CLICKS: Final = (
    Action(ActionKind.DRAW),
    Action(ActionKind.DISCARD),
    *(Action(ActionKind.PLAY, slot) for slot in range(1, HAND_SIZE + 1)),
)


def _parse_slot(text: str, params: list[str]) -> int:
    if not params:
        raise InvalidCommandError(
            f"command {text!r} has no slot number, expected play 1, play 2 or play 3"
        )
    if len(params) > 1:
        raise InvalidCommandError(
            f"command {text!r} has {len(params)} parameters, expected one slot number 1-3"
        )
    if params[0] not in _SLOT_WORDS:
        raise InvalidCommandError(
            f"command {text!r} names slot {params[0]!r}, expected 1, 2 or 3"
        )
    return int(params[0])


class StrikeKind(enum.Enum):
    """Why a click struck."""

    MITTEN_ON_TOP = "mitten-on-top"
    HAND_FULL = "hand-full"
    DISCARD_BLOCKED = "discard-blocked"
    INVALID_PLAY = "invalid-play"
