"""The page renderer that the route groups are given.

Contract: :class:`Render` is the signature of the application's ``render``: a template's
name, the response's status and the template's context by name (values of any kind: the
template engine is the boundary), an HTML response back. The route groups take one, so
they need not import the application that holds them.
"""

from __future__ import annotations

from typing import Any, Protocol

from starlette.responses import Response


class Render(Protocol):
    """Renders a page: ``render("stats.html", status=500, error=...)``."""

    def __call__(self, name: str, status: int = 200, **context: Any) -> Response:
        """The template ``name`` rendered with ``context``, as a response of ``status``."""
