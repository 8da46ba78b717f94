"""MSP by the IP models and the construction, against brute force, the DP's known values
and the board library."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Limit, Outcome, StopFlag
from gameopt.errors import InvalidInputError, SolverError
from gameopt.go.board import Board
from gameopt.go.construct import construct_msp, diagonal_pattern
from gameopt.go.msp import KNOWN_GAMMA, formula_gamma, is_dominating, msp_position
from gameopt.go.msp_brute import brute_domination_number
from gameopt.go.msp_ip import build_msp_model, solve_msp_ip
from gameopt.go.msp_solve import check_msp_board, solve_msp
from gameopt.go.reference import reference_strings
from gameopt.go.sgf import board_from_sgf, board_to_sgf

KNOWN_MSP = [0, 2, 6, 12, 18, 26, 37, 48, 61, 76, 92, 109]


@pytest.mark.parametrize("formulation", ["basic", "improved"])
def test_ip_equals_known_values_n_1_to_12(formulation: str) -> None:
    for n in range(1, 13):
        r = solve_msp_ip(n, formulation=formulation, limit=Limit(time=60))
        assert r.proven and r.gamma == KNOWN_GAMMA[n] and r.msp == KNOWN_MSP[n - 1], n
        check_msp_board(r)


@pytest.mark.parametrize("m, n", [(1, 1), (1, 4), (2, 3), (3, 3), (3, 4), (4, 4), (2, 5)])
def test_ip_equals_brute_force_small_rectangles(m: int, n: int) -> None:
    want = brute_domination_number(m, n)
    for formulation in ("basic", "improved"):
        assert solve_msp_ip(m, n, formulation).gamma == want


def test_improved_cuts_present() -> None:
    basic, _ = build_msp_model(8, 8, "basic")
    improved, _ = build_msp_model(8, 8, "improved")
    nb = len(basic.proto.constraints)
    assert len(improved.proto.constraints) == nb + 4 + 5  # 4 corner cuts, 5 centre rows
    odd, _ = build_msp_model(9, 9, "improved")
    assert len(odd.proto.constraints) == 81 + 4 + 6


def test_diagonal_pattern_dominates() -> None:
    for k in range(5):
        for t in (False, True):
            assert is_dominating(diagonal_pattern(17, 23, k, t))


@pytest.mark.parametrize("m, n", [(16, 16), (19, 19), (16, 23), (31, 20)])
def test_construction_meets_theorem(m: int, n: int) -> None:
    r = construct_msp(m, n)
    assert r.proven and r.gamma == formula_gamma(m, n) and is_dominating(r.empty)
    check_msp_board(r)


def test_msp19_board_277_strings_each_with_a_liberty_and_sgf_round_trip() -> None:
    r = solve_msp(19)
    assert (r.msp, r.gamma, r.method, r.proven) == (277, 84, "construct", True)
    board = Board.from_array(msp_position(r.empty))
    strings = board.strings()
    assert len(strings) == 277 and all(len(s.stones) == 1 and s.liberties for s in strings)
    assert len(reference_strings(msp_position(r.empty))) == 277
    back = board_from_sgf(board_to_sgf(board))
    assert back == board and back.string_count() == 277
    # analyse it: a move anywhere, captures and all, then undo restores it
    for colour in (1, 2):
        for p in board.legal_moves(colour)[:20]:
            board.play(colour, p)
            board.undo()
    assert board.string_count() == 277


def test_formula_not_below_16() -> None:
    assert formula_gamma(13, 13) is None and formula_gamma(16, 16) == 60
    with pytest.raises(InvalidInputError, match="construction needs both sides >= 16"):
        solve_msp(13, method="construct")


@pytest.mark.parametrize("args, match", [((0,), "rows must be an integer in 1..10000"),
                                         ((3, -1), "columns must be"),
                                         ((5,), "unknown method 'magic'")])
def test_bad_input(args: tuple[int, ...], match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        solve_msp(*args, method="magic" if "method" in match else "auto")


def test_checker_rejects_a_wrong_claim() -> None:
    from gameopt.errors import SolverError
    from gameopt.go.msp import MspResult

    empty = np.ones((3, 3), dtype=bool)
    with pytest.raises(SolverError, match="claimed 9"):
        check_msp_board(MspResult(3, 3, 9, 9, False, "test", 0.0, empty))



def test_results_are_outcomes_with_their_clock_and_progress() -> None:
    seen: list[object] = []
    for method in ("ip-improved", "dp"):
        r = solve_msp(7, method=method, progress=seen.append)
        assert isinstance(r, Outcome) and r.clock == "wall" and r.proven and r.bound == 12
    tasks = {p.task for p in seen}  # type: ignore[attr-defined]
    assert {"msp-ip", "msp-dp"} <= tasks
    ip = [p for p in seen if p.task == "msp-ip"]  # type: ignore[attr-defined]
    assert ip[-1].best == 12 and ip[-1].done == len(ip)  # type: ignore[attr-defined]
    r = solve_msp(5, method="dp", limit=Limit(clock="cpu"))
    assert r.clock == "cpu" and r.msp == 18


def test_limits_stop_each_method() -> None:
    flag = StopFlag()
    flag.set()
    with pytest.raises(SolverError, match=r"stopped by the requested limit after \d+ of 9 rows.*"
                                          r"γ >= \d+"):
        solve_msp(9, method="dp", limit=Limit(stop=flag))
    r = construct_msp(16, limit=Limit(stop=flag))  # the diagonal pattern, no window solved
    assert is_dominating(r.empty) and r.stats["stop"] == "requested"
    with pytest.raises(InvalidInputError, match="CP-SAT limits wall time"):
        solve_msp(9, method="ip-basic", limit=Limit(time=5, clock="cpu"))
    r = solve_msp_ip(17, limit=Limit(time=0.5))
    assert not r.proven and r.bound is not None and r.bound <= r.gamma
    assert r.stats["stop"] == "time" and r.seconds < 10
