"""The defuser's input errors, under the project's one root (:mod:`edgework.errors`).

:class:`DefuserError` is bad input to the game model, the strategy, the log tools and the
trainer (a front end shows it as one line; the command line exits 2). A caller breaking a
precondition raises :class:`edgework.errors.MisuseError` instead, and a device or a worker
process failing :class:`edgework.errors.FaultError`.
"""

from __future__ import annotations

from edgework.errors import InputError


class DefuserError(InputError):
    """Base class for errors raised by :mod:`defuser` about bad input."""


class InvalidHandError(DefuserError):
    """A hand has more than three cards, or a slot number is out of range."""


class InvalidObservationError(DefuserError):
    """Something reported about a game contradicts the rules or the history so far."""


class NoOpeningStateError(InvalidObservationError):
    """A click was reported before the module's opening state (a front end says how to
    give it)."""


class InvalidCommandError(DefuserError):
    """A Twitch Plays or session command could not be read."""


class UnusableStartError(DefuserError):
    """Stored starting values (a cached fixed point) from which a computation does not
    converge: the file's data is unusable, and the computation starts afresh."""
