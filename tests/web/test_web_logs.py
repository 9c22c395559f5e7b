"""``mittens serve``'s log viewer, in-process: every way to open a log gives the document of
``mittens log analyze --json``, each inconsistency is marked on the row whose lines hold it,
and bad sources are one line."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from gamelog_builder import BombSpec, game_log, sample_messages
from starlette.testclient import TestClient

from defuser.logs.analysis import analyse_bytes, mark_rows, to_json
from defuser.web.app import WebSettings, create_app
from defuser.web.logview import MAX_ROWS, Kept, view
from defuser.web.server import plan


@pytest.fixture(scope="module")
def followed(memory_tmp: Callable[[str], Path]) -> Path:
    return memory_tmp("followed") / "Player.log"


@pytest.fixture(scope="module")
def client(followed: Path) -> TestClient:
    settings = WebSettings(plan("127.0.0.1", 80).guard(), follow=followed)
    return TestClient(create_app(settings), base_url="http://127.0.0.1")


def tampered_log() -> tuple[bytes, int]:
    """A two-bomb log whose first module says rule B on its tenth line (the module wrote A),
    and that line's number."""
    messages = sample_messages("sample02.log")
    messages[9] = "The rule used now is B."
    built = game_log(
        [BombSpec("MG9NE9", [2, 2, 1], {1: messages}, seed=11),
         BombSpec("FL7NL4", [1, 1], {2: sample_messages("sample06.log")})],
        seed=3,
    )
    return built.data, built.numbers[(0, 1)][9]


def expected_document(data: bytes, name: str) -> dict[str, object]:
    doc = to_json([analyse_bytes(data, name)])
    return json.loads(json.dumps(doc))  # type: ignore[no-any-return]


def test_mark_rows_puts_a_line_on_the_last_row_starting_at_or_before_it() -> None:
    assert mark_rows([10, 14, 20], [3, 10, 13, 14, 99]) == [-1, 0, 0, 1, 2]


def test_an_uploaded_log_is_kept_at_its_own_address_and_marks_the_bad_row(
    client: TestClient,
) -> None:
    data, bad_line = tampered_log()
    posted = client.post("/logs", files={"file": ("output_log.txt", data, "text/plain")},
                         data={"judge": "1"}, follow_redirects=False)
    assert posted.status_code == 303
    address = posted.headers["location"]
    assert re.fullmatch(r"/logs\?id=[\w-]+", address)
    page = client.get(address)
    assert page.status_code == 200
    html = page.text
    marked = re.findall(r'<tr id="(b\d+m\d+-r\d+)" class="step[^"]*marked', html)
    assert len(marked) == 1
    row = html[html.index(f'id="{marked[0]}"'):]
    row = row[:row.index("</tr>")]
    assert f"⚠ line {bad_line}:" in row
    # The row marked is the click whose lines hold the bad one.
    doc = client.get("/api/logs" + address[len("/logs"):]).json()
    assert doc == expected_document(data, "output_log.txt")
    module = doc["files"][0]["bombs"][0]["modules"][0]
    starts = [step["line"] for step in module["replay"]]
    number = int(marked[0].rsplit("-r", 1)[1])
    assert starts[number - 1] <= bad_line
    assert number == len(starts) or starts[number] > bad_line
    assert f'href="#{marked[0]}"' in html  # the list of inconsistencies links to the row


def test_a_pasted_log_and_a_raw_body_give_the_same_document(client: TestClient) -> None:
    data, _ = tampered_log()
    expected = expected_document(data, "upload")
    assert client.post("/api/logs", content=data,
                       headers={"content-type": "application/octet-stream"}).json() == expected
    posted = client.post("/logs", data={"text": data.decode()}, follow_redirects=False)
    doc = client.get("/api/logs?" + posted.headers["location"].split("?")[1]).json()
    assert doc["files"][0]["bombs"] == expected_document(data, "pasted log")["files"][0]["bombs"]  # type: ignore[index]


def test_a_path_and_the_followed_log_are_read_on_the_server(
    client: TestClient, followed: Path, memory_path: Path
) -> None:
    data, _ = tampered_log()
    path = memory_path / "Player.log"
    path.write_bytes(data)
    assert client.get("/api/logs", params={"path": str(path)}).json() == expected_document(
        data, str(path))
    followed.write_bytes(data)
    page = client.get("/logs", params={"followed": "1"})
    assert page.status_code == 200
    assert "Exploding Mittens #1" in page.text and "Bomb 2" in page.text


def test_edgework_given_beside_a_lines_only_log_is_used(client: TestClient) -> None:
    lines = "".join(f"[Exploding Mittens #1] {m}\n" for m in sample_messages("sample02.log"))
    alone = client.post("/api/logs", content=lines.encode()).json()
    given = client.post("/api/logs?serial=MG9NE9&batteries=5", content=lines.encode()).json()
    bomb = given["files"][0]["bombs"][0]
    assert (bomb["serial"], bomb["batteries"], bomb["serial_source"]) == ("MG9NE9", 5, "given")
    assert alone["files"][0]["bombs"][0]["serial_source"] == "unknown"


@pytest.mark.parametrize(
    ("params", "status", "words"),
    [
        ({"path": "/no/such/Player.log"}, 400, "does not exist"),
        ({"path": "/"}, 400, "is a folder"),
        ({"path": "/dev/null", "serial": "12"}, 400, "serial '12'"),
        ({"path": "/dev/null", "batteries": "x"}, 400, "batteries 'x'"),
        ({"id": "forgotten"}, 404, "no longer kept"),
        ({"path": "https://ktane.timwi.de/lfa#file=abc"}, 400, "download the log first"),
    ],
)
def test_a_source_that_cannot_be_read_is_one_line(
    client: TestClient, params: dict[str, str], status: int, words: str
) -> None:
    page = client.get("/logs", params=params)
    assert page.status_code == status
    (error,) = re.findall(r'<p class="error" role="alert">([^<]*)</p>', page.text)
    assert words in error.replace("&#39;", "'") and "\n" not in error
    api = client.get("/api/logs", params=params)
    assert api.status_code == status and words in api.json()["error"]
    assert "Traceback" not in page.text


def test_a_fifo_is_refused_without_waiting(client: TestClient, memory_path: Path) -> None:
    fifo = memory_path / "pipe"
    os.mkfifo(fifo)
    refused = client.get("/api/logs", params={"path": str(fifo)}).json()
    assert "not a regular file" in refused["error"]


def test_an_empty_upload_is_refused(client: TestClient) -> None:
    assert client.post("/api/logs", content=b"").status_code == 400
    page = client.post("/logs", data={"text": "  "})
    assert page.status_code == 400 and "no log given" in page.text


def test_uploads_are_bounded_by_count_and_size(client: TestClient) -> None:
    kept = Kept(size=2)
    keys = [kept.add({"n": n}) for n in range(3)]
    assert kept.get(keys[0]) is None and kept.get(keys[2]) == {"n": 2}
    too_big = client.post("/api/logs", content=b"x" * (33 * 1024 * 1024))
    assert too_big.status_code == 413


def test_a_long_module_draws_its_first_rows_and_counts_the_rest() -> None:
    replay = [{"line": n, "judgement": None} for n in range(MAX_ROWS + 5)]
    module = {"replay": replay, "inconsistencies": [{"line": MAX_ROWS + 3, "message": "late"}],
              "extra_clicks": None, "solved": False, "strikes": 0}
    doc = {"files": [{"bombs": [{"modules": [module]}], "problems": []}]}
    (shown,) = view(doc)["bombs"][0]["modules"]
    assert len(shown["rows"]) == MAX_ROWS and shown["rows_left_out"] == 5
    assert shown["marks_left_out"] == [{"line": MAX_ROWS + 3, "message": "late"}]


@pytest.mark.parametrize("params", [
    {"path": "/dev/null", "batteries": "²"},
    {"path": "/tmp/a\x00b"},
])
def test_odd_fields_are_one_line_not_a_server_error(
    client: TestClient, params: dict[str, str]
) -> None:
    assert client.get("/logs", params=params).status_code == 400
    api = client.get("/api/logs", params=params)
    assert api.status_code == 400 and api.json()["error"]


def test_an_unticked_judge_box_skips_the_judgement(client: TestClient) -> None:
    data, _ = tampered_log()
    posted = client.post("/logs", files={"file": ("g.log", data, "text/plain")},
                         data={"judge": "0"}, follow_redirects=False)
    page = client.get(posted.headers["location"]).text
    assert "Not judged" in page and "Decisions:" not in page
    ticked = client.post("/logs", files={"file": ("g.log", data, "text/plain")},
                         data={"judge": ["0", "1"]}, follow_redirects=False)
    assert "Decisions:" in client.get(ticked.headers["location"]).text


def test_a_log_sent_as_curl_sends_a_file_is_read(client: TestClient) -> None:
    data, _ = tampered_log()
    sent = client.post("/api/logs", content=data,
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert sent.status_code == 200 and sent.json()["files"][0]["bombs"]


def test_api_errors_are_json(client: TestClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and "error" in missing.json()
    broken = client.post("/api/logs", content=b"--x\r\nnot a part",
                         headers={"content-type": "multipart/form-data; boundary=x"})
    assert broken.status_code == 400 and "error" in broken.json()


def test_a_home_relative_path_is_expanded(client: TestClient, memory_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    data, _ = tampered_log()
    (memory_path / "Player.log").write_bytes(data)
    monkeypatch.setenv("HOME", str(memory_path))
    assert client.get("/api/logs", params={"path": "~/Player.log"}).status_code == 200
