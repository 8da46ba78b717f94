"""Othello positions: squares, moves, the board and its notations.

A :class:`Board` is immutable: ``(player, opponent)`` bitboards relative to the side to
move (as Edax), plus that side's colour. ``board.play(move)`` returns the next position;
the previous one is the undo (the search kernels do the same with two ``uint64`` values,
so make/unmake is a copy of 16 bytes).

Notation
--------
Squares ``a1``..``h8`` (file letter, rank digit; case-insensitive on input), bit
``8 * (rank - 1) + file``. A pass is ``PS`` (``PA`` and ``--`` are read too). A move list is
the moves written one after another (``f5d6c3``; spaces allowed, passes explicit or implied
when the side to move has no legal move). A board string is 64 characters ``X`` (black),
``O`` (white), ``-`` (empty), row by row from a1 to h8, then the side to move ``X`` or
``O``; ``*``/``#``/``B`` for black, ``W`` for white and ``.`` for empty are also read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from gameopt.core.limit import check_count
from gameopt.errors import InvalidInputError
from gameopt.reversi import _bitboard as bb

__all__ = ["Square", "Move", "PASS", "SQUARE_SYMMETRIES", "Board", "BLACK", "WHITE", "perft",
           "square_name", "parse_square", "parse_moves", "moves_string"]

Square = int
BLACK = "X"
WHITE = "O"

_FILES = "abcdefgh"


def square_name(s: Square) -> str:
    """``0 -> 'a1'``, ``63 -> 'h8'``."""
    return _FILES[s % 8] + str(s // 8 + 1)


def parse_square(text: str, where: str = "square") -> Square:
    """``'a1' -> 0``; raises :class:`InvalidInputError` naming ``where`` on bad input."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in _FILES or t[1] not in "12345678":
        raise InvalidInputError(f"{where}: {text!r} is not a square (a1..h8)")
    return 8 * (int(t[1]) - 1) + _FILES.index(t[0])


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a square 0..63, or :data:`PASS` (square 64)."""

    square: int

    PASS_SQUARE: ClassVar[int] = 64

    def __post_init__(self) -> None:
        if not 0 <= self.square <= 64:
            raise InvalidInputError(f"move square {self.square} is not in 0..64")

    @classmethod
    def from_str(cls, text: str, where: str = "move") -> Move:
        t = text.strip().upper()
        if t in ("PS", "PA", "--", "PASS"):
            return cls(64)
        return cls(parse_square(text, where))

    @property
    def is_pass(self) -> bool:
        return self.square == 64

    def __str__(self) -> str:
        return "PS" if self.is_pass else square_name(self.square)

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"


PASS = Move(64)


def _square_symmetries() -> tuple[np.ndarray, ...]:
    """The 8 symmetries of the board as square permutations: ``perm[s]`` is the image of
    square ``s`` (the identity first; rotations by 0, 90, 180, 270 degrees, each also
    transposed)."""
    sq = np.arange(64).reshape(8, 8)  # [row, col]
    perms = []
    for k in range(4):
        r = np.rot90(sq, k)
        for img in (r, r.T):
            p = np.empty(64, dtype=np.int64)
            p[img.ravel()] = np.arange(64)  # square img[i] goes to position i
            perms.append(p)
    return tuple(perms)


#: The 8 board symmetries as square permutations (see :func:`_square_symmetries`).
SQUARE_SYMMETRIES = _square_symmetries()

_BLACK_CHARS = "XB*#"
_WHITE_CHARS = "OW"
_EMPTY_CHARS = "-.E"


@dataclass(frozen=True, slots=True)
class Board:
    """An Othello position: discs of the side to move and of the other side, and who moves.

    Attributes
    ----------
    player, opponent : int
        Bitboards (Python ints below 2**64, disjoint) of the side to move and the other.
    side : str
        ``'X'`` when black is to move, ``'O'`` when white is.
    """

    player: int
    opponent: int
    side: str = BLACK

    def __post_init__(self) -> None:
        if self.side not in (BLACK, WHITE):
            raise InvalidInputError(f"side to move {self.side!r}: expected 'X' or 'O'")
        if self.player & self.opponent or not 0 <= self.player < 1 << 64 \
                or not 0 <= self.opponent < 1 << 64:
            raise InvalidInputError("board: player and opponent bitboards overlap or exceed "
                                    "64 bits")

    # ------------------------------------------------------------------ construction
    @classmethod
    def start(cls) -> Board:
        """The standard start: white d4 e5, black d5 e4, black to move."""
        return cls((1 << 28) | (1 << 35), (1 << 27) | (1 << 36), BLACK)

    @classmethod
    def from_colours(cls, black: int, white: int, side: str) -> Board:
        return cls(black, white, side) if side == BLACK else cls(white, black, side)

    @classmethod
    def from_str(cls, text: str, where: str = "board") -> Board:
        """Read a board string (64 squares then the side to move; spaces are ignored)."""
        t = re.sub(r"[\s;]", "", text)
        if len(t) < 64:
            raise InvalidInputError(f"{where}: {len(t)} characters, expected 64 squares "
                                    "and the side to move")
        if len(t) == 64:
            raise InvalidInputError(f"{where}: the side to move (X or O) is missing after the "
                                    "64 squares")
        if len(t) > 65:
            raise InvalidInputError(f"{where}: {len(t)} characters, expected 64 squares and "
                                    "one side to move")
        black = white = 0
        for s, ch in enumerate(t[:64]):
            c = ch.upper()
            if c in _BLACK_CHARS:
                black |= 1 << s
            elif c in _WHITE_CHARS:
                white |= 1 << s
            elif c not in _EMPTY_CHARS:
                raise InvalidInputError(f"{where}: unknown character {ch!r} at square "
                                        f"{square_name(s)} (expected X, O or -)")
        side = t[64].upper()
        if side in _BLACK_CHARS:
            side = BLACK
        elif side in _WHITE_CHARS:
            side = WHITE
        else:
            raise InvalidInputError(f"{where}: side to move {t[64]!r} is not X or O")
        return cls.from_colours(black, white, side)

    @classmethod
    def from_moves(cls, moves: str, start: Board | None = None) -> Board:
        """The position after a move list from ``start`` (default the start position)."""
        board = start or cls.start()
        for mv in parse_moves(moves, board):
            board = board.play(mv)
        return board

    # ------------------------------------------------------------------ views
    @property
    def black(self) -> int:
        return self.player if self.side == BLACK else self.opponent

    @property
    def white(self) -> int:
        return self.opponent if self.side == BLACK else self.player

    @property
    def empties(self) -> int:
        """Number of empty squares."""
        return 64 - (self.player | self.opponent).bit_count()

    def discs(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def __str__(self) -> str:
        cells = []
        for s in range(64):
            cells.append("X" if self.black >> s & 1 else "O" if self.white >> s & 1 else "-")
        return "".join(cells) + " " + self.side

    def __repr__(self) -> str:
        return f"Board.from_str({str(self)!r})"

    def draw(self, marks: int = 0) -> str:
        """A text diagram (``*`` marks the squares of ``marks``, e.g. the legal moves)."""
        rows = ["  a b c d e f g h"]
        for r in range(8):
            line = [str(r + 1)]
            for c in range(8):
                s = 8 * r + c
                line.append("X" if self.black >> s & 1 else "O" if self.white >> s & 1
                            else "*" if marks >> s & 1 else "-")
            rows.append(" ".join(line))
        b, w = self.discs()
        rows.append(f"X {b}  O {w}  {'black' if self.side == BLACK else 'white'} to move")
        return "\n".join(rows)

    # ------------------------------------------------------------------ rules
    def _u(self) -> tuple[np.uint64, np.uint64]:
        return np.uint64(self.player), np.uint64(self.opponent)

    def moves_bitboard(self) -> int:
        """Bitboard of the legal moves of the side to move."""
        return int(bb.get_moves(*self._u()))

    def legal_moves(self) -> list[Move]:
        """Legal moves in square order; ``[PASS]`` when the side must pass; ``[]`` at the end."""
        m = self.moves_bitboard()
        if m:
            return [Move(s) for s in range(64) if m >> s & 1]
        if int(bb.get_moves(np.uint64(self.opponent), np.uint64(self.player))):
            return [PASS]
        return []

    def is_game_over(self) -> bool:
        return not self.legal_moves()

    def must_pass(self) -> bool:
        return self.legal_moves() == [PASS]

    def flips(self, move: Move) -> int:
        """Bitboard of the discs the move flips (0 for a pass or an illegal move)."""
        if move.is_pass or (self.player | self.opponent) >> move.square & 1:
            return 0
        return int(bb.flips(*self._u(), move.square))

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    def play(self, move: Move | str) -> Board:
        """The position after ``move``; raises :class:`InvalidInputError` if it is illegal."""
        mv = Move.from_str(move) if isinstance(move, str) else move
        other = WHITE if self.side == BLACK else BLACK
        if mv.is_pass:
            if not self.must_pass():
                raise InvalidInputError(f"pass is illegal: {self.side} has a legal move "
                                        "or the game is over")
            return Board(self.opponent, self.player, other)
        f = self.flips(mv)
        if not f:
            raise InvalidInputError(f"move {mv} is illegal for {self.side} in {self}")
        return Board(self.opponent ^ f, self.player | f | (1 << mv.square), other)

    def score(self) -> int:
        """Final disc difference for the side to move (empties to the winner)."""
        p, o = self.player.bit_count(), self.opponent.bit_count()
        e = 64 - p - o
        return p - o + (e if p > o else -e if p < o else 0)

    def black_score(self) -> int:
        """:meth:`score` from Black's side."""
        return self.score() if self.side == BLACK else -self.score()

    def hash(self) -> int:
        """64-bit hash of the position (the transposition table's mix)."""
        return int(bb.hash_position(*self._u()))

    def stable_discs(self) -> int:
        """Bitboard of discs of the side to move that can never be flipped (a lower bound)."""
        return int(bb.stable_discs(*self._u()))


_TOKEN = re.compile(r"\s*(ps|pa|--|[a-h][1-8])", re.IGNORECASE)


def parse_moves(text: str, start: Board | None = None, where: str = "move list") -> list[Move]:
    """Parse and check a move list (``f5d6c3``); passes may be implied.

    Raises :class:`InvalidInputError` naming the ply (1-based) and the move when a token is
    not a move or a move is illegal.
    """
    board = start or Board.start()
    out: list[Move] = []
    pos, ply = 0, 0
    stripped = text.rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if not m:
            raise InvalidInputError(f"{where}: ply {ply + 1}: {stripped[pos:pos + 2]!r} is not "
                                    "a move (a1..h8 or PS)")
        mv = Move.from_str(m.group(1))
        pos = m.end()
        if not mv.is_pass and board.must_pass():  # implied pass
            out.append(PASS)
            board = board.play(PASS)
            ply += 1
        ply += 1
        if not board.is_legal(mv):
            raise InvalidInputError(f"{where}: ply {ply}: {mv} is illegal for "
                                    f"{'black' if board.side == BLACK else 'white'}")
        out.append(mv)
        board = board.play(mv)
    return out


def moves_string(moves: list[Move]) -> str:
    """``[f5, d6] -> 'f5d6'``."""
    return "".join(str(m) for m in moves)


def perft(board: Board, depth: int) -> int:
    """The number of leaves of the move tree ``depth`` plies below ``board``.

    A pass is a ply and the end of the game is a leaf (the convention of the published
    Othello perft tables: 4, 12, 56, 244, 1396, ... from the start). The numba kernel
    :func:`gameopt.reversi._bitboard.perft`; its plain twin is
    :func:`gameopt.reversi.reference.perft`. O(b^depth) positions, the last ply counted in
    bulk.

    Raises
    ------
    InvalidInputError
        ``depth`` not a whole number in 0..60.
    """
    d = check_count(depth, "perft depth", minimum=0, maximum=60)
    assert d is not None
    return int(bb.perft(np.uint64(board.player), np.uint64(board.opponent), d, False))
