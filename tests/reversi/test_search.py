"""The numba searches against the plain references of gameopt.gametree."""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

import numpy as np
import pytest

from gameopt.core import Limit, Outcome, Progress, StopFlag
from gameopt.errors import InvalidInputError
from gameopt.gametree.reference import alphabeta, negamax
from gameopt.reversi import _endgame, _midgame, _tt
from gameopt.reversi import _params as pp
from gameopt.reversi._eval import HEURISTIC, HEURISTIC_WEIGHTS, PATTERN, evaluate
from gameopt.reversi.board import PASS, Board
from gameopt.reversi.files import read_obf
from gameopt.reversi.patterns import DEFAULT_SET
from gameopt.reversi.reference import ReferenceState, negamax_exact
from gameopt.reversi.search import EvalKind, SearchParams, search, solve
from gameopt.reversi.weights import SHIPPED, read_network, read_weights, shipped_kernel_weights
from tests.reversi.positions import random_position

W = HEURISTIC_WEIGHTS
# the module (the package exports the function search under the same name)
search_mod = importlib.import_module("gameopt.reversi.search")


def _eval(P: int, O: int) -> int:
    return int(evaluate(np.uint64(P), np.uint64(O), HEURISTIC, W))


def _kernel_mid(b: Board, depth: int, params: SearchParams) -> int:
    st = np.zeros(pp.N_ST, dtype=np.int64)
    keys, data = _tt.new_table(12)
    return int(_midgame.search(np.uint64(b.player), np.uint64(b.opponent), depth, -_midgame.INF,
                               _midgame.INF, st, np.zeros(1, np.uint8), params.array(), W,
                               keys, data))


def _kernel_end(b: Board, params: SearchParams, alpha: int = -64, beta: int = 64) -> int:
    st = np.zeros(pp.N_ST, dtype=np.int64)
    keys, data = _tt.new_table(14)
    return int(_endgame.search(np.uint64(b.player), np.uint64(b.opponent), alpha, beta, st,
                               np.zeros(1, np.uint8), params.array(), W, keys, data))


CONFIGS = [SearchParams(pvs=p, use_tt=t, sort_height=h, end_sort_height=e, stability=s,
                        eval_kind=HEURISTIC)
           for p, t, h, e, s in [(False, False, 0, 4, False), (True, False, 1, 5, False),
                                 (False, True, 0, 6, True), (True, True, 1, 7, True),
                                 (True, True, 3, 10, True)]]
# the exact solver's ordering by shallow searches and the enhanced transposition cutoff,
# switched on low enough to act on these small positions
CONFIGS += [SearchParams(end_sort_height=5, end_search=6, end_search3=8, etc=6,
                         eval_kind=HEURISTIC),
            SearchParams(end_sort_height=4, end_search=5, end_search3=0, etc=5,
                         end_eval_weight=1024, eval_kind=HEURISTIC)]


@pytest.mark.parametrize("seed", range(12))
def test_midgame_values_equal_plain_negamax(seed: int) -> None:
    b = random_position(seed, 48 - 3 * seed)
    state = ReferenceState(b.player, b.opponent, 100, _eval)
    for depth in (1, 2, 3):
        want = negamax(state, depth)
        assert alphabeta(state, depth, -10**9, 10**9) == want
        for params in CONFIGS:
            assert _kernel_mid(b, depth, params) == want, (str(b), depth, params)
        assert round(search(b, Limit(depth=depth), params=CONFIGS[-1]).score * 100) == want


def test_every_weights_table_reaches_the_kernels_read_only() -> None:
    # numba compiles a read-only and a writable array as two types: the search kernels
    # (minutes to compile) stay one version only if every table is read-only
    mine = np.arange(DEFAULT_SET.kernel_stage_size * 15, dtype=np.int32)
    tables = [SearchParams().weight_array(), SearchParams(eval_kind=EvalKind.HEURISTIC)
              .weight_array(), SearchParams(weights=mine).weight_array(),
              SearchParams(weights=mine.astype(np.int64)).weight_array(),
              DEFAULT_SET.expand(np.zeros((15, DEFAULT_SET.stage_size))), HEURISTIC_WEIGHTS]
    assert not any(t.flags.writeable for t in tables)
    assert mine.flags.writeable  # viewed, not changed: the caller's array stays writable
    assert np.shares_memory(SearchParams(weights=mine).weight_array(), mine)


@pytest.mark.parametrize("seed", range(3))
def test_default_search_is_negamax_over_the_shipped_weights(seed: int) -> None:
    table = shipped_kernel_weights()
    w, meta = read_weights(SHIPPED)
    net = read_network(SHIPPED)  # the pattern stages, then the network's section if any
    want_table = DEFAULT_SET.expand(w) if net is None else np.concatenate(
        [DEFAULT_SET.expand(w), net.kernel_section()])
    assert np.array_equal(table, want_table)
    assert np.array_equal(SearchParams().weight_array(), table)

    def learned(P: int, O: int) -> int:
        return int(evaluate(np.uint64(P), np.uint64(O), PATTERN, table))

    b = random_position(500 + seed, 44 - 8 * seed)
    want = negamax(ReferenceState(b.player, b.opponent, 100, learned), 2)
    assert round(search(b, Limit(depth=2)).score * 100) == want
    with pytest.raises(InvalidInputError, match="eval_kind 2"):
        SearchParams(eval_kind=2)


@pytest.mark.parametrize("seed", range(10))
def test_exact_values_equal_plain_negamax(seed: int) -> None:
    b = random_position(100 + seed, 7 + seed % 2)
    want = negamax_exact(b.player, b.opponent)  # gametree.negamax over the plain rules
    for params in CONFIGS:
        assert _kernel_end(b, params) == want, (str(b), params)
    assert solve(b).score == want


@pytest.mark.parametrize("seed", range(6))
def test_exact_values_equal_reference_alphabeta_10_empties(seed: int) -> None:
    b = random_position(200 + seed, 10)
    want = alphabeta(ReferenceState(b.player, b.opponent), None, -65, 65)
    for params in CONFIGS:
        assert _kernel_end(b, params) == want
    # the default evaluation (trained patterns) ordering the solve, switched on low
    for cheap in (True, False):
        p = SearchParams(end_sort_height=5, end_search=6, end_search3=8, etc=6,
                         end_heuristic1=cheap)
        assert solve(b, params=p).score == want
    # null windows bound the value correctly (fail-soft)
    v = _kernel_end(b, CONFIGS[-1], want - 1, want)
    assert v >= want
    v = _kernel_end(b, CONFIGS[-1], want, want + 1)
    assert v <= want


@pytest.mark.parametrize("seed", range(4))
def test_aspiration_widens_to_the_exact_value_from_any_guess(seed: int) -> None:
    b = random_position(250 + seed, 10)
    want = alphabeta(ReferenceState(b.player, b.opponent), None, -65, 65)
    order = [m.square for m in b.legal_moves()]
    for guess in (-64, -40, want - 6, want - 2, want, want + 2, want + 10, 64):
        run = search_mod._Run(SearchParams(), Limit(), None)
        r = search_mod._solve_with(run, b, order, -64, 64, guess)
        assert r.score == want and r.exact, (guess, r)
        assert r.pv[0] == r.move and r.move in b.legal_moves()
    # through solve (the root search guesses from 12 empties up): the same value as the
    # full window; a caller's window gives the value or a bound on the right side of it
    b = random_position(260 + seed, 14)
    want = solve(b, params=SearchParams(aspiration=False)).score
    assert solve(b).score == want
    for alpha, beta in ((want - 4, want + 4), (want, want + 8), (want - 8, want)):
        r = solve(b, alpha=max(alpha, -64), beta=min(beta, 64))
        if alpha < want < beta:
            assert r.score == want
        elif want <= alpha:
            assert r.score <= alpha
        else:
            assert r.score >= beta


@pytest.mark.slow
@pytest.mark.parametrize("seed,empties", [(0, 12), (1, 12), (2, 13), (3, 14)])
def test_exact_values_equal_reference_12_to_14_empties(seed: int, empties: int) -> None:
    b = random_position(300 + seed, empties)
    want = alphabeta(ReferenceState(b.player, b.opponent), None, -65, 65)
    assert solve(b).score == want
    assert _kernel_end(b, CONFIGS[0]) == want
    assert _kernel_end(b, CONFIGS[-2]) == want


def test_solve_pv_plays_out_to_the_score() -> None:
    for seed in range(5):
        b = random_position(400 + seed, 16)
        r = solve(b)
        assert r.exact and r.move == r.pv[0]
        end = b
        for mv in r.pv:
            end = end.play(mv)
        assert end.is_game_over()
        # the score is from the side to move at the root
        assert (end.score() if end.side == b.side else -end.score()) == r.score


def test_search_at_full_depth_is_exact() -> None:
    b = random_position(500, 8)
    r = search(b, Limit(depth=12))
    assert r.exact and r.score == negamax_exact(b.player, b.opponent)


def test_pass_and_game_over() -> None:
    over = Board.from_str("X" * 64 + " O")
    r = solve(over)
    assert r.move is None and r.score == -64
    # white has no move here but black has: the root passes
    b = Board.from_str("XXXXXXXX" * 7 + "XXXXXO-- O")
    if b.legal_moves() == [PASS]:
        r = solve(b)
        assert r.move == PASS and r.pv[0] == PASS


def test_node_limit_and_stop() -> None:
    b = random_position(600, 30)
    r = solve(b, Limit(nodes=10_000))
    assert r.stopped and not r.exact and not r.proven and r.bound is None
    flag = StopFlag()
    threading.Timer(0.2, flag.set).start()
    r = search(b, Limit(depth=40, stop=flag))
    assert r.stopped and r.move in b.legal_moves()
    r = search(b, Limit(time=0.3))
    assert r.stopped and r.depth >= 1 and r.clock == "wall"
    r = search(b, Limit(time=0.3, clock="cpu"))
    assert r.stopped and r.clock == "cpu" and r.seconds < 1.5


def test_progress_and_result_shape() -> None:
    b = random_position(601, 16)
    seen: list[Progress] = []
    r = solve(b, progress=seen.append)
    assert r.proven and r.bound == r.score and r.stats["nodes"] == r.nodes
    assert isinstance(r, Outcome)
    assert [p.task for p in seen] and {p.task for p in seen} == {"solve"}
    assert seen[-1].done <= seen[-1].total == len(b.legal_moves())
    seen.clear()
    r = search(b, Limit(depth=4), progress=seen.append)
    assert [p.done for p in seen] == [1, 2, 3, 4] and seen[-1].best == r.score
    assert not r.proven and r.bound is None


def test_eval_kind_names() -> None:
    assert SearchParams(eval_kind=0).eval_kind is EvalKind.HEURISTIC
    assert SearchParams().eval_kind is EvalKind.PATTERN
    assert EvalKind.PATTERN == PATTERN and EvalKind.HEURISTIC == HEURISTIC


def test_bad_limits() -> None:
    b = Board.start()
    with pytest.raises(InvalidInputError, match="depth 0"):
        search(b, Limit(depth=0))
    with pytest.raises(InvalidInputError, match="time limit -1"):
        search(b, Limit(time=-1))
    with pytest.raises(InvalidInputError, match="end_sort_height 11"):
        SearchParams(end_sort_height=11)
    with pytest.raises(InvalidInputError, match="etc -1: expected 0..64"):
        SearchParams(etc=-1)
    with pytest.raises(InvalidInputError, match="end_eval_weight 70000"):
        SearchParams(end_eval_weight=70000)
    with pytest.raises(InvalidInputError, match="end_root_depth 1: expected 2..20"):
        SearchParams(end_root_depth=1)


def test_ffo_up_to_20_empties_match_the_files(reversi_data: Path) -> None:
    d = reversi_data
    entries = read_obf(d / "fforum-1-19.obf") + read_obf(d / "fforum-20-39.obf")
    entries += read_obf(d / "fforum-40-59.obf")[:1]  # FFO #40, 20 empties
    checked = 0
    for e in entries:
        if e.board.empties > 20 or e.best_score is None:
            continue
        if e.board.empties > 18 and checked > 25:
            continue  # keep the default run short: the deeper ones are in the benchmark
        r = solve(e.board)
        assert r.score == e.best_score, e.line
        assert r.move in e.best_moves, (e.line, r.move)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("seed", range(3))
def test_selective_passes_leave_the_solve_exact(seed: int) -> None:
    # probcut at every node from 9 empties, with confidences that cut almost everywhere
    # (t tiny, sigma 0): the selective passes are wrong as often as not, and their bounds
    # must never reach the exact pass (they are stored at a table depth of their own)
    b = random_position(600 + seed, 16)
    want = solve(b, params=SearchParams(aspiration=False)).score
    wild = SearchParams(end_selectivity=(0.01, 0.5), end_sel_min=9, end_sel_d4=12,
                        end_sel_sigma=(0, 0, 0, 0))
    r = solve(b, params=wild)
    assert r.exact and r.score == want
    fitted = SearchParams(end_selectivity=(1.0, 2.0), end_sel_min=9)
    assert solve(b, params=fitted).score == want


def test_selective_pass_cuts_and_stays_off_the_exact_table_depths() -> None:
    b = random_position(610, 16)
    par = SearchParams(end_sel_min=9, end_sel_sigma=(0, 0, 0, 0), eval_kind=HEURISTIC).array()
    keys, data = _tt.new_table(14)
    st = np.zeros(pp.N_ST, dtype=np.int64)
    args = (np.uint64(b.player), np.uint64(b.opponent))
    exact_nodes = 0
    for selective in (False, True):
        par[pp.END_SEL_T] = 1 if selective else 0
        par[pp.END_DEPTH_OFF] = -64 if selective else 0
        keys[:] = 0
        st[:] = 0
        _endgame.search(*args, -1, 1, st, np.zeros(1, np.uint8), par, W, keys, data)
        used = data[(keys[:, 0] != 0) & (data[:, _tt.DEPTH] >= 8)]
        if selective:
            assert st[pp.NODES] < exact_nodes  # the cuts prune the tree
            # every endgame bound at a selective depth (the shallow searches' are 1, 2)
            assert len(used) == 0
        else:
            exact_nodes = int(st[pp.NODES])
            assert len(used) > 0


def test_selective_params_are_checked() -> None:
    for bad in ({"end_selectivity": (0.0,)}, {"end_selectivity": (11,)},
                {"end_sel_min": 8}, {"end_sel_sigma": (1, 2, 3)}, {"end_sel_bias": (1e9, 0)}):
        with pytest.raises(InvalidInputError, match="end_sel"):
            SearchParams(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(8))
def test_order_search_by_alphabeta_equals_plain_minimax(seed: int) -> None:
    # the exact solver's 3-ply order key: alpha-beta gives the plain minimax value from the
    # full window and a correct fail-soft bound from any window, with both evaluations
    weights = shipped_kernel_weights()
    big = _endgame.SEARCH_INF
    for empties in (40, 24, 14, 6, 3):
        b = random_position(700 + seed, empties)
        P, O = np.uint64(b.player), np.uint64(b.opponent)
        for kind, w in ((HEURISTIC, W), (PATTERN, weights)):
            want = int(_endgame._reply_value3(P, O, kind, w))
            assert int(_endgame._ab_value3(P, O, -big, big, kind, w)) == want, (str(b), kind)
            for lo, hi in ((want - 1, want + 1), (want, want + 50), (want - 50, want)):
                v = int(_endgame._ab_value3(P, O, lo, hi, kind, w))
                assert v == want if lo < want < hi else (v <= lo if want <= lo else v >= hi)
