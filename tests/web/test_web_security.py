"""``mittens serve`` is safe to leave running: loopback by default, a token beyond it,
Host and Origin checks, bounded bodies, strict headers, no traceback in any response."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from defuser.web import board as board_module
from defuser.web.app import WebSettings, create_app
from defuser.web.security import TOKEN_COOKIE, GuardSettings, host_allowed, too_big
from defuser.web.server import plan


def client_for(settings: GuardSettings, base: str = "http://127.0.0.1") -> TestClient:
    return TestClient(create_app(WebSettings(settings)), base_url=base,
                      raise_server_exceptions=False)


LOCAL = GuardSettings(port=80, own_names=frozenset({"localhost", "mybox"}))


@pytest.mark.parametrize(
    ("host", "ok"),
    [("127.0.0.1", True), ("localhost", True), ("localhost:80", True), ("[::1]:80", True),
     ("192.168.1.20", True), ("mybox", True), ("evil.example", False),
     ("localhost:81", False), ("evil.example:80", False), ("", False), ("a b", False),
     ("user@localhost", False), ("localhost/x", False)],
)
def test_host_header(host: str, ok: bool) -> None:
    assert host_allowed(host, LOCAL) is ok


def test_foreign_host_is_refused_dns_rebinding() -> None:
    client = client_for(LOCAL)
    response = client.get("/", headers={"host": "attacker.example"})
    assert response.status_code == 400
    assert client.get("/", headers={"host": "localhost"}).status_code == 200


def test_the_token_is_needed_beyond_loopback() -> None:
    lan = plan("0.0.0.0", 8765)
    assert lan.token and f"?token={lan.token}" in lan.url
    assert plan("127.0.0.1", 8765).token is None and plan("localhost", 1).token is None
    client = client_for(GuardSettings(port=80, token="s3cret"))
    assert client.get("/").status_code == 403
    assert client.get("/?token=wrong").status_code == 403
    first = client.get("/?token=s3cret")
    assert first.status_code == 200
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{TOKEN_COOKIE}=s3cret") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    later = client_for(GuardSettings(port=80, token="s3cret"))
    later.cookies.set(TOKEN_COOKIE, "s3cret")
    assert later.get("/tables").status_code == 200
    fresh = client_for(GuardSettings(port=80, token="s3cret"))
    assert fresh.get("/api/tables", headers={"authorization": "token s3cret"}).status_code == 200


@pytest.mark.parametrize("cookie", ["=$a=", "a=1; $b=2", f"{TOKEN_COOKIE}=s3cret; $x=1"])
def test_a_malformed_cookie_header_carries_no_token(cookie: str) -> None:
    """A cookie header the standard parser refuses is no token (403), never a server
    error; the token in the address still lets the page in."""
    client = client_for(GuardSettings(port=80, token="s3cret"))
    assert client.get("/tables", headers={"cookie": cookie}).status_code == 403
    assert client.get("/tables?token=s3cret", headers={"cookie": cookie}).status_code == 200


def test_state_changing_requests_from_other_sites_are_refused() -> None:
    client = client_for(LOCAL)
    foreign = client.post("/report", headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    cross = client.post("/report", headers={"sec-fetch-site": "cross-site"})
    assert cross.status_code == 403
    own = client.post("/report", headers={"origin": "http://127.0.0.1"})
    assert own.status_code == 405  # not refused by the guard; the page takes GET only
    assert "access-control-allow-origin" not in {
        k.lower() for k in client.get("/", headers={"origin": "http://evil.example"}).headers
    }


def test_bodies_are_bounded() -> None:
    client = client_for(LOCAL)
    big = client.post("/report", content=b"x" * (70 * 1024),
                      headers={"origin": "http://127.0.0.1"})
    assert big.status_code == 413
    bogus = client.post("/report", content=b"x", headers={"content-length": "nonsense"})
    assert bogus.status_code in (400, 413)


def test_long_addresses_and_big_headers_are_refused() -> None:
    assert too_big({"query_string": b"m=" + b"a" * (64 * 1024)}) == (
        414, "The address is too long.")
    assert too_big({"query_string": b"m=" + b"a" * 60000, "headers": []}) is None
    client = client_for(LOCAL)
    big = {f"x-big-{i}": "a" * 1000 for i in range(17)}
    assert client.get("/", headers=big).status_code == 431
    assert client.get("/api/board?m=" + "a" * 2000).status_code == 200


def test_every_response_has_the_security_headers() -> None:
    client = client_for(LOCAL)
    for path in ("/", "/tables", "/api/board", "/static/style.css", "/nowhere"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize(
    "path", ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
             "/static/%2e%2e/%2e%2e/pyproject.toml", "/static//etc/passwd"],
)
def test_static_files_stay_in_their_folder(path: str) -> None:
    response = client_for(LOCAL).get(path)
    assert response.status_code == 404
    assert "import" not in response.text


def test_no_traceback_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr("defuser.web.app.evaluate", broken)
    response = client_for(LOCAL).get("/api/board")
    assert response.status_code == 500
    assert "Traceback" not in response.text and "secret" not in response.text


def test_huge_addresses_are_cut_to_size() -> None:
    query = board_module.BoardQuery.from_params(
        {"m": [";".join(["drew RC"] * 2000)] * 40, "serial": ["A" * 5000]}
    )
    assert len(query.modules) == board_module.MAX_MODULES
    assert all(len(lines) <= board_module.MAX_LINES for lines in query.modules)
    assert sum(map(len, query.modules)) == board_module.MAX_BOARD_LINES
    assert len(query.serial) <= 200
    client = client_for(LOCAL)
    data = client.get("/api/board", params=[("m", ";".join(["x" * 500] * 20))] * 3).json()
    assert all(len(line) <= board_module.MAX_LINE_CHARS for line in data["modules"][0]["lines"])
