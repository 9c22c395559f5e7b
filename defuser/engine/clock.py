"""The one clock formatter: a bomb timer or an elapsed time as text. Pure.

Every clock the toolkit prints goes through :func:`time_text`, in one of two styles:

* ``m:ss`` (the default): whole minutes and seconds, ``4:59``, ``0:07``, ``12:00``;
* the game's own bomb timer (``game=True``): ``04:59`` from a minute up, and seconds
  with hundredths below, ``59.43``. ``under_minute=False`` keeps ``00:59`` below a
  minute (the simulated prop's one-line picture).

Times are whole milliseconds; the text rounds them down.
"""

from __future__ import annotations


def time_text(ms: int, *, game: bool = False, under_minute: bool = True) -> str:
    """``ms`` as ``m:ss``, or as the game's bomb timer (``game``: ``04:59`` / ``59.43``)."""
    seconds = ms // 1000
    if not game:
        return f"{seconds // 60}:{seconds % 60:02d}"
    if ms >= 60_000 or not under_minute:
        return f"{seconds // 60:02d}:{seconds % 60:02d}"
    return f"{seconds:02d}.{ms % 1000 // 10:02d}"

