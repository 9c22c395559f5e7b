"""The module's log lines, word for word: one formatting function per message.

The real module writes ``[Exploding Mittens #<id>] <message>`` lines to the game's log
(see the spec's "Commands and log lines"). Each message is one frozen dataclass
(:data:`Message` is their union) holding the values the line carries; ``text()`` writes
it and :func:`parse` reads a message back into its class, once, with the patterns in
:data:`MESSAGE_PATTERNS`, which are built from the same templates, so writing and
reading can never drift apart. The simulator writes its log with the one-call
formatters (:func:`drew`, ...); readers (the log checker, the follower) match on the
message classes. Messages carry the message only; :func:`line` adds the prefix.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, ClassVar, Final

from edgework import Card, CardType, InvalidCardError, MisuseError, RuleLetter, TableLetter

PREFIX_TEMPLATE: Final = "[Exploding Mittens #{module_id}] "

#: The ordinal words of the blocked-discard lines, slot 1..3, with their exclamations.
SLOT_EXCLAMATIONS: Final[tuple[tuple[str, str], ...]] = (
    ("first", "Woah!"),
    ("second", "Wow!"),
    ("third", "Wacky!"),
)

#: Every message template, keyed by a short name. ``{face}`` is ``<colour> <shape>`` in
#: lower case, ``{type}`` a card type's own name, ``{rule}`` a letter A-L.
TEMPLATES: Final[dict[str, str]] = {
    "table": "You should use Table {table}.",
    "initial_discard": "The card on the discard pile is a {face}, which is a(n) {type} card.",
    "rule": "The rule used is {rule}.",
    "hand_card": "Card #{n} is a {face}, which is a(n) {type} card.",
    "drew": "You drew a {face}, which is a(n) {type} card.",
    "mitten_coming": "(The Exploding Mitten is coming in {k} draws.)",
    "draw_mitten_strike": "You were going to draw an Exploding Mitten. Strike!",
    "hand_full_strike": "Your hand was full. Strike!",
    "discarded": "You discarded a {face}, which is a(n) {type} card.",
    "rule_now": "The rule used now is {rule}.",
    "discard_blocked": "You tried to click on the discard pile, but you still could've played:",
    "blocking_slot": "... the {ordinal} card! {exclamation}",
    "strike": "Strike!",
    "played": "You played a {face}, which is a(n) {type} card.",
    "invalid_play": "The {face} card was invalid. Strike!",
    "solved": (
        "You played a Defuse card when an Exploding Mitten was at the top of the deck. "
        "Module solved!"
    ),
}


def line(module_id: int, message: str) -> str:
    """The full log line: ``[Exploding Mittens #<id>] <message>``."""
    return _prefix(module_id) + message


@functools.cache
def _prefix(module_id: int) -> str:
    return PREFIX_TEMPLATE.format(module_id=module_id)


# --------------------------------------------------------------------------- messages
#
# One frozen dataclass per template: its fields are the values the line carries (cards,
# card types, numbers, letters), ``text()`` writes it word for word and :func:`parse`
# reads it back. Readers match on the class, never on a name.


@dataclass(frozen=True, slots=True)
class TableMessage:
    """Start-up, first line: which of Tables A-D the serial number selects."""

    name: ClassVar[str] = "table"
    table: TableLetter

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(table=self.table)


@dataclass(frozen=True, slots=True)
class OpeningDiscardMessage:
    """Start-up: the discard pile's first card and its type."""

    name: ClassVar[str] = "initial_discard"
    card: Card
    kind: CardType

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(face=self.card.words, type=self.kind.value)


@dataclass(frozen=True, slots=True)
class RuleMessage:
    """The rule in force, at start-up and after every successful play."""

    name: ClassVar[str] = "rule"
    rule: RuleLetter

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(rule=self.rule)


@dataclass(frozen=True, slots=True)
class HandCardMessage:
    """Start-up: hand card number ``n`` (1-3) and its type."""

    name: ClassVar[str] = "hand_card"
    n: int
    card: Card
    kind: CardType

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(n=self.n, face=self.card.words, type=self.kind.value)


@dataclass(frozen=True, slots=True)
class DrewMessage:
    """A successful draw: the card that went into the hand."""

    name: ClassVar[str] = "drew"
    card: Card
    kind: CardType

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(face=self.card.words, type=self.kind.value)


@dataclass(frozen=True, slots=True)
class MittenComingMessage:
    """After every deal: ``k`` is deals until the mitten is on top, plus one.

    ``k == 1`` means the mitten is on top now; right after the mitten itself was
    discarded the module writes 0.
    """

    name: ClassVar[str] = "mitten_coming"
    k: int

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(k=self.k)


@dataclass(frozen=True, slots=True)
class DrawMittenStrikeMessage:
    """A draw struck because the Exploding Mitten is on top of the deck."""

    name: ClassVar[str] = "draw_mitten_strike"

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name]


@dataclass(frozen=True, slots=True)
class HandFullStrikeMessage:
    """A draw struck because the hand already holds three cards."""

    name: ClassVar[str] = "hand_full_strike"

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name]


@dataclass(frozen=True, slots=True)
class DiscardedMessage:
    """A successful discard: the deck's top card went onto the discard pile."""

    name: ClassVar[str] = "discarded"
    card: Card
    kind: CardType

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(face=self.card.words, type=self.kind.value)


@dataclass(frozen=True, slots=True)
class RuleNowMessage:
    """After a successful discard: the rule now in force."""

    name: ClassVar[str] = "rule_now"
    rule: RuleLetter

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(rule=self.rule)


@dataclass(frozen=True, slots=True)
class DiscardBlockedMessage:
    """A blocked discard, first line; the blocking slots and ``Strike!`` follow."""

    name: ClassVar[str] = "discard_blocked"

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name]


@dataclass(frozen=True, slots=True)
class BlockingSlotMessage:
    """A blocked discard: one line per slot (1-3) that could have been played.

    ``exclamation`` is the one the line carries (the module's is the slot's own, see
    :data:`SLOT_EXCLAMATIONS`; a tampered line may carry another).
    """

    name: ClassVar[str] = "blocking_slot"
    slot: int
    exclamation: str

    def text(self) -> str:
        """The message as the module writes it."""
        ordinal = SLOT_EXCLAMATIONS[self.slot - 1][0]
        return TEMPLATES[self.name].format(ordinal=ordinal, exclamation=self.exclamation)


@dataclass(frozen=True, slots=True)
class StrikeMessage:
    """A blocked discard, last line."""

    name: ClassVar[str] = "strike"

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name]


@dataclass(frozen=True, slots=True)
class PlayedMessage:
    """A successful play: the card that became the discard top."""

    name: ClassVar[str] = "played"
    card: Card
    kind: CardType

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(face=self.card.words, type=self.kind.value)


@dataclass(frozen=True, slots=True)
class InvalidPlayMessage:
    """A play struck because the rule in force does not admit the card."""

    name: ClassVar[str] = "invalid_play"
    card: Card

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name].format(face=self.card.words)


@dataclass(frozen=True, slots=True)
class SolvedMessage:
    """A Defuse played with the mitten on top: the module is solved."""

    name: ClassVar[str] = "solved"

    def text(self) -> str:
        """The message as the module writes it."""
        return TEMPLATES[self.name]


#: Every message the module writes, one class per template.
Message = (
    TableMessage | OpeningDiscardMessage | RuleMessage | HandCardMessage | DrewMessage
    | MittenComingMessage | DrawMittenStrikeMessage | HandFullStrikeMessage
    | DiscardedMessage | RuleNowMessage | DiscardBlockedMessage | BlockingSlotMessage
    | StrikeMessage | PlayedMessage | InvalidPlayMessage | SolvedMessage
)

#: The message classes in template order.
MESSAGE_TYPES: Final[tuple[type[Message], ...]] = (
    TableMessage, OpeningDiscardMessage, RuleMessage, HandCardMessage, DrewMessage,
    MittenComingMessage, DrawMittenStrikeMessage, HandFullStrikeMessage, DiscardedMessage,
    RuleNowMessage, DiscardBlockedMessage, BlockingSlotMessage, StrikeMessage,
    PlayedMessage, InvalidPlayMessage, SolvedMessage,
)


# The one-call formatters. A line depends on nothing but its arguments (a few dozen
# values in all), so each is written once and then looked up: the simulator writes two
# or three lines on every click.


@functools.cache
def table(letter: TableLetter) -> str:
    """Start-up, first line: which of Tables A-D the serial number selects."""
    return TableMessage(letter).text()


@functools.cache
def initial_discard(card: Card, kind: CardType) -> str:
    """Start-up: the discard pile's first card and its type."""
    return OpeningDiscardMessage(card, kind).text()


@functools.cache
def rule(letter: RuleLetter) -> str:
    """The rule in force, at start-up and after every successful play."""
    return RuleMessage(letter).text()


@functools.cache
def hand_card(n: int, card: Card, kind: CardType) -> str:
    """Start-up: hand card number ``n`` (1-3) and its type."""
    return HandCardMessage(n, card, kind).text()


@functools.cache
def drew(card: Card, kind: CardType) -> str:
    """A successful draw: the card that went into the hand."""
    return DrewMessage(card, kind).text()


@functools.cache
def mitten_coming(k: int) -> str:
    """After every deal (see :class:`MittenComingMessage`)."""
    return MittenComingMessage(k).text()


@functools.cache
def draw_mitten_strike() -> str:
    """A draw struck because the Exploding Mitten is on top of the deck."""
    return DrawMittenStrikeMessage().text()


@functools.cache
def hand_full_strike() -> str:
    """A draw struck because the hand already holds three cards."""
    return HandFullStrikeMessage().text()


@functools.cache
def discarded(card: Card, kind: CardType) -> str:
    """A successful discard: the deck's top card went onto the discard pile."""
    return DiscardedMessage(card, kind).text()


@functools.cache
def rule_now(letter: RuleLetter) -> str:
    """After a successful discard: the rule now in force."""
    return RuleNowMessage(letter).text()


@functools.cache
def discard_blocked() -> str:
    """A blocked discard, first line; the blocking slots and ``Strike!`` follow."""
    return DiscardBlockedMessage().text()


@functools.cache
def blocking_slot(slot: int) -> str:
    """A blocked discard: one line per slot (1-3) that could have been played."""
    return BlockingSlotMessage(slot, SLOT_EXCLAMATIONS[slot - 1][1]).text()


@functools.cache
def strike() -> str:
    """A blocked discard, last line."""
    return StrikeMessage().text()


@functools.cache
def played(card: Card, kind: CardType) -> str:
    """A successful play: the card that became the discard top."""
    return PlayedMessage(card, kind).text()


@functools.cache
def invalid_play(card: Card) -> str:
    """A play struck because the rule in force does not admit the card."""
    return InvalidPlayMessage(card).text()


@functools.cache
def solved() -> str:
    """A Defuse played with the mitten on top: the module is solved."""
    return SolvedMessage().text()


_FIELD_PATTERNS: Final[dict[str, str]] = {
    "table": r"(?P<table>[A-D])",
    "face": r"(?P<face>(?:red|blue|green|yellow) (?:circle|heart|triangle|square))",
    "type": r"(?P<type>Nope|Yep|Defuse|Double Play|Attack|Exploding Mitten)",
    "rule": r"(?P<rule>[A-L])",
    "n": r"(?P<n>[1-3])",
    "k": r"(?P<k>\d+)",
    "ordinal": r"(?P<ordinal>first|second|third)",
    "exclamation": r"(?P<exclamation>Woah!|Wow!|Wacky!)",
}


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[a-z_]+\})", template)
    regex = "".join(
        _FIELD_PATTERNS[p[1:-1]] if p.startswith("{") and p.endswith("}") else re.escape(p)
        for p in parts
    )
    return re.compile(regex)


#: Message name -> compiled pattern matching exactly that message (use ``fullmatch``).
MESSAGE_PATTERNS: Final[dict[str, re.Pattern[str]]] = {
    name: _pattern(template) for name, template in TEMPLATES.items()
}

#: A full log line: group ``id`` is the module number, group ``message`` the rest.
LINE_PATTERN: Final[re.Pattern[str]] = re.compile(
    r"\[Exploding Mittens #(?P<id>\d+)\] (?P<message>.*)"
)


#: Which slot each blocked-discard ordinal word names.
_ORDINAL_SLOT: Final = {ordinal: i + 1 for i, (ordinal, _) in enumerate(SLOT_EXCLAMATIONS)}

#: How many messages :func:`parse` remembers: the module writes some 800 different
#: ones (a countdown up to 99), and a log repeats them all the time.
_PARSE_CACHE_SIZE: Final = 4096


@functools.lru_cache(maxsize=_PARSE_CACHE_SIZE)
def parse(message: str) -> Message | None:
    """The typed message ``message`` (without the prefix) was written as.

    Returns ``None`` for text that no template produces (a face or type that does not
    exist, a letter out of range, a changed word).
    """
    for kind in MESSAGE_TYPES:
        match = MESSAGE_PATTERNS[kind.name].fullmatch(message)
        if match is not None:
            try:
                return _build(kind, match.groupdict())
            except MisuseError:
                raise  # a bug, not text no template produces
            except (InvalidCardError, ValueError, KeyError):
                return None
    return None


def _build(kind: type[Message], raw: dict[str, str]) -> Message:
    """A message of class ``kind`` from its template's matched fields."""
    values: dict[str, object] = {}
    for key, value in raw.items():
        if key == "face":
            values["card"] = Card.parse(value)
        elif key == "type":
            values["kind"] = CardType(value)
        elif key in ("k", "n"):
            values[key] = int(value)
        elif key == "ordinal":
            values["slot"] = _ORDINAL_SLOT[value]
        elif key == "table":
            values[key] = TableLetter(value)
        elif key == "rule":
            values[key] = RuleLetter(value)
        else:
            values[key] = value
    return kind(**values)  # type: ignore[arg-type]


class LogAppender:
    """Appends a module's log lines to a text file as they are written, flushed at once.

    ``mittens play`` and ``mittens prop`` share it, so a game cut short (Ctrl-C, a lost
    prop) still leaves every line written so far on disk.
    """

    def __init__(self, file: IO[str] | None) -> None:
        self.file = file
        self.written = 0

    def flush(self, lines: Sequence[str], total: int | None = None) -> None:
        """Write the lines not yet written: ``lines`` are the latest of ``total`` lines
        written so far (all of them when ``total`` is not given), as
        :attr:`defuser.engine.simulator.Module.log` and ``log_total`` give them."""
        if self.file is None:
            return
        total = len(lines) if total is None else total
        new = total - self.written
        if new > 0:
            for line in lines[max(len(lines) - new, 0) :]:
                self.file.write(line + "\n")
        self.written = total
        self.file.flush()
