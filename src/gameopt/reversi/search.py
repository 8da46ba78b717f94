"""Search and exact solving: the library API over the numba kernels.

:func:`search` runs iterative deepening (depth 1, 2, ... as Thell's spot) of fail-soft
PVS with the bound-range transposition table; :func:`solve` computes the exact final disc
difference. Both return a :class:`SearchResult` with the move, score, principal variation,
nodes and time. Depth, node and time limits; :class:`SearchControl` stops a search cleanly
from another thread (the kernels release the GIL and look at its flag every 4096 nodes).

References
----------
Thell / spot, "Algorithm notes" (Seal Software, 2001-2007): PVS near the root, iterative
deepening, range transposition table, no ordering or hashing near the leaves.
Edax 4 (R. Delorme): the special solvers for the last empties, the stability cutoff.
"""

from __future__ import annotations

import threading
import time as _time
from dataclasses import dataclass, field

import numpy as np

from gameopt.errors import InvalidInputError
from gameopt.reversi import _endgame, _midgame, _tt
from gameopt.reversi import _params as pp
from gameopt.reversi._eval import HEURISTIC, HEURISTIC_WEIGHTS, PATTERN
from gameopt.reversi.board import PASS, Board, Move
from gameopt.reversi.weights import shipped_kernel_weights

__all__ = ["SearchParams", "SearchResult", "SearchControl", "search", "solve", "evaluate"]


@dataclass(frozen=True)
class SearchParams:
    """Search switches and sizes (defaults: the seed's heights, PVS and hashing on).

    Parameters
    ----------
    sort_height : int
        Midgame: no ordering, hashing or PVS this many plies from the horizon and below
        (the seed's 3).
    end_sort_height : int
        Exact solver: the same in empty squares (the seed's 7), at most 8.
    pvs : bool
        Principal variation search above those heights (else plain alpha-beta).
    use_tt : bool
        The transposition table above those heights.
    stability : bool
        The stability cutoff of the exact solver.
    tt_bits : int
        The table has 2**tt_bits slots of 24 bytes (20: 24 MB).
    eval_kind : int
        The evaluation: 1 (default) the trained pattern evaluation, 0 the hand-set
        heuristic (:mod:`gameopt.reversi._eval`).
    weights : numpy.ndarray or None
        int32 weights of that evaluation (None: the shipped trained weights for the
        pattern evaluation, :mod:`gameopt.reversi.weights`; the hand-set ones for the
        heuristic).
    end_search : int
        Exact solver: from this many empties, the value of each child by a 1-ply search
        with the evaluation joins the fastest-first order key (0: never).
    end_search3 : int
        Exact solver: from this many empties, a 3-ply search instead (0: never).
    end_eval_weight : int or None
        Weight of that value in the order key: ``end_eval_weight / 256`` per centi-disc,
        where one more opponent move weighs 16 (None: 64 for the heuristic, 16 for the
        trained evaluation, whose values spread wider; measured on FFO #41-#47).
    etc : int
        Exact solver: enhanced transposition cutoff (a child's stored bound proves a cut
        before any child is searched) from this many empties (0: off).
    aspiration : bool
        :func:`solve`: first a narrow window around the score the root-ordering search
        predicts, widened on failure (else the full window at once).
    end_heuristic1 : bool
        Exact solver: the 1-ply order searches (the many nodes below ``end_search3``
        empties) use the cheap heuristic whatever the evaluation; the 3-ply ones use
        ``eval_kind`` (FFO #43, #45, #46, #48 with the trained evaluation: 12 % more
        nodes, 36 % less CPU time).
    """

    sort_height: int = 3
    end_sort_height: int = 7
    pvs: bool = True
    use_tt: bool = True
    stability: bool = True
    tt_bits: int = 20
    eval_kind: int = PATTERN
    weights: np.ndarray | None = field(default=None, compare=False)
    end_search: int = 12
    end_search3: int = 20
    end_eval_weight: int | None = None
    etc: int = 10
    end_heuristic1: bool = True
    aspiration: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.sort_height <= 60:
            raise InvalidInputError(f"sort_height {self.sort_height}: expected 0..60")
        if not 4 <= self.end_sort_height <= 8:
            raise InvalidInputError(f"end_sort_height {self.end_sort_height}: expected 4..8")
        if self.eval_kind not in (HEURISTIC, PATTERN):
            raise InvalidInputError(f"eval_kind {self.eval_kind}: expected {HEURISTIC} "
                                    f"(heuristic) or {PATTERN} (patterns)")
        for name in ("end_search", "end_search3", "etc"):
            if not 0 <= getattr(self, name) <= 64:
                raise InvalidInputError(f"{name} {getattr(self, name)}: expected 0..64 empties")
        if self.end_eval_weight is not None and not 0 <= self.end_eval_weight <= 1 << 16:
            raise InvalidInputError(f"end_eval_weight {self.end_eval_weight}: expected 0..65536")
        if not 4 <= self.tt_bits <= 30:
            raise InvalidInputError(f"tt_bits {self.tt_bits}: expected 4..30")

    def array(self, node_limit: int = 0) -> np.ndarray:
        par = np.zeros(pp.N_PAR, dtype=np.int64)
        par[pp.SORT_HEIGHT] = self.sort_height
        par[pp.END_SORT_HEIGHT] = self.end_sort_height
        par[pp.PVS] = int(self.pvs)
        par[pp.USE_TT] = int(self.use_tt)
        par[pp.NODE_LIMIT] = node_limit
        par[pp.EVAL_KIND] = self.eval_kind
        par[pp.STABILITY] = int(self.stability)
        par[pp.END_SEARCH] = self.end_search
        par[pp.END_SEARCH3] = self.end_search3
        par[pp.END_EVAL_W] = (self.end_eval_weight if self.end_eval_weight is not None
                              else 16 if self.eval_kind == PATTERN else 64)
        par[pp.ETC] = self.etc
        par[pp.END_HEURISTIC1] = int(self.end_heuristic1)
        return par

    def weight_array(self) -> np.ndarray:
        if self.weights is not None:
            return np.ascontiguousarray(self.weights, dtype=np.int32)
        if self.eval_kind == PATTERN:
            return shipped_kernel_weights()
        return HEURISTIC_WEIGHTS


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    ``score`` is in discs for the side to move: exact when ``exact`` (an int), else the
    evaluation at ``depth`` plies. ``move`` is None when the game is over. ``stopped`` says a
    limit cut the last iteration short (the result is then the last completed one).
    """

    move: Move | None
    score: float
    exact: bool
    depth: int
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    stopped: bool = False

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def pv_string(self) -> str:
        return " ".join(str(m) for m in self.pv)


class SearchControl:
    """A stop switch shared with running kernels: ``stop()`` may be called from any thread."""

    def __init__(self) -> None:
        self.flag = np.zeros(1, dtype=np.uint8)

    def stop(self) -> None:
        self.flag[0] = 1

    def reset(self) -> None:
        self.flag[0] = 0

    @property
    def stopped(self) -> bool:
        return bool(self.flag[0])


class _Run:
    """One search's arrays, limits and timer."""

    def __init__(self, params: SearchParams, time_limit: float | None, node_limit: int | None,
                 control: SearchControl | None) -> None:
        if time_limit is not None and time_limit <= 0:
            raise InvalidInputError(f"time limit {time_limit}: expected > 0 seconds")
        if node_limit is not None and node_limit <= 0:
            raise InvalidInputError(f"node limit {node_limit}: expected > 0")
        self.params = params
        self.control = control or SearchControl()
        self.st = np.zeros(pp.N_ST, dtype=np.int64)
        self.par = params.array(node_limit or 0)
        self.w = params.weight_array()
        self.keys, self.data = _tt.new_table(params.tt_bits)
        self.start = _time.perf_counter()
        self.timer: threading.Timer | None = None
        if time_limit is not None:
            self.timer = threading.Timer(time_limit, self.control.stop)
            self.timer.daemon = True
            self.timer.start()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()

    @property
    def stopped(self) -> bool:
        return bool(self.st[pp.STOPPED])

    def elapsed(self) -> float:
        return _time.perf_counter() - self.start

    def mid_root(self, board: Board, depth: int, order: list[int]) -> tuple[int, np.ndarray]:
        o = np.array(order + [-1], dtype=np.int64)
        scores = np.full(len(o), -_midgame.INF, dtype=np.int64)
        v = _midgame.search_root(np.uint64(board.player), np.uint64(board.opponent), depth,
                                 -_midgame.INF, _midgame.INF, self.st, self.control.flag,
                                 self.par, self.w, self.keys, self.data, o, scores)
        return int(v), scores

    def end_value(self, P: int, O: int, alpha: int, beta: int) -> int:
        return int(_endgame.search(np.uint64(P), np.uint64(O), alpha, beta, self.st,
                                   self.control.flag, self.par, self.w, self.keys, self.data))

    def end_root(self, board: Board, order: list[int], alpha: int, beta: int
                 ) -> tuple[int, np.ndarray]:
        o = np.array(order + [-1], dtype=np.int64)
        scores = np.full(len(o), -_endgame.INF, dtype=np.int64)
        v = _endgame.solve_root(np.uint64(board.player), np.uint64(board.opponent), alpha, beta,
                                self.st, self.control.flag, self.par, self.w, self.keys,
                                self.data, o, scores)
        return int(v), scores


def evaluate(board: Board, params: SearchParams | None = None) -> float:
    """Static evaluation of the position for the side to move, in discs."""
    from gameopt.reversi._eval import evaluate as _ev
    p = params or SearchParams()
    return _ev(np.uint64(board.player), np.uint64(board.opponent), p.eval_kind,
               p.weight_array()) / 100.0


def _game_over(board: Board, start: float) -> SearchResult:
    return SearchResult(None, board.score(), True, 0, (), 0, _time.perf_counter() - start)


def _rank(order: list[int], scores: np.ndarray) -> list[int]:
    """Moves by decreasing score (stable: ties keep their previous order)."""
    idx = sorted(range(len(order)), key=lambda i: -scores[i])
    return [order[i] for i in idx]


def search(board: Board, depth: int | None = None, time: float | None = None,
           nodes: int | None = None, params: SearchParams | None = None,
           control: SearchControl | None = None) -> SearchResult:
    """Iterative-deepening PVS to ``depth`` plies (or until ``time`` s / ``nodes``).

    When the depth reaches the number of empty squares the search finishes with the exact
    solver (the result is then ``exact``). Without any limit the depth is 10.

    Raises
    ------
    InvalidInputError
        A limit that is not positive.
    """
    params = params or SearchParams()
    if depth is not None and depth < 1:
        raise InvalidInputError(f"depth {depth}: expected >= 1")
    if depth is None and time is None and nodes is None:
        depth = 10
    start = _time.perf_counter()
    moves = board.legal_moves()
    if not moves:
        return _game_over(board, start)
    if moves == [PASS]:
        sub = search(board.play(PASS), depth, time, nodes, params, control)
        return SearchResult(PASS, -sub.score, sub.exact, sub.depth, (PASS,) + sub.pv,
                            sub.nodes, _time.perf_counter() - start, sub.stopped)
    run = _Run(params, time, nodes, control)
    try:
        order = [m.square for m in moves]
        best: SearchResult | None = None
        max_depth = depth if depth is not None else 60
        for d in range(1, max_depth + 1):
            if d >= board.empties:
                res = _solve_with(run, board, order, start)
                if not res.stopped or best is None:
                    best = res
                break
            v, scores = run.mid_root(board, d, order)
            if run.stopped:
                break
            order = _rank(order, scores)
            first = Move(order[0])
            pv = (first,) + _pv_from_table(run, board.play(first), d - 1)
            best = SearchResult(first, v / 100.0, False, d, pv, int(run.st[pp.NODES]),
                                run.elapsed())
        assert best is not None or run.stopped
        if best is None:  # stopped inside depth 1: any legal move
            best = SearchResult(Move(order[0]), 0.0, False, 0, (Move(order[0]),),
                                int(run.st[pp.NODES]), run.elapsed(), True)
        return SearchResult(best.move, best.score, best.exact, best.depth, best.pv,
                            int(run.st[pp.NODES]), run.elapsed(), run.stopped)
    finally:
        run.close()


def _pv_from_table(run: _Run, board: Board, depth: int) -> tuple[Move, ...]:
    """Follow the table's best moves from ``board`` (at most ``depth`` moves)."""
    pv: list[Move] = []
    b = board
    while len(pv) < depth:
        legal = b.legal_moves()
        if not legal:
            break
        if legal == [PASS]:
            pv.append(PASS)
            b = b.play(PASS)
            continue
        slot = _tt.probe(run.keys, np.uint64(b.player), np.uint64(b.opponent))
        square = int(run.data[slot, _tt.MOVE]) if slot >= 0 else -1
        if square < 0 or Move(square) not in legal:
            break
        mv = Move(square)
        pv.append(mv)
        b = b.play(mv)
    return tuple(pv)


def solve(board: Board, time: float | None = None, nodes: int | None = None,
          params: SearchParams | None = None, control: SearchControl | None = None,
          alpha: int = -64, beta: int = 64) -> SearchResult:
    """Exact final disc difference with perfect play, the best move and a principal variation.

    Root moves are ordered by a shallow midgame search, then solved by PVS with the
    window (alpha, beta) (default the full -64..64: the score is exact).

    Raises
    ------
    InvalidInputError
        A bad limit or window.
    """
    if not -64 <= alpha < beta <= 64:
        raise InvalidInputError(f"window ({alpha}, {beta}): expected -64 <= alpha < beta <= 64")
    params = params or SearchParams()
    start = _time.perf_counter()
    moves = board.legal_moves()
    if not moves:
        return _game_over(board, start)
    if moves == [PASS]:
        sub = solve(board.play(PASS), time, nodes, params, control, -beta, -alpha)
        return SearchResult(PASS, -sub.score, True, sub.depth, (PASS,) + sub.pv, sub.nodes,
                            _time.perf_counter() - start, sub.stopped)
    run = _Run(params, time, nodes, control)
    try:
        order = [m.square for m in moves]
        shallow = min(board.empties - 10, 6)
        guess = None
        if shallow >= 2:  # order the root by a shallow search, which also guesses the score
            g, scores = run.mid_root(board, shallow, order)
            order = _rank(order, scores)
            guess = 2 * round(g / 200)  # centi-discs -> discs, even like every final score
        return _solve_with(run, board, order, start, alpha, beta,
                           guess if params.aspiration else None)
    finally:
        run.close()


def _solve_with(run: _Run, board: Board, order: list[int], start: float, alpha: int = -64,
                beta: int = 64, guess: int | None = None) -> SearchResult:
    """Solve within (alpha, beta): at once, or from the window (guess - 1, guess + 1).

    Final scores are even, so that window decides whether the score is exactly ``guess``;
    on a fail-low (fail-high) the fail-soft bound moves the window below (above) it, its
    width doubling each time. The table keeps every proven bound between the searches.
    """
    lo, hi, step = alpha, beta, 2
    if guess is not None:
        guess = min(max(guess, alpha + 1), beta - 1)
        lo, hi = max(alpha, guess - 1), min(beta, guess + 1)
    while True:
        v, scores = run.end_root(board, order, lo, hi)
        if run.stopped:
            return SearchResult(Move(order[0]), 0.0, False, 0, (), int(run.st[pp.NODES]),
                                run.elapsed(), True)
        if v <= lo and lo > alpha:      # fail low: the score is at most v
            hi, lo = v + 1, max(alpha, v - step)
        elif v >= hi and hi < beta:     # fail high: at least v
            lo, hi = v - 1, min(beta, v + step)
        else:
            break
        step *= 2
        best = [order[i] for i in range(len(order)) if scores[i] == v]
        if best:  # the move that gave the bound first in the next search
            order = best[:1] + [s for s in order if s != best[0]]
    best = [order[i] for i in range(len(order)) if scores[i] == v]
    move = Move(best[0]) if best else Move(order[0])
    pv = _exact_pv(run, board.play(move), -v) if alpha < v < beta else ()
    return SearchResult(move, v, True, board.empties, (move,) + pv, int(run.st[pp.NODES]),
                        run.elapsed())


def _exact_pv(run: _Run, board: Board, value: int) -> tuple[Move, ...]:
    """A principal variation from ``board`` whose exact value is ``value``, move by move.

    At each ply the move kept is one whose child value is exactly ``-value`` (checked by a
    window (value - 1, value + 1) around it; the table from the solve makes this cheap).
    """
    pv: list[Move] = []
    b = board
    while not run.stopped:
        legal = b.legal_moves()
        if not legal:
            break
        if legal == [PASS]:
            pv.append(PASS)
            b = b.play(PASS)
            value = -value
            continue
        for mv in legal:
            c = b.play(mv)
            child = run.end_value(c.player, c.opponent, -value - 1, -value + 1)
            if child == -value:
                pv.append(mv)
                b = c
                value = -value
                break
        else:  # cannot happen for an exact value; stop rather than loop
            break
    return tuple(pv)
