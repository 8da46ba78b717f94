"""SGF (FF[4]) in and out: sgfmill's parser for the grammar, the Go properties here.

A position is written as setup stones in the root node (``AB`` black, ``AW`` white).
Reading applies the root's ``AB``/``AW``/``AE`` (point lists and ``aa:cc`` rectangles),
refuses a setup with a string without a liberty (naming it), then plays the main line's
``B``/``W`` moves on a :class:`~gameopt.go.board.Board`, so they can be undone.

Boards are what FF[4] allows for Go: ``SZ[n]`` or ``SZ[columns:rows]``, sides 1..52,
points written with ``a``..``z`` then ``A``..``Z`` (column first, rows from the top, as
our coordinates). A point may appear once among the setup properties of a node (FF[4]
forbids ``AB[aa]AW[aa]``). ``B[]`` is a pass, and so is ``B[tt]`` on boards up to 19×19.

References
----------
A. Hollosi, "SGF File Format FF[4]", red-bean.com/sgf (the Go properties and point type).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from sgfmill import sgf_grammar

from gameopt.core.files import atomic_write_bytes, read_bytes
from gameopt.errors import InvalidInputError
from gameopt.go.board import BLACK, EMPTY, WHITE, Board, Point

__all__ = ["MAX_SGF_SIZE", "board_to_sgf", "board_from_sgf", "read_sgf", "write_sgf"]

#: Largest board side FF[4] can write (points use the 52 letters a..z, A..Z).
MAX_SGF_SIZE = 52
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_INDEX = {ch.encode("ascii"): i for i, ch in enumerate(_LETTERS)}
_SETUP = (("AB", BLACK), ("AW", WHITE), ("AE", EMPTY))


def board_to_sgf(board: Board, *, comment: str | None = None) -> bytes:
    """The board's position as an SGF game: root node with ``SZ``, ``AB``, ``AW``.

    Parameters
    ----------
    board : Board
        A board of sides 1..52 (``SZ[n]`` when square, else ``SZ[columns:rows]``). Only
        the position is written, not the moves that led to it nor the ko state.
    comment : str, optional
        Written as the root's ``C`` property.

    Returns
    -------
    bytes
        UTF-8 SGF text.

    Raises
    ------
    InvalidInputError
        If a side is larger than 52.

    Notes
    -----
    O(rows*cols).
    """
    _check_size(board.rows, board.cols, "board")
    size = f"{board.cols}" if board.rows == board.cols else f"{board.cols}:{board.rows}"
    parts = [f"(;FF[4]GM[1]CA[UTF-8]SZ[{size}]"]
    arr = board.to_array()
    for ident, colour in _SETUP[:2]:
        rs, cs = np.nonzero(arr == colour)
        if rs.size:
            parts.append(ident + "".join(f"[{_LETTERS[c]}{_LETTERS[r]}]"
                                         for r, c in zip(rs.tolist(), cs.tolist(), strict=True)))
    if comment:
        parts.append("C[" + comment.replace("\\", "\\\\").replace("]", "\\]") + "]")
    return ("".join(parts) + ")\n").encode("utf-8")


def board_from_sgf(data: bytes | str, *, name: str = "", allow_suicide: bool = False,
                   check: bool = True) -> Board:
    """The position of an SGF game: root setup stones, then the main line's moves.

    Parameters
    ----------
    data : bytes or str
        SGF text (only the Go properties are read, so the text encoding does not matter).
    name : str
        Where the data came from (a file name), for messages.
    allow_suicide : bool
        The suicide rule of the board and of the moves replayed.
    check : bool
        If True (the default), refuse a setup where a string has no liberty.

    Raises
    ------
    InvalidInputError
        On malformed SGF (sgfmill's message and where its parser stopped), a game other
        than Go, a side outside 1..52, a bad point, a point given twice in a node's
        setup, setup properties after the root, a setup string without a liberty
        (named), or an illegal move (named by its move number).

    Notes
    -----
    O(rows*cols + moves × the cost of a move).
    """
    where = name or "SGF"
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    try:
        coarse = sgf_grammar.parse_sgf_game(raw)
    except ValueError as e:
        raise InvalidInputError(f"{where}: malformed SGF: {e}{_stop_position(raw)}") from None
    root = coarse.sequence[0]
    gm = root.get("GM", [b"1"])[0]
    if gm.strip() != b"1":
        raise InvalidInputError(f"{where}: GM[{_show(gm)}] is not a Go game (GM[1])")
    rows, cols = _root_size(root.get("SZ"), where)
    arr = np.zeros((rows, cols), dtype=np.int8)
    seen: dict[Point, str] = {}
    for ident, colour in _SETUP:
        for point in _point_list(root.get(ident, []), ident, rows, cols, where):
            if point in seen:
                raise InvalidInputError(
                    f"{where}: point {_LETTERS[point[1]]}{_LETTERS[point[0]]} is in both "
                    f"{seen[point]} and {ident} of the root node (FF[4] allows a point once "
                    f"among a node's setup properties)" if seen[point] != ident else
                    f"{where}: point {_LETTERS[point[1]]}{_LETTERS[point[0]]} twice in "
                    f"{ident} of the root node")
            seen[point] = ident
            arr[point] = colour
    board = Board.from_array(arr, allow_suicide=allow_suicide, check=check, name=where)
    _replay(_main_line(coarse), board, where)
    return board


def _main_line(tree: sgf_grammar.Coarse_game_tree) -> Iterator[dict[str, list[bytes]]]:
    """The nodes of the main line after the root (first variation at each fork)."""
    first = True
    while True:
        for node in tree.sequence:
            if not first:
                yield node
            first = False
        if not tree.children:
            return
        tree = tree.children[0]


def _replay(nodes: Iterator[dict[str, list[bytes]]], board: Board, where: str) -> None:
    """Play the main line's moves on ``board``."""
    rows, cols = board.rows, board.cols
    for number, node in enumerate(nodes, start=1):
        if any(ident in node for ident, _ in _SETUP):
            raise InvalidInputError(f"{where}: node {number}: setup stones (AB/AW/AE) after "
                                    f"the root node are not supported")
        moves = [(who, node[who]) for who in ("B", "W") if who in node]
        if len(moves) > 1:
            raise InvalidInputError(f"{where}: node {number}: both B and W in one node")
        if not moves:
            continue
        who, values = moves[0]
        value = values[0].strip() if len(values) == 1 else b"?" * 3
        point: Point | None
        if value == b"" or (value == b"tt" and rows <= 19 and cols <= 19):
            point = None
        else:
            point = _point(value, rows, cols)
            if point is None:
                raise InvalidInputError(f"{where}: node {number}: bad move {who}["
                                        f"{_show(b']['.join(values))}] on a {rows}x{cols} "
                                        f"board")
        try:
            board.play(BLACK if who == "B" else WHITE, point)
        except InvalidInputError as e:
            raise InvalidInputError(f"{where}: node {number}: {e}") from None


def _root_size(values: list[bytes] | None, where: str) -> tuple[int, int]:
    """(rows, cols) of ``SZ[n]`` or ``SZ[cols:rows]`` (19 when absent)."""
    if values is None:
        return 19, 19
    text = values[0].strip()
    parts = text.split(b":")
    if len(values) != 1 or len(parts) > 2 or not all(
            p.isdigit() and len(p) <= 4 for p in parts):
        raise InvalidInputError(f"{where}: bad SGF root: bad SZ property "
                                f"SZ[{_show(b']['.join(values))}] (expected SZ[n] or "
                                f"SZ[columns:rows])")
    cols = int(parts[0])
    rows = int(parts[-1])
    _check_size(rows, cols, f"{where}: SZ[{_show(text)}]")
    return rows, cols


def _point(value: bytes, rows: int, cols: int) -> Point | None:
    """The (row, col) of a two-letter point, or None if it is not one of the board."""
    if len(value) != 2:
        return None
    c, r = _INDEX.get(value[:1]), _INDEX.get(value[1:])
    if c is None or r is None or c >= cols or r >= rows:
        return None
    return r, c


def _point_list(values: list[bytes], ident: str, rows: int, cols: int, where: str
                ) -> Iterator[Point]:
    """The points of a setup property: single points and ``ul:lr`` rectangles."""
    for value in values:
        corners = [_point(v.strip(), rows, cols) for v in value.split(b":")]
        if len(corners) > 2 or any(p is None for p in corners):
            shown = _show(b"".join(b"[" + v + b"]" for v in values))
            raise InvalidInputError(f"{where}: bad point in {ident}{shown} on a {rows}x{cols} "
                                    f"board")
        (r0, c0), (r1, c1) = corners[0], corners[-1]  # type: ignore[misc]
        if r1 < r0 or c1 < c0:
            raise InvalidInputError(f"{where}: bad rectangle {ident}[{_show(value)}]: the "
                                    f"first corner must be the upper left")
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                yield r, c


def _show(raw: bytes, most: int = 60) -> str:
    """Property text for a message: one line, at most ``most`` characters."""
    text = raw.decode("utf-8", "replace").replace("\n", "\\n").replace("\r", "\\r")
    return text if len(text) <= most else text[:most] + "..."


def _check_size(rows: int, cols: int, where: str) -> None:
    if not (1 <= rows <= MAX_SGF_SIZE and 1 <= cols <= MAX_SGF_SIZE):
        size = f"{rows}" if rows == cols else f"{rows}x{cols}"
        raise InvalidInputError(f"{where}: board size {size} is out of range "
                                f"1..{MAX_SGF_SIZE} for SGF (FF[4] writes points with the "
                                f"52 letters a..z, A..Z)")


def _stop_position(raw: bytes) -> str:
    """Where sgfmill's tokeniser stopped, as `` at line L, column C`` (or nothing)."""
    tokens, end = sgf_grammar.tokenise(raw)
    if not tokens:
        return ""
    line = raw.count(b"\n", 0, end) + 1
    column = end - (raw.rfind(b"\n", 0, end) + 1) + 1
    at_end = raw[end:].strip() == b""
    return f" (parser stopped at line {line}, column {column}{', end of data' if at_end else ''})"


def read_sgf(path: str | Path, *, allow_suicide: bool = False, check: bool = True) -> Board:
    """Read a board from an SGF file (see :func:`board_from_sgf`).

    Raises
    ------
    InvalidInputError
        If the file cannot be read or does not hold a valid position.
    """
    data = read_bytes(path, "SGF file")
    return board_from_sgf(data, name=str(path), allow_suicide=allow_suicide, check=check)


def write_sgf(path: str | Path, board: Board, *, comment: str | None = None) -> None:
    """Write the board's position as SGF; the file is written whole or not at all."""
    atomic_write_bytes(path, board_to_sgf(board, comment=comment))

