"""Following one log between two looks at it, and the polling loop of ``mittens live --follow``.

Contract: :class:`LogFollowing` applies each look at the file
(:class:`~defuser.apps.follow.tail.TailRead`) to a
:class:`~defuser.apps.follow.follower.Follower` in the one right order (a rotated log's
last lines, then a restart, then the new lines), gives every change to ``emit`` and
what happens to the log itself to ``notice`` as a typed :class:`FollowNotice` (words
are the front ends'); it is sans-I/O, and both front ends drive it (the web board's hub
in its own worker). :func:`poll_log` is the I/O around it for the terminal: the file,
read by a :class:`~defuser.apps.follow.tail.LogTail`, and the wait between looks (an
injected ``sleep``).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from defuser.apps.follow.advice import Advice
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.tail import LogTail, Missing, Restart, TailRead


class FollowNoticeKind(enum.StrEnum):
    """What a :class:`FollowNotice` is about."""

    RESTARTED = "restarted"
    SESSION = "session"
    MISSING = "missing"
    BACK = "back"


@dataclass(frozen=True, slots=True)
class FollowNotice:
    """Something about the log itself rather than a module: it started over
    (``restarted``), a new game session began in it (``session``), it cannot be read
    (``missing``) or can be again (``back``). A value, no words: each front end words
    it."""

    kind: FollowNoticeKind
    #: The follower's session after the notice (1, 2, ...).
    session: int
    #: Why the log cannot be read (``missing`` only).
    missing: Missing | None = None
    #: How the log started over (``restarted`` only).
    restart: Restart | None = None


def _quiet(notice: FollowNotice) -> None:
    """The notices of a caller that does not show them."""


@dataclass
class LogFollowing:
    """Following one log, between two looks at it: each :class:`TailRead` applied to the
    :class:`Follower` in the one right order (a rotated log's last lines, then a restart,
    then the new lines), every change given to ``emit`` and what happens to the log
    itself to ``notice``. Sans-I/O: the caller reads the file (:class:`LogTail`) and
    waits; ``mittens live --follow`` (:func:`poll_log`) and the web board's hub both drive
    it."""

    follower: Follower
    emit: Callable[[Advice], None]
    notice: Callable[[FollowNotice], None]
    missing: Missing | None = None

    def feed(self, lines: list[str]) -> None:
        """Feed lines one by one: every change emitted, a new game session announced."""
        for line in lines:
            session = self.follower.session
            changes = self.follower.feed(line)
            if self.follower.session != session:
                self.notice(FollowNotice(FollowNoticeKind.SESSION, self.follower.session))
            for advice in changes:
                self.emit(advice)

    def take(self, read: TailRead) -> bool:
        """Apply one look at the file; whether it brought anything."""
        session = self.follower.session
        if read.missing:
            if read.missing != self.missing:
                self.notice(FollowNotice(FollowNoticeKind.MISSING, session, read.missing))
            self.missing = read.missing
            return False
        if self.missing:
            self.missing = None
            self.notice(FollowNotice(FollowNoticeKind.BACK, session))
        self.feed(read.drained)
        if read.restarted:
            self.follower.restart()
            self.notice(FollowNotice(FollowNoticeKind.RESTARTED, self.follower.session,
                                     restart=read.restarted))
        self.feed(read.lines)
        return bool(read.lines or read.drained or read.restarted)


def poll_log(
    path: str | Path,
    emit: Callable[[Advice], None],
    *,
    follower: Follower | None = None,
    poll: float = 0.25,
    stop: Callable[[], bool] = lambda: False,
    catch_up: bool = True,
    sleep: Callable[[float], None] = time.sleep,
    notice: Callable[[FollowNotice], None] = _quiet,
    tail: LogTail | None = None,
) -> Follower:
    """Follow ``path`` until ``stop()`` says so, calling ``emit`` for every change and
    ``notice`` for what happens to the log itself (:class:`FollowNotice`).

    The I/O around the :class:`Follower` session: the file (:class:`LogTail`) and the
    wait between reads (``sleep``, given ``poll`` seconds). With ``catch_up`` the lines
    already in the file are read first without a word (:meth:`Follower.catch_up`).
    ``stop`` is asked each time the file has nothing new. A front end that goes on
    from a saved follower gives it with its saved ``tail`` (both rebuilt by their
    ``from_state``) and no ``catch_up``.
    """
    loop = LogFollowing(follower if follower is not None else Follower(), emit, notice)
    tail = tail if tail is not None else LogTail(path)
    first = tail.read()
    if catch_up and not first.missing:
        for advice in loop.follower.catch_up(first.lines):
            emit(advice)
    else:
        loop.take(first)
    while True:
        if loop.take(tail.read()):
            continue
        if stop():
            # One last look: the writer may have finished just before it said so.
            loop.take(tail.read())
            return loop.follower
        sleep(poll)
