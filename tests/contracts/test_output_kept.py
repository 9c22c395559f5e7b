"""Issue 22, items 8-12 and 14: output never lost unseen, batch answers flushed per line,
numeric options finite, error lines one line, and what cannot work refused (a pipe
nobody reads or writes, the log written into the command's own stdin).

What only a process shows (the interpreter's own buffering, a full disk, signals) runs
the real ``python -m defuser`` with ``PYTHONUNBUFFERED`` removed, as in a user's shell.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time
from pathlib import Path

import click
import pytest
from cli_helpers import Raw, mittens_command, process_env, run_cli, run_process

from defuser.cli import COMMANDS, cli
from defuser.terminal import safeio
from defuser.terminal.params import FiniteFloat

#: A user's shell: output to a file or pipe is block-buffered.
BUFFERED = {"PYTHONUNBUFFERED": None}
FULL = Path("/dev/full")


def batch(lines: int) -> bytes:
    """``lines`` states for ``solve --batch`` (74 bytes of answer each)."""
    return b"AB3CD4 3 RC\n" * lines


def run_into(target: Path, args: list[str], stdin: bytes = b"") -> tuple[int, list[str]]:
    """Run ``mittens ARGS`` with stdout written to ``target``; the exit status and the
    lines of stderr."""
    with target.open("wb") as out:
        done = subprocess.run(
            mittens_command(args),
            input=stdin,
            stdout=out,
            stderr=subprocess.PIPE,
            env=process_env(BUFFERED),
            timeout=120,
            check=False,
        )
    return done.returncode, done.stderr.decode("utf-8", "replace").splitlines()


# ------------------------------------------------------------ item 9: a full disk


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["tables"], b""),
        (["tables", "--format", "json"], b""),
        (["verify"], b""),
        (["solve", "--serial", "AB3CD4", "--batteries", "3", "--hand", "RC", "--discard", "RC"],
         b""),
        (["play", "--help"], b""),
        (["solve", "--batch"], batch(10)),  # under 4 KiB: was exit 120, "Exception ignored"
        (["solve", "--batch"], batch(100)),  # 4-8 KiB: was exit 0, all output lost
        (["solve", "--batch"], batch(1000)),  # above 8 KiB: one line and exit 2
        (["solve", "--batch", "--json"], batch(100)),
    ],
    ids=["tables", "tables-json", "verify", "solve", "help", "batch-small", "batch-medium",
         "batch-large", "batch-json"],
)
def test_a_full_disk_is_one_line_and_exit_2(args: list[str], stdin: bytes) -> None:
    code, err = run_into(FULL, args, stdin)
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith("mittens") and err[0].endswith(": error: the disk is full")


def test_output_to_a_file_is_all_there(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    code, err = run_into(out, ["solve", "--batch"], batch(100))
    assert (code, err) == (0, [])
    assert len(out.read_text().splitlines()) == 100


# ------------------------------------------------------------ item 10: per-line answers


def start_batch(stdout: int | object) -> subprocess.Popen[bytes]:
    """``solve --batch`` in text mode, its stdin a pipe, buffered as in a user's shell."""
    return subprocess.Popen(
        mittens_command(["solve", "--batch"]),
        stdin=subprocess.PIPE,
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        env=process_env(BUFFERED),
    )


def test_batch_answers_each_line_as_it_comes() -> None:
    proc = start_batch(subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            for _ in range(3):
                proc.stdin.write(b"AB3CD4 3 RC\n")
                proc.stdin.flush()
                # The answer arrives while stdin is still open.
                assert selector.select(timeout=60), "no answer before stdin closed"
                assert proc.stdout.readline().startswith(b"AB3CD4")
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_answered_lines_survive_a_signal(sig: signal.Signals, tmp_path: Path) -> None:
    out = tmp_path / "answers.txt"
    with out.open("wb") as sink:
        proc = start_batch(sink)
    assert proc.stdin is not None
    try:
        proc.stdin.write(batch(5))
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while len(out.read_bytes().splitlines()) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert len(out.read_bytes().splitlines()) == 5


# ------------------------------------------------------------ items 8, 11: finite numbers


def every_option() -> list[tuple[str, click.Parameter]]:
    """Every parameter of every command (and of every subcommand), with its path."""
    found: list[tuple[str, click.Parameter]] = []
    ctx = click.Context(cli)
    commands = [(name, cli.get_command(ctx, name)) for name in COMMANDS]
    while commands:
        name, command = commands.pop()
        assert command is not None
        found.extend((name, param) for param in command.params)
        if isinstance(command, click.Group):
            commands.extend((f"{name} {sub}", command.commands[sub]) for sub in command.commands)
    return found


def test_every_number_with_a_fraction_is_finite() -> None:
    floats = [
        f"{name} {param.name}"
        for name, param in every_option()
        if isinstance(param.type, click.types.FloatParamType | click.FloatRange)
        and not isinstance(param.type, FiniteFloat)
    ]
    assert floats == []


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["drill", "--mode", "game", "--bomb-timer", "inf"], "--bomb-timer"),
        (["drill", "--mode", "game", "--bomb-timer", "nan"], "--bomb-timer"),
        (["drill", "--mode", "game", "--bomb-timer", "1e40"], "--bomb-timer"),
        (["drill", "--time-limit", "nan"], "--time-limit"),
        (["drill", "--time-limit", "inf"], "--time-limit"),
        (["drill", "--retention", "nan"], "--retention"),
        (["drill", "--minutes", "nan"], "--minutes"),
        (["play", "--time", "nan"], "--time"),
        (["prop", "--demo", "--timeout", "nan"], "--timeout"),
    ],
)
def test_a_number_that_is_not_finite_is_refused_by_name(
    args: list[str], option: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if args[0] == "drill":
        args = [*args, "--db", str(tmp_path / "s.db"), "--count", "1"]
    run = run_cli(args, monkeypatch)
    assert run.code == 2
    lines = run.err.splitlines()
    assert len(lines) == 1 and f"'{option}'" in lines[0], run.err
    assert run.out == ""


# ------------------------------------------------------------ item 12: one-line errors


@pytest.mark.parametrize("name", ["bad\nname", "bad\rname", "bad\x1b[2Jname", "bad\u2028name"])
def test_an_error_naming_a_file_stays_one_line(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    odd = tmp_path / name
    odd.write_text("x\n")
    for args in (["verify", str(odd)], ["verify", str(tmp_path / f"missing{name}")],
                 ["play", "--seed", "1", "--log", str(tmp_path / f"no{name}" / "x.log")]):
        run = run_cli(args, monkeypatch, stdin="quit\n")
        assert run.code == 2
        assert len(run.err.splitlines()) == 1 and run.err.endswith("\n"), run.err
        assert "\x1b" not in run.err and "\r" not in run.err


# ------------------------------------------------------------ item 14: refuse, never hang


def one_error(result: Raw, *words: str) -> None:
    """Exit 2 with one line on stderr that holds ``words``."""
    lines = result.err.decode("utf-8", "replace").splitlines()
    assert result.code == 2 and len(lines) == 1, lines
    assert all(word in lines[0] for word in words), lines


def test_a_named_pipe_nothing_writes_to_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In this process, with the wait shortened from its 5 s: opening never blocks, and
    # nothing written within the wait is one line and exit 2.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(safeio, "PIPE_WAIT_SECONDS", 0.05)
    started = time.monotonic()
    run = run_cli(["verify", str(fifo)], monkeypatch)
    assert time.monotonic() - started < 30
    assert run.code == 2 and len(run.err.splitlines()) == 1, run.err
    assert "nothing is writing to" in run.err


def test_a_named_pipe_with_a_writer_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as pipe:
            pipe.write(b"not,a,transcription\n")

    writer = threading.Thread(target=write)
    writer.start()
    run = run_cli(["verify", str(fifo)], monkeypatch)
    writer.join()
    # Read, and judged on what it holds.
    assert run.code == 2 and len(run.err.splitlines()) == 1, run.err
    assert "line 1" in run.err


def test_a_pipe_nothing_reads_from_is_not_written(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = run_process(["play", "--seed", "1", "--log", str(fifo)], b"draw\nquit\n",
                         timeout=60)
    one_error(result, "nothing is reading from")


def test_a_pipe_with_a_reader_is_written(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with fifo.open("rb") as pipe:
            got.append(pipe.read())

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.2)  # the reader is waiting on the pipe
    result = run_process(["play", "--seed", "1", "--log", str(fifo)], b"draw\nquit\n",
                         timeout=60)
    reader.join(timeout=60)
    assert result.code == 0 and got and got[0], (result, got)


@pytest.mark.parametrize("kind", ["pipe", "file"])
def test_the_log_is_never_written_into_stdin(kind: str, tmp_path: Path) -> None:
    if kind == "pipe":
        result = run_process(["play", "--seed", "1", "--log", "/dev/stdin"], b"draw\nquit\n",
                             timeout=60)
    else:
        moves = tmp_path / "moves.txt"
        moves.write_bytes(b"draw\nquit\n")
        with moves.open("rb") as stdin:
            done = subprocess.run(
                mittens_command(["play", "--seed", "1", "--log", str(moves)]),
                stdin=stdin, capture_output=True, env=process_env(), timeout=60, check=False,
            )
        result = Raw(done.returncode, done.stdout, done.stderr)
        assert moves.read_bytes() == b"draw\nquit\n"
    one_error(result, "the standard input being read")
