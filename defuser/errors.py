"""Exceptions for misuse of the defuser's game model.

Input errors from the edgework model (:class:`edgework.EdgeworkError`) are ``ValueError``
too; the CLI turns both into one clean line at one boundary.
"""

from __future__ import annotations


class DefuserError(ValueError):
    """Base class for errors raised by :mod:`defuser` about bad input or misuse."""


class InvalidHandError(DefuserError):
    """A hand has more than three cards, or a slot number is out of range."""


class InvalidObservationError(DefuserError):
    """Something reported about a game contradicts the rules or the history so far."""


class NoOpeningStateError(InvalidObservationError):
    """A click was reported before the module's opening state (a front end says how to
    give it)."""


class InvalidCommandError(DefuserError):
    """A Twitch Plays or session command could not be read."""
