"""``mittens play``: its log carries the bomb's edgework as the game writes it, so
``log analyze`` judges it without flags; and one click syntax, the drill's, is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli

from defuser.commands.play import HELP_TEXT, read_click
from defuser.engine.actions import Action, ActionKind
from defuser.errors import InvalidCommandError


def test_log_analyze_judges_a_play_log_without_being_told_the_edgework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "game.log"
    run = run_cli(
        ["play", "--edgework", "3B 2H // *FRK, BOB // [DVI, Parallel] [Empty] // KT4RE7",
         "--seed", "5", "--log", str(log)],
        monkeypatch, stdin="discard\ndiscard\nplay 1\n",
    )
    assert run.code == 0, run.err
    run = run_cli(["log", "analyze", "--json", str(log)], monkeypatch)
    assert run.code == 0, run.err
    bomb = json.loads(run.out)["files"][0]["bombs"][0]
    assert (bomb["serial"], bomb["batteries"]) == ("KT4RE7", 3)
    assert bomb["serial_source"] == bomb["batteries_source"] == "log"
    assert bomb["indicators"] == ["lit FRK", "unlit BOB"]
    assert bomb["ports"] == ["DVI, Parallel", ""]
    module = bomb["modules"][0]
    assert module["inconsistencies"] == [] and module["judged"]
    # A --serial that contradicts the log is one note, not a list of wrong lines.
    run = run_cli(["log", "analyze", "--json", "--serial", "BC1DF2", str(log)], monkeypatch)
    bomb = json.loads(run.out)["files"][0]["bombs"][0]
    assert bomb["notes"] == [
        "the serial number given (BC1DF2) is not used for this bomb: the log shows its "
        "serial number, KT4RE7"
    ]
    assert bomb["modules"][0]["inconsistencies"] == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p1", Action(ActionKind.PLAY, 1)),
        ("P3", Action(ActionKind.PLAY, 3)),
        ("2", Action(ActionKind.PLAY, 2)),
        ("play2", Action(ActionKind.PLAY, 2)),
        ("!1 play 2", Action(ActionKind.PLAY, 2)),
        ("draw", Action(ActionKind.DRAW)),
        ("dr", Action(ActionKind.DRAW)),
        ("disc", Action(ActionKind.DISCARD)),
    ],
)
def test_play_reads_the_drills_click_syntax(text: str, expected: Action) -> None:
    assert read_click(text) == expected


@pytest.mark.parametrize("text", ["play 4", "p4", "hello", "defuse", "play 1 2"])
def test_play_refuses_what_no_syntax_reads_with_the_twitch_plays_error(text: str) -> None:
    with pytest.raises(InvalidCommandError) as info:
        read_click(text)
    assert repr(text) in str(info.value)


def test_play_takes_p1_in_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["play", "--seed", "7", "--json"], monkeypatch, stdin="p1\n")
    objects = [json.loads(line) for line in run.out.splitlines()]
    assert objects[1]["command"] == "p1" and objects[1]["action"] == "play 1"


def test_play_help_states_the_lone_defuse_exception() -> None:
    assert "a Defuse that is the only legal card does not count" in " ".join(HELP_TEXT.split())


def test_an_explosion_at_one_strike_says_strike(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["play", "--seed", "3", "--strikes", "1"], monkeypatch, stdin="draw\n")
    assert "BOOM! The bomb exploded at 1 strike.\n" in run.out
    assert "1 action, 1 strike," in run.out
