"""The Othello board, its notations, and the numba kernels against the slow reference."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi import _bitboard as bb
from gameopt.reversi import reference as ref
from gameopt.reversi.board import (
    BLACK,
    PASS,
    WHITE,
    Board,
    Move,
    moves_string,
    parse_moves,
    parse_square,
    square_name,
)

START = "---------------------------OX------XO--------------------------- X"
PERFT = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)


def u(x: int) -> np.uint64:
    return np.uint64(x)


def playout(rng: random.Random, start: Board | None = None) -> tuple[list[Board], list[Move]]:
    """A random game: every position from ``start`` to the end, and the moves played."""
    board = start or Board.start()
    boards, moves = [board], []
    while legal := board.legal_moves():
        move = rng.choice(legal)
        board = board.play(move)
        boards.append(board)
        moves.append(move)
    return boards, moves


@pytest.fixture(scope="module")
def positions() -> list[Board]:
    """About 3000 positions of 50 seeded random games, passes and game ends included."""
    rng = random.Random(20240601)
    return [b for _ in range(50) for b in playout(rng)[0]]


@pytest.fixture(scope="module")
def passing_game() -> list[Move]:
    """The moves of the first seeded random game that holds a pass."""
    for seed in range(1000):
        moves = playout(random.Random(seed))[1]
        if PASS in moves[:-1]:
            return moves
    raise AssertionError("no random game with a pass in 1000 seeds")


# ------------------------------------------------------------------------ notation
def test_squares_and_moves() -> None:
    assert [square_name(s) for s in (0, 7, 8, 63)] == ["a1", "h1", "a2", "h8"]
    assert all(parse_square(square_name(s)) == s for s in range(64))
    assert parse_square(" H8 ") == 63
    with pytest.raises(InvalidInputError, match=r"field 3: 'i9' is not a square"):
        parse_square("i9", "field 3")
    assert Move.from_str("G8") == Move(62) and str(Move(62)) == "g8"
    assert all(Move.from_str(t) == PASS for t in ("PS", "pa", "--", "pass"))
    assert str(PASS) == "PS" and PASS.is_pass and not Move(0).is_pass
    assert eval(repr(Move(19))) == Move(19) and eval(repr(PASS)) == PASS
    with pytest.raises(InvalidInputError, match="move square 65 is not in 0..64"):
        Move(65)
    with pytest.raises(InvalidInputError, match="ply 7: 'z0' is not a square"):
        Move.from_str("z0", "ply 7")


def test_board_string_round_trip(positions: list[Board]) -> None:
    assert str(Board.start()) == START and Board.from_str(START) == Board.start()
    for board in positions[::10]:
        assert Board.from_str(str(board)) == board
        assert eval(repr(board)) == board
    # Other spellings are read: '*' black, 'W' white, '.' empty, spaces between rows.
    alt = " ".join(START[i:i + 8] for i in range(0, 64, 8)).replace("-", ".") + " X"
    assert Board.from_str(alt.replace("X", "*").replace("O", "W")) == Board.start()
    white = Board.from_str(START[:-1] + "o")
    assert white.side == WHITE and (white.black, white.white) == (1 << 28 | 1 << 35,
                                                                  1 << 27 | 1 << 36)


@pytest.mark.parametrize(("text", "message"), [
    ("X" * 10, r"pos: 10 characters, expected 64 squares and the side to move"),
    (START[:64], r"pos: the side to move \(X or O\) is missing"),
    (START + "X", r"pos: 66 characters, expected 64 squares and one side to move"),
    (START[:2] + "Z" + START[3:], r"pos: unknown character 'Z' at square c1"),
    (START[:63] + "? X", r"pos: unknown character '\?' at square h8"),
    (START[:-1] + "Q", r"pos: side to move 'Q' is not X or O"),
])
def test_board_string_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        Board.from_str(text, "pos")


def test_board_value_errors() -> None:
    with pytest.raises(InvalidInputError, match="side to move 'B'"):
        Board(1, 2, "B")
    with pytest.raises(InvalidInputError, match="overlap"):
        Board(3, 2)
    with pytest.raises(InvalidInputError, match="exceed 64 bits"):
        Board(1 << 64, 2)


def test_parse_moves() -> None:
    moves = parse_moves("f5d6 C3 d3")
    assert moves == [Move(37), Move(43), Move(18), Move(19)] and moves_string(moves) == "f5d6c3d3"
    assert Board.from_moves("f5d6c3d3") == Board.start().play("f5").play("d6").play("c3").play(
        "d3")
    with pytest.raises(InvalidInputError, match=r"move list: ply 3: a1 is illegal for black"):
        parse_moves("f5d6a1")
    with pytest.raises(InvalidInputError, match=r"game 4: ply 4: d6 is illegal for white"):
        parse_moves("f5d6c3d6", where="game 4")
    with pytest.raises(InvalidInputError, match=r"ply 2: 'zz' is not a move"):
        parse_moves("f5zz")
    with pytest.raises(InvalidInputError, match=r"ply 1: PS is illegal for black"):
        parse_moves("ps")


def test_parse_moves_with_passes(passing_game: list[Move]) -> None:
    explicit = moves_string(passing_game)
    assert "PS" in explicit
    assert parse_moves(explicit) == passing_game
    implied = moves_string([m for m in passing_game if not m.is_pass])
    assert parse_moves(implied) == passing_game
    assert parse_moves(implied.replace("PS", "pa")) == passing_game


# ------------------------------------------------------------------------ rules
def test_play_and_legal_moves() -> None:
    board = Board.start()
    assert board.legal_moves() == [Move.from_str(s) for s in ("d3", "c4", "f5", "e6")]
    assert board.moves_bitboard() == sum(1 << m.square for m in board.legal_moves())
    after = board.play("f5")
    assert after.side == WHITE and after.discs() == (4, 1) and after.empties == 59
    assert board.play(Move.from_str("f5")) == after and board.flips(Move(37)) == 1 << 36
    assert board.flips(Move(0)) == 0 and board.flips(Move(27)) == 0 and board.flips(PASS) == 0
    assert board.is_legal(Move(37)) and not board.is_legal(Move(0))
    with pytest.raises(InvalidInputError, match="move a1 is illegal for X"):
        board.play("a1")
    with pytest.raises(InvalidInputError, match="pass is illegal"):
        board.play(PASS)


def test_pass_and_game_over(passing_game: list[Move]) -> None:
    board = Board.start()
    for move in passing_game:
        if move.is_pass:
            assert board.must_pass() and board.legal_moves() == [PASS]
            assert not board.is_game_over() and board.moves_bitboard() == 0
            with pytest.raises(InvalidInputError, match="is illegal"):
                board.play(Move.from_str("a1"))
        board = board.play(move)
    assert board.is_game_over() and board.legal_moves() == [] and not board.must_pass()
    with pytest.raises(InvalidInputError, match="pass is illegal"):
        board.play(PASS)
    assert board.score() == ref.final_score(board.player, board.opponent)
    # A wipe-out: the empties go to the winner.
    wiped = Board(0b11, 0, WHITE)
    assert wiped.is_game_over() and wiped.score() == 64 and wiped.discs() == (0, 2)
    assert Board(0, 0b111, BLACK).score() == -64 and Board(0b1, 0b10).score() == 0


# ------------------------------------------------------------------------ kernels
def test_moves_and_flips_match_reference(positions: list[Board]) -> None:
    assert len(positions) > 2500
    for board in positions:
        p, o = board.player, board.opponent
        assert int(bb.get_moves(u(p), u(o))) == sum(1 << s for s in ref.legal_moves(p, o))
        for s in range(64):
            if not (p | o) >> s & 1:
                assert int(bb.flips(u(p), u(o), s)) == ref.flipped(p, o, s), (board, s)
        if board.empties == 1:
            s = (~(p | o) & ((1 << 64) - 1)).bit_length() - 1
            assert bb.count_last_flip(u(p), u(o), s) == ref.flipped(p, o, s).bit_count()


def _dense(rng: random.Random, p_share: float) -> tuple[int, int]:
    """A random board, each square empty with probability 0.1, else P's with ``p_share``."""
    p = o = 0
    for s in range(64):
        x = rng.random()
        if x < 0.9 * p_share:
            p |= 1 << s
        elif x < 0.9:
            o |= 1 << s
    return p, o


def test_flips_and_full_lines_match_reference_on_dense_boards() -> None:
    # Mostly opponent discs: rays of O running to the board's edge (bit 0 and bit 63 too),
    # the case the leading-zero count of the lower rays guards against.
    rng = random.Random(18)
    lines = 0
    for i in range(400):
        p, o = _dense(rng, 0.05 + 0.3 * (i % 3))
        # runs of up to 6 opponent discs in every direction: the fill's double steps
        assert int(bb.get_moves(u(p), u(o))) == sum(1 << s for s in ref.legal_moves(p, o))
        assert int(bb.get_moves(u(o), u(p))) == sum(1 << s for s in ref.legal_moves(o, p))
        for s in range(64):
            if not (p | o) >> s & 1:
                assert int(bb.flips(u(p), u(o), s)) == ref.flipped(p, o, s), (p, o, s)
        got = tuple(int(x) for x in bb.full_lines(u(p | o)))
        assert got == ref.full_lines(p | o), (p, o)
        lines += sum(x.bit_count() for x in got)
    p, o = 1 << 63, ((1 << 63) - 1) & ~(1 << 0) & ~(1 << 9)  # b2 to play, a1 empty
    assert int(bb.flips(u(p), u(o), 0)) == ref.flipped(p, o, 0)
    assert lines > 1000  # full lines do occur


def _midgame(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board.start()
    for _ in range(plies):
        board = board.play(rng.choice(board.legal_moves()))
    return board


_PERFT_SCRIPT = """
import json, sys
import numpy as np
from gameopt.reversi import _bitboard as bb
jobs = json.loads(sys.stdin.read())
print(json.dumps([int(bb.perft(np.uint64(p), np.uint64(o), d, False)) for p, o, d in jobs]))
"""


def _kernel_perft(jobs: list[tuple[int, int, int]], cache: Path) -> list[int]:
    """``_bitboard.perft`` on each job, in a child with its own numba cache ``cache``.

    In a child, because a crash (e.g. numba loading a cached self-recursive function,
    numba issue #6061) must fail this test, not kill the test run.
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    cached = any(cache.iterdir())
    proc = subprocess.run([sys.executable, "-c", _PERFT_SCRIPT], input=json.dumps(jobs),
                          capture_output=True, text=True, env=env, timeout=600)
    why = " on loading its numba cache (numba#6061: cache=True on a self-recursive @njit)"
    assert proc.returncode == 0, (
        f"perft kernel died with exit code {proc.returncode} (negative: a signal, -11 a "
        f"segfault){why if cached else ''}:\n{proc.stderr[-2000:]}")
    return [int(n) for n in json.loads(proc.stdout)]


@pytest.fixture(scope="module")
def perft_jobs() -> list[tuple[int, int, int]]:
    start = Board.start()
    jobs = [(start.player, start.opponent, d) for d in range(1, 10)]
    for seed, plies, depth in ((1, 20, 4), (2, 30, 3), (3, 40, 3), (4, 50, 3)):
        board = _midgame(seed, plies)
        jobs.append((board.player, board.opponent, depth))
    return jobs


@pytest.fixture(scope="module")
def numba_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("numba_cache")


def test_perft_kernel(perft_jobs: list[tuple[int, int, int]], numba_cache: Path) -> None:
    counts = _kernel_perft(perft_jobs, numba_cache)  # compiles into an empty cache
    assert counts[:9] == PERFT
    start = Board.start()
    for d in range(1, 6):
        assert ref.perft(start.player, start.opponent, d) == PERFT[d - 1]
    for (p, o, d), n in zip(perft_jobs[9:], counts[9:], strict=True):
        assert n == ref.perft(p, o, d), (Board(p, o), d)


def test_perft_kernel_from_numba_cache(perft_jobs: list[tuple[int, int, int]],
                                       numba_cache: Path) -> None:
    """The second run loads the kernels cached by the first (as every later session does)."""
    if not any(numba_cache.iterdir()):
        _kernel_perft(perft_jobs[:1], numba_cache)
    assert _kernel_perft(perft_jobs[:9], numba_cache) == PERFT


def _check_never_flipped(p: int, o: int, stable: int, root_to_move: bool,
                         passed: bool = False) -> int:
    """Walk every continuation with the reference rules; the stable discs keep their colour.

    Returns the number of positions visited.
    """
    assert stable & (p if root_to_move else o) == stable
    moves = ref.legal_moves(p, o)
    if not moves:
        return 1 if passed else 1 + _check_never_flipped(o, p, stable, not root_to_move, True)
    visited = 1
    for s in moves:
        f = ref.flipped(p, o, s)
        visited += _check_never_flipped(o ^ f, p | f | (1 << s), stable, not root_to_move)
    return visited


def test_stable_discs_are_never_flipped() -> None:
    """With 2, 4, 6 (and in two games 8) empties, for both sides: every continuation."""
    rng = random.Random(7)
    visited = stable_total = 0
    for game in range(30):
        boards = playout(rng)[0]
        wanted = {2, 4, 6, 8} if game < 2 else {2, 4, 6}
        for board in boards:
            if board.empties not in wanted:
                continue
            wanted.discard(board.empties)
            for p, o in ((board.player, board.opponent), (board.opponent, board.player)):
                stable = int(bb.stable_discs(u(p), u(o)))
                assert stable & p == stable
                assert p & CORNERS & stable == p & CORNERS
                stable_total += stable.bit_count()
                visited += _check_never_flipped(p, o, stable, True)
        if boards[-1].empties == 0:
            assert boards[-1].stable_discs() == boards[-1].player
    assert visited > 10_000 and stable_total > 500


def test_stable_discs_small_cases(positions: list[Board]) -> None:
    assert Board.start().stable_discs() == 0
    for board in positions[::5]:
        stable = board.stable_discs()
        assert stable & board.player == stable
        assert board.player & CORNERS & stable == board.player & CORNERS


def test_stable_pair_is_both_sides_stable_discs(positions: list[Board]) -> None:
    """The shared-lines pair equals two calls of stable_discs, one for each side."""
    some = 0
    for board in positions:
        p, o = u(board.player), u(board.opponent)
        got = tuple(int(x) for x in bb.stable_pair(p, o))
        assert got == (int(bb.stable_discs(p, o)), int(bb.stable_discs(o, p))), board
        some += got[0] != 0 and got[1] != 0
    assert some > 0


def test_hash_position(positions: list[Board]) -> None:
    seen = set()
    for board in positions:
        p, o = u(board.player), u(board.opponent)
        h = int(bb.hash_position(p, o))
        assert h == board.hash() and 0 <= h < 1 << 64
        if board.player != board.opponent:
            assert h != int(bb.hash_position(o, p))
        seen.add((board.player, board.opponent, h))
    assert len({h for _, _, h in seen}) == len({(p, o) for p, o, _ in seen})


def test_count_last_flip_matches_reference_on_every_square() -> None:
    # one empty square, every other square random: both sides, each square of the board
    rng = random.Random(5)
    full = (1 << 64) - 1
    for s in range(64):
        for _ in range(60):
            p = rng.getrandbits(64) & ~(1 << s)
            if rng.random() < 0.3:  # long runs of one colour
                p = (p | rng.getrandbits(64) | rng.getrandbits(64)) & ~(1 << s)
            o = full & ~p & ~(1 << s)
            for a, b in ((p, o), (o, p)):
                assert bb.count_last_flip(u(a), u(b), s) == ref.flipped(a, b, s).bit_count(), (
                    s, hex(a))
