"""The Go page: the maximum-strings board MSP(m, n), and a board check of an SGF.

``/go?size=19`` solves MSP for a size (``N`` or ``MxN``) in the page pool with a time
budget, and shows the board as SVG with the empty points (the dominating set) marked, the
number of strings, γ and how the value was proven; ``/go/msp.sgf`` and ``/go/msp.txt``
download the board. ``POST /go/check`` reads an uploaded (or pasted) SGF and shows what
``gameopt go check`` finds, drawn on the board: the strings, their liberties, and the
strings without a liberty (marked, which ``go check`` refuses).

The SVG comes from :func:`gameopt.go.render.board_svg`; its ``<style>`` element is
dropped (the page's Content-Security-Policy refuses inline styles) and the same classes
are styled in ``static/style.css`` under ``.goboard``.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

import numpy as np
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gameopt.core import Limit, StopFlag
from gameopt.errors import InvalidInputError, SolverError
from gameopt.go import (
    MSP_METHODS,
    Board,
    MspResult,
    best_method,
    check_msp_board,
    solve_msp,
)
from gameopt.web.common import read_form, render, text_field

__all__ = ["routes", "MAX_SIDE", "SECONDS"]

#: Largest board side the page solves and draws.
MAX_SIDE = 40
#: Wall-time budget of one MSP solve.
SECONDS = 20.0
_SIZE = re.compile(r"\s*(\d{1,4})\s*(?:[x×]\s*(\d{1,4}))?\s*")
_CACHE: OrderedDict[tuple[int, int, str], MspResult] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def routes() -> list[BaseRoute]:
    return [Route("/go", index, methods=["GET"]),
            Route("/go/msp.sgf", download_sgf, methods=["GET"]),
            Route("/go/msp.txt", download_text, methods=["GET"]),
            Route("/go/check", check_page, methods=["POST"])]


def parse_size(text: str) -> tuple[int, int]:
    """``"19"`` or ``"13x20"`` as (rows, columns), each in 1..MAX_SIDE."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise InvalidInputError(f"size: {text!r} is not N or MxN (e.g. 19 or 13x20)")
    rows = int(m.group(1))
    cols = int(m.group(2) or rows)
    for name, v in (("rows", rows), ("columns", cols)):
        if not 1 <= v <= MAX_SIDE:
            raise InvalidInputError(f"size: {name} {v} is outside 1..{MAX_SIDE}")
    return rows, cols


def _method(request: Request) -> str:
    method = request.query_params.get("method", "auto") or "auto"
    if method != "auto" and method not in MSP_METHODS:
        raise InvalidInputError(f"method: {method!r} is not one of auto, "
                                f"{', '.join(MSP_METHODS)}")
    return method


async def _solve(request: Request, m: int, n: int, method: str) -> MspResult:
    """MSP(m, n) from the cache, or solved in the page pool within :data:`SECONDS`."""
    key = (m, n, method)
    with _CACHE_LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]

    def work(stop: StopFlag) -> MspResult:
        return solve_msp(m, n, method, limit=Limit(time=SECONDS, clock="wall", stop=stop))

    try:
        res: MspResult = await request.app.state.page_jobs.run(work)
    except SolverError as e:  # the budget ran out before a board was found
        raise HTTPException(422, f"MSP {m}x{n} not finished within {SECONDS:g} s: {e}; "
                                 f"try another method or a smaller board") from None
    if res.proven:
        with _CACHE_LOCK:
            _CACHE[key] = res
            while len(_CACHE) > 64:
                _CACHE.popitem(last=False)
    return res


def _svg(board: Board, marks: Any, title: str) -> str:
    """The board about 480 pixels wide (cells of 14 to 40 pixels), without its style."""
    from gameopt.go.render import board_svg

    cell = float(max(14, min(40, 480 // max(board.shape))))
    svg = board_svg(board, marks=marks, cell=cell, title=title)
    svg = svg.replace("<svg ", f'<svg class="{"big" if cell >= 30 else "small"}" ', 1)
    return re.sub(r"<style>.*?</style>\n?", "", svg, count=1, flags=re.S)


def _how(res: MspResult) -> str:
    """How the value was found and proven, in a sentence."""
    if res.method == "construct":
        how = ("γ from the theorem of Gonçalves, Pinlou, Rao and Thomassé (2011), "
               "γ = ⌊(m+2)(n+2)/5⌋ − 4 for sides of 16 and more; the board is built by the "
               "diagonal pattern with its corners re-solved by CP-SAT, and reaches that "
               "value")
    elif res.method == "dp":
        how = (f"γ proven by the dynamic program over rows of Alanko et al. (2011) "
               f"({res.stats.get('states', '?')} states)")
        if "board_from" in res.stats:
            how += f"; the board from {res.stats['board_from']}"
    else:
        how = f"CP-SAT model of Miyashiro, Yano and Muramatsu ({res.method})"
        how += ", optimal (proven)" if res.proven else ""
    if not res.proven:
        how += f"; not proven optimal: lower bound on γ {res.bound}"
    return how + "."


def _known(m: int, n: int, gamma: int) -> str | None:
    """What the literature says of γ for this size, when it says something."""
    from gameopt.go.msp import KNOWN_GAMMA, formula_gamma

    if m == n and m in KNOWN_GAMMA:
        agree = "agrees" if KNOWN_GAMMA[m] == gamma else "DISAGREES"
        return f"Published γ({m}×{m}) = {KNOWN_GAMMA[m]} (Alanko et al. 2011): {agree}."
    f = formula_gamma(m, n)
    if f is not None:
        agree = "agrees" if f == gamma else "DISAGREES"
        return f"The formula ⌊(m+2)(n+2)/5⌋ − 4 gives {f}: {agree}."
    return None


async def index(request: Request) -> Response:
    from gameopt.go.sgf import MAX_SGF_SIZE  # sgfmill loads on first use

    raw = request.query_params.get("size")
    ctx: dict[str, Any] = {"size": raw or "19", "method": "auto", "methods": MSP_METHODS,
                           "res": None, "error": None, "check": None, "max_side": MAX_SIDE}
    if raw is None:
        return render(request, "go/index.html", ctx)
    try:
        ctx["method"] = _method(request)
        m, n = parse_size(raw)
        res = await _solve(request, m, n, ctx["method"])
    except InvalidInputError as e:
        return render(request, "go/index.html", {**ctx, "error": str(e)}, status_code=400)
    except HTTPException as e:
        if e.status_code != 422:
            raise
        return render(request, "go/index.html", {**ctx, "error": e.detail}, status_code=422)
    board = check_msp_board(res)
    size = f"{m}" if m == n else f"{m}x{n}"
    ctx["res"] = {"m": m, "n": n, "msp": res.msp, "gamma": res.gamma, "points": m * n,
                  "proven": res.proven, "method": res.method, "seconds": res.seconds,
                  "clock": res.clock, "how": _how(res), "known": _known(m, n, res.gamma),
                  "strings": board.string_count(), "auto": best_method(m, n),
                  "svg": _svg(board, res.empty, f"MSP({size}) = {res.msp}"),
                  "sgf": max(m, n) <= MAX_SGF_SIZE,
                  "query": f"size={size}&method={ctx['method']}"}
    return render(request, "go/index.html", ctx)


async def _board_of(request: Request) -> tuple[MspResult, Board, str]:
    m, n = parse_size(request.query_params.get("size", ""))
    res = await _solve(request, m, n, _method(request))
    return res, check_msp_board(res), f"{m}" if m == n else f"{m}x{n}"


async def download_sgf(request: Request) -> Response:
    from gameopt.go.sgf import MAX_SGF_SIZE, board_to_sgf

    res, board, size = await _board_of(request)
    if max(res.m, res.n) > MAX_SGF_SIZE:  # FF[4]: sides up to 52, rectangles too
        raise InvalidInputError(f"size: SGF holds boards up to {MAX_SGF_SIZE} a side; "
                                f"download {size} as text")
    data = board_to_sgf(board, comment=f"MSP({size}) = {res.msp}, gamma {res.gamma}, "
                                       f"{res.method}, gameopt")
    return Response(data, media_type="application/x-go-sgf", headers={
        "Content-Disposition": f'attachment; filename="msp-{size}.sgf"'})


async def download_text(request: Request) -> Response:
    from gameopt.go.text import format_text

    res, board, size = await _board_of(request)
    return Response(format_text(board), media_type="text/plain; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="msp-{size}.txt"'})


async def check_page(request: Request) -> Response:
    """``gameopt go check`` on an uploaded or pasted SGF, findings drawn on the board."""
    from gameopt.go.sgf import board_from_sgf

    form = await read_form(request)
    upload = form.get("file")
    name = "pasted SGF"
    data: bytes | str = text_field(form, "sgf")
    if isinstance(upload, UploadFile) and upload.filename:
        data = await upload.read()
        name = upload.filename[:80]
    ctx: dict[str, Any] = {"size": "19", "method": "auto", "methods": MSP_METHODS,
                           "res": None, "error": None, "check": None, "max_side": MAX_SIDE,
                           "sgf_text": text_field(form, "sgf")}
    try:
        if not data:
            raise InvalidInputError("SGF: no file chosen and nothing pasted")
        board = board_from_sgf(data, name=name, check=False)
    except InvalidInputError as e:
        return render(request, "go/index.html", {**ctx, "check_error": str(e)},
                      status_code=400)
    ctx["check"] = _findings(board, name)
    return render(request, "go/index.html", ctx)


def _findings(board: Board, name: str) -> dict[str, Any]:
    strings = board.strings()
    dead = [s for s in strings if not s.liberties]
    libs = [len(s.liberties) for s in strings]
    marks = np.zeros(board.shape, dtype=bool)
    for s in dead:
        for r, c in s.stones:
            marks[r, c] = True
    legal = not dead
    return {"name": name, "rows": board.rows, "cols": board.cols, "strings": len(strings),
            "black": sum(s.colour == 1 for s in strings),
            "white": sum(s.colour == 2 for s in strings), "legal": legal,
            "dead": [{"colour": "black" if s.colour == 1 else "white", "size": s.size,
                      "at": board.name(s.stones[0])} for s in dead],
            "lib_min": min(libs, default=0), "lib_max": max(libs, default=0),
            "moves_black": len(board.legal_moves(1)) if legal else None,
            "moves_white": len(board.legal_moves(2)) if legal else None,
            "svg": _svg(board, marks, f"{name}: {len(strings)} strings")}
