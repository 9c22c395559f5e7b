"""Drill answers: their typed values and forgiving readers, in the short notation of
``mittens live``.

Every question's expected answer is one :data:`Answer` value (a table or rule letter,
a card type, the legal slots, an action, a count, a probability), whose ``str`` is the
answer in the drill notation: what is shown, stored and read back the same way. Each
reader takes the text a player typed and returns a canonical value, or raises
:class:`UnreadableAnswer` with a message naming the input and the expected notation.
Case, surrounding and repeated spaces, commas and a leading word naming what is asked
(``table B``, ``rule L``) are all accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from defuser.engine.actions import Action
from defuser.engine.rules import HAND_SIZE
from defuser.errors import DefuserError
from edgework import RULE_LETTERS, TABLE_LETTERS, CardType, RuleLetter, TableLetter


class UnreadableAnswer(DefuserError):
    """An answer could not be read in the notation of its question."""


@dataclass(frozen=True, slots=True)
class TableAnswer:
    """A table letter, A-D."""

    letter: TableLetter

    def __str__(self) -> str:
        return self.letter


@dataclass(frozen=True, slots=True)
class RuleAnswer:
    """A rule letter, A-L."""

    letter: RuleLetter

    def __str__(self) -> str:
        return self.letter


@dataclass(frozen=True, slots=True)
class CountAnswer:
    """A whole number: deals until the mitten is on top, batteries, the interval N."""

    count: int

    def __str__(self) -> str:
        return str(self.count)


@dataclass(frozen=True, slots=True)
class ProbabilityAnswer:
    """An exact probability (shown as a fraction, ``1/5``)."""

    probability: Fraction

    def __str__(self) -> str:
        return str(self.probability)


def _words(text: str) -> list[str]:
    return text.replace(",", " ").replace(";", " ").lower().split()


def read_letter(text: str, letters: tuple[str, ...], what: str) -> str:
    """One letter out of ``letters``; a leading ``what`` word is allowed (``rule L``)."""
    words = _words(text)
    if words and words[0] in (what, what + ":"):
        words = words[1:]
    joined = "".join(words).upper()
    if len(joined) == 1 and joined in letters:
        return joined
    raise UnreadableAnswer(
        f"answer {text.strip()!r} is not a {what} letter, expected one of "
        f"{', '.join(letters)}"
    )


def read_table(text: str) -> TableLetter:
    """A table letter A-D (``B``, ``b``, ``table b``)."""
    return TableLetter(read_letter(text, TABLE_LETTERS, "table"))


def read_rule(text: str) -> RuleLetter:
    """A rule letter A-L (``L``, ``rule l``)."""
    return RuleLetter(read_letter(text, RULE_LETTERS, "rule"))


#: Short names for the card types, beyond unique prefixes of the full names.
_TYPE_ALIASES: Final[dict[str, CardType]] = {
    "n": CardType.NOPE,
    "no": CardType.NOPE,
    "y": CardType.YEP,
    "yes": CardType.YEP,
    "dp": CardType.DOUBLE_PLAY,
    "2x": CardType.DOUBLE_PLAY,
    "double": CardType.DOUBLE_PLAY,
    "doubleplay": CardType.DOUBLE_PLAY,
    "em": CardType.EXPLODING_MITTEN,
    "m": CardType.EXPLODING_MITTEN,
    "mitten": CardType.EXPLODING_MITTEN,
    "mittens": CardType.EXPLODING_MITTEN,
    "explmitten": CardType.EXPLODING_MITTEN,
    "explodingmittens": CardType.EXPLODING_MITTEN,
    "kitten": CardType.EXPLODING_MITTEN,
    "explodingkitten": CardType.EXPLODING_MITTEN,
}


def read_type(text: str) -> CardType:
    """A card type: full name, a unique prefix (``def``, ``att``) or a short name (``dp``)."""
    key = re.sub(r"[\s._\-]+", "", text.lower())
    if key in _TYPE_ALIASES:
        return _TYPE_ALIASES[key]
    names = {t: t.value.replace(" ", "").lower() for t in CardType}
    matches = [t for t, name in names.items() if key and name.startswith(key)]
    if len(matches) == 1:
        return matches[0]
    options = "Nope, Yep, Defuse, Double Play (dp), Attack, Exploding Mitten (mitten)"
    if len(matches) > 1:
        raise UnreadableAnswer(
            f"answer {text.strip()!r} could be {' or '.join(t.value for t in matches)}, "
            f"expected one of {options}"
        )
    raise UnreadableAnswer(f"answer {text.strip()!r} is not a card type, expected one of {options}")


@dataclass(frozen=True, slots=True)
class LegalAnswer:
    """The answer to a ``legal`` question: the legal slots and whether discarding is allowed."""

    slots: tuple[int, ...]
    discard: bool

    def __str__(self) -> str:
        parts = [" ".join(str(s) for s in self.slots) or "none"]
        if self.discard:
            parts.append("discard")
        return " ".join(parts)


#: An expected answer: every kind's answer is one of these.
Answer = (
    TableAnswer | RuleAnswer | CardType | LegalAnswer | Action | CountAnswer | ProbabilityAnswer
)


_NONE_WORDS: Final = frozenset({"none", "no", "nothing", "-", "0", "x", "nil"})
_DISCARD_WORDS: Final = frozenset({"discard", "disc", "d", "dis"})


def read_legal(text: str) -> LegalAnswer:
    """Legal slots then an optional ``discard``: ``1 3``, ``13``, ``none discard``, ``2 d``.

    With no legal slot, discarding is always allowed, so ``none`` alone means
    ``none discard``.
    """
    words = _words(text)
    slots: set[int] = set()
    discard = False
    said_none = False
    for word in words:
        if word in _DISCARD_WORDS:
            discard = True
        elif word in _NONE_WORDS:
            said_none = True
        elif word.isdigit() and all(ch in "123" for ch in word):
            slots.update(int(ch) for ch in word)
        elif word in ("slot", "slots", "legal", "and", "play", "may", "can", "+"):
            continue
        else:
            raise UnreadableAnswer(
                f"answer {text.strip()!r} has {word!r}, expected slot numbers 1-"
                f"{HAND_SIZE} (or 'none') and optionally 'discard', like '1 3' or "
                "'none discard'"
            )
    if said_none and slots:
        raise UnreadableAnswer(
            f"answer {text.strip()!r} names slots and 'none', expected one or the other"
        )
    if not slots and not said_none and not discard:
        raise UnreadableAnswer(
            f"answer {text.strip()!r} is empty, expected slot numbers like '1 3', or "
            "'none discard'"
        )
    if not slots:
        discard = True
    return LegalAnswer(tuple(sorted(slots)), discard)


_ACTION_WORDS: Final[dict[str, Action]] = {
    "draw": Action.draw(),
    "dr": Action.draw(),
    "deck": Action.draw(),
    "discard": Action.discard(),
    "disc": Action.discard(),
    "dis": Action.discard(),
    "pile": Action.discard(),
}


def read_action(text: str, defuse_slots: tuple[int, ...] = ()) -> Action:
    """A module action, typed: its Twitch Plays command (``draw``, ``discard`` or
    ``play N``, whose ``str`` the action is).

    Also reads ``2``, ``p2``, ``play2``, ``!1 play 2`` and ``defuse`` (the one Defuse in
    hand, when ``defuse_slots`` names exactly one slot).
    """
    key = " ".join(text.lower().split())
    key = re.sub(r"^!\s*\d+\s+", "", key)
    if key in _ACTION_WORDS:
        return _ACTION_WORDS[key]
    match = re.fullmatch(r"(?:play|p|slot)?\s*([1-3])", key)
    if match:
        return Action.play(int(match.group(1)))
    if key in ("defuse", "play defuse", "solve"):
        if len(defuse_slots) == 1:
            return Action.play(defuse_slots[0])
        raise UnreadableAnswer(
            f"answer {text.strip()!r} is ambiguous: the hand holds "
            f"{len(defuse_slots)} Defuse cards, expected play 1, play 2 or play 3"
        )
    raise UnreadableAnswer(
        f"answer {text.strip()!r} is not an action, expected draw, discard or play 1-3"
    )


def read_count(text: str) -> int:
    """A whole number of deals (``4``, ``4 deals``)."""
    words = _words(text)
    if words and words[-1] in ("deal", "deals", "draws", "cards"):
        words = words[:-1]
    if len(words) == 1 and words[0].isdigit():
        return int(words[0])
    raise UnreadableAnswer(
        f"answer {text.strip()!r} is not a number of deals, expected a whole number like 4"
    )


def read_probability(text: str) -> Fraction:
    """A probability: ``1/5``, ``1 in 5``, ``0.2``, ``.2``, ``20%``; a bare number above 1
    is read as a percentage (``20`` is 20%)."""
    key = " ".join(text.lower().split())
    try:
        match = re.fullmatch(r"(\d+)\s*(?:/|in|out of)\s*(\d+)", key)
        if match:
            value = Fraction(int(match.group(1)), int(match.group(2)))
        elif key.endswith("%"):
            value = Fraction(key[:-1].strip()) / 100
        else:
            value = Fraction(key)
            if value > 1:
                value /= 100
    except (ValueError, ZeroDivisionError):
        value = Fraction(-1)
    if not 0 <= value <= 1:
        raise UnreadableAnswer(
            f"answer {text.strip()!r} is not a probability, expected a fraction like 1/5, "
            "a decimal like 0.2 or a percentage like 20%"
        )
    return value
