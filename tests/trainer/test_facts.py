"""A question's typed facts: the JSON beside its text stays what it was, reads back
into equal facts, and a stored question of any version is still read."""

from __future__ import annotations

import json
import random

import pytest
from cli_helpers import check_golden
from trainer_helpers import PLACEHOLDER

from defuser.engine.actions import Action
from defuser.engine.events import Discarded, Drew
from defuser.errors import DefuserError
from defuser.trainer.facts import (
    CycleAsk,
    CycleFacts,
    DealSeen,
    DecideFacts,
    DrawStruck,
    GameFacts,
    LegalFacts,
    QuestionFacts,
    WidgetFacts,
    deal_from_json,
    facts_from_json,
    stored_pile,
)
from defuser.trainer.game import Game
from defuser.trainer.kinds import KIND_SPECS, generate
from defuser.trainer.model import Question
from defuser.trainer.skills import Kind
from defuser.trainer.states import StateError, question_from_state, question_state
from edgework import Batteries, Card, CardType, Edgework, SerialNumber


def sample() -> list[Question]:
    """Three questions of every kind and four clicks of a game, seeded."""
    rng = random.Random(20)
    questions = [generate(rng, skill) for spec in KIND_SPECS.values()
                 for skill in spec.skills[:3]]
    game = Game.start(Edgework(SerialNumber.parse("BC1DF0"), Batteries.parse("3")), 7,
                      clock=lambda: 0.0)
    for _ in range(4):
        question = game.question()
        questions.append(question)
        game.session.click(question.answer if isinstance(question.answer, Action)
                           else Action.draw())
    return questions


def test_the_json_of_every_kind_is_what_it_was() -> None:
    """The golden file was written by the version whose facts were JSON dicts: the
    question's JSON (``--json``, the web page), as stored (sorted keys) and the saved
    state's are byte for byte the same."""
    lines = []
    for question in sample():
        lines.append(json.dumps(question.to_json(), ensure_ascii=False))
        lines.append(json.dumps(question.to_json(), ensure_ascii=False, sort_keys=True))
        lines.append(json.dumps(question_state(question)))
    check_golden("trainer/question_facts.txt", "\n".join(lines) + "\n")


def test_every_kind_of_facts_reads_back_equal() -> None:
    seen: set[type] = set()
    for question in sample():
        facts = question.facts
        seen.add(type(facts))
        text = json.dumps(facts.to_json())
        assert facts_from_json(question.kind, json.loads(text)) == facts
        assert question_from_state(json.loads(json.dumps(question_state(question)))) == question
    assert len(seen) == 8  # the seven kinds, and a game's click


def test_the_deals_seen_read_back() -> None:
    deals = (DealSeen(1, Drew(Card.RED_CIRCLE), CardType.NOPE),
             DealSeen(2, Discarded(Card.BLUE_HEART), CardType.EXPLODING_MITTEN),
             DrawStruck(2))
    assert [d.to_json() for d in deals] == [
        {"deal": 1, "action": "draw", "card": "RC", "type": "Nope"},
        {"deal": 2, "action": "discard", "card": "BH", "type": "Exploding Mitten"},
        {"strike": "draw", "hand": 2},
    ]
    assert tuple(deal_from_json(d.to_json()) for d in deals) == deals
    # A stored deal that is neither is bad input (a file's), under the one root.
    with pytest.raises(DefuserError, match="not a draw or discard"):
        deal_from_json({"deal": 1, "action": "play 1", "card": "RC", "type": "Nope"})
    with pytest.raises(DefuserError, match="not a draw"):
        deal_from_json({"strike": "discard", "hand": 2})


def test_a_game_click_is_a_decision_with_its_seed_and_strikes() -> None:
    serial = SerialNumber.parse("BC1DF0")
    decision = DecideFacts(serial, 3, 12, (DrawStruck(1),), Card.RED_CIRCLE,
                           (Card.BLUE_HEART,), ())
    game = GameFacts.of(decision, seed=9, strikes=1)
    assert isinstance(game, DecideFacts) and game != decision
    assert list(game.to_json()) == [*decision.to_json(), "seed", "strikes"]
    assert facts_from_json(Kind.DECIDE, game.to_json()) == game
    assert facts_from_json(Kind.DECIDE, decision.to_json()) == decision


@pytest.mark.parametrize(
    ("kind", "facts"),
    [
        (Kind.TABLE, PLACEHOLDER),
        (Kind.LEGAL, LegalFacts(SerialNumber.parse("BC1DF0"), Card.RED_CIRCLE, ())),
        (Kind.CYCLE, CycleFacts(SerialNumber.parse("BC1DF0"), 0, 9, (), CycleAsk.PROBABILITY)),
        (Kind.EDGE, WidgetFacts(Edgework.parse("2B 1H // FRK // BC1DF0"))),
    ],
)
def test_facts_made_by_hand_read_back(kind: Kind, facts: QuestionFacts) -> None:
    assert facts_from_json(kind, json.loads(json.dumps(facts.to_json()))) == facts


def test_facts_that_do_not_read_back_are_a_state_error() -> None:
    state = question_state(sample()[0])
    state["facts"] = {"serial": "not a serial"}
    with pytest.raises(StateError, match="facts do not read back"):
        question_from_state(state)


@pytest.mark.parametrize(
    "stored",
    [
        # This version's rule, legal and decide questions, as the store writes them.
        '{"discard": "RC", "serial": "BC1DF0", "text": "q"}',
        '{"discard": "RC", "hand": ["BH"], "serial": "BC1DF0", "text": "q"}',
        # Rows of other shapes: a game click with the module's state beside it, batteries
        # as text, no text and no hand.
        '{"discard": "RC", "hand": [], "history": [{"strike": "draw", "hand": 2}], '
        '"seed": 4, "serial": "BC1DF0", "strikes": 1, "text": "q"}',
        '{"batteries": "2 in 1", "discard": "RC", "serial": "BC1DF0", "text": "q"}',
        '{"serial": "BC1DF0", "discard": "RC"}',
    ],
)
def test_a_stored_question_of_any_version_gives_its_pile(stored: str) -> None:
    assert stored_pile(stored) == (SerialNumber.parse("BC1DF0"), Card.RED_CIRCLE)


def test_a_stored_question_without_a_pile_gives_none() -> None:
    assert stored_pile('{"serial": "BC1DF0", "text": "q"}') is None
    assert stored_pile('{"edgework": "2B 1H // BC1DF0", "serial": "BC1DF0"}') is None
    assert stored_pile("not json") is None
    assert stored_pile('["BC1DF0", "RC"]') is None
