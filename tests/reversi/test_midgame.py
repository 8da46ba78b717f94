"""The midgame search's fast paths against their references: the incremental pattern
indices against the evaluation from scratch, the nested shallow search against the search
frame by frame (same values, same node counts)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi import _midgame, _tt
from gameopt.reversi import _params as pp
from gameopt.reversi._eval import (
    HEURISTIC,
    HEURISTIC_WEIGHTS,
    N_INSTANCES,
    PATTERN,
    child_indices,
    evaluate,
    evaluate_indexed,
    pattern_indices,
    pattern_indices2,
)
from gameopt.reversi.board import PASS, Board
from gameopt.reversi.patterns import DEFAULT_SET, N_SCALARS, reference_indices
from gameopt.reversi.probcut import MAX_DEPTH, MpcTable, shallow_depth
from gameopt.reversi.search import SearchParams, flipped
from gameopt.reversi.weights import shipped_kernel_weights
from tests.reversi.positions import random_position

POFF = N_SCALARS + DEFAULT_SET.base[DEFAULT_SET.kind]


def _indices(P: int, O: int) -> np.ndarray:
    out = np.zeros(N_INSTANCES, dtype=np.int32)
    pattern_indices(np.uint64(P), np.uint64(O), out)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_indices_kept_along_random_games_equal_scratch_and_evaluate(seed: int) -> None:
    """Along whole random games (passes included), the vectors made move by move by
    child_indices equal those from scratch and from the plain reference, and the indexed
    evaluation equals evaluate()."""
    w = shipped_kernel_weights()
    rng = random.Random(seed)
    b = Board.start()
    own, other = _indices(b.player, b.opponent), _indices(b.opponent, b.player)
    while True:
        P, O = b.player, b.opponent
        assert np.array_equal(own, _indices(P, O))
        assert np.array_equal(other, _indices(O, P))
        assert np.array_equal(own - POFF, reference_indices(b))
        both = np.zeros((2, N_INSTANCES), dtype=np.int32)
        pattern_indices2(np.uint64(P), np.uint64(O), both[0], both[1])
        assert np.array_equal(both[0], own) and np.array_equal(both[1], other)
        assert evaluate_indexed(np.uint64(P), np.uint64(O), own, w) == \
            evaluate(np.uint64(P), np.uint64(O), PATTERN, w)
        moves = b.legal_moves()
        if not moves:
            break
        m = rng.choice(moves)
        if m == PASS:
            own, other = other, own
        else:
            s = m.square
            f = np.uint64(flipped(P, O, s))
            new_own = np.empty_like(own)
            new_other = np.empty_like(own)
            child_indices(other, new_own, s, f, 2, 1)
            child_indices(own, new_other, s, f, 1, -1)
            own, other = new_own, new_other
        b = b.play(m)


def test_indices_through_passes() -> None:
    """Games with passes: some seed passes, and the vectors stay right through it."""
    w = shipped_kernel_weights()
    seen = 0
    for seed in range(200):
        rng = random.Random(1000 + seed)
        b = Board.start()
        own, other = _indices(b.player, b.opponent), _indices(b.opponent, b.player)
        while b.legal_moves():
            m = rng.choice(b.legal_moves())
            if m == PASS:
                seen += 1
                own, other = other, own
            else:
                f = np.uint64(flipped(b.player, b.opponent, m.square))
                new_own, new_other = np.empty_like(own), np.empty_like(own)
                child_indices(other, new_own, m.square, f, 2, 1)
                child_indices(own, new_other, m.square, f, 1, -1)
                own, other = new_own, new_other
            b = b.play(m)
            if m == PASS:
                assert np.array_equal(own, _indices(b.player, b.opponent))
                assert evaluate_indexed(np.uint64(b.player), np.uint64(b.opponent), own, w) \
                    == evaluate(np.uint64(b.player), np.uint64(b.opponent), PATTERN, w)
        if seen >= 3:
            break
    assert seen >= 3


def _mpc_table() -> MpcTable:
    t = np.zeros((61, MAX_DEPTH + 1, 4))
    for d in range(3, MAX_DEPTH + 1):
        t[:, d] = (shallow_depth(d), 1.0, 20.0, 150.0)
    return MpcTable(t)


def _run(kernel, b: Board, depth: int, alpha: int, beta: int, params: SearchParams,
         w: np.ndarray, node_limit: int = 0) -> tuple[int, list[int]]:
    st = np.zeros(pp.N_ST, dtype=np.int64)
    keys, data = _tt.new_table(12)
    v = kernel(np.uint64(b.player), np.uint64(b.opponent), depth, alpha, beta, st,
               np.zeros(1, np.uint8), params.array(node_limit), w, keys, data)
    return int(v), [int(x) for x in st]


INF = _midgame.INF
WINDOWS = [(-INF, INF), (-150, 150), (0, 1), (-900, -899), (400, 2000)]


def _same_verdict(got: int, want: int, alpha: int, beta: int) -> bool:
    """Two fail-soft values of one position within (alpha, beta) searched in different
    orders: the same exact value inside the window, else the same side of it."""
    if alpha < want < beta:
        return got == want
    return (got <= alpha) if want <= alpha else (got >= beta)


@pytest.mark.parametrize("seed", range(8))
def test_shallow_search_equals_frame_by_frame(seed: int) -> None:
    """Values, nodes and leaves of the nested shallow search in square order equal the
    frame-by-frame search, for the pattern evaluation and the heuristic, every sort height,
    PVS and table on and off, several windows, positions from the opening to the last
    empties (passes and ends of game), with and without Multi-ProbCut; in fastest-first
    order (shallow_order 2, 3) the same values."""
    pattern = shipped_kernel_weights()
    heuristic = HEURISTIC_WEIGHTS
    empties = (50, 40, 30, 22, 14, 10, 8, 6)[seed]
    b = random_position(seed, empties)
    table = _mpc_table()
    for kind, w in ((PATTERN, pattern), (HEURISTIC, heuristic)):
        for h in (0, 1, 2, 3, 4, 60):
            for pvs, tt in ((True, True), (False, False)):
                params = SearchParams(sort_height=h, pvs=pvs, use_tt=tt, eval_kind=kind,
                                      shallow_order=0)
                mpc = SearchParams(sort_height=h, pvs=pvs, use_tt=tt, eval_kind=kind,
                                   mpc=True, mpc_t=1.0, mpc_table=table, shallow_order=0)
                for depth in (1, 2, 3, 4, 5):
                    for alpha, beta in WINDOWS:
                        case = (str(b), kind, h, pvs, depth, alpha, beta)
                        want = _run(_midgame.search_frames, b, depth, alpha, beta, params, w)
                        assert _run(_midgame.search, b, depth, alpha, beta, params, w) == \
                            want, case
                        for order in (2, 3):
                            ordered = SearchParams(sort_height=h, pvs=pvs, use_tt=tt,
                                                   eval_kind=kind, shallow_order=order)
                            got = _run(_midgame.search, b, depth, alpha, beta, ordered, w)
                            assert _same_verdict(got[0], want[0], alpha, beta), (case, order)
                    if depth >= 4:
                        assert _run(_midgame.search_mpc, b, depth, -INF, INF, mpc, w) == \
                            _run(_midgame.search_mpc_frames, b, depth, -INF, INF, mpc, w), case


def test_fastest_first_saves_nodes() -> None:
    """The fastest-first order near the horizon changes the tree (fewer nodes over four
    random positions at depth 7), not the value."""
    w = shipped_kernel_weights()
    saved = 0
    for seed in range(4):
        b = random_position(100 + seed, 50)
        plain = _run(_midgame.search, b, 7, -INF, INF, SearchParams(shallow_order=0), w)
        fast = _run(_midgame.search, b, 7, -INF, INF, SearchParams(), w)
        assert fast[0] == plain[0]
        saved += plain[1][pp.NODES] - fast[1][pp.NODES]
    assert saved > 0
    with pytest.raises(InvalidInputError, match="shallow_order 4"):
        SearchParams(shallow_order=4)


def test_shallow_search_stops_where_the_frames_stop() -> None:
    """A node limit stops both searches at the same node, with the stop flag set."""
    w = shipped_kernel_weights()
    b = random_position(3, 40)
    params = SearchParams(shallow_order=0)
    full = _run(_midgame.search, b, 8, -INF, INF, params, w)
    assert full[1][pp.NODES] > 3 * 4096
    for limit in (4096, 2 * 4096):
        got = _run(_midgame.search, b, 8, -INF, INF, params, w, limit)
        assert got == _run(_midgame.search_frames, b, 8, -INF, INF, params, w, limit)
        assert got[1][pp.STOPPED] == 1 and got[1][pp.NODES] == limit
