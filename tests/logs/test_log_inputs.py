"""``mittens log analyze`` reads logs from anywhere it can, and refuses the rest in one line:
standard input (``-``), a web address that has to be downloaded first, a named pipe
that nothing writes to."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import run_cli, run_cli_bytes
from gamelog_builder import SAMPLES, BombSpec, game_log, sample_messages

from defuser.terminal import safeio


def _one_error(run_err: str, *words: str) -> None:
    lines = run_err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("mittens log analyze: error:"), lines
    assert all(word in lines[0] for word in words), lines


def test_a_dash_reads_the_log_from_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = game_log([BombSpec("MG9NE9", [2, 2, 1], {1: sample_messages("sample02.log")})]).data
    path = tmp_path / "output_log.txt"
    path.write_bytes(data)
    piped = run_cli_bytes(["log", "analyze", "--json", "--no-judge", "-"], data)
    assert piped.code == 0, piped.err
    from_file = run_cli(["log", "analyze", "--json", "--no-judge", str(path)], monkeypatch)
    doc, expected = json.loads(piped.out), json.loads(from_file.out)
    assert doc["files"][0]["path"] == "<stdin>"
    doc["files"][0]["path"] = expected["files"][0]["path"]
    assert doc == expected
    # With a file too, in the order given; the human report names it.
    run = run_cli_bytes(["log", "analyze", "--brief", "--no-judge", str(path), "-"], data)
    assert run.code == 0 and run.text.out.count("0 inconsistencies in") == 2
    assert "0 inconsistencies in <stdin>" in run.text.out


def test_standard_input_is_bounded_and_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("defuser.commands.log.MAX_LOG_BYTES", 1000)
    run = run_cli_bytes(["log", "analyze", "-"], b"x" * 3000)
    assert run.code == 2 and run.out == b""
    _one_error(run.text.err, "standard input", "larger than")
    run = run_cli_bytes(["log", "analyze", "-", "-"], b"")
    assert run.code == 2
    _one_error(run.text.err, "'-' (standard input) is given more than once")


@pytest.mark.parametrize("link", [
    "https://ktane.timwi.de/lfa#file=5b1d0c2e9f",
    "ktane.timwi.de/lfa#url=https://example.com/output_log.txt",
])
def test_a_logfile_analyzer_link_says_to_download_the_log(
    link: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(["log", "analyze", link], monkeypatch)
    assert run.code == 2 and run.out == ""
    # The link is shown as pasted: its '//' is not squashed into a path.
    _one_error(run.err, repr(link), "Logfile Analyzer", "download the log first")


def test_any_web_address_says_to_download_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "http://example.com/logs/output_log.txt"
    run = run_cli(["log", "analyze", url], monkeypatch)
    assert run.code == 2
    _one_error(run.err, repr(url), "web address", "download the log first")


def test_a_file_named_like_a_web_address_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    odd = Path("http:") / "x.log"
    odd.parent.mkdir()
    odd.write_bytes((SAMPLES / "sample03.log").read_bytes())
    run = run_cli(["log", "analyze", "--brief", "--no-judge", "http:/x.log"], monkeypatch)
    assert run.code == 0, run.err


def test_a_named_pipe_nothing_writes_to_is_refused_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(safeio, "PIPE_WAIT_SECONDS", 0.05)
    run = run_cli(["log", "analyze", str(fifo)], monkeypatch)
    assert run.code == 2 and run.out == ""
    _one_error(run.err, "fifo", "nothing is writing to")
