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

import dataclasses
import enum
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

from edgework import Card
from edgework.widgets import CANONICAL_PORTS
from hardware.errors import CommandRejected, DeviceProtocolError, ErrorCode, HostProtocolError

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


# --- sequence numbers ----------------------------------------------------------------


def is_newer(seq: int, last: int) -> bool:
    """True when event number ``seq`` comes after ``last`` (16-bit wrap-around)."""
    return 1 <= (seq - last) % SEQ_MODULUS <= SEQ_MODULUS // 2 - 1


def next_seq(seq: int) -> int:
    """The event number after ``seq``."""
    return (seq + 1) % SEQ_MODULUS


def seq_distance(newer: int, older: int) -> int:
    """How many numbers lie from ``older`` (excluded) to ``newer`` (included)."""
    return (newer - older) % SEQ_MODULUS


# --- field codecs --------------------------------------------------------------------
#
# A codec says how one field is written (``encode``: its tokens), read back (``decode``,
# raising _Unreadable) and checked before sending (``problem``: why a value cannot be
# sent, or None). A message declares each field once, with its codec in the field's
# metadata (``field(metadata=wire(...))``); :class:`_Wire` derives the rest.

T = TypeVar("T")


class _Unreadable(Exception):
    """Tokens that are not a value of their field."""


class Codec(ABC, Generic[T]):
    """How one field's value is written on the wire, read back and checked (abstract:
    each kind of field says how)."""

    #: How many tokens the field takes.
    width: int = 1

    @abstractmethod
    def encode(self, value: T) -> list[str]:
        """The field's tokens."""

    @abstractmethod
    def decode(self, tokens: list[str]) -> T:
        """The value the tokens carry; raise :class:`_Unreadable` when they carry none."""

    def problem(self, value: T) -> str | None:
        """Why ``value`` cannot be sent, or None when it can."""
        return None


def _number(token: str, low: int, high: int) -> int | None:
    if not _NUMBER.fullmatch(token):
        return None
    value = int(token)
    return value if low <= value <= high else None


@dataclass(frozen=True, slots=True)
class Number(Codec[int]):
    """A decimal number ``low``..``high`` without leading zeros; ``what`` names it."""

    what: str
    low: int
    high: int

    def encode(self, value: int) -> list[str]:
        """The number in decimal."""
        return [str(value)]

    def decode(self, tokens: list[str]) -> int:
        """The number, when it is one in range."""
        value = _number(tokens[0], self.low, self.high)
        if value is None:
            raise _Unreadable
        return value

    def problem(self, value: int) -> str | None:
        """Out of range."""
        if self.low <= value <= self.high:
            return None
        return f"{self.what} {value} is out of range, expected {self.low} to {self.high}"


@dataclass(frozen=True, slots=True)
class Text(Codec[str]):
    """A token matching ``pattern``; ``what`` names it, ``expected`` says what fits."""

    what: str
    pattern: re.Pattern[str]
    expected: str

    def encode(self, value: str) -> list[str]:
        """The text as it is."""
        return [value]

    def decode(self, tokens: list[str]) -> str:
        """The text, when it fits the pattern."""
        if not self.pattern.fullmatch(tokens[0]):
            raise _Unreadable
        return tokens[0]

    def problem(self, value: str) -> str | None:
        """Text that does not fit."""
        if self.pattern.fullmatch(value):
            return None
        return f"{self.what} {value!r} cannot be shown, expected {self.expected}"


@dataclass(frozen=True, slots=True)
class Flag(Codec[bool]):
    """``1`` for True, ``0`` for False."""

    def encode(self, value: bool) -> list[str]:
        """``1`` or ``0``."""
        return ["1" if value else "0"]

    def decode(self, tokens: list[str]) -> bool:
        """True for ``1``, False for ``0``."""
        if tokens[0] not in ("0", "1"):
            raise _Unreadable
        return tokens[0] == "1"


E = TypeVar("E", bound=enum.Enum)


@dataclass(frozen=True, slots=True)
class EnumChoice(Codec[E]):
    """One member of an enum, by its value."""

    members: type[E]

    def encode(self, value: E) -> list[str]:
        """The member's value."""
        return [str(value.value)]

    def decode(self, tokens: list[str]) -> E:
        """The member whose value the token is."""
        try:
            return self.members(tokens[0])
        except ValueError:
            raise _Unreadable from None


@dataclass(frozen=True, slots=True)
class CardCode(Codec[Card]):
    """A card by its two-letter code (``RC``)."""

    def encode(self, value: Card) -> list[str]:
        """The card's code."""
        return [value.code]

    def decode(self, tokens: list[str]) -> Card:
        """The card with that code."""
        card = _CARD_CODES.get(tokens[0])
        if card is None:
            raise _Unreadable
        return card


@dataclass(frozen=True, slots=True)
class Maybe(Codec[T | None]):
    """A value of ``inner``, or None written as ``token``."""

    inner: Codec[T]
    token: str

    def encode(self, value: T | None) -> list[str]:
        """``token`` for None, else the inner value."""
        return [self.token] if value is None else self.inner.encode(value)

    def decode(self, tokens: list[str]) -> T | None:
        """None for ``token``, else the inner value."""
        return None if tokens == [self.token] else self.inner.decode(tokens)

    def problem(self, value: T | None) -> str | None:
        """The inner value's problem."""
        return None if value is None else self.inner.problem(value)


@dataclass(frozen=True, slots=True)
class Trailing(Codec[T | None]):
    """A last field that only some forms have: absent (None) or a value of ``inner``."""

    inner: Codec[T]

    def encode(self, value: T | None) -> list[str]:
        """Nothing for None, else the inner value."""
        return [] if value is None else self.inner.encode(value)

    def decode(self, tokens: list[str]) -> T | None:
        """None when absent, else the inner value."""
        return None if not tokens else self.inner.decode(tokens)

    def problem(self, value: T | None) -> str | None:
        """The inner value's problem."""
        return None if value is None else self.inner.problem(value)


@dataclass(frozen=True, slots=True)
class Slots(Codec[tuple[Card | None, Card | None, Card | None]]):
    """Three hand slots, each a card or ``--``."""

    width: int = 3
    slot: Codec[Card | None] = field(default_factory=lambda: Maybe(CardCode(), EMPTY))

    def encode(self, value: tuple[Card | None, Card | None, Card | None]) -> list[str]:
        """One token per slot."""
        return [token for card in value for token in self.slot.encode(card)]

    def decode(self, tokens: list[str]) -> tuple[Card | None, Card | None, Card | None]:
        """The three slots."""
        one, two, three = (self.slot.decode([token]) for token in tokens)
        return (one, two, three)


@dataclass(frozen=True, slots=True)
class Ports(Codec[tuple[str, ...]]):
    """Port names as their codes joined by ``,`` (``PAR,SER``), or ``EMPTY``."""

    def encode(self, value: tuple[str, ...]) -> list[str]:
        """The codes joined, or ``EMPTY``."""
        return [",".join(PORT_CODES[port] for port in value) or EMPTY_PLATE]

    def decode(self, tokens: list[str]) -> tuple[str, ...]:
        """The port names."""
        if tokens[0] == EMPTY_PLATE:
            return ()
        codes = tokens[0].split(",")
        if len(codes) > MAX_PLATE_PORTS or any(code not in _PORT_NAMES for code in codes):
            raise _Unreadable
        return tuple(_PORT_NAMES[code] for code in codes)

    def problem(self, value: tuple[str, ...]) -> str | None:
        """A port no code names."""
        for port in value:
            if port not in PORT_CODES:
                return f"port {port!r} cannot be shown, expected one of {', '.join(PORT_CODES)}"
        return None


def wire(codec: Codec[Any]) -> dict[str, Codec[Any]]:
    """A field's metadata naming its codec: ``field(metadata=wire(Number(...)))``."""
    return {"codec": codec}


#: Fields shared by several messages.
TAG: Final = Number("tag", 0, MAX_TAG)
SEQ: Final = Number("event number", 0, SEQ_MODULUS - 1)
VERSION: Final = Number("protocol version", 1, MAX_VERSION)
COUNT_OR_NONE: Final = Maybe(Number("battery holder count", 0, MAX_COUNT), NONE)


_LAYOUTS: dict[type, tuple[tuple[str, Codec[Any]], ...]] = {}


def _layout(cls: type[_Wire]) -> tuple[tuple[str, Codec[Any]], ...]:
    """The names and codecs of a message class's fields, in order."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = tuple((item.name, item.metadata["codec"]) for item in dataclasses.fields(cls))
        _LAYOUTS[cls] = layout
    return layout


class _Wire:
    """What every message derives from its declared fields: its tokens (``args``), the
    range checks when it is made, and reading it back (``parse``).

    ``_invariant`` states a rule across fields (None: it holds).
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    WORD: ClassVar[str]
    SINCE: ClassVar[int]

    def __post_init__(self) -> None:
        for name, codec in _layout(type(self)):
            problem = codec.problem(getattr(self, name))
            if problem is not None:
                raise HostProtocolError(problem)
        rule = self._invariant()
        if rule is not None:
            raise HostProtocolError(rule)

    def _invariant(self) -> str | None:
        return None

    def args(self) -> list[str]:
        """The tokens after the first (after the tag, for a command)."""
        return [
            token
            for name, codec in _layout(type(self))
            for token in codec.encode(getattr(self, name))
        ]

    @classmethod
    def parse(cls, args: list[str]) -> Self | None:
        """Read the tokens after the first (after the tag), or None when they are wrong."""
        codecs = [codec for _, codec in _layout(cls)]
        trailing = sum(isinstance(codec, Trailing) for codec in codecs)
        needed = sum(codec.width for codec in codecs) - trailing
        extra = len(args) - needed
        if not 0 <= extra <= trailing:
            return None
        values: list[Any] = []
        at = 0
        for codec in codecs:
            width = min(extra, 1) if isinstance(codec, Trailing) else codec.width
            extra -= width if isinstance(codec, Trailing) else 0
            try:
                values.append(codec.decode(args[at : at + width]))
            except _Unreadable:
                return None
            at += width
        make: Callable[..., Self] = cls
        try:
            return make(*values)
        except HostProtocolError:
            return None


class _Sent(_Wire):
    """A reply or event: its line body is its first token and its fields."""

    __slots__ = ()

    def encode(self) -> str:
        """The line body."""
        return " ".join([self.WORD, *self.args()])


# --- host commands -------------------------------------------------------------------
#
# Every command class has WORD (its first token), SINCE (first version with it) and its
# fields with their codecs. A display command also has ``slot``: the part of the display
# it sets; commands with the same slot replace each other.


class _Shown(_Wire):
    """What every display command has: the part of the display it sets (``slot``).

    Commands with the same slot replace each other; most commands set one whole part,
    list entries (``IND``, ``PLATE``) one part per index.
    """

    __slots__ = ()

    @property
    def slot(self) -> tuple[str, int]:
        """The part of the display this command sets."""
        return (self.WORD, 0)


@dataclass(frozen=True, slots=True)
class Hello(_Wire):
    """Start a session: ``HELLO <tag> <version> <session>``."""

    version: int = field(metadata=wire(VERSION))
    session: int = field(metadata=wire(Number("session", 1, MAX_SESSION)))

    WORD: ClassVar[str] = "HELLO"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Ping(_Wire):
    """Heartbeat: ``PING <tag>``."""

    WORD: ClassVar[str] = "PING"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Resend(_Wire):
    """Ask for the stored events from ``seq`` on: ``RESEND <tag> <seq>``."""

    seq: int = field(metadata=wire(SEQ))

    WORD: ClassVar[str] = "RESEND"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Ack(_Wire):
    """The host applied event ``seq``: ``ACK <tag> <seq>``."""

    seq: int = field(metadata=wire(SEQ))

    WORD: ClassVar[str] = "ACK"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class ShowSerial(_Shown):
    """Show the serial number: ``SERIAL <tag> <serial>`` (None: ``------``)."""

    serial: str | None = field(
        metadata=wire(Maybe(Text("serial", _SERIAL, "6 characters A-Z 0-9"), NO_SERIAL))
    )

    WORD: ClassVar[str] = "SERIAL"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class ShowBatteries(_Shown):
    """Show the batteries: ``BATT <tag> <count> <holders>`` (holders None: ``-``)."""

    count: int = field(metadata=wire(Number("battery count", 0, MAX_COUNT)))
    holders: int | None = field(metadata=wire(COUNT_OR_NONE))

    WORD: ClassVar[str] = "BATT"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class ShowHolders(_Shown):
    """Show the battery holders: ``HOLDERS <tag> <aa> <d>`` (both ``-`` when unknown)."""

    aa: int | None = field(metadata=wire(Maybe(Number("AA holder count", 0, MAX_COUNT), NONE)))
    d: int | None = field(metadata=wire(Maybe(Number("D holder count", 0, MAX_COUNT), NONE)))

    WORD: ClassVar[str] = "HOLDERS"
    SINCE: ClassVar[int] = 2

    def _invariant(self) -> str | None:
        if (self.aa is None) != (self.d is None):
            return "AA and D holders are both known or both unknown"
        return None


@dataclass(frozen=True, slots=True)
class ShowIndicatorCount(_Shown):
    """How many indicators the bomb has: ``INDS <tag> <count>``."""

    count: int = field(metadata=wire(Number("indicator count", 0, MAX_COUNT)))

    WORD: ClassVar[str] = "INDS"
    SINCE: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class ShowIndicator(_Shown):
    """Indicator number ``index``: ``IND <tag> <index> <label> <flag>`` (1: lit)."""

    index: int = field(metadata=wire(Number("indicator number", 1, MAX_COUNT)))
    label: str = field(metadata=wire(Text("indicator label", _LABEL, "3 letters A-Z")))
    lit: bool = field(metadata=wire(Flag()))

    WORD: ClassVar[str] = "IND"
    SINCE: ClassVar[int] = 2

    @property
    def slot(self) -> tuple[str, int]:
        """The part of the display this command sets."""
        return (self.WORD, self.index)


@dataclass(frozen=True, slots=True)
class ShowPlateCount(_Shown):
    """How many port plates the bomb has: ``PLATES <tag> <count>``."""

    count: int = field(metadata=wire(Number("port plate count", 0, MAX_COUNT)))

    WORD: ClassVar[str] = "PLATES"
    SINCE: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class ShowPlate(_Shown):
    """Port plate number ``index``: ``PLATE <tag> <index> <ports>``.

    ``ports`` are edgework port names in the plate's order; the wire carries their
    codes joined by ``,`` (``PAR,SER``), or ``EMPTY`` for an empty plate.
    """

    index: int = field(metadata=wire(Number("port plate number", 1, MAX_COUNT)))
    ports: tuple[str, ...] = field(metadata=wire(Ports()))

    WORD: ClassVar[str] = "PLATE"
    SINCE: ClassVar[int] = 2

    def _invariant(self) -> str | None:
        if len(self.ports) > MAX_PLATE_PORTS:
            return (
                f"port plate {self.index} has {len(self.ports)} ports, "
                f"expected at most {MAX_PLATE_PORTS}"
            )
        return None

    @property
    def slot(self) -> tuple[str, int]:
        """The part of the display this command sets."""
        return (self.WORD, self.index)


@dataclass(frozen=True, slots=True)
class ShowTop(_Shown):
    """Show the discard top: ``TOP <tag> <card>`` (None: ``--``)."""

    card: Card | None = field(metadata=wire(Maybe(CardCode(), EMPTY)))

    WORD: ClassVar[str] = "TOP"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class ShowHand(_Shown):
    """Show hand slots 1-3: ``HAND <tag> <card> <card> <card>`` (None: ``--``)."""

    slots: tuple[Card | None, Card | None, Card | None] = field(metadata=wire(Slots()))

    WORD: ClassVar[str] = "HAND"
    SINCE: ClassVar[int] = 1

    @classmethod
    def of(cls, hand: tuple[Card, ...] | list[Card]) -> ShowHand:
        """The hand command for up to three cards, packed left."""
        if len(hand) > 3:
            raise HostProtocolError(f"hand {list(map(str, hand))} has more than 3 cards")
        padded = [*hand, None, None, None]
        return cls((padded[0], padded[1], padded[2]))


@dataclass(frozen=True, slots=True)
class ShowStrikes(_Shown):
    """Show the strike count: ``STRIKES <tag> <n>`` (the host sends 99 for 99 or more)."""

    count: int = field(metadata=wire(Number("strike count", 0, MAX_COUNT)))

    WORD: ClassVar[str] = "STRIKES"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class ShowLimit(_Shown):
    """The strike limit: ``LIMIT <tag> <n>`` (0: the bomb never explodes by strikes)."""

    limit: int = field(metadata=wire(Number("strike limit", 0, MAX_COUNT)))

    WORD: ClassVar[str] = "LIMIT"
    SINCE: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class ShowTimer(_Shown):
    """The bomb timer: ``TIMER <tag> <ms> <rate>``.

    ``ms`` is the time left in milliseconds (None: no timer, sent as ``-`` with rate 0);
    ``rate`` is how fast it runs in thousandths of real time (1000 normal, 1250 after
    one strike, 0 stopped).
    """

    ms: int | None = field(
        metadata=wire(Maybe(Number("timer milliseconds", 0, MAX_TIMER_MS), NONE))
    )
    rate: int = field(metadata=wire(Number("timer rate", 0, MAX_RATE)))

    WORD: ClassVar[str] = "TIMER"
    SINCE: ClassVar[int] = 2

    def _invariant(self) -> str | None:
        return "no timer (-) runs at rate 0" if self.ms is None and self.rate else None


@dataclass(frozen=True, slots=True)
class ShowGame(_Shown):
    """How the bomb stands: ``GAME <tag> PLAYING|SOLVED|EXPLODED|TIMEOUT``."""

    state: GameState = field(metadata=wire(EnumChoice(GameState)))

    WORD: ClassVar[str] = "GAME"
    SINCE: ClassVar[int] = 2


@dataclass(frozen=True, slots=True)
class ShowSolved(_Shown):
    """Show whether the module is solved: ``SOLVED <tag> 0|1``."""

    solved: bool = field(metadata=wire(Flag()))

    WORD: ClassVar[str] = "SOLVED"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class PlaySound(_Wire):
    """Play a sound once: ``SOUND <tag> <number> <cue>``.

    The number makes a repeat harmless: a prop plays a ``SOUND`` whose number differs
    from the last one it played in this session, and ignores one with the same number.
    """

    number: int = field(metadata=wire(Number("sound number", 0, SEQ_MODULUS - 1)))
    cue: Cue = field(metadata=wire(EnumChoice(Cue)))

    WORD: ClassVar[str] = "SOUND"
    SINCE: ClassVar[int] = 2


DisplayCommand = (
    ShowSerial | ShowBatteries | ShowHolders | ShowIndicatorCount | ShowIndicator
    | ShowPlateCount | ShowPlate | ShowTop | ShowHand | ShowStrikes | ShowLimit | ShowTimer
    | ShowGame | ShowSolved
)
Command = Hello | Ping | Resend | Ack | PlaySound | DisplayCommand


# --- prop replies --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hi(_Sent):
    """Answer to ``HELLO``: ``HI <tag> <version> <seq> <firmware>`` and, from version 2,
    ``<prior>``: the prop's session before this ``HELLO`` (0: none since it started).
    """

    tag: int = field(metadata=wire(TAG))
    version: int = field(metadata=wire(VERSION))
    seq: int = field(metadata=wire(SEQ))
    firmware: str = field(
        metadata=wire(Text("firmware name", _FIRMWARE, f"1-{MAX_FIRMWARE} of A-Z a-z 0-9 . _ -"))
    )
    prior: int | None = field(
        default=None, metadata=wire(Trailing(Number("prior session", 0, MAX_SESSION)))
    )

    WORD: ClassVar[str] = "HI"
    SINCE: ClassVar[int] = 1

    def _invariant(self) -> str | None:
        if (self.version >= 2) != (self.prior is not None):
            return "HI has <prior> from version 2 on, and only then"
        return None


@dataclass(frozen=True, slots=True)
class Pong(_Sent):
    """Answer to ``PING``: ``PONG <tag> <session> <seq> <bad lines>``."""

    tag: int = field(metadata=wire(TAG))
    session: int = field(metadata=wire(Number("session", 0, MAX_SESSION)))
    seq: int = field(metadata=wire(SEQ))
    bad_lines: int = field(metadata=wire(Number("bad-line count", 0, MAX_BAD_LINES)))

    WORD: ClassVar[str] = "PONG"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Ok(_Sent):
    """A command was done: ``OK <tag>``."""

    tag: int = field(metadata=wire(TAG))

    WORD: ClassVar[str] = "OK"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Err(_Sent):
    """A command was refused: ``ERR <tag> <code>`` or ``ERR <tag> VERSION <v>``.

    ``tag`` is None for ``ERR - ARGS`` (the command's tag was unreadable).
    """

    tag: int | None = field(metadata=wire(Maybe(TAG, NONE)))
    code: ErrorCode = field(metadata=wire(EnumChoice(ErrorCode)))
    version: int | None = field(default=None, metadata=wire(Trailing(VERSION)))

    WORD: ClassVar[str] = "ERR"
    SINCE: ClassVar[int] = 1

    def _invariant(self) -> str | None:
        if (self.code is ErrorCode.VERSION) != (self.version is not None):
            return "ERR VERSION needs a version, and only it takes one"
        return None


# --- prop events ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ButtonPressed(_Sent):
    """A debounced press: ``BTN <seq> <button>`` and, from version 2, ``<session>``:
    the prop's session when the button was pressed (0: none).
    """

    seq: int = field(metadata=wire(SEQ))
    button: Button = field(metadata=wire(EnumChoice(Button)))
    session: int | None = field(
        default=None, metadata=wire(Trailing(Number("session", 0, MAX_SESSION)))
    )

    WORD: ClassVar[str] = "BTN"
    SINCE: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Boot(_Sent):
    """The firmware has just started: ``BOOT <version>`` (the newest it speaks)."""

    version: int = field(metadata=wire(VERSION))

    WORD: ClassVar[str] = "BOOT"
    SINCE: ClassVar[int] = 1


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

#: Display command classes in re-send order.
DISPLAY_ORDER: Final[tuple[type[DisplayCommand], ...]] = tuple(
    spec.cls for spec in MESSAGES if spec.display
)


def words(kind: MessageKind, version: int = PROTOCOL_VERSION) -> list[str]:
    """The first tokens of ``kind`` that ``version`` has, in table order."""
    return [spec.word for spec in MESSAGES if spec.kind is kind and spec.since <= version]


def display_rank(command: DisplayCommand) -> tuple[int, int]:
    """Where ``command`` comes in a full re-send."""
    return (DISPLAY_ORDER.index(type(command)), command.slot[1])


def encode_command(command: Command, tag: int) -> str:
    """The line body for ``command`` sent with ``tag``."""
    problem = TAG.problem(tag)
    if problem is not None:
        raise HostProtocolError(problem)
    return " ".join([command.WORD, str(tag), *command.args()])


def decode_command(body: str, version: int = PROTOCOL_VERSION) -> tuple[str, Command]:
    """Read a host command line body in ``version``; return its tag text and the command.

    Raises :class:`CommandRejected` with the ``ERR`` code a prop answers, checking in
    the documented order: tag, first token (a command of ``version``), arguments.
    """
    tokens = body.split(" ")
    tag = tokens[1] if len(tokens) > 1 else None
    if tag is None or _number(tag, 0, MAX_TAG) is None:
        raise CommandRejected(
            f"command {body!r} has no valid tag", tag=None, code=ErrorCode.ARGS
        )
    spec = _BY_WORD.get(tokens[0])
    if spec is None or spec.kind is not MessageKind.COMMAND or spec.since > version:
        raise CommandRejected(
            f"command {tokens[0]!r} is not known in version {version}",
            tag=tag,
            code=ErrorCode.UNKNOWN,
        )
    parser: Callable[[list[str]], Command | None] = spec.cls.parse
    command = parser(tokens[2:])
    if command is None:
        raise CommandRejected(
            f"command {body!r} has wrong arguments", tag=tag, code=ErrorCode.ARGS
        )
    return tag, command


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
