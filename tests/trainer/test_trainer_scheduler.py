"""The FSRS spaced-repetition scheduler: ratings, targets, the learner's day, what is
asked next, and why."""

from __future__ import annotations

import datetime as dt
import math
import random
from collections import Counter

import pytest
from fsrs import Rating

from defuser.dashboard.drill_words import cap_words, outlook_words
from defuser.trainer.grading import grade
from defuser.trainer.kinds import all_skills, spec_of
from defuser.trainer.model import DrillMode
from defuser.trainer.ratings import (
    DEFAULT_TARGETS,
    EASY_SHARE,
    READING_CHARS,
    TARGET_FLOOR,
    TARGET_SLACK,
    AnswerOutcome,
    rating_for,
    reading_allowance,
)
from defuser.trainer.scheduler import (
    MAXIMUM_INTERVAL,
    NEW_SHARE,
    RETRY_GAP,
    NewCap,
    Scheduler,
    SkillState,
    days_words,
    learner_day,
)
from defuser.trainer.session import Drill
from defuser.trainer.skills import Kind, Skill, parse_skill
from defuser.trainer.teaching import table_shares, tables_by_share, teaching_order

DAY = 86_400.0
#: Noon, local time, of a fixed day (so that the learner's day is the calendar day).
T0 = dt.datetime(2023, 11, 14, 12, 0).timestamp()


def sk(key: str) -> Skill:
    """The skill a stored key names."""
    skill = parse_skill(key)
    assert skill is not None, key
    return skill


def answer(
    s: Scheduler, skill: Skill, correct: bool, seconds: float, at: float, **kw: bool
) -> Rating | None:
    """One answer given to the scheduler; returns the rating (``None``: no review)."""
    in_session = kw.pop("in_session", False)
    return s.review(skill, AnswerOutcome(correct, seconds, at, **kw), in_session=in_session)


def interval(state: SkillState) -> float:
    """Seconds from the skill's last review to its due day."""
    assert state.card.last_review is not None
    return state.due_at - state.card.last_review.timestamp()


def master(s: Scheduler, skills: list[Skill], at: float) -> None:
    """Answer every skill right at each due day until it is weeks away."""
    for skill in skills:
        when = at
        for _ in range(5):
            answer(s, skill, True, 0.5, when)
            when = max(when + DAY, s.skills[skill].due_at + 12 * 3600)
        s.skills[skill].last_at = at


# ----------------------------------------------------------------- ratings


def test_answers_map_to_fsrs_ratings() -> None:
    target = 5.0

    def rate(correct: bool, seconds: float, *, first: bool = False, known: bool = True,
             late_right: bool = False, best: bool = True) -> Rating:
        outcome = AnswerOutcome(correct, seconds, T0, late_right=late_right, best=best)
        return rating_for(outcome, target, first=first, known=known)

    assert rate(False, 1.0) is Rating.Again
    assert rate(False, 9.0) is Rating.Again
    assert rate(True, 5.5) is Rating.Hard
    assert rate(True, 4.0) is Rating.Good
    assert rate(True, EASY_SHARE * target) is Rating.Easy
    # Never Easy at first contact, nor on a skill not yet shown to be known (a lucky
    # guess), nor for a decision that was good but not the best.
    assert rate(True, 0.1, first=True) is Rating.Good
    assert rate(True, 0.1, known=False) is Rating.Good
    assert rate(True, 0.1, best=False) is Rating.Good
    # Right but over --time-limit: remembered, slowly (Hard), not a lapse.
    assert rate(False, 9.0, late_right=True) is Rating.Hard


def test_a_too_slow_right_answer_is_rated_hard_and_a_wrong_one_again() -> None:
    drill = Drill(DrillMode.TABLE, store=None, seed=3, time_limit=2.0, clock=lambda: T0)
    question = drill.next_question()
    assert question is not None
    late = grade(question, question.expected, 5.0, time_limit=2.0)
    assert late.verdict.value == "too slow" and late.late_right and not late.correct
    assert drill.record(question, late) is Rating.Hard
    other = drill.next_question()
    assert other is not None
    wrong = grade(other, "none of these", 5.0, time_limit=2.0)
    assert not wrong.late_right
    assert drill.record(other, wrong) in (Rating.Again, None)


def test_first_contact_is_never_above_good_even_when_stored_easy() -> None:
    s = Scheduler(all_skills())
    assert answer(s, sk("table:B"), True, 0.1, T0) is Rating.Good
    t = Scheduler(all_skills())
    assert t.review(sk("table:B"), AnswerOutcome(True, 0.1, T0), rating=Rating.Easy) is Rating.Good
    assert t.skills[sk("table:B")].due_at == s.skills[sk("table:B")].due_at


def test_easy_needs_a_skill_known_on_earlier_days() -> None:
    s = Scheduler(all_skills())
    skill = sk("identify:B:RH")
    ratings = [answer(s, skill, True, 0.5, T0 + n * 3 * DAY) for n in range(3)]
    assert ratings == [Rating.Good, Rating.Good, Rating.Easy]
    # Right twice, but wrong at the last review: not known, so not Easy.
    t = Scheduler(all_skills())
    for n, correct in enumerate((True, True, False)):
        answer(t, skill, correct, 0.5, T0 + n * 3 * DAY)
    assert answer(t, skill, True, 0.5, T0 + 9 * DAY) is Rating.Good


def test_repetition_on_one_day_cannot_compound() -> None:
    # Ten fast right answers on one day are one review: the skill is due in 2 days
    # (a first Good), not 194 days out as when every answer was a review.
    s = Scheduler(all_skills())
    skill = sk("table:B")
    ratings = [answer(s, skill, True, 0.5, T0 + 60 * n) for n in range(10)]
    assert ratings[0] is Rating.Good and ratings[1:] == [None] * 9
    state = s.skills[skill]
    assert state.reviews == 1 and state.seen == 10
    assert s.days_until_due(state, T0) == 2
    # A miss later that day is kept (asked again in the session) but is no review.
    assert answer(s, skill, False, 3.0, T0 + 3600) is None
    assert state.missed and state.reviews == 1


def test_ratings_space_reviews_like_fsrs() -> None:
    intervals = {}
    for seconds in (0.5, 4.0, 9.0):  # easy, good, hard against the 5 s identify target
        s = Scheduler(all_skills())
        skill = sk("identify:B:RH")
        at = T0
        for _ in range(4):
            answer(s, skill, True, seconds, at)
            at = max(at + DAY, s.skills[skill].due_at + 12 * 3600)
        intervals[seconds] = interval(s.skills[skill])
    assert intervals[0.5] > intervals[4.0] > intervals[9.0] > 0
    s = Scheduler(all_skills())
    answer(s, sk("identify:B:RH"), True, 0.5, T0)
    rating = answer(s, sk("identify:B:RH"), False, 1.0, T0 + 2 * DAY)
    state = s.skills[sk("identify:B:RH")]
    assert rating is Rating.Again and state.lapses == 1 and state.missed
    assert s.days_until_due(state, T0 + 2 * DAY) == 1  # a lapse is reviewed the next day


def test_no_interval_passes_the_maximum() -> None:
    s = Scheduler(all_skills())
    skill = sk("table:D")
    at = T0
    for _ in range(30):
        answer(s, skill, True, 0.3, at)
        at = s.skills[skill].due_at + 12 * 3600
    assert s.days_until_due(s.skills[skill], at) <= MAXIMUM_INTERVAL


def test_higher_desired_retention_reviews_sooner() -> None:
    due = {}
    for retention in (0.8, 0.95):
        s = Scheduler(all_skills(), retention=retention)
        at = T0
        for _ in range(4):
            answer(s, sk("table:B"), True, 2.0, at)
            at = max(at + DAY, s.skills[sk("table:B")].due_at + 12 * 3600)
        due[retention] = interval(s.skills[sk("table:B")])
    assert due[0.95] < due[0.8]


# ----------------------------------------------------------------- targets


def test_targets_adapt_to_the_learners_own_times() -> None:
    s = Scheduler(all_skills())
    skill = sk("rule:Nope:4")
    assert s.target(skill) == DEFAULT_TARGETS[Kind.RULE]
    for n, seconds in enumerate((3.0, 2.0, 2.4, 1.6, 2.0)):
        answer(s, skill, True, seconds, T0 + n)
    assert s.target(skill) == pytest.approx(TARGET_SLACK * 2.0)
    answer(s, skill, False, 0.1, T0 + 10)  # wrong answers do not move the target
    assert s.target(skill) == pytest.approx(TARGET_SLACK * 2.0)
    for n in range(10):
        answer(s, skill, True, 0.2, T0 + 20 + n)
    assert s.target(skill) == TARGET_FLOOR
    slowpoke = sk("rule:Nope:5")
    for n in range(5):
        answer(s, slowpoke, True, 30.0, T0 + n)
    assert s.target(slowpoke) == DEFAULT_TARGETS[Kind.RULE]  # never looser than default


def test_a_steady_learners_normal_spread_is_rarely_hard() -> None:
    # Answer times spread 30% around a steady median: the adapted target leaves about
    # one in eleven right answers above it (1.25 x the median left 15-17% Hard).
    rng = random.Random(8)
    s = Scheduler(all_skills())
    slow = total = 0
    for day in range(120):
        skill = sk(f"rule:Yep:{day % 10}")
        seconds = 2.5 * math.exp(rng.gauss(0.0, 0.3))
        target = s.target(skill)
        if s.skills[skill].seen >= 5:
            total += 1
            slow += seconds > target
        answer(s, skill, True, seconds, T0 + day * DAY)
    assert total > 50 and slow / total < 0.12


def test_targets_grow_with_the_length_of_the_question() -> None:
    s = Scheduler(all_skills())
    skill = sk("decide:draw")
    short, long = "x" * 138, "x" * 679
    assert reading_allowance(short) == 0.0
    assert reading_allowance(long) == pytest.approx(0.04 * (679 - READING_CHARS))
    assert s.target(skill, reading_allowance(long)) > s.target(skill) + 20
    # The same answer time is Hard on a short question, not on a long one.
    target_short = s.target(skill, reading_allowance(short))
    target_long = s.target(skill, reading_allowance(long))
    outcome = AnswerOutcome(True, 20.0, T0, reading=reading_allowance(long))
    assert rating_for(outcome, target_short, first=True, known=False) is Rating.Hard
    assert rating_for(outcome, target_long, first=True, known=False) is Rating.Good


# ----------------------------------------------------------------- the learner's day


def test_due_goes_by_the_learners_day_with_a_day_start_hour() -> None:
    s = Scheduler(all_skills())
    skill = sk("table:C")
    evening = dt.datetime(2023, 11, 14, 18, 40).timestamp()
    answer(s, skill, True, 2.0, evening)  # a first Good: due in 2 days
    state = s.skills[skill]
    morning_due = dt.datetime(2023, 11, 16, 8, 10).timestamp()
    assert s.is_due(state, morning_due)  # due all that day, not only after 18:40
    assert not s.is_due(state, dt.datetime(2023, 11, 16, 3, 59).timestamp())  # still the 15th
    assert learner_day(dt.datetime(2023, 11, 16, 3, 59).timestamp()) == dt.date(2023, 11, 15)
    assert learner_day(dt.datetime(2023, 11, 16, 3, 59).timestamp(), 0) == dt.date(2023, 11, 16)
    # Past midnight but before 4 am is still the same learner's day: no second review.
    late = Scheduler(all_skills())
    answer(late, skill, True, 2.0, dt.datetime(2023, 11, 14, 23, 0).timestamp())
    assert answer(late, skill, True, 2.0, dt.datetime(2023, 11, 15, 1, 0).timestamp()) is None
    early = Scheduler(all_skills(), day_start=0)
    answer(early, skill, True, 2.0, dt.datetime(2023, 11, 14, 23, 0).timestamp())
    assert answer(early, skill, True, 2.0, dt.datetime(2023, 11, 15, 1, 0).timestamp()) is not None


def test_days_words() -> None:
    assert days_words(-2) == "due today"
    assert days_words(0) == "due today"
    assert days_words(1) == "due tomorrow"
    assert days_words(3) == "due in 3 days"


def test_forecast_and_due_agree() -> None:
    s = Scheduler(all_skills())
    for n, key in enumerate(("table:A", "table:B", "table:C")):
        answer(s, sk(key), True, 2.0, T0 - (n + 2) * DAY)
    answer(s, sk("table:D"), False, 2.0, T0)
    due = sum(s.is_due(state, T0) for state in s.skills.values())
    assert s.forecast(T0)[0] == due == 4


# ----------------------------------------------------------------- choosing


def test_a_miss_comes_back_after_the_retry_gap() -> None:
    s = Scheduler({Kind.TABLE: spec_of(Kind.TABLE).skills, Kind.RULE: spec_of(Kind.RULE).skills},
                  new_per_session=None)
    rng = random.Random(1)
    first = s.choose([Kind.RULE], T0, rng)
    assert first is not None
    s.advance()
    answer(s, first.skill, False, 2.0, T0, in_session=True)
    asked = []
    for _ in range(RETRY_GAP + 1):
        choice = s.choose([Kind.RULE], T0, rng)
        assert choice is not None
        asked.append(choice.skill)
        s.advance()
        answer(s, choice.skill, True, 1.0, T0, in_session=True)
    assert first.skill not in asked[:RETRY_GAP]
    assert asked[RETRY_GAP] == first.skill


def test_next_day_starts_with_yesterdays_mistakes_then_due_reviews() -> None:
    skills = list(spec_of(Kind.IDENTIFY).skills)
    s = Scheduler({Kind.IDENTIFY: skills}, new_per_session=0)
    master(s, skills, T0)
    missed = [sk("identify:C:GC"), sk("identify:A:BS")]
    later = max(s.skills[k].due_at for k in missed) + DAY
    for n, skill in enumerate(missed):
        answer(s, skill, False, 3.0, later - DAY + n)
    rng = random.Random(2)
    first = s.choose([Kind.IDENTIFY], later, rng)
    assert first is not None and first.skill == missed[0]
    assert first.why.startswith("wrong last time")
    answer(s, first.skill, True, 1.0, later)
    second = s.choose([Kind.IDENTIFY], later, rng)
    assert second is not None and second.skill == missed[1]


def test_due_reviews_come_first_with_a_share_kept_for_new_skills() -> None:
    rules = spec_of(Kind.RULE).skills
    s = Scheduler({Kind.RULE: rules}, new_per_session=None, new_per_day=None)
    for skill in rules[:20]:
        answer(s, skill, True, 2.0, T0 - 3 * DAY)  # due in 2 days: all due now
    whys = []
    for _ in range(10):
        choice = s.choose([Kind.RULE], T0, random.Random(3))
        assert choice is not None
        whys.append(choice.why.split(" ")[0])
        s.advance()
        answer(s, choice.skill, True, 2.0, T0, in_session=True)
    assert whys == ["due"] * 4 + ["new:"] + ["due"] * 4 + ["new:"]
    assert whys.count("new:") == round(NEW_SHARE * 10)


def test_caught_up_means_nothing_to_ask() -> None:
    s = Scheduler({Kind.TABLE: spec_of(Kind.TABLE).skills}, new_per_session=2)
    rng = random.Random(4)
    for n in range(2):
        choice = s.choose([Kind.TABLE], T0 + n, rng)
        assert choice is not None and choice.why.startswith("new")
        s.advance()
        answer(s, choice.skill, True, 1.0, T0 + n, in_session=True)
    assert s.choose([Kind.TABLE], T0 + 10, rng) is None
    outlook = s.outlook([Kind.TABLE], T0 + 10)
    assert (outlook.due, outlook.new) == (0, 0) and outlook_words(outlook) == "0 due, 0 new"
    # Extra practice still has something to ask, and it is no review.
    s.advance()
    practice = s.practise([Kind.TABLE], T0 + 20, rng)
    assert practice is not None and practice.why.startswith("extra practice")
    rating = s.review(practice.skill, AnswerOutcome(True, 1.0, T0 + DAY * 5), practice=True,
                      in_session=True)
    assert rating is None and s.skills[practice.skill].reviews == 1
    # With two skills seen, practice never asks the one just answered again right away.
    for n in range(6):
        s.advance()
        asked = s.practise([Kind.TABLE], T0 + 30 + n, rng)
        assert asked is not None and asked.skill != practice.skill
        s.review(asked.skill, AnswerOutcome(True, 1.0, T0 + 30 + n), practice=True, in_session=True)
        practice = asked


def test_practice_prefers_weak_skills() -> None:
    skills = list(spec_of(Kind.LEGAL).skills)
    s = Scheduler({Kind.LEGAL: skills})
    master(s, skills, T0)
    weak = sk("legal:J")
    for n in range(4):
        answer(s, weak, False, 9.0, T0 + 1 + n * DAY)
        answer(s, weak, True, 9.0, T0 + 2 + n * DAY)
    assert s.weakest(1)[0].skill == weak
    rng = random.Random(4)
    picks: Counter[Skill] = Counter()
    for _ in range(600):
        choice = s.practise([Kind.LEGAL], T0 + 3, rng)
        assert choice is not None
        picks[choice.skill] += 1
    others = max(count for skill, count in picks.items() if skill != weak)
    assert picks[weak] > 2 * others


def test_drill_without_seed_replays_history_and_targets_mistakes() -> None:
    clock = [T0]
    first = Drill(DrillMode.RULE, store=None, clock=lambda: clock[0])
    asked = first.next_question()
    assert asked is not None
    first.record(asked, grade(asked, "not a letter", 2.0))
    rows = first.answered
    assert rows[0].grade.verdict.value == "unreadable"

    from defuser.trainer.store import AnswerRow

    history = [
        AnswerRow(1, 1, "rule", T0, "rule", asked.skill.key, asked.rule, "{}", asked.expected,
                  "x", "wrong", False, 2.0, None)
    ]
    clock[0] = T0 + DAY
    second = Drill(DrillMode.RULE, store=None, clock=lambda: clock[0], history=history)
    again = second.next_question()
    assert again is not None and again.skill == asked.skill
    assert again.why.startswith("wrong last time")


def test_seeded_drills_ignore_answers_and_history() -> None:
    def run(given: str) -> list[str]:
        lookups = (Kind.TABLE, Kind.IDENTIFY, Kind.RULE, Kind.LEGAL)
        d = Drill(DrillMode.MIXED, store=None, seed=42, kinds=lookups)
        texts = []
        for _ in range(12):
            q = d.next_question()
            assert q is not None
            texts.append(q.text)
            d.record(q, grade(q, q.expected if given == "right" else given, 1.0))
        return texts

    assert run("right") == run("zzz") == run("A")


# ----------------------------------------------------------------- teaching order


def test_table_shares_follow_the_serial_rule() -> None:
    shares = table_shares()
    assert sum(shares.values()) == pytest.approx(1.0)
    assert shares["D"] == pytest.approx(0.3339, abs=1e-4)
    assert shares["A"] == pytest.approx(0.1441, abs=1e-4)
    assert tables_by_share() == ("D", "B", "C", "A")


def test_new_skills_teach_parts_before_composites_and_common_tables_first() -> None:
    order = [s.key for s in teaching_order()]
    assert len(order) == len(set(order)) == sum(len(v) for v in all_skills().values())
    assert order[:3] == ["table:D", "identify:D:RC", "identify:D:BC"]
    assert order.index("table:B") < order.index("table:C") < order.index("table:A")
    last_lookup = max(order.index(k) for k in order if k.split(":")[0] in ("identify", "rule"))
    assert last_lookup < min(order.index(k) for k in order
                             if k.split(":")[0] in ("legal", "decide"))
    s = Scheduler(all_skills(), new_per_session=None, new_per_day=None)
    rng = random.Random(6)
    asked = []
    for n in range(6):
        choice = s.choose(list(all_skills()), T0 + n, rng)
        assert choice is not None and choice.why.startswith("new")
        asked.append(choice.skill.key)
        s.advance()
        answer(s, choice.skill, True, 1.0, T0 + n, in_session=True)
    # Table D first (a third of all serials), its circle row, then its heart row.
    assert asked == ["table:D", "identify:D:RC", "identify:D:BC", "identify:D:GC",
                     "identify:D:YC", "identify:D:RH"]


def test_new_skills_are_capped_per_session_and_per_day() -> None:
    s = Scheduler({Kind.RULE: spec_of(Kind.RULE).skills}, new_per_session=3, new_per_day=5)
    rng = random.Random(7)
    picked = []
    for n in range(6):
        choice = s.choose([Kind.RULE], T0 + n, rng)
        picked.append(choice)
        if choice is None:
            break
        s.advance()
        answer(s, choice.skill, True, 1.0, T0 + n, in_session=True)
    assert [c is not None and c.why.startswith("new") for c in picked[:3]] == [True] * 3
    assert picked[3] is None  # caught up: the session's cap holds, nothing is due
    assert s.new_left(T0 + 10) == (0, NewCap(per_day=False, used=3, cap=3))
    assert cap_words(NewCap(per_day=False, used=3, cap=3)) == "3 new this session, the cap is 3"
    # A later session the same day may add 2 more, then the daily cap holds.
    later = Scheduler({Kind.RULE: spec_of(Kind.RULE).skills}, new_per_session=3, new_per_day=5)
    for name, state in s.skills.items():
        if state.seen:
            answer(later, name, True, 1.0, state.first_at or T0)
    fresh = 0
    for n in range(6):
        choice = later.choose([Kind.RULE], T0 + 100 + n, rng)
        if choice is None:
            break
        fresh += choice.why.startswith("new")
        later.advance()
        answer(later, choice.skill, True, 1.0, T0 + 100 + n, in_session=True)
    assert fresh == 2
    assert later.new_today(T0 + 200) == 5
