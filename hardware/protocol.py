"""The prop protocol's messages (docs/protocol.md, versions 1 and 2). Pure; no I/O.

Every message is one frozen dataclass, and :data:`MESSAGES` is the one table of them:
each class names its first token (``WORD``), who sends it (``KIND``) and the first
protocol version that has it (``SINCE``); the lookups by first token, the set of
display commands and their re-send order are all derived from that table, so a new
message is one class added to it.

* host commands (:data:`Command`) carry no tag; the tag is given when encoding, because
  it belongs to one attempt at sending, not to what is said. :func:`decode_command`
  returns ``(tag, command)`` and raises :class:`~hardware.errors.CommandRejected` with
  the ``ERR`` code a prop must answer (used by the simulated prop and the checker);
* prop replies (:data:`Reply`) and events (:data:`PropEvent`) are read by
  :func:`decode_device`, which raises :class:`~hardware.errors.DeviceProtocolError`
  when the prop sent something that is no message.

Decoding is strict: exact tokens, one space between them, decimal numbers without
leading zeros. Two messages have one more field in version 2 than in version 1: ``HI``
(the prop's session before this ``HELLO``) and ``BTN`` (the session the press was made
in); their decoders read either form, and the host checks the form fits the version.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from edgework import Card
from edgework.widgets import CANONICAL_PORTS
from hardware.errors import CommandRejected, DeviceProtocolError, HostProtocolError

#: The protocol versions this module speaks, oldest first.
VERSIONS: Final = (1, 2)
#: The newest version; the host asks for it first.
PROTOCOL_VERSION: Final = VERSIONS[-1]
#: Version numbers in ``HELLO``, ``HI``, ``ERR VERSION`` and ``BOOT`` run 1..MAX_VERSION.
MAX_VERSION: Final = 65535
#: Tags run 0..MAX_TAG.
MAX_TAG: Final = 999
#: Sessions run 1..MAX_SESSION (0 in ``PONG``, ``HI`` and ``BTN`` means none).
MAX_SESSION: Final = 65535
#: Event numbers are 16-bit and wrap around.
SEQ_MODULUS: Final = 65536
#: Strikes, the strike limit, batteries, holders and widget counts are 0..MAX_COUNT.
MAX_COUNT: Final = 99
#: Longest firmware name in ``HI``.
MAX_FIRMWARE: Final = 20
#: How many events a prop must keep for ``RESEND``.
MIN_EVENT_STORE: Final = 8
#: Most ports one ``PLATE`` line carries.
MAX_PLATE_PORTS: Final = 8
#: Longest countdown ``TIMER`` carries: 99:59.999.
MAX_TIMER_MS: Final = 5_999_999
#: Fastest timer rate, in thousandths of real time.
MAX_RATE: Final = 9999
#: Bad-line counts stop here.
MAX_BAD_LINES: Final = 65535

EMPTY: Final = "--"
NO_SERIAL: Final = "------"
NONE: Final = "-"
EMPTY_PLATE: Final = "EMPTY"

#: Port codes on the wire, by the port names edgework uses.
PORT_CODES: Final[dict[str, str]] = {
    "DVI": "DVI",
    "Parallel": "PAR",
    "PS2": "PS2",
    "RJ45": "RJ45",
    "Serial": "SER",
    "StereoRCA": "RCA",
}
assert set(PORT_CODES) == set(CANONICAL_PORTS)
_PORT_NAMES: Final[dict[str, str]] = {code: name for name, code in PORT_CODES.items()}

_NUMBER = re.compile(r"0|[1-9][0-9]*")
_SERIAL = re.compile(r"[A-Z0-9]{6}")
_LABEL = re.compile(r"[A-Z]{3}")
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


class GameState(enum.Enum):
    """How the bomb stands (``GAME``, version 2)."""

    PLAYING = "PLAYING"
    SOLVED = "SOLVED"
    EXPLODED = "EXPLODED"
    TIMEOUT = "TIMEOUT"


class Cue(enum.Enum):
    """A sound the prop plays once (``SOUND``, version 2)."""

    STRIKE = "STRIKE"
    SOLVE = "SOLVE"
    BOOM = "BOOM"


# --- value helpers -------------------------------------------------------------------


def _number(token: str, low: int, high: int) -> int | None:
    if not _NUMBER.fullmatch(token):
        return None
    value = int(token)
    return value if low <= value <= high else None


def _optional(token: str, low: int, high: int) -> tuple[bool, int | None]:
    """``(True, n)``, ``(True, None)`` for ``-``, or ``(False, None)`` if neither."""
    if token == NONE:
        return True, None
    value = _number(token, low, high)
    return value is not None, value


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


def _enum_token(enum_type: type[enum.Enum], token: str) -> Any:
    try:
        return enum_type(token)
    except ValueError:
        return None


def is_newer(seq: int, last: int) -> bool:
    """True when event number ``seq`` comes after ``last`` (16-bit wrap-around)."""
    return 1 <= (seq - last) % SEQ_MODULUS <= SEQ_MODULUS // 2 - 1


def next_seq(seq: int) -> int:
    """The event number after ``seq``."""
    return (seq + 1) % SEQ_MODULUS


def seq_distance(newer: int, older: int) -> int:
    """How many numbers lie from ``older`` (excluded) to ``newer`` (included)."""
    return (newer - older) % SEQ_MODULUS


# --- host commands -------------------------------------------------------------------
#
# Every command class has WORD (its first token), SINCE (first version with it),
# ``args()`` (the tokens after the tag) and ``parse(args)`` (None when they are wrong).
# A display command also has ``slot``: the part of the display it sets; commands with
# the same slot replace each other.


class _Shown:
    """What every display command has: the part of the display it sets (``slot``).

    Commands with the same slot replace each other; most commands set one whole part,
    list entries (``IND``, ``PLATE``) one part per index.
    """

    __slots__ = ()
    WORD: ClassVar[str]

    @property
    def slot(self) -> tuple[str, int]:
        """The part of the display this command sets."""
        return (self.WORD, 0)


@dataclass(frozen=True, slots=True)
class Hello:
    """Start a session: ``HELLO <tag> <version> <session>``."""

    version: int
    session: int

    WORD: ClassVar[str] = "HELLO"
    SINCE: ClassVar[int] = 1

    def __post_init__(self) -> None:
        _check_range("protocol version", self.version, 1, MAX_VERSION)
        _check_range("session", self.session, 1, MAX_SESSION)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.version), str(self.session)]

    @classmethod
    def parse(cls, args: list[str]) -> Hello | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        version = _number(args[0], 1, MAX_VERSION)
        session = _number(args[1], 1, MAX_SESSION)
        if version is None or session is None:
            return None
        return cls(version, session)


@dataclass(frozen=True, slots=True)
class Ping:
    """Heartbeat: ``PING <tag>``."""

    WORD: ClassVar[str] = "PING"
    SINCE: ClassVar[int] = 1

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

    WORD: ClassVar[str] = "RESEND"
    SINCE: ClassVar[int] = 1

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

    WORD: ClassVar[str] = "ACK"
    SINCE: ClassVar[int] = 1

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
class ShowSerial(_Shown):
    """Show the serial number: ``SERIAL <tag> <serial>`` (None: ``------``)."""

    serial: str | None

    WORD: ClassVar[str] = "SERIAL"
    SINCE: ClassVar[int] = 1

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
class ShowBatteries(_Shown):
    """Show the batteries: ``BATT <tag> <count> <holders>`` (holders None: ``-``)."""

    count: int
    holders: int | None

    WORD: ClassVar[str] = "BATT"
    SINCE: ClassVar[int] = 1

    def __post_init__(self) -> None:
        _check_range("battery count", self.count, 0, MAX_COUNT)
        if self.holders is not None:
            _check_range("battery holder count", self.holders, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.count), NONE if self.holders is None else str(self.holders)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowBatteries | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        count = _number(args[0], 0, MAX_COUNT)
        ok, holders = _optional(args[1], 0, MAX_COUNT)
        return None if count is None or not ok else cls(count, holders)


@dataclass(frozen=True, slots=True)
class ShowHolders(_Shown):
    """Show the battery holders: ``HOLDERS <tag> <aa> <d>`` (both ``-`` when unknown)."""

    aa: int | None
    d: int | None

    WORD: ClassVar[str] = "HOLDERS"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        if (self.aa is None) != (self.d is None):
            raise HostProtocolError("AA and D holders are both known or both unknown")
        for what, value in (("AA holder count", self.aa), ("D holder count", self.d)):
            if value is not None:
                _check_range(what, value, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [NONE if v is None else str(v) for v in (self.aa, self.d)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowHolders | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        (ok_aa, aa), (ok_d, d) = (_optional(token, 0, MAX_COUNT) for token in args)
        if not (ok_aa and ok_d) or (aa is None) != (d is None):
            return None
        return cls(aa, d)


@dataclass(frozen=True, slots=True)
class ShowIndicatorCount(_Shown):
    """How many indicators the bomb has: ``INDS <tag> <count>``."""

    count: int

    WORD: ClassVar[str] = "INDS"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _check_range("indicator count", self.count, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.count)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowIndicatorCount | None:
        """Read the tokens after the tag, or None when they are wrong."""
        count = _number(args[0], 0, MAX_COUNT) if len(args) == 1 else None
        return None if count is None else cls(count)


@dataclass(frozen=True, slots=True)
class ShowIndicator(_Shown):
    """Indicator number ``index``: ``IND <tag> <index> <label> <flag>`` (1: lit)."""

    index: int
    label: str
    lit: bool

    WORD: ClassVar[str] = "IND"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _check_range("indicator number", self.index, 1, MAX_COUNT)
        if not _LABEL.fullmatch(self.label):
            raise HostProtocolError(
                f"indicator label {self.label!r} cannot be shown, expected 3 letters A-Z"
            )

    @property
    def slot(self) -> tuple[str, int]:
        """The part of the display this command sets."""
        return (self.WORD, self.index)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.index), self.label, "1" if self.lit else "0"]

    @classmethod
    def parse(cls, args: list[str]) -> ShowIndicator | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 3 or not _LABEL.fullmatch(args[1]) or args[2] not in ("0", "1"):
            return None
        index = _number(args[0], 1, MAX_COUNT)
        return None if index is None else cls(index, args[1], args[2] == "1")


@dataclass(frozen=True, slots=True)
class ShowPlateCount(_Shown):
    """How many port plates the bomb has: ``PLATES <tag> <count>``."""

    count: int

    WORD: ClassVar[str] = "PLATES"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _check_range("port plate count", self.count, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.count)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowPlateCount | None:
        """Read the tokens after the tag, or None when they are wrong."""
        count = _number(args[0], 0, MAX_COUNT) if len(args) == 1 else None
        return None if count is None else cls(count)


@dataclass(frozen=True, slots=True)
class ShowPlate(_Shown):
    """Port plate number ``index``: ``PLATE <tag> <index> <ports>``.

    ``ports`` are edgework port names in the plate's order; the wire carries their
    codes joined by ``,`` (``PAR,SER``), or ``EMPTY`` for an empty plate.
    """

    index: int
    ports: tuple[str, ...]

    WORD: ClassVar[str] = "PLATE"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _check_range("port plate number", self.index, 1, MAX_COUNT)
        if len(self.ports) > MAX_PLATE_PORTS:
            raise HostProtocolError(
                f"port plate {self.index} has {len(self.ports)} ports, "
                f"expected at most {MAX_PLATE_PORTS}"
            )
        for port in self.ports:
            if port not in PORT_CODES:
                raise HostProtocolError(
                    f"port {port!r} cannot be shown, expected one of {', '.join(PORT_CODES)}"
                )

    @property
    def slot(self) -> tuple[str, int]:
        """The part of the display this command sets."""
        return (self.WORD, self.index)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        text = ",".join(PORT_CODES[port] for port in self.ports)
        return [str(self.index), text or EMPTY_PLATE]

    @classmethod
    def parse(cls, args: list[str]) -> ShowPlate | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        index = _number(args[0], 1, MAX_COUNT)
        if index is None:
            return None
        if args[1] == EMPTY_PLATE:
            return cls(index, ())
        codes = args[1].split(",")
        if len(codes) > MAX_PLATE_PORTS or any(code not in _PORT_NAMES for code in codes):
            return None
        return cls(index, tuple(_PORT_NAMES[code] for code in codes))


@dataclass(frozen=True, slots=True)
class ShowTop(_Shown):
    """Show the discard top: ``TOP <tag> <card>`` (None: ``--``)."""

    card: Card | None

    WORD: ClassVar[str] = "TOP"
    SINCE: ClassVar[int] = 1

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
class ShowHand(_Shown):
    """Show hand slots 1-3: ``HAND <tag> <card> <card> <card>`` (None: ``--``)."""

    slots: tuple[Card | None, Card | None, Card | None]

    WORD: ClassVar[str] = "HAND"
    SINCE: ClassVar[int] = 1

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
class ShowStrikes(_Shown):
    """Show the strike count: ``STRIKES <tag> <n>`` (the host sends 99 for 99 or more)."""

    count: int

    WORD: ClassVar[str] = "STRIKES"
    SINCE: ClassVar[int] = 1

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
class ShowLimit(_Shown):
    """The strike limit: ``LIMIT <tag> <n>`` (0: the bomb never explodes by strikes)."""

    limit: int

    WORD: ClassVar[str] = "LIMIT"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _check_range("strike limit", self.limit, 0, MAX_COUNT)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.limit)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowLimit | None:
        """Read the tokens after the tag, or None when they are wrong."""
        limit = _number(args[0], 0, MAX_COUNT) if len(args) == 1 else None
        return None if limit is None else cls(limit)


@dataclass(frozen=True, slots=True)
class ShowTimer(_Shown):
    """The bomb timer: ``TIMER <tag> <ms> <rate>``.

    ``ms`` is the time left in milliseconds (None: no timer, sent as ``-`` with rate 0);
    ``rate`` is how fast it runs in thousandths of real time (1000 normal, 1250 after
    one strike, 0 stopped).
    """

    ms: int | None
    rate: int

    WORD: ClassVar[str] = "TIMER"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        if self.ms is not None:
            _check_range("timer milliseconds", self.ms, 0, MAX_TIMER_MS)
        _check_range("timer rate", self.rate, 0, MAX_RATE)
        if self.ms is None and self.rate:
            raise HostProtocolError("no timer (-) runs at rate 0")

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [NONE if self.ms is None else str(self.ms), str(self.rate)]

    @classmethod
    def parse(cls, args: list[str]) -> ShowTimer | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        ok, ms = _optional(args[0], 0, MAX_TIMER_MS)
        rate = _number(args[1], 0, MAX_RATE)
        if not ok or rate is None or (ms is None and rate):
            return None
        return cls(ms, rate)


@dataclass(frozen=True, slots=True)
class ShowGame(_Shown):
    """How the bomb stands: ``GAME <tag> PLAYING|SOLVED|EXPLODED|TIMEOUT``."""

    state: GameState

    WORD: ClassVar[str] = "GAME"
    SINCE: ClassVar[int] = 2

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [self.state.value]

    @classmethod
    def parse(cls, args: list[str]) -> ShowGame | None:
        """Read the tokens after the tag, or None when they are wrong."""
        state = _enum_token(GameState, args[0]) if len(args) == 1 else None
        return None if state is None else cls(state)


@dataclass(frozen=True, slots=True)
class ShowSolved(_Shown):
    """Show whether the module is solved: ``SOLVED <tag> 0|1``."""

    solved: bool

    WORD: ClassVar[str] = "SOLVED"
    SINCE: ClassVar[int] = 1

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return ["1" if self.solved else "0"]

    @classmethod
    def parse(cls, args: list[str]) -> ShowSolved | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 1 or args[0] not in ("0", "1"):
            return None
        return cls(args[0] == "1")


@dataclass(frozen=True, slots=True)
class PlaySound:
    """Play a sound once: ``SOUND <tag> <number> <cue>``.

    The number makes a repeat harmless: a prop plays a ``SOUND`` whose number differs
    from the last one it played in this session, and ignores one with the same number.
    """

    number: int
    cue: Cue

    WORD: ClassVar[str] = "SOUND"
    SINCE: ClassVar[int] = 2

    def __post_init__(self) -> None:
        _check_range("sound number", self.number, 0, SEQ_MODULUS - 1)

    def args(self) -> list[str]:
        """The tokens after the tag."""
        return [str(self.number), self.cue.value]

    @classmethod
    def parse(cls, args: list[str]) -> PlaySound | None:
        """Read the tokens after the tag, or None when they are wrong."""
        if len(args) != 2:
            return None
        number = _number(args[0], 0, SEQ_MODULUS - 1)
        cue = _enum_token(Cue, args[1])
        return None if number is None or cue is None else cls(number, cue)


DisplayCommand = (
    ShowSerial | ShowBatteries | ShowHolders | ShowIndicatorCount | ShowIndicator
    | ShowPlateCount | ShowPlate | ShowTop | ShowHand | ShowStrikes | ShowLimit | ShowTimer
    | ShowGame | ShowSolved
)
Command = Hello | Ping | Resend | Ack | PlaySound | DisplayCommand


# --- prop replies --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hi:
    """Answer to ``HELLO``: ``HI <tag> <version> <seq> <firmware>`` and, from version 2,
    ``<prior>``: the prop's session before this ``HELLO`` (0: none since it started).
    """

    tag: int
    version: int
    seq: int
    firmware: str
    prior: int | None = None

    WORD: ClassVar[str] = "HI"
    SINCE: ClassVar[int] = 1

    def encode(self) -> str:
        """The line body."""
        tail = "" if self.prior is None else f" {self.prior}"
        return f"HI {self.tag} {self.version} {self.seq} {self.firmware}{tail}"

    @classmethod
    def parse(cls, args: list[str]) -> Hi | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) not in (4, 5) or not _FIRMWARE.fullmatch(args[3]):
            return None
        tag = _number(args[0], 0, MAX_TAG)
        version = _number(args[1], 1, MAX_VERSION)
        seq = _number(args[2], 0, SEQ_MODULUS - 1)
        if tag is None or version is None or seq is None:
            return None
        if (version >= 2) != (len(args) == 5):
            return None
        prior = _number(args[4], 0, MAX_SESSION) if len(args) == 5 else None
        if len(args) == 5 and prior is None:
            return None
        return cls(tag, version, seq, args[3], prior)


@dataclass(frozen=True, slots=True)
class Pong:
    """Answer to ``PING``: ``PONG <tag> <session> <seq> <bad lines>``."""

    tag: int
    session: int
    seq: int
    bad_lines: int

    WORD: ClassVar[str] = "PONG"
    SINCE: ClassVar[int] = 1

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
        bad = _number(args[3], 0, MAX_BAD_LINES)
        if tag is None or session is None or seq is None or bad is None:
            return None
        return cls(tag, session, seq, bad)


@dataclass(frozen=True, slots=True)
class Ok:
    """A command was done: ``OK <tag>``."""

    tag: int

    WORD: ClassVar[str] = "OK"
    SINCE: ClassVar[int] = 1

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

    WORD: ClassVar[str] = "ERR"
    SINCE: ClassVar[int] = 1

    def __post_init__(self) -> None:
        if (self.code is ErrorCode.VERSION) != (self.version is not None):
            raise HostProtocolError("ERR VERSION needs a version, and only it takes one")

    def encode(self) -> str:
        """The line body."""
        tag = NONE if self.tag is None else str(self.tag)
        tail = "" if self.version is None else f" {self.version}"
        return f"ERR {tag} {self.code.value}{tail}"

    @classmethod
    def parse(cls, args: list[str]) -> Err | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) not in (2, 3):
            return None
        ok, tag = (True, None) if args[0] == NONE else (True, _number(args[0], 0, MAX_TAG))
        if tag is None and args[0] != NONE:
            ok = False
        code = _enum_token(ErrorCode, args[1])
        if not ok or code is None:
            return None
        if code is ErrorCode.VERSION:
            version = _number(args[2], 1, MAX_VERSION) if len(args) == 3 else None
            return None if version is None else cls(tag, code, version)
        return cls(tag, code) if len(args) == 2 else None


# --- prop events ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A debounced press: ``BTN <seq> <button>`` and, from version 2, ``<session>``:
    the prop's session when the button was pressed (0: none).
    """

    seq: int
    button: Button
    session: int | None = None

    WORD: ClassVar[str] = "BTN"
    SINCE: ClassVar[int] = 1

    def encode(self) -> str:
        """The line body."""
        tail = "" if self.session is None else f" {self.session}"
        return f"BTN {self.seq} {self.button.value}{tail}"

    @classmethod
    def parse(cls, args: list[str]) -> ButtonPressed | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) not in (2, 3):
            return None
        seq = _number(args[0], 0, SEQ_MODULUS - 1)
        button = _enum_token(Button, args[1])
        session = _number(args[2], 0, MAX_SESSION) if len(args) == 3 else None
        if seq is None or button is None or (len(args) == 3 and session is None):
            return None
        return cls(seq, button, session)


@dataclass(frozen=True, slots=True)
class Boot:
    """The firmware has just started: ``BOOT <version>`` (the newest it speaks)."""

    version: int

    WORD: ClassVar[str] = "BOOT"
    SINCE: ClassVar[int] = 1

    def encode(self) -> str:
        """The line body."""
        return f"BOOT {self.version}"

    @classmethod
    def parse(cls, args: list[str]) -> Boot | None:
        """Read the tokens after the first, or None when they are wrong."""
        if len(args) != 1:
            return None
        version = _number(args[0], 1, MAX_VERSION)
        return None if version is None else cls(version)


Reply = Hi | Pong | Ok | Err
#: What a prop sends unasked (named apart from the engine's `Event`, what a player sees happen).
PropEvent = ButtonPressed | Boot
DeviceMessage = Reply | PropEvent


# --- the one table ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MessageSpec:
    """One row of the message table."""

    cls: type[Any]
    kind: MessageKind
    display: bool = False

    @property
    def word(self) -> str:
        """The message's first token."""
        return str(self.cls.WORD)

    @property
    def since(self) -> int:
        """The first protocol version that has the message."""
        return int(self.cls.SINCE)


#: Every message of the protocol. Display commands are listed in the order of a full
#: re-send (docs/protocol.md, section 5.3).
MESSAGES: Final[tuple[MessageSpec, ...]] = (
    MessageSpec(Hello, MessageKind.COMMAND),
    MessageSpec(Ping, MessageKind.COMMAND),
    MessageSpec(Resend, MessageKind.COMMAND),
    MessageSpec(Ack, MessageKind.COMMAND),
    MessageSpec(ShowSerial, MessageKind.COMMAND, display=True),
    MessageSpec(ShowBatteries, MessageKind.COMMAND, display=True),
    MessageSpec(ShowHolders, MessageKind.COMMAND, display=True),
    MessageSpec(ShowIndicatorCount, MessageKind.COMMAND, display=True),
    MessageSpec(ShowIndicator, MessageKind.COMMAND, display=True),
    MessageSpec(ShowPlateCount, MessageKind.COMMAND, display=True),
    MessageSpec(ShowPlate, MessageKind.COMMAND, display=True),
    MessageSpec(ShowTop, MessageKind.COMMAND, display=True),
    MessageSpec(ShowHand, MessageKind.COMMAND, display=True),
    MessageSpec(ShowStrikes, MessageKind.COMMAND, display=True),
    MessageSpec(ShowLimit, MessageKind.COMMAND, display=True),
    MessageSpec(ShowTimer, MessageKind.COMMAND, display=True),
    MessageSpec(ShowGame, MessageKind.COMMAND, display=True),
    MessageSpec(ShowSolved, MessageKind.COMMAND, display=True),
    MessageSpec(PlaySound, MessageKind.COMMAND),
    MessageSpec(Hi, MessageKind.REPLY),
    MessageSpec(Pong, MessageKind.REPLY),
    MessageSpec(Ok, MessageKind.REPLY),
    MessageSpec(Err, MessageKind.REPLY),
    MessageSpec(ButtonPressed, MessageKind.EVENT),
    MessageSpec(Boot, MessageKind.EVENT),
)

_BY_WORD: Final[dict[str, MessageSpec]] = {spec.word: spec for spec in MESSAGES}
assert len(_BY_WORD) == len(MESSAGES), "two messages share a first token"

FIRST_TOKENS: Final[dict[str, MessageKind]] = {spec.word: spec.kind for spec in MESSAGES}
#: Display command classes in re-send order.
DISPLAY_ORDER: Final[tuple[type[DisplayCommand], ...]] = tuple(
    spec.cls for spec in MESSAGES if spec.display
)


def spec_of(word: str) -> MessageSpec | None:
    """The table row for a first token, or None."""
    return _BY_WORD.get(word)


def words(kind: MessageKind, version: int = PROTOCOL_VERSION) -> list[str]:
    """The first tokens of ``kind`` that ``version`` has, in table order."""
    return [spec.word for spec in MESSAGES if spec.kind is kind and spec.since <= version]


def is_display(command: Command) -> bool:
    """True for a command that sets part of the display."""
    spec = _BY_WORD[command.WORD]
    return spec.display


def display_rank(command: DisplayCommand) -> tuple[int, int]:
    """Where ``command`` comes in a full re-send."""
    return (DISPLAY_ORDER.index(type(command)), command.slot[1])


def encode_command(command: Command, tag: int) -> str:
    """The line body for ``command`` sent with ``tag``."""
    _check_range("tag", tag, 0, MAX_TAG)
    return " ".join([command.WORD, str(tag), *command.args()])


def decode_command(body: str, version: int = PROTOCOL_VERSION) -> tuple[str, Command]:
    """Read a host command line body in ``version``; return its tag text and the command.

    Raises :class:`CommandRejected` with the ``ERR`` code a prop answers, checking in
    the documented order: tag, first token (a command of ``version``), arguments.
    """
    tokens = body.split(" ")
    tag = tokens[1] if len(tokens) > 1 else None
    if tag is None or _number(tag, 0, MAX_TAG) is None:
        raise CommandRejected(f"command {body!r} has no valid tag", tag=None, code="ARGS")
    spec = _BY_WORD.get(tokens[0])
    if spec is None or spec.kind is not MessageKind.COMMAND or spec.since > version:
        raise CommandRejected(
            f"command {tokens[0]!r} is not known in version {version}",
            tag=tag,
            code=ErrorCode.UNKNOWN.value,
        )
    parser: Callable[[list[str]], Command | None] = spec.cls.parse
    command = parser(tokens[2:])
    if command is None:
        raise CommandRejected(
            f"command {body!r} has wrong arguments", tag=tag, code=ErrorCode.ARGS.value
        )
    return tag, command


def kind_of(body: str) -> MessageKind | None:
    """Which kind of message ``body`` is by its first token, or None if no known kind."""
    return FIRST_TOKENS.get(body.split(" ", 1)[0])


def decode_device(body: str) -> DeviceMessage:
    """Read a prop reply or event; raise :class:`DeviceProtocolError` if it is none."""
    tokens = body.split(" ")
    spec = _BY_WORD.get(tokens[0])
    if spec is None or spec.kind is MessageKind.COMMAND:
        expected = ", ".join(sorted(words(MessageKind.REPLY) + words(MessageKind.EVENT)))
        raise DeviceProtocolError(
            f"the prop sent {body!r}, whose first word is no reply or event "
            f"(expected one of {expected})",
            line=body,
        )
    parser: Callable[[list[str]], DeviceMessage | None] = spec.cls.parse
    message = parser(tokens[1:])
    if message is None:
        raise DeviceProtocolError(
            f"the prop sent {body!r}, which is not a valid {tokens[0]} line", line=body
        )
    return message
