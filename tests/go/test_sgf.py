"""SGF through sgfmill: round trips, cross-reading with sgfmill's own board, bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sgfmill import sgf, sgf_moves

from gameopt.errors import InvalidInputError
from gameopt.go import BLACK, EMPTY, WHITE, Board
from gameopt.go.sgf import board_from_sgf, board_to_sgf, read_sgf, write_sgf

from .positions import many_strings


def sgfmill_array(data: bytes) -> np.ndarray:
    """The setup position as sgfmill's own board reads it (rows from the top)."""
    game = sgf.Sgf_game.from_bytes(data)
    board, plays = sgf_moves.get_setup_and_moves(game)
    assert plays == []
    n = game.get_size()
    arr = np.zeros((n, n), dtype=np.int8)
    for colour, (row, col) in board.list_occupied_points():
        arr[n - 1 - row, col] = BLACK if colour == "b" else WHITE
    return arr


@pytest.mark.parametrize("n", [2, 5, 9, 19, 25])
def test_round_trip_through_sgfmill(n: int) -> None:
    board = Board.from_array(many_strings(n))
    data = board_to_sgf(board, comment=f"{board.string_count()} strings")
    assert np.array_equal(sgfmill_array(data), board.to_array())
    back = board_from_sgf(data)
    assert back == board and back.string_count() == board.string_count()
    assert sgf.Sgf_game.from_bytes(data).get_root().get("C") == f"{board.string_count()} strings"


def test_one_by_one_and_empty_boards() -> None:
    for n in (1, 3):
        board = Board(n)
        assert board_from_sgf(board_to_sgf(board)) == board


def test_file_round_trip_is_atomic(tmp_path: Path) -> None:
    board = Board.from_array(many_strings(19))
    path = tmp_path / "msp19.sgf"
    write_sgf(path, board)
    assert read_sgf(path) == board
    assert [p.name for p in tmp_path.iterdir()] == ["msp19.sgf"]


def test_moves_are_replayed_and_can_be_undone() -> None:
    data = b"(;GM[1]FF[4]SZ[5]AB[ba][ab]AW[ca][bb];W[aa];B[];W[ee])"
    board = board_from_sgf(data)
    assert board[0, 0] == WHITE and board[0, 1] == EMPTY    # W[aa] captured B[ba]
    assert board.moves == [(WHITE, (0, 0)), (BLACK, None), (WHITE, (4, 4))]
    assert board.ko is None
    for _ in range(3):
        board.undo()
    assert board[0, 1] == BLACK and board.moves == []


def test_string_data_and_add_empty() -> None:
    board = board_from_sgf("(;SZ[3]AB[aa][bb]AE[aa])")
    assert board.count(BLACK) == 1 and board[1, 1] == BLACK


@pytest.mark.parametrize("data, match", [
    (b"(;FF[4]SZ[3]AB[aa", r"^g\.sgf: malformed SGF: unexpected end of SGF data \(parser "
                           r"stopped at line 1, column 15\)$"),
    (b"(;SZ[3]\n;B[aa]\n(;W[bb]", r"^g\.sgf: malformed SGF: unexpected end of SGF data "
                                  r"\(parser stopped at line 3, column 8, end of data\)$"),
    (b"no sgf here", r"^g\.sgf: malformed SGF: no SGF data found$"),
    (b"(;SZ[7:5])", r"^g\.sgf: SZ\[7:5\]: rectangular boards are not supported"),
    (b"(;SZ[26])", r"^g\.sgf: SZ\[26\]: board size 26 is out of range 1\.\.25"),
    (b"(;SZ[x])", r"^g\.sgf: bad SGF root: bad SZ property"),
    (b"(;GM[2]SZ[8])", r"^g\.sgf: GM\[2\] is not a Go game"),
    (b"(;SZ[3]AB[zz])", r"^g\.sgf: bad point in AB\[zz\] on a 3x3 board$"),
    (b"(;SZ[3];B[dd])", r"^g\.sgf: node 1: bad move B\[dd\] on a 3x3 board$"),
    (b"(;SZ[3];B[aa];W[aa])", r"^g\.sgf: node 2: illegal move: white at A3: the point is "
                              r"occupied$"),
    (b"(;SZ[3];B[aa];AW[bb])", r"^g\.sgf: node 2: setup stones .* after the root"),
    (b"(;SZ[3]AB[aa][ca][bb]AW[ba])",
     r"^g\.sgf: white string of 1 stone at B3 has no liberty$"),
])
def test_bad_sgf_is_one_line_error(data: bytes, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match) as info:
        board_from_sgf(data, name="g.sgf")
    assert "\n" not in str(info.value)


def test_boards_sgfmill_cannot_write() -> None:
    with pytest.raises(InvalidInputError, match=r"a 5x7 board cannot be written as SGF here"):
        board_to_sgf(Board(5, 7))
    with pytest.raises(InvalidInputError, match=r"board size 26 is out of range 1\.\.25"):
        board_to_sgf(Board(26))


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"SGF file .*none\.sgf: no such file"):
        read_sgf(tmp_path / "none.sgf")
