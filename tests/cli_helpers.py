"""Running ``mittens`` for tests: in this process, or as a real process where the process
itself is what is tested; and comparing output with golden files.

- :func:`run_cli` runs ``main`` here with text streams (what most tests want).
- :func:`run_cli_bytes` runs ``main`` here with byte-level streams of a chosen encoding,
  as ``PYTHONIOENCODING`` would set them: raw bytes on stdin, an ASCII stdout.
- :func:`run_process` starts ``python -m defuser`` (or a given ``python -c`` script) as a
  new process, for what only a process shows: signals, closed descriptors, pipes, the
  locale, start-up imports, another user's file permissions.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, overload

import pytest

from defuser.cli import main
from defuser.terminal.app import Application

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Run:
    """What one ``mittens`` invocation printed and returned."""

    code: int
    out: str
    err: str


@dataclass
class Raw:
    """What one ``mittens`` invocation wrote, as bytes, and returned."""

    code: int
    out: bytes
    err: bytes

    @property
    def text(self) -> Run:
        """The same run with its output decoded (UTF-8, bad bytes replaced)."""
        return Run(self.code, self.out.decode("utf-8", "replace"),
                   self.err.decode("utf-8", "replace"))


def _exit_code(exc: SystemExit) -> int:
    return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)


def run_cli(
    args: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = "",
    *, app: Application | None = None,
) -> Run:
    """Run ``mittens ARGS`` in this process with ``stdin``; colour off as on a pipe.
    ``app`` is the run's application (made fresh for each run: it keeps its consoles),
    for a test that gives the commands fake clocks."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = 0
    try:
        main(args, app)
    except SystemExit as exc:
        code = _exit_code(exc)
    return Run(code, out.getvalue(), err.getvalue())


def run_cli_bytes(
    args: Sequence[str],
    stdin: bytes = b"",
    *,
    encoding: str = "utf-8",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Raw:
    """Run ``mittens ARGS`` in this process with byte-level standard streams.

    The streams are strict ``encoding`` text over bytes (stderr with backslash escapes),
    as Python makes them for ``PYTHONIOENCODING=encoding``; colour is off, 100 columns;
    ``env`` adds environment variables and ``cwd`` changes directory, both for the run
    only. Everything is restored afterwards, so no fixture is needed.
    """
    out, err = io.BytesIO(), io.BytesIO()
    streams = {
        "stdin": io.TextIOWrapper(io.BytesIO(stdin), encoding=encoding),
        "stdout": io.TextIOWrapper(out, encoding=encoding, write_through=True),
        "stderr": io.TextIOWrapper(
            err, encoding=encoding, errors="backslashreplace", write_through=True
        ),
    }
    code = 0
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {"NO_COLOR": "1", "COLUMNS": "100", **(env or {})}.items():
            patch.setenv(name, value)
        if cwd is not None:
            patch.chdir(cwd)
        for name, stream in streams.items():
            patch.setattr(sys, name, stream)
        try:
            main(list(args))
        except SystemExit as exc:
            code = _exit_code(exc)
        finally:
            for name, stream in streams.items():
                if name != "stdin" and not stream.closed:
                    stream.flush()
                    stream.detach()
    return Raw(code, out.getvalue(), err.getvalue())


def process_env(env: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """This environment for a child ``mittens``: the project importable, colour off,
    strict UTF-8 streams as in an en_US.UTF-8 locale (C.UTF-8 would smuggle bad bytes
    through as surrogates), then ``env`` (a ``None`` value removes the variable)."""
    full: dict[str, str | None] = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "NO_COLOR": "1",
        "PYTHONIOENCODING": "utf-8",
        **(env or {}),
    }
    return {name: value for name, value in full.items() if value is not None}


def mittens_command(args: Sequence[str], script: str | None = None) -> list[str]:
    """The command line of ``python -m defuser ARGS`` (``python -c SCRIPT ARGS`` when a
    script stands in for ``-m defuser``)."""
    start = ["-m", "defuser"] if script is None else ["-c", script]
    return [sys.executable, *start, *args]


def run_process(
    args: Sequence[str],
    stdin: bytes | None = b"",
    *,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    prefix: Sequence[str] = (),
    script: str | None = None,
    close: Sequence[int] = (),
    timeout: float = 60,
) -> Raw:
    """Run ``python -m defuser ARGS`` as a new process and wait for it.

    ``stdin`` is fed whole (``None``: stdin closed, as a shell's ``<&-``); ``close``
    names descriptors the child starts without (``1``: stdout, as ``>&-``); ``prefix``
    goes before the interpreter (``setpriv ...`` to run as another user); ``script``
    replaces ``-m defuser`` with ``-c SCRIPT``; ``env`` as in :func:`process_env`.
    """
    command = [*prefix, *mittens_command(args, script)]
    closed = (*close, 0) if stdin is None else tuple(close)
    if closed:
        # Close the descriptors in the child itself, as a shell's '<&-' and '>&-' do.
        closing = " ".join(f"{fd}<&-" if fd == 0 else f"{fd}>&-" for fd in closed)
        quoted = " ".join("'" + part.replace("'", "'\\''") + "'" for part in command)
        command = ["sh", "-c", f"exec {quoted} {closing}"]
    done = subprocess.run(
        command,
        input=stdin if 0 not in closed else None,
        stdout=None if 1 in closed else subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(env),
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    return Raw(done.returncode, done.stdout or b"", done.stderr)


@overload
def start_process(
    args: Sequence[str],
    *,
    stdin: int | IO[bytes] = ...,
    env: Mapping[str, str | None] | None = ...,
    cwd: Path | None = ...,
    text: Literal[False] = ...,
) -> subprocess.Popen[bytes]: ...


@overload
def start_process(
    args: Sequence[str],
    *,
    stdin: int | IO[bytes] = ...,
    env: Mapping[str, str | None] | None = ...,
    cwd: Path | None = ...,
    text: Literal[True],
) -> subprocess.Popen[str]: ...


def start_process(
    args: Sequence[str],
    *,
    stdin: int | IO[bytes] = subprocess.PIPE,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
    text: bool = False,
) -> subprocess.Popen[bytes] | subprocess.Popen[str]:
    """Start ``python -m defuser ARGS`` with pipes for its output, to talk to it or signal
    it while it runs (``text``: text pipes); ``env`` as in :func:`process_env`. Ctrl-C
    reaches it as a terminal sends it (see :func:`default_sigint`).
    """
    return subprocess.Popen(
        mittens_command(args),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=process_env(env),
        cwd=cwd,
        text=text,
        preexec_fn=default_sigint,
    )


def one_line_error(result: Run | Raw) -> str:
    """The stderr of a failed run, after checking it is one line, exit 2, no traceback."""
    done = result.text if isinstance(result, Raw) else result
    assert "Traceback" not in done.err, done.err
    assert done.code == 2, done
    assert len(done.err.strip().splitlines()) == 1, done.err
    return done.err


def stored_answers(path: Path) -> int:
    """How many answers ``mittens stats --json`` reports for the database ``path``."""
    done = run_cli_bytes(["stats", "--db", str(path), "--json"]).text
    assert done.code == 0, done.err
    return int(json.loads(done.out)["total"]["answers"])


#: Root without the capabilities that bypass file modes: permissions then apply to it.
_NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


@contextlib.contextmanager
def unprivileged_dir() -> Iterator[tuple[list[str], Path]]:
    """(command prefix for which file modes apply, a directory it may use), for tests of
    read-only files and folders: as root, :func:`run_process` with the prefix runs
    without root's override of file modes (skipped where that cannot be done)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("needs setpriv to drop root's file-mode override")
        prefix = _NO_OVERRIDE
        probe = run_process([], prefix=prefix, script="import os; open(os.devnull).close()")
        if probe.code != 0:
            pytest.skip("cannot drop root's file-mode override here")
    work = Path(tempfile.mkdtemp(prefix="mittens-perm-"))
    work.chmod(0o777)
    try:
        yield prefix, work
    finally:
        for child in work.rglob("*"):
            with_mode = child.stat().st_mode
            child.chmod(with_mode | stat.S_IWUSR | stat.S_IRUSR | stat.S_IXUSR)
        work.chmod(0o777)
        shutil.rmtree(work)


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``tests/golden/NAME``; ``UPDATE_GOLDEN=1`` rewrites it."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {path} is missing; run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def default_sigint() -> None:
    """A ``preexec_fn`` for a child that is to meet Ctrl-C as a terminal sends it.

    A suite run with SIGINT ignored (a background job, ``nohup``, some CI runners) passes
    the ignored signal on to its children; this puts the default handler back.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
