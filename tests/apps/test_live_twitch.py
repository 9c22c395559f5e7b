"""Twitch Plays: the advice as the whole chat command (``!7 play 3``), from ``--twitch`` in
a typed session and ``--twitch N=CODE`` per module with ``--follow`` (a game's log never
says which code Twitch Plays gave a module)."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_cli
from gamelog_builder import BombSpec, game_log, simulated_messages

from defuser.apps.follow.follower import Follower
from defuser.apps.live_words import twitch_code


def test_a_typed_session_answers_with_the_chat_command(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = "start YC YT GT GC\np3\n"
    run = run_cli(["live", "--serial", "AB3CD4", "--batteries", "3", "--twitch", "7"],
                  monkeypatch, stdin)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[1].startswith("!7 play 3 (GC): ")
    assert lines[2].startswith("!7 discard: ")
    # The JSON protocol keeps its keys: the command stays the bare one.
    run = run_cli(["live", "--serial", "AB3CD4", "--batteries", "3", "--twitch", "7", "--json"],
                  monkeypatch, stdin)
    assert json.loads(run.out.splitlines()[0])["recommendation"]["command"] == "play 3"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--twitch", "7", "--twitch", "8"], "2 codes given, expected one for a typed session"),
        (["--twitch", "7x8"], "'7x8' is not a Twitch Plays module code"),
        (["--twitch", "0"], "'0' is not a Twitch Plays module code"),
        (["--follow", "game.log", "--twitch", "7"], "'7' names no module, expected N=CODE"),
        (["--follow", "game.log", "--twitch", "1=!"], "'1=!' is not a Twitch Plays module code"),
    ],
)
def test_a_bad_code_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, args: list[str], words: str
) -> None:
    run = run_cli(["live", *args], monkeypatch)
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert words in run.err


@pytest.mark.parametrize(
    ("text", "code"),
    [("7", "7"), ("!12", "12"), (" em ", "EM"), ("B2", "B2"), ("1000", None), ("", None),
     ("!", None), ("7 8", None)],
)
def test_twitch_codes(text: str, code: str | None) -> None:
    assert twitch_code(text) == code


def test_a_chat_command_with_a_letter_code_is_read_and_names_the_module() -> None:
    from defuser.apps.live_session import LiveSession
    from defuser.apps.live_words import expand
    from edgework import Batteries, SerialNumber

    assert expand("!EM p3") == "played 3" and expand("!7 disc BT") == "discarded BT"
    session = LiveSession(SerialNumber.parse("AB3CD4"), Batteries(3))
    assert session.handle("start YC YT GT GC").ok
    assert session.handle("!em p3").ok and session.twitch == "EM"
    assert session.handle("state").chat_command == "!EM discard"


def test_the_follower_gives_each_module_its_own_chat_command() -> None:
    log = game_log([BombSpec("AB3CD4", [2, 1], {
        1: simulated_messages("AB3CD4", [2, 1], seed=4, module_id=1),
        2: simulated_messages("AB3CD4", [2, 1], seed=5, module_id=2),
    })])
    follower = Follower(twitch={2: "12"})
    advice = [a for a in follower.feed_all(log.lines) if a.reply.recommendation.action]
    assert {a.module_id for a in advice} == {1, 2}
    for item in advice:
        command = str(item.reply.recommendation.action)
        if item.module_id == 2:
            assert item.reply.chat_command == f"!12 {command}"
            assert item.reply.lines()[0].startswith(f"!12 {command}")
        else:
            assert item.reply.chat_command is None
            assert item.reply.lines()[0].startswith(command)
