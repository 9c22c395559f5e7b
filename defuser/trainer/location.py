"""Where the stats database lives when the learner does not name one.

Contract: :func:`default_db_path` is ``$XDG_DATA_HOME/exploding-mittens/stats.sqlite3``,
or ``~/.local/share/exploding-mittens/stats.sqlite3`` when ``XDG_DATA_HOME`` is unset or
not absolute; it only computes the path (nothing is created here) and raises
:class:`~defuser.trainer.store.StatsDatabaseError` when there is no home to put it in.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from defuser.trainer.store import StatsDatabaseError

DB_FILENAME: Final = "stats.sqlite3"
APP_DIR: Final = "exploding-mittens"


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/exploding-mittens/stats.sqlite3``, or under ``~/.local/share``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    if base and Path(base).is_absolute():
        return Path(base) / APP_DIR / DB_FILENAME
    try:
        home = Path.home()
    except (RuntimeError, KeyError, OSError):
        raise StatsDatabaseError(
            "the stats database has no default place: the home directory is unknown "
            "(HOME is unset and this user has no password entry); set HOME or "
            "XDG_DATA_HOME, or name a database file"
        ) from None
    return home / ".local" / "share" / APP_DIR / DB_FILENAME
