"""Running ``mittens`` in-process for tests, and comparing with golden files."""

from __future__ import annotations

import io
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from defuser.cli import main

GOLDEN = Path(__file__).parent / "golden"


@dataclass
class Run:
    """What one ``mittens`` invocation printed and returned."""

    code: int
    out: str
    err: str


def run_cli(
    args: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> Run:
    """Run ``mittens ARGS`` in this process with ``stdin``; colour off as on a pipe."""
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    return Run(code, out.getvalue(), err.getvalue())


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
