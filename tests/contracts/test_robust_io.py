"""Issue 15 and issue 12 item 4: hostile input, odd streams, Ctrl-C and broken pipes.

Raw bytes on stdin and narrow stdout encodings run ``main`` in this process with
byte-level streams (:func:`cli_helpers.run_cli_bytes`, the streams ``PYTHONIOENCODING``
would give). What only a process shows runs the real ``python -m defuser``
(:func:`cli_helpers.run_process`): the locale, closed file descriptors, a reader that
goes away, Ctrl-C.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path

import pytest
from cli_helpers import Raw, run_cli_bytes, run_process, start_process


def no_traceback(result: Raw) -> str:
    """stderr as text, after checking it holds no traceback."""
    err = result.err.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return err


def json_lines(data: bytes) -> list[dict[str, object]]:
    """Every stdout line parsed as JSON, after checking the bytes are valid UTF-8."""
    text = data.decode("utf-8")  # raises on invalid UTF-8
    return [json.loads(line) for line in text.splitlines()]


# ------------------------------------------------------------ row 4: undecodable bytes


def test_solve_batch_bad_byte_answers_that_line_and_keeps_the_rest() -> None:
    lines = [b"AB3CD4 3 RC"] * 1000 + [b"\xff"] + [b"AB3CD4 3 RC"] * 1000
    result = run_cli_bytes(["solve", "--batch", "--json"], b"\n".join(lines) + b"\n")
    no_traceback(result)
    objects = json_lines(result.out)
    assert len(objects) == 2001
    assert objects[1000]["line"] == 1001 and "error" in objects[1000]
    assert result.code == 1


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("play", "--seed", "1", "--json"), b"draw\n\xff\xfe\nquit\n"),
        (("live", "--json"), b"serial AB3CD4\n\xff\nbatteries 3\n"),
        (("drill", "--seed", "1", "--count", "2", "--json"), b"\xff\nA\n"),
    ],
)
def test_stdin_commands_answer_a_bad_byte_line(
    args: tuple[str, ...], stdin: bytes, tmp_path: Path
) -> None:
    if args[0] == "drill":
        args = (*args, "--db", str(tmp_path / "s.db"))
    result = run_cli_bytes(args, stdin)
    no_traceback(result)
    objects = json_lines(result.out)
    assert objects, result
    assert result.code == 0


def test_drill_stores_an_undecodable_answer(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    result = run_cli_bytes(["drill", "--seed", "1", "--count", "1", "--db", str(db)], b"\xff\n")
    no_traceback(result)
    assert result.code == 0
    export = run_cli_bytes(["stats", "--db", str(db), "--export", "-"])
    assert export.code == 0
    export.out.decode("utf-8")


def test_verify_stdin_with_a_bad_byte_is_one_line(tmp_path: Path) -> None:
    result = run_cli_bytes(["verify", "-"], b"{\xff}")
    err = no_traceback(result)
    assert result.code == 2
    assert len(err.strip().splitlines()) == 1


def test_stats_reset_prompt_reads_a_bad_byte_as_no(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    run_cli_bytes(["drill", "--seed", "1", "--count", "1", "--db", str(db)], b"A\n")
    result = run_cli_bytes(["stats", "--db", str(db), "--reset"], b"\xff\n")
    no_traceback(result)
    assert result.code == 1
    again = run_cli_bytes(["stats", "--db", str(db), "--json"])
    assert json.loads(again.out)["total"]["answers"] == 1


def test_c_utf8_locale_json_stays_valid_utf8() -> None:
    env = {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PYTHONIOENCODING": ""}
    result = run_process(["solve", "--batch", "--json"], b"AB3CD4 3 RC \xff\n", env=env)
    no_traceback(result)
    json_lines(result.out)
    result = run_process(["play", "--seed", "2", "--json"], b"dr\xffaw\n", env=env)
    no_traceback(result)
    json_lines(result.out)


# ------------------------------------------------------------ row 5: narrow encodings


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("solve", "--serial", "AB3CD4", "--batteries", "3", "--discard", "RC",
          "--hand", "BH GS YT"), b""),
        (("play", "--seed", "3"), b"draw\nplay 1\n"),
        (("live",), b"serial AB3CD4\nbatteries 3\nstart RC BH GS YT\n"),
        (("tables",), b""),
        (("prop", "--demo", "--seed", "1"), b""),
    ],
    ids=["solve", "play", "live", "tables", "prop-demo"],
)
def test_narrow_stdout_encoding_degrades_to_ascii(
    encoding: str, args: tuple[str, ...], stdin: bytes
) -> None:
    result = run_cli_bytes(args, stdin, encoding=encoding)
    no_traceback(result)
    assert result.code == 0
    assert result.out


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_log_analyze_on_a_narrow_stdout(encoding: str, tmp_path: Path) -> None:
    from gamelog_builder import BombSpec, game_log, sample_messages

    built = game_log([BombSpec("5M3ES3", [2, 1], {1: sample_messages("sample01.log")})])
    path = tmp_path / "game.log"
    path.write_bytes(built.data)
    result = run_cli_bytes(["log", "analyze", str(path)], encoding=encoding)
    no_traceback(result)
    assert result.code == 0
    result.out.decode(encoding)


def test_stats_with_bars_on_an_ascii_stdout(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    run_cli_bytes(["drill", "--seed", "1", "--count", "2", "--db", str(db)], b"A\nB\n")
    for args in (("stats", "--db", str(db)), ("stats", "--db", str(db), "--export", "-")):
        result = run_cli_bytes(args, encoding="ascii")
        no_traceback(result)
        assert result.code == 0
        result.out.decode("ascii")


# ------------------------------------------------------------ row 21: closed streams


@pytest.mark.parametrize(
    "args",
    [("live",), ("live", "--json"), ("play", "--seed", "1"), ("solve", "--batch"),
     ("drill", "--seed", "1")],
)
def test_closed_stdin_is_the_end_of_input(args: tuple[str, ...], tmp_path: Path) -> None:
    if args[0] == "drill":
        args = (*args, "--db", str(tmp_path / "s.db"))
    result = run_process(args, None)
    no_traceback(result)
    assert result.code == 0


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("solve", "--serial", "AB3CD4", "--batteries", "3", "--discard", "RC", "--json"),
         b""),
        (("tables",), b""),
        (("live", "--json"), b"serial AB3CD4\n"),
    ],
)
def test_closed_stdout_is_one_line_and_exit_2(args: tuple[str, ...], stdin: bytes) -> None:
    # The output had nowhere to go: that is said, never lost unseen with exit 0.
    result = run_process(args, stdin, close=(1,))
    no_traceback(result)
    assert result.code == 2
    (line,) = result.text.err.strip().splitlines()
    assert line.endswith("error: standard output is closed, so nothing was written")


def test_a_closed_stdout_is_never_a_file_opened_later(tmp_path: Path) -> None:
    # With descriptor 1 free, the database opened next took it: '/dev/stdout' was the
    # database (a child process or a write to fd 1 would have gone into it).
    db = tmp_path / "s.db"
    made = run_process(["drill", "--mode", "table", "--count", "1", "--db", str(db)], b"A\n")
    assert made.code == 0
    before = db.read_bytes()
    result = run_process(["stats", "--db", str(db), "--export", "/dev/stdout"], b"",
                         close=(1,))
    no_traceback(result)
    assert "stats database" not in result.text.err
    assert db.read_bytes() == before


# ------------------------------------------------------------ row 22: pipes and Ctrl-C


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (("tables",), b""),
        (("solve", "--batch"), b"AB3CD4 3 RC\n" * 20000),
        (("play", "--seed", "1"), b"draw\nplay 1\n" * 2000),
    ],
    ids=["tables", "solve-batch", "play"],
)
def test_a_reader_that_goes_away_exits_0(
    args: tuple[str, ...], stdin: bytes, tmp_path: Path
) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(stdin)
    with source.open("rb") as feed:
        proc = start_process(args, stdin=feed)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # as 'head -1' does after its line
        err = proc.stderr.read()
        proc.wait(timeout=60)
    assert "Traceback" not in err.decode("utf-8", "replace")
    assert proc.returncode == 0


def _interrupt(
    args: list[str], first: bytes, tmp_path: Path, answers: int = 1
) -> tuple[int, str, str]:
    """Start ``mittens ARGS``, feed ``first``, wait for ``answers`` lines of output, then
    press Ctrl-C; the output returned includes the lines waited for."""
    proc = start_process(args, cwd=tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(first)
    proc.stdin.flush()
    stdout = proc.stdout
    seen: list[bytes] = []

    def read_answers() -> None:
        while len(seen) < answers:
            line = stdout.readline()
            if not line:
                return
            seen.append(line)

    reader = threading.Thread(target=read_answers, daemon=True)
    reader.start()
    reader.join(timeout=60)  # output held back would show here, as a missing answer
    time.sleep(0.2)  # the command is back waiting for more input
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, b"".join(seen).decode() + out.decode(), err.decode()


@pytest.mark.parametrize(
    ("args", "first", "summary"),
    [
        (["live"], b"serial AB3CD4\nbatteries 3\n", "line(s) answered"),
        (["play", "--seed", "1"], b"draw\n", "Game stopped."),
        (["solve", "--batch"], b"AB3CD4 3 RC\n", "1 line(s) solved"),
        (["drill", "--seed", "1", "--count", "5", "--db", "s.db"], b"A\n", "interrupted"),
    ],
)
def test_ctrl_c_prints_the_summary_and_exits_130(
    args: list[str], first: bytes, summary: str, tmp_path: Path
) -> None:
    code, out, err = _interrupt(args, first, tmp_path)
    assert "Traceback" not in err
    assert code == 130, err
    assert summary in out + err
    assert "interrupted" in err


def test_solve_batch_output_is_not_lost_on_ctrl_c(tmp_path: Path) -> None:
    # Every line read before Ctrl-C is answered, none held back in a buffer: the three
    # answers come out while the command still waits for input (they were lost to the
    # read-ahead before), then Ctrl-C ends it with the summary and 130.
    code, out, err = _interrupt(["solve", "--batch"], b"AB3CD4 3 RC\n" * 3, tmp_path, 3)
    assert code == 130
    assert out.count("AB3CD4: table B") == 3
    assert "3 line(s) solved" in out + err


# ------------------------------------------------------------ row 23: byte-order mark


def test_bom_before_the_first_live_line_is_dropped() -> None:
    result = run_cli_bytes(["live", "--json"], b"\xef\xbb\xbfserial AB3CD4\n")
    objects = json_lines(result.out)
    assert objects[0]["ok"] is True


def test_bom_before_the_first_drill_answer_is_dropped(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    plain = run_cli_bytes(["drill", "--seed", "4", "--count", "1", "--json", "--db", db],
                          b"A\n")
    bom = run_cli_bytes(["drill", "--seed", "4", "--count", "1", "--json", "--db", db],
                        b"\xef\xbb\xbfA\n")
    assert json_lines(bom.out)[0]["grade"] == json_lines(plain.out)[0]["grade"]
    assert json_lines(bom.out)[0]["given"] == "A"


# ------------------------------------------------------------ row 3, 11: drill


def test_drill_game_slow_unreadable_click_is_skipped(tmp_path: Path) -> None:
    result = run_cli_bytes(
        ["drill", "--mode", "game", "--seed", "1", "--time-limit", "0.000001",
         "--db", str(tmp_path / "s.db")], b"hello\n",
    )
    no_traceback(result)
    assert result.code == 0


def test_drill_seed_out_of_range_is_a_range_error(tmp_path: Path) -> None:
    result = run_cli_bytes(["drill", "--seed", "99999999999999999999", "--db", str(tmp_path / "s")])
    err = no_traceback(result)
    assert result.code == 2
    assert "--seed" in err


# ------------------------------------------------------------ issue 12 item 4


def test_bare_mittens_shows_the_help() -> None:
    result = run_cli_bytes([])
    assert result.code == 0
    assert b"Usage: mittens" in result.out
    assert b"error" not in result.err


def test_play_log_in_a_missing_directory_exits_2(tmp_path: Path) -> None:
    log = tmp_path / "no-such-dir" / "g.log"
    result = run_cli_bytes(["play", "--seed", "1", "--log", str(log)], b"draw\n")
    err = no_traceback(result)
    assert result.code == 2
    assert err.count("\n") == 1 and str(log) in err
    assert not log.parent.exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_play_log_on_a_full_disk_is_one_line() -> None:
    result = run_cli_bytes(["play", "--seed", "1", "--log", "/dev/full"], b"draw\ndraw\n")
    err = no_traceback(result)
    assert result.code == 2
    assert "disk is full" in err
