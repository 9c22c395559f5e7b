"""The hands-free board: one follower of the game's log, a snapshot for every viewer, the
event stream, and the log's accidents (rotated, truncated, deleted, a directory)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.testclient import TestClient
from web_fixtures import two_module_log

from defuser.apps.follow.following import LogFollowing
from defuser.web import follow as web_follow
from defuser.web.app import WebSettings, create_app
from defuser.web.follow import FollowHub
from defuser.web.security import GuardSettings


def test_the_hub_advises_every_module_of_a_written_log(memory_path: Path) -> None:
    log = memory_path / "Player.log"
    hub = FollowHub(log, clock=lambda: 0.0)
    assert hub.step() is True  # a notice: the log is not there yet
    assert hub.snapshot()["notices"][-1]["kind"] == "unreadable"
    assert hub.step() is False and hub.snapshot()["modules"] == []
    data = two_module_log()
    half = len(data) // 2
    log.write_bytes(data[:half])
    assert hub.step() is True
    first = hub.snapshot()
    assert first["modules"] and first["latest"] is not None
    with log.open("ab") as handle:
        handle.write(data[half:])
    hub.step()
    done = hub.snapshot()
    assert done["version"] > first["version"]
    assert {m["module"] for m in done["modules"]} == {1, 2}
    assert all(m["solved"] and m["view"]["badge"]["text"] == "SOLVED" for m in done["modules"])
    assert all(m["bomb"]["serial"] == "AB3CD4" for m in done["modules"])


def test_the_hub_survives_the_log_rotated_truncated_deleted_or_a_directory(
    memory_path: Path,
) -> None:
    log = memory_path / "Player.log"
    data = two_module_log()
    log.write_bytes(data)
    hub = FollowHub(log, clock=lambda: 0.0)
    hub.step()
    log.rename(memory_path / "Player-prev.log")
    log.write_bytes(data[: len(data) // 3])
    hub.step()
    assert any(n["kind"] == "restarted" for n in hub.snapshot()["notices"])
    log.write_bytes(b"")
    hub.step()
    log.unlink()
    assert hub.step() is True
    assert "deleted" in hub.snapshot()["notices"][-1]["text"]
    log.mkdir()
    hub.step()
    assert any(n["kind"] == "unreadable" for n in hub.snapshot()["notices"])
    log.rmdir()
    log.write_bytes(data)
    hub.step()
    assert {m["module"] for m in hub.snapshot()["modules"]} == {1, 2}


def test_the_page_the_json_and_the_stream(memory_path: Path) -> None:
    log = memory_path / "Player.log"
    log.write_bytes(two_module_log())
    app = create_app(WebSettings(GuardSettings(port=80), follow=log))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get("/follow?view=overlay")
        assert page.status_code == 200 and "view-overlay" in page.text
        snap: dict[str, object] = {}
        for _ in range(100):
            snap = client.get("/api/follow").json()
            if snap["modules"]:
                break
            asyncio.run(asyncio.sleep(0.02))
        assert snap["log"] == str(log) and len(snap["modules"]) == 2  # type: ignore[arg-type]
        with client.stream("GET", "/api/follow/stream") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            assert next(lines) == "retry: 1000"
            event = [next(lines) for _ in range(3)]
        assert event[1] == "event: snapshot"
        assert json.loads(event[2].removeprefix("data: "))["version"] >= 1


def test_the_hub_reads_the_log_through_the_same_following_as_the_terminal(
    memory_path: Path,
) -> None:
    """The order of a look at the log (a rotated log's last lines, a restart, the new
    lines) lives in apps.follow.LogFollowing alone; the hub only words what it reports."""
    hub = FollowHub(memory_path / "game.log")
    assert isinstance(hub.following, LogFollowing) and hub.following.follower is hub.follower
    source = Path(web_follow.__file__).read_text(encoding="utf-8")
    assert ".feed_all(" not in source and ".restart()" not in source and ".feed(" not in source


def test_the_hub_says_a_new_game_session_or_a_restarted_log_once(memory_path: Path) -> None:
    # Bug: the hub announced a new game session with its first advice, not from the
    # follower's notice: for the log's first session too, and a second time after a
    # restarted log's notice; until then the old session's modules stayed on the page.
    log = memory_path / "Player.log"
    data = two_module_log()
    log.write_bytes(data + data)
    hub = FollowHub(log, clock=lambda: 0.0)
    assert hub.step() is True
    snapshot = hub.snapshot()
    assert [n["kind"] for n in snapshot["notices"]] == ["session"]
    assert snapshot["session"] == 2
    assert {m["session"] for m in snapshot["modules"]} == {2}
    assert {m["module"] for m in snapshot["modules"]} == {1, 2}
    log.write_bytes(data[: len(data) // 2])
    assert hub.step() is True
    snapshot = hub.snapshot()
    assert [n["kind"] for n in snapshot["notices"]] == ["session", "restarted"]
    assert snapshot["session"] == 3 and {m["session"] for m in snapshot["modules"]} <= {3}
