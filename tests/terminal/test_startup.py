"""Ctrl-C while ``mittens`` is loading is held, then ends the run the documented way."""

from __future__ import annotations

import os
import signal
import tomllib
from collections.abc import Iterator

import pytest
from cli_helpers import ROOT, run_process

from defuser.__main__ import run
from defuser.terminal.startup import hold_interrupts, release_interrupts


@pytest.fixture
def python_handles_ctrl_c() -> Iterator[None]:
    """Python's own Ctrl-C handler in place for the test (a worker may have another),
    and whatever was there put back after it."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        release_interrupts()
        signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("python_handles_ctrl_c")
def test_a_ctrl_c_during_the_hold_waits_for_the_release() -> None:
    hold_interrupts()
    os.kill(os.getpid(), signal.SIGINT)
    os.kill(os.getpid(), signal.SIGINT)  # pressed twice: still one interrupt
    with pytest.raises(KeyboardInterrupt):
        release_interrupts()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    release_interrupts()  # nothing is held any more


@pytest.mark.usefixtures("python_handles_ctrl_c")
def test_a_release_without_a_ctrl_c_only_ends_the_hold() -> None:
    hold_interrupts()
    hold_interrupts()  # a second hold changes nothing
    release_interrupts()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        hold_interrupts()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGINT)
        release_interrupts()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_without_a_hold_release_does_nothing() -> None:
    before = signal.getsignal(signal.SIGINT)
    release_interrupts()
    assert signal.getsignal(signal.SIGINT) is before


def test_ctrl_c_while_loading_ends_the_run_in_one_line_with_130() -> None:
    """The Ctrl-C comes after the hold and before the command line is imported, as one
    pressed during start-up would: the command never runs, and no traceback is shown."""
    script = (
        "import os, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from defuser.terminal.startup import hold_interrupts\n"
        "hold_interrupts()\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "import defuser.__main__\n"
        "defuser.__main__.run()\n"
    )
    done = run_process(["tables"], script=script)
    assert (done.code, done.out, done.err) == (130, b"", b"mittens: interrupted\n")


def test_the_mittens_script_starts_through_the_hold() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    module, _, name = project["project"]["scripts"]["mittens"].partition(":")
    assert (module, name) == (run.__module__, run.__name__) == ("defuser.__main__", "run")
