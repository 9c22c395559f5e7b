"""``mittens drill --mode game``: whole simulated modules, every click graded."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_helpers import check_golden, run_cli
from trainer_helpers import steady

from defuser.trainer.game import Game
from defuser.trainer.grading import grade
from defuser.trainer.model import Verdict
from defuser.trainer.store import Store


def test_following_the_policy_solves_without_loss() -> None:
    rng = random.Random(12)
    for _ in range(3):
        game = Game.new(rng)
        while not game.over:
            question = game.question()
            result = grade(question, question.expected, 1.0)
            assert result.verdict is Verdict.BEST
            game.play(result)
            assert game.clicks < 200
        summary = game.summary()
        assert summary.solved and summary.strikes == 0
        assert summary.total_loss == 0.0
        assert summary.verdicts == {"best": summary.clicks}


def test_three_strikes_explode_the_bomb() -> None:
    game = Game.new(random.Random(3))
    while not game.over:
        question = game.question()
        risky = next(str(o.action) for o in question.options if o.strike_risk == 1.0)
        result = grade(question, risky, 1.0)
        assert result.verdict is Verdict.BLUNDER
        game.play(result)
    summary = game.summary()
    assert summary.exploded and not summary.solved
    assert summary.strikes == 3 and summary.clicks == 3
    assert summary.verdicts == {"blunder": 3}


def test_scripted_game_golden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "stats.sqlite3"
    clicks = "play 1\ndraw\nbanana\ndiscard\n2\ndiscard\ndiscard\ndraw\n"
    run = run_cli(["drill", "--mode", "game", "--seed", "4", "--db", str(db)], monkeypatch,
                  stdin=clicks)
    assert run.code == 0, run.err
    check_golden("trainer/drill_game_seed4.txt", steady(run.out))
    assert "Line skipped" in run.out  # the unreadable line is not played
    with Store.open(db) as store:  # type: ignore[union-attr]
        rows = store.answers()
    assert len(rows) == 7
    assert {r.kind for r in rows} == {"decide"} and {r.mode for r in rows} == {"game"}
    assert [r.given for r in rows][:2] == ["play 1", "draw"]


def test_game_json_has_one_object_per_click(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "stats.sqlite3"
    run = run_cli(["drill", "--mode", "game", "--seed", "4", "--json", "--db", str(db)],
                  monkeypatch, stdin="play 1\ndraw\ndiscard\n")
    objects = [json.loads(line) for line in run.out.splitlines()]
    assert [o["given"] for o in objects] == ["play 1", "draw", "discard"]
    assert [o["grade"] for o in objects] == ["best", "good", "blunder"]
    assert objects[2]["outcome"] == "strike" and objects[2]["strike"] == "discard-blocked"
    assert objects[0]["state"]["hand"] == objects[1]["question"]["hand"]
    for o in objects:
        assert o["game"] == 1 and o["kind"] == "decide"
        assert {opt["action"] for opt in o["question"]["options"]} == {
            "draw", "discard", "play 1", "play 2", "play 3"}
    assert "Game 1/1" in run.err and "Session" in run.err
