"""The docs and the code stand alone: nothing cites a file the reader does not have."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Names of files that live outside the repository (the project's private sources).
OUTSIDE = ("module-behaviour.md", "/work/shared", "exploding-mittens-manual.txt")


def _shipped() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for package in ("defuser", "edgework", "hardware"):
        files += sorted((ROOT / package).rglob("*.py"))
    return files


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reference_to_files_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not [name for name in OUTSIDE if name in text]


def test_rules_md_states_the_deck_and_cycle_rules() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for fact in (
        "The first card dealt is never the mitten",
        "a Defuse never comes right after a mitten",
        "The first cycle may hold no Defuse",
        "A draw into two unplayable cards gives a playable one",
        "k equally likely to be any of 2, 3, ..., N-1",
    ):
        assert fact in rules
