"""``mittens serve`` as a real process: the address first, pages served, Ctrl-C stops it
(with a viewer still streaming), a busy port is one line; and the server itself, in this
process: fifty viewers of the event stream, and connections that send no whole request."""

from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import urllib.request
from pathlib import Path

import pytest
from cli_helpers import run_process, start_process
from web_fixtures import two_module_log

from defuser.web import server as server_module
from defuser.web.benchmark import running_server


def start(*args: str) -> tuple[subprocess.Popen[str], str]:
    """Start the server on a free port; return it and the address it printed first."""
    proc = start_process(["serve", "--no-open", "--port", "0", *args], text=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def test_serve_prints_the_address_first_and_stops_on_ctrl_c() -> None:
    proc, url = start()
    try:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        with urllib.request.urlopen(url + "tables?serial=AB3CD4", timeout=10) as response:
            page = response.read().decode()
        assert "Table B" in page and "(active)" in page
        with urllib.request.urlopen(url + "healthz", timeout=10) as response:
            assert response.read() == b"ok\n"
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err
    assert proc.returncode == 130  # as after Ctrl-C in every other command
    assert err.strip().endswith("mittens: interrupted")


def test_serve_beyond_loopback_prints_a_token() -> None:
    proc, url = start("--host", "0.0.0.0")
    try:
        assert "?token=" in url
        port = url.split(":")[2].split("/")[0]
        token = url.split("?token=")[1]
        local = f"http://127.0.0.1:{port}/"
        try:
            urllib.request.urlopen(local, timeout=10)
            raise AssertionError("served without the token")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        with urllib.request.urlopen(f"{local}?token={token}", timeout=10) as response:
            assert response.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)


def test_a_busy_port_is_one_line() -> None:
    with running_server() as port:  # the port's first server: this process serves it
        second = run_process(["serve", "--no-open", "--port", str(port)], timeout=30).text
    assert second.code == 2
    assert second.out == ""
    lines = second.err.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0]


def read_event(response: http.client.HTTPResponse) -> dict[str, object]:
    """The next snapshot event of an event stream."""
    while True:
        line = response.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            data: dict[str, object] = json.loads(line[6:])
            return data


def test_fifty_viewers_and_viewers_that_leave(memory_path: Path) -> None:
    log = memory_path / "Player.log"
    log.write_text("Initialize engine version: 2017.4.22f1\n", encoding="utf-8")
    viewers: list[tuple[http.client.HTTPConnection, http.client.HTTPResponse,
                        dict[str, object]]] = []
    with running_server(follow=log) as port:
        try:
            for _ in range(50):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                conn.request("GET", "/api/follow/stream")
                response = conn.getresponse()
                assert response.status == 200
                viewers.append((conn, response, read_event(response)))
            for conn, _, _ in viewers[:25]:  # half of them go away mid-stream
                conn.sock.close() if conn.sock else None
            log.write_bytes(two_module_log())
            for _, response, first in viewers[25:]:
                later = read_event(response)
                assert int(str(later["version"])) > int(str(first["version"]))
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                        timeout=10) as reply:
                assert reply.read() == b"ok\n"
        finally:  # the server stops once its streams' viewers are gone
            for conn, response, _ in viewers:
                response.close()
                conn.close()


def test_a_viewer_does_not_hold_up_ctrl_c(memory_path: Path) -> None:
    log = memory_path / "Player.log"
    log.write_bytes(two_module_log())
    proc, url = start("--follow", str(log))
    port = int(url.split(":")[2].split("/")[0])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", "/api/follow/stream")
    read_event(conn.getresponse())
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    conn.close()
    assert proc.returncode == 130
    assert "Traceback" not in err and "ERROR" not in err, err


def test_connections_that_send_no_whole_request_are_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "HEAD_TIMEOUT", 0.25)
    with running_server() as port:
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        for sock in [*idle, slow]:
            sock.settimeout(5)  # the server closes each after HEAD_TIMEOUT, not 5 s
            assert sock.recv(100) == b""  # closed by the server
            sock.close()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as reply:
            assert reply.read() == b"ok\n"
