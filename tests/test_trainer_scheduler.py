"""The spaced-repetition scheduler: what is asked next, and why."""

from __future__ import annotations

import random
from collections import Counter

from defuser.trainer.lookups import LOOKUP_GENERATORS, LOOKUP_SKILLS
from defuser.trainer.model import Kind
from defuser.trainer.scheduler import BOX_INTERVALS, RETRY_GAP, TOP_BOX, Scheduler
from defuser.trainer.session import Drill
from defuser.trainer.skills import ALL_SKILLS

DAY = 86_400.0
T0 = 1_700_000_000.0


def master(scheduler: Scheduler, skills: list[str], at: float) -> None:
    """Answer every skill right and fast until it reaches the top box."""
    for _ in range(TOP_BOX):
        for skill in skills:
            scheduler.review(skill, True, 0.5, at)


def test_boxes_move_with_right_wrong_and_slow_answers() -> None:
    s = Scheduler(ALL_SKILLS)
    skill = "rule:Attack:3"
    s.review(skill, True, 1.0, T0)
    assert s.skills[skill].box == 1
    s.review(skill, True, 1.0, T0)
    assert s.skills[skill].box == 2
    s.review(skill, True, 30.0, T0)  # right but slow: no promotion
    assert s.skills[skill].box == 2 and s.skills[skill].slow == 1
    assert s.skills[skill].due_at == T0 + BOX_INTERVALS[2]
    s.review(skill, False, 1.0, T0)
    state = s.skills[skill]
    assert state.box == 0 and state.lapses == 1 and state.missed


def test_a_miss_comes_back_after_the_retry_gap() -> None:
    s = Scheduler({Kind.TABLE: LOOKUP_SKILLS[Kind.TABLE], Kind.RULE: LOOKUP_SKILLS[Kind.RULE]})
    rng = random.Random(1)
    first = s.choose([Kind.RULE], T0, rng)
    s.advance()
    s.review(first.skill, False, 2.0, T0, in_session=True)
    asked = []
    for _ in range(RETRY_GAP + 1):
        choice = s.choose([Kind.RULE], T0, rng)
        asked.append(choice.skill)
        s.advance()
        s.review(choice.skill, True, 1.0, T0, in_session=True)
    assert first.skill not in asked[:RETRY_GAP]
    assert asked[RETRY_GAP] == first.skill


def test_next_day_starts_with_yesterdays_mistakes_then_due_reviews() -> None:
    skills = list(LOOKUP_SKILLS[Kind.IDENTIFY])
    s = Scheduler({Kind.IDENTIFY: skills})
    master(s, skills, T0)
    missed = ["identify:C:GC", "identify:A:BS"]
    for n, skill in enumerate(missed):
        s.review(skill, False, 3.0, T0 + 10 + n)
    # two days later: the misses first (oldest first), and they say why
    rng = random.Random(2)
    later = T0 + 2 * DAY
    first = s.choose([Kind.IDENTIFY], later, rng)
    assert first.skill == missed[0] and first.why.startswith("wrong last time")
    s.review(first.skill, True, 1.0, later)
    second = s.choose([Kind.IDENTIFY], later, rng)
    assert second.skill == missed[1]
    s.review(second.skill, True, 1.0, later)
    # nothing else is due yet (top box = 2 months): practice picks weak spots
    third = s.choose([Kind.IDENTIFY], later, rng)
    assert third.why.startswith("nothing due")


def test_due_reviews_come_before_new_skills() -> None:
    s = Scheduler({Kind.RULE: LOOKUP_SKILLS[Kind.RULE]})
    s.review("rule:Nope:0", True, 1.0, T0)  # box 1, due after 10 minutes
    rng = random.Random(3)
    assert s.choose([Kind.RULE], T0 + 60, rng).why.startswith("new")
    due = s.choose([Kind.RULE], T0 + BOX_INTERVALS[1] + 1, rng)
    assert due.skill == "rule:Nope:0" and due.why.startswith("due for review")


def test_practice_prefers_weak_skills() -> None:
    skills = list(LOOKUP_SKILLS[Kind.LEGAL])
    s = Scheduler({Kind.LEGAL: skills})
    master(s, skills, T0)
    weak = "legal:J"
    for _ in range(4):
        s.review(weak, False, 9.0, T0 + 1)
        s.review(weak, True, 9.0, T0 + 2)
    assert s.weakest(1)[0].skill == weak
    rng = random.Random(4)
    picks = Counter(s.choose([Kind.LEGAL], T0 + 3, rng).skill for _ in range(600))
    others = max(count for skill, count in picks.items() if skill != weak)
    assert picks[weak] > 2 * others


def test_mixed_mode_weights_the_kind_with_mistakes() -> None:
    s = Scheduler(ALL_SKILLS)
    for kind in (Kind.TABLE, Kind.IDENTIFY, Kind.RULE, Kind.LEGAL):
        master(s, list(ALL_SKILLS[kind]), T0)
    for _ in range(10):
        s.review("legal:K", False, 5.0, T0 + 1)
    weight_legal, why = s.kind_weight(Kind.LEGAL, T0 + 2)
    weight_table, _ = s.kind_weight(Kind.TABLE, T0 + 2)
    assert weight_legal > 2 * weight_table
    assert "wrong in the last" in why
    rng = random.Random(5)
    lookups = [Kind.TABLE, Kind.IDENTIFY, Kind.RULE, Kind.LEGAL]
    kinds = Counter(s.choose(lookups, T0 + 2, rng).kind for _ in range(800))
    assert kinds[Kind.LEGAL] > 1.5 * max(kinds[k] for k in lookups if k is not Kind.LEGAL)


def test_drill_without_seed_replays_history_and_targets_mistakes() -> None:
    clock = [T0]
    makers = dict(LOOKUP_GENERATORS)
    first = Drill("rule", store=None, clock=lambda: clock[0], makers=makers)
    asked = first.next_question()
    first.answer(asked, "not a letter", 2.0)
    rows = first.answered
    assert rows[0].grade.verdict.value == "unreadable"

    # the next day, a new session built from yesterday's answers asks it first
    from defuser.trainer.store import AnswerRow

    history = [
        AnswerRow(1, 1, "rule", T0, "rule", asked.skill, asked.rule, "{}", asked.expected,
                  "x", "wrong", False, 2.0, None)
    ]
    clock[0] = T0 + DAY
    second = Drill("rule", store=None, clock=lambda: clock[0], makers=makers,
                   history=history)
    again = second.next_question()
    assert again.skill == asked.skill
    assert again.why.startswith("wrong last time")


def test_seeded_drills_ignore_answers_and_history() -> None:
    makers = dict(LOOKUP_GENERATORS)

    def run(answer: str) -> list[str]:
        d = Drill("mixed", store=None, seed=42, makers=makers)
        d.kinds = (Kind.TABLE, Kind.IDENTIFY, Kind.RULE, Kind.LEGAL)
        texts = []
        for _ in range(12):
            q = d.next_question()
            texts.append(q.text)
            d.answer(q, q.expected if answer == "right" else answer, 1.0)
        return texts

    assert run("right") == run("zzz") == run("A")
