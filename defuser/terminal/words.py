"""How the terminal front end words a library error.

Contract: libraries never name options; their errors carry what a front end needs (that
a serial number only fails the vanilla shape, that a table file lacks the export's
shape, that a stats database was left untouched), and :func:`error_words` adds the
option to give. Nothing here prints.
"""

from __future__ import annotations

from edgework import InvalidSerialError, InvalidTableError

#: How the command line tells a player to read a serial number leniently.
LENIENT_SERIAL_HINT = "(use --lenient-serial for modded bombs)"


def error_words(exc: BaseException) -> str:
    """A library error as the command line words it: its message, and the option that
    helps when the error says one would."""
    from defuser.trainer.store import StatsDatabaseError  # sqlite3 only when an error shows

    text = str(exc)
    if isinstance(exc, InvalidSerialError) and exc.vanilla_only:
        return f"{text} {LENIENT_SERIAL_HINT}"
    if isinstance(exc, InvalidTableError) and exc.export_format is not None:
        return exc.naming(f"'mittens tables --format {exc.export_format}'")
    if isinstance(exc, StatsDatabaseError) and exc.untouched:
        return f"{text} (move it away or give --db PATH)"
    return text
