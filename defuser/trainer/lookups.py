"""Questions on the manual's lookups: ``table``, ``identify``, ``rule`` and ``legal``.

Each generator makes one question for a given skill from random vanilla edgework, and
computes the expected answer and its reason with the rules engine (:mod:`edgework`,
:mod:`defuser.engine.rules`), never by a second transcription of the tables.

Skills (:mod:`defuser.trainer.skills`): :class:`TableSkill`, :class:`CellSkill` (a Table
A-D cell), :class:`RuleSkill` (a Table E cell), :class:`LegalSkill` (a rule letter).
"""

from __future__ import annotations

import random
from typing import Final

from defuser.engine.board import Board
from defuser.engine.generate import random_serial
from defuser.trainer.answers import LegalAnswer, RuleAnswer, TableAnswer
from defuser.trainer.facts import IdentifyFacts, LegalFacts, RuleFacts, TableFacts
from defuser.trainer.model import Question
from defuser.trainer.skills import CellSkill, Kind, LegalSkill, RuleSkill, TableSkill
from edgework import (
    ALL_CARDS,
    MITTEN_RULES,
    RULE_TEXTS,
    Card,
    CardType,
    Ruleset,
    SerialNumber,
    table_traits,
)
from edgework.errors import MisuseError

#: Tries before giving up on drawing a serial with a wanted property; the rarest
#: (table A with a fixed last digit) comes up in about 1 of 30 draws.
_MAX_TRIES: Final = 10_000


def card_words(card: Card) -> str:
    """A card for a prompt: ``green triangle (GT)``."""
    return f"{card.words} ({card.code})"


def hand_words(hand: tuple[Card, ...] | list[Card]) -> str:
    """A hand for a prompt: ``1: blue heart (BH)  2: green square (GS)``."""
    return "  ".join(f"{i}: {card_words(c)}" for i, c in enumerate(hand, start=1)) or "empty"


def serial_with(
    rng: random.Random, *, table: str | None = None, digit: int | None = None
) -> SerialNumber:
    """A random vanilla serial number, optionally with a given table and last digit.

    Rejection sampling keeps the serial distributed as the game's, conditioned on the
    wanted table; the last digit is the serial's 6th character, so it is set directly.
    """
    for _ in range(_MAX_TRIES):
        text = random_serial(rng).text
        if digit is not None:
            text = text[:5] + str(digit)
        serial = SerialNumber.parse(text)
        if table is None or serial.table == table:
            return serial
    raise MisuseError(f"no vanilla serial with table {table} and digit {digit} found")


def table_reason(serial: SerialNumber) -> str:
    """Why a serial selects its table, in words (the traits as ``table_traits`` words them)."""
    traits = table_traits(serial.vowels, serial.repeated, name_the_vowels=True)
    return f"{serial.text} has {traits}: Table {serial.table}"


def cell_reason(table: str, card: Card, kind: CardType) -> str:
    """Where a card's type sits in Tables A-D."""
    return (
        f"Table {table}, row {card.shape.word}, column {card.colour.word}: {kind.value}"
    )


def rule_reason(rules: Ruleset, discard: Card) -> str:
    """How the discard top gives the rule letter: its type, then the Table E cell."""
    kind = rules.type_of(discard)
    letter = rules.rule(discard)
    return (
        f"{cell_reason(rules.table, discard, kind)}; Table E, row {kind.value}, "
        f"column {rules.last_digit} (last digit): rule {letter}: {RULE_TEXTS[letter]}"
    )


# --------------------------------------------------------------------------- generators


def table_question(rng: random.Random, skill: TableSkill) -> Question:
    """Serial number -> which of Tables A-D."""
    serial = serial_with(rng, table=skill.table)
    return Question(
        kind=Kind.TABLE,
        skill=skill,
        text=f"Serial {serial.text}. Which table, A-D?",
        facts=TableFacts(serial),
        answer=TableAnswer(serial.table),
        reason=table_reason(serial),
    )


def identify_question(rng: random.Random, skill: CellSkill) -> Question:
    """Serial number and a card -> the card's type."""
    table, card = skill.table, skill.card
    serial = serial_with(rng, table=table)
    kind = Ruleset(serial.table, serial.last_digit).type_of(card)
    return Question(
        kind=Kind.IDENTIFY,
        skill=skill,
        text=f"Serial {serial.text}, card {card_words(card)}. What type is it?",
        facts=IdentifyFacts(serial, card),
        answer=kind,
        reason=f"{table_reason(serial)}; {cell_reason(table, card, kind)}",
    )


def rule_question(rng: random.Random, skill: RuleSkill) -> Question:
    """Serial number and the discard top -> the rule letter in force."""
    kind, digit = skill.card_type, skill.digit
    serial = serial_with(rng, digit=digit)
    rules = Ruleset(serial.table, serial.last_digit)
    discard = rng.choice([c for c in ALL_CARDS if rules.type_of(c) is kind])
    letter = rules.rule(discard)
    return Question(
        kind=Kind.RULE,
        skill=skill,
        text=f"Serial {serial.text}, discard pile {card_words(discard)}. Which rule, A-L?",
        facts=RuleFacts(serial, discard),
        answer=RuleAnswer(letter),
        reason=f"{table_reason(serial)}; {rule_reason(rules, discard)}",
        rule=letter,
    )


def _random_hand(rng: random.Random, rules: Ruleset) -> list[Card]:
    """A hand as play produces them: mostly plain cards, sometimes a Defuse.

    Defuse faces show up often enough to train the lone-legal-Defuse exemption; a
    mitten face (possible only from the start-up re-roll) now and then.
    """
    size = rng.choices((1, 2, 3), weights=(2, 3, 5))[0]
    hand: list[Card] = []
    for _ in range(size):
        roll = rng.random()
        if roll < 0.2:
            hand.append(rng.choice(rules.defuse_faces))
        elif roll < 0.23:
            hand.append(rules.mitten)
        else:
            hand.append(rng.choice(rules.plain_faces))
    return hand


def legal_answer(rules: Ruleset, discard: Card, hand: list[Card]) -> LegalAnswer:
    """The expected answer to a ``legal`` question, from the rulebook
    (:class:`~defuser.engine.board.Board`)."""
    board = Board(rules, discard, tuple(hand))
    return LegalAnswer(board.legal_slots, board.discard_allowed)


def legal_reason(rules: Ruleset, discard: Card, hand: list[Card]) -> str:
    """Which cards the rule admits and why discarding is or is not allowed."""
    letter = rules.rule(discard)
    text = rule_reason(rules, discard).rstrip(".")
    if letter in MITTEN_RULES:
        text += f" (the Exploding Mitten card is {card_words(rules.mitten)})"
    board = Board(rules, discard, tuple(hand))
    slots, blocking = board.legal_slots, board.blocking_slots
    if slots:
        listed = ", ".join(f"{s} ({hand[s - 1].code})" for s in slots)
        text += f". Legal: slot{'s' if len(slots) > 1 else ''} {listed}"
    else:
        text += ". No card in hand is legal"
    if blocking:
        text += ", so discarding would strike"
    elif slots:
        text += (
            "; a lone legal Defuse never blocks the discard pile, so you may discard"
        )
    else:
        text += ", so you may discard"
    return text + "."


def legal_question(rng: random.Random, skill: LegalSkill) -> Question:
    """Serial, discard top and hand -> the legal slots, and whether discarding is allowed."""
    letter = skill.letter
    for _ in range(_MAX_TRIES):
        serial = serial_with(rng)
        rules = Ruleset(serial.table, serial.last_digit)
        discards = [c for c in ALL_CARDS if rules.rule(c) == letter]
        if discards:
            break
    else:
        raise MisuseError(f"no vanilla serial gives rule {letter}")
    discard = rng.choice(discards)
    hand = _random_hand(rng, rules)
    answer = legal_answer(rules, discard, hand)
    return Question(
        kind=Kind.LEGAL,
        skill=skill,
        text=(
            f"Serial {serial.text}, discard pile {card_words(discard)}, hand "
            f"{hand_words(hand)}. Which slots are legal, and may you discard?"
        ),
        facts=LegalFacts(serial, discard, tuple(hand)),
        answer=answer,
        reason=legal_reason(rules, discard, hand),
        rule=letter,
    )
