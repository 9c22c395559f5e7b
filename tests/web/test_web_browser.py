"""``mittens serve`` in a real headless browser: a module played by clicks only and by
keys only, following the board's advice to a solve with no strike; a refresh keeps the
state; a phone's width needs no horizontal scroll; an accessibility audit (axe-core) finds
nothing serious. With ``MITTENS_SCREENSHOTS=DIR`` the tests also save the screenshots
that docs/web.md shows."""

from __future__ import annotations

import functools
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from web_fixtures import tampered_log, two_module_log

from defuser.engine.events import Discarded, Drew, Played, Solved
from defuser.engine.simulator import Module
from edgework import Batteries, Ruleset, SerialNumber

SERIAL, BATTERIES = "AB3CD4", "3"


def new_module(seed: int) -> Module:
    serial, batteries = SerialNumber.parse(SERIAL), Batteries.parse(BATTERIES)
    return Module(Ruleset(serial.table, serial.last_digit), batteries.interval,
                  random.Random(seed))


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("MITTENS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def advice(page: Any) -> str:
    """The badge's click (``PLAY 2``, ``DRAW``, ``DISCARD``, ``SOLVED``)."""
    return str(page.locator("#module-1 .badge .verb").inner_text()).strip()


def act(module: Module, badge: str) -> object:
    from defuser.engine.actions import Action

    return module.act(Action.parse(badge.lower())).event


def click_report(page: Any, event: object) -> None:
    """Report an event the way a defuser's expert would, with the mouse."""
    form = page.locator("#module-1 form.report")
    if isinstance(event, Drew | Discarded):
        verb = "Drew" if isinstance(event, Drew) else "Discarded"
        form.get_by_label(verb, exact=True).check()
        form.locator(f'button[name="face"][value="{event.card.code}"]').click()
    elif isinstance(event, Played):
        form.get_by_role("button", name=f"Played {event.slot}", exact=True).click()
    else:
        assert isinstance(event, Solved)
        form.get_by_role("button", name="Solved", exact=True).click()


def set_edgework(page: Any, url: str) -> None:
    page.goto(url)
    page.get_by_label("Serial").fill(SERIAL)
    page.get_by_label("Batteries").fill(BATTERIES)
    page.get_by_role("button", name="Set edgework").click()
    page.wait_for_url("**serial=AB3CD4**")


def play_by_clicks(page: Any, module: Module) -> None:
    for card in (module.discard_top, *module.hand):
        before = page.url
        page.locator(f'#module-1 button[name="face"][value="{card.code}"]').click()
        page.wait_for_function("u => window.location.href !== u", arg=before)
    page.wait_for_selector("#module-1 .hand")
    while not module.solved:
        badge = advice(page)
        before = page.url
        event = act(module, badge)
        click_report(page, event)
        page.wait_for_function("u => window.location.href !== u", arg=before)
    page.wait_for_selector("#module-1 .badge-solved")


def test_a_module_played_by_clicks_only_solves_with_no_strike(page: Any, server_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    set_edgework(page, server_url)
    module = new_module(11)
    play_by_clicks(page, module)
    assert module.strikes == 0 and module.solved
    assert advice(page) == "SOLVED"
    shot(page, "board-solved.png")


def test_keyboard_only(page: Any, server_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server_url}?serial={SERIAL}&batteries={BATTERIES}")
    module = new_module(3)
    page.keyboard.press("/")
    opening = " ".join(c.code for c in (module.discard_top, *module.hand))
    page.keyboard.type(f"start {opening}")
    page.keyboard.press("Enter")
    page.wait_for_selector("#module-1 .hand")
    while not module.solved:
        badge = advice(page)
        event = act(module, badge)
        typed = {Drew: "dr {}", Discarded: "d {}"}.get(type(event), "")
        if isinstance(event, Drew | Discarded):
            line = typed.format(event.card.code)
        elif isinstance(event, Played):
            line = f"p{event.slot}"
        else:
            line = "solved"
        before = page.url
        focused = page.evaluate("document.activeElement.className")
        assert "line-input" in focused  # focus stays in the line box after each report
        page.keyboard.type(line)
        page.keyboard.press("Enter")
        page.wait_for_function("u => window.location.href !== u", arg=before)
    assert module.strikes == 0 and advice(page) == "SOLVED"


def test_one_key_reports(page: Any, server_url: str) -> None:
    page.goto(f"{server_url}?serial={SERIAL}&batteries={BATTERIES}&m=start RC BH GS YT")
    page.locator("#module-1 h2").click()  # the page, not a text box, has the focus
    for key, lines in (("1", "start RC BH GS YT;played 1"), ("u", "start RC BH GS YT"),
                       ("r", "start RC BH GS YT;played 1")):
        before = page.url
        page.keyboard.press(key)
        page.wait_for_function("u => window.location.href !== u", arg=before)
        assert page.evaluate("new URL(location.href).searchParams.get('m')") == lines
    page.keyboard.press("Escape")
    page.locator("#module-1 h2").click()
    page.keyboard.press("w")
    box = page.locator("#module-1 .line-input")
    assert box.input_value() == "drew " and box.evaluate("e => e === document.activeElement")


def test_a_refresh_keeps_the_module(page: Any, server_url: str) -> None:
    page.goto(f"{server_url}?serial={SERIAL}&batteries={BATTERIES}&m=start RC BH GS YT;played 1")
    badge, lines = advice(page), page.locator("#module-1 .history li").count()
    shot(page, "board.png")
    page.reload()
    assert advice(page) == badge and page.locator("#module-1 .history li").count() == lines
    theme = page.locator("#theme")
    theme.click()
    theme.click()
    assert theme.inner_text() == "Theme: dark"
    page.reload()  # the choice is kept
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert dark == "rgb(18, 18, 18)"
    shot(page, "board-dark.png")


def test_the_hands_free_board_follows_a_log_written_at_game_pace(
    page: Any, server_url: str, followed_log: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server_url + "follow")
    page.wait_for_selector("text=following")
    lines = two_module_log().splitlines(keepends=True)
    with followed_log.open("wb") as handle:
        for index, line in enumerate(lines):
            handle.write(line)
            handle.flush()
            if index % 25 == 0:
                time.sleep(0.05)
    page.wait_for_function(
        "() => document.querySelectorAll('.fmodule.solved').length === 2", timeout=20000)
    assert page.locator(".fmodule.latest").count() == 1
    shot(page, "follow.png")
    page.set_viewport_size({"width": 480, "height": 300})
    page.goto(server_url + "follow?view=overlay")
    page.wait_for_selector(".fmodule")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background in ("rgba(0, 0, 0, 0)", "transparent")


@pytest.mark.parametrize("path", ["", "tables?serial=AB3CD4&discard=RC", "stats?x=1"])
def test_phone_width_needs_no_horizontal_scroll(page: Any, server_url: str, path: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server_url}{path}{'&' if '?' in path else '?'}serial={SERIAL}&batteries=3"
              "&m=start RC BH GS YT")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    if path.startswith("stats"):
        assert page.locator("svg.chart").count() >= 3
    else:
        shot(page, f"phone-{'tables' if path else 'board'}.png")


AUDITED = (
    ("light", f"?serial={SERIAL}&batteries=3&m=start RC BH GS YT"),
    ("light", "tables?serial=AB3CD4"),
    ("light", "follow?view=phone"),
    ("light", "logs?path=TAMPERED"),
    ("light", "drill"),
    ("dark", "stats"),
    ("dark", "logs"),
)


@pytest.mark.parametrize(("scheme", "path"), AUDITED)
def test_accessibility_audit_finds_nothing_serious(page: Any, server_url: str, axe_js: str,
                                                   memory_path: Path, scheme: str,
                                                   path: str) -> None:
    log = memory_path / "tampered.log"
    log.write_bytes(tampered_log())
    page.emulate_media(color_scheme=scheme)
    page.goto(server_url + path.replace("TAMPERED", str(log)))
    page.evaluate(axe_js)
    # Every rule runs on every node; only the violations are reported in full (the passes
    # and the incomplete checks, which nothing here reads, cost most of axe's time).
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    serious = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"] if v["impact"] in ("serious", "critical")
    ]
    assert serious == []


def test_an_uploaded_log_marks_its_inconsistency_and_steps_click_by_click(
    page: Any, server_url: str, memory_path: Path
) -> None:
    log = memory_path / "output_log.txt"
    log.write_bytes(tampered_log())
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server_url + "logs")
    page.get_by_label("Game log file").set_input_files(str(log))
    page.locator("form.log-form").first.get_by_role("button", name="Open").click()
    page.wait_for_url("**/logs?id=**")
    marked = page.locator("tr.step.marked")
    assert marked.count() == 1
    assert "the line says rule B" in marked.inner_text()
    module = page.locator("article.log-module").first
    page.keyboard.press("ArrowRight")      # a fresh page: the first module on screen steps
    assert "Step 1 of" in module.locator(".step-at").inner_text()
    module.get_by_role("button", name="Next step").click()
    assert module.locator("tr.step.current th").inner_text() == "2"
    assert module.locator("tr.step:visible").count() == 2
    assert "Step 2 of" in module.locator(".step-at").inner_text()
    shot(page, "log-viewer.png")
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_drill_answered_by_clicks_and_keys_lands_in_the_database(
    page: Any, server_url: str, stats_db: Path
) -> None:
    from defuser.trainer.store import Store

    def table_answers() -> int:
        store = Store.open(stats_db, create=False, readonly=True)
        assert store is not None
        with store:
            return sum(1 for r in store.answers() if r.kind == "table")

    before = table_answers()
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(server_url + "drill")
    page.get_by_label("Mode").select_option("table")
    page.get_by_label("Questions (or games)").fill("3")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url("**/drill/**")
    for turn in range(12):
        if page.locator("text=Done:").count():
            break
        if turn == 1:
            shot(page, "drill.png")
        with page.expect_navigation():
            if page.locator("button.next").count():
                page.keyboard.press("Enter")       # Next, after a miss
            elif turn % 2:
                page.keyboard.press("b")           # one key: table B
            else:
                page.locator(".choices button").first.click()
    assert page.locator("text=Done:").count() == 1
    assert table_answers() == before + 3
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def _keep_errors(errors: list[str], message: Any) -> None:
    if message.type == "error":
        errors.append(message.text)


@pytest.mark.parametrize(("days", "answers"), [(0, 0), (1, 25), (60, 1200)])
def test_the_dashboard_draws_for_an_empty_a_first_and_a_sixty_day_database(
    page: Any, memory_path: Path, days: int, answers: int
) -> None:
    from defuser.trainer.sample import sample_database
    from defuser.web.benchmark import running_server

    db = memory_path / "stats.sqlite3"
    if answers:
        sample_database(db, days=days, answers=answers, seed=days)
    errors: list[str] = []
    keep_errors = functools.partial(_keep_errors, errors)
    page.on("console", keep_errors)
    with running_server(db) as port:
        for scheme, width in (("light", 1280), ("dark", 360)):
            page.set_viewport_size({"width": width, "height": 900})
            page.emulate_media(color_scheme=scheme)
            page.goto(f"http://127.0.0.1:{port}/stats")
            if not answers:
                assert page.locator("text=No answers yet").count() == 1
            else:
                assert page.locator("svg.chart").count() == 4
                assert page.locator("svg.calendar rect.day").count() >= 26 * 7
                assert page.locator("table.heatmap").count() == 5
                assert page.locator(f"dd:text-is('{answers}')").count() == 1
                box = page.locator("svg.chart").first.bounding_box()
                assert box is not None and box["width"] > 300 and box["height"] > 100
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert errors == []
            if days == 60 and scheme == "light":
                shot(page, "stats.png")
        page.goto("about:blank")  # before the server stops
    page.remove_listener("console", keep_errors)
