"""Sudoku grids of any box size: the puzzle value type, its parsing and its checks.

A grid of box size ``b`` has side ``n = b*b`` and ``n*n`` cells, stored row-major in a flat
``int8`` array, 0 for an empty cell and 1..n for a value. Rows, columns and boxes are
numbered from 0 in code and from 1 in messages (``r1c1`` is the top-left cell).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError

__all__ = ["Puzzle", "PuzzleSet", "box_of", "cell_name", "units", "check_givens",
           "check_givens_many", "format_grid", "format_lines"]

#: Characters for values 1..35 in a single-character-per-cell line (9x9 uses 1-9).
_ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_EMPTY = ".0_-*"


def cell_name(index: int, side: int) -> str:
    """``r<row>c<col>`` (1-based) of a flat cell index."""
    return f"r{index // side + 1}c{index % side + 1}"


def box_of(index: int, box: int) -> int:
    """Box number (0-based, row-major) of a flat cell index."""
    side = box * box
    r, c = divmod(index, side)
    return (r // box) * box + c // box


@functools.cache
def units(box: int) -> npt.NDArray[np.int32]:
    """All rows, then columns, then boxes, as flat cell indices.

    Returns
    -------
    ndarray of int32, shape (3*n, n)
    """
    n = box * box
    idx = np.arange(n * n, dtype=np.int32).reshape(n, n)
    rows = [idx[r] for r in range(n)]
    cols = [idx[:, c] for c in range(n)]
    boxes = [idx[br * box:(br + 1) * box, bc * box:(bc + 1) * box].ravel()
             for br in range(box) for bc in range(box)]
    out = np.array(rows + cols + boxes, dtype=np.int32)
    out.flags.writeable = False  # cached: shared by every caller
    return out


def check_givens(cells: npt.NDArray[np.int8], box: int, where: str = "puzzle") -> None:
    """Raise :class:`InvalidInputError` naming both cells if a given repeats in a unit."""
    n = box * box
    kinds = ["row", "column", "box"]
    for u, unit in enumerate(units(box)):
        seen: dict[int, int] = {}
        for cell in unit:
            v = int(cells[cell])
            if v == 0:
                continue
            if v in seen:
                kind = kinds[u // n]
                raise InvalidInputError(
                    f"{where}: value {v} given twice in {kind} {u % n + 1}: "
                    f"{cell_name(seen[v], n)} and {cell_name(int(cell), n)}")
            seen[v] = int(cell)


def check_givens_many(cells: npt.NDArray[np.int8], box: int,
                      names: Sequence[str] | None = None) -> None:
    """:func:`check_givens` for many grids at once (one per row), vectorised.

    Parameters
    ----------
    cells : ndarray of int8, shape (m, n*n)
        Values 0..n (not checked here).
    names : sequence of str, optional
        Where each grid came from, for the message.

    Raises
    ------
    InvalidInputError
        For the first grid with a repeated given, with :func:`check_givens`'s message.
    """
    m = cells.shape[0]
    if m == 0:
        return
    n = box * box
    # Bit v for value v (bit 0, an empty cell, masked out): a unit repeats a given
    # exactly when the sum of its bits differs from their OR.
    wide = np.int32 if n < 31 else np.int64
    bits = np.left_shift(wide(1), cells[:, units(box)].astype(wide)) & wide(~1)  # (m, 3n, n)
    repeats = bits.sum(axis=2) != np.bitwise_or.reduce(bits, axis=2)
    bad = np.flatnonzero(repeats.any(axis=1))
    if bad.size:
        row = int(bad[0])
        check_givens(cells[row], box, names[row] if names is not None else "puzzle")
        raise AssertionError("check_givens_many: a repeat check_givens did not see")


def format_lines(cells: npt.NDArray[np.int8]) -> list[str]:
    """:meth:`Puzzle.to_line` of every row of ``cells`` (shape (m, n*n), n <= 35)."""
    table = np.frombuffer(("." + _ALPHABET).encode("ascii"), dtype=np.uint8)
    chars = np.ascontiguousarray(table[cells])
    width = cells.shape[1] if cells.ndim == 2 else 0
    return [row.decode("ascii") for row in chars.view(f"S{width}").ravel().tolist()]


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A Sudoku puzzle (or a full grid) of box size ``box``.

    Attributes
    ----------
    box : int
        Box size b >= 2; the side is b*b.
    cells : ndarray of int8, shape (b**4,)
        Row-major values, 0 = empty; read-only.
    name : str
        Where it came from (file:line, or a name in the file).
    solution : ndarray of int8 or None
        A solution given with the puzzle (in the file), not trusted until verified.
    """

    box: int
    cells: npt.NDArray[np.int8]
    name: str = ""
    solution: npt.NDArray[np.int8] | None = field(default=None)

    def __post_init__(self) -> None:
        where = self.name or "puzzle"
        if not isinstance(self.box, int) or not 2 <= self.box <= 6:
            raise InvalidInputError(f"{where}: box size must be 2..6, got {self.box!r}")
        n = self.side
        cells = np.array(self.cells, dtype=np.int64).ravel()
        if cells.size != n * n:
            raise InvalidInputError(
                f"{where}: a {n}x{n} grid needs {n * n} cells, got {cells.size}")
        bad = np.flatnonzero((cells < 0) | (cells > n))
        if bad.size:
            i = int(bad[0])
            raise InvalidInputError(
                f"{where}: value {cells[i]} at {cell_name(i, n)} is out of range 0..{n}")
        arr = cells.astype(np.int8)
        arr.flags.writeable = False
        object.__setattr__(self, "cells", arr)
        check_givens(arr, self.box, where)
        if self.solution is not None:
            sol = np.array(self.solution, dtype=np.int64).ravel()
            if sol.size != n * n or np.any((sol < 1) | (sol > n)):
                raise InvalidInputError(f"{where}: the given solution is not a full {n}x{n} grid")
            s8 = sol.astype(np.int8)
            s8.flags.writeable = False
            object.__setattr__(self, "solution", s8)

    @property
    def side(self) -> int:
        """Side n = box*box."""
        return self.box * self.box

    @property
    def givens(self) -> int:
        """Number of filled cells."""
        return int(np.count_nonzero(self.cells))

    @classmethod
    def from_string(cls, text: str, name: str = "") -> Puzzle:
        """Parse a puzzle from one line or a multi-line grid.

        Accepted: one character per cell (``.``/``0`` empty; ``1-9`` then ``A-Z`` for
        larger grids; spaces, ``|``, ``+`` and ``-`` separators in drawn grids are
        ignored), or whitespace/comma-separated numbers (needed from 36 cells per row up,
        allowed for any size). The side is inferred from the cell count
        (16, 81, 256, 625, ...).
        """
        where = name or "puzzle"
        tokens = _tokens(text, where)
        count = len(tokens)
        box = math.isqrt(math.isqrt(count)) if count else 0
        if count == 0 or box ** 4 != count or box < 2:
            raise InvalidInputError(
                f"{where}: {count} cells is not a square grid (16, 81, 256, 625 ... cells)")
        n = box * box
        values = np.zeros(count, dtype=np.int64)
        for i, tok in enumerate(tokens):
            values[i] = _value(tok, n, where, i)
        return cls(box, values.astype(np.int8), name=name)

    def to_line(self) -> str:
        """One line: one character per cell and ``.`` for empty up to 35x35 values."""
        return "".join("." if v == 0 else _ALPHABET[v - 1] for v in self.cells.tolist())

    def __str__(self) -> str:
        return self.to_line()

    def __repr__(self) -> str:
        return f"Puzzle.from_string({self.to_line()!r})"

    def grid(self) -> npt.NDArray[np.int8]:
        """The cells as an (n, n) array (a copy)."""
        return self.cells.reshape(self.side, self.side).copy()


@dataclass(frozen=True, eq=False)
class PuzzleSet:
    """Many puzzles of one box size as one array: what batch solvers and readers share.

    Attributes
    ----------
    box : int
        Box size of every puzzle.
    cells : ndarray of int8, shape (m, n*n)
        One puzzle per row, row-major, 0 = empty; read-only. Givens are checked (no value
        repeats in a unit) when the set is made.
    names : tuple of str
        Where each puzzle came from (file:line).

    Indexing gives a :class:`Puzzle`; iteration gives every puzzle.
    """

    box: int
    cells: npt.NDArray[np.int8]
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.box, int) or not 2 <= self.box <= 6:
            raise InvalidInputError(f"puzzle set: box size must be 2..6, got {self.box!r}")
        n = self.box * self.box
        cells = np.asarray(self.cells)
        if cells.ndim != 2 or cells.shape[1] != n * n or len(self.names) != cells.shape[0]:
            raise InvalidInputError(
                f"puzzle set: expected cells of shape (m, {n * n}) and m names, got "
                f"{cells.shape} and {len(self.names)} names")
        bad = np.argwhere((cells < 0) | (cells > n))
        if bad.size:
            i, c = (int(v) for v in bad[0])
            raise InvalidInputError(f"{self.names[i] or 'puzzle'}: value {cells[i, c]} at "
                                    f"{cell_name(c, n)} is out of range 0..{n}")
        arr = np.array(cells, dtype=np.int8)
        arr.flags.writeable = False
        check_givens_many(arr, self.box, self.names)
        object.__setattr__(self, "cells", arr)

    @classmethod
    def of(cls, puzzles: Sequence[Puzzle]) -> PuzzleSet:
        """The set of ``puzzles`` (at least one; all of one box size).

        Raises
        ------
        InvalidInputError
            If ``puzzles`` is empty or mixes box sizes (naming the first that differs).
        """
        if not puzzles:
            raise InvalidInputError("puzzle set: no puzzle")
        box = puzzles[0].box
        for p in puzzles:
            if p.box != box:
                raise InvalidInputError(
                    f"{p.name or 'puzzle'}: a {p.side}x{p.side} puzzle among "
                    f"{box * box}x{box * box} ones; solve each size apart")
        return cls(box, np.stack([p.cells for p in puzzles]),
                   tuple(p.name for p in puzzles))

    @property
    def side(self) -> int:
        return self.box * self.box

    def __len__(self) -> int:
        return int(self.cells.shape[0])

    def __getitem__(self, i: int) -> Puzzle:
        return Puzzle(self.box, self.cells[i], name=self.names[i])

    def __iter__(self) -> Iterator[Puzzle]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"PuzzleSet(box={self.box}, puzzles={len(self)})"


def _tokens(text: str, where: str) -> list[str]:
    stripped = text.strip()
    if "," in stripped or (any(ch.isspace() for ch in stripped) and _looks_numeric(stripped)):
        # commas separate numbers (Lloyd-Amos lines): a bad value is named, not counted
        return [t for t in stripped.replace(",", " ").split()]
    out = []
    for line in stripped.splitlines():
        for ch in line:
            if ch.isspace() or ch in "|+":
                continue
            out.append(ch)
    # A drawn grid uses '-' rows as separators: drop runs that are whole separator lines.
    if len(out) not in (16, 81, 256, 625, 1296):
        lines = [ln for ln in stripped.splitlines() if ln.strip().strip("-+| ")]
        out = [ch for ln in lines for ch in ln if not (ch.isspace() or ch in "|+")]
    return out


def _looks_numeric(text: str) -> bool:
    """Whitespace/comma-separated numbers: every token a number (or an empty mark) and
    either some token has two digits or the tokens alone make a whole grid."""
    toks = text.replace(",", " ").split()
    if len(toks) < 2 or not all(_is_number(t) or t in _EMPTY for t in toks):
        return False
    return any(len(t) > 1 for t in toks) or len(toks) in (16, 81, 256, 625, 1296)


def _is_number(tok: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also takes ``١`` (Arabic-Indic), ``２``
    (fullwidth) and ``²``, which are no Sudoku values."""
    return tok.isascii() and tok.isdigit()


def _value(tok: str, n: int, where: str, i: int) -> int:
    if tok in _EMPTY:
        return 0
    if _is_number(tok):
        if len(tok) > 4:
            raise InvalidInputError(
                f"{where}: value {tok[:12]!r}... at {cell_name(i, n)} is out of range 1..{n}")
        v = int(tok)
    else:
        up = tok.upper()
        if len(up) != 1 or up not in _ALPHABET or n <= 9:
            raise InvalidInputError(
                f"{where}: unknown character {tok!r} at {cell_name(i, n)} (cell {i + 1})")
        v = _ALPHABET.index(up) + 1
    if v > n:
        raise InvalidInputError(
            f"{where}: value {tok!r} at {cell_name(i, n)} is out of range 1..{n}")
    return v


def format_grid(cells: npt.NDArray[np.int8], box: int) -> str:
    """A multi-line drawing of a grid with box separators (numbers for n > 9)."""
    n = box * box
    width = 1 if n <= 9 else len(str(n))
    rows = []
    for r in range(n):
        if r and r % box == 0:
            rows.append("+".join(["-" * (box * (width + 1) + 1)] * box)[1:-1])
        parts = []
        for bc in range(box):
            vals = cells[r * n + bc * box: r * n + (bc + 1) * box].tolist()
            parts.append(" ".join("." .rjust(width) if v == 0 else str(v).rjust(width)
                                  for v in vals))
        rows.append(" | ".join(parts))
    return "\n".join(rows)
