"""Every answer is stored exactly once: graded answers once each, skipped lines never."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.trainer.store import Store


def stored(db: Path) -> list[tuple[str, str, int | None]]:
    with Store.open(db) as store:  # type: ignore[union-attr]
        return [(r.skill, r.given, r.rating) for r in store.answers()]


def test_each_piped_answer_is_stored_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "stats.sqlite3"
    run = run_cli(["drill", "--mode", "table", "--seed", "2", "--count", "3", "--json",
                   "--db", str(db)], monkeypatch, stdin="A\nzz\nB\n")
    assert run.code == 0, run.err
    objects = [json.loads(line) for line in run.out.splitlines()]
    rows = stored(db)
    assert [(o["skill"], o["given"], o["rating"]) for o in objects] == rows
    assert [r[1] for r in rows] == ["A", "zz", "B"]


def test_a_game_stores_each_played_click_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "stats.sqlite3"
    run = run_cli(["drill", "--mode", "game", "--seed", "4", "--json", "--db", str(db)],
                  monkeypatch, stdin="play 1\nnonsense\ndraw\nquit\n")
    assert run.code == 0, run.err
    clicks = [json.loads(line) for line in run.out.splitlines()]
    assert [c["given"] for c in clicks] == ["play 1", "draw"]  # the unreadable line skipped
    assert [r[1] for r in stored(db)] == ["play 1", "draw"]
