"""The prop protocol's messages (docs/protocol.md, version 1). Pure; no I/O.

Each message is a frozen dataclass with an ``encode`` method giving the line body (the
framing layer adds the checksum and terminator) and a decoder that reads it back:

* host commands (:data:`Command`) carry no tag; the tag is given when encoding, because
  it belongs to one attempt at sending, not to what is said. :func:`decode_command`
  returns ``(tag, command)`` and raises :class:`~hardware.errors.CommandRejected` with
  the ``ERR`` code a prop must answer (used by the simulated prop);
* prop replies (:data:`Reply`) and events (:data:`Event`) are read by
  :func:`decode_device`, which raises :class:`~hardware.errors.DeviceProtocolError`
  when the prop sent something that is no message.

The first token tells the three kinds apart (:func:`kind_of`). Decoding is strict:
exact tokens, one space between them, decimal numbers without leading zeros.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from edgework import Card
from hardware.errors import CommandRejected, DeviceProtocolError, HostProtocolError

#: The protocol version this module speaks.
PROTOCOL_VERSION: Final = 1
#: Tags run 0..MAX_TAG.
MAX_TAG: Final = 999
#: Sessions run 1..MAX_SESSION (0 in ``PONG`` means none).
MAX_SESSION: Final = 65535
#: Event numbers are 16-bit and wrap around.
SEQ_MODULUS: Final = 65536
#: Strikes and batteries are shown as 0..MAX_COUNT.
MAX_COUNT: Final = 99
#: Longest firmware name in ``HI``.
MAX_FIRMWARE: Final = 20
#: How many events a prop must keep for ``RESEND``.
MIN_EVENT_STORE: Final = 8

EMPTY: Final = "--"
NO_SERIAL: Final = "------"

_NUMBER = re.compile(r"0|[1-9][0-9]*")
_SERIAL = re.compile(r"[A-Z0-9]{6}")
_FIRMWARE = re.compile(rf"[A-Za-z0-9._-]{{1,{MAX_FIRMWARE}}}")
_CARD_CODES: Final[dict[str, Card]] = {card.code: card for card in Card}


class MessageKind(enum.Enum):
    """Who sends a message and why."""

    COMMAND = "command"
    REPLY = "reply"
    EVENT = "event"


class Button(enum.Enum):
    """The prop's five buttons, by their protocol names."""

    DECK = "DECK"
    PILE = "PILE"
    HAND1 = "HAND1"
    HAND2 = "HAND2"
    HAND3 = "HAND3"

    @property
    def slot(self) -> int | None:
        """The hand slot 1..3 this button stands for, or None for deck and pile."""
        return {"HAND1": 1, "HAND2": 2, "HAND3": 3}.get(self.value)

    def __str__(self) -> str:
        return self.value


class ErrorCode(enum.Enum):
    """Why a prop refused a command (``ERR <tag> <code>``)."""

    UNKNOWN = "UNKNOWN"
    ARGS = "ARGS"
    VERSION = "VERSION"
    NOSESSION = "NOSESSION"


# --- value helpers -------------------------------------------------------------------


def _number(token: str, low: int, high: int) -> int | None:
    if not _NUMBER.fullmatch(token):
        return None
    value = int(token)
    return value if low <= value <= high else None


def _check_range(what: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise HostProtocolError(f"{what} {value} is out of range, expected {low} to {high}")


def _slot_text(card: Card | None) -> str:
    return EMPTY if card is None else card.code


def _card_token(token: str) -> tuple[bool, Card | None]:
    """``(True, card)``, ``(True, None)`` for ``--``, or ``(False, None)`` if neither.

    A pair rather than a sentinel because ``Card.RED_CIRCLE`` is 0 and so falsy.
    """
    if token == EMPTY:
        return True, None
    card = _CARD_CODES.get(token)
    return card is not None, card


def is_newer(seq: int, last: int) -> bool:
    """True when event number ``seq`` comes after ``last`` (16-bit wrap-around)."""
    return 1 <= (seq - last) % SEQ_MODULUS <= SEQ_MODULUS // 2 - 1


def next_seq(seq: int) -> int:
    """The event number after ``seq``."""
    return (seq + 1) % SEQ_MODULUS


# --- host commands -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Start a session: ``HELLO <tag> <version> <session>``."""

    version: int
    session: int

    WORD = "HELLO"

    def __post_init__(self) -> None:
        _check_range("protocol version", self.version, 1, MAX_SESSION)
        _check_range("session", self.session, 1, MAX_SESSION)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.version), str(self.session)]

    @classmethod
    def parse(cls, args: list[str]) -> Hello | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        version = _number(args[0], 1, MAX_SESSION)
        session = _number(args[1], 1, MAX_SESSION)
        if version is None or session is None:
            return None
        return cls(version, session)


@dataclass(frozen=True, slots=True)
class Ping:
    """Heartbeat: ``PING <tag>``."""

    WORD = "PING"

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return []

    @classmethod
    def parse(cls, args: list[str]) -> Ping | None:
        """Read the tokens after the tag, or None when they are wrong."""
        return cls() if not args else None


@dataclass(frozen=True, slots=True)
class Resend:
    """Ask for the stored events from ``seq`` on: ``RESEND <tag> <seq>``."""

    seq: int

    WORD = "RESEND"

    def __post_init__(self) -> None:
        _check_range("event number", self.seq, 0, SEQ_MODULUS - 1)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.seq)]

    @classmethod
    def parse(cls, args: list[str]) -> Resend | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1:
            return None
        seq = _number(args[0], 0, SEQ_MODULUS - 1)
        return None if seq is None else cls(seq)


@dataclass(frozen=True, slots=True)
class Ack:
    """The host applied event ``seq``: ``ACK <tag> <seq>``."""

    seq: int

    WORD = "ACK"

    def __post_init__(self) -> None:
        _check_range("event number", self.seq, 0, SEQ_MODULUS - 1)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.seq)]

    @classmethod
    def parse(cls, args: list[str]) -> Ack | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1:
            return None
        seq = _number(args[0], 0, SEQ_MODULUS - 1)
        return None if seq is None else cls(seq)


@dataclass(frozen=True, slots=True)
class ShowSerial:
    """Show the serial number: ``SERIAL <tag> <serial>`` (None: ``------``)."""

    serial: str | None

    WORD = "SERIAL"

    def __post_init__(self) -> None:
        if self.serial is not None and not _SERIAL.fullmatch(self.serial):
            raise HostProtocolError(
                f"serial {self.serial!r} cannot be shown, expected 6 characters A-Z 0-9"
            )

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [NO_SERIAL if self.serial is None else self.serial]

    @classmethod
    def parse(cls, args: list[str]) -> ShowSerial | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1:
            return None
        if args[0] == NO_SERIAL:
            return cls(None)
        return cls(args[0]) if _SERIAL.fullmatch(args[0]) else None


@dataclass(frozen=True, slots=True)
class ShowBatteries:
    """Show the batteries: ``BATT <tag> <count> <holders>`` (holders None: ``-``)."""

    count: int
    holders: int | None

    WORD = "BATT"

    def __post_init__(self) -> None:
        _check_range("battery count", self.count, 0, MAX_COUNT)
        if self.holders is not None:
            _check_range("battery holder count", self.holders, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.count), "-" if self.holders is None else str(self.holders)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowBatteries | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        count = _number(args[0], 0, MAX_COUNT)
        if count is None:
            return None
        if args[1] == "-":
            return cls(count, None)
        holders = _number(args[1], 0, MAX_COUNT)
        return None if holders is None else cls(count, holders)


@dataclass(frozen=True, slots=True)
class ShowTop:
    """Show the discard top: ``TOP <tag> <card>`` (None: ``--``)."""

    card: Card | None

    WORD = "TOP"

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [_slot_text(self.card)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowTop | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1:
            return None
        ok, card = _card_token(args[0])
        return cls(card) if ok else None


@dataclass(frozen=True, slots=True)
class ShowHand:
    """Show hand slots 1-3: ``HAND <tag> <card> <card> <card>`` (None: ``--``)."""

    slots: tuple[Card | None, Card | None, Card | None]

    WORD = "HAND"

    @classmethod
    def of(cls, hand: tuple[Card, ...] | list[Card]) -> ShowHand:
        """The hand command for up to three cards, packed left."""
        if len(hand) > 3:
            raise HostProtocolError(f"hand {list(map(str, hand))} has more than 3 cards")
        padded = [*hand, None, None, None]
        return cls((padded[0], padded[1], padded[2]))

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [_slot_text(card) for card in self.slots]

    @classmethod
    def parse(cls, args: list[str]) -> ShowHand | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 3:
            return None
        (ok1, one), (ok2, two), (ok3, three) = (_card_token(token) for token in args)
        return cls((one, two, three)) if ok1 and ok2 and ok3 else None


@dataclass(frozen=True, slots=True)
class ShowStrikes:
    """Show the strike count: ``STRIKES <tag> <n>``."""

    count: int

    WORD = "STRIKES"

    def __post_init__(self) -> None:
        _check_range("strike count", self.count, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.count)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowStrikes | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1:
            return None
        count = _number(args[0], 0, MAX_COUNT)
        return None if count is None else cls(count)


@dataclass(frozen=True, slots=True)
class ShowSolved:
    """Show whether the module is solved: ``SOLVED <tag> 0|1``."""

    solved: bool

    WORD = "SOLVED"

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return ["1" if self.solved else "0"]

    @classmethod
    def parse(cls, args: list[str]) -> ShowSolved | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1 or args[0] not in ("0", "1"):
            return None
        return cls(args[0] == "1")


Command = (
    Hello | Ping | Resend | Ack | ShowSerial | ShowBatteries | ShowTop | ShowHand
    | ShowStrikes | ShowSolved
)
#: Display commands, in the order of a full re-send (docs/protocol.md, section 5.3).
DisplayCommand = ShowSerial | ShowBatteries | ShowTop | ShowHand | ShowStrikes | ShowSolved
DISPLAY_ORDER: Final[tuple[type[DisplayCommand], ...]] = (
    ShowSerial,
    ShowBatteries,
    ShowTop,
    ShowHand,
    ShowStrikes,
    ShowSolved,
)

_COMMAND_PARSERS: Final[dict[str, Callable[[list[str]], Command | None]]] = {
    cls.WORD: cls.parse
    for cls in (
        Hello, Ping, Resend, Ack, ShowSerial, ShowBatteries, ShowTop, ShowHand, ShowStrikes,
        ShowSolved,
    )
}


def encode_command(command: Command, tag: int) -> str:
    """The line body for ``command`` sent with ``tag``."""
    _check_range("tag", tag, 0, MAX_TAG)
    return " ".join([command.WORD, str(tag), *command.args()])


def decode_command(body: str) -> tuple[str, Command]:
    """Read a host command line body; return its tag text and the command.

    Raises :class:`CommandRejected` with the ``ERR`` code a prop answers, checking in
    the documented order: tag, first token, arguments.
    """
    tokens = body.split(" ")
    tag = tokens[1] if len(tokens) > 1 else None
    if tag is None or _number(tag, 0, MAX_TAG) is None:
        raise CommandRejected(f"command {body!r} has no valid tag", tag=None, code="ARGS")
    parser = _COMMAND_PARSERS.get(tokens[0])
    if parser is None:
        raise CommandRejected(
            f"command {tokens[0]!r} is not known", tag=tag, code=ErrorCode.UNKNOWN.value
        )
    command = parser(tokens[2:])
    if command is None:
        raise CommandRejected(
            f"command {body!r} has wrong arguments", tag=tag, code=ErrorCode.ARGS.value
        )
    return tag, command


# --- prop replies --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hi:
    """Answer to ``HELLO``: ``HI <tag> <version> <seq> <firmware>``."""

    tag: int
    version: int
    seq: int
    firmware: str

    WORD = "HI"

    def encode(self) -> str:
        """The line body."""
        return f"HI {self.tag} {self.version} {self.seq} {self.firmware}"

    @classmethod
    def parse(cls, args: list[str]) -> Hi | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) != 4 or not _FIRMWARE.fullmatch(args[3]):
            return None
        tag = _number(args[0], 0, MAX_TAG)
        version = _number(args[1], 1, MAX_SESSION)
        seq = _number(args[2], 0, SEQ_MODULUS - 1)
        if tag is None or version is None or seq is None:
            return None
        return cls(tag, version, seq, args[3])


@dataclass(frozen=True, slots=True)
class Pong:
    """Answer to ``PING``: ``PONG <tag> <session> <seq> <bad lines>``."""

    tag: int
    session: int
    seq: int
    bad_lines: int

    WORD = "PONG"

    def encode(self) -> str:
        """The line body."""
        return f"PONG {self.tag} {self.session} {self.seq} {self.bad_lines}"

    @classmethod
    def parse(cls, args: list[str]) -> Pong | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) != 4:
            return None
        tag = _number(args[0], 0, MAX_TAG)
        session = _number(args[1], 0, MAX_SESSION)
        seq = _number(args[2], 0, SEQ_MODULUS - 1)
        bad = _number(args[3], 0, 65535)
        if tag is None or session is None or seq is None or bad is None:
            return None
        return cls(tag, session, seq, bad)


@dataclass(frozen=True, slots=True)
class Ok:
    """A command was done: ``OK <tag>``."""

    tag: int

    WORD = "OK"

    def encode(self) -> str:
        """The line body."""
        return f"OK {self.tag}"

    @classmethod
    def parse(cls, args: list[str]) -> Ok | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) != 1:
            return None
        tag = _number(args[0], 0, MAX_TAG)
        return None if tag is None else cls(tag)


@dataclass(frozen=True, slots=True)
class Err:
    """A command was refused: ``ERR <tag> <code>`` or ``ERR <tag> VERSION <v>``.

    ``tag`` is None for ``ERR - ARGS`` (the command's tag was unreadable).
    """

    tag: int | None
    code: ErrorCode
    version: int | None = None

    WORD = "ERR"

    def __post_init__(self) -> None:
        if (self.code is ErrorCode.VERSION) != (self.version is not None):
            raise HostProtocolError("ERR VERSION needs a version, and only it takes one")

    def encode(self) -> str:
        """The line body."""
        tag = "-" if self.tag is None else str(self.tag)
        tail = "" if self.version is None else f" {self.version}"
        return f"ERR {tag} {self.code.value}{tail}"

    @classmethod
    def parse(cls, args: list[str]) -> Err | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) not in (2, 3):
            return None
        tag = None if args[0] == "-" else _number(args[0], 0, MAX_TAG)
        if tag is None and args[0] != "-":
            return None
        try:
            code = ErrorCode(args[1])
        except ValueError:
            return None
        if code is ErrorCode.VERSION:
            version = _number(args[2], 1, MAX_SESSION) if len(args) == 3 else None
            return None if version is None else cls(tag, code, version)
        return cls(tag, code) if len(args) == 2 else None


# --- prop events ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A debounced press: ``BTN <seq> <button>``."""

    seq: int
    button: Button

    WORD = "BTN"

    def encode(self) -> str:
        """The line body."""
        return f"BTN {self.seq} {self.button.value}"

    @classmethod
    def parse(cls, args: list[str]) -> ButtonPressed | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) != 2:
            return None
        seq = _number(args[0], 0, SEQ_MODULUS - 1)
        try:
            button = Button(args[1])
        except ValueError:
            return None
        return None if seq is None else cls(seq, button)


@dataclass(frozen=True, slots=True)
class Boot:
    """The firmware has just started: ``BOOT <version>``."""

    version: int

    WORD = "BOOT"

    def encode(self) -> str:
        """The line body."""
        return f"BOOT {self.version}"

    @classmethod
    def parse(cls, args: list[str]) -> Boot | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) != 1:
            return None
        version = _number(args[0], 1, MAX_SESSION)
        return None if version is None else cls(version)


Reply = Hi | Pong | Ok | Err
Event = ButtonPressed | Boot
DeviceMessage = Reply | Event

_DEVICE_PARSERS: Final[dict[str, Callable[[list[str]], DeviceMessage | None]]] = {
    cls.WORD: cls.parse for cls in (Hi, Pong, Ok, Err, ButtonPressed, Boot)
}

FIRST_TOKENS: Final[dict[str, MessageKind]] = {
    **{word: MessageKind.COMMAND for word in _COMMAND_PARSERS},
    **{cls.WORD: MessageKind.REPLY for cls in (Hi, Pong, Ok, Err)},
    **{cls.WORD: MessageKind.EVENT for cls in (ButtonPressed, Boot)},
}


def kind_of(body: str) -> MessageKind | None:
    """Which kind of message ``body`` is by its first token, or None if no known kind."""
    return FIRST_TOKENS.get(body.split(" ", 1)[0])


def encode_device(message: DeviceMessage) -> str:
    """The line body for a prop reply or event."""
    return message.encode()


def decode_device(body: str) -> DeviceMessage:
    """Read a prop reply or event; raise :class:`DeviceProtocolError` if it is none."""
    tokens = body.split(" ")
    parser = _DEVICE_PARSERS.get(tokens[0])
    if parser is None:
        raise DeviceProtocolError(
            f"the prop sent {body!r}, whose first word is no reply or event "
            f"(expected one of {', '.join(sorted(_DEVICE_PARSERS))})",
            line=body,
        )
    message = parser(tokens[1:])
    if message is None:
        raise DeviceProtocolError(
            f"the prop sent {body!r}, which is not a valid {tokens[0]} line", line=body
        )
    return message
