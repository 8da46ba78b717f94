"""A Go board of any rectangular size: stones, strings, liberties, captures, suicide, ko.

Points are ``(row, col)`` from 0 at the top-left corner. Messages name them the Go way
(:func:`point_name`): a column letter skipping ``I`` and a row number counted from the
bottom, ``D4``; boards wider than 25 columns fall back to ``(row, col)``.

Two layers, one truth
---------------------
The position itself is a flat ``int8`` array of colours (``EMPTY``, ``BLACK``, ``WHITE``).

* Whole-position questions (:meth:`Board.strings`, :meth:`Board.string_count`,
  :meth:`Board.check`, :meth:`Board.legal_moves`) run the O(rows*cols) numba kernels of
  :mod:`gameopt.go._board_kernel` on that array; the result is cached until the next
  move. A 1000×1000 position loads and is checked in a fraction of a second.
* Moves (:meth:`Board.play`, :meth:`Board.undo`, :meth:`Board.string_at`) use strings kept
  incrementally in Python: each stone points to its string, and each string holds its
  stones and its set of liberties. There is no cap on the number of strings. This layer
  is built from the kernel's labels on the first move, so a board that is only analysed
  never pays for it.

:meth:`Board.play` and :meth:`Board.undo` are a make/unmake pair: every change a move
makes is recorded and undone in reverse order, which restores the position, the ko state
and every string's stones and liberties exactly. Both layers are tested against the
flood fill of :mod:`gameopt.go.reference`.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError
from gameopt.go import _board_kernel as kernel

__all__ = ["Colour", "Point", "EMPTY", "BLACK", "WHITE", "COLOUR_NAMES", "STONE_CHARS",
           "GO_LETTERS", "MAX_POINTS", "GoString", "Board", "opponent", "point_name",
           "parse_point"]

#: A colour: EMPTY, BLACK or WHITE.
Colour = int
#: A point ``(row, col)``, 0-based from the top-left corner.
Point = tuple[int, int]

EMPTY: Colour = 0
BLACK: Colour = 1
WHITE: Colour = 2
COLOUR_NAMES = {EMPTY: "empty", BLACK: "black", WHITE: "white"}
#: Text character of each colour, indexed by colour (see :mod:`gameopt.go.text`).
STONE_CHARS = ".XO"
#: Column letters of Go coordinates (no ``I``).
GO_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
#: Largest number of points (string labels are int32).
MAX_POINTS = 2**31 - 1


def opponent(colour: Colour) -> Colour:
    """The other colour of BLACK or WHITE."""
    return 3 - colour


def point_name(point: Point, rows: int, cols: int) -> str:
    """``D4`` style name of ``point`` (row numbers from the bottom), or ``(row, col)`` on
    boards wider than 25 columns."""
    r, c = point
    if cols <= len(GO_LETTERS) and 0 <= r < rows and 0 <= c < cols:
        return f"{GO_LETTERS[c]}{rows - r}"
    return f"({r}, {c})"


def parse_point(text: str, rows: int, cols: int) -> Point:
    """The point named ``text`` (``D4``, ``d4`` or ``(3, 3)``) on a rows×cols board.

    Raises
    ------
    InvalidInputError
        If ``text`` is not a point of the board.
    """
    s = text.strip()
    try:
        if s.startswith("("):
            a, b = s.strip("()").split(",")
            r, c = int(a), int(b)
        else:
            if cols > len(GO_LETTERS) or not s[1:].isdigit():
                raise ValueError
            c, r = GO_LETTERS.index(s[0].upper()), rows - int(s[1:])
    except ValueError:
        raise InvalidInputError(f"{text!r} is not a point of a {rows}x{cols} board") from None
    if not (0 <= r < rows and 0 <= c < cols):
        raise InvalidInputError(f"{text!r} is off the {rows}x{cols} board")
    return r, c


class GoString(NamedTuple):
    """A string: a maximal set of same-coloured stones connected along the lines.

    Attributes
    ----------
    colour : Colour
        BLACK or WHITE.
    stones : tuple of Point
        Its stones in row-major order.
    liberties : tuple of Point
        The empty points next to it, in row-major order.
    """

    colour: Colour
    stones: tuple[Point, ...]
    liberties: tuple[Point, ...]

    @property
    def size(self) -> int:
        """Number of stones."""
        return len(self.stones)


class _String:
    """A string in the incremental layer. Invariant: ``owner[q] is self`` for every ``q``
    in ``stones``, and ``libs`` is exactly the set of empty points next to a stone."""

    __slots__ = ("colour", "stones", "libs")

    def __init__(self, colour: Colour, stones: list[int], libs: set[int]) -> None:
        self.colour = colour
        self.stones = stones
        self.libs = libs


class _Record:
    """What one move changed, for :meth:`Board.undo`."""

    __slots__ = ("colour", "point", "ko", "merged", "new", "touched", "captured", "gained",
                 "suicide")

    def __init__(self, colour: Colour, point: int, ko: tuple[int, Colour] | None) -> None:
        self.colour = colour
        self.point = point                    # -1 for a pass
        self.ko = ko                          # ko state before the move
        self.merged: list[_String] = []       # own strings joined by the stone (unchanged)
        self.new: _String | None = None       # the string of the new stone
        self.touched: list[_String] = []      # opponent strings that lost liberty `point`
        self.captured: list[_String] = []     # opponent strings removed
        self.gained: list[tuple[_String, int]] = []  # (string, liberty) added by removals
        self.suicide = False


@functools.lru_cache(maxsize=16)
def _neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Flat neighbours of every flat point (shared by all boards of one shape)."""
    out = []
    for r in range(rows):
        for c in range(cols):
            out.append(tuple(rr * cols + cc for rr, cc in
                             ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                             if 0 <= rr < rows and 0 <= cc < cols))
    return tuple(out)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many acyclic objects are created: with it
    running, building 800 000 strings takes 4-5 times as long (repeated full scans)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class Board:
    """A Go position of ``rows`` × ``cols`` points with the moves played on it.

    Parameters
    ----------
    rows : int
        Number of rows (>= 1); 19 by default.
    cols : int, optional
        Number of columns (>= 1); ``rows`` by default.
    allow_suicide : bool
        If True, a move that leaves its own string without a liberty (and captures
        nothing) is legal and removes that string; forbidden by default.

    Notes
    -----
    The ko rule is simple ko: right after a single stone captures a single stone and is
    left with that point as its only liberty, the opponent may not play there on the next
    move. Colours are given with each move; nothing enforces alternation.
    """

    def __init__(self, rows: int = 19, cols: int | None = None, *,
                 allow_suicide: bool = False) -> None:
        cols = rows if cols is None else cols
        for what, v in (("rows", rows), ("columns", cols)):
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
                raise InvalidInputError(f"board {what} must be an integer >= 1, got {v!r}")
        if int(rows) * int(cols) > MAX_POINTS:
            raise InvalidInputError(f"a {rows}x{cols} board has more than {MAX_POINTS} points")
        self._rows, self._cols = int(rows), int(cols)
        self._allow_suicide = bool(allow_suicide)
        self._cells = np.zeros(self._rows * self._cols, dtype=np.int8)
        self._ko: tuple[int, Colour] | None = None
        self._stack: list[_Record] = []
        self._root: tuple[npt.NDArray[np.int8], tuple[int, Colour] | None] | None = None
        self._owner: list[_String | None] | None = None   # incremental layer, lazy
        self._analysis: tuple[npt.NDArray[np.int32], ...] | None = None  # kernel cache

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_array(cls, array: Any, *, allow_suicide: bool = False, check: bool = True,
                   name: str = "") -> Board:
        """A board holding the position ``array`` (rows × cols of 0, 1, 2).

        Parameters
        ----------
        array : array_like of int, shape (rows, cols)
            EMPTY (0), BLACK (1) or WHITE (2) at each point.
        allow_suicide : bool
            The suicide rule of the board (see :class:`Board`).
        check : bool
            If True (the default), refuse a position where a string has no liberty.
        name : str
            Where the position came from, for messages.

        Raises
        ------
        InvalidInputError
            If the array is not 2-D, holds a value other than 0, 1, 2, or (with
            ``check``) a string has no liberty.

        Notes
        -----
        O(rows*cols), vectorised; the check is one kernel pass.
        """
        where = f"{name}: " if name else ""
        arr = np.asarray(array)
        if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
            raise InvalidInputError(f"{where}a board must be a non-empty 2-D array, "
                                    f"got shape {arr.shape}")
        if arr.dtype.kind not in "iub":
            raise InvalidInputError(f"{where}a board must hold integers 0, 1, 2, "
                                    f"got dtype {arr.dtype}")
        board = cls(arr.shape[0], arr.shape[1], allow_suicide=allow_suicide)
        bad = np.flatnonzero((arr < 0) | (arr > 2))
        if bad.size:
            p = divmod(int(bad[0]), board._cols)
            raise InvalidInputError(f"{where}value {arr[p]} at {board.name(p)} is not "
                                    f"0 (empty), 1 (black) or 2 (white)")
        board._cells[:] = arr.reshape(-1)
        if check:
            board.check(name)
        return board

    def copy(self, stack: bool = True) -> Board:
        """An independent copy; with ``stack``, its moves can be undone as well.

        Notes
        -----
        With ``stack`` the copy replays the moves from the position before the first
        one: O(moves) plays. Without, O(rows*cols).
        """
        board = Board(self._rows, self._cols, allow_suicide=self._allow_suicide)
        if stack and self._stack:
            assert self._root is not None
            board._cells[:] = self._root[0]
            board._ko = self._root[1]
            for rec in self._stack:
                board.play(rec.colour, None if rec.point < 0 else divmod(rec.point, self._cols))
        else:
            board._cells[:] = self._cells
            board._ko = self._ko
        return board

    def to_array(self) -> npt.NDArray[np.int8]:
        """The position as a new int8 array of shape (rows, cols)."""
        return self._cells.reshape(self._rows, self._cols).copy()

    # ------------------------------------------------------------------ basic queries

    @property
    def rows(self) -> int:
        """Number of rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """Number of columns."""
        return self._cols

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return self._rows, self._cols

    @property
    def allow_suicide(self) -> bool:
        """Whether suicide is legal on this board."""
        return self._allow_suicide

    @property
    def ko(self) -> tuple[Point, Colour] | None:
        """The point that may not be played next and the colour it is forbidden to."""
        if self._ko is None:
            return None
        return divmod(self._ko[0], self._cols), self._ko[1]

    @property
    def moves(self) -> list[tuple[Colour, Point | None]]:
        """The moves played (``None`` for a pass) that :meth:`undo` can take back."""
        return [(rec.colour, None if rec.point < 0 else divmod(rec.point, self._cols))
                for rec in self._stack]

    def name(self, point: Point) -> str:
        """The name of ``point`` in messages (see :func:`point_name`)."""
        return point_name(point, self._rows, self._cols)

    def __getitem__(self, point: Point) -> Colour:
        return int(self._cells[self._flat(point)])

    def count(self, colour: Colour) -> int:
        """Number of points of ``colour`` (EMPTY counts empty points)."""
        return int(np.count_nonzero(self._cells == colour))

    def __eq__(self, other: object) -> bool:
        """Same size, suicide rule, stones and ko state (the move history may differ)."""
        if not isinstance(other, Board):
            return NotImplemented
        return (self.shape == other.shape and self._allow_suicide == other._allow_suicide
                and self._ko == other._ko and bool(np.array_equal(self._cells, other._cells)))

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __str__(self) -> str:
        """One line per row, ``X`` black, ``O`` white, ``.`` empty (no trailing newline)."""
        chars = np.frombuffer(STONE_CHARS.encode("ascii"), dtype=np.uint8)[self._cells]
        grid = chars.reshape(self._rows, self._cols)
        return "\n".join(row.tobytes().decode("ascii") for row in grid)

    def __repr__(self) -> str:
        return (f"<Board {self._rows}x{self._cols}: {self.count(BLACK)} black, "
                f"{self.count(WHITE)} white, {len(self._stack)} moves>")

    # ------------------------------------------------------------------ whole position

    def _analyse(self) -> tuple[npt.NDArray[np.int32], ...]:
        """Kernel labels ``(label, first, size, libs)``, cached until the next move."""
        if self._analysis is None:
            self._analysis = kernel.label_strings(self._cells, self._rows, self._cols)
        return self._analysis

    def string_count(self) -> int:
        """Number of strings. O(rows*cols) (one kernel pass, cached)."""
        return int(self._analyse()[1].size)

    def is_legal_position(self) -> bool:
        """True when every string has at least one liberty. O(rows*cols)."""
        libs = self._analyse()[3]
        return bool(libs.size == 0 or libs.min() > 0)

    def check(self, where: str = "") -> None:
        """Raise unless every string has a liberty.

        Raises
        ------
        InvalidInputError
            Naming the first string (row-major order of first stones) without a liberty:
            its colour, size and first stone, e.g. ``black string of 3 stones at D4 has
            no liberty``; prefixed by ``where`` when given.
        """
        _, first, size, libs = self._analyse()
        dead = np.flatnonzero(libs == 0)
        if dead.size:
            s = int(dead[0])
            p = int(first[s])
            n = int(size[s])
            colour = COLOUR_NAMES[int(self._cells[p])]
            stones = "1 stone" if n == 1 else f"{n} stones"
            prefix = f"{where}: " if where else ""
            raise InvalidInputError(f"{prefix}{colour} string of {stones} at "
                                    f"{self.name(divmod(p, self._cols))} has no liberty")

    def strings(self) -> list[GoString]:
        """Every string with its stones and liberties, in row-major order of first stones.

        Notes
        -----
        O(rows*cols log(rows*cols)): one kernel pass and two sorts, then one Python object
        per string (slow on boards of a million points; use :meth:`string_count` and
        :meth:`check` when only the count or legality matters).
        """
        _, first, _, _ = self._analyse()
        stones, stone_end, libs, lib_end = self._grouped()
        cols = self._cols
        rs, cs = np.divmod(np.asarray(stones, dtype=np.int64), cols)
        stone_pts = list(zip(rs.tolist(), cs.tolist(), strict=True))
        out = []
        a = b = 0
        with _gc_paused():
            for colour, s_end, l_end in zip(self._cells[first].tolist(), stone_end, lib_end,
                                            strict=True):
                out.append(GoString(colour, tuple(stone_pts[a:s_end]), tuple(
                    [divmod(q, cols) for q in libs[b:l_end]])))
                a, b = s_end, l_end
        return out

    def _grouped(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Flat stones and liberties of all strings, string after string, each string's
        in row-major order, and where each string's part ends in either list."""
        label, _, size, libs = self._analyse()
        if size.size == 0:
            return [], [], [], []
        lib_s, lib_p = kernel.liberty_pairs(self._cells, label, self._rows, self._cols)
        by_string = np.argsort(lib_s, kind="stable")     # stable: liberties stay row-major
        stones = np.argsort(label, kind="stable")[np.count_nonzero(label < 0):]
        return (stones.tolist(), np.cumsum(size).tolist(), lib_p[by_string].tolist(),
                np.cumsum(libs).tolist())

    def legal_mask(self, colour: Colour) -> npt.NDArray[np.bool_]:
        """Where ``colour`` may play, as a bool array of shape (rows, cols).

        Raises
        ------
        InvalidInputError
            If ``colour`` is not BLACK or WHITE, or the position has a string without a
            liberty.

        Notes
        -----
        O(rows*cols): one kernel pass over the cached labels.
        """
        self._check_colour(colour)
        self.check()
        label, _, _, libs = self._analyse()
        ko = self._ko[0] if self._ko is not None and self._ko[1] == colour else -1
        mask = kernel.legal_mask(self._cells, label, libs, self._rows, self._cols,
                                 colour, ko, self._allow_suicide)
        return mask.reshape(self._rows, self._cols)

    def legal_moves(self, colour: Colour) -> list[Point]:
        """Every point where ``colour`` may play, in row-major order (passes not listed).

        See :meth:`legal_mask` for errors and complexity.
        """
        rs, cs = np.nonzero(self.legal_mask(colour))
        return list(zip(rs.tolist(), cs.tolist(), strict=True))

    # ------------------------------------------------------------------ incremental layer

    def _strings_layer(self) -> list[_String | None]:
        """The incremental strings, built from the kernel labels on first use.

        O(rows*cols) Python work once.
        """
        if self._owner is None:
            self.check()
            owner: list[_String | None] = [None] * self._cells.size
            with _gc_paused():
                for s in self._build_strings():
                    for q in s.stones:
                        owner[q] = s
            self._owner = owner
        return self._owner

    def _build_strings(self) -> Iterable[_String]:
        _, first, _, _ = self._analyse()
        stones, stone_end, libs, lib_end = self._grouped()
        a = b = 0
        for colour, s_end, l_end in zip(self._cells[first].tolist(), stone_end, lib_end,
                                        strict=True):
            yield _String(colour, stones[a:s_end], set(libs[b:l_end]))
            a, b = s_end, l_end

    def string_at(self, point: Point) -> GoString | None:
        """The string through ``point`` (``None`` on an empty point), from the incremental
        layer. O(size of the string) once the layer is built."""
        s = self._strings_layer()[self._flat(point)]
        if s is None:
            return None
        cols = self._cols
        return GoString(s.colour, tuple(divmod(q, cols) for q in sorted(s.stones)),
                        tuple(divmod(q, cols) for q in sorted(s.libs)))

    def is_legal(self, colour: Colour, point: Point | None) -> bool:
        """Whether :meth:`play` would accept the move (a pass is always legal)."""
        self._check_colour(colour)
        if point is None:
            return True
        return self._illegal_reason(colour, self._flat(point)) is None

    def _illegal_reason(self, colour: Colour, p: int) -> str | None:
        owner = self._strings_layer()
        if owner[p] is not None:
            return "the point is occupied"
        if self._ko == (p, colour):
            return "it retakes the ko"
        if self._allow_suicide:
            return None
        for q in _neighbour_table(self._rows, self._cols)[p]:
            s = owner[q]
            if s is None:
                return None
            if s.colour == colour:
                if len(s.libs) > 1:
                    return None
            elif len(s.libs) == 1:
                return None  # captures
        return "it is suicide"

    def play(self, colour: Colour, point: Point | None) -> list[Point]:
        """Play a stone of ``colour`` at ``point`` (``None`` passes); return the captured
        points in row-major order.

        Raises
        ------
        InvalidInputError
            If the colour is not BLACK or WHITE, the point is off the board, occupied,
            retakes the ko or is suicide (unless allowed), or the position has a string
            without a liberty. The board is unchanged.

        Notes
        -----
        O(stones and liberties of the strings next to the point, plus captured stones).
        """
        self._check_colour(colour)
        if not self._stack:
            self._root = (self._cells.copy(), self._ko)
        if point is None:
            rec = _Record(colour, -1, self._ko)
            self._ko = None
            self._stack.append(rec)
            return []
        p = self._flat(point)
        reason = self._illegal_reason(colour, p)
        if reason is not None:
            raise InvalidInputError(f"illegal move: {COLOUR_NAMES[colour]} at "
                                    f"{self.name(point)}: {reason}")
        rec = self._place(colour, p)
        self._stack.append(rec)
        self._analysis = None
        cols = self._cols
        return sorted(divmod(q, cols) for s in rec.captured for q in s.stones)

    def _place(self, colour: Colour, p: int) -> _Record:
        """Make a legal move: place, capture, merge, maybe suicide; record every change."""
        owner = self._strings_layer()
        nbrs = _neighbour_table(self._rows, self._cols)
        cells = self._cells
        rec = _Record(colour, p, self._ko)
        own: list[_String] = []
        libs = set()
        for q in nbrs[p]:
            s = owner[q]
            if s is None:
                libs.add(q)
            elif s.colour == colour:
                if not any(s is t for t in own):
                    own.append(s)
            elif not any(s is t for t in rec.touched):
                s.libs.discard(p)               # it surely held p: p is next to it
                rec.touched.append(s)
                if not s.libs:
                    rec.captured.append(s)
        cells[p] = colour
        # the new string: the stone and every own string next to it (those stay intact
        # for undo; only the owner entries move to the new string)
        stones = [p]
        for s in own:
            stones.extend(s.stones)
            libs |= s.libs
        libs.discard(p)
        new = _String(colour, stones, libs)
        for q in stones:
            owner[q] = new
        rec.merged = own
        rec.new = new
        for s in rec.captured:
            self._remove(s, rec)
        if not new.libs:                        # suicide (legal only when allowed)
            rec.suicide = True
            self._remove(new, rec)
        self._ko = None
        if (len(rec.captured) == 1 and len(rec.captured[0].stones) == 1 and len(stones) == 1
                and len(new.libs) == 1):
            self._ko = (rec.captured[0].stones[0], 3 - colour)
        return rec

    def _remove(self, s: _String, rec: _Record) -> None:
        """Take string ``s`` off the board; its points become liberties of its neighbours."""
        owner = self._owner
        assert owner is not None
        nbrs = _neighbour_table(self._rows, self._cols)
        for q in s.stones:
            owner[q] = None
            self._cells[q] = EMPTY
        for q in s.stones:
            for r in nbrs[q]:
                t = owner[r]
                if t is not None and q not in t.libs:
                    t.libs.add(q)
                    rec.gained.append((t, q))

    def undo(self) -> tuple[Colour, Point | None]:
        """Take back the last move; return it as ``(colour, point or None)``.

        Restores the stones, the ko state and every string's stones and liberties exactly.

        Raises
        ------
        InvalidInputError
            If no move is left to undo.

        Notes
        -----
        O(the changes the move made).
        """
        if not self._stack:
            raise InvalidInputError("no move to undo")
        rec = self._stack.pop()
        self._ko = rec.ko
        if rec.point < 0:
            return rec.colour, None
        owner = self._owner
        assert owner is not None and rec.new is not None
        cells = self._cells
        for t, q in reversed(rec.gained):
            t.libs.discard(q)
        opp = 3 - rec.colour
        for s in rec.captured:
            for q in s.stones:
                owner[q] = s
                cells[q] = opp
        for s in rec.merged:
            for q in s.stones:
                owner[q] = s
                cells[q] = rec.colour
        owner[rec.point] = None
        cells[rec.point] = EMPTY
        for s in rec.touched:
            s.libs.add(rec.point)
        self._analysis = None
        return rec.colour, divmod(rec.point, self._cols)

    # ------------------------------------------------------------------ helpers

    def _flat(self, point: Point) -> int:
        try:
            r, c = point
            r, c = int(r), int(c)
        except (TypeError, ValueError):
            raise InvalidInputError(f"a point is a pair (row, col), got {point!r}") from None
        if not (0 <= r < self._rows and 0 <= c < self._cols):
            raise InvalidInputError(f"point {point!r} is off the {self._rows}x{self._cols} "
                                    f"board")
        return r * self._cols + c

    @staticmethod
    def _check_colour(colour: Colour) -> None:
        if colour not in (BLACK, WHITE) or isinstance(colour, bool):
            raise InvalidInputError(f"colour must be BLACK (1) or WHITE (2), got {colour!r}")
