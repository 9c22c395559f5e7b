"""defuser.trainer.namelock: a database open under one name is seen from every other name."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from defuser.trainer.namelock import OtherName, check, hold

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="open-file locks are Linux's")


@pytest.fixture
def names(tmp_path: Path) -> tuple[Path, Path]:
    """A file and a second name of it (a hard link)."""
    first = tmp_path / "s.db"
    first.write_bytes(b"x")
    second = tmp_path / "hard.db"
    os.link(first, second)
    return first, second


def test_sessions_through_one_name_share_it(names: tuple[Path, Path]) -> None:
    first, _ = names
    one = hold(first)
    assert one.alone()
    two = hold(first)
    assert not one.alone() and not two.alone()
    check(first)
    two.close()
    assert one.alone()
    one.close()


def test_another_name_is_refused_while_one_is_held(names: tuple[Path, Path]) -> None:
    first, second = names
    lock = hold(first)
    with pytest.raises(OtherName) as refused:
        hold(second)
    assert str(refused.value) == str(second)
    with pytest.raises(OtherName):
        check(second)
    lock.close()
    lock.close()  # closing twice is harmless
    hold(second).close()
    check(first)


def test_a_name_that_cannot_be_read_is_left_to_sqlite(tmp_path: Path) -> None:
    lock = hold(tmp_path / "missing.db")
    assert lock.alone()
    check(tmp_path / "missing.db")
    lock.close()
