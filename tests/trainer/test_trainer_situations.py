"""``cycle`` and ``decide`` questions: expected answers against the hidden deck, an
independent count, the rules engine and the policy's expected clicks; and the grading
of decisions by expected-click loss."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from engine_helpers import belief_contains
from trainer_helpers import question_53

from defuser.engine.actions import Action
from defuser.engine.board import Board
from defuser.engine.deck import Hidden
from defuser.engine.rules import HAND_SIZE
from defuser.engine.simulator import Module
from defuser.strategy.belief import Observation
from defuser.strategy.values import action_values, best_action
from defuser.trainer.grading import grade
from defuser.trainer.judges import DECIDE_SCALE, STRIKE_PENALTY, risky_loss, verdict_for_loss
from defuser.trainer.model import Question, Verdict
from defuser.trainer.situations import (
    Walk,
    cycle_question_for,
    cycle_walk,
    decide_question_for,
    decide_situation,
)
from defuser.trainer.skills import (
    CYCLE_SKILLS,
    DECIDE_SKILLS,
    CycleSkill,
    Kind,
)
from edgework import Batteries, CardType, Edgework, SerialNumber


def counted_answer(question: Question) -> str:
    """The cycle answer by counting the listed deals, the way a player does it.

    Written from the spec, not from :mod:`defuser.strategy.belief`: after the mitten is dealt it is
    on top again after N-1 deals; before, it is the k-th card dealt with k uniform in
    2..N-1, so after d deals without it each of the N-1-d places left is as likely; a
    draw strike with room in the hand shows it on top.
    """
    n = question.to_json()["interval"]
    events = question.to_json()["history"]
    deals = [e for e in events if "deal" in e]
    d = len(deals)
    mittens = [e["deal"] for e in deals if e["type"] == "Exploding Mitten"]
    if question.to_json()["asks"] == "deals":
        if events and "strike" in events[-1]:
            return "0"
        if mittens:
            return str(n - 1 - (d - mittens[-1]))
        assert d == n - 2  # the first mitten is at most card N-1
        return "0"
    assert not mittens
    return "0" if d == 0 else str(Fraction(1, n - 1 - d))


@pytest.mark.parametrize("skill", CYCLE_SKILLS)
def test_cycle_questions_match_the_hidden_deck_and_a_count(skill: CycleSkill) -> None:
    rng = random.Random(f"cycle:{skill.key}")
    for _ in range(40):
        walk = cycle_walk(rng, skill)
        question = cycle_question_for(walk.situation(), skill)
        hidden = walk.module.reveal()
        asks = question.to_json()["asks"]
        assert (asks == "deals") == skill.known
        assert belief_contains(walk.observation.belief, hidden)
        assert walk.observation.belief.first_cycle == walk.module.first_cycle
        if asks == "deals":
            assert question.expected == str(hidden.deals_until_mitten)
            assert question.expected == counted_answer(question)
        else:
            assert walk.module.first_cycle
            assert question.expected == counted_answer(question)
        assert grade(question, question.expected, 1.0).verdict is Verdict.RIGHT
        assert question.to_json()["interval"] == Batteries(question.to_json()["batteries"]).interval
        assert f"N = {question.to_json()['batteries']} mod 5 + 9" in question.reason


def test_cycle_probability_question_in_words() -> None:
    rng = random.Random(8)
    walk = cycle_walk(rng, CycleSkill(False))
    q = cycle_question_for(walk.situation(), CycleSkill(False))
    assert q.text.endswith("What is the chance the mitten is on top now?")
    p = Fraction(q.expected)
    assert grade(q, f"{float(p):.2%}", 2.0).correct
    assert not grade(q, str(min(p + Fraction(1, 20), Fraction(1))), 2.0).correct or p > 0.95


def decide_questions(count: int) -> list[tuple[Observation, Question]]:
    """``count`` decide questions over every decision skill, with their observations."""
    rng = random.Random("decide")
    out = []
    for n in range(count):
        situation = decide_situation(rng, DECIDE_SKILLS[n % len(DECIDE_SKILLS)])
        out.append((situation.observation, decide_question_for(situation)))
    return out


@pytest.fixture(scope="module")
def decisions() -> list[tuple[Observation, Question]]:
    """A dozen decide questions (computing the policy takes a moment per edgework)."""
    return decide_questions(12)


def test_decide_expected_answer_is_safe_by_the_rules(
    decisions: list[tuple[Observation, Question]],
) -> None:
    skills = set()
    for obs, q in decisions:
        skills.add(q.skill.key)
        action = Action.parse(q.expected)
        assert obs.discard is not None
        if action.kind.value == "draw":
            assert len(obs.hand) < HAND_SIZE and obs.belief.mitten_on_top == 0
            assert q.skill.key == "decide:draw"
        elif action.kind.value == "discard":
            assert Board(obs.rules, obs.discard, obs.hand).discard_allowed
            assert q.skill.key == "decide:discard"
        else:
            assert action.slot is not None
            card = obs.hand[action.slot - 1]
            if obs.rules.type_of(card) is CardType.DEFUSE:
                assert q.skill.key == "decide:defuse"
                assert obs.rules.is_legal(card, obs.discard) or obs.belief.mitten_on_top == 1
            else:
                assert q.skill.key == "decide:play"
                assert obs.rules.is_legal(card, obs.discard)
        assert q.rule == obs.rules.rule(obs.discard)
    assert len(skills) >= 3


def test_decide_options_are_the_policys_values(
    decisions: list[tuple[Observation, Question]],
) -> None:
    for obs, q in decisions:
        values = {str(av.action): av for av in action_values(obs)}
        best = best_action(tuple(values.values()))
        assert q.expected == str(best.action)
        options = {str(o.action): o for o in q.options}
        assert set(options) == {"draw", "discard", "play 1", "play 2", "play 3"}
        for name, option in options.items():
            if name in values:
                assert option.expected_clicks == pytest.approx(values[name].expected_clicks)
                assert option.strike_risk == float(values[name].strike_probability)
            else:  # an empty slot: one click for nothing
                assert option.expected_clicks == pytest.approx(best.expected_clicks + 1)
                assert option.strike_risk == 0


def test_decide_grades_follow_the_loss_and_strike_risk(
    decisions: list[tuple[Observation, Question]],
) -> None:
    seen = set()
    for _, q in decisions:
        best = min(o.expected_clicks for o in q.options if o.strike_risk == 0
                   and o.expected_clicks is not None)
        for option in q.options:
            result = grade(q, str(option.action), 3.0)
            seen.add(result.verdict)
            if option.strike_risk > 0:
                assert result.verdict is Verdict.BLUNDER
                assert "risks" in result.detail
                assert result.loss is not None and result.loss >= DECIDE_SCALE[-1][0]
                assert result.loss >= STRIKE_PENALTY * option.strike_risk
                continue
            assert option.expected_clicks is not None
            loss = option.expected_clicks - best
            assert result.loss == pytest.approx(max(loss, 0.0))
            assert result.verdict is verdict_for_loss(loss)
            assert f"{option.expected_clicks:.2f}" in result.detail
        assert grade(q, q.expected, 3.0).verdict is Verdict.BEST
    assert {Verdict.BEST, Verdict.INACCURACY, Verdict.BLUNDER} <= seen


def test_a_gamble_that_looks_cheaper_is_still_charged_for_its_strike() -> None:
    """Question 53 of ``mittens drill --mode decide --seed 11``: drawing with the mitten
    on top 1 time in 3 looks 0.88 clicks cheaper than the safe discard when a strike is
    counted as one wasted click; its loss must not be 0."""
    q = question_53()
    result = grade(q, "draw", 1.0)
    assert result.verdict is Verdict.BLUNDER
    assert result.loss == pytest.approx(STRIKE_PENALTY / 3)
    assert "loss 3.33" in result.detail and "loss 0.00" not in result.detail
    assert risky_loss(None, 1.0) == STRIKE_PENALTY
    assert risky_loss(0.0, 0.01) == DECIDE_SCALE[-1][0]  # never under the blunder bound
    # A blunder never lowers a session's mean loss below the safe answers' mean.
    safe = grade(q, "play 1", 1.0)
    assert safe.loss == pytest.approx(1.0)
    assert safe.loss is not None and result.loss is not None
    assert (safe.loss + result.loss) / 2 > safe.loss


def test_loss_scale_boundaries() -> None:
    assert verdict_for_loss(0.0) is Verdict.BEST
    assert verdict_for_loss(1e-9) is Verdict.BEST
    bounds = [b for b, _ in DECIDE_SCALE]
    assert verdict_for_loss(bounds[1] - 1e-9) is Verdict.GOOD
    assert verdict_for_loss(bounds[1]) is Verdict.INACCURACY
    assert verdict_for_loss(bounds[2]) is Verdict.MISTAKE
    assert verdict_for_loss(bounds[3]) is Verdict.BLUNDER
    assert verdict_for_loss(50.0) is Verdict.BLUNDER


def test_solving_is_one_click_and_drawing_on_the_mitten_a_blunder() -> None:
    """A hand-made game with known numbers: the mitten is the second card dealt; after
    one discard a draw strikes with room in the hand, which shows it on top, and the
    hand holds a Defuse."""
    edge = Edgework(SerialNumber.parse("AB1CD2"), Batteries(2))
    rules = Walk.start(edge, 1).module.rules
    top = rules.plain_faces[0]
    plain = next(c for c in rules.plain_faces if not rules.is_legal(c, top))
    defuse = rules.defuse_faces[0]
    module = Module(
        rules, 11, random.Random(0), start=(top, [plain, defuse]),
        hidden=Hidden(1, None),
    )
    walk = Walk(edge, module, Observation.start(rules, 11, top, module.hand))
    walk.act(Action.discard())
    assert walk.act(Action.draw()).outcome.value == "strike"
    assert walk.observation.belief.mitten_on_top == 1
    q = decide_question_for(walk.situation())
    assert q.expected == "play 2" and q.skill.key == "decide:defuse"
    solve = grade(q, "defuse", 1.0)  # "defuse" names the one Defuse in hand
    assert solve.verdict is Verdict.BEST and solve.reading == "play 2"
    assert "play 2: 1.00 expected clicks" in solve.detail
    draw = grade(q, "draw", 1.0)
    assert draw.verdict is Verdict.BLUNDER and "the mitten is on top" in draw.detail
    discard = grade(q, "discard", 1.0)
    assert discard.verdict is Verdict.BLUNDER  # dealing the mitten away loses a cycle
    assert discard.loss is not None and discard.loss > 3


def test_decide_answers_in_live_notation() -> None:
    _, q = decide_questions(1)[0]
    for text in ("DRAW", " discard ", "p1", "2", "!1 play 3", "play 1"):
        assert grade(q, text, 1.0).verdict is not Verdict.UNREADABLE
    assert grade(q, "play 4", 1.0).verdict is Verdict.UNREADABLE
    assert q.kind is Kind.DECIDE
