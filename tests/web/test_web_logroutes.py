"""defuser.web.logroutes: the log viewer's routes refuse what they cannot read in one line."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from defuser.web.app import WebSettings, create_app
from defuser.web.logroutes import MAX_FIELDS
from defuser.web.server import plan


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    followed = tmp_path_factory.mktemp("followed") / "Player.log"
    settings = WebSettings(plan("127.0.0.1", 80).guard(), follow=followed)
    return TestClient(create_app(settings), base_url="http://127.0.0.1")


def test_a_form_with_too_many_fields_is_refused(client: TestClient) -> None:
    log = "[Exploding Mittens #1] You should use Table A.\n"
    assert client.post("/api/logs", data={"text": log}).status_code == 200
    fields = {f"f{n}": "x" for n in range(MAX_FIELDS)} | {"text": log}
    assert client.post("/logs", data=fields).status_code == 400
    api = client.post("/api/logs", data=fields)
    assert api.status_code == 400 and api.json()["error"]


def test_an_api_call_without_a_source_names_the_sources(client: TestClient) -> None:
    missing = client.get("/api/logs")
    assert missing.status_code == 400
    assert missing.json() == {"error": "no log named, expected path=, followed=1 or id="}


def test_a_forgotten_upload_is_404_in_the_page_and_the_api(client: TestClient) -> None:
    page = client.get("/logs", params={"id": "nothing-kept"})
    assert page.status_code == 404 and "no longer kept" in page.text
    api = client.get("/api/logs", params={"id": "nothing-kept"})
    assert api.status_code == 404 and "no longer kept" in api.json()["error"]


def test_the_followed_log_is_read_on_request(client: TestClient) -> None:
    missing = client.get("/api/logs", params={"followed": "1"})
    assert missing.status_code == 400 and "Player.log" in missing.json()["error"]
