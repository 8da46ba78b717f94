"""The tournament director's desk (the pairing system) and the players' public pages.

Every change is one call of the :class:`~gameopt.pairing.store.Tournament` store, so one
transaction: a refused change leaves the file as it was, and the page shows the store's
one-line message (the CLI's) next to the form with a 4xx status. Forms about a round
carry the round's tag (:func:`~gameopt.web.events.round_etag`); a save based on a round
that was re-paired or changed since the page was loaded is refused with 409.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from gameopt.core import Limit
from gameopt.errors import GameoptError, InvalidInputError
from gameopt.web import events as ev
from gameopt.web._pairing import (
    BYE,
    METHODS,
    TIEBREAKS,
    Tournament,
    format_elo,
    format_trf,
    pair_round,
    pairing_csv,
    parse_elo,
    parse_trf,
    standings_csv,
)
from gameopt.web.common import (
    SECURITY_HEADERS,
    int_field,
    is_director,
    read_form,
    redirect,
    render,
    templates,
    text_field,
)

__all__ = ["routes"]

templates.env.globals["score_text"] = ev.score_text

#: Pairings computed at once (each takes a core for up to a second or two on 1,000
#: players); one more request is answered 503 with ``Retry-After``.
PAIRING_SLOTS = 2
_PAIRING_SLOTS = threading.BoundedSemaphore(PAIRING_SLOTS)

Handler = Callable[[Request, Tournament, str, FormData], Response]


#: Where a form's error goes: the first field whose pattern the message matches (else
#: under the whole form).
FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "add": ((r"rating", "rating"), (r"country", "country"), (r"first round|joined_round",
             "joined_round"), (r"score", "score"), (r"player id|id \S+ already", "id"),
            (r"name", "name")),
    "new": ((r"^file name", "slug"), (r"penalt", "overrides"), (r"rounds", "rounds"),
            (r"date", "date"), (r"country", "country"), (r"tournament name", "name"),
            (r"file exists", "slug")),
    "withdraw": ((r"round \d+ is before|from round", "from_round"),),
    "penalties": ((r".", "penalties"),),
}


def field_errors(which: str, message: str) -> dict[str, str]:
    """``{which: message}``, with ``_field`` naming the field it is about, if one."""
    out = {which: message}
    for pattern, field in FIELDS.get(which, ()):
        if re.search(pattern, message):
            out["_field"] = field
            break
    return out


class Stale(Exception):
    """The form was made from a view of the tournament that has changed since."""


def _data_dir(request: Request) -> Path:
    path: Path = request.app.state.data_dir
    return path


def _slug(request: Request) -> str:
    slug = str(request.path_params["slug"])
    if not ev.SLUG.fullmatch(slug):
        raise HTTPException(404, f"no tournament {slug!r}")
    return slug


def _open(request: Request) -> Tournament:
    slug = _slug(request)
    path = ev.tournament_path(_data_dir(request), slug)
    if not path.is_file():
        raise HTTPException(404, f"no tournament {slug!r}")
    return Tournament.open(path)


def _round_no(request: Request, t: Tournament) -> int:
    k = int(request.path_params["k"])
    if not 1 <= k <= t.last_round:
        raise HTTPException(404, f"round {k} is not paired")
    return k


def posted(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A POST route on one tournament: CSRF-checked form, work in a thread, the store's
    errors shown on the page the form came from (400; 409 for a stale view)."""

    @functools.wraps(fn)
    async def endpoint(request: Request) -> Response:
        form = await read_form(request)
        return await run_in_threadpool(_run, fn, request, form)

    return endpoint


def _run(fn: Handler, request: Request, form: FormData) -> Response:
    slug = _slug(request)
    with _open(request) as t:
        try:
            return fn(request, t, slug, form)
        except Stale as e:
            return _back(request, t, slug, form, str(e), 409)
        except GameoptError as e:
            return _back(request, t, slug, form, str(e), 400)


def _back(request: Request, t: Tournament, slug: str, form: FormData, message: str,
          status: int) -> Response:
    """The page the form was on, with ``message`` next to the form that failed."""
    which = text_field(form, "form") or "page"
    values = {k: v for k, v in form.items() if isinstance(v, str) and k != "csrf"}
    errors = field_errors(which, message)
    k = request.path_params.get("k")
    if k is not None and 1 <= int(k) <= t.last_round:
        return render(request, "desk/round.html",
                      _round_context(request, t, slug, int(k), errors, values),
                      status_code=status)
    return render(request, "desk/event.html", _event_context(request, t, slug, errors, values),
                  status_code=status)


# ------------------------------------------------------------------ list, create, import
def index(request: Request) -> Response:
    return render(request, "desk/index.html",
                  {"events": ev.list_events(_data_dir(request)), "errors": {}, "values": {}})


async def create(request: Request) -> Response:
    form = await read_form(request)
    return await run_in_threadpool(_create, request, form)


def _create(request: Request, form: FormData) -> Response:
    slug = text_field(form, "slug")
    try:
        ev.check_slug(slug)
        rounds = int_field(form, "rounds", "number of rounds", "new tournament")
        penalties = ev.check_penalties(text_field(form, "preset") or "tuned",
                                       text_field(form, "overrides"))
        ev.create_event(_data_dir(request), slug, text_field(form, "name"), rounds,
                        text_field(form, "country"), text_field(form, "date"), penalties)
    except GameoptError as e:
        return _index_error(request, form, "new", str(e))
    return redirect(f"/desk/{slug}", f"created {slug}")


async def import_file(request: Request) -> Response:
    form = await read_form(request)
    text, source = await _upload_text(form, "file")
    return await run_in_threadpool(_import, request, form, text, source)


def _import(request: Request, form: FormData, text: str | None, source: str) -> Response:
    slug = text_field(form, "slug")
    try:
        path = ev.tournament_path(_data_dir(request), slug)
        if text is None:
            raise InvalidInputError(source)
        data = parse_elo(text, source) if source.lower().endswith(".elo") else parse_trf(
            text, source)
        Tournament.from_data(path, data).close()
    except GameoptError as e:
        return _index_error(request, form, "import", str(e))
    return redirect(f"/desk/{slug}", f"imported {source} as {slug}")


def _index_error(request: Request, form: FormData, which: str, message: str) -> Response:
    values = {k: v for k, v in form.items() if isinstance(v, str) and k != "csrf"}
    return render(request, "desk/index.html", {"events": ev.list_events(_data_dir(request)),
                                               "errors": field_errors(which, message),
                                               "values": values},
                  status_code=400)


async def _upload_text(form: FormData, field: str) -> tuple[str | None, str]:
    """The uploaded file's text and its name; ``(None, message)`` when unusable."""
    upload = form.get(field)
    if not isinstance(upload, UploadFile) or not upload.filename:
        return None, "choose a file to upload"
    name = Path(upload.filename.replace("\\", "/")).name or "upload"
    raw = await upload.read()
    if b"\0" in raw:
        return None, f"{name}: NUL byte; not a text file"
    try:
        return raw.decode("utf-8-sig").replace("\r\n", "\n"), name
    except UnicodeDecodeError:
        return None, f"{name}: not UTF-8 text"


# ------------------------------------------------------------------ one tournament
def _event_context(request: Request, t: Tournament, slug: str,
                   errors: dict[str, str] | None = None,
                   values: dict[str, str] | None = None) -> dict[str, Any]:
    data_dir = _data_dir(request)
    players = t.players()
    names = {p.id: p.name for p in players}
    forbidden = sorted(tuple(sorted(f)) for f in t.forbidden_pairs())
    last = t.last_round
    missing = t.missing_results(last) if last else ()
    return {"slug": slug, "info": t.info, "players": players, "names": names,
            "clubs": ev.clubs(data_dir, slug), "forbidden": forbidden,
            "rounds": t.rounds(), "last": last, "next": last + 1, "missing": missing,
            "methods": METHODS, "penalties": ev.penalty_text(data_dir, slug, t),
            "errors": errors or {}, "values": values or {}}


def event(request: Request) -> Response:
    with _open(request) as t:
        return render(request, "desk/event.html", _event_context(request, t, _slug(request)))


@posted
def add_player(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    where = "new player"
    rating_raw = text_field(form, "rating")
    try:
        rating = float(rating_raw) if rating_raw else None
    except ValueError:
        raise InvalidInputError(f"{where}: rating {rating_raw!r} is not a number") from None
    joined = int_field(form, "joined_round", "first round", where)
    score = int_field(form, "score", "given score", where, default=0)
    assert score is not None
    p = t.add_player(text_field(form, "name"), text_field(form, "id") or None,
                     text_field(form, "country") or None, rating, joined_round=joined,
                     score=score)
    club = text_field(form, "club")
    if club:
        ev.add_clubs(_data_dir(request), slug, {p.id: club})
    late = f" from round {p.joined_round}" if p.joined_round > 1 else ""
    return redirect(f"/desk/{slug}", f"registered {p.name} (id {p.id}){late}")


async def add_csv(request: Request) -> Response:
    form = await read_form(request)
    text, source = await _upload_text(form, "file")
    return await run_in_threadpool(_run, functools.partial(_add_csv, text, source),
                                   request, form)


def _add_csv(text: str | None, source: str, request: Request, t: Tournament, slug: str,
             form: FormData) -> Response:
    if text is None:
        raise InvalidInputError(source)
    entries, club_of = ev.parse_players_csv(text, source)
    added = t.add_players(entries)
    found = {}
    for i, p in enumerate(added):
        club = club_of.get(p.id) if "id" in entries[i] else club_of.get(f"#{i}")
        if club:
            found[p.id] = club
    ev.add_clubs(_data_dir(request), slug, found)
    return redirect(f"/desk/{slug}", f"registered {len(added)} players from {source}")


@posted
def withdraw(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    k = int_field(form, "from_round", "round", "withdrawal")
    p = t.withdraw(text_field(form, "player"), k)
    return redirect(f"/desk/{slug}", f"{p.name} withdrawn from round {p.withdrawn_round}")


@posted
def forbid(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    a, b = text_field(form, "a"), text_field(form, "b")
    t.forbid(a, b)
    return redirect(f"/desk/{slug}", f"{t.player(a).name} and {t.player(b).name} "
                                     "will not be paired")


@posted
def allow(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    t.allow(text_field(form, "a"), text_field(form, "b"))
    return redirect(f"/desk/{slug}", "forbidden pair removed")


@posted
def penalties(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    ev.set_penalty_text(_data_dir(request), slug, t, text_field(form, "penalties"))
    return redirect(f"/desk/{slug}", "penalties saved; they apply from the next pairing")


#: Wall seconds one pairing request may take; past it nothing is stored and the page says so.
PAIRING_BUDGET = 60.0


@posted
def pair(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    expect = int_field(form, "expect", "round", "pairing")
    if expect != t.next_round:
        raise Stale(f"round {expect} was paired meanwhile (the next round is now "
                    f"{t.next_round}); nothing changed — look at the round first")
    method = text_field(form, "method") or "exact"
    if method not in METHODS:
        raise InvalidInputError(f"pairing method {method!r}: choose {', '.join(METHODS)}")
    params = ev.penalty_params(_data_dir(request), slug, t)
    extra = text_field(form, "extra_round") == "on"
    t.check_planned(t.next_round, extra_round=extra)
    if not _PAIRING_SLOTS.acquire(blocking=False):
        return PlainTextResponse("the server is pairing other rounds; try again in a few "
                                 "seconds (nothing changed)", status_code=503,
                                 headers={"Retry-After": "5"})
    try:
        pairing = pair_round(t.round_input(), params, method=method,
                             limit=Limit(time=PAIRING_BUDGET, clock="wall"))
    finally:
        _PAIRING_SLOTS.release()
    t.store_pairing(pairing, extra_round=extra)
    return redirect(f"/desk/{slug}/round/{pairing.round_no}",
                    f"round {pairing.round_no} paired ({method}, total cost "
                    f"{pairing.total_cost})")


# ------------------------------------------------------------------ a round
def _round_context(request: Request, t: Tournament, slug: str, k: int,
                   errors: dict[str, str] | None = None,
                   values: dict[str, str] | None = None) -> dict[str, Any]:
    players = t.players()
    pairing = t.pairing(k)
    games = {g.table: g for g in t.games(k)}
    data_dir = _data_dir(request)
    before = {s.id: s.points for s in ev.cached(
        data_dir, slug, ("standings", k - 1),
        lambda: t.standings(k - 1, tiebreaks=TIEBREAKS))} if k > 1 else {}
    tables = [{"t": x, "g": games[x.number], "tag": ev.result_tag(games[x.number]),
               "terms": {n: v for n, v in x.terms.items() if v}} for x in pairing.tables]
    names: dict[str, str] = {p.id: p.name for p in players}

    def by_name(pid: str) -> str:
        return names.get(pid, pid).casefold()

    seated = sorted({pid for x in pairing.tables for pid in (x.black, x.white) if pid != BYE},
                    key=by_name)
    free = [p for p in players if p.active_in(k) and p.id not in seated]
    return {"slug": slug, "info": t.info, "k": k, "last": t.last_round, "pairing": pairing,
            "tables": tables, "names": names, "before": before,
            "totals": ev.cached(data_dir, slug, ("totals", k), lambda: ev.round_totals(t, k)),
            "etag": ev.round_etag(t, k),
            "seated": seated, "free": free, "bye": BYE,
            "played": any(g.has_result and not g.is_bye for g in games.values()),
            "pending": any(not g.has_result for g in games.values()),
            "errors": errors or {}, "values": values or {}}


def round_page(request: Request) -> Response:
    with _open(request) as t:
        k = _round_no(request, t)
        return render(request, "desk/round.html", _round_context(request, t, _slug(request), k))


def _check_etag(t: Tournament, k: int, form: FormData) -> None:
    if text_field(form, "etag") != ev.round_etag(t, k):
        raise Stale(f"round {k} was re-paired or changed since this page was loaded; "
                    "nothing saved — reload the round and enter it again")


@posted
def results(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    k = _round_no(request, t)
    _check_etag(t, k, form)
    sheet: list[tuple[int | str, int, int]] = []
    forfeits: list[tuple[str, bool]] = []
    for g in t.games(k):
        if g.is_bye:
            continue
        where = f"round {k} table {g.table}"
        b = int_field(form, f"b{g.table}", "black discs", where)
        w = int_field(form, f"w{g.table}", "white discs", where)
        absent = text_field(form, f"f{g.table}")
        if absent:
            if absent not in _ABSENT:
                raise InvalidInputError(f"{where}: forfeit {absent!r}: choose black, white "
                                        "or both absent")
            if b is not None or w is not None:
                raise InvalidInputError(f"{where}: a forfeit has no discs; give one or "
                                        "the other")
            if g.has_result:
                raise InvalidInputError(f"{where}: result already entered; correct it "
                                        "below")
            forfeits.append((g.white if absent == "white" else g.black, absent == "both"))
            continue
        if b is None and w is None:
            continue
        if b is None or w is None:
            raise InvalidInputError(f"{where}: give both disc counts")
        sheet.append((g.table, b, w))
    if not sheet and not forfeits:
        raise InvalidInputError(f"round {k}: no result filled in")
    t.set_results(k, sheet, forfeits=forfeits)  # one transaction: all or nothing
    left = len(t.missing_results(k))
    done = f"{len(sheet)} results entered"
    if forfeits:
        done += f", {len(forfeits)} forfeit{'s' if len(forfeits) != 1 else ''}"
    return redirect(f"/desk/{slug}/round/{k}", f"round {k}: {done}, {left} to come")


#: The forfeit choices of the results form: who did not turn up.
_ABSENT = ("black", "white", "both")


@posted
def correct(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    k = _round_no(request, t)
    _check_etag(t, k, form)
    number, _, seen = text_field(form, "table").partition("@")
    if not number.isdigit():
        raise InvalidInputError(f"round {k}: table {number!r} is not an integer")
    table = int(number)
    g = next((g for g in t.games(k) if g.table == table), None)
    if g is None:
        raise InvalidInputError(f"round {k} has no table {table}")
    if seen != ev.result_tag(g):
        raise Stale(f"round {k} table {table}: the result was changed meanwhile (now "
                    f"{ev.result_tag(g)}); nothing saved — reload and check")
    where = f"round {k} table {table}"
    b = int_field(form, "black", "black discs", where)
    w = int_field(form, "white", "white discs", where)
    if b is None or w is None:
        raise InvalidInputError(f"{where}: give both disc counts")
    old_rank = {s.id: s.rank for s in t.standings()}
    t.set_result(k, table, b, w, replace=True)
    moved = [f"{s.name} {old_rank[s.id]}→{s.rank}" for s in t.standings()
             if old_rank.get(s.id) != s.rank]
    change = "; standings: " + ", ".join(moved) if moved else "; standings order unchanged"
    return redirect(f"/desk/{slug}/round/{k}",
                    f"round {k} table {table} corrected to {b}-{w}{change}")


@posted
def change(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    k = _round_no(request, t)
    _check_etag(t, k, form)
    action = text_field(form, "action")
    if action not in ("swap", "replace"):
        raise InvalidInputError(f"change {action!r}: choose swap or replace")
    a, b = text_field(form, "a"), text_field(form, "b")
    if text_field(form, "confirm") != "yes":
        warnings, changed = ev.preview(t, action, k, a, b)
        ctx = _round_context(request, t, slug, k)
        ctx.update(action=action, a=a, b=b, warnings=warnings, changed=changed)
        return render(request, "desk/confirm.html", ctx)
    if action == "swap":
        warnings = t.swap_players(k, a, b)
    else:
        warnings = t.replace_player(k, a, b)
    note = "; ".join(str(w) for w in warnings) or "no warning"
    return redirect(f"/desk/{slug}/round/{k}", f"round {k}: {action} {a} / {b} saved ({note})")


@posted
def delete_round(request: Request, t: Tournament, slug: str, form: FormData) -> Response:
    k = _round_no(request, t)
    _check_etag(t, k, form)
    t.delete_round(k)
    return redirect(f"/desk/{slug}", f"round {k} deleted; pair it again when ready")


# ------------------------------------------------------------------ standings and players
def _after(request: Request, t: Tournament) -> int:
    raw = request.query_params.get("after", "")
    last = t.last_round
    if raw == "":
        return last
    if not raw.isdigit() or not 0 <= int(raw) <= last:
        raise HTTPException(400, f"after round {raw!r}: choose 0 to {last}")
    return int(raw)


def _standings_context(request: Request, t: Tournament) -> dict[str, Any]:
    slug = _slug(request)
    after = _after(request, t)
    rows = ev.cached(_data_dir(request), slug, ("standings", after),
                     lambda: t.standings(after, tiebreaks=TIEBREAKS))
    return {"slug": slug, "info": t.info, "rows": rows, "after": after, "last": t.last_round,
            "clubs": ev.clubs(_data_dir(request), slug), "tiebreaks": TIEBREAKS}


def standings(request: Request) -> Response:
    with _open(request) as t:
        return render(request, "desk/standings.html", _standings_context(request, t))


def crosstable(request: Request) -> Response:
    with _open(request) as t:
        ctx = _standings_context(request, t)
        ctx["grid"] = ev.crosstable(ctx["rows"], t.games(), ctx["after"])
        return render(request, "desk/crosstable.html", ctx)


def player(request: Request) -> Response:
    with _open(request) as t:
        key = request.query_params.get("id", "")
        try:
            p = t.player(key)
        except InvalidInputError as e:
            raise HTTPException(404, str(e)) from None
        players = t.players()
        last = t.last_round
        rows = ev.cached(_data_dir(request), _slug(request), ("standings", last),
                         lambda: t.standings(tiebreaks=TIEBREAKS))
        row = next((s for s in rows if s.id == p.id), None)
        return render(request, "desk/player.html", {
            "slug": _slug(request), "info": t.info, "p": p, "row": row,
            "club": ev.clubs(_data_dir(request), _slug(request)).get(p.id),
            "history": ev.player_history(p, players, t.games())})


# ------------------------------------------------------------------ print and export
def print_round(request: Request) -> Response:
    with _open(request) as t:
        k = _round_no(request, t)
        ctx = _round_context(request, t, _slug(request), k)
        kind = request.path_params["kind"]
        if kind not in ("pairings", "slips"):
            raise HTTPException(404, f"no print view {kind!r} (pairings or slips)")
        return render(request, "desk/print_slips.html" if kind == "slips"
                      else "desk/print_round.html", ctx)


def print_standings(request: Request) -> Response:
    with _open(request) as t:
        return render(request, "desk/print_standings.html", _standings_context(request, t))


EXPORTS = {"elo": ("application/octet-stream", ".elo"), "trf": ("text/plain", ".trf"),
           "standings.csv": ("text/csv", "-standings.csv"),
           "pairing.csv": ("text/csv", "-pairing.csv")}


def export(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in EXPORTS:
        raise HTTPException(404, f"no export {kind!r} (choose {', '.join(EXPORTS)})")
    slug = _slug(request)
    with _open(request) as t:
        if kind == "elo":
            body = format_elo(t.snapshot())
        elif kind == "trf":
            body = format_trf(t.snapshot())
        elif kind == "standings.csv":
            body = standings_csv(t.standings(tiebreaks=TIEBREAKS), TIEBREAKS)
        else:
            if t.last_round < 1:
                raise HTTPException(404, "no round paired yet")
            body = pairing_csv(t.pairing(t.last_round), t.players(), t.standings())
    media, suffix = EXPORTS[kind]
    return Response(body.encode("utf-8"), media_type=media, headers={
        "Content-Disposition": f"attachment; filename=\"{slug}{suffix}\"",
        "Cache-Control": "no-store"})


# ------------------------------------------------------------------ public pages
def public(request: Request) -> Response:
    """The players' page. Everyone sees the same page between two saves, so it is
    rendered once per change of the file (the director's own view, with its log-out
    form, is rendered each time)."""
    slug = _slug(request)
    if not ev.tournament_path(_data_dir(request), slug).is_file():
        raise HTTPException(404, f"no tournament {slug!r}")
    if request.app.state.token is not None and is_director(request):
        return render(request, "public.html", _public_context(request, slug))
    html = ev.cached(_data_dir(request), slug, ("public.html",),
                     lambda: templates.get_template("public.html").render(
                         {"csrf": "", "flash": None, "director": False, "locked": True,
                          **_public_context(request, slug)}))
    return HTMLResponse(html, headers={"Cache-Control": "no-cache", **SECURITY_HEADERS})


def _public_context(request: Request, slug: str) -> dict[str, Any]:
    with _open(request) as t:
        last = t.last_round
        return {"slug": slug, "info": t.info, "last": last,
                "version": ev.version(_data_dir(request), slug),
                "poll_ms": request.app.state.poll_ms,
                "rows": ev.cached(_data_dir(request), slug, ("standings", last),
                                  lambda: t.standings(tiebreaks=TIEBREAKS)),
                "names": {p.id: p.name for p in t.players()},
                "games": t.games(last) if last else ()}


def public_state(request: Request) -> Response:
    """``{"version": ...}``, with the same value as an ETag (304 when unchanged)."""
    slug = _slug(request)
    path = ev.tournament_path(_data_dir(request), slug)
    if not path.is_file():
        raise HTTPException(404, f"no tournament {slug!r}")
    tag = ev.version(_data_dir(request), slug)
    etag = f'"{tag}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return JSONResponse({"version": tag}, headers=headers)


def routes() -> list[BaseRoute]:
    s = "/desk/{slug}"
    r = s + "/round/{k:int}"
    return [
        Route("/desk/", index),
        Route("/desk/new", create, methods=["POST"]),
        Route("/desk/import", import_file, methods=["POST"]),
        Route(s, event),
        Route(s + "/players", add_player, methods=["POST"]),
        Route(s + "/players/csv", add_csv, methods=["POST"]),
        Route(s + "/withdraw", withdraw, methods=["POST"]),
        Route(s + "/forbid", forbid, methods=["POST"]),
        Route(s + "/allow", allow, methods=["POST"]),
        Route(s + "/pair", pair, methods=["POST"]),
        Route(s + "/penalties", penalties, methods=["POST"]),
        Route(r, round_page),
        Route(r + "/results", results, methods=["POST"]),
        Route(r + "/correct", correct, methods=["POST"]),
        Route(r + "/change", change, methods=["POST"]),
        Route(r + "/delete", delete_round, methods=["POST"]),
        Route(r + "/print/{kind:str}", print_round),
        Route(s + "/standings", standings),
        Route(s + "/standings/print", print_standings),
        Route(s + "/crosstable", crosstable),
        Route(s + "/player", player),
        Route(s + "/export/{kind:str}", export),
        Route("/public/{slug}", public),
        Route("/public/{slug}/state", public_state),
    ]
