"""Timing ``mittens serve`` from outside, as a browser uses it.

Contract: :func:`measure` starts the web app with uvicorn on a free loopback port in this
process, plays simulated modules through it the way the board's script does (each report
is ``GET /report`` then the board's new address), and returns the round trips' times at
the client (an upper bound for the server's own time), the page weight, and, when a
Chromium is given, the first render of the board measured by the browser itself.
``python -m defuser.devtools.bench_web [GAMES] [CHROMIUM]`` prints the figures as JSON.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from defuser.apps.live_words import report_line
from defuser.engine.actions import Action
from defuser.engine.simulator import Module
from defuser.web.server import bind, plan, protocol
from edgework import Batteries, Ruleset, SerialNumber

SERIALS = ("AB3CD4", "XK7RT2", "EE1FG9", "QP2AZ7")


@contextmanager
def running_server(database: Path | None = None, *,
                   follow: Path | None = None) -> Iterator[int]:
    """The web app served by uvicorn in a thread (its drills and dashboard on
    ``database``, its hands-free board following ``follow``: see :class:`WebSettings`);
    yields its port."""
    import uvicorn

    from defuser.web.app import WebSettings, create_app

    sock = bind("127.0.0.1", 0)
    port = int(sock.getsockname()[1])
    the_plan = plan("127.0.0.1", port)
    app = create_app(WebSettings(the_plan.guard(), follow=follow, database=database))
    config = uvicorn.Config(app, log_level="warning",
                            access_log=False, lifespan="off", http=protocol())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _get(conn: http.client.HTTPConnection, path: str) -> tuple[int, bytes, dict[str, str]]:
    conn.request("GET", path, headers={"Host": "127.0.0.1"})
    response = conn.getresponse()
    body = response.read()
    return response.status, body, {k.lower(): v for k, v in response.getheaders()}


def play_game(conn: http.client.HTTPConnection, seed: int) -> list[float]:
    """One simulated module reported through the board; each report's round trip (s)."""
    rng = random.Random(seed)
    serial_text = rng.choice(SERIALS)
    serial, batteries = SerialNumber.parse(serial_text), Batteries.parse(str(rng.randint(0, 6)))
    module = Module(Ruleset(serial.table, serial.last_digit), batteries.interval, rng)
    opening = " ".join(c.code for c in (module.discard_top, *module.hand))
    state = {"serial": serial_text, "batteries": str(batteries.count), "m": f"start {opening}"}
    times: list[float] = []
    _, body, _ = _get(conn, "/api/board?" + urlencode(state))
    while not module.solved:
        command = json.loads(body)["modules"][0]["live"]["recommendation"]["command"]
        event = module.act(Action.parse(command)).event
        assert event is not None, command  # the policy's clicks always do something
        start = time.perf_counter()
        status, _, headers = _get(conn, "/report?" + urlencode({**state, "module": "0",
                                                                "line": report_line(event)}))
        assert status == 303, status
        status, _, _ = _get(conn, headers["location"])
        times.append(time.perf_counter() - start)
        assert status == 200, status
        state["m"] += ";" + report_line(event)
        _, body, _ = _get(conn, "/api/board?" + urlencode(state))
    return times


def page_weight(conn: http.client.HTTPConnection) -> dict[str, int]:
    """Bytes of the board page and everything it loads."""
    parts = {
        "board": "/?serial=AB3CD4&batteries=3&m=start%20RC%20BH%20GS%20YT",
        "style.css": "/static/style.css", "app.js": "/static/app.js",
        "icon.svg": "/static/icon.svg",
    }
    sizes = {name: len(_get(conn, path)[1]) for name, path in parts.items()}
    sizes["total"] = sum(sizes.values())
    return sizes


def first_render(port: int, chromium: str) -> dict[str, float]:
    """The board's first render in headless Chromium (ms, the median of five loads)."""
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{port}/?serial=AB3CD4&batteries=3&m=start%20RC%20BH%20GS%20YT"
    script = ("() => { const n = performance.getEntriesByType('navigation')[0];"
              " const p = performance.getEntriesByName('first-contentful-paint')[0];"
              " return [n.responseEnd, n.domContentLoadedEventEnd, p ? p.startTime : -1]; }")
    runs: list[list[float]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                            "--disable-background-networking"])
        for _ in range(5):
            page = browser.new_page()
            page.goto(url)
            page.wait_for_load_state("load")
            runs.append(list(page.evaluate(script)))
            page.close()
        browser.close()
    return {name: round(statistics.median(r[i] for r in runs), 1)
            for i, name in enumerate(("response_end", "dom_content_loaded", "first_paint"))}


def measure(games: int = 20, chromium: str | None = None) -> dict[str, Any]:
    """Every figure (see the module docstring)."""
    with running_server() as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        play_game(conn, 0)  # warm: the first answer loads the solutions
        times = [t for seed in range(1, games + 1) for t in play_game(conn, seed)]
        ordered = sorted(times)
        result: dict[str, Any] = {
            "reports": len(times),
            "round_trip_ms": {
                "p50": round(1000 * ordered[len(ordered) // 2], 2),
                "p95": round(1000 * ordered[int(len(ordered) * 0.95)], 2),
                "max": round(1000 * ordered[-1], 2),
            },
            "page_bytes": page_weight(conn),
        }
        conn.close()
        if chromium:
            result["first_render_ms"] = first_render(port, chromium)
    return result

