"""The error of a saved log-follow state (a follower's or a log tail's) that cannot be
rebuilt.

Contract: :class:`SavedFollowError` is what ``Follower.from_state`` and
``LogTail.from_state`` raise for a state of another version or shape; it is a
:class:`~defuser.engine.game.SavedGameError`, so a front end handles it as every saved
state it cannot read.
"""

from __future__ import annotations

from defuser.engine.game import SavedGameError


class SavedFollowError(SavedGameError):
    """A log follower's state that cannot be rebuilt: another version, a missing or
    malformed part, a session too long to keep, or lines that do not replay to the
    saved modules."""
