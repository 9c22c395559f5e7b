"""Running the web app: bind, print the address, open the browser, stop on Ctrl-C.

Contract: :func:`serve` binds first (so a busy port is one clear error before anything is
printed), then writes the address it serves as the first line of standard output (with the
access token when the server is reachable beyond this machine), opens the browser unless
told not to, and serves with uvicorn until interrupted; then the app's lifespan ends the
drills still running (their sessions' ends are stored). :func:`plan` decides the address
and the token without binding, for tests and for the command's ``--help`` wording.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from defuser.errors import DefuserError
from defuser.web.follow import CLOSING
from defuser.web.logview import MAX_LOG_BYTES
from defuser.web.security import GuardSettings, loopback, names_of

if TYPE_CHECKING:  # imported when the server starts, not at start-up
    from types import FrameType

    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8765
#: Uploaded game logs may be this large (with room for the form around the file); every
#: other request body is far smaller.
LOG_UPLOAD_LIMIT: Final = MAX_LOG_BYTES + 64 * 1024
#: Seconds a connection may take to send a whole request head; a client still sending
#: one after that (or sending nothing) is dropped, so idle or slow connections cannot
#: pile up and keep others out.
HEAD_TIMEOUT: Final = 10.0


class ServeError(DefuserError):
    """The server cannot start (the address cannot be bound)."""


@dataclass(frozen=True)
class Plan:
    """Where the server listens, and what the printed address carries."""

    host: str
    port: int
    token: str | None
    extra_hosts: frozenset[str]

    @property
    def url(self) -> str:
        """The address to open: loopback by name, others by the address bound."""
        shown = self.host
        if self.host in ("0.0.0.0", "::", ""):
            shown = _lan_address() or socket.gethostname()
        if ":" in shown and not shown.startswith("["):
            shown = f"[{shown}]"
        token = f"?token={self.token}" if self.token else ""
        return f"http://{shown}:{self.port}/{token}"

    def guard(self) -> GuardSettings:
        """The request guard's settings for this plan."""
        return GuardSettings(
            port=self.port, token=self.token, extra_hosts=self.extra_hosts,
            large_bodies=(("/api/logs", LOG_UPLOAD_LIMIT), ("/logs", LOG_UPLOAD_LIMIT)),
        )


def plan(host: str, port: int, allow_hosts: tuple[str, ...] = (),
         token: str | None = None) -> Plan:
    """The serving plan: a token is made when ``host`` is not a loopback address."""
    needs_token = not loopback(host)
    chosen = (token or secrets.token_urlsafe(24)) if needs_token else None
    return Plan(host, port, chosen, names_of(allow_hosts))


def _lan_address() -> str | None:
    """This machine's address on its LAN, without sending anything (a UDP connect)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent
            address = probe.getsockname()[0]
    except OSError:
        return None
    return str(address) if address and not address.startswith("0.") else None


def _server_class() -> type[uvicorn.Server]:
    import uvicorn

    class ClosingServer(uvicorn.Server):
        """uvicorn's server that first tells open event streams to end (Ctrl-C)."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            CLOSING.set()
            super().handle_exit(sig, frame)

    return ClosingServer


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _no_delay(transport: asyncio.Transport) -> None:
    """Send small writes at once: a response goes out as its head and then its body, and
    waiting for the peer's delayed acknowledgement would add about 40 ms to every
    request on a kept-alive connection."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # a socket that cannot is served as it is
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def protocol() -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol with a time limit on receiving each request head."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadTimedProtocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            _no_delay(transport)
            self._arm()

        def _arm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_late)

        def _head_late(self) -> None:
            waiting = self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE
            if waiting and not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

    return HeadTimedProtocol


def serve(the_plan: Plan, *, open_browser: bool, announce: Callable[[str], None],
          follow: Path | None = None, database: Path | None = None) -> None:
    """Serve until interrupted (see the module docstring); the hands-free board follows
    ``follow`` (``None``: the game's own log), the dashboard and the drills use the stats
    database ``database`` (``None``: the default one)."""
    import uvicorn

    from defuser.web.app import WebSettings, create_app

    sock = bind(the_plan.host, the_plan.port)
    port = sock.getsockname()[1]
    if port != the_plan.port:
        the_plan = Plan(the_plan.host, port, the_plan.token, the_plan.extra_hosts)
    app = create_app(WebSettings(the_plan.guard(), follow, database))
    config = uvicorn.Config(
        app, http=protocol(), log_level="warning", access_log=False, server_header=False,
        proxy_headers=False, timeout_graceful_shutdown=2,
        # The app's lifespan ends the drills still running when the server stops.
        h11_max_incomplete_event_size=16 * 1024, lifespan="on",
    )
    server = _server_class()(config)
    announce(the_plan.url)
    if open_browser:
        webbrowser.open(the_plan.url)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
