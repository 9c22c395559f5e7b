"""A small on-disk JSON cache in the user's cache directory, safe to share and to lose.

Contract: a read never fails (a missing, unreadable, truncated or corrupt file is a
miss, returned as ``None``), and a write never leaves a partial file where a reader
can see it: each writer writes its own temporary file in the cache directory and
renames it over the target with :func:`os.replace`, which is atomic, so concurrent
writers of the same entry simply race to put a complete file in place. A write that
cannot happen (read-only home, full disk) is skipped; the cache only saves time.

The directory is ``$XDG_CACHE_HOME/exploding-mittens`` (``~/.cache/exploding-mittens``
when ``XDG_CACHE_HOME`` is unset or empty).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Final

APP_DIR: Final = "exploding-mittens"


def cache_dir() -> Path:
    """The project's cache directory (not created here)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if base else Path.home() / ".cache"
    return root / APP_DIR


def read_json(name: str) -> Any | None:
    """The JSON stored under ``name``, or ``None`` when there is no usable entry."""
    try:
        with open(cache_dir() / name, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json(name: str, obj: Any) -> bool:
    """Store ``obj`` under ``name`` atomically; return whether it was written."""
    folder = cache_dir()
    tmp: str | None = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(obj, f, separators=(",", ":"), allow_nan=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, folder / name)
        tmp = None
        return True
    except (OSError, ValueError):
        return False
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
