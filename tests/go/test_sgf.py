"""SGF: round trips, cross-reading with sgfmill's own board, FF[4] sizes, bad input."""

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


def test_string_data_and_rectangles() -> None:
    board = board_from_sgf("(;SZ[3]AB[aa:bb]AW[cc])")
    assert board.count(BLACK) == 4 and board[1, 1] == BLACK and board[2, 2] == WHITE


@pytest.mark.parametrize("data", [b"(;SZ[3]AB[aa]AW[aa])", b"(;SZ[3]AB[aa][bb]AE[aa])",
                                  b"(;SZ[3]AB[aa:bb]AW[bb])"])
def test_a_point_once_among_setup_properties(data: bytes) -> None:
    # FF[4]: a point may not be in two of AB, AW, AE of one node (AB[aa]AW[aa] was read)
    with pytest.raises(InvalidInputError, match=r"^g\.sgf: point (aa|bb) is in both A[BW] "
                                                r"and A[WE] of the root node \(FF\[4\]"):
        board_from_sgf(data, name="g.sgf")


@pytest.mark.parametrize("rows, cols", [(26, 26), (52, 52), (5, 7), (19, 9), (2, 52)])
def test_ff4_sizes_round_trip(rows: int, cols: int) -> None:
    # FF[4] allows sides up to 52 (letters a..z, A..Z) and SZ[columns:rows]
    arr = np.zeros((rows, cols), dtype=np.int8)
    arr[0, ::2] = BLACK
    arr[-1, 1::2] = WHITE
    board = Board.from_array(arr)
    data = board_to_sgf(board, comment="a] b\\")
    assert (b"SZ[%d]" % rows if rows == cols else b"SZ[%d:%d]" % (cols, rows)) in data
    assert board_from_sgf(data) == board


@pytest.mark.parametrize("data, match", [
    (b"(;FF[4]SZ[3]AB[aa", r"^g\.sgf: malformed SGF: unexpected end of SGF data \(parser "
                           r"stopped at line 1, column 15\)$"),
    (b"(;SZ[3]\n;B[aa]\n(;W[bb]", r"^g\.sgf: malformed SGF: unexpected end of SGF data "
                                  r"\(parser stopped at line 3, column 8, end of data\)$"),
    (b"no sgf here", r"^g\.sgf: malformed SGF: no SGF data found$"),
    (b"(;SZ[53])", r"^g\.sgf: SZ\[53\]: board size 53 is out of range 1\.\.52"),
    (b"(;SZ[7:0])", r"^g\.sgf: SZ\[7:0\]: board size 0x7 is out of range 1\.\.52"),
    (b"(;SZ[x])", r"^g\.sgf: bad SGF root: bad SZ property"),
    (b"(;SZ[3]AB[a\nb])", r"^g\.sgf: bad point in AB\[a\\nb\] on a 3x3 board$"),
    (b"(;SZ[3];B[aa]W[bb])", r"^g\.sgf: node 1: both B and W in one node$"),
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


def test_boards_ff4_cannot_write() -> None:
    with pytest.raises(InvalidInputError, match=r"board size 53 is out of range 1\.\.52"):
        board_to_sgf(Board(53))
    with pytest.raises(InvalidInputError, match=r"board size 5x60 is out of range 1\.\.52"):
        board_to_sgf(Board(5, 60))


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"SGF file .*none\.sgf: no such file"):
        read_sgf(tmp_path / "none.sgf")
