"""``defuser.terminal.safeio`` on its own: user paths read and written safely, every
failure one :class:`PathError` naming the path (the commands' use of it is tested
through the command line in ``tests/contracts/test_robust_*.py``)."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from defuser.terminal import safeio
from defuser.terminal.safeio import (
    PathError,
    iter_user_bytes,
    open_output,
    path_error,
    read_stdin,
    read_user_bytes,
    write_user_file,
)


def write_text(text: str) -> Callable[[IO[str]], None]:
    """A writer for :func:`write_user_file` that writes ``text``."""

    def write(stream: IO[str]) -> None:
        stream.write(text)

    return write


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left behind in ``folder``."""
    return [p.name for p in folder.iterdir() if p.name.startswith(".mittens-")]


# ------------------------------------------------------------------ errors


def test_a_missing_file_to_read_does_not_exist_other_errors_give_the_reason() -> None:
    missing = OSError(errno.ENOENT, "No such file or directory")
    assert str(path_error("a.log", missing, "log file", "read")) == (
        "log file 'a.log' does not exist"
    )
    written = str(path_error("a.csv", missing, "export file", "write"))
    assert written.startswith("cannot write export file 'a.csv' (")


# ------------------------------------------------------------------ reading


def test_user_bytes_come_in_chunks_within_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "data.bin"
    path.write_bytes(b"abcdefgh")
    assert list(iter_user_bytes(path, "data file", limit=8, chunk=3)) == [b"abc", b"def", b"gh"]
    assert read_user_bytes(path, "data file", limit=8) == b"abcdefgh"
    with pytest.raises(PathError, match=r"'.*data.bin' is larger than 0 MiB"):
        read_user_bytes(path, "data file", limit=7)


def test_reading_a_missing_file_or_a_directory_is_one_error(tmp_path: Path) -> None:
    with pytest.raises(PathError, match=r"^log file '.*nothing.log' does not exist$"):
        read_user_bytes(tmp_path / "nothing.log", "log file", limit=10)
    with pytest.raises(PathError, match=r"is a directory, expected a file"):
        read_user_bytes(tmp_path, "log file", limit=10)


@pytest.fixture
def short_pipe_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A named pipe nobody writes to is given up on at once, not after seconds."""
    monkeypatch.setattr(safeio, "PIPE_WAIT_SECONDS", 0.0)


@pytest.mark.usefixtures("short_pipe_wait")
@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="needs /dev/shm")
def test_a_named_pipe_under_dev_nothing_writes_to_is_refused() -> None:
    """Living under ``/dev`` (here ``/dev/shm``) does not make a pipe a descriptor the
    shell handed over: nothing writing to it is an error, not an empty read."""
    with tempfile.TemporaryDirectory(dir="/dev/shm") as folder:
        fifo = Path(folder) / "game.log"
        os.mkfifo(fifo)
        with pytest.raises(PathError, match=r"'.*game.log' is a named pipe that nothing is "):
            read_user_bytes(fifo, "log file", limit=100)


@pytest.mark.usefixtures("short_pipe_wait")
@pytest.mark.parametrize("name", ["/dev/fd/{fd}", "/proc/self/fd/{fd}"])
def test_a_handed_over_pipe_is_waited_for_however_slow_its_writer(name: str) -> None:
    """``<(slow command)``: the pipe's writer is the shell's, and its first byte may come
    long after the named-pipe wait; the read waits for it."""
    read_end, write_end = os.pipe()

    def slow_writer() -> None:
        time.sleep(0.03)
        os.write(write_end, b"late line\n")
        os.close(write_end)

    writer = threading.Thread(target=slow_writer)
    writer.start()
    try:
        assert read_user_bytes(name.format(fd=read_end), "log file", limit=100) == b"late line\n"
    finally:
        writer.join()
        os.close(read_end)


def test_stdin_is_read_whole_without_its_byte_order_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = b"\xef\xbb\xbf{\"a\": 1}\n\xff"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert read_stdin(100, "table file") == '{"a": 1}\n\ufffd'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 2049)))
    with pytest.raises(PathError, match=r"^table file: standard input is larger than 2 KiB$"):
        read_stdin(2048, "table file")
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(PathError, match=r"^table file: standard input is closed$"):
        read_stdin(2048, "table file")


# ------------------------------------------------------------------ writing


def test_a_new_file_gets_the_usual_mode_and_no_temporary_stays(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    write_user_file(path, write_text("a,b\n"), what="export file")
    assert path.read_text(encoding="utf-8") == "a,b\n"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert leftovers(tmp_path) == []


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    write_user_file(path, write_text("new\n"), what="export file")
    assert path.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_failed_write_leaves_the_old_contents(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("old\n", encoding="utf-8")

    def broken(stream: IO[str]) -> None:
        stream.write("half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(PathError, match=r"^cannot write export file '.*out.csv' \("):
        write_user_file(path, broken, what="export file")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert leftovers(tmp_path) == []


def test_a_protected_file_is_never_written_not_even_through_a_link(tmp_path: Path) -> None:
    database = tmp_path / "stats.db"
    database.write_bytes(b"precious")
    link = tmp_path / "link.csv"
    link.symlink_to(database)
    protect = [(database, "the stats database")]
    for target in (database, link):
        with pytest.raises(PathError, match=r"is the stats database; it was not written$"):
            write_user_file(target, write_text("x"), what="export file", protect=protect)
    assert database.read_bytes() == b"precious"


def test_directories_and_read_only_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PathError, match=r"is a directory, expected a file$"):
        write_user_file(tmp_path, write_text("x"), what="export file")
    read_only = tmp_path / "ro.csv"
    read_only.write_text("keep\n", encoding="utf-8")
    read_only.chmod(0o444)
    with pytest.raises(PathError, match=r"is read-only; it was not written$"):
        write_user_file(read_only, write_text("x"), what="export file")
    assert read_only.read_text(encoding="utf-8") == "keep\n"
    with pytest.raises(PathError, match=r"is a directory, expected a file$"):
        open_output(tmp_path, "log file")


def test_links_stay_links_and_other_names_see_the_new_contents(tmp_path: Path) -> None:
    target = tmp_path / "real.csv"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    write_user_file(link, write_text("one\n"), what="export file")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "one\n"
    other = tmp_path / "other.csv"
    os.link(target, other)
    write_user_file(target, write_text("two\n"), what="export file")
    assert other.read_text(encoding="utf-8") == "two\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_while_writing_names_the_file() -> None:
    stream = open_output("/dev/full", "log file")
    stream.write("x" * 10)
    with pytest.raises(PathError, match=r"^cannot write log file '/dev/full' \("):
        stream.flush()
    with contextlib.suppress(PathError):  # the data still waiting fails again
        stream.close()
    assert stream.closed
