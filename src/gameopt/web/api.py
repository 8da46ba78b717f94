"""The JSON API of deck recommendations: ``/api/v1`` (FastAPI, pydantic models).

* ``POST /api/v1/decks``: one player's collection (piece ids, or the name of a collection
  the server stores), rules, method and time budget → the deck, its score, proof or bound
  where the method has one, each piece's contribution and the binding rules;
* ``POST /api/v1/decks:batch``: many players at once (on a Dask cluster when the server
  has one and the batch is large);
* ``GET /api/v1/health``: whether the workers are ready, and the queue;
* ``GET /api/v1/openapi.json``: the schema.

Answers: 200 with the deck; 422 for input that cannot be served, with the field's path
(``loc``) and a message, in FastAPI's shape ``{"detail": [{"loc", "msg", "type"}]}``
(unknown piece ids, rules the collection cannot meet, NaN budgets, infeasible rules...);
413 for a body over the limit; 401 without the token when the server has one; 503 with
``Retry-After`` when every worker is busy and the queue is full. Searches run on a
:class:`~gameopt.web.api_workers.DeckWorkers` pool (or any object with its ``run`` and
``snapshot``); a client that disconnects cancels its request (see that module for what
happens to a running search).
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, Protocol

import numpy as np
import numpy.typing as npt
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gameopt.errors import GameoptError, InvalidInputError, SolverError
from gameopt.web.api_deck import (
    DECK_METHODS,
    MAX_COST_CAP,
    METHODS,
    DeckCatalogue,
    Rules,
    recommend_job,
)
from gameopt.web.api_workers import PoolFull

__all__ = ["API_PREFIX", "DeckBackend", "create_api", "with_api"]

API_PREFIX = "/api/v1"
#: Most piece ids in one collection, requests in one batch, seconds of one budget.
MAX_PIECES = 20_000
MAX_BATCH = 256
MAX_BUDGET = 60.0
#: Seconds to wait for the Dask scheduler to answer (as :func:`gameopt.core.parallel_map`).
_CONNECT_TIMEOUT = 10.0
#: Largest request body (bytes): a batch of 256 collections of 2,000 ids fits.
DEFAULT_MAX_BODY = 8_000_000
Id = Annotated[int, Field(ge=-(2**62), le=2**62)]
Method = Literal[DECK_METHODS]  # type: ignore[valid-type]  # vds, exact, bnb


class DeckBackend(Protocol):
    """What runs the searches (:class:`~gameopt.web.api_workers.DeckWorkers`)."""

    size: int

    async def run(self, request: dict[str, Any], *, admitted: bool = False
                  ) -> dict[str, Any]: ...

    def snapshot(self) -> dict[str, Any]: ...

    def retry_after(self) -> int: ...


# ---------------------------------------------------------------------- models


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesIn(Strict):
    """The deck rules (those of ``gameopt deck build``)."""

    size: int = Field(16, ge=1, le=100, description="pieces in the deck, leader included")
    cost_cap: int | None = Field(None, ge=0, le=MAX_COST_CAP,
                                 description="most total cost, leader included")
    char_limit: int = Field(1, ge=1, le=100, description="most pieces of one character")
    char_limits: dict[int, Annotated[int, Field(ge=1, le=100)]] = Field(
        default_factory=dict, max_length=1000, description="per-character limits")
    attribute: Literal["god", "demon", "dragon"] | None = None
    attribute_min: int = Field(0, ge=0, le=100, description="at least this many pieces "
                               "of `attribute`, leader included")
    must: list[Id] = Field(default_factory=list, max_length=100,
                           description="pieces that must be in the deck")
    leader: Id | None = None
    forbid: list[tuple[Id, Id]] = Field(default_factory=list, max_length=1000,
                                        description="pairs that may not share a deck")


class CollectionIn(Strict):
    """A player's collection: its piece ids, or the name of one the server stores."""

    pieces: list[Id] | None = Field(None, max_length=MAX_PIECES)
    id: str | None = Field(None, max_length=200)

    @model_validator(mode="after")
    def one_of(self) -> CollectionIn:
        if (self.pieces is None) == (self.id is None):
            raise ValueError("give exactly one of `pieces` and `id`")
        return self


class DeckRequest(Strict):
    collection: CollectionIn
    rules: RulesIn = Field(default_factory=lambda: RulesIn.model_validate({}))
    method: Method = "vds"
    time_budget: float | None = Field(
        None, gt=0, le=MAX_BUDGET, allow_inf_nan=False,
        description="seconds on the method's clock (CPU for the heuristics and bnb, wall "
                    "for exact); default: the server's")
    seed: int = Field(0, ge=0, le=2**32 - 1)
    explain: bool = Field(True, description="add the binding-rule analysis")


class BatchRequest(Strict):
    requests: list[DeckRequest] = Field(min_length=1, max_length=MAX_BATCH)


class Contribution(BaseModel):
    id: int
    contribution: float


class DeckAnswer(BaseModel):
    deck: list[int] = Field(description="piece ids, the leader left out")
    leader: int | None
    score: float
    cost: int
    attributes: dict[str, int]
    method: str
    clock: str
    seconds: float = Field(description="search time on `clock`")
    proven: bool
    bound: float | None
    gap: float | None
    stop: str | None = Field(description="why the search ended early, if it did")
    contributions: list[Contribution]
    rules: list[dict[str, Any]] = Field(description="binding-rule analysis, one per "
                                                    "active rule")
    timings: dict[str, float] = Field(description="CPU seconds per stage in the worker")


class ErrorItem(BaseModel):
    loc: list[str | int]
    msg: str
    type: str


class BatchItem(BaseModel):
    status: int
    result: DeckAnswer | None = None
    errors: list[ErrorItem] | None = None


class BatchAnswer(BaseModel):
    results: list[BatchItem]


# ---------------------------------------------------------------------- errors


class ApiError(Exception):
    """A request the API refuses: status, field path and message."""

    def __init__(self, status: int, loc: list[str | int], msg: str, kind: str) -> None:
        super().__init__(msg)
        self.status, self.loc, self.msg, self.kind = status, loc, msg, kind

    def items(self) -> list[dict[str, Any]]:
        return [{"loc": self.loc, "msg": self.msg, "type": self.kind}]


def _invalid(loc: list[str | int], msg: str) -> ApiError:
    return ApiError(422, loc, msg, "value_error")


def _from_worker(answer: Mapping[str, Any], loc: list[str | int]) -> ApiError:
    kind, msg = answer["error"], answer["message"]
    if kind == "InfeasibleError":
        return ApiError(422, [*loc, "rules"], msg, "infeasible")
    if kind == "BudgetExhaustedError":  # the request's (or the server's) budget: too short
        return ApiError(422, [*loc, "time_budget"], msg, "budget_exhausted")
    if kind == "InvalidInputError":
        field = msg.split(":", 1)[0].strip()
        if field == "rules":
            loc = [*loc, "rules"]
        elif field in RulesIn.model_fields:
            loc = [*loc, "rules", field]
        elif field in ("id", "collection"):
            loc = [*loc, "collection"]
        return ApiError(422, loc, msg, "value_error")
    return ApiError(500, loc, msg, "solver_error")


# ---------------------------------------------------------------------- the service


class _Api:
    def __init__(self, catalogue: DeckCatalogue, backend: DeckBackend,
                 collections: Mapping[str, npt.ArrayLike], default_budget: float | None,
                 scheduler: str | None, source: Any, dask_min_batch: int) -> None:
        self.catalogue, self.backend = catalogue, backend
        self.collections = {k: np.asarray(v, dtype=np.int64) for k, v in collections.items()}
        self.default_budget = default_budget
        self.scheduler, self.source, self.dask_min_batch = scheduler, source, dask_min_batch

    def job(self, req: DeckRequest, loc: list[str | int]) -> dict[str, Any]:
        """The worker's request, after the checks that can name a field."""
        cl = [*loc, "collection"]
        if req.collection.pieces is not None:
            owned = np.asarray(req.collection.pieces, dtype=np.int64)
            cl.append("pieces")
        else:
            stored = self.collections.get(str(req.collection.id))
            if stored is None:
                raise _invalid([*cl, "id"], f"no stored collection {req.collection.id!r} "
                               f"(known: {', '.join(sorted(self.collections)) or 'none'})")
            owned = stored
        order = np.argsort(owned, kind="stable")
        ranked = owned[order]
        if len(ranked) > 1 and (ranked[1:] == ranked[:-1]).any():
            k = int(np.flatnonzero(ranked[1:] == ranked[:-1])[0])
            raise _invalid([*cl, int(order[k + 1])], f"piece {ranked[k]} appears twice")
        unknown = self.catalogue.unknown(owned)
        if unknown:
            raise _invalid([*cl, unknown[0]], f"unknown piece id {owned[unknown[0]]} "
                           f"({len(unknown)} unknown ids in all)")
        r = req.rules
        rl = [*loc, "rules"]
        # (where, id, must the player own it?)
        named: list[tuple[list[str | int], int, bool]] = []
        if r.leader is not None:
            named.append(([*rl, "leader"], r.leader, True))
        named += [([*rl, "must", k], pid, True) for k, pid in enumerate(r.must)]
        named += [([*rl, "forbid", k, s], pair[s], False) for k, pair in enumerate(r.forbid)
                  for s in (0, 1)]
        if named:
            ids = np.array([pid for _, pid, _ in named], dtype=np.int64)
            known = self.catalogue.index_of(ids)[1]
            owned_mask = np.isin(ids, owned)
            for (where, pid, own), ok, have in zip(named, known, owned_mask, strict=True):
                if not ok:
                    raise _invalid(where, f"unknown piece id {pid}")
                if own and not have:
                    raise _invalid(where, f"piece {pid} is not in the collection")
        rules = r.model_dump()
        rules["must"] = tuple(r.must)
        rules["forbid"] = tuple(tuple(p) for p in r.forbid)
        try:
            Rules(**rules)
        except InvalidInputError as exc:
            raise _invalid(rl, str(exc)) from None
        budget = req.time_budget if req.time_budget is not None else self.default_budget
        if budget is not None and METHODS[req.method].clock == "wall" and budget > MAX_BUDGET:
            budget = MAX_BUDGET
        # id order: rows of the score matrix are then read in order (the gather is
        # memory-bound); a collection's order carries no meaning
        return {"owned": ranked, "rules": rules, "method": req.method, "seconds": budget,
                "seed": req.seed, "explain": req.explain}

    async def one(self, req: DeckRequest, loc: list[str | int], admitted: bool
                  ) -> dict[str, Any]:
        answer = await self.backend.run(self.job(req, loc), admitted=admitted)
        if "error" in answer:
            raise _from_worker(answer, loc)
        return answer

    async def on_cluster(self, jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers of ``jobs`` from the Dask cluster, in order.

        An asynchronous client on the server's loop: when the request is cancelled (its
        client went away) the futures are cancelled, so the cluster drops the jobs not
        yet started and forgets the running ones (a running job ends within its budget;
        its answer is thrown away).
        """
        import distributed  # heavy import (tornado, dask): only when a cluster is used

        where = f"the Dask scheduler at {self.scheduler}"
        try:
            client = await distributed.Client(self.scheduler, asynchronous=True,
                                              timeout=_CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ApiError(503, ["body"], f"cannot reach {where} within "
                           f"{_CONNECT_TIMEOUT:g} s ({type(exc).__name__})",
                           "cluster_error") from None
        futures = client.map(recommend_job, [(self.source, j) for j in jobs], pure=False)
        try:
            answers: list[dict[str, Any]] = await client.gather(futures)
            return answers
        except asyncio.CancelledError:
            await asyncio.shield(client.cancel(futures))
            raise
        except Exception as exc:  # a job raised: recommend_job answers GameoptErrors itself
            await client.cancel(futures)
            raise ApiError(503, ["body"], f"a job failed on {where}: "
                           f"{type(exc).__name__}: {exc}", "cluster_error") from None
        finally:
            await asyncio.shield(client.close())

    async def batch(self, reqs: list[DeckRequest]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{} for _ in reqs]
        jobs: dict[int, dict[str, Any]] = {}
        for i, req in enumerate(reqs):
            try:
                jobs[i] = self.job(req, ["body", "requests", i])
            except ApiError as exc:
                out[i] = {"status": exc.status, "errors": exc.items()}
        if self.scheduler is not None and len(jobs) >= self.dask_min_batch:
            answers = await self.on_cluster(list(jobs.values()))
            pairs = list(zip(jobs, answers, strict=True))
        else:
            snap = self.backend.snapshot()
            if jobs and snap["waiting"] >= snap["queue"] and not snap["free"]:
                raise PoolFull(1)
            gate = asyncio.Semaphore(max(1, self.backend.size))

            async def run(job: dict[str, Any]) -> dict[str, Any]:
                async with gate:
                    return await self.backend.run(job, admitted=True)

            tasks = [asyncio.ensure_future(run(j)) for j in jobs.values()]
            try:
                answers = await asyncio.gather(*tasks)
            except BaseException:
                for t in tasks:
                    t.cancel()
                raise
            pairs = list(zip(jobs, answers, strict=True))
        for i, answer in pairs:
            if "error" in answer:
                err = _from_worker(answer, ["body", "requests", i])
                out[i] = {"status": err.status, "errors": err.items()}
            else:
                out[i] = {"status": 200, "result": answer}
        return out


async def _until_disconnect(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def _unless_gone(request: Request, work: Any) -> Any:
    """Run ``work``; cancel it when the client disconnects first (then ``None``)."""
    job = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_until_disconnect(request))
    try:
        await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not job.done():
            job.cancel()
        gone.cancel()
    if job.done() and not job.cancelled():
        return job.result()
    try:
        await job
    except (asyncio.CancelledError, GameoptError, ApiError, PoolFull):
        pass
    return None


def create_api(catalogue: DeckCatalogue, backend: DeckBackend, *,
               collections: Mapping[str, npt.ArrayLike] | None = None,
               default_budget: float | None = 1.0, token: str | None = None,
               scheduler: str | None = None, source: Any = None, dask_min_batch: int = 32,
               max_body: int = DEFAULT_MAX_BODY) -> ASGIApp:
    """The API application.

    Parameters
    ----------
    catalogue : DeckCatalogue
        The pool and scores the server loaded (ids are checked against it here).
    backend : DeckBackend
        Runs the searches (a started :class:`~gameopt.web.api_workers.DeckWorkers`).
    collections : mapping of str to array of int, optional
        Stored collections, by name, for requests that give ``collection.id``.
    default_budget : float or None
        Seconds of search when a request gives no ``time_budget`` (``None``: the
        method's own default).
    token : str, optional
        When given, every request needs ``Authorization: Bearer TOKEN``.
    scheduler, source
        A Dask scheduler address (``tcp://HOST:PORT``) for batches of at least
        ``dask_min_batch`` requests, and what its workers load
        (``("synthetic", seed)`` or ``("files", pool, scores)``; see
        :func:`gameopt.deck.service.recommend_job`).
    max_body : int
        Largest request body in bytes (413 beyond).
    """
    if scheduler is not None and source is None:
        raise InvalidInputError("api: a Dask scheduler needs the source its workers load")
    api = _Api(catalogue, backend, collections or {}, default_budget, scheduler, source,
               dask_min_batch)
    app = FastAPI(title="gameopt deck recommendations", version="1",
                  openapi_url=f"{API_PREFIX}/openapi.json", docs_url=None, redoc_url=None)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return JSONResponse({"detail": exc.items()}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: Exception) -> Response:
        # loc, msg and type only: the input itself may be NaN (not JSON) or 20,000 ids
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": [{"loc": list(e["loc"]), "msg": e["msg"],
                                         "type": e["type"]} for e in exc.errors()]},
                            status_code=422)

    @app.exception_handler(PoolFull)
    async def pool_full(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PoolFull)
        return JSONResponse({"detail": str(exc)}, status_code=503,
                            headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(SolverError)
    async def solver_error(request: Request, exc: Exception) -> Response:
        return JSONResponse({"detail": str(exc)}, status_code=503,
                            headers={"Retry-After": "1"})

    @app.get(f"{API_PREFIX}/health")
    async def health() -> Response:
        snap = api.backend.snapshot()
        return JSONResponse({**snap, "pieces": len(catalogue.pool),
                             "scored": len(catalogue.score_ids),
                             "collections": sorted(api.collections)},
                            status_code=200 if snap["ready"] else 503)

    @app.post(f"{API_PREFIX}/decks", response_model=DeckAnswer,
              responses={422: {"description": "input that cannot be served"},
                         503: {"description": "busy: retry after `Retry-After` seconds"}})
    async def decks(body: DeckRequest, request: Request) -> Any:
        answer = await _unless_gone(request, api.one(body, ["body"], admitted=False))
        return answer if answer is not None else Response(status_code=499)

    @app.post(API_PREFIX + "/decks:batch", response_model=BatchAnswer)
    async def batch(body: BatchRequest, request: Request) -> Any:
        answer = await _unless_gone(request, api.batch(body.requests))
        return {"results": answer} if answer is not None else Response(status_code=499)

    def full() -> int | None:
        snap = api.backend.snapshot()
        if snap["free"] or snap["waiting"] < snap["queue"]:
            return None
        retry = getattr(api.backend, "retry_after", None)
        return int(retry()) if callable(retry) else 1

    guarded: ASGIApp = _Guard(app, token, max_body, full)
    return guarded


class _Guard:
    """The bearer token (when set) and the body-size limit, before FastAPI reads a body."""

    def __init__(self, app: ASGIApp, token: str | None, limit: int,
                 full: Callable[[], int | None]) -> None:
        self.app, self.token, self.limit, self.full = app, token, limit, full

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        async def timed(message: Message) -> None:  # the server's own time, in a header
            if message["type"] == "http.response.start":
                took = f"app;dur={(time.perf_counter() - t0) * 1000:.1f}".encode()
                message = {**message,
                           "headers": [*message.get("headers", []), (b"server-timing", took)]}
            await send(message)

        headers = dict(scope["headers"])
        if self.token is not None:
            given = headers.get(b"authorization", b"").decode("latin-1")
            if not hmac.compare_digest(given, f"Bearer {self.token}"):
                await JSONResponse({"detail": "missing or wrong bearer token"},
                                   status_code=401)(scope, receive, timed)
                return
        if scope["method"] == "POST" and scope["path"] in _SEARCHES:
            # refused before the body is read or parsed: under overload a 503 costs
            # next to nothing, so it stays fast while the workers are busy
            retry = self.full()
            if retry is not None:
                await JSONResponse({"detail": f"busy: every worker is taken and the queue "
                                              f"is full; retry in {retry} s"},
                                   status_code=503, headers={"Retry-After": str(retry)}
                                   )(scope, receive, timed)
                return
        declared = headers.get(b"content-length")
        too_big = JSONResponse({"detail": f"body over {self.limit:,} bytes"}, status_code=413)
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await too_big(scope, receive, timed)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooBig
            return message

        try:
            await self.app(scope, counted, timed)
        except _TooBig:
            await too_big(scope, receive, timed)


_SEARCHES = (f"{API_PREFIX}/decks", f"{API_PREFIX}/decks:batch")


class _TooBig(Exception):
    pass


def with_api(pages: ASGIApp | None, api: ASGIApp,
             on_shutdown: Callable[[], None] | None = None) -> ASGIApp:
    """One application: ``/api/...`` to ``api``, everything else to ``pages`` (404 JSON
    when there are none: ``gameopt serve --api-only``). The ASGI lifespan's shutdown
    calls ``on_shutdown`` (uvicorn re-raises a SIGTERM after its graceful shutdown, so
    ``atexit`` would never run: the workers and the shared memory go here)."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    if on_shutdown is not None:
                        await asyncio.to_thread(on_shutdown)
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        elif scope["type"] == "http" and (scope["path"] == "/api"
                                          or scope["path"].startswith("/api/")):
            await api(scope, receive, send)
        elif pages is not None:
            await pages(scope, receive, send)
        else:
            await JSONResponse({"detail": f"not found; the API is under {API_PREFIX}"},
                               status_code=404)(scope, receive, send)

    return app
