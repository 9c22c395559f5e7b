"""A small on-disk JSON cache, safe to share and to lose.

Contract: a read never fails (a missing, unreadable, oversized, truncated, too deeply
nested or otherwise corrupt file is a miss, returned as ``None``; no ``RecursionError``
or ``OverflowError`` escapes), and a write never leaves a partial file where a reader
can see it: each writer writes its own temporary file in the cache directory and
renames it over the target with :func:`os.replace`, which is atomic, so concurrent
writers of the same entry simply race to put a complete file in place. A write that
cannot happen (read-only home, full disk) is skipped; the cache only saves time.

:class:`DiskCache` is one such directory, passed to whatever needs a cache (tests and
the live benchmark give each run its own). :func:`default_directory` is the
folder :func:`defuser.paths.cache_dir` chooses (``$XDG_CACHE_HOME/exploding-mittens``
when set, the old ``~/.cache/exploding-mittens`` when it exists, else the system's own
cache folder); when none can be determined (no ``HOME`` and a user unknown to the
system) there is no default directory and the cache is skipped.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from pathlib import Path

#: Entries larger than this are not read (ours are about 20 KB).
MAX_ENTRY_BYTES: Final = 1 << 20


def default_directory() -> Path | None:
    """The user's cache directory for the project (not created here), or ``None``."""
    from defuser import paths  # pathlib only once a cache folder is wanted

    return paths.cache_dir()


def cache_dir() -> Path | None:
    """The project's default cache directory (see :func:`default_directory`)."""
    return default_directory()


class DiskCache:
    """JSON entries in one directory; ``None`` for a cache that stores nothing."""

    def __init__(self, directory: Path | str | None) -> None:
        self._directory: Path | None = None
        if directory is not None:
            from pathlib import Path  # a store without a cache folder does without

            self._directory = Path(directory)

    @property
    def directory(self) -> Path | None:
        """The directory, or ``None`` when nothing is stored."""
        return self._directory

    def __repr__(self) -> str:
        return f"DiskCache({self.directory!s})"

    def read_json(self, name: str) -> Any | None:
        """The JSON stored under ``name``, or ``None`` when there is no usable entry."""
        if self.directory is None:
            return None
        try:
            with open(self.directory / name, "rb") as f:
                raw = f.read(MAX_ENTRY_BYTES + 1)
            if len(raw) > MAX_ENTRY_BYTES:
                return None
            return json.loads(raw.decode("utf-8"))
        except (OSError, ValueError, RecursionError, OverflowError):
            return None

    def write_json(self, name: str, obj: Any) -> bool:
        """Store ``obj`` under ``name`` atomically; return whether it was written."""
        folder = self.directory
        if folder is None:
            return False
        tmp: str | None = None
        try:
            folder.mkdir(parents=True, exist_ok=True)
            import tempfile  # only when writing: a lookup should not pay its import

            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(obj, f, separators=(",", ":"), allow_nan=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, folder / name)
            tmp = None
            return True
        except (OSError, ValueError, RecursionError, OverflowError):
            return False
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


class _UserCache(DiskCache):
    """The cache in :func:`default_directory`, looked up again at every use."""

    def __init__(self) -> None:
        super().__init__(None)

    @property
    def directory(self) -> Path | None:
        """:func:`default_directory`, as the environment says now."""
        return default_directory()


def default_cache() -> DiskCache:
    """The user's cache (:func:`default_directory`, read from the environment at each use)."""
    return _UserCache()

