"""The Othello page (``/reversi``): play the engine, analyse, solve endgames, save as GGF.

The game lives in the page. Every request carries the start position (``start``, a board
string) and the moves (``moves``, a move list); the server checks them and answers the
position, its legal moves and who is to move (``POST /reversi/api/state``), turns pasted
text (a board, a move list or a GGF record) into a game (``POST /reversi/api/load``) and
writes the game as a GGF file (``GET /reversi/game.ggf``). A side with no legal move
passes by itself (the answer's ``notice`` says so).

Searches go over one WebSocket per page (``/reversi/ws``). The page sends
``{"op": ..., "start": ..., "moves": ...}`` with ``depth`` or ``time`` (wall seconds),
and gets JSON lines back while the engine thinks, then one ``result`` (or ``error``):

``reply``    the engine's move at a level (depth, or seconds a move): ``search`` lines;
             while the position is in the shipped opening book, the book's move at once
             (``"book": false`` turns the book off; ``variety``, 0..8 discs: a random
             book move within that many discs of the best);
``hint``     each legal move valued by a search of ``depth - 1`` plies below it (exact
             near the end): one ``search`` line per move, then the ``top`` best;
``analyse``  iterative deepening until ``depth``, ``time``, the server's cap or ``stop``:
             one ``search`` line per depth (depth, score, best line, nodes, nodes/s);
``solve``    the exact final disc difference: ``solve`` lines after each root move;
``graph``    every position of the game valued (black's view): one ``point`` per ply;
``stop``     stops the running search (its result follows, marked ``stopped``).

Searches run on a bounded pool of threads (the search kernels release the GIL), never on
the event loop. Every search has a :class:`~gameopt.core.StopFlag`: ``stop``, the
per-request wall-time cap and a client that goes away all set it, and the kernels see it
within 4096 nodes. Limits (:class:`ReversiLimits`): ``searches`` compute at once and
``searches + waiting`` requests are taken, sharing those turns piece by piece (a root
move, a depth) in arrival order (:class:`Turns`); one more is refused (``503``); a second
search on one page while one runs is refused (``429``); a depth, time or endgame beyond
the server's cap is refused (``400``, naming the field and the cap). Errors are one-line JSON
``{"type": "error", "status": ..., "field": ..., "message": ...}``.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import ModuleType
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketState

from gameopt.core import Limit, Progress, StopFlag, check_count
from gameopt.errors import GameoptError, InvalidInputError
from gameopt.web.common import AUTH_COOKIE, CSRF_COOKIE, SECURITY_HEADERS, auth_value, render

if TYPE_CHECKING:
    from gameopt.web._reversi import Board, Move, SearchResult

__all__ = ["ReversiLimits", "routes", "OPS", "SEARCHES_ENV", "WAITING_ENV", "Refused",
           "decode_message", "parse_request"]

log = logging.getLogger(__name__)


def rv() -> ModuleType:
    """The Othello system (:mod:`gameopt.web._reversi`), imported at its first use: it
    loads numba, which the rest of the server does not need to start."""
    from gameopt.web import _reversi
    return _reversi

#: What the WebSocket accepts in ``op``.
OPS = ("reply", "hint", "analyse", "solve", "graph", "stop")
#: Longest pasted text (characters): a long GGF game fits many times.
MAX_TEXT = 100_000
#: Environment read by :meth:`ReversiLimits.from_env`.
SEARCHES_ENV = "GAMEOPT_REVERSI_SEARCHES"
WAITING_ENV = "GAMEOPT_REVERSI_WAITING"


@dataclass(frozen=True)
class ReversiLimits:
    """What one server spends on Othello searches.

    Parameters
    ----------
    searches : int
        Searches computing at once (turns on the processor, :class:`Turns`).
    waiting : int
        Requests taken beyond those; all share the turns piece by piece, in arrival
        order, and one more is refused with 503.
    max_depth : int
        Deepest search a request may ask (plies).
    max_seconds : float
        Wall seconds a request may run (any search stops there with its best so far).
    max_solve_empties : int
        Most empty squares of an exact solve asked for (``solve``).
    max_graph_depth : int
        Deepest search per position of the evaluation graph.
    """

    searches: int = 2
    waiting: int = 8
    max_depth: int = 20
    max_seconds: float = 60.0
    max_solve_empties: int = 24
    max_graph_depth: int = 8

    def __post_init__(self) -> None:
        if self.searches < 1 or self.waiting < 0 or not 1 <= self.max_depth <= 60 \
                or not 0 < self.max_seconds <= 3600 or not 1 <= self.max_solve_empties <= 60 \
                or not 1 <= self.max_graph_depth <= self.max_depth:
            raise InvalidInputError(f"Othello page limits {self}: out of range")

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ReversiLimits:
        """The defaults, with ``$GAMEOPT_REVERSI_SEARCHES`` and ``$GAMEOPT_REVERSI_WAITING``
        when set (how ``gameopt serve`` is tuned to a machine)."""
        kw: dict[str, int] = {}
        for name, var in (("searches", SEARCHES_ENV), ("waiting", WAITING_ENV)):
            raw = env.get(var, "").strip()
            if raw:
                lo = 1 if name == "searches" else 0
                try:
                    value = int(raw)
                except ValueError:
                    raise InvalidInputError(f"${var} {raw!r}: expected a whole number "
                                            f"{lo}..64") from None
                n = check_count(value, f"${var}", minimum=lo, maximum=64)
                assert n is not None
                kw[name] = n
        return cls(**kw)


class Refused(Exception):
    """A request the page answers with ``status`` and a one-line message."""

    def __init__(self, status: int, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field

    def json(self) -> dict[str, Any]:
        return {"type": "error", "status": self.status, "field": self.field,
                "message": self.message}


# ---------------------------------------------------------------------------- the game
def _text(value: Any, what: str, limit: int = MAX_TEXT) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Refused(400, f"{what}: expected text, got {type(value).__name__}", what)
    if len(value) > limit:
        raise Refused(400, f"{what}: {len(value):,} characters, at most {limit:,}", what)
    return value


def _game(start_text: Any, moves_text: Any) -> tuple[Board, list[Move]]:
    """The start position and the moves (passes explicit), checked."""
    start_s = _text(start_text, "start", 200).strip()
    moves_s = _text(moves_text, "moves", 2000)
    try:
        board = rv().Board
        start = board.from_str(start_s, "start position") if start_s else board.start()
    except InvalidInputError as e:
        raise Refused(400, str(e), "start") from None
    try:
        moves = rv().parse_moves(moves_s, start, "moves")
    except InvalidInputError as e:
        raise Refused(400, str(e), "moves") from None
    return start, moves


def _boards(start: Board, moves: list[Move]) -> list[Board]:
    boards = [start]
    for m in moves:
        boards.append(boards[-1].play(m))
    return boards


def _colour(side: str) -> str:
    return "black" if side == rv().BLACK else "white"


def state(start: Board, moves: list[Move]) -> dict[str, Any]:
    """What the page draws: the position after ``moves``, with a pass played for a side
    that has no legal move (and ``notice`` saying so)."""
    moves = list(moves)
    boards = _boards(start, moves)
    notice = None
    if boards[-1].must_pass():
        notice = f"{_colour(boards[-1].side)} has no legal move and passes"
        moves.append(rv().PASS)
        boards.append(boards[-1].play(rv().PASS))
    b = boards[-1]
    black, white = b.discs()
    over = b.is_game_over()
    if over:
        score = b.black_score()
        status = ("draw" if score == 0 else
                  f"{'black' if score > 0 else 'white'} wins by {abs(score)}") + \
            f" ({black}-{white}): game over"
    else:
        status = f"{_colour(b.side)} to move"
    return {"start": str(start).replace(" ", ""), "moves": [str(m) for m in moves],
            "sides": "".join(x.side for x in boards), "board": str(b)[:64], "side": b.side,
            "legal": [str(m) for m in b.legal_moves() if not m.is_pass],
            "black": black, "white": white, "empties": b.empties, "over": over,
            "result": b.black_score() if over else None, "notice": notice, "status": status}


def load_text(text: str) -> tuple[Board, list[Move], str]:
    """A game from pasted text: a GGF record, a board string, or a move list.

    Raises
    ------
    InvalidInputError
        The text is empty, or not a valid record of the kind it looks like (the message
        names the kind, and the ply, square or line at fault).
    """
    t = text.strip()
    if not t:
        raise InvalidInputError("pasted game: empty (paste a move list, a board or a GGF "
                                "record)")
    if t.startswith("("):
        games = rv().parse_ggf(t, "pasted GGF")
        if not games:
            raise InvalidInputError("pasted GGF: no game")
        g = games[0]
        return g.start, list(g.moves), "GGF"
    squashed = "".join(t.split()).replace(";", "")
    if len(squashed) >= 64 and set(squashed[:64].upper()) <= set("XOBW*#-.E"):
        return rv().Board.from_str(t, "pasted board"), [], "board"
    start = rv().Board.start()
    return start, rv().parse_moves(t, start, "pasted move list"), "move list"


# ---------------------------------------------------------------------------- searches
class Turns:
    """``n`` turns on the processor, given in arrival order (a fair semaphore).

    A job takes a turn for each piece of its work (a root move of a hint, a depth of an
    analysis, a position of the graph) and queues again behind the others for the next:
    with more pages than turns every page gets its first line after a piece of work of
    each page ahead of it, not after their whole searches, and the processor is never
    shared by more searches than ``n``.
    """

    def __init__(self, n: int) -> None:
        self.free = n
        self.queue: deque[object] = deque()
        self.cond = threading.Condition()
        self.held = 0

    @contextmanager
    def take(self, flag: StopFlag) -> Iterator[None]:
        """Hold a turn for the block; a job whose ``flag`` is set stops queueing and runs
        the block without one (its search returns at its first look at the flag)."""
        me = object()
        got = False
        with self.cond:
            self.queue.append(me)
            while not (self.free > 0 and self.queue[0] is me):
                if flag.is_set():
                    self.queue.remove(me)
                    self.cond.notify_all()
                    break
                self.cond.wait(0.05)
            else:
                self.queue.popleft()
                self.free -= 1
                self.held += 1
                got = True
                self.cond.notify_all()
        try:
            yield
        finally:
            if got:
                with self.cond:
                    self.free += 1
                    self.held -= 1
                    self.cond.notify_all()


@dataclass
class Job:
    """One search request: its position, its settings, and its stop flag."""

    op: str
    start: Board
    moves: list[Move]
    depth: int | None
    seconds: float | None
    top: int
    limits: ReversiLimits
    flag: StopFlag = field(default_factory=StopFlag)
    why: str | None = None  # "stop" (the button) or "disconnect"; None: not asked to stop
    t0: float = 0.0
    turns: Turns | None = None
    book: bool = True
    variety: float = 0.0

    def turn(self) -> AbstractContextManager[None]:
        """A turn on the processor for the next piece of work (see :class:`Turns`)."""
        return nullcontext() if self.turns is None else self.turns.take(self.flag)

    @property
    def board(self) -> Board:
        b = self.start
        for m in self.moves:
            b = b.play(m)
        return b

    def stop(self, why: str) -> None:
        if self.why is None:
            self.why = why
        self.flag.set()

    def stop_reason(self) -> str | None:
        """Why the search stopped early: the client's reason, or ``time`` (the cap)."""
        return self.why or ("time" if self.flag.is_set() else None)

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def wall(self, depth: int | None = None, seconds: float | None = None) -> Limit:
        """A limit of ``depth`` plies within the request's wall-time cap (and ``seconds``
        from now, if given), with the request's stop flag."""
        left = self.limits.max_seconds - self.elapsed()
        if seconds is not None:
            left = min(left, seconds)
        return Limit(depth=depth, time=max(left, 1e-3), clock="wall", stop=self.flag)


def _int(msg: dict[str, Any], name: str, lo: int, hi: int, cap: str = "") -> int | None:
    v = msg.get(name)
    if v is None or v == "":
        return None
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        try:
            v = int(v)
        except ValueError:  # a digit int() does not take ("²"), or thousands of digits
            raise Refused(400, f"{name} {_shown(v)}: not a whole number", name) from None
    if isinstance(v, bool) or not isinstance(v, int):
        raise Refused(400, f"{name} {_shown(v)}: not a whole number", name)
    if not lo <= v <= hi:
        raise Refused(400, f"{name} {_shown(v)}: expected {lo}..{hi}{cap}", name)
    return v


def _number(msg: dict[str, Any], name: str, lo: float, hi: float, unit: str,
            cap: str = "") -> float | None:
    """The number ``msg[name]`` in ``lo..hi`` (None when absent); 400 naming the field."""
    v = msg.get(name)
    if v is None or v == "":
        return None
    try:
        x = float(v)
    except (TypeError, ValueError, OverflowError):
        raise Refused(400, f"{name} {_shown(v)}: not a number of {unit}", name) from None
    if not math.isfinite(x) or not lo <= x <= hi:
        raise Refused(400, f"{name} {_shown(v)}: expected {lo:g}..{hi:g} {unit}{cap}", name)
    return x


def _seconds(msg: dict[str, Any], hi: float) -> float | None:
    return _number(msg, "time", 0.05, hi, "seconds", " (this server's cap per request)")


def _shown(v: Any) -> str:
    """A request's value as its message quotes it: repr, on one line, at most 40 characters."""
    text = " ".join(repr(v).split())
    return text if len(text) <= 40 else text[:37] + "..."


def _flag(msg: dict[str, Any], name: str, default: bool) -> bool:
    v = msg.get(name)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise Refused(400, f"{name} {_shown(v)}: expected true or false", name)
    return v


#: Most discs below the best a book move chosen for variety may be.
MAX_VARIETY = 8.0


def _variety(msg: dict[str, Any]) -> float:
    if isinstance(msg.get("variety"), bool):  # float(True) is 1: not a number of discs
        raise Refused(400, f"variety {msg['variety']!r}: expected 0..{MAX_VARIETY:g} discs",
                      "variety")
    return _number(msg, "variety", 0, MAX_VARIETY, "discs") or 0.0


def decode_message(raw: str) -> Any:
    """One WebSocket message's JSON; :class:`Refused` (413, 400) when too long or not
    JSON (nested too deeply for the parser included: a RecursionError ended the socket)."""
    if len(raw) > MAX_TEXT:
        raise Refused(413, f"request: {len(raw):,} characters, at most {MAX_TEXT:,}", "op")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise Refused(400, "request: not JSON", "op") from None


def parse_request(msg: Any, limits: ReversiLimits) -> Job:
    """Check one WebSocket request; :class:`Refused` (400) names the bad field."""
    if not isinstance(msg, dict):
        raise Refused(400, "request: expected a JSON object", "op")
    op = msg.get("op")
    if op not in OPS or op == "stop":
        raise Refused(400, f"op {op!r}: expected one of {', '.join(OPS)}", "op")
    start, moves = _game(msg.get("start"), msg.get("moves"))
    cap = " (this server's cap per request)"
    depth = _int(msg, "depth", 1, limits.max_depth, cap)
    seconds = _seconds(msg, limits.max_seconds)
    top = _int(msg, "top", 1, 64) or 4
    job = Job(op, start, moves, depth, seconds, top, limits, book=_flag(msg, "book", True),
              variety=_variety(msg))
    board = job.board
    if op in ("reply", "hint", "analyse", "solve") and board.is_game_over():
        raise Refused(400, "the game is over: nothing to search", "moves")
    if op == "solve" and board.empties > limits.max_solve_empties:
        raise Refused(400, f"exact solve of {board.empties} empty squares: this server "
                           f"solves at most {limits.max_solve_empties} (play on, or analyse)",
                      "moves")
    if op == "graph" and depth is not None and depth > limits.max_graph_depth:
        raise Refused(400, f"depth {depth}: the evaluation graph searches at most "
                           f"{limits.max_graph_depth} plies per position", "depth")
    return job


def end_empties(depth: int | None, seconds: float | None) -> int:
    """The engine solves exactly from this many empty squares (deeper levels sooner)."""
    if seconds is not None:
        return 14 if seconds < 2 else 18
    return min((depth or 1) + 8, 18)


def _nps(nodes: int, seconds: float) -> int:
    return int(nodes / seconds) if seconds > 0 else 0


def _result_fields(r: SearchResult) -> dict[str, Any]:
    return {"move": None if r.move is None else str(r.move), "score": r.score,
            "exact": r.exact, "depth": r.depth, "pv": r.pv_string(), "nodes": r.nodes}


Emit = Callable[[dict[str, Any]], None]


def _progress(job: Job, emit: Emit, nodes0: int = 0) -> Callable[[Progress], None]:
    """Progress of :func:`search` / :func:`solve` as ``search`` / ``solve`` lines."""
    def report(p: Progress) -> None:
        info: dict[str, Any] = dict(p.info)
        nodes = nodes0 + int(info.get("nodes", 0))
        line: dict[str, Any] = {"type": p.task, "nodes": nodes, "seconds": job.elapsed(),
                                "nps": _nps(nodes, job.elapsed()), "score": p.best}
        if p.task == "search":
            line.update(depth=p.done, move=info.get("move"), pv=info.get("move"))
        else:
            window = info.get("window")
            line.update(done=p.done, total=p.total,
                        window=list(window) if window is not None else None)
        emit(line)
    return report


def _finish(job: Job, **fields: Any) -> dict[str, Any]:
    seconds = job.elapsed()
    nodes = int(fields.get("nodes", 0))
    return {"type": "result", "op": job.op, "seconds": seconds, "nps": _nps(nodes, seconds),
            "stopped": job.stop_reason() is not None, "why": job.stop_reason(), **fields}


def run_reply(job: Job, emit: Emit) -> dict[str, Any]:
    """The engine's move at the job's level."""
    b = job.board
    legal = b.legal_moves()
    if legal == [rv().PASS] or len(legal) == 1:
        why = "must pass" if legal == [rv().PASS] else "only move"
        return _finish(job, move=str(legal[0]), score=None, exact=False, depth=0, pv="",
                       nodes=0, note=why)
    if job.book:
        found = rv().book_move(b, job.variety)
        if found is not None:
            move, value, n = found
            return _finish(job, move=str(move), score=value, exact=False, depth=0, pv="",
                           nodes=0, book=True,
                           note=f"book move ({value:+.2f}; the book values {n} moves here)")
    with job.turn():
        if b.empties <= end_empties(job.depth, job.seconds):
            r = rv().solve(b, job.wall(), progress=_progress(job, emit))
            note = f"exact {r.score:+.0f}" if r.exact else "solve stopped"
        elif job.seconds is not None:
            r = rv().search(b, job.wall(seconds=job.seconds), progress=_progress(job, emit))
            note = f"{r.score:+.2f} at depth {r.depth} in {job.seconds:g} s"
        else:
            r = rv().search(b, job.wall(job.depth or 1), progress=_progress(job, emit))
            note = f"{r.score:+.2f} at depth {r.depth}"
    if job.seconds is not None and job.why is None:
        job.flag.clear()  # the level's own clock ran out, not a stop: a normal move
    return _finish(job, **_result_fields(r), note=note)


def _value_of(job: Job, child: Board, depth: int) -> tuple[float, bool, int, str, int]:
    """A root move's value from below it: (score for the mover, exact, depth, line after
    the move, nodes)."""
    if child.is_game_over():
        return float(-child.score()), True, 0, "", 0
    if child.empties <= end_empties(depth, None):
        r = rv().solve(child, job.wall())
        return -r.score, r.exact, child.empties, r.pv_string(), r.nodes
    if depth <= 1:
        return -rv().evaluate(child), False, 1, "", 1
    r = rv().search(child, job.wall(depth - 1))
    return -r.score, r.exact, r.depth + 1, r.pv_string(), r.nodes


def run_hint(job: Job, emit: Emit) -> dict[str, Any]:
    """Every legal move valued (``depth`` plies), streamed, then the best ``top``."""
    b = job.board
    depth = job.depth or 8
    legal = [m for m in b.legal_moves() if not m.is_pass]
    if not legal:  # a pass: the hint is the pass
        return _finish(job, moves=[{"move": "PS", "score": None, "exact": False, "depth": 0,
                                    "pv": "PS"}], nodes=0)
    order = sorted(legal, key=lambda m: rv().evaluate(b.play(m)))  # likely best first
    found: list[dict[str, Any]] = []
    nodes = 0
    for k, m in enumerate(order, 1):
        with job.turn():
            score, exact, d, pv, n = _value_of(job, b.play(m), depth)
        nodes += n
        if job.flag.is_set():
            break
        line = {"move": str(m), "score": score, "exact": exact, "depth": d,
                "pv": " ".join([str(m), pv]).strip()}
        found.append(line)
        emit({"type": "search", **line, "done": k, "total": len(order), "nodes": nodes,
              "seconds": job.elapsed(), "nps": _nps(nodes, job.elapsed())})
    found.sort(key=lambda x: -x["score"])
    return _finish(job, moves=found[:job.top], evaluated=len(found), total=len(order),
                   nodes=nodes)


def run_analyse(job: Job, emit: Emit) -> dict[str, Any]:
    """Iterative deepening, one ``search`` line (with the best line) per depth."""
    b = job.board
    last: dict[str, Any] | None = None
    nodes = 0
    for d in range(1, (job.depth or job.limits.max_depth) + 1):
        if job.flag.is_set():
            break
        with job.turn():
            left = None if job.seconds is None else job.seconds - job.elapsed()
            r = rv().search(b, job.wall(d, left))
        nodes += r.nodes
        if r.stopped:
            break
        last = {**_result_fields(r), "depth": r.depth}
        emit({"type": "search", **last, "nodes": nodes, "seconds": job.elapsed(),
              "nps": _nps(nodes, job.elapsed())})
        if r.exact:
            break
    out = _finish(job, best=last, nodes=nodes)
    if job.seconds is not None and job.why is None:
        out.update(stopped=False, why=None)  # the asked time was used up: done
    return out


def run_solve(job: Job, emit: Emit) -> dict[str, Any]:
    """The exact final disc difference, with progress after each root move."""
    with job.turn():
        r = rv().solve(job.board, job.wall(seconds=job.seconds),
                       progress=_progress(job, emit))
    return _finish(job, **_result_fields(r), empties=job.board.empties)


def run_graph(job: Job, emit: Emit) -> dict[str, Any]:
    """Each position of the game valued for black (``depth`` plies, exact at the end)."""
    depth = job.depth or 4
    boards = _boards(job.start, job.moves)
    points: list[dict[str, Any]] = []
    nodes = 0
    for k, b in enumerate(boards):
        if job.flag.is_set():
            break
        if b.is_game_over():
            value, exact = float(b.black_score()), True
        else:
            with job.turn():
                r = rv().search(b, job.wall(depth))
            if r.stopped:
                break
            nodes += r.nodes
            value = r.score if b.side == rv().BLACK else -r.score
            exact = r.exact
        point = {"ply": k, "black": value, "exact": exact}
        points.append(point)
        emit({"type": "point", **point, "done": k + 1, "total": len(boards)})
    return _finish(job, points=points, depth=depth, nodes=nodes)


RUNNERS: dict[str, Callable[[Job, Emit], dict[str, Any]]] = {
    "reply": run_reply, "hint": run_hint, "analyse": run_analyse, "solve": run_solve,
    "graph": run_graph}


class Engine:
    """The pool of search threads and its admission: ``searches`` run, ``waiting`` wait."""

    def __init__(self, limits: ReversiLimits) -> None:
        self.limits = limits
        # a thread for every admitted job; Turns lets ``searches`` of them search at once
        self.pool = ThreadPoolExecutor(max_workers=limits.searches + limits.waiting,
                                       thread_name_prefix="gameopt-reversi")
        self.turns = Turns(limits.searches)
        self.lock = threading.Lock()
        self.pending = 0  # admitted and not finished: running or waiting
        self.running = 0
        self.counts: Counter[str] = Counter()
        self.warmed = False
        self.ready = threading.Event()

    def warm(self) -> None:
        """Load the search kernels once, in the background (at the first page view), so
        that a request's time cap never counts numba's loading or compiling."""
        with self.lock:
            if self.warmed:
                return
            self.warmed = True

        def body() -> None:
            try:
                b = rv().Board.from_moves("f5d6c3d3c4f4f6f3e6e7")
                rv().search(b, Limit(depth=2))
                rv().evaluate(b)
                rv().shipped_book()
            finally:
                self.ready.set()
        threading.Thread(target=body, name="gameopt-reversi-warm", daemon=True).start()

    def admit(self) -> None:
        with self.lock:
            if self.pending >= self.limits.searches + self.limits.waiting:
                self.counts["refused"] += 1
                raise Refused(503, f"the server is busy: {self.pending} searches in progress "
                                   "(the most it takes); try again in a few seconds")
            self.pending += 1

    def run(self, job: Job, emit: Emit) -> None:
        """In a pool thread: the job's search, its lines and its final line."""
        with self.lock:
            self.running += 1
        self.warm()
        self.ready.wait()
        job.t0 = time.perf_counter()
        job.turns = self.turns
        final: dict[str, Any]
        try:
            if job.flag.is_set():  # stopped while waiting
                final = _finish(job, nodes=0)
            else:
                final = RUNNERS[job.op](job, emit)
        except GameoptError as e:
            final = Refused(400, str(e)).json()
        except Exception:  # a bug must not kill the page's socket
            log.exception("Othello search %s failed", job.op)
            final = Refused(500, "the search failed (a bug; the server's log has the "
                                 "details)").json()
        finally:
            with self.lock:
                self.running -= 1
                self.pending -= 1
                self.counts["finished"] += 1
                why = job.stop_reason()
                if why:
                    self.counts[f"stopped_{why}"] += 1
        emit(final)

    def status(self) -> dict[str, Any]:
        with self.lock:
            return {"running": self.running, "waiting": self.pending - self.running,
                    "searching": self.turns.held,
                    "searches": self.limits.searches, "max_waiting": self.limits.waiting,
                    "max_depth": self.limits.max_depth,
                    "max_seconds": self.limits.max_seconds,
                    "max_solve_empties": self.limits.max_solve_empties,
                    **dict(self.counts)}


# ---------------------------------------------------------------------------- routes
def _json_error(e: Refused) -> JSONResponse:
    return JSONResponse({"error": e.message, "field": e.field}, status_code=e.status,
                        headers=SECURITY_HEADERS)


def _check_csrf(request: Request) -> None:
    sent = request.headers.get("x-csrf-token", "")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    if not sent or not cookie or not hmac.compare_digest(sent, cookie):
        raise Refused(403, "request expired or sent from another site (CSRF check failed); "
                           "reload the page")


async def _body(request: Request) -> dict[str, Any]:
    _check_csrf(request)
    try:
        data = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "request body: not JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "request body: expected a JSON object")
    return data


def _page(engine: Engine) -> Callable[[Request], Response]:
    def page(request: Request) -> Response:
        q = request.query_params
        try:
            start, moves = _game(q.get("start"), q.get("moves"))
        except Refused as e:
            raise InvalidInputError(e.message) from None
        engine.warm()
        return render(request, "reversi/index.html", {
            "game": json.dumps(state(start, moves)), "limits": engine.limits})
    return page


async def api_state(request: Request) -> Response:
    try:
        data = await _body(request)
        start, moves = _game(data.get("start"), data.get("moves"))
    except Refused as e:
        return _json_error(e)
    return JSONResponse(state(start, moves), headers=SECURITY_HEADERS)


async def api_load(request: Request) -> Response:
    try:
        data = await _body(request)
        text = _text(data.get("text"), "text")
        try:
            start, moves, kind = load_text(text)
        except InvalidInputError as e:
            raise Refused(400, str(e), "text") from None
    except Refused as e:
        return _json_error(e)
    return JSONResponse({**state(start, moves), "format": kind}, headers=SECURITY_HEADERS)


def ggf_text(start: Board, moves: list[Move], black: str, white: str,
             evals: list[float | None]) -> str:
    """The game as one GGF record (players, date, result when over, evaluations)."""
    tags = {"GM": "Othello", "PC": "gameopt web", "DT": datetime.now(UTC).strftime(
        "%Y.%m.%d_%H:%M:%S.UTC"), "PB": black, "PW": white, "TY": "8"}
    end = _boards(start, moves)[-1]
    if end.is_game_over():
        tags["RE"] = f"{end.black_score():+d}"
    game = rv().GgfGame(start, tuple(moves), tags, tuple(evals), where="game")
    return str(rv().format_ggf(game)) + "\n"


def _evals(text: str, n: int) -> list[float | None]:
    if not text.strip():
        return []
    out: list[float | None] = []
    for k, part in enumerate(text.split(","), 1):
        if part.strip() == "":
            out.append(None)
            continue
        try:
            x = float(part)
        except ValueError:
            raise InvalidInputError(f"evals: value {k} {part!r} is not a number") from None
        if not math.isfinite(x):
            raise InvalidInputError(f"evals: value {k} {part!r} is not a finite number")
        out.append(x)
    if len(out) != n:
        raise InvalidInputError(f"evals: {len(out)} values for {n} moves")
    return out


def download_ggf(request: Request) -> Response:
    q = request.query_params
    try:
        start, moves = _game(q.get("start"), q.get("moves"))
        black = _text(q.get("black"), "black", 40) or "black"
        white = _text(q.get("white"), "white", 40) or "white"
    except Refused as e:
        raise InvalidInputError(e.message) from None
    body = ggf_text(start, moves, black, white, _evals(q.get("evals", ""), len(moves)))
    return Response(body, media_type="text/plain; charset=utf-8", headers={
        "Content-Disposition": 'attachment; filename="gameopt-othello.ggf"',
        **SECURITY_HEADERS})


def _status(engine: Engine) -> Callable[[Request], Response]:
    def status(request: Request) -> Response:
        return JSONResponse(engine.status(), headers=SECURITY_HEADERS)
    return status


def _allowed(ws: WebSocket) -> str | None:
    """Why the socket is refused (another site's page, or the desk's login), else None."""
    origin = ws.headers.get("origin")
    host = ws.headers.get("host", "")
    if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
        return f"origin {origin} is not this server"
    token = getattr(ws.app.state, "token", None)
    if token is not None and not hmac.compare_digest(ws.cookies.get(AUTH_COOKIE, ""),
                                                     auth_value(token)):
        return "director's token required; log in first"
    return None


async def _send(ws: WebSocket, line: dict[str, Any]) -> bool:
    """Send a line; False once the client is gone."""
    if ws.client_state != WebSocketState.CONNECTED:
        return False
    try:
        await ws.send_text(json.dumps(line, allow_nan=False))
    except Exception:  # noqa: BLE001 - closed under us (each server says it differently)
        return False
    return True


async def _serve_job(ws: WebSocket, engine: Engine, job: Job) -> None:
    """Run ``job`` on the pool and forward its lines; a vanished client stops it."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def emit(line: dict[str, Any]) -> None:  # from the search thread
        try:
            loop.call_soon_threadsafe(queue.put_nowait, line)
        except RuntimeError:  # the loop is gone (server shutting down)
            job.stop("disconnect")

    loop.run_in_executor(engine.pool, engine.run, job, emit)
    while True:
        line = await queue.get()
        if not await _send(ws, line):
            job.stop("disconnect")
            return
        if line["type"] in ("result", "error"):
            return


def _socket(engine: Engine) -> Callable[[WebSocket], Any]:
    async def socket(ws: WebSocket) -> None:
        why = _allowed(ws)
        if why is not None:
            await ws.close(code=1008, reason=why)
            return
        await ws.accept()
        job: Job | None = None
        task: asyncio.Task[None] | None = None
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = (message.get("bytes") or b"").decode("utf-8", "replace")
                try:
                    msg = decode_message(raw)
                    if isinstance(msg, dict) and msg.get("op") == "stop":
                        if job is not None:
                            job.stop("stop")
                        continue
                    if task is not None and not task.done():
                        raise Refused(429, "a search is already running for this page; "
                                           "stop it or wait for its answer")
                    new = parse_request(msg, engine.limits)
                    engine.admit()
                except Refused as e:
                    await _send(ws, e.json())
                    continue
                job = new
                task = asyncio.create_task(_serve_job(ws, engine, job))
        finally:
            if job is not None and task is not None and not task.done():
                job.stop("disconnect")
    return socket


def routes(limits: ReversiLimits | None = None) -> list[BaseRoute]:
    """The Othello page's routes, sharing one search pool under ``limits``."""
    engine = Engine(limits or ReversiLimits.from_env(os.environ))
    return [
        Route("/reversi", _page(engine)),
        Route("/reversi/api/state", api_state, methods=["POST"]),
        Route("/reversi/api/load", api_load, methods=["POST"]),
        Route("/reversi/api/status", _status(engine)),
        Route("/reversi/game.ggf", download_ggf),
        WebSocketRoute("/reversi/ws", _socket(engine)),
    ]
