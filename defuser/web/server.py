"""Running the web app: bind, print the address, open the browser, stop on Ctrl-C.

Contract: :func:`serve` binds first (so a busy port is one clear error before anything is
printed), then writes the address it serves as the first line of standard output (with the
access token when the server is reachable beyond this machine), opens the browser unless
told not to, and serves with uvicorn until interrupted. :func:`plan` decides the address
and the token without binding, for tests and for the command's ``--help`` wording.
"""

from __future__ import annotations

import secrets
import socket
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from defuser.errors import DefuserError
from defuser.web.security import GuardSettings, loopback, names_of

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8765
#: Uploaded game logs may be this large; every other request body is far smaller.
LOG_UPLOAD_LIMIT: Final = 8 * 1024 * 1024


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
            large_bodies=(("/api/logs", LOG_UPLOAD_LIMIT),),
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


def serve(the_plan: Plan, *, open_browser: bool, announce: Callable[[str], None],
          follow: Path | None = None) -> None:
    """Serve until interrupted (see the module docstring); the hands-free board follows
    ``follow`` (``None``: the game's own log)."""
    import uvicorn

    from defuser.web.app import WebSettings, create_app

    sock = bind(the_plan.host, the_plan.port)
    port = sock.getsockname()[1]
    if port != the_plan.port:
        the_plan = Plan(the_plan.host, port, the_plan.token, the_plan.extra_hosts)
    app = create_app(WebSettings(the_plan.guard(), follow))
    config = uvicorn.Config(
        app, http="h11", log_level="warning", access_log=False, server_header=False,
        proxy_headers=False,
        timeout_graceful_shutdown=2, h11_max_incomplete_event_size=16 * 1024,
        limit_concurrency=256, lifespan="off",
    )
    server = uvicorn.Server(config)
    announce(the_plan.url)
    if open_browser:
        webbrowser.open(the_plan.url)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
