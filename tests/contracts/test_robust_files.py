"""Issue 15 rows 7-10 and 24: user files are read within bounds, never with a traceback."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_cli
from gamelog_builder import BombSpec, game_log, sample_messages

from defuser.apps import table_io
from defuser.commands import log as log_command
from defuser.logs import reader as reader_module
from defuser.logs import stream as stream_module
from defuser.logs.reader import read_log


def one_line(run_err: str) -> None:
    assert "Traceback" not in run_err
    assert len(run_err.strip().splitlines()) == 1, run_err


# ---------------------------------------------------------------- row 9: verify


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000),
        ("deep-object.json", '{"a":' * 50_000 + "1" + "}" * 50_000),
        ("number.json", '{"card_tables": {"A": {"circle": {"red": ' + "9" * 5000 + "}}}}"),
        ("field.csv", 'table,row,column,value\nA,circle,red,"' + "x" * 200_000 + '"\n'),
        ("digit.csv", "table,row,column,value\nE,yep,\u00b2,A\n"),
    ],
    ids=["deep-array", "deep-object", "long-number", "huge-field", "superscript-digit"],
)
def test_verify_hostile_files_are_one_line(
    name: str, content: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 2
    one_line(run.err)


def test_verify_reads_cr_only_line_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes(table_io.render_csv().replace("\n", "\r").encode("utf-8"))
    run = run_cli(["verify", str(path)], monkeypatch)
    assert run.code == 0, run.err
    assert "matches" in run.out


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc")
def test_verify_an_unreadable_file_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["verify", "/proc/self/mem"], monkeypatch)
    assert run.code == 2
    one_line(run.err)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_verify_dev_zero_is_a_size_error(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["verify", "/dev/zero"], monkeypatch)
    assert run.code == 2
    one_line(run.err)
    assert "larger than" in run.err


def test_verify_stdin_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_cli(["verify", "-"], monkeypatch, stdin="x" * (table_io.MAX_TRANSCRIPTION_BYTES + 2))
    assert run.code == 2
    one_line(run.err)


# ---------------------------------------------------------------- rows 7 and 8: log size


def _chunks(line: bytes, count: int, per_chunk: int = 4096) -> Iterator[bytes]:
    """``count`` copies of ``line``, as a stream of chunks (never all in memory)."""
    while count > 0:
        n = min(per_chunk, count)
        yield line * n
        count -= n


def test_read_log_streams_in_bounded_memory() -> None:
    noise = b"[Other #1] something happened that is not ours at all, again\n"
    tracemalloc.start()
    game = read_log(_chunks(noise, 40_000, per_chunk=256))  # 2.5 MB of text
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert game.line_count == 40_000
    assert peak < 1024 * 1024  # far less than the text: only a chunk at a time


def test_repeated_table_lines_stay_one_instance() -> None:
    line = b"[Exploding Mittens #1] You should use Table A.\n"
    game = read_log(_chunks(line, 50_000))
    assert len(game.modules) == 1
    assert len(game.modules[0].lines) == 50_000


def test_a_table_line_before_an_opening_starts_a_new_instance() -> None:
    built = game_log([BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")})])
    twice = built.data + built.data.replace(b"[BombGenerator]", b"[Other]")
    game = read_log(iter([twice[i : i + 7] for i in range(0, len(twice), 7)]))
    assert len(game.modules) == 2
    assert game.modules[0].last_line < game.modules[1].first_line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_log_analyze_dev_zero_is_a_size_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_command, "MAX_LOG_BYTES", 8 << 20)
    run = run_cli(["log", "analyze", "/dev/zero"], monkeypatch)
    assert run.code == 2
    one_line(run.err)
    assert "larger than" in run.err


# ---------------------------------------------------------------- row 10: huge numbers


def test_log_analyze_with_huge_ids_lists_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "ids.log"
    path.write_bytes(
        b"[BombGenerator] Generating bomb with seed 1\n"
        b"[BatteryWidget] Randomizing Battery Widget: " + b"9" * 5000 + b"\n"
        b"[Exploding Mittens #" + b"9" * 5000 + b"] You should use Table A.\n"
    )
    run = run_cli(["log", "analyze", "--json", str(path)], monkeypatch)
    assert run.code == 0, run.err
    problems = json.loads(run.out)["files"][0]["problems"]
    assert len(problems) == 2


# ---------------------------------------------------------------- row 24: odd logs


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_logs_are_read(
    encoding: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = game_log([BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")})])
    path = tmp_path / "utf16.log"
    path.write_bytes(built.data.decode("utf-8").encode(encoding))
    run = run_cli(["log", "analyze", "--json", "--no-judge", str(path)], monkeypatch)
    assert run.code == 0, run.err
    (bomb,) = json.loads(run.out)["files"][0]["bombs"]
    assert len(bomb["modules"]) == 1
    assert bomb["modules"][0]["inconsistencies"] == []


def test_escape_codes_in_a_log_never_reach_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "esc.log"
    path.write_bytes(
        b"[BombGenerator] Generating bomb with seed \x1b[2J\n"
        b"[SerialNumber] Randomizing Serial Number: \x1b]0;owned\x07AB\n"
        b"[IndicatorWidget] Randomizing Indicator Widget: \x1b[31mFRK\n"
        b"[Exploding Mittens #1] You should use Table A.\x1b[2J\n"
        b"[Exploding Mittens #1] \x1b[H\x9b2J\n"
    )
    for args in (["log", "analyze", str(path)], ["log", "analyze", "--brief", str(path)]):
        run = run_cli(args, monkeypatch)
        assert run.code == 0, run.err
        for text in (run.out, run.err):
            assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text


def test_live_follow_tail_cleans_and_bounds_lines(tmp_path: Path) -> None:
    from defuser.apps.follow.tail import LogTail
    from defuser.logs.reader import MAX_LINE_CHARS

    path = tmp_path / "Player.log"
    path.write_bytes(b"[Exploding Mittens #1] \x1b[2JYou should use Table A.\n" + b"x" * 300_000)
    tail = LogTail(path)
    lines = tail.read().lines
    assert lines == ["[Exploding Mittens #1] \ufffd[2JYou should use Table A."]
    with path.open("ab") as handle:
        handle.write(b"y" * 300_000 + b"\n")
    lines = tail.read().lines
    assert len(lines) == 1 and len(lines[0]) <= MAX_LINE_CHARS


def test_module_lines_past_the_bound_are_counted_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reader_module, "MAX_MODULE_LINES", 1_000)
    line = b"[Exploding Mittens #1] You should use Table A.\n"
    tracemalloc.start()
    game = read_log(_chunks(line, 30_000))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert sum(len(m.lines) for m in game.modules) == 1_000
    assert peak < 2 * 1024 * 1024  # what was kept, not what was read
    (problem,) = game.problems
    assert problem.line == 1_001
    assert "29,000" in problem.message and "not read" in problem.message


def test_bombs_widgets_and_problems_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream_module, "MAX_BOMBS", 5)
    monkeypatch.setattr(stream_module, "MAX_PROBLEMS", 3)
    bomb = b"[BombGenerator] Generating bomb with seed 1\n"
    widget = b"[BatteryWidget] Randomizing Battery Widget: 2\n"
    bad = b"[Exploding Mittens #x] ?\n" * 10
    # Past the last bomb kept, its own edgework lines are passed over with it.
    game = read_log(bomb * 5 + widget * 150 + bomb * 2 + widget * 3 + bad)
    assert len(game.bombs) == 5
    assert len(game.bombs[-1].holders) == stream_module.MAX_WIDGETS
    readable = [p for p in game.problems if "could not read" in p.message]
    assert len(readable) == 3
    notes = [p.message for p in game.problems if "a bound on what one log may hold" in p.message]
    assert len(notes) == 3  # bombs, widget lines and problems past their bounds
    assert any(n.startswith("lines of bombs past the first 5 not read: 5,") for n in notes)
    assert any(n.startswith("widget lines past 100 on one bomb not read: 50,") for n in notes)
