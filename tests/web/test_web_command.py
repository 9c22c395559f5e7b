"""defuser.web.command: ``mittens serve`` reads its options and hands them to the server.

The server itself is replaced (its own tests start it as a process), so these run here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_helpers import one_line_error, run_cli

from defuser.web import command
from defuser.web.server import DEFAULT_PORT, Plan


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The calls ``mittens serve`` makes to the server, which returns at once."""
    calls: list[dict[str, Any]] = []

    def run_server(plan: Plan, **options: Any) -> None:
        options["announce"]("http://example.test/")
        calls.append({"plan": plan, **options})

    monkeypatch.setattr(command, "run_server", run_server)
    return calls


def test_the_options_reach_the_server(
    served: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log, db = tmp_path / "Player.log", tmp_path / "stats.sqlite3"
    run = run_cli(["serve", "--port", "0", "--no-open", "--allow-host", "box.lan",
                   "--follow", str(log), "--db", str(db)], monkeypatch)
    assert run.code == 0, run.err
    assert run.out == "http://example.test/\n" and "press Ctrl-C to stop" in run.err
    [call] = served
    plan = call["plan"]
    assert (plan.host, plan.port, plan.token, "box.lan" in plan.extra_hosts) == (
        "127.0.0.1", 0, None, True)
    assert (call["open_browser"], call["follow"], call["database"]) == (False, log, db)


def test_the_defaults_and_a_token_beyond_loopback(
    served: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_cli(["serve", "--host", "0.0.0.0"], monkeypatch).code == 0
    [call] = served
    assert call["plan"].port == DEFAULT_PORT and call["plan"].token
    assert (call["open_browser"], call["follow"], call["database"]) == (True, None, None)


def test_a_followed_log_in_a_missing_folder_is_bad_input(
    served: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = run_cli(["serve", "--follow", str(tmp_path / "no" / "Player.log")], monkeypatch)
    assert run.code == 2 and served == []
    error = one_line_error(run)
    assert "--follow" in error and "does not exist, expected a log path" in error
