"""Plain-text boards: round trips and one-line errors naming line and column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.go import BLACK, WHITE, Board
from gameopt.go.text import format_text, parse_text, read_text, write_text

from .positions import many_strings


@pytest.mark.parametrize("rows, cols", [(1, 1), (19, 19), (5, 7), (40, 3)])
def test_round_trip(rows: int, cols: int) -> None:
    board = Board.from_array(many_strings(rows, cols))
    text = format_text(board)
    assert text.endswith("\n") and len(text.splitlines()) == rows
    assert parse_text(text) == board


def test_first_line_is_the_top_row_and_spacing_is_free() -> None:
    board = parse_text("\n  X O .\n  . . .\n\n")
    assert board.shape == (2, 3)
    assert board[0, 0] == BLACK and board[0, 1] == WHITE
    assert board.name((0, 0)) == "A2"
    assert str(board) == "XO.\n..."


def test_file_round_trip(tmp_path: Path) -> None:
    board = Board(9)
    board.play(BLACK, (4, 4))
    path = tmp_path / "b.txt"
    write_text(path, board)
    assert read_text(path) == board
    assert [p.name for p in tmp_path.iterdir()] == ["b.txt"]


@pytest.mark.parametrize("text, match", [
    ("X.O\n.x.\n",
     r"^b\.txt: line 2, column 2: unexpected character 'x' \(a point is X, O or \.\)$"),
    ("X.O\n\n.O\n", r"^b\.txt: line 3: 2 points, but line 1 has 3$"),
    ("\n\n  \n", r"^b\.txt: no board rows found"),
    ("XO.\n.X.\n", None),
    ("OX.\nX..\n", r"^b\.txt: white string of 1 stone at A2 has no liberty$"),
])
def test_bad_text(text: str, match: str | None) -> None:
    if match is None:
        assert parse_text(text, name="b.txt").string_count() == 3
        return
    with pytest.raises(InvalidInputError, match=match):
        parse_text(text, name="b.txt")


def test_unchecked_parse_keeps_an_illegal_position() -> None:
    board = parse_text("OX.\nX..\n", check=False)
    assert not board.is_legal_position()
    assert np.array_equal(board.to_array(), [[2, 1, 0], [1, 0, 0]])


def test_unreadable_and_unwritable_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"board file .*missing\.txt: no such file"):
        read_text(tmp_path / "missing.txt")
    with pytest.raises(InvalidInputError, match=r"nowhere/b\.txt: directory .* does not exist"):
        write_text(tmp_path / "nowhere" / "b.txt", Board(3))
