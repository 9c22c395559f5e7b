"""The project's one exception root, and the errors of the edgework model.

Every error the toolkit raises on purpose is a :class:`MittensError`, and its branch says
whose fault it is, so that a front end knows what to do with it without reading words:

* :class:`InputError`: bad input from a person or a file they gave (a card, a serial
  number, a log line, a table file). A front end shows it as one line; the command line
  exits 2.
* :class:`MisuseError`: a caller broke a documented precondition (a click after the game
  ended, an unknown policy name the caller should have checked). A programming error,
  never bad input: front ends let it through as the bug it is.
* :class:`FaultError`: something outside the program failed (the prop, its link, a
  worker process), neither the input nor the caller.

Each layer has its own subclasses (:class:`EdgeworkError` here,
:class:`defuser.errors.DefuserError`, :class:`hardware.errors.HardwareError`). Errors
carry data, not advice: every message quotes the bad input and says what was expected,
in one line, and what a front end may add (an option to give) is an attribute.
"""

from __future__ import annotations


class MittensError(Exception):
    """The root of every error the toolkit raises on purpose."""


class InputError(MittensError, ValueError):
    """Bad input: a front end shows the message as one line (the command line: exit 2)."""


class MisuseError(MittensError, ValueError):
    """A caller broke a documented precondition: a programming error, not bad input."""


class FaultError(MittensError):
    """Something outside the program failed: a device, a link, a worker process."""


class EdgeworkError(InputError):
    """Base class for every input error raised by :mod:`edgework`."""


class InvalidCardError(EdgeworkError):
    """A card face could not be parsed."""


class InvalidSerialError(EdgeworkError):
    """A serial number is malformed.

    ``vanilla_only`` is true when only the vanilla shape refused it: the same text read
    leniently (as a modded bomb's serial) is a serial number. A front end can say how to
    ask for the lenient reading.
    """

    def __init__(self, message: str, *, vanilla_only: bool = False) -> None:
        super().__init__(message)
        self.vanilla_only = vanilla_only


class InvalidBatteriesError(EdgeworkError):
    """A battery count or holder description is out of range or malformed."""


class InvalidEdgeworkError(EdgeworkError):
    """A Twitch Plays edgework string, indicator or port plate is malformed."""


class InvalidTableError(EdgeworkError):
    """A table transcription (JSON or CSV) could not be read.

    When the input lacks the shape of the toolkit's own table export, ``export_format``
    names that format (``"json"`` or ``"csv"``): the message then says the input is not
    like what the export writes, and :meth:`naming` gives the same sentence with the
    export named the way a front end names it (the command that writes it).
    """

    def __init__(self, message: str, *, export_format: str | None = None,
                 detail: str = "") -> None:
        """``message`` alone, or (with ``export_format``) the words before the export is
        named; ``detail`` (the reader's reason, in brackets) ends the sentence."""
        self.export_format = export_format
        self._before = message
        self._after = detail
        if export_format is not None:
            message = f"{message} the tables export writes in {export_format.upper()}{detail}"
        super().__init__(message)

    def naming(self, writer: str) -> str:
        """The message with ``writer`` (e.g. the command that writes the export) as what
        writes the expected shape; the plain message when no export is meant."""
        if self.export_format is None:
            return str(self)
        return f"{self._before} {writer} writes{self._after}"
