"""What a drill question shows, as typed values: its *facts*.

Contract: every kind of question has one frozen dataclass of facts (a serial number as a
:class:`~edgework.SerialNumber`, cards as :class:`~edgework.Card`, a hand as a tuple of
cards, slots as ints, the deals seen as :data:`DealRecord` values), and
:data:`QuestionFacts` is their union. JSON is made only at the boundaries: ``to_json``
gives the object a script reads beside the question's text (``mittens drill --json``,
the stored question in the stats database, a saved drill state, the web page's JSON),
with the same keys in the same order as ever, and :func:`facts_from_json` reads it back
into equal facts (a value of the wrong shape raises ``KeyError``, ``TypeError``,
``ValueError`` or :class:`~edgework.EdgeworkError`). A stored question of any version is
read by :func:`stored_pile`, which asks it only for its serial number and discard pile
and takes whatever it cannot read for a question without them.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from defuser.engine.events import Discarded, Drew
from defuser.errors import DefuserError
from defuser.trainer.skills import Kind
from edgework import Card, CardType, Edgework, EdgeworkError, SerialNumber

# --------------------------------------------------------------------------- deals seen


@dataclass(frozen=True, slots=True)
class DealSeen:
    """Deal number ``deal`` of the game: the engine's :class:`~defuser.engine.events.Drew`
    or :class:`~defuser.engine.events.Discarded` event, and the dealt card's type under
    the module's table."""

    deal: int
    event: Drew | Discarded
    type: CardType

    def to_json(self) -> dict[str, Any]:
        """``{"deal": 3, "action": "discard", "card": "RH", "type": "Exploding Mitten"}``."""
        return {
            "deal": self.deal,
            "action": self.event.action.kind.value,
            "card": self.event.card.code,
            "type": self.type.value,
        }


@dataclass(frozen=True, slots=True)
class DrawStruck:
    """A draw that struck, with ``hand`` cards in hand then."""

    hand: int

    def to_json(self) -> dict[str, Any]:
        """``{"strike": "draw", "hand": 2}``."""
        return {"strike": "draw", "hand": self.hand}


#: What the trainer's player saw of the deck: a deal, or a draw that struck.
DealRecord = DealSeen | DrawStruck


def deal_from_json(obj: Mapping[str, Any]) -> DealRecord:
    """The deal or draw strike :meth:`DealSeen.to_json` or :meth:`DrawStruck.to_json`
    wrote."""
    if "strike" in obj:
        if obj["strike"] != "draw":
            raise DefuserError(f"a strike in the deals seen is {obj['strike']!r}, not a draw")
        return DrawStruck(int(obj["hand"]))
    card = Card.parse(str(obj["card"]))
    action = str(obj["action"])
    event: Drew | Discarded
    if action == "draw":
        event = Drew(card)
    elif action == "discard":
        event = Discarded(card)
    else:
        raise DefuserError(f"a deal in the deals seen is a {action!r}, not a draw or discard")
    return DealSeen(int(obj["deal"]), event, CardType(obj["type"]))


def _cards(codes: Any) -> tuple[Card, ...]:
    return tuple(Card.parse(str(code)) for code in codes)


# --------------------------------------------------------------------------- lookups


@dataclass(frozen=True, slots=True)
class TableFacts:
    """A ``table`` question: the serial number."""

    serial: SerialNumber

    def to_json(self) -> dict[str, Any]:
        """``{"serial": ...}``."""
        return {"serial": self.serial.text}


@dataclass(frozen=True, slots=True)
class IdentifyFacts:
    """An ``identify`` question: the serial number and the card whose type is asked."""

    serial: SerialNumber
    card: Card

    def to_json(self) -> dict[str, Any]:
        """``{"serial": ..., "card": "RC"}``."""
        return {"serial": self.serial.text, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """A ``rule`` question: the serial number and the discard pile's top card."""

    serial: SerialNumber
    discard: Card

    def to_json(self) -> dict[str, Any]:
        """``{"serial": ..., "discard": "RC"}``."""
        return {"serial": self.serial.text, "discard": self.discard.code}


@dataclass(frozen=True, slots=True)
class LegalFacts:
    """A ``legal`` question: the serial number, the discard pile's top and the hand."""

    serial: SerialNumber
    discard: Card
    hand: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"serial": ..., "discard": "RC", "hand": ["BH", "GS"]}``."""
        return {"serial": self.serial.text, "discard": self.discard.code,
                "hand": [c.code for c in self.hand]}


# --------------------------------------------------------------------------- situations


class CycleAsk(enum.StrEnum):
    """What a ``cycle`` question asks: the deals until the mitten is on top (when the
    player can know them), or the chance it is on top now."""

    DEALS = "deals"
    PROBABILITY = "probability"


@dataclass(frozen=True, slots=True)
class CycleFacts:
    """A ``cycle`` question: the serial number, the battery count, N, every deal and
    draw strike seen, and what is asked."""

    serial: SerialNumber
    batteries: int
    interval: int
    history: tuple[DealRecord, ...]
    asks: CycleAsk

    def to_json(self) -> dict[str, Any]:
        """The facts as the JSON object beside the question's text."""
        return {"serial": self.serial.text, "batteries": self.batteries,
                "interval": self.interval, "history": [e.to_json() for e in self.history],
                "asks": self.asks.value}


@dataclass(frozen=True, slots=True)
class DecideFacts:
    """A ``decide`` question: the serial number, the battery count, N, the deals seen,
    the discard pile's top, the hand, and the slots holding a Defuse (so ``defuse``
    reads as a click when there is one)."""

    serial: SerialNumber
    batteries: int
    interval: int
    history: tuple[DealRecord, ...]
    discard: Card
    hand: tuple[Card, ...]
    defuse_slots: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The facts as the JSON object beside the question's text."""
        return {"serial": self.serial.text, "batteries": self.batteries,
                "interval": self.interval, "history": [e.to_json() for e in self.history],
                "discard": self.discard.code, "hand": [c.code for c in self.hand],
                "defuse_slots": list(self.defuse_slots)}


@dataclass(frozen=True, slots=True)
class GameFacts(DecideFacts):
    """A click of ``--mode game``: a decision on the game's module, with the module's
    ``seed`` and the ``strikes`` so far."""

    seed: int
    strikes: int

    @classmethod
    def of(cls, decision: DecideFacts, *, seed: int, strikes: int) -> GameFacts:
        """The facts of ``decision`` on the game's module of ``seed``, with ``strikes``."""
        return cls(decision.serial, decision.batteries, decision.interval,
                   decision.history, decision.discard, decision.hand, decision.defuse_slots,
                   seed, strikes)

    def to_json(self) -> dict[str, Any]:
        """The decision's facts, then ``seed`` and ``strikes``."""
        return {**DecideFacts.to_json(self), "seed": self.seed, "strikes": self.strikes}


@dataclass(frozen=True, slots=True)
class WidgetFacts:
    """An ``edge`` question: the whole edge whose widgets are drawn."""

    edgework: Edgework

    def to_json(self) -> dict[str, Any]:
        """The edge in the edgework notation, and its serial number, battery count and
        battery holders."""
        edge = self.edgework
        assert edge.serial is not None and edge.batteries is not None
        return {"edgework": str(edge), "serial": edge.serial.text,
                "batteries": edge.batteries.count, "holders": edge.batteries.holders}


#: The facts of any question.
QuestionFacts = (
    TableFacts | IdentifyFacts | RuleFacts | LegalFacts | CycleFacts | DecideFacts
    | WidgetFacts
)


# --------------------------------------------------------------------------- reading


def _serial(obj: Mapping[str, Any]) -> SerialNumber:
    return SerialNumber.parse(str(obj["serial"]), strict=False)


def _decide(obj: Mapping[str, Any]) -> DecideFacts:
    fields = (
        _serial(obj), int(obj["batteries"]), int(obj["interval"]),
        tuple(deal_from_json(e) for e in obj["history"]), Card.parse(str(obj["discard"])),
        _cards(obj["hand"]), tuple(int(s) for s in obj["defuse_slots"]),
    )
    if "seed" in obj:
        return GameFacts(*fields, seed=int(obj["seed"]), strikes=int(obj["strikes"]))
    return DecideFacts(*fields)


def facts_from_json(kind: Kind, obj: Mapping[str, Any]) -> QuestionFacts:
    """The facts of a question of ``kind`` that ``to_json`` wrote (a ``decide``
    question with a ``seed`` is a click of a game)."""
    if kind is Kind.TABLE:
        return TableFacts(_serial(obj))
    if kind is Kind.IDENTIFY:
        return IdentifyFacts(_serial(obj), Card.parse(str(obj["card"])))
    if kind is Kind.RULE:
        return RuleFacts(_serial(obj), Card.parse(str(obj["discard"])))
    if kind is Kind.LEGAL:
        return LegalFacts(_serial(obj), Card.parse(str(obj["discard"])), _cards(obj["hand"]))
    if kind is Kind.CYCLE:
        return CycleFacts(_serial(obj), int(obj["batteries"]), int(obj["interval"]),
                          tuple(deal_from_json(e) for e in obj["history"]),
                          CycleAsk(obj["asks"]))
    if kind is Kind.DECIDE:
        return _decide(obj)
    return WidgetFacts(Edgework.parse(str(obj["edgework"])))


def stored_pile(question: str) -> tuple[SerialNumber, Card] | None:
    """A stored question's serial number and discard pile, or ``None`` when it has
    none (or is not a question this version can read: any version's stored question is
    its text and facts as one JSON object). Only the stored text's faults are caught:
    a misuse of the parsers passes through."""
    try:
        facts = json.loads(question)
    except json.JSONDecodeError:
        return None
    if not isinstance(facts, dict):
        return None
    serial, discard = facts.get("serial"), facts.get("discard")
    if not isinstance(serial, str) or not isinstance(discard, str):
        return None
    try:
        return SerialNumber.parse(serial, strict=False), Card.parse(discard)
    except EdgeworkError:
        return None
