"""Where the stats database lives when the learner does not name one.

Contract: :func:`default_db_path` is ``stats.sqlite3`` in the data folder
:func:`defuser.paths.data_dir` chooses (``$XDG_DATA_HOME/exploding-mittens`` when set; the
old ``~/.local/share/exploding-mittens`` when the database is already there; else the
system's own place: ``%LOCALAPPDATA%`` on Windows, ``~/Library/Application Support`` on
macOS, ``~/.local/share`` elsewhere). It only computes the path (nothing is created here)
and raises :class:`~defuser.trainer.store.StatsDatabaseError` when there is no place to
put it.
"""

from __future__ import annotations

from pathlib import Path

from defuser.paths import DB_FILENAME, data_dir
from defuser.trainer.store import StatsDatabaseError


def default_db_path(system: str | None = None) -> Path:
    """The stats database's default path on ``system`` (``sys.platform`` when ``None``)."""
    folder = data_dir(system)
    if folder is None:
        raise StatsDatabaseError(
            "the stats database has no default place: the home directory is unknown "
            "(HOME is unset and this user has no password entry); set HOME or "
            "XDG_DATA_HOME, or name a database file"
        )
    return folder / DB_FILENAME
