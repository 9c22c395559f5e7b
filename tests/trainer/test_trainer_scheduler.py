"""The FSRS spaced-repetition scheduler: ratings, targets, what is asked next, and why."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from fsrs import Rating

from defuser.trainer.grading import grade
from defuser.trainer.kinds import all_skills, spec_of
from defuser.trainer.model import Kind
from defuser.trainer.scheduler import (
    DEFAULT_TARGETS,
    FAST_SHARE,
    RETRY_GAP,
    TARGET_FLOOR,
    Scheduler,
    due_words,
    rating_for,
)
from defuser.trainer.session import Drill
from defuser.trainer.skills import Skill, parse_skill

DAY = 86_400.0
T0 = 1_700_000_000.0


def sk(key: str) -> Skill:
    """The skill a stored key names."""
    skill = parse_skill(key)
    assert skill is not None, key
    return skill


def master(scheduler: Scheduler, skills: list[Skill], at: float) -> None:
    """Answer every skill right and fast at each due time until it is weeks away."""
    for skill in skills:
        when = at
        for _ in range(4):
            scheduler.review(skill, True, 0.5, when)
            when = max(when, scheduler.skills[skill].due_at)
        scheduler.skills[skill].last_at = at


def test_answers_map_to_fsrs_ratings() -> None:
    target = 5.0
    assert rating_for(False, 1.0, target) is Rating.Again
    assert rating_for(False, 9.0, target) is Rating.Again
    assert rating_for(True, 5.5, target) is Rating.Hard
    assert rating_for(True, 4.0, target) is Rating.Good
    assert rating_for(True, FAST_SHARE * target, target) is Rating.Easy


def test_ratings_space_reviews_like_fsrs() -> None:
    intervals = {}
    for seconds in (0.5, 4.0, 9.0):  # easy, good, hard against the 5 s identify target
        s = Scheduler(all_skills())
        skill = sk("identify:B:RH")
        at = T0
        for _ in range(3):
            at = max(at, s.skills[skill].due_at)
            s.review(skill, True, seconds, at)
        intervals[seconds] = s.skills[skill].due_at - at
    assert intervals[0.5] > intervals[4.0] > intervals[9.0] > 0
    s = Scheduler(all_skills())
    s.review(sk("identify:B:RH"), True, 0.5, T0)
    rating = s.review(sk("identify:B:RH"), False, 1.0, T0 + DAY)
    state = s.skills[sk("identify:B:RH")]
    assert rating is Rating.Again and state.lapses == 1 and state.missed
    assert state.due_at - (T0 + DAY) <= 3600  # a lapse comes back within the hour
    assert state.slow == 0
    s.review(sk("identify:B:RH"), True, 30.0, T0 + DAY + 60)
    assert state.slow == 1 and state.last_rating is Rating.Hard


def test_a_right_but_slow_answer_is_scheduled_sooner_than_a_quick_one() -> None:
    due = {}
    for seconds in (2.0, 11.7):
        s = Scheduler(all_skills())
        for day in range(3):
            s.review(sk("rule:Attack:3"), True, seconds, T0 + day * DAY)
        due[seconds] = s.skills[sk("rule:Attack:3")].due_at
    assert due[11.7] < due[2.0]


def test_higher_desired_retention_reviews_sooner() -> None:
    due = {}
    for retention in (0.8, 0.95):
        s = Scheduler(all_skills(), retention=retention)
        at = T0
        for _ in range(4):
            at = max(at, s.skills[sk("table:B")].due_at)
            s.review(sk("table:B"), True, 2.0, at)
        due[retention] = s.skills[sk("table:B")].due_at - at
    assert due[0.95] < due[0.8]


def test_targets_adapt_to_the_learners_own_times() -> None:
    s = Scheduler(all_skills())
    skill = sk("rule:Nope:4")
    assert s.target(skill) == DEFAULT_TARGETS[Kind.RULE]
    for n, seconds in enumerate((3.0, 2.0, 2.4, 1.6, 2.0)):
        s.review(skill, True, seconds, T0 + n)
    assert s.target(skill) == pytest.approx(1.25 * 2.0)
    s.review(skill, False, 0.1, T0 + 10)  # wrong answers do not move the target
    assert s.target(skill) == pytest.approx(2.5)
    for n in range(5):
        s.review(skill, True, 0.2, T0 + 20 + n)
    assert s.target(skill) == TARGET_FLOOR
    slowpoke = sk("rule:Nope:5")
    for n in range(5):
        s.review(slowpoke, True, 30.0, T0 + n)
    assert s.target(slowpoke) == DEFAULT_TARGETS[Kind.RULE]  # never looser than default


def test_due_words_never_say_due_in_now() -> None:
    assert due_words(T0 + 10, T0) == "due now"
    assert due_words(T0 - 10, T0) == "due now"
    assert due_words(T0 + 600, T0) == "due in 10 min"
    assert due_words(T0 + 3 * DAY, T0) == "due in 3 days"


def test_stored_ratings_are_replayed_as_stored() -> None:
    a, b = Scheduler(all_skills()), Scheduler(all_skills())
    a.replay([("table:A", True, 0.5, T0, Rating.Hard)])
    b.replay([("table:A", True, 0.5, T0, None)])
    assert a.skills[sk("table:A")].last_rating is Rating.Hard
    assert b.skills[sk("table:A")].last_rating is Rating.Easy


def test_a_miss_comes_back_after_the_retry_gap() -> None:
    s = Scheduler({Kind.TABLE: spec_of(Kind.TABLE).skills, Kind.RULE: spec_of(Kind.RULE).skills})
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
    skills = list(spec_of(Kind.IDENTIFY).skills)
    s = Scheduler({Kind.IDENTIFY: skills})
    master(s, skills, T0)
    missed = [sk("identify:C:GC"), sk("identify:A:BS")]
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
    # nothing else is due yet (mastered skills are weeks away): practice picks weak spots
    third = s.choose([Kind.IDENTIFY], later, rng)
    assert third.why.startswith("nothing due")


def test_due_reviews_come_before_new_skills() -> None:
    s = Scheduler({Kind.RULE: spec_of(Kind.RULE).skills})
    s.review(sk("rule:Nope:0"), True, 1.0, T0)  # a first Good: FSRS's learning step
    rng = random.Random(3)
    assert s.choose([Kind.RULE], T0 + 1, rng).why.startswith("new")
    due = s.choose([Kind.RULE], s.skills[sk("rule:Nope:0")].due_at + 1, rng)
    assert due.skill == sk("rule:Nope:0") and due.why.startswith("due for review")


def test_practice_prefers_weak_skills() -> None:
    skills = list(spec_of(Kind.LEGAL).skills)
    s = Scheduler({Kind.LEGAL: skills})
    master(s, skills, T0)
    weak = sk("legal:J")
    for _ in range(4):
        s.review(weak, False, 9.0, T0 + 1)
        s.review(weak, True, 9.0, T0 + 2)
    assert s.weakest(1)[0].skill == weak
    rng = random.Random(4)
    picks = Counter(s.choose([Kind.LEGAL], T0 + 3, rng).skill for _ in range(600))
    others = max(count for skill, count in picks.items() if skill != weak)
    assert picks[weak] > 2 * others


def test_mixed_mode_weights_the_kind_with_mistakes() -> None:
    s = Scheduler(all_skills())
    for kind in (Kind.TABLE, Kind.IDENTIFY, Kind.RULE, Kind.LEGAL):
        master(s, list(all_skills()[kind]), T0)
    for _ in range(10):
        s.review(sk("legal:K"), False, 5.0, T0 + 1)
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
    first = Drill("rule", store=None, clock=lambda: clock[0])
    asked = first.next_question()
    first.record(asked, grade(asked, "not a letter", 2.0))
    rows = first.answered
    assert rows[0].grade.verdict.value == "unreadable"

    # the next day, a new session built from yesterday's answers asks it first
    from defuser.trainer.store import AnswerRow

    history = [
        AnswerRow(1, 1, "rule", T0, "rule", asked.skill.key, asked.rule, "{}", asked.expected,
                  "x", "wrong", False, 2.0, None)
    ]
    clock[0] = T0 + DAY
    second = Drill("rule", store=None, clock=lambda: clock[0], history=history)
    again = second.next_question()
    assert again.skill == asked.skill
    assert again.why.startswith("wrong last time")


def test_seeded_drills_ignore_answers_and_history() -> None:
    def run(answer: str) -> list[str]:
        lookups = (Kind.TABLE, Kind.IDENTIFY, Kind.RULE, Kind.LEGAL)
        d = Drill("mixed", store=None, seed=42, kinds=lookups)
        texts = []
        for _ in range(12):
            q = d.next_question()
            texts.append(q.text)
            d.record(q, grade(q, q.expected if answer == "right" else answer, 1.0))
        return texts

    assert run("right") == run("zzz") == run("A")


def test_new_skills_come_in_teaching_order_a_tables_rows_together() -> None:
    s = Scheduler({Kind.IDENTIFY: spec_of(Kind.IDENTIFY).skills}, new_per_session=None)
    rng = random.Random(6)
    asked = []
    for n in range(8):
        choice = s.choose([Kind.IDENTIFY], T0 + n, rng)
        assert choice.why.startswith("new")
        asked.append(choice.skill)
        s.advance()
        s.review(choice.skill, True, 1.0, T0 + n, in_session=True)
    # Table A first, the circle row (RC BC GC YC), then the heart row.
    assert asked == [
        sk("identify:A:RC"), sk("identify:A:BC"), sk("identify:A:GC"), sk("identify:A:YC"),
        sk("identify:A:RH"), sk("identify:A:BH"), sk("identify:A:GH"), sk("identify:A:YH"),
    ]


def test_new_skills_are_capped_per_session_and_per_day() -> None:
    s = Scheduler({Kind.RULE: spec_of(Kind.RULE).skills}, new_per_session=3, new_per_day=5)
    rng = random.Random(7)
    whys = []
    for n in range(6):
        choice = s.choose([Kind.RULE], T0 + n, rng)
        whys.append(choice.why)
        s.advance()
        s.review(choice.skill, True, 1.0, T0 + n, in_session=True)
    assert all(w.startswith("new") for w in whys[:3])
    assert not any(w.startswith("new") for w in whys[3:])
    assert "3 new this session, the cap is 3" in whys[3]
    # A later session the same day may add 2 more, then the daily cap holds.
    later = Scheduler({Kind.RULE: spec_of(Kind.RULE).skills}, new_per_session=3, new_per_day=5)
    for name, state in s.skills.items():
        for seconds, at in zip(state.seconds, [state.first_at or T0], strict=False):
            later.review(name, True, seconds, at)
    fresh = 0
    for n in range(6):
        choice = later.choose([Kind.RULE], T0 + 100 + n, rng)
        fresh += choice.why.startswith("new")
        later.advance()
        later.review(choice.skill, True, 1.0, T0 + 100 + n, in_session=True)
    assert fresh == 2
    assert later.new_today(T0 + 200) == 5


def test_with_nothing_else_to_ask_a_capped_kind_still_introduces() -> None:
    s = Scheduler({Kind.TABLE: spec_of(Kind.TABLE).skills}, new_per_session=0)
    choice = s.choose([Kind.TABLE], T0, random.Random(1))
    assert choice.skill == sk("table:A") and "nothing else to ask" in choice.why
