"""The deck page: choose the rules, build the deck, read why it is what it is.

``/deck`` shows the rules form over a data set: the embedded synthetic one
(:func:`gameopt.deck.synth.synthetic_data`, made once per process) or one uploaded by
``POST /deck/data`` (pool, collection and scores files, kept in memory, the last
:data:`MAX_SETS`). ``POST /deck/build`` builds the deck in the page pool and shows it as
a table of pieces with each one's contribution, a bar chart of the contributions, the
rules that bind and by how much (:func:`gameopt.deck.explain.binding_rules`), and the
leader with its own share. Rules no deck can keep get the solver's reason (422).

The score splits exactly: each piece's share is half its pair scores with the other
pieces, the leader's share is the sum of its scores with the pieces, and the shares add
up to the deck's score.
"""

from __future__ import annotations

import secrets
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from gameopt.core import Limit, StopFlag, check_count
from gameopt.errors import InfeasibleError, InvalidInputError, SolverError
from gameopt.web.charts import bar_chart
from gameopt.web.common import int_field, read_form, redirect, render, text_field

__all__ = ["routes", "MAX_SETS", "MAX_SECONDS", "SYNTHETIC"]

#: Uploaded data sets kept in memory (oldest dropped first).
MAX_SETS = 4
MAX_SECONDS = 60.0
DEFAULT_SECONDS = 5.0
#: The name of the embedded data set.
SYNTHETIC = "synthetic"
ATTRIBUTES = ("god", "demon", "dragon")


@dataclass(frozen=True, eq=False)
class _DataSet:
    name: str
    pool: Any
    collection: Any
    scores: Any


_SETS: OrderedDict[str, _DataSet] = OrderedDict()
_LOCK = threading.Lock()


def routes() -> list[BaseRoute]:
    return [Route("/deck", index, methods=["GET"]),
            Route("/deck/data", upload, methods=["POST"]),
            Route("/deck/build", build, methods=["POST"])]


def _synthetic() -> _DataSet:
    with _LOCK:
        have = _SETS.get(SYNTHETIC)
    if have is not None:
        return have
    from gameopt.deck.synth import synthetic_data

    pool, collection, scores = synthetic_data(0)
    data = _DataSet("the embedded synthetic data (seed 0)", pool, collection, scores)
    with _LOCK:
        _SETS[SYNTHETIC] = data
    return data


async def _data(request: Request, key: str) -> _DataSet:
    if key in ("", SYNTHETIC):
        with _LOCK:
            have = _SETS.get(SYNTHETIC)
        if have is not None:
            return have
        data: _DataSet = await request.app.state.page_jobs.run(lambda stop: _synthetic())
        return data
    with _LOCK:
        data = _SETS.get(key)  # type: ignore[assignment]
    if data is None:
        raise InvalidInputError(f"data: set {key!r} is gone (the server keeps the last "
                                f"{MAX_SETS} uploads); upload it again")
    return data


def _pieces(data: _DataSet) -> list[dict[str, Any]]:
    """The owned pieces, by id, for the pickers."""
    out = []
    for pid in sorted(set(data.collection.owned)):
        p = data.pool[pid]
        out.append({"id": pid, "label": f"{pid} {p.name} ({p.attribute}, cost {p.cost})"})
    return out


def _values(form: FormData | None) -> dict[str, Any]:
    if form is None:
        return {"cost": "250", "attribute": "", "attribute_min": "5", "must": [],
                "leader": "", "char_limit": "1", "method": "vds", "seconds": "5"}
    return {"cost": text_field(form, "cost"), "attribute": text_field(form, "attribute"),
            "attribute_min": text_field(form, "attribute_min"),
            "must": [v for v in form.getlist("must") if isinstance(v, str)],
            "leader": text_field(form, "leader"), "char_limit": text_field(form, "char_limit"),
            "method": text_field(form, "method"), "seconds": text_field(form, "seconds")}


async def _page(request: Request, key: str, form: FormData | None = None,
                status_code: int = 200, **extra: Any) -> Response:
    from gameopt.deck import DECK_METHODS, METHODS

    data = await _data(request, key)
    ctx = {"key": key or SYNTHETIC, "data_name": data.name, "pieces": _pieces(data),
           "owned": len(data.collection.owned), "pool_size": len(data.pool),
           "methods": {k: METHODS[k].summary for k in DECK_METHODS}, "attributes": ATTRIBUTES,
           "values": _values(form), "error": None, "field": None, "deck": None,
           "upload_error": None, **extra}
    return render(request, "deck/index.html", ctx, status_code=status_code)


async def index(request: Request) -> Response:
    key = request.query_params.get("data", SYNTHETIC)
    try:
        return await _page(request, key)
    except InvalidInputError as e:
        return await _page(request, SYNTHETIC, upload_error=str(e), status_code=404)


async def upload(request: Request) -> Response:
    """Read an uploaded pool, collection and scores; keep them under a new key."""
    from gameopt.deck import load_data

    form = await read_form(request)
    files = {}
    try:
        for name in ("pool", "collection", "scores"):
            f = form.get(name)
            if not isinstance(f, UploadFile) or not f.filename:
                raise InvalidInputError(f"{name}: no file chosen (a pool, a collection "
                                        f"and scores are needed together)")
            suffix = "".join(c for c in Path(f.filename).suffix.lower() if c.isalnum())
            files[name] = (f"{name}.{suffix or 'csv'}", await f.read(), f.filename)
        with tempfile.TemporaryDirectory(prefix="gameopt-deck-") as tmp:
            paths = {}
            for name, (safe, body, _) in files.items():
                paths[name] = Path(tmp) / safe
                paths[name].write_bytes(body)
            try:
                pool, collection, scores = load_data(paths["pool"], paths["collection"],
                                                     paths["scores"])
            except InvalidInputError as e:  # name the uploaded file, not the temp copy
                text = str(e)
                for name, (_, _, original) in files.items():
                    text = text.replace(str(paths[name]), original)
                raise InvalidInputError(text) from None
    except InvalidInputError as e:
        return await _page(request, SYNTHETIC, upload_error=str(e), status_code=400)
    key = secrets.token_urlsafe(9)
    with _LOCK:
        _SETS[key] = _DataSet(f"uploaded {files['pool'][2]}, {files['collection'][2]}, "
                              f"{files['scores'][2]}", pool, collection, scores)
        uploaded = [k for k in _SETS if k != SYNTHETIC]
        for old in uploaded[:-MAX_SETS]:
            del _SETS[old]
    return redirect(f"/deck?data={key}", f"loaded {len(pool)} pieces, "
                                         f"{len(collection.owned)} owned")


def _rules(form: FormData) -> tuple[Any, str, float]:
    from gameopt.deck import DECK_METHODS, Rules

    cost = check_count(int_field(form, "cost", "cost cap", "cost"), "cost: cost cap",
                       minimum=0, maximum=10**6)
    attribute = text_field(form, "attribute") or None
    if attribute is not None and attribute not in ATTRIBUTES:
        raise InvalidInputError(f"attribute: {attribute!r} is not one of "
                                f"{', '.join(ATTRIBUTES)}")
    amin = int_field(form, "attribute_min", "minimum", "attribute_min", default=0) or 0
    must = []
    for v in form.getlist("must"):
        if isinstance(v, str) and v.strip():
            try:
                must.append(int(v))
            except ValueError:
                raise InvalidInputError(f"must: {v!r} is not a piece id") from None
    leader = int_field(form, "leader", "leader", "leader", default=None)
    char_limit = int_field(form, "char_limit", "character limit", "char_limit", default=1)
    method = text_field(form, "method") or "vds"
    if method not in DECK_METHODS:
        raise InvalidInputError(f"method: {method!r} is not one of {', '.join(DECK_METHODS)}")
    raw = text_field(form, "seconds") or f"{DEFAULT_SECONDS:g}"
    try:
        seconds = float(raw)
    except ValueError:
        raise InvalidInputError(f"seconds: {raw!r} is not a number") from None
    if not 0 < seconds <= MAX_SECONDS:
        raise InvalidInputError(f"seconds: {raw} is outside 0..{MAX_SECONDS:g}")
    rules = Rules(cost_cap=cost, char_limit=1 if char_limit is None else char_limit,
                  attribute=attribute, attribute_min=amin if attribute else 0,
                  must=tuple(must), leader=leader)
    return rules, method, seconds


def _build(data: _DataSet, rules: Any, method: str, seconds: float,
           stop: StopFlag) -> dict[str, Any]:
    """The deck, each piece's share, the binding rules and the leader's share."""
    from gameopt.deck import solve, to_problem
    from gameopt.deck.explain import (
        binding_rules,
        chained_stop,
        contributions,
        deck_totals,
        leader_part,
    )

    problem, ids = to_problem(data.pool, data.collection, rules, data.scores)
    # its own flag, chained to the page's: bnb's deadline watchdog raises the flag of its
    # limit, which would stop the explanation's re-solves at once
    with chained_stop(stop) as own:
        res = solve(problem, method, limit=Limit(time=seconds, clock="wall", stop=own),
                    seed=0)
    deck = list(res.deck)
    total = contributions(problem, deck)
    lead = (np.zeros(len(deck)) if problem.leader_scores is None
            else problem.leader_scores[deck].astype(np.float64))
    pair = total - lead
    rows = []
    for k, i in enumerate(deck):
        p = data.pool[ids[i]]
        rows.append({"id": p.id, "name": p.name, "attribute": p.attribute, "cost": p.cost,
                     "character": p.character, "share": float(pair[k]),
                     "with_leader": float(lead[k]), "must": p.id in rules.must})
    rows.sort(key=lambda r: -r["share"])
    leader = None
    if rules.leader is not None:
        lp = data.pool[rules.leader]
        leader = {"id": lp.id, "name": lp.name, "attribute": lp.attribute, "cost": lp.cost,
                  "share": float(lead.sum())}
    cost, attrs = deck_totals(data.pool, [ids[i] for i in deck], rules.leader)
    # the same method, within the search's own time (as ``gameopt deck build``)
    budget = Limit(time=max(res.seconds, 1e-3), clock="wall" if res.clock == "wall" else "cpu",
                   stop=stop)
    effects = binding_rules(problem, deck, seed=0, method=method, limit=budget,
                            leader=leader_part(data.pool, rules))
    bars = [(f"{r['id']} {r['name']}", r["share"], r["must"]) for r in rows]
    if leader is not None:
        bars.insert(0, (f"leader {leader['id']} {leader['name']}", leader["share"], True))
    return {"rows": rows, "leader": leader, "score": res.score, "cost": cost,
            "cost_cap": rules.cost_cap, "attributes": attrs, "method": res.method,
            "seconds": res.seconds, "clock": res.clock, "proven": res.proven,
            "gap": res.gap, "size": len(deck) + (leader is not None),
            "rules": [{"rule": e.rule, "usage": e.usage, "gain": e.gain, "binds": e.binds,
                       "bound": e.bound, "estimate": e.estimate, "kind": e.kind, "method": e.method}
                      for e in effects],
            "chart": bar_chart(bars, title="each piece's share of the deck's score"),
            "check": float(pair.sum() + lead.sum())}


async def build(request: Request) -> Response:
    form = await read_form(request)
    key = text_field(form, "data") or SYNTHETIC
    try:
        data = await _data(request, key)
        rules, method, seconds = _rules(form)
        out = await request.app.state.page_jobs.run(
            lambda stop: _build(data, rules, method, seconds, stop))
    except (InfeasibleError, SolverError) as e:
        return await _page(request, key, form, status_code=422, error=str(e),
                           field="infeasible")
    except InvalidInputError as e:
        field = str(e).split(":", 1)[0]
        return await _page(request, key if key in _SETS else SYNTHETIC, form,
                           status_code=400, error=str(e), field=field)
    return await _page(request, key, form, deck=out)
