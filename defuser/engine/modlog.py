"""The module's log lines, word for word: one formatting function per message.

The real module writes ``[Exploding Mittens #<id>] <message>`` lines to the game's log
(see the spec's "Commands and log lines"). The simulator writes its log with these
functions, and the log reader parses real logs with the patterns in
:data:`MESSAGE_PATTERNS`, which are built from the same templates, so the two can never
drift apart. Each function returns the message only; :func:`line` adds the prefix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import IO, Final

from edgework import Card, CardType

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
    return PREFIX_TEMPLATE.format(module_id=module_id) + message


def table(letter: str) -> str:
    """Start-up, first line: which of Tables A-D the serial number selects."""
    return TEMPLATES["table"].format(table=letter)


def initial_discard(card: Card, kind: CardType) -> str:
    """Start-up: the discard pile's first card and its type."""
    return TEMPLATES["initial_discard"].format(face=card.words, type=kind.value)


def rule(letter: str) -> str:
    """The rule in force, at start-up and after every successful play."""
    return TEMPLATES["rule"].format(rule=letter)


def hand_card(n: int, card: Card, kind: CardType) -> str:
    """Start-up: hand card number ``n`` (1-3) and its type."""
    return TEMPLATES["hand_card"].format(n=n, face=card.words, type=kind.value)


def drew(card: Card, kind: CardType) -> str:
    """A successful draw: the card that went into the hand."""
    return TEMPLATES["drew"].format(face=card.words, type=kind.value)


def mitten_coming(k: int) -> str:
    """After every deal: ``k`` is deals until the mitten is on top, plus one.

    ``k == 1`` means the mitten is on top now; right after the mitten itself was
    discarded the module writes 0.
    """
    return TEMPLATES["mitten_coming"].format(k=k)


def draw_mitten_strike() -> str:
    """A draw struck because the Exploding Mitten is on top of the deck."""
    return TEMPLATES["draw_mitten_strike"]


def hand_full_strike() -> str:
    """A draw struck because the hand already holds three cards."""
    return TEMPLATES["hand_full_strike"]


def discarded(card: Card, kind: CardType) -> str:
    """A successful discard: the deck's top card went onto the discard pile."""
    return TEMPLATES["discarded"].format(face=card.words, type=kind.value)


def rule_now(letter: str) -> str:
    """After a successful discard: the rule now in force."""
    return TEMPLATES["rule_now"].format(rule=letter)


def discard_blocked() -> str:
    """A blocked discard, first line; the blocking slots and ``Strike!`` follow."""
    return TEMPLATES["discard_blocked"]


def blocking_slot(slot: int) -> str:
    """A blocked discard: one line per slot (1-3) that could have been played."""
    ordinal, exclamation = SLOT_EXCLAMATIONS[slot - 1]
    return TEMPLATES["blocking_slot"].format(ordinal=ordinal, exclamation=exclamation)


def strike() -> str:
    """A blocked discard, last line."""
    return TEMPLATES["strike"]


def played(card: Card, kind: CardType) -> str:
    """A successful play: the card that became the discard top."""
    return TEMPLATES["played"].format(face=card.words, type=kind.value)


def invalid_play(card: Card) -> str:
    """A play struck because the rule in force does not admit the card."""
    return TEMPLATES["invalid_play"].format(face=card.words)


def solved() -> str:
    """A Defuse played with the mitten on top: the module is solved."""
    return TEMPLATES["solved"]


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


def classify(message: str) -> tuple[str, dict[str, str]] | None:
    """Which template ``message`` (without the prefix) was written from, and its fields.

    Returns ``None`` for a message that no template produces.
    """
    for name, pattern in MESSAGE_PATTERNS.items():
        match = pattern.fullmatch(message)
        if match is not None:
            return name, match.groupdict()
    return None


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
