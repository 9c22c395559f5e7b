"""Ctrl-C while ``mittens`` is still loading: held until the run can end on it.

Contract: :func:`hold_interrupts`, called first by the ``mittens`` entry point
(:mod:`defuser.__main__`), makes a Ctrl-C pressed while the modules are still importing
wait, rather than break out of an import with a traceback. :func:`release_interrupts`,
called inside the application's error boundary once the run has started, puts the handler
Python's own back and raises the held Ctrl-C as ``KeyboardInterrupt`` right there, so
it ends the run the one documented way (:meth:`~defuser.terminal.app.Application.interrupted`).
Nothing here catches Ctrl-C or ends a run. Without a hold (the command line called
in-process, or from a thread other than the main one) both functions do nothing, and a
process that started with Ctrl-C ignored keeps ignoring it.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

#: One entry while a hold is in place (it replaced Python's own handler).
_holding: list[bool] = []
#: One entry per Ctrl-C that came during the hold.
_held: list[int] = []


def _hold(signum: int, frame: FrameType | None) -> None:
    """Note a Ctrl-C for :func:`release_interrupts` to raise."""
    _held.append(signum)


def hold_interrupts() -> None:
    """Hold Ctrl-C from now until :func:`release_interrupts`; a second call, or a call
    where Python's own Ctrl-C handler is not in place, does nothing."""
    if threading.current_thread() is not threading.main_thread() or _holding:
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    _holding.append(True)
    signal.signal(signal.SIGINT, _hold)


def release_interrupts() -> None:
    """End the hold: Python's own handler is back, and a Ctrl-C that came during the
    hold is raised now as ``KeyboardInterrupt`` (once, however many came)."""
    if not _holding or threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    _holding.clear()
    if _held:
        _held.clear()
        raise KeyboardInterrupt
