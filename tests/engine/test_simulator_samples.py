"""The simulator replays the ten real module logs line for line.

Each real log is read into its start (discard top, hand), its hidden first cycle and
the clicks it records. The simulator is started in that state and given a scripted
random source that hands out the real log's dealt cards, checking that each one is
among the faces the simulator would choose from at that moment. The simulator must
then write the real log again, character for character.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

from defuser.engine import modlog
from defuser.engine.actions import Action, ActionKind
from defuser.engine.deck import Hidden
from defuser.engine.simulator import Module, Outcome
from edgework import Card, CardType, Ruleset, SerialNumber, interval_for

SAMPLES = Path("/work/shared/samples/real-module-logs")
if not SAMPLES.is_dir():
    SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "samples" / "real-module-logs"

T = TypeVar("T")


def _index() -> dict[str, dict[str, Any]]:
    path = SAMPLES / "index.json"
    if not path.is_file():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(path.read_text())
    return data


INDEX = _index()


class ScriptedRandom(random.Random):
    """Hands out the real log's dealt cards and Defuse places, checking each choice.

    """

    def __init__(self, cards: list[Card], places: list[int]) -> None:
        self.cards = list(cards)
        self.places = list(places)
        self.next_card = 0
        self.next_place = 0
        super().__init__(0)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        card = self.cards[self.next_card]
        self.next_card += 1
        faces = [seq[i] for i in range(len(seq))]
        assert card in faces, f"real card {card!r} is not among the simulator's faces {faces!r}"
        return faces[faces.index(card)]  # type: ignore[arg-type]

    def randint(self, a: int, b: int) -> int:
        place = self.places[self.next_place] if self.next_place < len(self.places) else b
        self.next_place += 1
        assert a <= place <= b, f"real Defuse place {place} outside {a}..{b}"
        return place


@dataclass
class Replay:
    rules: Ruleset
    interval: int
    discard: Card
    hand: list[Card]
    hidden: Hidden
    cards: list[Card]
    places: list[int]
    messages: list[str]



def read_sample(name: str) -> Replay:
    """Read a real log into the simulator's start, hidden state and random script."""
    info = INDEX[name]
    serial = SerialNumber.parse(info["serial"])
    rules = Ruleset(serial.table, serial.last_digit)
    n = interval_for(int(info["batteries"]))
    messages = []
    for text in (SAMPLES / name).read_text().splitlines():
        match = modlog.LINE_PATTERN.fullmatch(text)
        assert match is not None, text
        messages.append(match.group("message"))
    discard: Card | None = None
    hand: list[Card] = []
    deals: list[tuple[Card, int]] = []  # (card, the "coming in" count after it)
    pending: Card | None = None
    for message in messages:
        found = modlog.parse(message)
        assert found is not None, message
        if isinstance(found, modlog.OpeningDiscardMessage):
            discard = found.card
        elif isinstance(found, modlog.HandCardMessage):
            hand.append(found.card)
        elif isinstance(found, modlog.DrewMessage | modlog.DiscardedMessage):
            pending = found.card
        elif isinstance(found, modlog.MittenComingMessage):
            assert pending is not None
            deals.append((pending, found.k))
            pending = None
    assert discard is not None
    # Hidden first cycle: the first deal's count is the starting deals-until-mitten.
    to_mitten = deals[0][1] if deals else n - 2
    first_mitten = next((i for i, (c, _) in enumerate(deals) if c == rules.mitten), len(deals))
    defuse_at = next(
        (
            i
            for i, (c, _) in enumerate(deals[:first_mitten])
            if rules.type_of(c) is CardType.DEFUSE
        ),
        None,
    )
    # Full-cycle Defuse places, counted in deals after each mitten.
    places: list[int] = []
    mitten_deals = [i for i, (c, _) in enumerate(deals) if c == rules.mitten]
    for start in mitten_deals:
        cycle = deals[start + 1 : start + n]
        where = next(
            (j for j, (c, _) in enumerate(cycle) if rules.type_of(c) is CardType.DEFUSE), None
        )
        places.append(where + 1 if where is not None else max(2, len(cycle) + 1))
    cards = [c for c, _ in deals if c != rules.mitten]
    hidden = Hidden(to_mitten, defuse_at)
    return Replay(rules, n, discard, hand, hidden, cards, places, messages)


def _candidates(module: Module, message: str) -> list[Action]:
    """The clicks that could have written ``message``; a face held twice gives two."""
    found = modlog.parse(message)
    assert found is not None
    if isinstance(
        found,
        modlog.DrewMessage | modlog.DrawMittenStrikeMessage | modlog.HandFullStrikeMessage,
    ):
        return [Action(ActionKind.DRAW)]
    if isinstance(found, modlog.DiscardedMessage | modlog.DiscardBlockedMessage):
        return [Action(ActionKind.DISCARD)]
    if isinstance(found, modlog.PlayedMessage | modlog.InvalidPlayMessage):
        wanted = found.card
        return [
            Action(ActionKind.PLAY, i) for i, c in enumerate(module.hand, start=1) if c == wanted
        ]
    if isinstance(found, modlog.SolvedMessage):
        return [
            Action(ActionKind.PLAY, i)
            for i, c in enumerate(module.hand, start=1)
            if module.rules.type_of(c) is CardType.DEFUSE
        ]
    return []


def _follow(
    start: Callable[[], Module], module: Module, clicks: list[Action], real: list[str],
    messages: list[str],
) -> Module | None:
    """Act along the real log from ``module`` (``start()`` after ``clicks``), trying each
    slot when a played face is held twice; the module that wrote the whole log, if any.

    A wrong try is taken back by starting again and repeating the clicks before it.
    """
    position = len(module.log)
    if position == len(real):
        return module
    for action in _candidates(module, messages[position]):
        result = module.act(action)
        if result.outcome is not Outcome.NOTHING and module.log == real[: len(module.log)]:
            found = _follow(start, module, [*clicks, action], real, messages)
            if found is not None:
                return found
        module = start()
        for click in clicks:
            module.act(click)
    return None


def replay(name: str) -> tuple[Module, list[str]]:
    """Run the simulator through a real log; return it and the real full lines."""
    data = read_sample(name)

    def start() -> Module:
        rng = ScriptedRandom(data.cards, data.places)
        return Module(
            data.rules, data.interval, rng, start=(data.discard, data.hand), hidden=data.hidden
        )

    real = [modlog.line(1, m) for m in data.messages]
    module = start()
    assert module.log == real[: len(module.log)]
    done = _follow(start, module, [], real, data.messages)
    assert done is not None, f"{name}: the simulator cannot write this log"
    return done, real


@pytest.mark.skipif(not INDEX, reason="the real sample logs are not available")
@pytest.mark.parametrize("name", sorted(INDEX))
def test_simulator_rewrites_real_log(name: str) -> None:
    module, real = replay(name)
    assert module.log == real
    assert module.solved == INDEX[name]["solved"]
    assert module.strikes == INDEX[name]["strikes"]
    assert len(real) == INDEX[name]["lines"]


@pytest.mark.skipif(not INDEX, reason="the real sample logs are not available")
def test_every_real_message_has_a_template() -> None:
    seen: set[str] = set()
    for name in INDEX:
        for text in (SAMPLES / name).read_text().splitlines():
            match = modlog.LINE_PATTERN.fullmatch(text)
            assert match is not None
            found = modlog.parse(match.group("message"))
            assert found is not None, text
            assert found.text() == match.group("message")
            seen.add(found.name)
    # The samples use every template the module has.
    assert seen == set(modlog.TEMPLATES)
