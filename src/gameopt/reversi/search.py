"""Search and exact solving: the library API over the numba kernels.

:func:`search` runs iterative deepening (depth 1, 2, ... as Thell's spot) of fail-soft
PVS with the bound-range transposition table; :func:`solve` computes the exact final disc
difference. Both return a :class:`SearchResult` with the move, score, principal variation,
nodes and time. Both take a :class:`gameopt.core.Limit` (depth, time on a named clock,
nodes, an external stop flag) and report progress through a callback; the kernels release
the GIL and look at the limit's stop flag every 4096 nodes (a watchdog sets it at the
deadline).

References
----------
Thell / spot, "Algorithm notes" (Seal Software, 2001-2007): PVS near the root, iterative
deepening, range transposition table, no ordering or hashing near the leaves.
Edax 4 (R. Delorme): the special solvers for the last empties, the stability cutoff.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

import numpy as np

from gameopt.core import Limit, Progress, ProgressCallback, check_seconds
from gameopt.errors import InvalidInputError
from gameopt.reversi import _endgame, _eval, _midgame, _tt
from gameopt.reversi import _params as pp
from gameopt.reversi._bitboard import flips
from gameopt.reversi._eval import HEURISTIC_WEIGHTS
from gameopt.reversi.board import PASS, Board, Move
from gameopt.reversi.probcut import MpcTable, shipped_mpc
from gameopt.reversi.weights import check_kernel_table, shipped_kernel_weights

__all__ = ["EvalKind", "SearchParams", "SearchResult", "SearchTable", "search", "solve",
           "evaluate", "selective_params", "LAZY_BY_TIME"]

#: the network's lazy-evaluation margin (centi-discs) when a search is by time and its
#: params leave ``net_margin`` unset: 3 discs, the README's measurement (0.64x the full
#: network's CPU at depth 11 with Multi-ProbCut, the full network's move in 174/180)
LAZY_BY_TIME = 300


class EvalKind(IntEnum):
    """The static evaluations the search kernels know (the kernels take the int value).

    HEURISTIC is the hand-set evaluation (mobility, potential mobility, corners, X- and
    C-squares, stable discs, discs); PATTERN the trained pattern evaluation of
    :mod:`gameopt.reversi.patterns` (after Buro, "Experiments with Multi-ProbCut and a New
    High-Quality Evaluation Function for Othello").
    """

    HEURISTIC = _eval.HEURISTIC
    PATTERN = _eval.PATTERN


def flipped(P: int, O: int, s: int) -> int:
    """The discs P flips by playing on s (the kernel's answer as a Python int)."""
    return int(flips(np.uint64(P), np.uint64(O), s))


@dataclass(frozen=True)
class SearchParams:
    """Search switches and sizes (defaults: the heights of Thell's spot notes, PVS and hashing
    on).

    Parameters
    ----------
    sort_height : int
        Midgame: no ordering, hashing or PVS this many plies from the horizon and below
        (spot's 3).
    shallow_order : int
        Midgame: the plain nodes from this many plies from the horizon up to 3 search their
        moves fastest first (fewest replies), the rest of the plain nodes in square order
        (0: square order everywhere; the value does not change, the nodes do).
    end_sort_height : int
        Exact solver: no hashing at this many empty squares and below (spot's 7; 9 here,
        4..10): from 8 empties up moves in fastest-first order, below in parity order.
    pvs : bool
        Principal variation search above those heights (else plain alpha-beta).
    use_tt : bool
        The transposition table above those heights.
    stability : bool
        The stability cutoff of the exact solver.
    tt_bits : int
        The table has 2**tt_bits slots of 32 bytes (20: 32 MB).
    eval_kind : EvalKind
        The evaluation: ``EvalKind.PATTERN`` (default) the trained pattern evaluation,
        ``EvalKind.HEURISTIC`` the hand-set heuristic (an int 0/1 is accepted).
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
        where one more opponent move weighs 16 (None: 64 for the heuristic, 32 for the
        trained evaluation, whose values spread wider; see ``benchmarks/``).
    etc : int
        Exact solver: enhanced transposition cutoff (a child's stored bound proves a cut
        before any child is searched) from this many empties (0: off; it acts only above
        ``end_sort_height + 1``, where the children are in the table).
    aspiration : bool
        :func:`solve`: first a narrow window around the score the root-ordering search
        predicts, widened on failure (else the full window at once).
    mpc : bool or None
        :func:`search`: Multi-ProbCut in the midgame (selective; Buro), with the
        regressions of ``mpc_table``. None (the default): on when the search is limited
        by time and not by depth (play, matches, NBoard and analysis by time: it measured
        +129 Elo at 0.1 s a move in self-play, see the README), off at a fixed depth.
        The exact solver is never selective.
    mpc_t : float
        Its confidence: a node is cut when the shallow search puts the deep value
        ``mpc_t`` standard deviations beyond the window (0..10). The default 1.8 (1.5
        until stop 69) leaned ahead of 1.5 on a 12 s game clock, against Zebra and in
        self-play (see the README).
    mpc_t_short : float
        The confidence a timed move uses instead when its time control is short
        (:meth:`gameopt.reversi.timing.TimeControl.short`: midgame moves of less than
        0.2 s; 0..10). The default 1.5 leaned ahead of 1.8 on a 2.2 s game clock against
        Zebra (stop 70, see the README).
    mpc_table : MpcTable or None
        The cut pairs and regressions (None: the shipped ones,
        :func:`gameopt.reversi.probcut.shipped_mpc`).
    mpc_nest : int
        How deep Multi-ProbCut nests: 1, the shallow searches that test a cut are full
        width; 2, they are Multi-ProbCut searches themselves (whose own tests are full
        width), as Buro's and Edax's are.
    end_selectivity : tuple of float
        :func:`solve`: the confidences t of selective passes run before the exact one
        (rising; empty: none). Each pass is the solver with ProbCut at nodes of
        ``end_sel_min`` empties and more (a node is cut when a shallow search puts the
        score ``t`` deviations beyond the window); it leaves its best moves in the table
        and its score as the next pass's aspiration guess. Its bounds are stored at a
        table depth of their own, so the exact pass never reads them: the answer stays
        exact.
    end_sel_min : int
        Empties from which a selective pass tries ProbCut.
    end_sel_d4 : int
        Empties from which its shallow search is 4 plies deep (else 2).
    end_sel_sigma : tuple of int
        ``(s0, s1, s0', s1')``: the deviation of the exact score from the shallow value at
        ``e`` empties is taken as ``s0 + s1 e`` centi-discs after a 2-ply search,
        ``s0' + s1' e`` after a 4-ply one.
    end_sel_bias : tuple of int
        The exact score minus the shallow value on average, centi-discs, with an even and
        an odd number of empties (the side to move at odd empties has the last move).
    end_root_depth : int
        :func:`solve`: the depth of the midgame search that orders the root moves and
        guesses the score (the aspiration window), at most ``empties - 10`` plies (2..20;
        below 2 plies no such search).
    net_margin : int or None
        Midgame, with a weights table that carries a network
        (:mod:`gameopt.reversi.network`): lazy evaluation, in centi-discs. A leaf whose
        pattern value lies this far or farther outside the search window skips the
        network and returns that value moved ``net_margin`` toward the window (exact while
        the network's output stays within ±net_margin; see the README for how often it
        does). 0: the network at every leaf. None (the default): like ``mpc``,
        :data:`LAZY_BY_TIME` when :func:`search` is limited by time and not by depth,
        else 0. No effect without a network.
    net_max_empties : int
        Midgame, with a network: positions with more empties than this are evaluated by
        the patterns alone (the network's gain is in the later stages; 0, the default:
        the network at any number of empties).
    end_heuristic1 : bool
        Exact solver: the 1-ply order searches (the many nodes below ``end_search3``
        empties) use the cheap heuristic whatever the evaluation; the 3-ply ones use
        ``eval_kind`` (with the trained evaluation: a few more nodes, much less time; the
        figures are in the README).
    """

    sort_height: int = 3
    shallow_order: int = 2
    end_sort_height: int = 9
    pvs: bool = True
    use_tt: bool = True
    stability: bool = True
    tt_bits: int = 20
    eval_kind: EvalKind = EvalKind.PATTERN
    weights: np.ndarray | None = field(default=None, compare=False)
    end_search: int = 16
    end_search3: int = 20
    end_eval_weight: int | None = None
    etc: int = 11
    end_heuristic1: bool = True
    aspiration: bool = True
    mpc: bool | None = None
    mpc_t: float = 1.8
    mpc_t_short: float = 1.5
    mpc_table: MpcTable | None = field(default=None, compare=False)
    mpc_nest: int = 1
    end_selectivity: tuple[float, ...] = ()
    end_sel_min: int = 14
    end_sel_d4: int = 18
    end_sel_sigma: tuple[int, int, int, int] = (650, 15, 420, 17)
    end_sel_bias: tuple[int, int] = (50, 380)
    end_root_depth: int = 8
    net_margin: int | None = None
    net_max_empties: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.sort_height <= 60:
            raise InvalidInputError(f"sort_height {self.sort_height}: expected 0..60")
        if not 0 <= self.shallow_order <= 3:
            raise InvalidInputError(f"shallow_order {self.shallow_order}: expected 0..3")
        if not 4 <= self.end_sort_height <= 10:
            raise InvalidInputError(f"end_sort_height {self.end_sort_height}: expected 4..10")
        if self.eval_kind not in (0, 1) or isinstance(self.eval_kind, bool):
            raise InvalidInputError(f"eval_kind {self.eval_kind!r}: expected "
                                    "EvalKind.HEURISTIC (0) or EvalKind.PATTERN (1)")
        object.__setattr__(self, "eval_kind", EvalKind(self.eval_kind))
        for name in ("end_search", "end_search3", "etc"):
            if not 0 <= getattr(self, name) <= 64:
                raise InvalidInputError(f"{name} {getattr(self, name)}: expected 0..64 empties")
        if self.end_eval_weight is not None and not 0 <= self.end_eval_weight <= 1 << 16:
            raise InvalidInputError(f"end_eval_weight {self.end_eval_weight}: expected 0..65536")
        if not 4 <= self.tt_bits <= 30:
            raise InvalidInputError(f"tt_bits {self.tt_bits}: expected 4..30")
        for name in ("mpc_t", "mpc_t_short"):
            if not 0 <= getattr(self, name) <= 10:
                raise InvalidInputError(f"{name} {getattr(self, name)}: expected 0..10")
        if self.mpc_nest not in (1, 2) or isinstance(self.mpc_nest, bool):
            raise InvalidInputError(f"mpc_nest {self.mpc_nest!r}: expected 1 or 2")
        object.__setattr__(self, "end_selectivity", tuple(self.end_selectivity))
        for t in self.end_selectivity:
            if not 0 < t <= 10:
                raise InvalidInputError(f"end_selectivity {t}: expected 0 < t <= 10")
        if self.net_margin is not None and not 0 <= self.net_margin <= 6400:
            raise InvalidInputError(f"net_margin {self.net_margin}: expected 0..6400 "
                                    "centi-discs")
        if not 0 <= self.net_max_empties <= 60:
            raise InvalidInputError(f"net_max_empties {self.net_max_empties}: expected "
                                    "0..60 empties")
        if not 2 <= self.end_root_depth <= 20:
            raise InvalidInputError(f"end_root_depth {self.end_root_depth}: expected 2..20")
        for name in ("end_sel_min", "end_sel_d4"):
            if not 9 <= getattr(self, name) <= 64:
                raise InvalidInputError(f"{name} {getattr(self, name)}: expected 9..64 empties")
        for name, n in (("end_sel_sigma", 4), ("end_sel_bias", 2)):
            x = tuple(getattr(self, name))
            if len(x) != n or not all(-6400 <= v <= 6400 for v in x):
                raise InvalidInputError(f"{name} {x}: expected {n} centi-disc figures "
                                        "-6400..6400")
            object.__setattr__(self, name, x)

    def array(self, node_limit: int = 0) -> np.ndarray:
        par = np.zeros(pp.N_PAR, dtype=np.int64)
        par[pp.SORT_HEIGHT] = self.sort_height
        par[pp.SHALLOW_ORDER] = self.shallow_order
        par[pp.END_SORT_HEIGHT] = self.end_sort_height
        par[pp.PVS] = int(self.pvs)
        par[pp.USE_TT] = int(self.use_tt)
        par[pp.NODE_LIMIT] = node_limit
        par[pp.EVAL_KIND] = int(self.eval_kind)
        par[pp.STABILITY] = int(self.stability)
        par[pp.END_SEARCH] = self.end_search
        par[pp.END_SEARCH3] = self.end_search3
        par[pp.END_EVAL_W] = (self.end_eval_weight if self.end_eval_weight is not None
                              else 32 if self.eval_kind == EvalKind.PATTERN else 64)
        par[pp.ETC] = self.etc
        par[pp.END_HEURISTIC1] = int(self.end_heuristic1)
        par[pp.END_SEL_MIN] = self.end_sel_min
        par[pp.END_SEL_D4] = self.end_sel_d4
        par[pp.END_SEL_S0:pp.END_SEL_S0 + 4] = self.end_sel_sigma
        par[pp.END_SEL_B0:pp.END_SEL_B0 + 2] = self.end_sel_bias
        par[pp.NET_LAZY] = self.net_margin or 0
        par[pp.NET_MAX_EMPTIES] = self.net_max_empties
        table = self.mpc_table if self.mpc_table is not None else shipped_mpc()
        if self.mpc and table is not None:
            par[pp.MPC] = self.mpc_nest
            par[pp.MPC_T] = round(100 * self.mpc_t)
            par[pp.MPC_BASE:pp.MPC_END] = table.kernel_block()
        return par

    def weight_array(self) -> np.ndarray:
        """The kernels' weights table, always read-only (a writable table is viewed
        read-only, not copied): numba compiles read-only and writable arrays as two types,
        so one flag keeps the search kernels to one compiled version per process and cache.
        """
        if self.weights is None:
            return (shipped_kernel_weights() if self.eval_kind == EvalKind.PATTERN
                    else HEURISTIC_WEIGHTS)
        w = np.ascontiguousarray(self.weights, dtype=np.int32)
        if self.eval_kind == EvalKind.PATTERN:
            check_kernel_table(w)
        if w.flags.writeable:
            w = w.view()
            w.flags.writeable = False
        return w


@dataclass(frozen=True)
class SearchResult:
    """What a search found (a :class:`gameopt.core.Outcome`).

    Attributes
    ----------
    move : Move or None
        The best move; None when the game is over.
    score : float
        In discs for the side to move: the exact final disc difference when ``exact`` (an
        int), else the evaluation at ``depth`` plies.
    exact : bool
        The score is the proven game value (an exact solve finished).
    depth : int
        Plies of the last completed iteration (the number of empties when exact), or of
        the iteration a limit cut short when it proved a better move (see :func:`search`).
    pv : tuple of Move
        Principal variation, starting with ``move``.
    nodes : int
        Positions visited.
    seconds : float
        Time the search took on ``clock`` (kernel compile and load time excluded).
    stopped : bool
        A limit cut the last iteration short; the result is the last completed one (or
        that better move).
    clock : str
        ``"cpu"`` or ``"wall"``: the clock of the :class:`~gameopt.core.Limit`.
    bound : float or None
        What an exact solve proved: the score inside the window, else an upper bound
        (fail low) or a lower bound (fail high) on the game value; None for a midgame search.
    """

    move: Move | None
    score: float
    exact: bool
    depth: int
    pv: tuple[Move, ...]
    nodes: int
    seconds: float
    stopped: bool = False
    clock: str = "wall"
    bound: float | None = None

    @property
    def proven(self) -> bool:
        """The score is proven: an exact solve finished."""
        return self.exact

    @property
    def stats(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "depth": self.depth, "stopped": self.stopped,
                "nodes_per_second": self.nodes_per_second}

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def pv_string(self) -> str:
        return " ".join(str(m) for m in self.pv)


_loaded: set[tuple[str, bool]] = set()


def _load_kernels(w: np.ndarray) -> None:
    """Compile or load the search kernels for weights like ``w`` (numba compiles one
    version per array type: dtype, writable or not), once per process, before any clock
    starts: the times reported are the search's, not numba's."""
    kind = (str(w.dtype), bool(w.flags.writeable))
    if kind in _loaded:
        return
    keys, data = _tt.new_table(4)
    st = np.zeros(pp.N_ST, dtype=np.int64)
    par = SearchParams(eval_kind=EvalKind.HEURISTIC).array()
    flag = np.zeros(1, dtype=np.uint8)
    b = Board.start()
    for kernel in (_midgame.search, _midgame.search_mpc, _midgame.search_mpc2):
        kernel(np.uint64(b.player), np.uint64(b.opponent), 1, -_midgame.INF, _midgame.INF,
               st, flag, par, w, keys, data)
    full = np.uint64((1 << 64) - 1)  # no empty square: compiled whole, solved at once
    _endgame.search(full, np.uint64(0), -64, 64, st, flag, par, w, keys, data)
    _tt.purge(keys, data, 0)  # a kept table's purge runs on a search's clock
    _loaded.add(kind)


class SearchTable:
    """A transposition table kept from one search to the next: one side's moves in a game.

    :func:`search` and :func:`solve` given ``table=`` start from what the earlier searches
    stored instead of from an empty table (as Edax and Zebra keep theirs between moves): the
    iterations that the previous move's search already made below the new root cost little,
    and a 2**20-slot table is not allocated and faulted in again at every move. Before each
    search the slots of positions with fewer discs than its board (never seen again in a
    game) are emptied (:func:`gameopt.reversi._tt.purge`, O(slots), on the search's clock),
    and the whole table when the evaluation (the weights array), Multi-ProbCut (on or off,
    its table and confidence) or the exact solver's selective passes differ from the last
    search's: its ranges would be bounds of another search. Midgame, exact and selective
    entries never share a table depth (a midgame node has fewer plies to go than empties;
    exact ones are stored at the empties, selective ones below 0), so exact scores stay
    exact, and a full-width search at a fixed depth gets the values of a new table. So a
    search without selective passes keeps the passes' entries (it never reads them), and
    only passes of other settings clear them. Weights
    changed in place are not seen: :meth:`clear` the table then. One search at a time.

    Parameters
    ----------
    bits : int
        The table has 2**bits slots of 32 bytes (4..30; 20: 32 MB). It replaces
        ``SearchParams.tt_bits`` for the searches that use it.

    Raises
    ------
    InvalidInputError
        ``bits`` outside 4..30.
    """

    def __init__(self, bits: int = 20) -> None:
        if isinstance(bits, bool) or not isinstance(bits, int) or not 4 <= bits <= 30:
            raise InvalidInputError(f"table bits {bits!r}: expected 4..30")
        self.bits = bits
        self.keys, self.data = _tt.new_table(bits)
        self._key: tuple[Any, ...] | None = None
        self._sel: tuple[Any, ...] | None = None  # the settings of the passes it holds
        self._held: tuple[Any, ...] = ()  # what the key's addresses point to, kept alive
        self._empty = True

    def clear(self) -> None:
        """Forget every stored position (a new game, or weights changed in place)."""
        if not self._empty:
            self.keys.fill(0)
            self.data.fill(0)
            self._empty = True
        self._key, self._sel, self._held = None, None, ()

    def used(self) -> int:
        """Slots holding a position. O(slots)."""
        return int(np.count_nonzero(self.keys[:, 0] | self.keys[:, 1]))

    def _take(self, board: Board, params: SearchParams, w: np.ndarray, w_end: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
        """The arrays for a search of ``board`` with the weights table ``w`` (``w_end``: its
        patterns alone, as the solver reads them): stale slots emptied, or all of them if
        the values would mean something else now."""
        mpc = bool(params.mpc)
        key = (int(params.eval_kind), w.__array_interface__["data"][0], w.shape, mpc,
               id(params.mpc_table) if mpc else 0, params.mpc_t if mpc else 0.0,
               params.mpc_nest if mpc else 0, params.net_margin or 0,
               params.net_max_empties)
        # the selective passes' bounds lie at table depths below 0, which only passes read:
        # a search without passes keeps them, passes of other settings clear them
        sel = ((params.end_selectivity, params.end_sel_min, params.end_sel_d4,
                params.end_sel_sigma, params.end_sel_bias)
               if params.end_selectivity else None)
        # selective passes search with the patterns alone (_eval.without_network) and
        # store midgame entries: with a network they would mix two evaluations
        mixed = sel is not None and len(w) != len(w_end)
        if key != self._key or mixed or (sel is not None and self._sel not in (None, sel)):
            self.clear()
            self._key, self._held = key, (w, params.mpc_table)
        else:
            _tt.purge(self.keys, self.data, 64 - board.empties)
        if sel is not None:
            self._sel = sel
        self._empty = False
        return self.keys, self.data


class _Run:
    """One search's arrays, stop rule and progress report."""

    def __init__(self, params: SearchParams, limit: Limit,
                 progress: ProgressCallback | None, board: Board | None = None,
                 table: SearchTable | None = None) -> None:
        self.params = params
        self.progress = progress
        self.st = np.zeros(pp.N_ST, dtype=np.int64)
        self.par = params.array(limit.nodes or 0)
        self.w = params.weight_array()
        # the exact solver orders its moves by the patterns alone: a network (1.7 times
        # the cost a node) buys it no better order (FFO #40-#49: 3.13 G nodes with it in
        # the solver's searches, 3.16 G without; README, "The network at depth 6 and 8")
        self.w_end = _eval.without_network(self.w)
        _load_kernels(self.w)
        if table is None or board is None:
            self.keys, self.data = _tt.new_table(params.tt_bits)
            self.rule = limit.start()
        else:  # the purge is the search's work: on its clock
            self.rule = limit.start()
            self.keys, self.data = table._take(board, params, self.w, self.w_end)
        self.flag = self.rule.flag.array
        self.mid_kernel = (_midgame.search, _midgame.search_mpc,
                           _midgame.search_mpc2)[int(self.par[pp.MPC])]

    @property
    def stopped(self) -> bool:
        return bool(self.st[pp.STOPPED])

    @property
    def nodes(self) -> int:
        return int(self.st[pp.NODES])

    def elapsed(self) -> float:
        return self.rule.elapsed()

    def result(self, move: Move | None, score: float, exact: bool, depth: int,
               pv: tuple[Move, ...], stopped: bool = False,
               bound: float | None = None) -> SearchResult:
        return SearchResult(move, score, exact, depth, pv, self.nodes, self.elapsed(), stopped,
                            self.rule.clock, bound)

    def mid_value(self, P: int, O: int, depth: int, alpha: int, beta: int) -> int:
        return int(self.mid_kernel(np.uint64(P), np.uint64(O), depth, alpha, beta, self.st,
                                   self.flag, self.par, self.w, self.keys, self.data))

    def end_value(self, P: int, O: int, alpha: int, beta: int) -> int:
        return int(_endgame.search(np.uint64(P), np.uint64(O), alpha, beta, self.st,
                                   self.flag, self.par, self.w_end, self.keys, self.data))

    def root(self, board: Board, order: list[int], alpha: int, beta: int, inf: int,
             child: Callable[[int, int, int, int], int],
             report: Callable[[int, int], None] | None = None) -> tuple[int, np.ndarray]:
        """Search the root moves in ``order`` (squares) within (alpha, beta), PVS or not.

        ``child(P, O, alpha, beta)`` values a child for its side to move. Returns the best
        value and each move's value (with PVS a bound for all but the best; -inf for moves
        not searched after a cutoff); 0 with :attr:`stopped` if the search was stopped.
        ``report(moves done, best so far)`` is called after each root move.
        """
        scores = np.full(len(order), -inf, dtype=np.int64)
        best, a, found_pv = -inf, alpha, False
        pvs = self.params.pvs
        self.st[pp.NODES] += 1
        P, O = board.player, board.opponent
        for i, s in enumerate(order):
            f = flipped(P, O, s)
            cp, co = O ^ f, P | f | (1 << s)
            if pvs and found_pv:
                v = -child(cp, co, -a - 1, -a)
                if a < v < beta and not self.stopped:
                    v = -child(cp, co, -beta, -v)
            else:
                v = -child(cp, co, -beta, -a)
            if self.stopped:
                return 0, scores
            scores[i] = v
            if v > best:
                best = v
            if report is not None:
                report(i + 1, best)
            if v >= beta:
                break
            if v > a:
                a, found_pv = v, True
        return best, scores

    def mid_root(self, board: Board, depth: int, order: list[int]) -> tuple[int, np.ndarray]:
        return self.root(board, order, -_midgame.INF, _midgame.INF, _midgame.INF,
                         lambda P, O, al, be: self.mid_value(P, O, depth - 1, al, be))

    def end_root(self, board: Board, order: list[int], alpha: int, beta: int
                 ) -> tuple[int, np.ndarray]:
        report = None
        if self.progress is not None:
            progress = self.progress

            def report(done: int, best: int) -> None:
                progress(Progress("solve", done, len(order), float(best),
                                  {"nodes": self.nodes, "window": (alpha, beta)}))
        return self.root(board, order, alpha, beta, _endgame.INF, self.end_value, report)


def evaluate(board: Board, params: SearchParams | None = None) -> float:
    """Static evaluation of the position for the side to move, in discs."""
    p = params or SearchParams()
    return _eval.evaluate(np.uint64(board.player), np.uint64(board.opponent), int(p.eval_kind),
                          p.weight_array()) / 100.0


def _rank(order: list[int], scores: np.ndarray) -> list[int]:
    """Moves by decreasing score (stable: ties keep their previous order)."""
    idx = sorted(range(len(order)), key=lambda i: -scores[i])
    return [order[i] for i in idx]


def _passed(sub: SearchResult) -> SearchResult:
    """The result at a position whose only move is a pass, from the one after it."""
    bound = None if sub.bound is None else -sub.bound
    return SearchResult(PASS, -sub.score, sub.exact, sub.depth, (PASS,) + sub.pv, sub.nodes,
                        sub.seconds, sub.stopped, sub.clock, bound)


def selective_params(params: SearchParams, by_time: bool) -> SearchParams:
    """``params`` with ``mpc`` and ``net_margin`` decided: each left as set, else on
    (Multi-ProbCut; lazy evaluation at :data:`LAZY_BY_TIME`) exactly when ``by_time``
    (see :class:`SearchParams`). :func:`search` decides by its limit (a time and no
    depth); a timed move decides once for all its searches, so that a kept table sees
    one setting."""
    if params.mpc is None:
        params = replace(params, mpc=by_time)
    if params.net_margin is None:
        params = replace(params, net_margin=LAZY_BY_TIME if by_time else 0)
    return params


def search(board: Board, limit: Limit | None = None, params: SearchParams | None = None,
           progress: ProgressCallback | None = None, *,
           soft_time: float | None = None, table: SearchTable | None = None) -> SearchResult:
    """Iterative-deepening PVS to ``limit.depth`` plies, within the limit's time and nodes.

    When the depth reaches the number of empty squares the search finishes with the exact
    solver (the result is then ``exact``). Without a depth, time or node limit the depth is
    10. A time limit (on the limit's clock) or the limit's stop flag ends the search at the
    next look at the flag (every 4096 nodes); the result is the last completed iteration.

    Parameters
    ----------
    board : Board
        The position.
    limit : Limit or None
        ``depth`` (plies), ``time`` on ``clock``, ``nodes``, ``stop`` (a
        :class:`~gameopt.core.StopFlag` another thread may set).
    params : SearchParams or None
        Search switches (default :class:`SearchParams`).
    progress : ProgressCallback or None
        Called after each completed iteration with ``Progress("search", depth, max depth,
        score, {"move", "nodes"})``.
    soft_time : float or None
        Seconds on the limit's clock after which no new iteration starts (the time
        manager's target; ``limit.time`` stays the hard bound that stops an iteration).
    table : SearchTable or None
        A transposition table kept from earlier searches (None: a new empty one).

    Returns
    -------
    SearchResult
        The last completed iteration's move, score and depth; when a limit cut the next
        iteration short after its first move (the previous best) was searched and a later
        move was proven better at that depth, that move, its score and that depth
        (``stopped`` is set either way).

    Raises
    ------
    InvalidInputError
        A depth below 1, a bad ``soft_time`` (the limits are checked by
        :class:`~gameopt.core.Limit`).
    """
    limit = limit or Limit()
    params = params or SearchParams()
    depth = limit.depth
    if depth is not None and depth < 1:
        raise InvalidInputError(f"depth {depth}: expected >= 1")
    soft_time = check_seconds(soft_time, "soft time")
    if depth is None and limit.time is None and limit.nodes is None:
        depth = 10
    moves = board.legal_moves()
    if not moves or moves == [PASS]:
        if not moves:
            return _game_over(board, limit)
        return _passed(search(board.play(PASS), limit, params, progress, soft_time=soft_time,
                              table=table))
    by_time = limit.time is not None and limit.depth is None
    run = _Run(selective_params(params, by_time), limit, progress, board, table)
    with run.rule.watch():
        order = [m.square for m in moves]
        best: SearchResult | None = None
        max_depth = depth if depth is not None else 60
        for d in range(1, max_depth + 1):
            if soft_time is not None and best is not None and run.elapsed() >= soft_time:
                break  # the time manager's target is spent: no new iteration
            if d >= board.empties:
                res = _solve_with(run, board, order)
                if not res.stopped or best is None:
                    best = res
                break
            v, scores = run.mid_root(board, d, order)
            if run.stopped:
                best = _cut_short(run, board, d, order, scores) or best
                break
            order = _rank(order, scores)
            first = Move(order[0])
            pv = (first,) + _pv_from_table(run, board.play(first), d - 1)
            best = run.result(first, v / 100.0, False, d, pv)
            if progress is not None:
                progress(Progress("search", d, depth, best.score,
                                  {"move": str(first), "nodes": run.nodes}))
        if best is None:  # stopped inside depth 1: any legal move
            return run.result(Move(order[0]), 0.0, False, 0, (Move(order[0]),), True)
        return run.result(best.move, best.score, best.exact, best.depth, best.pv, run.stopped,
                          best.bound)


def _cut_short(run: _Run, board: Board, depth: int, order: list[int], scores: np.ndarray
               ) -> SearchResult | None:
    """What an iteration cut short proved: after the first root move (the previous
    iteration's best) was searched, a later move whose value at ``depth`` is higher (its
    PVS re-search finished; a null-window fail low is a bound no higher than the best so
    far). None if it proved no such move."""
    if scores[0] == -_midgame.INF:
        return None
    i = int(np.argmax(scores))  # the first of equal values: an exact one, not a bound
    if i == 0:
        return None
    move = Move(order[i])
    pv = (move,) + _pv_from_table(run, board.play(move), depth - 1)
    return run.result(move, int(scores[i]) / 100.0, False, depth, pv)


def _game_over(board: Board, limit: Limit) -> SearchResult:
    return SearchResult(None, board.score(), True, 0, (), 0, 0.0, clock=limit.clock,
                        bound=board.score())


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


def solve(board: Board, limit: Limit | None = None, params: SearchParams | None = None,
          progress: ProgressCallback | None = None, alpha: int = -64,
          beta: int = 64, *, table: SearchTable | None = None,
          soft_time: float | None = None) -> SearchResult:
    """Exact final disc difference with perfect play, the best move and a principal variation.

    Root moves are ordered by a shallow midgame search (``end_root_depth`` plies, at most
    ``empties - 10``), then solved by PVS with the window (alpha, beta) (default the full
    -64..64: the score is exact).

    Parameters
    ----------
    board : Board
        The position.
    limit : Limit or None
        ``time`` on ``clock``, ``nodes``, ``stop``; a solve that hits one returns
        ``stopped`` and not ``exact`` (``depth`` is ignored).
    params : SearchParams or None
        Search switches.
    progress : ProgressCallback or None
        Called after each root move is solved with ``Progress("solve", moves done, root
        moves, best so far, {"nodes", "window"})`` (again for each aspiration window).
    alpha, beta : int
        The window; outside it the result's ``bound`` is a bound on the game value.
    table : SearchTable or None
        A transposition table kept from earlier searches (None: a new empty one).
    soft_time : float or None
        With ``params.end_selectivity``: once this many seconds are spent, start no
        further pass. The result is then the last completed selective pass's best move
        and score (``exact`` False, ``depth`` the empties, not ``stopped``). A solve
        stopped by the limit after a completed pass also returns that pass's move
        (``stopped``); one stopped before any pass returns ``depth`` 0.

    Raises
    ------
    InvalidInputError
        A bad window or ``soft_time`` (the limits are checked by
        :class:`~gameopt.core.Limit`).
    """
    soft_time = check_seconds(soft_time, "soft time")
    if not -64 <= alpha < beta <= 64:
        raise InvalidInputError(f"window ({alpha}, {beta}): expected -64 <= alpha < beta <= 64")
    limit = limit or Limit()
    params = params or SearchParams()
    moves = board.legal_moves()
    if not moves:
        return _game_over(board, limit)
    if moves == [PASS]:
        return _passed(solve(board.play(PASS), limit, params, progress, -beta, -alpha,
                             table=table, soft_time=soft_time))
    run = _Run(params, limit, progress, board, table)
    with run.rule.watch():
        order = [m.square for m in moves]
        shallow = min(board.empties - 10, params.end_root_depth)
        guess = None
        if shallow >= 2:  # order the root by a shallow search, which also guesses the score
            run.par[pp.SHALLOW_ORDER] = 0  # in square order: the solver's pinned node counts
            g, scores = run.mid_root(board, shallow, order)
            order = _rank(order, scores)
            guess = 2 * round(g / 200)  # centi-discs -> discs, even like every final score
        passed: int | None = None  # the score of the last selective pass completed
        if params.aspiration:
            for i, t in enumerate(params.end_selectivity):
                found = _selective_pass(run, board, order, alpha, beta, guess, t,
                                        len(params.end_selectivity) - i)
                if found is None:
                    return _selective_result(run, board, order, passed, True)
                guess, order = found
                passed = guess
                if soft_time is not None and run.elapsed() >= soft_time:
                    return _selective_result(run, board, order, passed, False)  # no more
        r = _solve_with(run, board, order, alpha, beta,
                        guess if params.aspiration else None)
        if r.stopped and passed is not None:
            return _selective_result(run, board, order, passed, True)
        return r


def _selective_result(run: _Run, board: Board, order: list[int], passed: int | None,
                      stopped: bool) -> SearchResult:
    """What a solve ended before its exact pass knows: the last completed selective pass's
    best move and score (not exact; depth the empties), or nothing (depth 0)."""
    if passed is None:
        return run.result(Move(order[0]), 0.0, False, 0, (), stopped)
    move = Move(order[0])
    return run.result(move, float(passed), False, board.empties, (move,), stopped)


def _selective_pass(run: _Run, board: Board, order: list[int], alpha: int, beta: int,
                    guess: int | None, t: float, level: int
                    ) -> tuple[int, list[int]] | None:
    """One selective pass with confidence ``t`` (see ``SearchParams.end_selectivity``):
    its score (the next guess) and the root order with its best move first; None if
    stopped. Its bounds go to the table at depth ``empties - 64 * level``."""
    run.par[pp.END_SEL_T] = round(100 * t)
    run.par[pp.END_DEPTH_OFF] = -64 * level
    try:
        found = _aspirate(run, board, order, alpha, beta, guess, tries=4)
    finally:
        run.par[pp.END_SEL_T] = 0
        run.par[pp.END_DEPTH_OFF] = 0
    if found is None:
        return None
    v, move, order = found
    v = min(max(v, alpha + 1), beta - 1)
    return v, [move] + [s for s in order if s != move]


def _aspirate(run: _Run, board: Board, order: list[int], alpha: int, beta: int,
              guess: int | None, tries: int = 0) -> tuple[int, int, list[int]] | None:
    """Search the root within (alpha, beta): at once, or from the window (guess - 1,
    guess + 1). Returns (fail-soft value, best move, root order) or None if stopped.
    ``tries`` > 0 stops after that many windows (a selective search is not a function of
    its window: its bounds may contradict each other, and the windows would never meet).

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
            return None
        tries -= 1
        if tries == 0:
            break
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
    return v, best[0] if best else order[0], order


def _solve_with(run: _Run, board: Board, order: list[int], alpha: int = -64,
                beta: int = 64, guess: int | None = None) -> SearchResult:
    """Solve within (alpha, beta) (see :func:`_aspirate`) and follow a principal variation."""
    found = _aspirate(run, board, order, alpha, beta, guess)
    if found is None:
        return run.result(Move(order[0]), 0.0, False, 0, (), True)
    v, square, order = found
    move = Move(square)
    pv = _exact_pv(run, board.play(move), -v) if alpha < v < beta else ()
    return run.result(move, v, True, board.empties, (move,) + pv, bound=float(v))


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
