"""Conformance of every game state: seeded random playouts checked move by move.

One driver (:func:`playout`) plays random games through a small adapter per board class and
checks what every game state must do, whatever the game (OpenSpiel's ``random_sim_test``
is the model):

* the legal moves are the ones the slow, obviously correct reference of that game lists;
* every illegal move tried (occupied point, non-capturing square, pass while a move
  exists, ko retake, repeated value...) raises :class:`InvalidInputError` and leaves the
  position unchanged;
* make/unmake (or copy) restores the position exactly: after each move tried and taken
  back, and when the whole game is unwound to its start;
* each position satisfies its game's invariants (hash and equality agree, notations
  round-trip, strings and liberties match a flood fill, ...);
* the game ends exactly when the reference says it does, with the reference's score.

The boards: Othello (:class:`gameopt.reversi.Board`, immutable: ``play`` returns the next
position, so "unmake" is going back to the previous object, which must be untouched), Go
(:class:`gameopt.go.Board`, mutable with ``play``/``undo``), and the Sudoku grid
(:class:`gameopt.sudoku.grid.Puzzle`, immutable: placing and removing a value builds the
next grid, which the constructor checks).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import pytest

from gameopt import go
from gameopt import reversi as rv
from gameopt.errors import InvalidInputError
from gameopt.go import reference as go_ref
from gameopt.reversi import reference as rv_ref
from gameopt.sudoku import reference as sd_ref
from gameopt.sudoku.evolution import propagate_singles
from gameopt.sudoku.exact import count_solutions
from gameopt.sudoku.generator import random_grid
from gameopt.sudoku.grid import Puzzle

M = TypeVar("M")


class GameAdapter(Protocol, Generic[M]):
    """What :func:`playout` needs from a board class (one adapter per game)."""

    def legal(self) -> list[M]:
        """The legal moves by the board class, in a fixed order; ``[]`` when the game is
        over."""

    def reference_legal(self) -> list[M]:
        """The same, by the slow reference."""

    def play(self, move: M) -> None:
        """Make ``move`` (and check the position it gives against the reference)."""

    def undo(self) -> None:
        """Take the last move back."""

    def snapshot(self) -> Hashable:
        """Everything that defines the position (equal snapshots: equal positions)."""

    def check(self) -> None:
        """Assert the invariants of the current position."""

    def illegal(self, rng: random.Random) -> list[M]:
        """Some moves that must be refused here."""

    def finish(self) -> None:
        """Assert what holds at the end of the game (score, no move)."""


def playout(game: GameAdapter[Any], rng: random.Random, max_plies: int, tries: int = 2
            ) -> int:
    """Play one random game of at most ``max_plies`` moves, checking every position;
    return the number of moves played."""
    history: list[Hashable] = []
    for _ in range(max_plies):
        game.check()
        legal = game.legal()
        assert legal == game.reference_legal()
        before = game.snapshot()
        for move in game.illegal(rng):
            with pytest.raises(InvalidInputError):
                game.play(move)
            assert game.snapshot() == before, f"refused {move!r} changed the position"
        if not legal:
            game.finish()
            break
        for move in rng.sample(legal, min(tries, len(legal))):   # make / unmake
            game.play(move)
            game.check()
            game.undo()
            assert game.snapshot() == before, f"undo of {move!r} did not restore"
        history.append(before)
        game.play(rng.choice(legal))
    game.check()
    played = len(history)
    while history:                                                # unwind the whole game
        game.undo()
        assert game.snapshot() == history.pop()
    return played


# --------------------------------------------------------------------------- Othello

class ReversiGame:
    """Othello through :class:`gameopt.reversi.Board`, against :mod:`gameopt.reversi.reference`.

    Also checks that the 64-bit hash is a function of ``(player, opponent)`` (``hashes``
    maps each position seen to it), and that stable discs are never flipped later in the
    game.
    """

    def __init__(self, hashes: dict[tuple[int, int], int]) -> None:
        self.boards = [rv.Board.start()]
        self.stable = [(0, 0)]                 # (black, white) discs proved stable so far
        self.hashes = hashes
        self.passes = self.ends = 0

    @property
    def board(self) -> rv.Board:
        return self.boards[-1]

    def legal(self) -> list[rv.Move]:
        return self.board.legal_moves()

    def reference_legal(self) -> list[rv.Move]:
        b = self.board
        squares = rv_ref.legal_moves(b.player, b.opponent)
        if squares:
            return [rv.Move(s) for s in squares]
        return [rv.PASS] if rv_ref.legal_moves(b.opponent, b.player) else []

    def play(self, move: rv.Move) -> None:
        b = self.board
        nxt = b.play(move)
        other = rv.WHITE if b.side == rv.BLACK else rv.BLACK
        if move.is_pass:
            self.passes += 1
            assert nxt == rv.Board(b.opponent, b.player, other)
        else:
            f = rv_ref.flipped(b.player, b.opponent, move.square)
            assert b.flips(move) == f != 0
            assert nxt == rv.Board(b.opponent ^ f, b.player | f | 1 << move.square, other)
        self.boards.append(nxt)
        black, white = self.stable[-1]
        s = nxt.stable_discs()
        assert s & ~nxt.player == 0
        self.stable.append((black | s, white) if nxt.side == rv.BLACK else (black, white | s))

    def undo(self) -> None:
        self.boards.pop()
        self.stable.pop()

    def snapshot(self) -> Hashable:
        b = self.board
        return b.player, b.opponent, b.side, b.hash()

    def check(self) -> None:
        b = self.board
        assert self.hashes.setdefault((b.player, b.opponent), b.hash()) == b.hash()
        copy = rv.Board.from_str(str(b))
        assert copy == b and copy.hash() == b.hash() and eval(repr(b), vars(rv)) == b
        black, white = self.stable[-1]
        assert black & ~b.black == 0 and white & ~b.white == 0, "a stable disc was flipped"
        assert b.black_score() == (b.score() if b.side == rv.BLACK else -b.score())

    def illegal(self, rng: random.Random) -> list[rv.Move]:
        b = self.board
        full = b.player | b.opponent
        out = [rv.Move(rng.choice([s for s in range(64) if full >> s & 1]))]
        others = [s for s in range(64) if not (full | b.moves_bitboard()) >> s & 1]
        if others:
            out.append(rv.Move(rng.choice(others)))
        if not b.must_pass():
            out.append(rv.PASS)
        return out

    def finish(self) -> None:
        b = self.board
        self.ends += 1
        assert b.is_game_over() and not b.must_pass() and b.moves_bitboard() == 0
        assert b.score() == rv_ref.final_score(b.player, b.opponent)


def test_reversi_random_games() -> None:
    hashes: dict[tuple[int, int], int] = {}
    passes = ends = plies = 0
    for seed in range(12):
        game = ReversiGame(hashes)
        plies += playout(game, random.Random(seed), max_plies=80)
        passes, ends = passes + game.passes, ends + game.ends
    assert ends == 12 and passes > 0 and plies > 12 * 55   # whole games, passes included
    # Distinct positions should get distinct hashes. Not always: ``P * H1 + O`` (mod 2**64)
    # keeps only 8 bits of a change confined to row 8, so two positions that differ only
    # there share a hash with probability 1/256 (one such pair occurs in these games).
    assert len(hashes) > 1500 and len(set(hashes.values())) >= len(hashes) - 2


# --------------------------------------------------------------------------- Go

GoMove = tuple[int, int] | None


class GoGame:
    """Go through :class:`gameopt.go.Board` (alternating colours, a pass is ``None``; two
    passes in a row end the game), against the flood fill of :mod:`gameopt.go.reference`."""

    def __init__(self, rows: int, cols: int, allow_suicide: bool = False) -> None:
        self.board = go.Board(rows, cols, allow_suicide=allow_suicide)
        self.colour = go.BLACK
        self.captures = self.kos = self.suicides = self.ends = 0

    def _over(self) -> bool:
        m = self.board.moves
        return len(m) >= 2 and m[-1][1] is None and m[-2][1] is None

    def _ko_point(self) -> tuple[int, int] | None:
        ko = self.board.ko
        return ko[0] if ko is not None and ko[1] == self.colour else None

    def _grid(self) -> list[list[int]]:
        return self.board.to_array().tolist()

    def legal(self) -> list[GoMove]:
        if self._over():
            return []
        return [*self.board.legal_moves(self.colour), None]

    def reference_legal(self) -> list[GoMove]:
        if self._over():
            return []
        return [*go_ref.reference_legal_moves(self._grid(), self.colour, self._ko_point(),
                                              self.board.allow_suicide), None]

    def play(self, move: GoMove) -> None:
        b, colour = self.board, self.colour
        if move is None:
            assert b.play(colour, None) == [] and b.ko is None
        else:
            legal = b.is_legal(colour, move)      # refuses a point off the board
            want = go_ref.reference_play(self._grid(), colour, move, self._ko_point(),
                                         b.allow_suicide)
            assert legal == (want is not None)
            captured = b.play(colour, move)
            assert want is not None
            grid, ref_captured, ko = want
            assert captured == ref_captured and self._grid() == grid
            assert b.ko == (None if ko is None else (ko, go.opponent(colour)))
            self.captures += bool(captured)
            self.kos += ko is not None
            self.suicides += b[move] == go.EMPTY
        self.colour = go.opponent(colour)

    def undo(self) -> None:
        colour, _ = self.board.undo()
        assert colour == go.opponent(self.colour)
        self.colour = colour

    def snapshot(self) -> Hashable:
        b = self.board
        return b.to_array().tobytes(), b.ko, self.colour, len(b.moves)

    def check(self) -> None:
        b = self.board
        ref = go_ref.reference_strings(self._grid())
        assert [(s.colour, list(s.stones), list(s.liberties)) for s in b.strings()] == ref
        for colour, stones, libs in ref:     # the incremental layer agrees with the kernel
            assert b.string_at(stones[-1]) == go.GoString(colour, tuple(stones), tuple(libs))
        assert b.is_legal_position() and b.string_count() == len(ref)
        assert b.count(go.EMPTY) + b.count(go.BLACK) + b.count(go.WHITE) == b.rows * b.cols
        with pytest.raises(TypeError):
            hash(b)                          # mutable: no hash
        if len(b.moves) % 16 == 1:           # copies: equal, independent, same history
            flat, stacked = b.copy(stack=False), b.copy()
            assert flat == b == stacked and stacked.moves == b.moves
            stacked.undo()
            assert flat == b and len(b.moves) == len(stacked.moves) + 1

    def illegal(self, rng: random.Random) -> list[GoMove]:
        b = self.board
        arr = b.to_array()
        out: list[GoMove] = []
        stones = np.argwhere(arr != go.EMPTY)
        if len(stones):
            r, c = stones[rng.randrange(len(stones))]
            out.append((int(r), int(c)))
        if self._ko_point() is not None:
            out.append(self._ko_point())
        if not self._over():
            legal = set(b.legal_moves(self.colour))
            empty = [(int(r), int(c)) for r, c in np.argwhere(arr == go.EMPTY)
                     if (int(r), int(c)) not in legal]
            out += rng.sample(empty, min(2, len(empty)))   # suicide (or ko)
        out.append((b.rows, 0))                            # off the board
        return out

    def finish(self) -> None:
        assert self._over()
        self.ends += 1


@pytest.mark.parametrize(("rows", "cols", "suicide", "games", "plies"), [
    (5, 5, False, 8, 120),
    (4, 7, False, 6, 120),
    (9, 9, False, 2, 160),
    (5, 5, True, 6, 120),
])
def test_go_random_games(rows: int, cols: int, suicide: bool, games: int, plies: int) -> None:
    captures = kos = suicides = ends = 0
    for seed in range(games):
        game = GoGame(rows, cols, allow_suicide=suicide)
        playout(game, random.Random(1000 * rows + seed), max_plies=plies)
        captures, kos, suicides, ends = (captures + game.captures, kos + game.kos,
                                         suicides + game.suicides, ends + game.ends)
    assert captures > 0 and kos > 0 and ends > 0    # the rules were exercised
    assert (suicides > 0) == suicide


# --------------------------------------------------------------------------- Sudoku

SudokuMove = tuple[int, int]   # (cell, value); value 0 empties the cell


class SudokuGrid:
    """Placing values on a Sudoku grid one cell at a time (:class:`Puzzle` refuses a value
    repeated in a row, column or box), against a plain peer check, until the grid is full
    or stuck. Each position's solution count by the exact kernel is compared with the
    plain backtracking reference (:mod:`gameopt.sudoku.reference`)."""

    def __init__(self, box: int) -> None:
        self.box, self.n = box, box * box
        self.puzzles = [Puzzle(box, np.zeros(self.n * self.n, dtype=np.int8))]

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[-1]

    def _peers_hold(self, cells: list[int], i: int, v: int) -> bool:
        n, b = self.n, self.box
        r, c = divmod(i, n)
        r0, c0 = r - r % b, c - c % b
        peers = [r * n + k for k in range(n)] + [k * n + c for k in range(n)] + [
            (r0 + dr) * n + c0 + dc for dr in range(b) for dc in range(b)]
        return any(cells[q] == v for q in peers if q != i)

    def _accepts(self, cells: list[int]) -> bool:
        try:
            Puzzle(self.box, np.array(cells, dtype=np.int8))
        except InvalidInputError:
            return False
        return True

    def legal(self) -> list[SudokuMove]:
        cells = self.puzzle.cells.tolist()
        out = []
        for i, v0 in enumerate(cells):
            if v0 == 0:
                for v in range(1, self.n + 1):
                    if self._accepts(cells[:i] + [v] + cells[i + 1:]):
                        out.append((i, v))
        return out

    def reference_legal(self) -> list[SudokuMove]:
        cells = self.puzzle.cells.tolist()
        return [(i, v) for i, v0 in enumerate(cells) if v0 == 0
                for v in range(1, self.n + 1) if not self._peers_hold(cells, i, v)]

    def play(self, move: SudokuMove) -> None:
        i, v = move
        cells = self.puzzle.cells.copy()
        cells[i] = v
        self.puzzles.append(Puzzle(self.box, cells))

    def undo(self) -> None:
        """Remove the last value placed, by building the grid without it."""
        last, prev = self.puzzles.pop(), self.puzzles[-1]
        (i,) = np.flatnonzero(last.cells != prev.cells)
        cells = last.cells.copy()
        cells[i] = 0
        self.puzzles[-1] = Puzzle(self.box, cells)

    def snapshot(self) -> Hashable:
        return self.puzzle.to_line()

    def check(self) -> None:
        p = self.puzzle
        assert Puzzle.from_string(p.to_line()).to_line() == p.to_line()
        assert eval(repr(p), {"Puzzle": Puzzle}).to_line() == p.to_line()
        count, first = sd_ref.count_solutions_reference(p, limit=2)
        out = count_solutions(p, limit=2)
        assert out.count == count
        if count:
            assert out.solution is not None and first is not None
            ok = out.solution.tolist()
            assert all(g in (0, s) for g, s in zip(p.cells.tolist(), ok, strict=True))
        if count == 1:
            assert out.solution.tolist() == first  # type: ignore[union-attr]

    def illegal(self, rng: random.Random) -> list[SudokuMove]:
        cells = self.puzzle.cells.tolist()
        empty = [i for i, v in enumerate(cells) if v == 0]
        if not empty:
            return []
        i = rng.choice(empty)
        repeats = [v for v in range(1, self.n + 1) if self._peers_hold(cells, i, v)]
        return [(i, v) for v in repeats[:2]] + [(i, self.n + 1)]

    def finish(self) -> None:
        cells = self.puzzle.cells.tolist()
        assert 0 not in cells or count_solutions(self.puzzle).count == 0   # full or stuck


def test_sudoku_place_and_remove() -> None:
    for seed in range(6):
        assert playout(SudokuGrid(2), random.Random(seed), max_plies=20) > 0


def test_sudoku_removals_from_a_full_grid() -> None:
    """Emptying cells of a full 9x9 grid one by one: the grid stays a solution of every
    puzzle on the way, so the exact kernel and the reference find it among at most two
    solutions, and singles propagation only fixes cells to the grid's values and never
    drops a value of the grid from a cell's candidates."""
    for seed in range(3):
        rng = np.random.default_rng(seed)
        full = random_grid(3, rng)
        cells = full.copy()
        order = rng.permutation(81)
        for k, i in enumerate(order[:50]):
            cells[i] = 0
            p = Puzzle(3, cells)
            if k % 5 == 4:
                count, _ = sd_ref.count_solutions_reference(p, limit=2)
                assert count_solutions(p).count == count >= 1
            fixed, cand = propagate_singles(p)
            assert np.all((fixed == 0) | (fixed == full))
            assert np.all((cand >> full.astype(np.int64)) & 1)
