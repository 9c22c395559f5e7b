"""The scheduler over 60 simulated days (the figures docs/trainer.md reports)."""

from __future__ import annotations

import pytest
from fsrs import Rating

from defuser.devtools.simulate_learner import main
from defuser.trainer.scheduler import MAXIMUM_INTERVAL
from defuser.trainer.simulate import Figures, simulate


@pytest.fixture(scope="module")
def figures() -> Figures:
    """Sixty days of a simulated learner (seed 1, as documented)."""
    return simulate(60, seed=1)


def test_every_skill_is_asked_and_nothing_compounds(figures: Figures) -> None:
    assert figures.never_asked == []  # Tables C and D were never asked before
    assert figures.repeated_reviews == 0  # one review per skill per learner's day
    assert figures.largest_interval <= MAXIMUM_INTERVAL
    assert figures.largest_stability < 365  # 2,315 days before, from compounding


def test_ratings_are_mostly_good_easy_is_rare(figures: Figures) -> None:
    assert figures.share(Rating.Easy) < 0.12  # 23-36% before, Easy from speed alone
    assert figures.share(Rating.Hard) < 0.08  # normal spread is not Hard
    assert figures.share(Rating.Good) > 0.5


def test_reviews_come_on_their_day(figures: Figures) -> None:
    ratios = sorted(figures.ratios)
    assert len(ratios) > 500
    assert ratios[len(ratios) // 2] == 1.0  # median: on the day (1.35 before)
    assert ratios[int(0.9 * (len(ratios) - 1))] <= 1.5  # 2.06 before
    assert sorted(figures.late_days)[len(ratios) // 2] == 0


def test_the_figures_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--days", "3", "--seed", "2"])
    out = capsys.readouterr().out
    assert out.startswith("3 days, ") and "ratings: Again" in out
    assert "skills never asked: " in out
