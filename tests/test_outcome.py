"""Every system's search result has the one result shape (core.Outcome), measured on a
named clock: produced here by a small real run of each system's public entry point."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import CLOCKS, Limit, Outcome


def _check(result: object, *, proven: bool | None = None) -> None:
    assert isinstance(result, Outcome), type(result)
    r: Outcome = result
    assert r.clock in CLOCKS
    assert isinstance(r.seconds, float) and r.seconds >= 0.0
    assert isinstance(r.proven, bool) and isinstance(r.stats, dict)
    assert r.bound is None or isinstance(r.bound, float | int)
    if proven is not None:
        assert r.proven is proven


def test_sudoku() -> None:
    from gameopt import sudoku

    grid = "..62...8...897......481.5......6...2.7.....3.6...5......2.471....3.284...5...12.."
    p = sudoku.parse_puzzles(grid)[0]
    _check(sudoku.solve(p, "exact"), proven=True)
    _check(sudoku.solve(p, "evolution", seed=1, limit=Limit(time=30, clock="cpu")))
    _check(sudoku.solve(p, "cpsat"), proven=True)
    _check(sudoku.explain(p))


def test_deck() -> None:
    from gameopt import deck

    rng = np.random.default_rng(0)
    u = rng.random((16, 16))
    p = deck.DeckProblem(((u + u.T) / 2).astype(np.float32), 5)
    for method in deck.METHODS:
        r = deck.solve(p, method, seed=0)
        _check(r, proven=deck.METHODS[method].exact)


def test_go() -> None:
    from gameopt import go

    _check(go.solve_msp(4, method="dp"), proven=True)
    _check(go.solve_msp(3, method="ip-improved", limit=Limit(time=30)), proven=True)


def test_pairing() -> None:
    from gameopt import pairing
    from gameopt.pairing import PlayerState, RoundInput

    players = tuple(PlayerState(id=str(i), name=f"P{i}", country=None, rating=2000.0 - i,
                                score=0, rank=i + 1) for i in range(6))
    for method in ("exact", "slim"):
        r = pairing.pair_round(RoundInput(round_no=1, players=players), method=method)
        _check(r, proven=method == "exact")


@pytest.mark.parametrize("clock", CLOCKS)
def test_limit_clock_is_reported(clock: str) -> None:
    from gameopt import deck

    rng = np.random.default_rng(1)
    u = rng.random((20, 20))
    p = deck.DeckProblem(((u + u.T) / 2).astype(np.float32), 6)
    method = "vds" if clock == "cpu" else "exact"
    r = deck.solve(p, method, seed=0, limit=Limit(time=30, clock=clock))  # type: ignore[arg-type]
    assert r.clock == clock


def test_reversi() -> None:
    from gameopt import reversi

    _check(reversi.search(reversi.Board.start(), Limit(depth=4)), proven=False)
    r = reversi.search(reversi.Board.start(), Limit(depth=2, time=30, clock="cpu"))
    _check(r, proven=False)
    assert r.clock == "cpu"
    board = reversi.Board.start()
    rng = np.random.default_rng(3)
    while board.empties > 12 and not board.is_game_over():
        moves = board.legal_moves() or [reversi.PASS]
        board = board.play(moves[int(rng.integers(len(moves)))])
    solved = reversi.solve(board, Limit(time=60))
    _check(solved, proven=True)
    assert solved.bound is not None
