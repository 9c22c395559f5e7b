"""The one clock formatter: m:ss, and the game's bomb timer."""

from __future__ import annotations

import pytest

from defuser.engine.clock import time_text


@pytest.mark.parametrize(
    ("ms", "plain", "game", "whole_minutes"),
    [
        (0, "0:00", "00.00", "00:00"),
        (7_430, "0:07", "07.43", "00:07"),
        (59_999, "0:59", "59.99", "00:59"),
        (60_000, "1:00", "01:00", "01:00"),
        (299_999, "4:59", "04:59", "04:59"),
        (720_000, "12:00", "12:00", "12:00"),
    ],
)
def test_time_text(ms: int, plain: str, game: str, whole_minutes: str) -> None:
    assert time_text(ms) == plain
    assert time_text(ms, game=True) == game
    assert time_text(ms, game=True, under_minute=False) == whole_minutes
