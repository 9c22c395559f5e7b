"""The maintainers' command lines (``python -m defuser.devtools.NAME``), run in-process
with arguments that keep them cheap; what they compute is tested with the library
modules they call (the shipped solutions in tests/strategy, the learner in tests/trainer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from defuser.devtools import build_solutions, simulate_learner


def test_the_simulated_learner_prints_the_same_figures_for_the_same_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    simulate_learner.main(["--days", "3", "--seed", "2"])
    first = capsys.readouterr().out
    simulate_learner.main(["--days", "3", "--seed", "2"])
    assert capsys.readouterr().out == first
    assert first.startswith("3 days, ")
    assert "ratings: Again" in first


@pytest.mark.parametrize(
    ("contents", "says"),
    [(None, "no such solutions file"), (b"garbage\n", "no usable solution for")],
)
def test_later_only_needs_a_usable_solutions_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], contents: bytes | None, says: str
) -> None:
    solutions, later = tmp_path / "solutions.bin", tmp_path / "later.bin"
    if contents is not None:
        solutions.write_bytes(contents)
    with pytest.raises(SystemExit) as ended:
        build_solutions.main(["--later-only", "--output", str(solutions),
                              "--later-output", str(later)])
    assert ended.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert str(solutions) in last and says in last and "without --later-only" in last
    assert not later.exists()
