"""A mistyped command gets the nearest names, and every error line names its command."""

from __future__ import annotations

import pytest
from cli_helpers import run_cli

from defuser.cli import COMMANDS, did_you_mean


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("stat", "'stats'"), ("sovle", "'solve'"), ("STATS", "'stats'"), ("help", "'mittens --help'")],
)
def test_a_mistyped_command_gets_did_you_mean(
    typed: str, meant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli([typed], monkeypatch)
    assert run.code == 2
    assert run.err == f"mittens: error: No such command {typed!r}. Did you mean {meant}?\n"


def test_a_name_near_nothing_gets_no_suggestion() -> None:
    assert did_you_mean("xyzzy") == ""
    assert all(did_you_mean(name).startswith(f" Did you mean {name!r}") for name in COMMANDS)


@pytest.mark.parametrize(
    ("args", "stdin", "prefix"),
    [
        # a click usage error, a library's bad input, a path that cannot be opened
        (["solve", "--serial", "AB3CD"], "", "mittens solve: error: Invalid value"),
        (["verify", "-"], "[1]", "mittens verify: error: <stdin>: expected a JSON object"),
        (["log", "analyze", "/nonexistent/x.txt"], "", "mittens log analyze: error: log file"),
    ],
)
def test_every_error_line_starts_with_the_command(
    args: list[str], stdin: str, prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = run_cli(args, monkeypatch, stdin)
    assert run.code == 2
    assert run.err.startswith(prefix) and run.err.count("\n") == 1, run.err
