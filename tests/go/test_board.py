"""The Go board against the flood-fill reference: kernels, moves, undo, rules, messages."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.go import BLACK, EMPTY, WHITE, Board, GoString, opponent, parse_point, point_name
from gameopt.go.reference import reference_legal_moves, reference_play, reference_strings
from gameopt.go.text import parse_text


def grid(board: Board) -> list[list[int]]:
    return board.to_array().tolist()


def as_reference(board: Board) -> list[tuple[int, list[tuple[int, int]], list[tuple[int, int]]]]:
    return [(s.colour, list(s.stones), list(s.liberties)) for s in board.strings()]


def incremental_strings(board: Board) -> set[GoString]:
    """Every string as the incremental layer sees it (through every stone)."""
    out = set()
    for r in range(board.rows):
        for c in range(board.cols):
            s = board.string_at((r, c))
            assert (s is None) == (board[r, c] == EMPTY)
            if s is not None:
                out.add(s)
    return out


def ko_for(board: Board, colour: int) -> tuple[int, int] | None:
    ko = board.ko
    return ko[0] if ko is not None and ko[1] == colour else None


# ---------------------------------------------------------------- whole-position kernels

@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (7, 1), (2, 2), (6, 9), (13, 13)])
def test_kernel_strings_match_flood_fill_on_random_positions(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(shape))
    for _ in range(30):
        arr = rng.choice([EMPTY, BLACK, WHITE], size=shape, p=[0.3, 0.35, 0.35])
        board = Board.from_array(arr, check=False)
        ref = reference_strings(arr.tolist())
        assert as_reference(board) == ref
        assert board.string_count() == len(ref)
        dead = [s for s in ref if not s[2]]
        assert board.is_legal_position() == (not dead)
        if dead:
            colour, stones, _ = dead[0]
            n = len(stones)
            what = "1 stone" if n == 1 else f"{n} stones"
            name = point_name(stones[0], *shape)
            message = f"{['', 'black', 'white'][colour]} string of {what} at {name} has no liberty"
            with pytest.raises(InvalidInputError, match=f"^{re.escape(message)}$"):
                board.check()
        else:
            board.check()
            assert incremental_strings(board) == set(board.strings())
            for colour in (BLACK, WHITE):
                assert board.legal_moves(colour) == reference_legal_moves(arr.tolist(), colour)


def test_check_names_the_first_string_without_liberty() -> None:
    board = parse_text("""
        .O...
        OXO..
        OXO..
        OXO..
        .O...
    """, check=False)
    with pytest.raises(InvalidInputError, match=r"^black string of 3 stones at B4 has no liberty$"):
        board.check()
    with pytest.raises(InvalidInputError, match=r"^pos\.txt: black string of 3 stones at B4"):
        board.check("pos.txt")
    assert not board.is_legal_position()
    with pytest.raises(InvalidInputError, match=r"^x: black string of 3 stones at B4 has no"):
        Board.from_array(board.to_array(), name="x")
    with pytest.raises(InvalidInputError, match="black string of 3 stones at B4"):
        board.play(WHITE, (0, 0))          # no moves on an illegal position
    with pytest.raises(InvalidInputError, match="black string of 3 stones at B4"):
        board.legal_moves(WHITE)


def test_wide_boards_name_points_by_row_and_column() -> None:
    arr = np.zeros((2, 30), dtype=np.int8)
    arr[0, 28:] = [WHITE, BLACK]
    arr[1, 28:] = [EMPTY, WHITE]
    with pytest.raises(InvalidInputError, match=r"^black string of 1 stone at \(0, 29\) has"):
        Board.from_array(arr)


# ---------------------------------------------------------------- random playouts

def _compare(board: Board, ref: list[list[int]], legal: bool) -> None:
    assert grid(board) == ref
    strings = reference_strings(ref)
    assert as_reference(board) == strings
    assert board.string_count() == len(strings)
    assert incremental_strings(board) == {GoString(c, tuple(s), tuple(li))
                                          for c, s, li in strings}
    if legal:
        for colour in (BLACK, WHITE):
            expected = reference_legal_moves(ref, colour, ko_for(board, colour),
                                             board.allow_suicide)
            assert board.legal_moves(colour) == expected
            assert [p for p in expected if board.is_legal(colour, p)] == expected


def playout(board: Board, moves: int, seed: int, legal_every: int) -> dict[str, int]:
    """Random moves (and a few passes) compared step by step with the reference, then
    every move undone, each undo compared with the board saved before that move.

    Returns how many stones were captured, kos arose and stones were lost to suicide."""
    rng = np.random.default_rng(seed)
    ref = grid(board)
    saved = []
    stats = {"captured": 0, "ko": 0, "suicide": 0}
    colour = BLACK
    for step in range(moves):
        legal = board.legal_moves(colour)
        point = None if not legal or rng.random() < 0.02 else legal[rng.integers(len(legal))]
        saved.append((board.copy(stack=False), incremental_strings(board)))
        if point is None:
            board.play(colour, None)
            assert board.ko is None
        else:
            expected = reference_play(ref, colour, point, ko_for(board, colour),
                                      board.allow_suicide)
            assert expected is not None
            captured = board.play(colour, point)
            ref, ref_captured, ref_ko = expected
            assert captured == ref_captured
            stats["captured"] += len(captured)
            stats["ko"] += ref_ko is not None
            stats["suicide"] += ref[point[0]][point[1]] == EMPTY
            assert board.ko == (None if ref_ko is None else (ref_ko, opponent(colour)))
        _compare(board, ref, legal=step % legal_every == 0)
        colour = opponent(colour)
    assert len(board.moves) == moves
    replayed = board.copy()
    assert replayed == board and replayed.moves == board.moves
    for before, strings in reversed(saved):
        board.undo()
        assert board == before
        assert incremental_strings(board) == strings
    assert board.moves == []
    with pytest.raises(InvalidInputError, match="no move to undo"):
        board.undo()
    return stats


@pytest.mark.parametrize("rows, cols, moves, seed, legal_every", [
    (9, 9, 160, 1, 1),
    (9, 9, 160, 2, 1),
    (5, 7, 120, 3, 1),
    (19, 19, 300, 4, 25),
])
def test_random_playouts_agree_with_reference(rows: int, cols: int, moves: int, seed: int,
                                              legal_every: int) -> None:
    stats = playout(Board(rows, cols), moves, seed, legal_every)
    assert stats["captured"] > 0 and stats["suicide"] == 0


def test_random_playout_with_suicide_allowed() -> None:
    stats = playout(Board(7, 7, allow_suicide=True), 150, 5, 1)
    assert stats["suicide"] > 0


# ---------------------------------------------------------------- rules, by hand

def test_capture_returns_points_and_gives_back_liberties() -> None:
    board = parse_text(".XO..\nXOO.X\n.XX..\n.....\n")
    assert board.string_at((0, 2)) == GoString(WHITE, ((0, 2), (1, 1), (1, 2)),
                                               ((0, 3), (1, 3)))
    assert board.play(BLACK, (0, 3)) == []
    assert board.play(BLACK, (1, 3)) == [(0, 2), (1, 1), (1, 2)]
    assert board.string_at((0, 1)) == GoString(BLACK, ((0, 1),), ((0, 0), (0, 2), (1, 1)))
    assert str(board) == ".X.X.\nX..XX\n.XX..\n....."
    assert board.string_count() == 4


def test_three_strings_captured_at_once() -> None:
    board = parse_text("XO.OX\n.XOX.\n")
    assert board.play(BLACK, (0, 2)) == [(0, 1), (0, 3), (1, 2)]
    assert str(board) == "X.X.X\n.X.X."
    assert board.ko is None


def test_suicide_forbidden_by_default() -> None:
    board = parse_text(".X.\nX..\n...\n")
    with pytest.raises(InvalidInputError, match=r"^illegal move: white at A3: it is suicide$"):
        board.play(WHITE, (0, 0))
    assert not board.is_legal(WHITE, (0, 0))
    assert (0, 0) not in board.legal_moves(WHITE)
    assert board.legal_moves(BLACK)[0] == (0, 0)      # filling its own eye is legal


def test_multi_stone_suicide_when_allowed() -> None:
    text = "O.X..\nOXX..\nXX...\n"
    strict = parse_text(text)
    with pytest.raises(InvalidInputError, match=r"^illegal move: white at B3: it is suicide$"):
        strict.play(WHITE, (0, 1))
    board = parse_text(text, allow_suicide=True)
    black = ((0, 2), (1, 1), (1, 2), (2, 0), (2, 1))
    assert board.play(WHITE, (0, 1)) == []              # removes its own two stones too
    assert str(board) == "..X..\n.XX..\nXX..."
    assert board.string_at((0, 2)) == GoString(BLACK, black,
                                               ((0, 1), (0, 3), (1, 0), (1, 3), (2, 2)))
    assert board.undo() == (WHITE, (0, 1))
    assert board == parse_text(text, allow_suicide=True)
    assert board.string_at((1, 1)) == GoString(BLACK, black, ((0, 1), (0, 3), (1, 3), (2, 2)))
    assert board.string_at((0, 0)) == GoString(WHITE, ((0, 0), (1, 0)), ((0, 1),))


def test_capture_is_not_suicide() -> None:
    board = parse_text(".XO\nXO.\nO..\n")
    assert board.play(WHITE, (0, 0)) == [(0, 1), (1, 0)]
    assert board.ko is None                             # two stones taken: no ko


def test_two_stone_capture_sets_no_ko() -> None:
    board = parse_text("OXX.\n.OO.\n")
    assert board.play(WHITE, (0, 3)) == [(0, 1), (0, 2)]
    assert board.ko is None


def test_simple_ko() -> None:
    board = parse_text(".XO..\nXO.O.\n.XO..\n.....\n")
    assert board.play(BLACK, (1, 2)) == [(1, 1)]
    assert board.ko == ((1, 1), WHITE)
    with pytest.raises(InvalidInputError, match=r"^illegal move: white at B3: it retakes the ko$"):
        board.play(WHITE, (1, 1))
    assert not board.is_legal(WHITE, (1, 1))
    assert (1, 1) not in board.legal_moves(WHITE)
    assert (1, 1) in board.legal_moves(BLACK)          # only the opponent is barred
    before = board.copy()
    board.play(WHITE, (3, 4))                           # a ko threat elsewhere
    assert board.ko is None
    board.play(BLACK, (3, 0))
    assert board.play(WHITE, (1, 1)) == [(1, 2)]        # now the retake is legal
    assert board.ko == ((1, 2), BLACK)
    for _ in range(3):
        board.undo()
    assert board == before and board.ko == ((1, 1), WHITE)


def test_ko_on_the_edge() -> None:
    board = parse_text(".XO\nXO.\n...\n")
    assert board.play(WHITE, (0, 0)) == [(0, 1)]
    assert board.ko == ((0, 1), BLACK)
    assert not board.is_legal(BLACK, (0, 1))


def test_pass_clears_ko_and_undoes() -> None:
    board = parse_text(".XO..\nXO.O.\n.XO..\n")
    board.play(BLACK, (1, 2))
    board.play(WHITE, None)
    assert board.ko is None and board.moves[-1] == (WHITE, None)
    assert board.is_legal(BLACK, None)
    assert board.undo() == (WHITE, None)
    assert board.ko == ((1, 1), WHITE)


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 2), (2, 1), (1, 5)])
def test_tiny_boards(rows: int, cols: int) -> None:
    board = Board(rows, cols)
    if rows * cols == 1:
        assert board.legal_moves(BLACK) == []
        with pytest.raises(InvalidInputError, match="suicide"):
            board.play(BLACK, (0, 0))
        loose = Board(1, allow_suicide=True)
        assert loose.play(BLACK, (0, 0)) == [] and loose.count(EMPTY) == 1
        return
    playout(board, 30, rows * 10 + cols, 1)


# ---------------------------------------------------------------- value semantics, input

def test_equality_copy_and_arrays() -> None:
    board = Board(9)
    board.play(BLACK, (2, 3))
    assert board == Board.from_array(board.to_array())
    assert board != Board.from_array(board.to_array(), allow_suicide=True)
    assert board != Board(9, 8) and board != "board"
    twin = board.copy(stack=False)
    assert twin == board and twin.moves == []
    twin.play(WHITE, (4, 4))
    assert twin != board and board[4, 4] == EMPTY
    full = board.copy()
    assert full.undo() == (BLACK, (2, 3)) and full == Board(9)
    with pytest.raises(TypeError):
        hash(board)
    assert repr(board) == "<Board 9x9: 1 black, 0 white, 1 moves>"
    assert board.shape == (9, 9) and board.count(BLACK) == 1


@pytest.mark.parametrize("array, match", [
    (np.zeros((0, 3)), r"non-empty 2-D array, got shape \(0, 3\)"),
    (np.zeros(5), r"non-empty 2-D array, got shape \(5,\)"),
    (np.full((2, 2), 0.5), "dtype float64"),
    ([[0, 1], [3, 0]], r"^value 3 at A1 is not 0 \(empty\), 1 \(black\) or 2 \(white\)$"),
])
def test_from_array_refuses_bad_arrays(array: object, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        Board.from_array(array)


@pytest.mark.parametrize("call, match", [
    (lambda b: b.play(3, (0, 0)), r"colour must be BLACK \(1\) or WHITE \(2\), got 3"),
    (lambda b: b.play(EMPTY, (0, 0)), "got 0"),
    (lambda b: b.play(True, (0, 0)), "got True"),
    (lambda b: b.play(BLACK, (5, 0)), r"point \(5, 0\) is off the 5x5 board"),
    (lambda b: b.play(BLACK, "C3"), r"a point is a pair \(row, col\), got 'C3'"),
    (lambda b: b.legal_moves(7), "got 7"),
])
def test_bad_moves_are_refused(call: object, match: str) -> None:
    board = Board(5)
    with pytest.raises(InvalidInputError, match=match):
        call(board)  # type: ignore[operator]
    assert board == Board(5)


def test_occupied_point_is_refused() -> None:
    board = Board(5)
    board.play(BLACK, (2, 2))
    with pytest.raises(InvalidInputError, match=r"^illegal move: white at C3: the point is "):
        board.play(WHITE, (2, 2))


def test_board_sizes() -> None:
    assert Board().shape == (19, 19) and Board(5, 7).shape == (5, 7)
    with pytest.raises(InvalidInputError, match="rows must be an integer >= 1, got 0"):
        Board(0)
    with pytest.raises(InvalidInputError, match="columns must be an integer >= 1, got 2.5"):
        Board(3, 2.5)  # type: ignore[arg-type]


def test_point_names() -> None:
    assert point_name((18, 0), 19, 19) == "A1"
    assert point_name((0, 8), 19, 19) == "J19"          # no I
    assert point_name((0, 24), 25, 25) == "Z25"
    assert point_name((3, 4), 5, 7) == "E2"
    assert point_name((3, 25), 30, 26) == "(3, 25)"
    assert parse_point("j19", 19, 19) == (0, 8)
    assert parse_point("(3, 25)", 30, 26) == (3, 25)
    for bad in ("I5", "A20", "Q", "(1, 2, 3)", "A0"):
        with pytest.raises(InvalidInputError, match=re.escape(f"'{bad}' is")):
            parse_point(bad, 19, 19)
