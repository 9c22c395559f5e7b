"""Where the toolkit keeps its own files on this system: the data folder (the stats
database) and the cache folder (solutions, the `live` prompt's history).

Contract: nothing is created here; the functions only choose a folder, in this order:

1. ``$XDG_DATA_HOME/exploding-mittens`` (``$XDG_CACHE_HOME/exploding-mittens`` for the
   cache) when the variable is set, on every system, as before (the data folder wants an
   absolute path, a relative one is ignored);
2. the folder earlier versions used on every system, ``~/.local/share/exploding-mittens``
   (``~/.cache/exploding-mittens``), when it already holds the stats database (is a folder,
   for the cache), so nobody's history is left behind;
3. the system's own place, from platformdirs: on Windows ``%LOCALAPPDATA%\\exploding-mittens``
   (the cache in its ``Cache`` subfolder), on macOS ``~/Library/Application Support/
   exploding-mittens`` and ``~/Library/Caches/exploding-mittens``, elsewhere the XDG
   defaults ``~/.local/share/exploding-mittens`` and ``~/.cache/exploding-mittens``.

``None`` means there is no place: the home directory is unknown (``HOME`` unset and the
user has no password entry) or the system's folder cannot be found. The callers decide what
that means (the cache is skipped, the stats database asks to be named).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path, PureWindowsPath
from typing import Final

APP_NAME: Final = "exploding-mittens"
#: The stats database's file name inside the data folder.
DB_FILENAME: Final = "stats.sqlite3"


def _home() -> Path | None:
    try:
        home = Path.home()
    except (RuntimeError, KeyError, OSError):
        return None
    return home if home.is_absolute() else None


def _system_dir(kind: str, system: str) -> Path | None:
    """platformdirs' user data or cache folder for ``system`` (a ``sys.platform`` value)."""
    from platformdirs.api import PlatformDirsABC

    dirs: PlatformDirsABC
    if system == "win32":
        from platformdirs.windows import Windows

        dirs = Windows(APP_NAME, appauthor=False, roaming=False)
    elif system == "darwin":
        from platformdirs.macos import MacOS

        dirs = MacOS(APP_NAME)
    else:
        from platformdirs.unix import Unix

        dirs = Unix(APP_NAME)
    try:
        found = dirs.user_data_dir if kind == "data" else dirs.user_cache_dir
    except (RuntimeError, KeyError, OSError, ValueError):
        return None
    absolute = PureWindowsPath(found) if system == "win32" else Path(found)
    return Path(found) if absolute.is_absolute() else None


def data_dir(system: str | None = None) -> Path | None:
    """The folder for the stats database (see the module's contract for the order)."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    if base and Path(base).is_absolute():
        return Path(base) / APP_NAME
    home = _home()
    if home is None:
        return None
    legacy = home / ".local" / "share" / APP_NAME
    if (legacy / DB_FILENAME).exists():
        return legacy
    return _system_dir("data", sys.platform if system is None else system)


def cache_dir(system: str | None = None) -> Path | None:
    """The folder for the cache (see the module's contract for the order)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if base:
        return Path(base) / APP_NAME
    home = _home()
    if home is None:
        return None
    legacy = home / ".cache" / APP_NAME
    if legacy.is_dir():
        return legacy
    return _system_dir("cache", sys.platform if system is None else system)
