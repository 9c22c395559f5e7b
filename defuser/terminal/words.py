"""How the terminal front end words a library error.

Contract: libraries never name options; their errors carry what a front end needs (that
a serial number only fails the vanilla shape, that a table file lacks the export's
shape, that a stats database was left untouched, which timing limit of the prop's link
was reached, which ports could be the prop, how many worker processes would not start),
and :func:`error_words` adds the option to give. Nothing here prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from edgework import InvalidSerialError, InvalidTableError
from edgework.errors import FaultError

if TYPE_CHECKING:
    from hardware.errors import HardwareError, Setting

#: How the command line tells a player to read a serial number leniently.
LENIENT_SERIAL_HINT = "(use --lenient-serial for modded bombs)"


def setting_hint(setting: Setting | None) -> str:
    """Words naming the ``mittens prop`` option that changes a timing limit, or nothing."""
    from hardware.errors import Setting  # hardware only when the prop is in use

    hints = {
        Setting.RECONNECT_TIMEOUT: " (to stop waiting after a while, give "
        "--reconnect-timeout SECONDS)",
        Setting.HANDSHAKE_TIMEOUT: " (a prop that is slow to start needs a longer "
        "--handshake-timeout)",
        Setting.REPLY_TIMEOUT: " (a slow prop works better with a longer --timeout)",
    }
    return "" if setting is None else hints[setting]


def _hardware_words(exc: HardwareError) -> str:
    """A fault of the prop or its link, with the option that helps."""
    from hardware.errors import PortNotFoundError

    if isinstance(exc, PortNotFoundError):
        if exc.candidates:
            return f"{exc}: choose one with --port"
        return f"{exc}: plug the prop in, or give --port (see mittens prop --list)"
    return f"{exc}{setting_hint(exc.setting)}"


def _fault_words(exc: FaultError) -> str:
    """A fault outside the program, with the option that helps."""
    from hardware.errors import HardwareError

    if isinstance(exc, HardwareError):
        return _hardware_words(exc)
    from defuser.apps.benchmark import WorkerStartError  # loaded already if it was raised

    if isinstance(exc, WorkerStartError):
        return f"{exc}; ask for fewer with --jobs (or --jobs 1 for none)"
    return str(exc)


def error_words(exc: BaseException) -> str:
    """A library error as the command line words it: its message, and the option that
    helps when the error says one would."""
    from defuser.trainer.store import StatsDatabaseError  # sqlite3 only when an error shows

    text = str(exc)
    if isinstance(exc, FaultError):
        return _fault_words(exc)
    if isinstance(exc, InvalidSerialError) and exc.vanilla_only:
        return f"{text} {LENIENT_SERIAL_HINT}"
    if isinstance(exc, InvalidTableError) and exc.export_format is not None:
        return exc.naming(f"'mittens tables --format {exc.export_format}'")
    if isinstance(exc, StatsDatabaseError) and exc.untouched:
        return f"{text} (move it away or give --db PATH)"
    return text
