"""New complete lines of a file that another program is appending to, as ``tail -F`` reads.

Contract: :class:`LogTail` returns each complete line once, keeps a line still being
written until its end arrives, waits for a file that does not exist yet, and starts
again from the top when the file is truncated, replaced (rotated) or rewritten; a
rotated file's last lines are read first from its new name in the same folder. Each
look is a :class:`TailRead`; why a file cannot be read is a typed :class:`Missing` (the
front ends word it). Where the tail is in its file is JSON
(:meth:`LogTail.state`) and :meth:`LogTail.from_state` rebuilds it; a state it cannot
read is a :class:`~defuser.apps.follow.saved.SavedFollowError`. Control characters
from the file never reach a caller.
"""

from __future__ import annotations

import base64
import contextlib
import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any, Final

from defuser.apps.follow.saved import SavedFollowError
from defuser.logs.reader import MAX_LINE_CHARS
from defuser.streams import os_reason, printable

#: The version of the shape of :meth:`LogTail.state`, which :meth:`LogTail.from_state`
#: reads.
TAIL_STATE_VERSION: Final = 1
#: How many bytes before the read position are compared to notice a rewritten file.
_FINGERPRINT: Final = 64
#: The most bytes taken from the file in one read (the rest waits for the next call).
_MAX_READ: Final = 16 << 20
#: The most folder entries looked at to find where a rotated log was moved.
_MAX_SCAN: Final = 10_000


class Restart(enum.StrEnum):
    """Why a followed file is read again from its top."""

    TRUNCATED = "truncated"
    REPLACED = "replaced"
    REWRITTEN = "rewritten"


class Unreadable(enum.StrEnum):
    """Why a followed file cannot be read."""

    NO_FOLDER = "no folder"
    NOT_THERE = "not there"
    NOT_A_FILE = "not a file"
    DENIED = "denied"


@dataclass(frozen=True, slots=True)
class Missing:
    """Why nothing could be read: the :class:`Unreadable` kind, the folder that is not
    there (``NO_FOLDER``), or the system's reason (``DENIED``)."""

    why: Unreadable
    folder: Path | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TailRead:
    """What one look at the followed file found."""

    #: New complete lines, in order (from the top of the file when it started over).
    lines: list[str] = field(default_factory=list)
    #: Why the file started over before ``lines``, or ``None`` when it did not.
    restarted: Restart | None = None
    #: The last lines of the file the path named before it was replaced, read from its
    #: new name in the same folder (a rotated log): they come before the restart.
    drained: list[str] = field(default_factory=list)
    #: Why nothing could be read (the folder or the file is not there, it is not a
    #: file, it cannot be opened), or ``None``.
    missing: Missing | None = None


class LogTail:
    """New complete lines of a file that another program is appending to.

    Like ``tail -F``: a line still being written is kept until its end arrives; a file
    truncated or rewritten in place is read again from its top; a file replaced by a new
    one (rotated) is drained first, its last lines read from the name it was moved to in
    the same folder, and then the new file is read from its top. The file is opened only
    for each look, never held open, so the game can always move or delete it.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._identity: tuple[int, int] | None = None
        self._offset = 0
        self._partial = b""
        self._tail = b""

    def state(self) -> dict[str, Any]:
        """Where the tail is in its file, as JSON: the file's identity, the read
        position, the line still being written and the bytes before the position that
        tell a rewritten file (both in base64). :meth:`from_state` rebuilds it."""
        return {
            "version": TAIL_STATE_VERSION,
            "path": str(self.path),
            "identity": None if self._identity is None else list(self._identity),
            "offset": self._offset,
            "partial": base64.b64encode(self._partial).decode("ascii"),
            "tail": base64.b64encode(self._tail).decode("ascii"),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> LogTail:
        """The tail :meth:`state` describes: its next :meth:`read` goes on from the
        saved position (a file replaced, truncated or rewritten since is noticed as
        it would have been). Raises :class:`SavedFollowError` for a state of another
        version or shape."""
        if not isinstance(state, dict) or state.get("version") != TAIL_STATE_VERSION:
            raise SavedFollowError(f"log tail state is not version {TAIL_STATE_VERSION} of "
                                   "a log tail's state")
        try:
            tail = cls(str(state["path"]))
            identity = state["identity"]
            if identity is not None:
                dev, ino = identity
                tail._identity = (int(dev), int(ino))
            tail._offset = int(state["offset"])
            tail._partial = base64.b64decode(state["partial"], validate=True)
            tail._tail = base64.b64decode(state["tail"], validate=True)
        except (KeyError, TypeError, ValueError) as exc:
            raise SavedFollowError(
                f"log tail state is incomplete or malformed ({exc!r})") from exc
        if tail._offset < len(tail._tail) or len(tail._tail) > _FINGERPRINT or (
            len(tail._partial) > MAX_LINE_CHARS
        ):
            raise SavedFollowError(f"log tail state at offset {tail._offset} holds more "
                                   "bytes before it or after it than a tail keeps")
        return tail

    def _restart(self) -> None:
        self._offset, self._partial, self._tail = 0, b"", b""

    def _lines(self, data: bytes, *, final: bool = False) -> list[str]:
        """``data``'s complete lines (``final``: the last piece too, as nothing follows)."""
        self._offset += len(data)
        self._tail = (self._tail + data)[-_FINGERPRINT:]
        chunks = (self._partial + data).split(b"\n")
        self._partial = b"" if final else chunks.pop()[:MAX_LINE_CHARS]  # never ending: cut
        if final and chunks and not chunks[-1]:
            chunks.pop()
        # Control characters from the file never reach the terminal.
        return [
            printable(c[:MAX_LINE_CHARS].rstrip(b"\r").decode("utf-8", errors="replace"))
            for c in chunks
        ]

    def _missing(self, exc: OSError | None = None) -> TailRead:
        if exc is not None and not isinstance(exc, FileNotFoundError):
            return TailRead(missing=Missing(Unreadable.DENIED, reason=os_reason(exc)))
        if not self.path.parent.is_dir():
            return TailRead(missing=Missing(Unreadable.NO_FOLDER, folder=self.path.parent))
        return TailRead(missing=Missing(Unreadable.NOT_THERE))

    def _drain(self) -> list[str]:
        """The rest of the file this tail was reading, found by its identity under
        another name in the same folder (a rotated log); its last line too."""
        identity, rest, found = self._identity, b"", False
        with contextlib.suppress(OSError):
            for count, entry in enumerate(os.scandir(self.path.parent)):
                if count >= _MAX_SCAN:
                    break
                with contextlib.suppress(OSError):
                    if _identity_of(os.stat(entry.path)) != identity:
                        continue
                    with open(entry.path, "rb") as old:
                        old.seek(self._offset - len(self._tail))
                        found = old.read(len(self._tail)) == self._tail
                        rest = old.read(_MAX_READ) if found else b""
                    break
        # Found, the file ended where it was left: its last line is complete. Deleted,
        # what was left of it is lost with it.
        return self._lines(rest, final=True) if found else []

    def read(self) -> TailRead:
        """What the file gained since the last call (see :class:`TailRead`). A missing
        or unreadable file gives no lines; it is tried again next time."""
        try:
            # Never blocks: a named pipe in the log's place is refused, not waited on.
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError as exc:
            return self._missing(exc)
        try:
            stat = os.fstat(fd)
        except OSError as exc:
            os.close(fd)
            return self._missing(exc)
        if not S_ISREG(stat.st_mode):
            os.close(fd)
            return TailRead(missing=Missing(Unreadable.NOT_A_FILE))
        with os.fdopen(fd, "rb") as handle:
            identity = _identity_of(stat)
            drained: list[str] = []
            restarted: Restart | None = None
            if self._identity is not None and identity != self._identity:
                drained, restarted = self._drain(), Restart.REPLACED
            elif stat.st_size < self._offset:
                restarted = Restart.TRUNCATED
            elif self._tail:
                handle.seek(self._offset - len(self._tail))
                if handle.read(len(self._tail)) != self._tail:
                    restarted = Restart.REWRITTEN
            if restarted:
                self._restart()
            self._identity = identity
            handle.seek(self._offset)
            # Bounded reads: a huge file is taken a piece at a time.
            data = handle.read(_MAX_READ)
        return TailRead(self._lines(data), restarted, drained)


def _identity_of(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino
