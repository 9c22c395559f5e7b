"""What a log follower reports: a change on one module, with what happened as a typed event.

Contract: an :class:`Advice` is one module's change at one line of the log: its bomb
(with the edgework in use and whether it came from the log or the options, named by
the log stream's :class:`~defuser.logs.stream.EdgeFact`), what happened as a typed
:data:`FollowEvent` (:class:`Started`, :class:`LostTrack`, :class:`Narrowed`,
:class:`Moved`) and the live session's reply
with the best next click. Values only, no words: :meth:`Advice.to_json` carries the
event as typed fields (:func:`event_json`); the front ends word it
(:mod:`defuser.dashboard.follow_words`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from defuser.apps.live_session import SessionReply
from defuser.apps.tracking import LoggedClick, OtherLine
from defuser.logs.stream import EdgeFact, LoggedBomb
from edgework import RuleLetter


@dataclass(frozen=True, slots=True)
class Started:
    """The module's start-up was read (complete, or found missing)."""


@dataclass(frozen=True, slots=True)
class LostTrack:
    """A line followed from no way the module could be: it is picked up again."""


@dataclass(frozen=True, slots=True)
class Narrowed:
    """A line that moved nothing told apart the bombs or hand orders the module may
    have, and the advice changed: a rule line (``rule``), or a blocked discard's slots
    (``rule`` is ``None``)."""

    rule: RuleLetter | None = None


@dataclass(frozen=True, slots=True)
class Moved:
    """A click the log shows (or a line in its place); ``picked_up``: with it, a module
    that was being picked up again is followed as before."""

    line: LoggedClick | OtherLine
    picked_up: bool = False


#: What happened on a module, in an :class:`Advice`.
FollowEvent = Started | LostTrack | Narrowed | Moved


def event_json(event: FollowEvent) -> dict[str, Any]:
    """The event as typed JSON fields, no words: its ``kind`` (``started``, ``lost
    track``, ``narrowed`` with the ``rule`` letter or ``None`` for a blocked discard's
    slots, ``moved`` with the ``click`` kind, or the ``message`` read in a click's place,
    the ``card``, the ``slots`` and whether the module was ``picked_up`` again)."""
    match event:
        case Started():
            return {"kind": "started"}
        case LostTrack():
            return {"kind": "lost track"}
        case Narrowed(rule=rule):
            return {"kind": "narrowed", "rule": None if rule is None else str(rule)}
        case Moved(line=line, picked_up=picked_up):
            if isinstance(line, OtherLine):
                return {"kind": "moved", "message": line.message.name, "picked_up": picked_up}
            card = None if line.card is None else line.card.code
            return {"kind": "moved", "click": line.kind.value, "card": card,
                    "slots": list(line.slots), "picked_up": picked_up}


@dataclass(frozen=True, slots=True)
class Advice:
    """A change on one module: what happened at ``line`` and the best next click."""

    line: int
    session: int
    bomb: LoggedBomb | None
    module_id: int
    event: FollowEvent
    reply: SessionReply
    #: Whether the module's bomb is certain (several bombs of a mission may fit).
    bomb_certain: bool = True
    #: The edgework the log did not show and the advice needs.
    needs: tuple[EdgeFact, ...] = ()
    #: The serial number and battery count in use: the log's, else the options' ones.
    serial: str | None = None
    batteries: int | None = None
    #: Which of the two came from the options (``serial``, ``batteries``), not the log.
    given: tuple[EdgeFact, ...] = ()
    #: How many bombs of the mission the module's lines agree with (1: certain).
    candidates: int = 1

    @property
    def solved(self) -> bool:
        """Whether the module is solved."""
        obs = self.reply.observation
        return obs is not None and obs.solved

    def to_json(self) -> dict[str, Any]:
        """One JSON object: where, which bomb and module, what happened (typed:
        :func:`event_json`; a front end puts its words in the ``event`` field), the
        advice."""
        bomb = self.bomb
        return {
            "line": self.line,
            "session": self.session,
            "bomb": None if bomb is None else {
                "number": bomb.number,
                "serial": self.serial,
                "batteries": self.batteries,
                "given": list(self.given),
                "certain": self.bomb_certain,
                "candidates": self.candidates,
            },
            "module": self.module_id,
            "event": event_json(self.event),
            "solved": self.solved,
            **self.reply.to_json(),
        }

