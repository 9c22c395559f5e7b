"""``mittens serve``'s drills, in-process: every mode is answered by its buttons and every
answer lands in the stats database; the answer clock is the terminal's (unreadable lines
and help do not restart it, a miss waits for Next); a game's bomb timer explodes on its
own and a late click is not stored; a terminal drill beside a browser drill loses
nothing; bad start forms are one line."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import run_cli
from starlette.testclient import TestClient

from defuser.trainer.drill_session import DrillEnded, DrillOptions
from defuser.trainer.model import MODES, DrillMode
from defuser.trainer.store import Store
from defuser.web.app import WebSettings, create_app
from defuser.web.drill import MAX_DRILLS, DrillHub, page_data
from defuser.web.server import plan, serve


class FakeClock:
    """Monotonic seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def client_for(database: Path) -> TestClient:
    settings = WebSettings(plan("127.0.0.1", 80).guard(), database=database)
    return TestClient(create_app(settings), base_url="http://127.0.0.1")


def stored(database: Path) -> list[tuple[str, bool]]:
    store = Store.open(database, create=False, readonly=True)
    if store is None:
        return []
    with store:
        return [(r.kind, r.correct) for r in store.answers()]


def first_choice(data: dict[str, object]) -> dict[str, str]:
    """The form of the first answer button (or a typed ``1`` / an empty legal answer)."""
    controls = data["controls"]
    assert isinstance(controls, dict)
    if controls["kind"] == "choice":
        return {"choice": controls["choices"][0][1]}
    if controls["kind"] == "slots":
        return {"go": "legal", "slot": "1"}
    return {"go": "typed", "line": "1" if controls["kind"] == "number" else "1/2"}


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_is_answered_by_buttons_into_the_database(memory_path: Path, mode: str) -> None:
    db = memory_path / "stats.sqlite3"
    client = client_for(db)
    started = client.post("/drill", data={"mode": mode, "count": "2"}, follow_redirects=False)
    assert started.status_code == 303
    url = started.headers["location"]
    assert client.get(url).status_code == 200
    for _ in range(60):
        data = client.get("/api" + url).json()
        state = data["state"]
        if state["ended"]:
            break
        form = {"go": "next"} if state["waiting"] else first_choice(data)
        assert client.post(url, data=form, follow_redirects=False).status_code == 303
    assert state["ended"], mode
    answers = stored(db)
    assert len(answers) == state["answered"] >= 2
    if mode not in ("mixed", "game"):
        assert {kind for kind, _ in answers} == {mode}
    page = client.get(url).text
    assert "Done:" in page and "Another drill" in page


def hub_with_clock(db: Path) -> tuple[DrillHub, FakeClock]:
    clock = FakeClock()
    return DrillHub(db, clock=clock), clock


def test_the_answer_clock_runs_from_the_question_whatever_comes_between(memory_path: Path) -> None:
    hub, clock = hub_with_clock(memory_path / "s.sqlite3")
    drill = hub.start(DrillMode.TABLE, DrillOptions(count=2, seed=3))
    clock.now += 4.0
    hub.answer(drill, "x")          # unreadable: asked again, the clock goes on
    assert page_data(drill, clock)["feedback"][0]["type"] == "rejected"
    clock.now += 3.0
    hub.answer(drill, "?")          # help: the notation, the clock goes on
    assert page_data(drill, clock)["feedback"][0]["type"] == "help"
    clock.now += 4.0
    expected = drill.session.question.expected  # type: ignore[union-attr]
    wrong = next(t for t in "ABCD" if t != expected)
    hub.answer(drill, wrong)
    graded = page_data(drill, clock)["feedback"][0]
    assert graded["type"] == "graded" and graded["seconds"] == pytest.approx(11.0)
    # After a miss the drill waits for Next: reading the feedback is not charged.
    assert drill.session.waiting and not drill.session.clock_running()
    clock.now += 30.0
    hub.answer(drill, "")
    clock.now += 2.0
    hub.answer(drill, drill.session.question.expected)  # type: ignore[union-attr]
    assert page_data(drill, clock)["feedback"][0]["seconds"] == pytest.approx(2.0)


def test_the_bomb_timer_explodes_on_its_own_and_a_late_click_is_not_stored(
    memory_path: Path,
) -> None:
    db = memory_path / "s.sqlite3"
    hub, clock = hub_with_clock(db)
    drill = hub.start(DrillMode.GAME, DrillOptions(count=1, seed=5, bomb_timer=20.0))
    data = page_data(drill, clock)
    assert data["bomb"]["runs_out_in"] == pytest.approx(20.0)
    clock.now += 21.0
    again = hub.get(drill.key)      # the page reloads when its countdown reaches zero
    assert again is drill
    kinds = [f["type"] for f in page_data(drill, clock)["feedback"]]
    assert kinds[:2] == ["timeout", "game_end"]
    hub.answer(drill, "draw")       # too late: not graded, not stored
    assert stored(db) == []


def test_a_terminal_drill_beside_a_browser_drill_loses_nothing(
    memory_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = memory_path / "s.sqlite3"
    hub, _clock = hub_with_clock(db)
    drill = hub.start(DrillMode.TABLE, DrillOptions(count=3, seed=1))
    hub.answer(drill, drill.session.question.expected)  # type: ignore[union-attr]
    run = run_cli(["drill", "--mode", "rule", "--count", "4", "--seed", "2", "--db", str(db)],
                  monkeypatch, stdin="A\nB\nC\nD\n")
    assert run.code == 0, run.err
    for _ in range(2):
        if drill.session.waiting:
            hub.answer(drill, "")
        hub.answer(drill, drill.session.question.expected)  # type: ignore[union-attr]
    kinds = [kind for kind, _ in stored(db)]
    assert kinds.count("table") == 3 and kinds.count("rule") == 4


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"mode": "poker"}, "mode 'poker' is not a drill mode"),
        ({"mode": "table", "count": "0"}, "count '0' is out of range"),
        ({"mode": "table", "count": "many"}, "count 'many' is not a number"),
        ({"mode": "table", "minutes": "nan"}, "minutes 'nan' is out of range"),
        ({"mode": "game", "bomb_timer": "inf"}, "bomb timer 'inf' is out of range"),
        ({"mode": "table", "daily_goal": "-3"}, "daily goal '-3' is not a whole number"),
    ],
)
def test_a_bad_start_form_is_one_line(memory_path: Path, form: dict[str, str], words: str) -> None:
    page = client_for(memory_path / "s.sqlite3").post("/drill", data=form)
    assert page.status_code == 400
    (error,) = re.findall(r'<p class="error" role="alert">([^<]*)</p>', page.text)
    assert words in error.replace("&#39;", "'") and "\n" not in error


def test_drills_at_once_are_bounded_and_a_forgotten_one_is_404(memory_path: Path) -> None:
    client = client_for(memory_path / "s.sqlite3")
    for _ in range(MAX_DRILLS):
        assert client.post("/drill", data={"mode": "table"},
                           follow_redirects=False).status_code == 303
    refused = client.post("/drill", data={"mode": "table"})
    assert refused.status_code == 400 and "already running" in refused.text
    assert client.get("/drill/nope").status_code == 404
    assert client.get("/api/drill/nope").json()["error"].startswith("this drill")


def test_a_decision_is_drawn_and_its_options_stay_hidden_until_answered(
    memory_path: Path,
) -> None:
    client = client_for(memory_path / "s.sqlite3")
    url = client.post("/drill", data={"mode": "game", "count": "1"},
                      follow_redirects=False).headers["location"]
    data = client.get("/api" + url).json()
    question = data["state"]["question"]
    assert "options" not in question
    page = client.get(url).text
    assert 'class="drawn-module"' in page
    for code in question["hand"]:
        assert f'<span class="code">{code}</span>' in page
    assert "Expected clicks" not in page


def test_the_daily_goal_is_saved_like_the_terminals(memory_path: Path) -> None:
    db = memory_path / "s.sqlite3"
    client = client_for(db)
    url = client.post("/drill", data={"mode": "table", "count": "1", "daily_goal": "25"},
                      follow_redirects=False).headers["location"]
    feedback = client.get("/api" + url).json()["feedback"]
    assert "25" in (feedback[0]["daily"] or "")
    store = Store.open(db, create=False, readonly=True)
    assert store is not None
    with store:
        assert store.settings()["daily_goal"] == "25"


def test_a_learner_caught_up_is_told_so_not_shown_an_error(
    memory_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = memory_path / "s.sqlite3"
    run = run_cli(["drill", "--db", str(db), "--mode", "decide", "--count", "1",
                   "--new-per-day", "0"], monkeypatch, stdin="quit\n")
    assert "Caught up" in run.out + run.err, run.out + run.err
    client = client_for(db)
    url = client.post("/drill", data={"mode": "mixed", "count": "3"},
                      follow_redirects=False).headers["location"]
    page = client.get(url)
    assert page.status_code == 200 and "Caught up" in page.text
    kinds = [f["type"] for f in client.get("/api" + url).json()["feedback"]]
    assert "caught_up" in kinds and kinds[-1] == "ended"
    practice = client.post("/drill", data={"mode": "table", "count": "1", "practice": "1"},
                           follow_redirects=False).headers["location"]
    data = client.get("/api" + practice).json()
    assert "extra practice" in data["plan"]
    assert "caught_up" in [f["type"] for f in data["feedback"]]   # nothing seen yet


def test_ended_drills_do_not_count_towards_the_limit(memory_path: Path) -> None:
    client = client_for(memory_path / "s.sqlite3")
    for _ in range(MAX_DRILLS + 2):
        url = client.post("/drill", data={"mode": "table", "count": "2"},
                          follow_redirects=False).headers["location"]
        client.post(url, data={"go": "stop"})
        assert client.get("/api" + url).json()["state"]["ended"]


def test_an_answer_from_a_stale_page_is_refused_and_not_stored(memory_path: Path) -> None:
    db = memory_path / "s.sqlite3"
    client = client_for(db)
    url = client.post("/drill", data={"mode": "table", "count": "5"},
                      follow_redirects=False).headers["location"]
    first = client.get("/api" + url).json()["question_number"]
    client.post(url, data={"choice": "A", "q": str(first)})
    data = client.get("/api" + url).json()
    if data["state"]["waiting"]:
        client.post(url, data={"go": "next", "q": str(data["question_number"])})
    stored_before = len(stored(db))
    client.post(url, data={"choice": "B", "q": str(first)})      # the stale tab
    data = client.get("/api" + url).json()
    assert len(stored(db)) == stored_before
    assert "earlier question" in data["notice"]
    assert "earlier question" in client.get(url).text


def test_the_page_restarts_the_answer_clock_when_it_shows_the_question(
    memory_path: Path,
) -> None:
    hub, clock = hub_with_clock(memory_path / "s.sqlite3")
    drill = hub.start(DrillMode.TABLE, DrillOptions(count=2, seed=3))
    clock.now += 0.6          # the redirect and the page reaching the browser
    hub.show(drill)
    clock.now += 2.0
    hub.show(drill)           # a reload does not restart it again
    clock.now += 1.0
    hub.answer(drill, drill.session.question.expected)  # type: ignore[union-attr]
    assert page_data(drill, clock)["feedback"][0]["seconds"] == pytest.approx(3.0)


def test_stop_works_through_the_json_twin_and_questions_give_nothing_away(
    memory_path: Path,
) -> None:
    client = client_for(memory_path / "s.sqlite3")
    for mode in ("identify", "rule", "cycle", "game", "decide"):
        url = client.post("/drill", data={"mode": mode, "count": "1"},
                          follow_redirects=False).headers["location"]
        question = client.get("/api" + url).json()["state"]["question"]
        assert not {"skill", "interval", "seed", "options", "defuse_slots"} & set(question)
        assert question["text"]
        assert client.post("/api" + url, data={"go": "stop"}).json()["state"]["ended"]


@pytest.mark.parametrize("form", [{"mode": "table", "daily_goal": "²"},
                                  {"mode": "table", "table": "Z"}])
def test_odd_start_forms_are_one_line_not_a_server_error(
    memory_path: Path, form: dict[str, str]
) -> None:
    page = client_for(memory_path / "s.sqlite3").post("/drill", data=form)
    assert page.status_code == 400 and "Traceback" not in page.text


def session_ends(database: Path) -> list[float | None]:
    """When each stored drill session ended (``None``: never marked ended)."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        return [row[0] for row in db.execute("SELECT ended FROM sessions ORDER BY id")]


def test_drills_still_running_are_ended_when_the_server_stops(memory_path: Path) -> None:
    # Bug: a drill still running when mittens serve stopped was never ended, so its
    # session stayed open in the stats database (an idle drill is ended as if its
    # learner quit). The app's lifespan now ends them at shutdown, as the idle sweep does.
    db = memory_path / "stats.sqlite3"
    with client_for(db) as client:  # the context runs the app's start-up and shutdown
        urls = []
        for mode in ("table", "game"):
            started = client.post("/drill", data={"mode": mode, "count": "3"},
                                  follow_redirects=False)
            urls.append(started.headers["location"])
        data = client.get("/api" + urls[0]).json()
        assert client.post(urls[0], data=first_choice(data)).status_code == 200
        assert session_ends(db) == [None, None]  # both still running
    ends = session_ends(db)
    assert len(ends) == 2 and all(end is not None for end in ends)
    assert len(stored(db)) == 1  # the answer given was kept


def test_the_hub_ends_every_running_drill_as_if_its_learner_quit(memory_path: Path) -> None:
    db = memory_path / "s.sqlite3"
    hub = DrillHub(db, clock=FakeClock(), wall=lambda: 1_700_000_000.0)
    running = hub.start(DrillMode.TABLE, DrillOptions(count=3, seed=3))
    done = hub.start(DrillMode.TABLE, DrillOptions(count=1, seed=4))
    hub.answer(done, done.session.question.expected)  # type: ignore[union-attr]
    assert done.session.ended and not running.session.ended
    hub.close()
    assert running.session.ended and hub.drills == {}
    last = running.events[-1]
    assert isinstance(last, DrillEnded) and not last.interrupted  # a quit, not a break-off
    assert session_ends(db) == [1_700_000_000.0, 1_700_000_000.0]


def test_mittens_serve_runs_the_apps_lifespan(monkeypatch: pytest.MonkeyPatch,
                                              memory_path: Path) -> None:
    # With uvicorn's lifespan off, the shutdown that ends the running drills never ran.
    import uvicorn

    lifespans: list[str] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: lifespans.append(self.config.lifespan))
    serve(plan("127.0.0.1", 0), open_browser=False, announce=lambda url: None,
          database=memory_path / "s.sqlite3")
    assert lifespans == ["on"]
