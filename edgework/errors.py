"""Exceptions raised for bad input to the edgework model.

Every message quotes the bad input and says what was expected, in one line, so that a
command-line front end can print it as it is.
"""

from __future__ import annotations


class EdgeworkError(ValueError):
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
    names that format (``"json"`` or ``"csv"``) and ``head``/``tail`` are the message
    around it, so a front end can say how to write such a file in its own terms.
    """

    def __init__(self, message: str, *, export_format: str | None = None,
                 tail: str = "") -> None:
        """``message`` alone, or (with ``export_format``) the head before the export's name."""
        self.head = message
        self.export_format = export_format
        self.tail = tail
        if export_format is not None:
            message = f"{message} the tables export writes in {export_format.upper()}{tail}"
        super().__init__(message)
