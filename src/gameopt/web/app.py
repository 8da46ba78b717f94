"""The web application: one Starlette app, one module of routes per system.

:func:`create_app` builds it over a data directory (the tournament files of ``gameopt
pair``). Security, in the order a request meets it:

* a request body larger than ``max_upload`` bytes is refused with 413 before it is read
  further (the declared length is checked first, then the bytes as they arrive);
* with a ``token``, the director's pages answer only to a browser that logged in with it
  (a cookie holding a keyed hash of the token); the home page, the public pages and the
  static files stay readable by anyone;
* every form is checked against the CSRF cookie (:func:`gameopt.web.common.read_form`).
"""

from __future__ import annotations

import hmac
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gameopt.errors import InvalidInputError
from gameopt.web import deck_page, desk, go_page, home, reversi_page, sudoku_page
from gameopt.web.common import (
    AUTH_COOKIE,
    BodyTooLarge,
    auth_value,
    read_form,
    redirect,
    render,
    text_field,
)
from gameopt.web.page_jobs import Jobs

__all__ = ["create_app", "create_app_from_env", "DEFAULT_MAX_UPLOAD", "DATA_DIR_ENV", "TOKEN_ENV"]

#: Largest request body accepted (bytes): a 5,000-player CSV or a long ``.ELO`` fits.
DEFAULT_MAX_UPLOAD = 2_000_000
#: Paths anyone may read when the desk is locked by a token.
PUBLIC_PREFIXES = ("/static/", "/public/", "/login")
_HERE = Path(__file__).resolve().parent
#: Environment read by :func:`create_app_from_env` (what ``gameopt serve`` sets).
DATA_DIR_ENV = "GAMEOPT_DATA_DIR"
TOKEN_ENV = "GAMEOPT_TOKEN"


class _BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (declared or streamed)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit)(scope, receive, send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise BodyTooLarge
            return message

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watch)
        except BodyTooLarge:
            if not started:
                await _too_large(self.limit)(scope, receive, send)


def _too_large(limit: int) -> Response:
    return PlainTextResponse(f"upload too large (more than {limit:,} bytes); nothing changed",
                             status_code=413)


class _DirectorOnly:
    """With a token, send a browser that has not logged in to the login page."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None:
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == "/" or path.startswith(PUBLIC_PREFIXES):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if hmac.compare_digest(request.cookies.get(AUTH_COOKIE, ""), auth_value(self.token)):
            await self.app(scope, receive, send)
            return
        if scope["method"] in ("GET", "HEAD"):
            response: Response = redirect(f"/login?next={quote(path)}")
        else:
            response = PlainTextResponse("director's token required; log in first",
                                         status_code=401)
        await response(scope, receive, send)


def login_page(request: Request) -> Response:
    return render(request, "login.html", {"next": _safe_next(request.query_params.get("next")),
                                          "error": None})


async def login(request: Request) -> Response:
    form = await read_form(request)
    token = request.app.state.token
    nxt = _safe_next(text_field(form, "next"))
    given = text_field(form, "token")
    if token is None:
        return redirect(nxt)
    if not hmac.compare_digest(given.encode(), token.encode()):
        return render(request, "login.html", {"next": nxt, "error": "wrong token"},
                      status_code=403)
    response = redirect(nxt, "logged in")
    response.set_cookie(AUTH_COOKIE, auth_value(token), httponly=True, samesite="lax")
    return response


async def logout(request: Request) -> Response:
    await read_form(request)
    response = redirect("/", "logged out")
    response.delete_cookie(AUTH_COOKIE)
    return response


def _safe_next(value: str | None) -> str:
    """A local path to go back to after login (never another site)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/desk/"
    return value


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    response = render(request, "error.html", {"status": exc.status_code,
                                              "message": exc.detail},
                      status_code=exc.status_code)
    response.headers.update(exc.headers or {})  # Retry-After of a busy pool
    return response


async def _body_too_large(request: Request, exc: Exception) -> Response:
    return _too_large(request.app.state.max_upload)


async def _input_error(request: Request, exc: Exception) -> Response:
    return render(request, "error.html", {"status": 400, "message": str(exc)},
                  status_code=400)


def create_app(data_dir: str | Path, token: str | None = None, *,
               max_upload: int = DEFAULT_MAX_UPLOAD, poll_seconds: float = 2.0) -> ASGIApp:
    """The ASGI application over the tournament files of ``data_dir``.

    Parameters
    ----------
    data_dir : path
        Directory of the tournament files (``NAME.sqlite``, as ``gameopt pair`` writes
        them); it must exist.
    token : str, optional
        The director's token: when given, the desk's pages ask for it once per browser.
        ``None`` leaves them open (for a server bound to 127.0.0.1).
    max_upload : int
        Largest request body in bytes (uploads included); larger ones get 413.
    poll_seconds : float
        How often the public page asks whether the tournament changed.

    Raises
    ------
    InvalidInputError
        ``data_dir`` is not a directory, or the token is empty or the limit not positive.
    """
    root = Path(data_dir)
    if not root.is_dir():
        raise InvalidInputError(f"data directory {root}: no such directory")
    if token is not None and len(token.strip()) < 8:
        raise InvalidInputError("director token: at least 8 characters")
    if max_upload < 1024:
        raise InvalidInputError(f"upload limit {max_upload}: at least 1024 bytes")
    routes: list[BaseRoute] = [
        Route("/", home.index),
        Route("/login", login_page, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        *desk.routes(),
        *reversi_page.routes(),
        *sudoku_page.routes(),
        *go_page.routes(),
        *deck_page.routes(),
        Mount("/static", StaticFiles(directory=_HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={
        HTTPException: _http_error, InvalidInputError: _input_error,
        BodyTooLarge: _body_too_large})
    state: Any = app.state
    state.data_dir = root.resolve()
    state.token = token
    state.max_upload = max_upload
    state.poll_ms = int(poll_seconds * 1000)
    state.page_jobs = Jobs()
    return _BodyLimit(_DirectorOnly(app, token), max_upload)


def create_app_from_env() -> ASGIApp:
    """:func:`create_app` configured by ``$GAMEOPT_DATA_DIR`` (default ``.``) and
    ``$GAMEOPT_TOKEN`` (default none): the factory ``gameopt serve`` hands to uvicorn
    (``uvicorn --factory gameopt.web.app:create_app_from_env`` does the same)."""
    return create_app(os.environ.get(DATA_DIR_ENV, "."), os.environ.get(TOKEN_ENV) or None)
