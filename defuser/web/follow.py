"""The hands-free board's server side: one follower of the game's log, many viewers.

Contract: a :class:`FollowHub` reads the followed log with the same
:class:`~defuser.apps.follow.tail.LogTail`,
:class:`~defuser.apps.follow.following.LogFollowing` and
:class:`~defuser.apps.follow.follower.Follower` as ``mittens live --follow``, in a
worker thread every :data:`POLL` seconds, and keeps a
snapshot: every module of the current game session with its latest advice, as the
follower keeps it (the object ``live --follow --json`` prints, plus what the page
draws), the most recent change, and
notices (a new game session, a restarted log, a module whose advice stopped and why, a log
that cannot be read and why); a rotated log's last lines are read before the new log.
Every change bumps the snapshot's ``version`` and wakes the viewers waiting in
:meth:`FollowHub.wait`; a viewer that connects late, or again after a network drop, gets
the whole snapshot at once, so it catches up without a reload. Nothing a viewer does
reaches the follower.
"""

from __future__ import annotations

import asyncio
import enum
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from defuser.apps.follow.advice import Advice
from defuser.apps.follow.follower import Follower
from defuser.apps.follow.following import FollowNotice, FollowNoticeKind, LogFollowing
from defuser.apps.follow.tail import LogTail
from defuser.dashboard.follow_words import advice_json, missing_words
from defuser.web.board import module_view

#: Seconds between two looks at the log (a line reaches the page within about this).
POLL: Final = 0.05
#: Notices kept (the newest last).
MAX_NOTICES: Final = 20
#: Modules kept per game session (the oldest solved ones go first beyond it).
MAX_MODULES: Final = 64
#: Set when the server is stopping: open event streams end at once (a clean Ctrl-C).
CLOSING: Final = threading.Event()


class BoardNoticeKind(enum.StrEnum):
    """What a notice on the board is about (its ``kind`` in the snapshot)."""

    UNREADABLE = "unreadable"
    RESTARTED = "restarted"
    SESSION = "session"
    STOPPED = "stopped"


class FollowHub:
    """The follower of one log and the snapshot every viewer is shown."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        """Follow ``path`` (it may not exist yet)."""
        self.path = path
        self.clock = clock
        self.tail = LogTail(path)
        self.follower = Follower()
        #: What one look at the log brought, in order: advice and notices.
        self._brought: list[Advice | FollowNotice] = []
        self.following = LogFollowing(self.follower, self._brought.append,
                                      self._brought.append)
        self.version = 0
        #: What the page shows of each module of :attr:`follower`'s latest advice, by
        #: the module's key: drawn once per advice (the advice it was drawn from kept).
        self.modules: dict[str, dict[str, Any]] = {}
        self._drawn: dict[int, tuple[Advice, dict[str, Any]]] = {}
        self.notices: list[dict[str, Any]] = []
        self.latest: str | None = None
        self.session = 0
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._readable = True
        self._lock = threading.Lock()

    # ------------------------------------------------------------ reading

    def step(self) -> bool:
        """Read what the log gained and apply it; whether the snapshot changed.

        The reading and the advice are worked out first (by the same
        :class:`~defuser.apps.follow.LogFollowing` as ``live --follow``); the snapshot then
        changes at once, under a lock, so a viewer never sees half a step.
        """
        self._brought.clear()
        self.following.take(self.tail.read())
        with self._lock:
            changed = False
            for item in self._brought:
                if isinstance(item, Advice):
                    self._apply(item)
                    changed = True
                else:
                    changed = self._told(item) or changed
            if changed:
                self._draw()
                self.version += 1
            return changed

    def _told(self, notice: FollowNotice) -> bool:
        """Apply a notice about the log itself; whether the snapshot changed."""
        if notice.kind is FollowNoticeKind.MISSING:
            if not self._readable:
                return False
            self._readable = False
            reason = "" if notice.missing is None else missing_words(notice.missing)
            self._notice(BoardNoticeKind.UNREADABLE,
                         f"The log {self.path} cannot be read: {reason}.")
            return True
        if notice.kind is FollowNoticeKind.BACK:
            self._readable = True
        elif notice.kind is FollowNoticeKind.RESTARTED:
            self._readable = True
            self.session = notice.session
            self._notice(BoardNoticeKind.RESTARTED,
                         f"The log was {notice.restart}: it is read again from its top.")
            return True
        elif notice.kind is FollowNoticeKind.SESSION:
            self.session = notice.session
            self._notice(BoardNoticeKind.SESSION, "A new game session started in the log.")
            return True
        return False

    def _apply(self, advice: Advice) -> None:
        """One change: the most recent one, and a notice when its advice stopped."""
        self.session = advice.session
        bomb = _bomb_number(advice)
        if not advice.reply.ok:
            self._notice(BoardNoticeKind.STOPPED, f"Bomb {bomb}, module #{advice.module_id}: "
                         f"the advice stopped: {advice.reply.error}")
        self.latest = f"{bomb}-{advice.module_id}"

    def _draw(self) -> None:
        """The modules the page shows: the follower's latest advice of each module of
        its game session (the most recently changed :data:`MAX_MODULES`), each drawn
        once."""
        latest = sorted(self.follower.latest.values(), key=lambda advice: advice.line)
        drawn: dict[int, tuple[Advice, dict[str, Any]]] = {}
        for advice in latest[-MAX_MODULES:]:
            before = self._drawn.get(advice.module_id)
            if before is not None and before[0] is advice:
                drawn[advice.module_id] = before
                continue
            key = f"{_bomb_number(advice)}-{advice.module_id}"
            data = advice_json(advice)
            data["view"] = module_view(advice.reply, None)
            data["key"] = key
            data["changed_at"] = self.clock()
            drawn[advice.module_id] = (advice, data)
        self._drawn = drawn
        self.modules = {data["key"]: data for _advice, data in drawn.values()}

    def _notice(self, kind: BoardNoticeKind, text: str) -> None:
        self.notices.append({"kind": kind.value, "text": text, "at": self.clock()})
        del self.notices[:-MAX_NOTICES]

    def snapshot(self) -> dict[str, Any]:
        """What every viewer is shown (the stream's and ``/api/follow``'s object)."""
        with self._lock:
            modules = sorted(self.modules.values(),
                             key=lambda m: ((m["bomb"] or {}).get("number", 0), m["module"]))
            return {
                "version": self.version,
                "log": str(self.path),
                "session": self.session,
                "latest": self.latest,
                "modules": modules,
                "notices": list(self.notices),
            }

    # ------------------------------------------------------------ serving

    def start(self) -> None:
        """Start following (in the running event loop), once."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop following."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            if await asyncio.to_thread(self.step):
                self._changed.set()
                self._changed = asyncio.Event()
            await asyncio.sleep(POLL)

    async def wait(self, seen: int, timeout: float) -> bool:
        """Wait until the version passes ``seen`` or ``timeout`` runs out; whether it did."""
        if self.version > seen:
            return True
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return self.version > seen
        return True


def _bomb_number(advice: Advice) -> int:
    """The number of the advice's bomb, 0 when the log has shown none."""
    return advice.bomb.number if advice.bomb is not None else 0
