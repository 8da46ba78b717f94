"""The home page: what the server offers, and every tournament's public page."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from gameopt.web import events as ev
from gameopt.web.common import render

__all__ = ["index"]


def index(request: Request) -> Response:
    return render(request, "home.html", {"events": ev.list_events(request.app.state.data_dir)})
