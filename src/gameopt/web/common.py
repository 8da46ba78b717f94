"""What every page shares: templates, forms with the CSRF check, flash messages, errors.

Every form carries the value of the ``gameopt_csrf`` cookie in a hidden ``csrf`` field
(the double-submit pattern; the cookie is ``HttpOnly`` and ``SameSite=Lax``, so another
site's page can neither read it nor post with it), and a POST whose field does not match
is refused with 403 before anything is changed. Templates escape
every value (Jinja2 ``autoescape``), so user text such as a player called ``<script>``
is shown, never run.
"""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import jinja2
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates

__all__ = ["CSRF_COOKIE", "FLASH_COOKIE", "templates", "render", "read_form", "redirect",
           "int_field"]

CSRF_COOKIE = "gameopt_csrf"
FLASH_COOKIE = "gameopt_flash"
AUTH_COOKIE = "gameopt_auth"
_HERE = Path(__file__).resolve().parent
#: Sent with every page: scripts, styles and forms from this server only.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

_env = jinja2.Environment(loader=jinja2.FileSystemLoader(_HERE / "templates"),
                          autoescape=True, trim_blocks=True, lstrip_blocks=True,
                          undefined=jinja2.StrictUndefined)
templates = Jinja2Templates(env=_env)


class BodyTooLarge(Exception):
    """Raised by the body-size guard while a request body is read (answered with 413)."""


def _csrf_of(request: Request) -> tuple[str, bool]:
    """The request's CSRF token, and whether it is new (to be set as a cookie)."""
    have = request.cookies.get(CSRF_COOKIE, "")
    if len(have) >= 20:
        return have, False
    cached = getattr(request.state, "csrf_new", None)
    if cached is None:
        cached = secrets.token_urlsafe(24)
        request.state.csrf_new = cached
    return cached, True


def render(request: Request, name: str, context: dict[str, Any] | None = None,
           status_code: int = 200) -> Response:
    """A page from ``templates/name`` with the CSRF token, the flash message and the
    director's state added to ``context``."""
    csrf, new = _csrf_of(request)
    flash = request.cookies.get(FLASH_COOKIE)
    ctx = {"csrf": csrf, "flash": unquote(flash) if flash else None,
           "director": is_director(request), "locked": request.app.state.token is not None,
           **(context or {})}
    response = templates.TemplateResponse(request, name, ctx, status_code=status_code)
    if new:
        response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="lax")
    if flash:
        response.delete_cookie(FLASH_COOKIE)
    response.headers["Cache-Control"] = "no-store"
    response.headers.update(SECURITY_HEADERS)
    return response


def redirect(url: str, flash: str | None = None) -> Response:
    """303 to ``url`` (after a POST), with a one-time message for the next page."""
    response = RedirectResponse(url, status_code=303)
    if flash:
        response.set_cookie(FLASH_COOKIE, quote(flash[:1500]), httponly=True,
                            samesite="lax")
    return response


async def read_form(request: Request) -> FormData:
    """The POSTed form, once its CSRF field matches the cookie (else 403)."""
    limit = request.app.state.max_upload
    try:
        form = await request.form(max_files=4, max_fields=4000, max_part_size=limit)
    except (HTTPException, BodyTooLarge):
        raise
    except Exception as e:  # a malformed multipart body
        raise HTTPException(400, f"malformed form ({e})") from None
    sent = form.get("csrf")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    # compared as bytes: compare_digest raises TypeError on a str with non-ASCII characters
    if not isinstance(sent, str) or not cookie or not hmac.compare_digest(
            sent.encode("utf-8", "surrogatepass"), cookie.encode("utf-8", "surrogatepass")):
        raise HTTPException(403, "form expired or sent from another site (CSRF check "
                                 "failed); reload the page and try again")
    return form


def text_field(form: FormData, name: str) -> str:
    """A text field, stripped ('' when absent or a file)."""
    v = form.get(name)
    return v.strip() if isinstance(v, str) else ""


def int_field(form: FormData, name: str, what: str, where: str = "form",
              default: int | None = None) -> int | None:
    """An integer field: ``default`` when blank; one-line error as the CLI's otherwise."""
    from gameopt.errors import InvalidInputError

    raw = text_field(form, name)
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise InvalidInputError(f"{where}: {what} {raw!r} is not an integer") from None


def is_director(request: Request) -> bool:
    """Whether the request may use the director's pages (always, without a token)."""
    token = request.app.state.token
    if token is None:
        return True
    return hmac.compare_digest(request.cookies.get(AUTH_COOKIE, ""), auth_value(token))


def auth_value(token: str) -> str:
    """The login cookie's value: a keyed hash of the token (the token itself never
    travels back)."""
    return hmac.new(token.encode(), b"gameopt director", "sha256").hexdigest()
