"""What every request to ``mittens serve`` must pass before a page sees it.

Contract: :class:`Guard` is a plain ASGI middleware around the whole web app. It refuses,
with a short plain-text 4xx and never a traceback:

* a ``Host`` header that is not this server's (DNS rebinding): only ``localhost``, an IP
  literal, the machine's own host name or a name given with ``--allow-host`` pass, and the
  port, when given, must be the one served;
* a request without the access token when the server needs one (bound beyond loopback):
  the token comes as ``?token=`` in the printed URL, then as a cookie the guard sets, or as
  an ``Authorization: token ...`` header;
* a state-changing request (anything but GET, HEAD, OPTIONS) from a foreign ``Origin`` or
  one the browser marks cross-site;
* a request body over the limit (by ``Content-Length`` or as it streams in), a query string
  over 64 KiB or request headers over 16 KiB.

Every response gets a content security policy (``default-src 'self'``, no inline script),
``X-Content-Type-Options: nosniff``, no referrer (the token can be in the URL) and no
framing. No response allows foreign origins (no CORS headers are ever sent).
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The cookie that carries the access token after the first visit.
TOKEN_COOKIE: Final = "mittens_token"
#: Methods that change nothing and need no Origin check.
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
#: The longest query string (a board with many modules lives in its address) and the most
#: bytes of request headers accepted.
MAX_QUERY_BYTES: Final = 64 * 1024
MAX_HEADER_BYTES: Final = 16 * 1024
#: The largest request body accepted by default (an uploaded game log may be larger: the
#: app asks for that limit per path).
DEFAULT_BODY_LIMIT: Final = 64 * 1024

SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


@dataclass(frozen=True)
class GuardSettings:
    """Who may talk to the server: its port, its token, the extra host names it answers."""

    port: int
    token: str | None = None
    extra_hosts: frozenset[str] = frozenset()
    body_limit: int = DEFAULT_BODY_LIMIT
    #: Paths (prefixes) that accept a larger body, with their limit.
    large_bodies: tuple[tuple[str, int], ...] = ()
    own_names: frozenset[str] = field(default_factory=lambda: own_host_names())

    def limit_for(self, path: str) -> int:
        """The body limit for a request to ``path``."""
        for prefix, limit in self.large_bodies:
            if path.startswith(prefix):
                return limit
        return self.body_limit


def own_host_names() -> frozenset[str]:
    """This machine's names: ``localhost`` and its host name (also with ``.local``)."""
    names = {"localhost", "localhost.localdomain"}
    try:
        host = socket.gethostname().lower()
    except OSError:  # pragma: no cover - no host name at all
        host = ""
    if host:
        names |= {host, f"{host}.local", host.split(".")[0]}
    return frozenset(names)


def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header as (name, port), or None when it cannot be read."""
    value = value.strip().lower()
    if not value or any(ch.isspace() for ch in value) or "@" in value or "/" in value:
        return None
    try:
        parts = urlsplit(f"//{value}")
        port = parts.port
    except ValueError:
        return None
    name = parts.hostname
    if not name:
        return None
    return name, port


def is_ip_literal(name: str) -> bool:
    """Whether ``name`` is an IPv4 or IPv6 address (a name DNS rebinding cannot use)."""
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def host_allowed(value: str, settings: GuardSettings) -> bool:
    """Whether a ``Host`` header names this server."""
    split = split_host(value)
    if split is None:
        return False
    name, port = split
    if port is not None and port != settings.port:
        return False
    return is_ip_literal(name) or name in settings.own_names or name in settings.extra_hosts


def origin_allowed(origin: str, host: str) -> bool:
    """Whether an ``Origin`` header is this very server (scheme and host as requested)."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def presented_token(scope: Scope) -> tuple[str | None, bool]:
    """The token a request carries, and whether it came in the query string."""
    query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
    if query.get("token"):
        return query["token"][0], True
    auth = _header(scope, b"authorization")
    if auth and auth.lower().startswith("token "):
        return auth[6:].strip(), False
    cookie = _header(scope, b"cookie")
    if cookie:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(cookie)
        except CookieError:  # a malformed cookie header carries no token
            return None, False
        if TOKEN_COOKIE in jar:
            return jar[TOKEN_COOKIE].value, False
    return None, False


def too_big(scope: Scope) -> tuple[int, str] | None:
    """A refusal for a query string or headers over their limits, or None."""
    if len(scope.get("query_string", b"")) > MAX_QUERY_BYTES:
        return 414, "The address is too long."
    if sum(len(k) + len(v) for k, v in scope.get("headers", ())) > MAX_HEADER_BYTES:
        return 431, "The request headers are too large."
    return None


class BodyTooLarge(Exception):
    """A request body grew past its limit while it streamed in."""


class Guard:
    """The ASGI middleware that enforces :class:`GuardSettings` (see the module)."""

    def __init__(self, app: ASGIApp, settings: GuardSettings) -> None:
        """Wrap ``app``."""
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request, then pass it on with the security headers added."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = too_big(scope) or self.refusal(scope)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        token, from_query = presented_token(scope)
        set_cookie = self.settings.token is not None and from_query
        limit = self.settings.limit_for(str(scope.get("path", "")))
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > limit):
            await _plain(send, 413, "The request body is too large.")
            return
        await self._forward(scope, receive, send, limit, token if set_cookie else None)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """Why a request is refused before it reaches the app, or None."""
        host = _header(scope, b"host")
        if host is None or not host_allowed(host, self.settings):
            return 400, "This server does not answer to that host name."
        if self.settings.token is not None:
            token, _ = presented_token(scope)
            if token is None or not hmac.compare_digest(
                token.encode("utf-8", "replace"), self.settings.token.encode()
            ):
                return 403, "Open the address printed by 'mittens serve' (it has the token)."
        if scope.get("method", "GET") not in SAFE_METHODS:
            origin = _header(scope, b"origin")
            site = _header(scope, b"sec-fetch-site")
            if origin is not None and not origin_allowed(origin, host):
                return 403, "Requests from other sites are refused."
            if site is not None and site.lower() == "cross-site":
                return 403, "Requests from other sites are refused."
        return None

    async def _forward(
        self, scope: Scope, receive: Receive, send: Send, limit: int, cookie: str | None
    ) -> None:
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [
                    (k, v) for k, v in message.get("headers", ())
                    if not bytes(k).lower().startswith(b"access-control-")
                ]
                headers.extend(SECURITY_HEADERS)
                if cookie is not None:
                    headers.append((b"set-cookie", _cookie_header(cookie)))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except BodyTooLarge:
            if not started:
                await _plain(send, 413, "The request body is too large.")


def _cookie_header(token: str) -> bytes:
    return f"{TOKEN_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict".encode()


async def _plain(send: Send, status: int, text: str) -> None:
    body = (text + "\n").encode("utf-8")
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *SECURITY_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def loopback(host: str) -> bool:
    """Whether binding to ``host`` keeps the server on this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def names_of(hosts: Iterable[str]) -> frozenset[str]:
    """Lower-cased host names, as ``--allow-host`` gives them."""
    return frozenset(h.strip().lower() for h in hosts if h.strip())
