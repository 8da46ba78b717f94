"""Opening book: built by the engine, negamax-backed, keyed by position up to symmetry.

Building (:func:`build_book`) expands the game tree from a position (the start by
default) to ``depth`` plies. At each book position every legal move gets a value: a
search of the position after it, ``eval_depth`` plies deep at the book's last ply and one
ply deeper at every other ply above it, so that every value, expanded or not, rests on
leaves at the parity of ``depth + eval_depth`` plies from the start (Othello's evaluations
swing between odd and even depths, and values of both parities side by side would expand
the moves of one parity and leave the other's). Moves within ``width`` discs of the best
are expanded further (a deviation window, as in Edax's book), and their values are then
backed up by negamax from the deeper book positions. The window follows the backed-up
values: when the expanded moves fall, a move that now comes within ``width`` of the best
is expanded too, so the best move of every book position above ``depth`` leads into the
book. Each of the 8 symmetric images of a position shares one entry (keyed by the
smallest image), so the four first moves cost one.

Learning (:func:`learn_line`, NBoard's ``learn``) adds a played game to a book: every
position of the line gets a value for each of its moves (kept if the book already has
one, else the ``eval_depth`` search, one ply deeper where the book's build rule puts it
when the book was built with that rule), except the move played, whose value is backed
up by negamax from the end of the line (the final score when the game is over).

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
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gameopt.core import Limit, Progress, ProgressCallback, default_workers
from gameopt.core.files import atomic_write_bytes
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import PASS, SQUARE_SYMMETRIES, Board, Move
from gameopt.reversi.search import search
from gameopt.reversi.weights import load_npz

__all__ = ["Book", "build_book", "empty_book", "learn_line", "open_book", "read_book",
           "write_book", "FORMAT", "DEFAULT", "SHIPPED"]

FORMAT = "gameopt-book-1"
#: The name that stands for the shipped book wherever a book file is asked for.
DEFAULT = "default"
#: The shipped book, built with the shipped evaluation by ``gameopt reversi book build
#: --depth 12 --eval-depth 8 --width 2`` (README: "The shipped opening book").
SHIPPED = Path(__file__).resolve().parent / "data" / "book.npz"


_PERMS = list(SQUARE_SYMMETRIES)
_BITS = np.uint64(1) << np.arange(64, dtype=np.uint64)
_MASK = (1 << 64) - 1  # a signed array's keys read as the same 64 bits
#: Most positions a book file may hold (the read takes some microseconds a position; the
#: shipped book, to ply 12 within 2 discs of the best, holds about six thousand).
MAX_POSITIONS = 2_000_000


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

    def line(self, board: Board, move: Move, longest: int = 10) -> list[Move]:
        """``move``, then the book's best moves after it while the positions are in the
        book (at most ``longest`` moves in all)."""
        out = [move]
        b = board.play(move)
        while len(out) < longest and (m := self.choose(b)) is not None:
            out.append(m)
            b = b.play(m)
        return out

    def openings(self, plies: int, max_loss: float | None = None) -> list[str]:
        """Move lists of the distinct positions (up to symmetry) ``plies`` book moves from
        the start, each move leading to a position in the book (with ``max_loss``: only
        moves within that many discs of their position's best), in move-list order; for
        matches that start inside the book.

        Raises
        ------
        InvalidInputError
            ``plies`` < 1, a negative ``max_loss``, or no book position that far (a book
            of depth D has positions up to ply D - 1).
        """
        if plies < 1 or (max_loss is not None and not max_loss >= 0):
            raise InvalidInputError(f"book openings: plies={plies}, max_loss={max_loss}: "
                                    "need plies >= 1 and max_loss >= 0")
        level = {canonical(Board.start())[0]: ("", Board.start())}
        for ply in range(plies):
            nxt: dict[tuple[int, int], tuple[str, Board]] = {}
            for seq, board in sorted(level.values(), key=lambda t: t[0]):
                vals = self.lookup(board)
                top = max(vals.values(), default=0.0)
                for m in sorted(vals, key=lambda m: m.square):
                    if m.is_pass or (max_loss is not None and vals[m] < top - max_loss):
                        continue
                    child = board.play(m)
                    if not self.lookup(child):
                        continue  # every position of the line is in the book
                    nxt.setdefault(canonical(child)[0], (seq + str(m).lower(), child))
            level = nxt
            if not level:
                raise InvalidInputError(f"book openings: no book position {ply + 1} plies "
                                        f"from the start ({len(self)} positions in the book)")
        return sorted(seq for seq, _ in level.values())

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
               progress: ProgressCallback | None = None, workers: int | None = 1) -> Book:
    """Negamax-backed book to ``depth`` plies (see the module notes).

    ``workers`` threads (None: the CPUs this process may use) search the moves of each
    book position at once: the search kernels release the GIL, and every search has its
    own table, so the book is the same whatever the number of threads.

    Raises
    ------
    InvalidInputError
        ``depth`` < 1, ``eval_depth`` < 1, ``width`` < 0 or ``workers`` < 1.

    Notes
    -----
    Cost: one ``eval_depth`` (or ``eval_depth + 1``) search per move of each book
    position; the number of book positions grows with ``width`` (about the number of
    moves within the window, to the power ``depth``).
    """
    if depth < 1 or eval_depth < 1 or width < 0:
        raise InvalidInputError(f"book: depth={depth}, eval_depth={eval_depth}, "
                                f"width={width}: need depth, eval_depth >= 1, width >= 0")
    n = default_workers() if workers is None else workers
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"book: workers={workers!r}: need a whole number >= 1")
    book = Book(meta={"format": FORMAT, "depth": depth, "eval_depth": eval_depth,
                      "width": width, "leaf_parity": True})
    with ThreadPoolExecutor(n, thread_name_prefix="gameopt-book") if n > 1 else \
            nullcontext() as pool:
        _expand(book, start or Board.start(), 0, depth, eval_depth, width, progress, pool)
    return book


def _value_after(board: Board, eval_depth: int) -> float:
    """Value for the side that just moved into ``board``."""
    if board.is_game_over():
        return float(-board.score())
    return -search(board, Limit(depth=eval_depth)).score


def _expand(book: Book, board: Board, ply: int, depth: int, eval_depth: int, width: float,
            progress: ProgressCallback | None, pool: ThreadPoolExecutor | None) -> float:
    """Value of ``board`` for its side to move, adding it (and below) to the book."""
    moves = board.legal_moves()
    if not moves:
        return float(board.score())
    if moves == [PASS]:
        return -_expand(book, board.play(PASS), ply, depth, eval_depth, width, progress, pool)
    key, t = canonical(board)
    if key in book.entries:
        return max(book.entries[key].values())
    perm = _PERMS[t]
    d = eval_depth + (depth - 1 - ply) % 2  # leaves at ply depth + eval_depth's parity
    children = {m: board.play(m) for m in moves}
    found = [_value_after(c, d) for c in children.values()] if pool is None else \
        list(pool.map(_value_after, children.values(), [d] * len(children)))
    vals = dict(zip(moves, found, strict=True))
    if ply + 1 < depth:
        # the window follows the backed-up values: a move first outside it enters when
        # the expanded ones fall (so the best move is always expanded); each move once
        expanded: set[Move] = set()
        while True:
            top = max(vals.values())
            todo = [m for m in moves if m not in expanded and vals[m] >= top - width]
            if not todo:
                break
            for m in todo:
                expanded.add(m)
                vals[m] = -_expand(book, children[m], ply + 1, depth, eval_depth, width,
                                   progress, pool)
    book.entries[key] = {int(perm[m.square]): v for m, v in vals.items()}
    if progress is not None:
        progress(Progress("book", len(book.entries), None, None, {"ply": ply}))
    return max(vals.values())


def empty_book(eval_depth: int = 4) -> Book:
    """A book with no position yet, whose learned values come from ``eval_depth`` searches.

    Raises
    ------
    InvalidInputError
        ``eval_depth`` < 1.
    """
    if eval_depth < 1:
        raise InvalidInputError(f"book: eval_depth={eval_depth}: need eval_depth >= 1")
    return Book(meta={"format": FORMAT, "depth": 0, "eval_depth": eval_depth, "width": 0.0})


def learn_line(book: Book, moves: Sequence[Move], start: Board | None = None,
               eval_depth: int | None = None) -> int:
    """Add the game ``moves`` (from ``start``, the initial position by default) to ``book``.

    Walking back from the end of the line: the last position is worth its final score if
    the game is over, else its book value (its moves searched first if it is new); each
    earlier position's played move gets minus the value of the position after it, its
    other moves keep their book values or get the ``eval_depth`` search, and the position
    is worth its best move. Pass positions have no entry (they pass the value through).
    In a book built at one leaf parity (``meta["leaf_parity"]``: depth D, eval depth E),
    a new move at ply p of the line (moves played from ``start``, passes not counted, as
    the build counts them) is searched ``eval_depth`` plies deep or one more, whichever
    puts its leaves ``D + E`` plies from the start up to an even number, as the build
    values its unexpanded moves; so its value rests on leaves of the same parity as the
    built values beside it, whatever ``eval_depth`` (``start`` is taken to be the
    build's start).

    Parameters
    ----------
    book : Book
        Changed in place.
    moves : sequence of Move
        The game, passes explicit (as in GGF).
    start : Board or None
        Where the game starts.
    eval_depth : int or None
        Depth of the searches of new moves (default: the book's ``eval_depth``, else 4).

    Returns
    -------
    int
        The number of positions that were not in the book.

    Raises
    ------
    InvalidInputError
        A move that is not legal (naming its ply), or ``eval_depth`` < 1.

    Notes
    -----
    Cost: one ``eval_depth`` search per move of each new position of the line (about 60
    positions of 10 moves for a whole game); positions already in the book cost nothing.
    """
    meta_depth = book.meta.get("eval_depth")
    depth = eval_depth if eval_depth is not None else \
        meta_depth if isinstance(meta_depth, int) else 4
    if depth < 1:
        raise InvalidInputError(f"book learn: eval_depth={depth}: need eval_depth >= 1")
    meta_built = book.meta.get("depth")
    # the build's leaves lie depth + eval_depth plies from its start, up to an even number
    leaf = meta_built + meta_depth if isinstance(meta_built, int) and meta_built > 0 \
        and isinstance(meta_depth, int) and book.meta.get("leaf_parity") is True else None

    def depth_at(ply: int) -> int:
        """The search depth of new moves at ``ply`` (moves played, passes not counted, as
        the build counts them): ``depth`` or one more, whichever puts the leaves
        (``ply + 1 + d`` plies in) at the build's parity."""
        return depth if leaf is None else depth + (leaf - ply - 1 - depth) % 2

    boards = [start or Board.start()]
    line = list(moves)
    for ply, m in enumerate(line, 1):
        if not boards[-1].is_legal(m):
            raise InvalidInputError(f"book learn: ply {ply}: {m} is not legal in {boards[-1]}")
        boards.append(boards[-1].play(m))
    if boards[-1].must_pass():  # a line ending on a forced pass: its value is after it
        line.append(PASS)
        boards.append(boards[-1].play(PASS))
    before = len(book)
    last = boards[-1]
    played = [0]  # moves played before each position of the line, passes not counted
    for m in line:
        played.append(played[-1] + (not m.is_pass))
    value = float(last.score()) if last.is_game_over() else \
        _learn_position(book, last, depth_at(played[-1]))
    for i in range(len(line) - 1, -1, -1):
        m = line[i]
        value = -value if m.is_pass else \
            _learn_position(book, boards[i], depth_at(played[i]), (m, -value))
    return len(book) - before


def _learn_position(book: Book, board: Board, depth: int,
                    played: tuple[Move, float] | None = None) -> float:
    """Give every move of ``board`` a book value (``played``: the move and its backed-up
    value); returns the position's value, its best move's."""
    key, t = canonical(board)
    perm = _PERMS[t]
    vals = dict(book.entries.get(key, {}))
    for m in board.legal_moves():
        s = int(perm[m.square])
        if s not in vals and (played is None or m != played[0]):
            vals[s] = _value_after(board.play(m), depth)
    if played is not None:
        vals[int(perm[played[0].square])] = played[1]
    book.entries[key] = vals
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


def open_book(name: str | Path) -> Book:
    """The book file ``name``, or the shipped book for :data:`DEFAULT` (``"default"``; a
    file of that name is reached as ``./default``). Errors as :func:`read_book`."""
    return read_book(SHIPPED if str(name) == DEFAULT else name)


def read_book(path: str | Path) -> Book:
    """Load a book written by :func:`write_book`.

    Raises
    ------
    InvalidInputError
        A missing or unreadable file, another format, arrays of other shapes or types,
        more than :data:`MAX_POSITIONS` positions, squares outside 0..63 or values that are
        not finite (one line naming the file).
    """
    p = Path(path)
    arrays, meta = load_npz(p, FORMAT, "book file")
    where = f"book file {p}"
    try:
        P, O, moves, values = (arrays[k] for k in ("player", "opponent", "moves", "values"))  # noqa: E741
    except KeyError as e:
        raise InvalidInputError(f"{where}: not a gameopt book (no array {e})") from None
    n = P.shape[0] if P.ndim == 1 else -1
    if O.shape != (n,) or moves.shape != (n, 32) or values.shape != (n, 32):
        raise InvalidInputError(f"{where}: arrays of inconsistent shapes")
    if n > MAX_POSITIONS:
        raise InvalidInputError(f"{where}: {n:,} positions, at most {MAX_POSITIONS:,}")
    if any(a.dtype.kind not in "iu" for a in (P, O, moves)) or values.dtype.kind != "f":
        raise InvalidInputError(f"{where}: arrays of the wrong types (player, opponent, "
                                f"moves: integers; values: floats)")
    used = moves >= 0
    if (moves > 63).any():
        raise InvalidInputError(f"{where}: entry {int(np.argmax((moves > 63).any(axis=1)))} "
                                f"has a square outside 0..63")
    if not np.isfinite(values[used]).all():
        bad = (used & ~np.isfinite(values)).any(axis=1)
        raise InvalidInputError(f"{where}: entry {int(np.argmax(bad))} has a value that is "
                                f"not finite")
    book = Book(meta=meta)
    for i in range(n):
        row = {int(s): float(v) for s, v in zip(moves[i], values[i], strict=True) if s >= 0}
        book.entries[(int(P[i]) & _MASK, int(O[i]) & _MASK)] = row
    return book
