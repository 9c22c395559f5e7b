"""The docs' generated blocks match what the commands print today."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from docs_sync import BLOCK, documents, run_mittens, sync


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name)
def test_generated_blocks_are_current(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert sync(text) == text, f"{path.name} is stale: run python tests/docs_sync.py"


def test_rules_page_renders_tables_from_data() -> None:
    rules = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    blocks = [m.group("args") for m in BLOCK.finditer(rules)]
    assert "tables --format markdown" in blocks


def test_rendering_a_block_leaves_the_environment_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks render at 100 columns without colour, but pytest's own output (and every
    later test) keeps the width and colour it had."""
    monkeypatch.setenv("COLUMNS", "123")
    monkeypatch.delenv("NO_COLOR", raising=False)
    before = dict(os.environ)
    assert "Usage" in run_mittens(["--help"])
    assert dict(os.environ) == before
