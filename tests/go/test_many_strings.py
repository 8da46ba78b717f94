"""Positions with hundreds of thousands of strings: legal, counted, playable, fast."""

from __future__ import annotations

import time

import numpy as np
import pytest

from gameopt.go import BLACK, WHITE, Board
from gameopt.go.reference import reference_legal_moves, reference_play, reference_strings

from .positions import many_strings


@pytest.fixture(scope="module")
def board19() -> Board:
    return Board.from_array(many_strings(19))


def test_many_string_position_is_legal_and_counted(board19: Board) -> None:
    ref = reference_strings(many_strings(19).tolist())
    assert board19.is_legal_position()
    assert board19.string_count() == len(ref) == 273
    assert all(s.size == 1 and s.liberties for s in board19.strings())
    assert [(s.colour, list(s.stones), list(s.liberties)) for s in board19.strings()] == ref


@pytest.mark.parametrize("colour", [BLACK, WHITE])
def test_every_legal_move_and_its_captures_agree_with_reference(board19: Board,
                                                                colour: int) -> None:
    grid = board19.to_array().tolist()
    legal = board19.legal_moves(colour)
    assert legal == reference_legal_moves(grid, colour)
    assert len(legal) > 40
    captures = 0
    for point in legal:
        board = board19.copy()
        expected = reference_play(grid, colour, point)
        assert expected is not None
        new_grid, captured, _ = expected
        assert board.play(colour, point) == captured
        captures += len(captured)
        assert board.to_array().tolist() == new_grid
        assert board.is_legal_position()
        assert board.string_count() == len(reference_strings(new_grid))
        board.undo()
        assert board == board19
    assert captures > 0


@pytest.mark.parametrize("rows, cols", [(n, n) for n in range(1, 26)] + [(5, 7), (13, 21),
                                                                        (2, 40)])
def test_many_string_positions_of_every_size(rows: int, cols: int) -> None:
    arr = many_strings(rows, cols)
    board = Board.from_array(arr)
    ref = reference_strings(arr.tolist())
    assert board.string_count() == len(ref) == int(np.count_nonzero(arr))
    assert all(libs for _, _, libs in ref)


def test_large_position_agrees_with_reference() -> None:
    arr = many_strings(150, 220)
    board = Board.from_array(arr)
    assert board.string_count() == len(reference_strings(arr.tolist()))
    mask = board.legal_mask(BLACK)
    assert mask.shape == (150, 220) and mask[arr == 0].sum() > 0
    assert not mask[arr != 0].any()


@pytest.mark.slow
def test_thousand_by_thousand_loads_and_checks_fast() -> None:
    arr = many_strings(1000)
    Board.from_array(many_strings(5)).legal_moves(BLACK)   # numba cache loaded
    start = time.perf_counter()
    board = Board.from_array(arr)
    count = board.string_count()
    legal = board.legal_moves(BLACK)
    seconds = time.perf_counter() - start
    assert count == int(np.count_nonzero(arr)) and board.is_legal_position()
    assert 0 < len(legal) <= int(np.count_nonzero(arr == 0))
    assert seconds < 2.0, seconds
