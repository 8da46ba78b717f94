"""Opening book: built by the engine, negamax-backed, keyed by position up to symmetry.

Building (:func:`build_book`) expands the game tree from a position (the start by
default) to ``depth`` plies. At each book position every legal move gets a value: the
``eval_depth`` search of the position after it; moves within ``width`` discs of the best
are expanded further (a deviation window, as in Edax's book), and their values are then
backed up by negamax from the deeper book positions. Each of the 8 symmetric images of a
position shares one entry (keyed by the smallest image), so the four first moves cost one.

Values are in discs for the side to move (midgame evaluations, exact when a search reached
the end). A book is an ``.npz`` file: ``player``, ``opponent`` (uint64, n), ``moves``
(int8, n × 32, squares in the key's frame, -1 padded), ``values`` (float32, n × 32) and a
JSON ``meta`` string (format version and build parameters); written atomically.

References
----------
R. Delorme, Edax (its ``book`` module: negamax-backed book with a deviation window).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gameopt.core.files import atomic_write_bytes
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import PASS, SQUARE_SYMMETRIES, Board, Move
from gameopt.reversi.search import search

__all__ = ["Book", "build_book", "read_book", "write_book", "FORMAT"]

FORMAT = "gameopt-book-1"


_PERMS = list(SQUARE_SYMMETRIES)
_BITS = np.uint64(1) << np.arange(64, dtype=np.uint64)


def _apply(perm: np.ndarray, x: int) -> int:
    bits = (np.uint64(x) & _BITS) != 0
    out = np.zeros(64, dtype=bool)
    out[perm[bits.nonzero()[0]]] = True
    return int(np.bitwise_or.reduce(_BITS[out], initial=np.uint64(0)))


def canonical(board: Board) -> tuple[tuple[int, int], int]:
    """``((player, opponent), t)``: the smallest symmetric image and the symmetry used."""
    best: tuple[int, int] | None = None
    bt = 0
    for t, perm in enumerate(_PERMS):
        key = (_apply(perm, board.player), _apply(perm, board.opponent))
        if best is None or key < best:
            best, bt = key, t
    assert best is not None
    return best, bt


@dataclass
class Book:
    """Move values per position (up to symmetry); see the module notes."""

    entries: dict[tuple[int, int], dict[int, float]] = field(default_factory=dict)
    meta: dict[str, object] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, board: Board) -> dict[Move, float]:
        """Book values of the moves of ``board`` (empty when it is not in the book)."""
        key, t = canonical(board)
        vals = self.entries.get(key)
        if not vals:
            return {}
        inv = np.argsort(_PERMS[t])  # square in the key's frame -> square on this board
        return {Move(int(inv[s]) if s < 64 else 64): v for s, v in vals.items()}

    def choose(self, board: Board, variety: float = 0.0,
               rng: np.random.Generator | None = None) -> Move | None:
        """The best book move, or a random one within ``variety`` discs of it."""
        vals = self.lookup(board)
        if not vals:
            return None
        top = max(vals.values())
        good = sorted((m for m, v in vals.items() if v >= top - variety), key=lambda m: m.square)
        if variety <= 0 or rng is None or len(good) == 1:
            return max(vals, key=lambda m: (vals[m], -m.square))
        return good[int(rng.integers(len(good)))]


def build_book(depth: int = 6, eval_depth: int = 4, width: float = 1.0,
               start: Board | None = None,
               progress: Callable[[int], None] | None = None) -> Book:
    """Negamax-backed book to ``depth`` plies (see the module notes).

    Raises
    ------
    InvalidInputError
        ``depth`` < 1, ``eval_depth`` < 1 or ``width`` < 0.

    Notes
    -----
    Cost: one ``eval_depth`` search per move of each book position; the number of book
    positions grows with ``width`` (about the number of moves within the window, to the
    power ``depth``).
    """
    if depth < 1 or eval_depth < 1 or width < 0:
        raise InvalidInputError(f"book: depth={depth}, eval_depth={eval_depth}, "
                                f"width={width}: need depth, eval_depth >= 1, width >= 0")
    book = Book(meta={"format": FORMAT, "depth": depth, "eval_depth": eval_depth,
                      "width": width})
    _expand(book, start or Board.start(), 0, depth, eval_depth, width, progress)
    return book


def _value_after(board: Board, eval_depth: int) -> float:
    """Value for the side that just moved into ``board``."""
    if board.is_game_over():
        return float(-board.score())
    return -search(board, depth=eval_depth).score


def _expand(book: Book, board: Board, ply: int, depth: int, eval_depth: int, width: float,
            progress: Callable[[int], None] | None) -> float:
    """Value of ``board`` for its side to move, adding it (and below) to the book."""
    moves = board.legal_moves()
    if not moves:
        return float(board.score())
    if moves == [PASS]:
        return -_expand(book, board.play(PASS), ply, depth, eval_depth, width, progress)
    key, t = canonical(board)
    if key in book.entries:
        return max(book.entries[key].values())
    perm = _PERMS[t]
    vals = {m: _value_after(board.play(m), eval_depth) for m in moves}
    if ply + 1 < depth:
        top = max(vals.values())
        for m in moves:
            if vals[m] >= top - width:
                vals[m] = -_expand(book, board.play(m), ply + 1, depth, eval_depth, width,
                                   progress)
    book.entries[key] = {int(perm[m.square]): v for m, v in vals.items()}
    if progress is not None:
        progress(len(book.entries))
    return max(vals.values())


def write_book(path: str | Path, book: Book) -> None:
    """Save as ``.npz`` (atomic)."""
    n = len(book.entries)
    P = np.zeros(n, dtype=np.uint64)
    O = np.zeros(n, dtype=np.uint64)  # noqa: E741
    moves = np.full((n, 32), -1, dtype=np.int8)
    values = np.zeros((n, 32), dtype=np.float32)
    for i, ((p, o), vals) in enumerate(book.entries.items()):
        P[i], O[i] = p, o
        for j, (s, v) in enumerate(sorted(vals.items())):
            moves[i, j] = s
            values[i, j] = v
    buf = io.BytesIO()
    np.savez_compressed(buf, player=P, opponent=O, moves=moves, values=values,
                        meta=np.array(json.dumps(book.meta)))
    atomic_write_bytes(path, buf.getvalue())


def read_book(path: str | Path) -> Book:
    """Load a book written by :func:`write_book`.

    Raises
    ------
    InvalidInputError
        A missing or unreadable file, another format, or inconsistent arrays.
    """
    p = Path(path)
    if not p.is_file():
        raise InvalidInputError(f"{p}: no such file")
    try:
        with np.load(p, allow_pickle=False) as z:
            P, O, moves, values = z["player"], z["opponent"], z["moves"], z["values"]  # noqa: E741
            meta = json.loads(str(z["meta"]))
    except (OSError, ValueError, KeyError) as e:
        raise InvalidInputError(f"{p}: not a gameopt book ({e})") from None
    if meta.get("format") != FORMAT:
        raise InvalidInputError(f"{p}: format {meta.get('format')!r}, expected {FORMAT}")
    n = P.shape[0]
    if O.shape != (n,) or moves.shape != (n, 32) or values.shape != (n, 32):
        raise InvalidInputError(f"{p}: arrays of inconsistent shapes")
    book = Book(meta=meta)
    for i in range(n):
        row = {int(s): float(v) for s, v in zip(moves[i], values[i], strict=True) if s >= 0}
        if any(s > 63 for s in row):
            raise InvalidInputError(f"{p}: entry {i} has a square outside 0..63")
        book.entries[(int(P[i]), int(O[i]))] = row
    return book
