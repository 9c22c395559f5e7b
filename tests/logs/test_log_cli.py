"""``mittens log analyze``: the JSON document, human output, exit codes, default path."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from gamelog_builder import SAMPLES, BombSpec, game_log, sample_index, sample_messages

INDEX = sample_index()


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _document(args: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    run = run_cli(["log", "analyze", "--json", *args], monkeypatch)
    assert run.code == 0, run.err
    assert run.out.count("\n") == 1
    data: dict[str, Any] = json.loads(run.out)
    return data


def test_json_document_of_a_game_log_with_two_bombs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = sample_messages("sample02.log")
    messages[9] = "The rule used now is B."  # real: A
    built = game_log(
        [
            BombSpec("MG9NE9", [2, 2, 1], {1: messages}, seed=11),
            BombSpec("FL7NL4", [1, 1], {2: sample_messages("sample06.log"),
                                        3: sample_messages("sample08.log")}),
        ],
        seed=3,
    )
    path = _write(tmp_path, "output_log.txt", built.data)
    doc = _document([str(path), "--no-judge"], monkeypatch)
    (entry,) = doc["files"]
    assert entry["path"] == str(path)
    first, second = entry["bombs"]
    assert (first["serial"], first["batteries"]) == ("MG9NE9", 5)
    assert (second["serial"], second["batteries"]) == ("FL7NL4", 2)
    (m1,) = first["modules"]
    assert {k: m1[k] for k in ("id", "table", "interval", "solved", "strikes", "actions")} == {
        "id": 1, "table": "A", "interval": 9, "solved": True, "strikes": 2, "actions": 22,
    }
    assert [i["line"] for i in m1["inconsistencies"]] == [built.numbers[(0, 1)][9]]
    assert isinstance(m1["inconsistencies"][0]["message"], str)
    ids = sorted(m["id"] for m in second["modules"])
    assert ids == [2, 3]
    for module in second["modules"]:
        if module["id"] == 2:
            assert module["inconsistencies"] == [] and module["interval"] == 11
        else:
            # Sample 8 is a Table D game: on FL7NL4 (Table C) its table line is wrong.
            assert module["inconsistencies"][0]["line"] == built.numbers[(1, 3)][0]


def test_unknown_edgework_is_null_and_inferred(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _document([str(SAMPLES / "sample03.log")], monkeypatch)
    (bomb,) = doc["files"][0]["bombs"]
    assert bomb["serial"] is None and bomb["batteries"] is None
    (module,) = bomb["modules"]
    assert module["table"] == "B" and module["interval"] is None
    assert module["interval_candidates"] == [9, 10, 11, 12, 13]
    assert module["last_digit_candidates"] == [1]
    assert module["inconsistencies"] == []
    assert module["judged"] is False
    assert any("unknown" in note for note in module["notes"])


def test_every_sample_is_clean_through_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(SAMPLES / name) for name in sorted(INDEX)]
    doc = _document([*paths, "--no-judge"], monkeypatch)
    for name, entry in zip(sorted(INDEX), doc["files"], strict=True):
        (module,) = entry["bombs"][0]["modules"]
        assert module["inconsistencies"] == []
        assert module["strikes"] == INDEX[name]["strikes"]
        assert module["solved"] is INDEX[name]["solved"]


def test_decisions_are_judged_when_the_edgework_is_known(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _document([str(SAMPLES / "sample07.log"), "--serial", "RP9CW7", "--batteries", "0"],
                    monkeypatch)
    (module,) = doc["files"][0]["bombs"][0]["modules"]
    assert module["judged"] is True
    replay = module["replay"]
    assert len(replay) == module["actions"] == 29
    verdicts = [step["judgement"]["verdict"] for step in replay]
    assert set(verdicts) <= {"best", "slower", "risky"}
    assert sum(module["verdicts"].values()) == len(replay)
    # Every strike of this game was a risk the player took; the first was a blind draw
    # with the first mitten's place still unknown.
    for step in replay:
        if step["outcome"] == "strike":
            assert step["judgement"]["verdict"] == "risky"
            assert step["strike_reason"]
    first_strike = next(s for s in replay if s["outcome"] == "strike")
    assert first_strike["line"] == 16 and first_strike["strike"] == "mitten-on-top"
    assert 0 < first_strike["judgement"]["strike_probability"] < 1
    solve = replay[-1]
    assert solve["outcome"] == "solved" and solve["judgement"]["verdict"] == "best"


def test_human_output_explains_strikes_and_inconsistencies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (SAMPLES / "sample07.log").read_text().splitlines()
    lines[10] = "[Exploding Mittens #1] (The Exploding Mitten is coming in 4 draws.)"
    path = _write(tmp_path, "game.log", ("\n".join(lines) + "\n").encode())
    run = run_cli(["log", "analyze", str(path), "--serial", "RP9CW7", "--batteries", "0"],
                  monkeypatch)
    assert run.code == 0, run.err
    out = run.out
    assert "Table D, last digit 7, N = 9" in out
    assert "opening: discard RC" in out
    assert "line 16: draw under rule E: STRIKE, the Exploding Mitten was on top" in out
    assert "player's view:" in out and "risky" in out
    assert "1 inconsistencies:" in out or "inconsistencies:" in out
    assert "line 11: the line says rule J, expected rule E" not in out
    assert "line 11:" in out.split("inconsistencies:")[1]
    # ... and marked in the replay, right under the click whose lines hold it.
    replay = re.split(r"\n    \d+ inconsistenc", out.split("replay:")[1])[0].splitlines()
    marked = [n for n, text in enumerate(replay) if "! inconsistency at line 11:" in text]
    assert len(marked) == 1
    row = next(text for text in reversed(replay[:marked[0]]) if "      line " in text)
    assert int(row.split("line ")[1].split(":")[0]) <= 11
    brief = run_cli(["log", "analyze", str(path), "--brief", "--no-judge"], monkeypatch)
    assert "replay:" not in brief.out and "strikes:" in brief.out


def test_check_mode_exit_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = (SAMPLES / "sample03.log").read_text().splitlines()
    clean = _write(tmp_path, "clean.log", ("\n".join(lines) + "\n").encode())
    lines[2] = "[Exploding Mittens #1] The rule used is K."
    bad = _write(tmp_path, "bad.log", ("\n".join(lines) + "\n").encode())
    assert run_cli(["log", "analyze", "--check", "--no-judge", str(clean)],
                   monkeypatch).code == 0
    assert run_cli(["log", "analyze", "--no-judge", str(bad)], monkeypatch).code == 0
    run = run_cli(["log", "analyze", "--check", "--no-judge", "--json", "--serial", "784TA1",
                   str(bad)], monkeypatch)
    assert run.code == 1 and json.loads(run.out)["files"][0]["bombs"]


def test_a_missing_file_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["log", "analyze", str(tmp_path / "nope.log")], monkeypatch)
    assert run.code == 2 and run.out == ""
    assert run.err.count("\n") == 1 and "nope.log" in run.err and "does not exist" in run.err
    run = run_cli(["log", "analyze", str(tmp_path)], monkeypatch)
    assert run.code == 2 and "directory" in run.err


def test_no_file_reads_the_default_log_and_says_which(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path))
    run = run_cli(["log", "analyze", "--json"], monkeypatch)
    assert run.code == 2 and "Player.log" in run.err
    folder = tmp_path / ".config" / "unity3d" / "Steel Crate Games" / (
        "Keep Talking and Nobody Explodes"
    )
    folder.mkdir(parents=True)
    (folder / "Player.log").write_bytes((SAMPLES / "sample05.log").read_bytes())
    run = run_cli(["log", "analyze", "--json", "--no-judge"], monkeypatch)
    assert run.code == 0
    assert "Player.log" in run.err
    doc = json.loads(run.out)
    assert doc["files"][0]["path"].endswith("Player.log")


def test_reads_the_logs_that_mittens_play_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in (3, 7, 11):
        log = tmp_path / f"play{seed}.log"
        script = "draw\nplay 1\ndiscard\ndraw\ndiscard\nplay 2\ndraw\ndiscard\ndiscard\n" * 3
        played = run_cli(["play", "--seed", str(seed), "--serial", "AB3CD4", "--batteries",
                          "3", "--strikes", "0", "--log", str(log)], monkeypatch, stdin=script)
        assert played.code == 0, played.err
        doc = _document([str(log), "--serial", "AB3CD4", "--batteries", "3"], monkeypatch)
        (module,) = doc["files"][0]["bombs"][0]["modules"]
        assert module["inconsistencies"] == []
        assert module["actions"] >= 1 and module["judged"] is True


def test_bad_bytes_and_noise_never_break_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = game_log([BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")})])
    data = b"\xff\xfe\x00garbage\n" + built.data.replace(b"[State]", b"[St\xe9te]")
    data = data[: len(data) - 200]  # and cut short
    path = _write(tmp_path, "broken.log", data)
    doc = _document([str(path), "--no-judge"], monkeypatch)
    (module,) = doc["files"][0]["bombs"][0]["modules"]
    assert module["inconsistencies"] == []
    run = run_cli(["log", "analyze", str(path), "--no-judge"], monkeypatch)
    assert run.code == 0 and "0 inconsistencies" in run.out
