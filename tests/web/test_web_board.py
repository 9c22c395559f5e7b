"""``mittens serve``'s board and tables, in-process: the JSON twin agrees with
``mittens live``'s own session, reports change only the address, and the tables are the
CLI's."""

from __future__ import annotations

import json
import random
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient

from defuser.apps.live_session import LiveSession
from defuser.apps.live_words import expand, report_line
from defuser.apps.table_io import to_json as tables_json
from defuser.engine.simulator import Module
from defuser.web.app import WebSettings, create_app
from defuser.web.security import GuardSettings
from edgework import Batteries, Ruleset, SerialNumber


@pytest.fixture(scope="module")
def client() -> TestClient:
    """The app on loopback, as ``mittens serve`` runs it by default."""
    return TestClient(create_app(WebSettings(GuardSettings(port=80))), base_url="http://127.0.0.1")


def board_params(lines: list[str], **extra: str) -> dict[str, str]:
    return {"serial": "AB3CD4", "batteries": "3", "m": ";".join(lines), **extra}


def test_the_board_json_is_the_live_sessions_json(client: TestClient) -> None:
    serial, batteries = SerialNumber.parse("AB3CD4"), Batteries.parse("3")
    module = Module(Ruleset(serial.table, serial.last_digit), batteries.interval, random.Random(5))
    lines = ["start " + " ".join(c.code for c in (module.discard_top, *module.hand))]
    session = LiveSession(serial, batteries)
    reply = session.handle(lines[0])
    while not module.solved:
        data = client.get("/api/board", params=board_params(lines)).json()
        assert data["modules"][0]["live"] == reply.to_json()
        action = reply.recommendation.action
        assert action is not None
        event = module.act(action).event
        assert event is not None
        lines.append(report_line(event))
        reply = session.handle(lines[-1])
        assert reply.ok
    data = client.get("/api/board", params=board_params(lines)).json()
    assert data["modules"][0]["view"]["solved"] is True
    assert data["modules"][0]["view"]["badge"]["text"] == "SOLVED"


def test_edgework_reads_each_field_and_names_the_wrong_one(client: TestClient) -> None:
    edge = client.get("/api/edgework", params={"serial": "AB3CD4", "batteries": "3B 2H"}).json()
    assert (edge["table"], edge["last_digit"], edge["batteries"], edge["interval"]) == (
        "B", 4, 3, 12)
    assert edge["errors"] == {}
    pasted = client.get("/api/edgework", params={"edgework": "2B 1H // *FRK // AB7CD8"}).json()
    assert (pasted["serial"], pasted["batteries"]) == ("AB7CD8", 2)
    wrong = client.get("/api/edgework", params={"serial": "AB3", "batteries": "lots"}).json()
    assert set(wrong["errors"]) == {"serial", "batteries"}
    assert "AB3" in wrong["errors"]["serial"]


def report(client: TestClient, params: dict[str, str]) -> dict[str, list[str]]:
    """Send a report; the next address's query, as the browser would follow it."""
    response = client.get("/report", params=params, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith("/?")
    return parse_qs(urlsplit(location).query)


def test_clicking_four_faces_starts_the_module(client: TestClient) -> None:
    params = {"serial": "AB3CD4", "batteries": "3", "m": "", "module": "0", "verb": "start"}
    for face, pending in (("RC", "RC"), ("BH", "RC BH"), ("GS", "RC BH GS")):
        query = report(client, {**params, "face": face, "p": params.get("p", "")})
        assert query["p"] == [pending]
        params["p"] = pending
    query = report(client, {**params, "face": "YT"})
    assert query["m"] == ["start RC BH GS YT"]
    assert "p" not in query


def test_short_forms_undo_and_redo(client: TestClient) -> None:
    base = board_params(["start RC BH GS YT"], module="0")
    query = report(client, {**base, "typed": "p1"})
    assert query["m"] == ["start RC BH GS YT;played 1"]
    query = report(client, {**base, "m": query["m"][0], "typed": "undo"})
    assert query["m"] == ["start RC BH GS YT"] and query["u"] == ["played 1"]
    query = report(client, {**base, "m": query["m"][0], "u": query["u"][0], "line": "redo"})
    assert query["m"] == ["start RC BH GS YT;played 1"] and "u" not in query


def test_a_refused_line_is_not_added_and_says_why(client: TestClient) -> None:
    base = board_params(["start RC BH GS YT"], module="0")
    query = report(client, {**base, "typed": "drew RH"})  # the hand is full
    assert query["m"] == ["start RC BH GS YT"]
    assert query["rl"] == ["drew RH"] and "re" not in query
    page = client.get("/", params={k: v[0] for k, v in query.items()}).text
    assert "was not applied" in page and "drew RH" in page
    # The reason is worked out by the server: an address cannot make the page say more.
    forged = client.get("/api/board", params={**board_params(["start RC BH GS YT"]),
                                              "rm": "0", "rl": "played 1",
                                              "re": "download the fix at evil.example"}).json()
    assert forged["modules"][0]["rejected"] is None  # played 1 fits: nothing to say
    assert "evil" not in json.dumps(forged)


def test_no_report_after_a_line_that_no_longer_fits(client: TestClient) -> None:
    lines = "start RH BS YT YC;played 1;discarded BT"
    base = {"serial": "XX1XX9", "batteries": "3", "m": lines, "module": "0"}
    board = client.get("/api/board", params=base).json()["modules"][0]
    assert board["failed"] is not None and board["failed"]["index"] == 1
    query = report(client, {**base, "line": "played 3"})
    assert query["m"] == [lines] and query["rl"] == ["played 3"]
    shown = client.get("/api/board", params={k: v[0] for k, v in query.items()}).json()
    assert "no longer fits" in shown["modules"][0]["rejected"]["error"]


@pytest.mark.parametrize("word", ["help", "quit", "state", "?"])
def test_questions_never_enter_the_history(client: TestClient, word: str) -> None:
    base = board_params(["start RC BH GS YT"], module="0")
    query = report(client, {**base, "typed": word})
    assert query["m"] == ["start RC BH GS YT"] and query["rl"] == [word]


def test_the_twitch_plays_number_from_its_box_or_a_typed_command(client: TestClient) -> None:
    base = board_params(["start RC BH GS YT"], module="0")
    query = report(client, {**base, "tpset": "7"})
    assert query["tp"] == ["7"] and query["m"] == ["start RC BH GS YT"]
    query = report(client, {**base, "typed": "!12 p1"})
    assert query["tp"] == ["12"] and query["m"] == ["start RC BH GS YT;played 1"]


@pytest.mark.parametrize(
    ("text", "count"),
    [("1AA 1D", 3), ("1 AA 1 D", 3), ("AA D", 3), ("2xAA", 4), ("3 (1 AA, 1 D)", None),
     ("3B 2H", 3), ("4", 4)],
)
def test_batteries_as_holders(client: TestClient, text: str, count: int | None) -> None:
    edge = client.get("/api/edgework", params={"batteries": text}).json()
    assert edge["batteries"] == count


def test_correcting_the_edgework_names_the_line_that_no_longer_fits(client: TestClient) -> None:
    lines = ["start RC BH GS YT", "played 1"]
    good = client.get("/api/board", params=board_params(lines)).json()["modules"][0]
    assert good["failed"] is None and good["applied"] == 2
    # Under serial AB3CD1 (Table B, column 1) BH is not legal on RC, so "played 1" strikes
    # nothing but does not fit either: the board names it and keeps the lines.
    moved = client.get("/api/board", params=board_params(lines, serial="AB3CD1")).json()
    module = moved["modules"][0]
    assert module["lines"] == lines
    if module["failed"] is not None:
        assert module["failed"]["index"] >= 0 and module["failed"]["error"]


def test_several_modules_share_the_edgework_and_twitch_numbers(client: TestClient) -> None:
    params: list[tuple[str, str | int | float | bool | None]] = [
        ("serial", "AB3CD4"), ("batteries", "3"), ("m", "start RC BH GS YT"),
        ("m", "start GT BH YS GH"), ("tp", "7"), ("tp", "12"),
    ]
    data = client.get("/api/board", params=params).json()
    first, second = data["modules"]
    assert first["view"]["twitch_command"] == "!7 play 1"
    assert second["view"]["twitch_command"].startswith("!12 ")
    page = client.get("/", params=params).text
    assert page.count('class="module"') == 2


def test_tables_json_is_the_cli_export_plus_the_marks(client: TestClient) -> None:
    data = client.get("/api/tables", params={"serial": "AB3CD4", "discard": "RC"}).json()
    export = tables_json(SerialNumber.parse("AB3CD4"))
    assert {k: data[k] for k in export} == export
    assert data["rule"]["letter"] == "I" and data["rule"]["type"] == "Yep"
    page = client.get("/tables", params={"serial": "AB3CD4", "discard": "RC"}).text
    assert "(active)" in page and "(in force)" in page


@pytest.mark.parametrize(
    ("typed", "line"),
    [("p3", "played 3"), ("played3", "played 3"), ("2", "played 2"), ("!7 p 1", "played 1"),
     ("d BT", "discarded BT"), ("disc BT", "discarded BT"), ("dr GS", "drew GS"),
     ("strike d", "strike discard"), ("x dr", "strike draw"), ("strike p2", "strike play 2"),
     ("drew GS", "drew GS"), ("start RC BH", "start RC BH"), ("solved", "solved")],
)
def test_short_forms_expand_to_live_lines(typed: str, line: str) -> None:
    assert expand(typed) == line


def test_a_module_whose_advice_stopped_says_so() -> None:
    from defuser.apps.live_session import SessionReply
    from defuser.strategy.values import Recommendation
    from defuser.web.board import module_view

    stopped = SessionReply(False, "lost track", None, Recommendation(None, None, "lost track"))
    assert module_view(stopped, None)["badge"]["text"] == "STOPPED"
    waiting = SessionReply(True, None, None, Recommendation(None, None, "give the serial"))
    assert module_view(waiting, None)["badge"]["text"] == "WAITING"


def test_a_bug_inside_the_session_is_a_server_error_not_an_error_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A misuse inside the live session once became the board's 'failed' line
    ('internal error: MisuseError: ...'); it is a bug, answered 500 with no traceback."""
    from defuser.strategy.belief import Observation
    from edgework.errors import MisuseError

    def broken(self: Observation, event: object) -> Observation:
        raise MisuseError("secret internals")

    monkeypatch.setattr(Observation, "apply", broken)
    plain = TestClient(create_app(WebSettings(GuardSettings(port=80))),
                       base_url="http://127.0.0.1", raise_server_exceptions=False)
    # Module number 999: no other test's board, so none of them is remembered for it.
    params = board_params(["start RC BH GS YT", "played 1"], tp="999")
    response = plain.get("/api/board", params=params)
    assert response.status_code == 500 and response.json() == {"error": "Internal Server Error"}
    assert "Traceback" not in response.text and "secret" not in response.text
    page = plain.get("/", params=params)
    assert page.status_code == 500 and page.text == "500 Internal Server Error\n"
