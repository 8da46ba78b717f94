"""SGF (FF[4]) in and out through sgfmill.

A position is written as setup stones in the root node (``AB`` black, ``AW`` white).
Reading applies the root's ``AB``/``AW``/``AE``, refuses a setup with a string without a
liberty (naming it; sgfmill's own board would silently remove it), then plays the main
line's ``B``/``W`` moves on a :class:`~gameopt.go.board.Board`, so they can be undone.

sgfmill handles square boards only (``SZ[19]``, not ``SZ[19:13]``) and writes points with
the letters ``a``..``y``, so sizes are 1..25 both ways; larger or rectangular boards are
refused with a clear message (use :mod:`gameopt.go.text` for them).

Coordinates: sgfmill's ``(row, col)`` counts rows from the bottom; ours from the top.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sgfmill import sgf, sgf_grammar

from gameopt.core.files import atomic_write_bytes, read_bytes
from gameopt.errors import InvalidInputError
from gameopt.go.board import BLACK, EMPTY, WHITE, Board, Point

__all__ = ["MAX_SGF_SIZE", "board_to_sgf", "board_from_sgf", "read_sgf", "write_sgf"]

#: Largest board side written and read (sgfmill writes points with ``a``..``y``).
MAX_SGF_SIZE = 25


def board_to_sgf(board: Board, *, comment: str | None = None) -> bytes:
    """The board's position as an SGF game: root node with ``SZ``, ``AB``, ``AW``.

    Parameters
    ----------
    board : Board
        A square board of side 1..25. Only the position is written, not the moves
        that led to it nor the ko state.
    comment : str, optional
        Written as the root's ``C`` property.

    Returns
    -------
    bytes
        UTF-8 SGF text.

    Raises
    ------
    InvalidInputError
        If the board is not square or is larger than 25×25.

    Notes
    -----
    O(rows*cols).
    """
    _check_size(board.rows, board.cols, "board")
    n = board.rows
    game = sgf.Sgf_game(size=n)
    arr = board.to_array()
    stones = {}
    for colour in (BLACK, WHITE):
        rs, cs = np.nonzero(arr == colour)
        stones[colour] = {(n - 1 - r, c) for r, c in zip(rs.tolist(), cs.tolist(), strict=True)}
    root = game.get_root()
    root.set_setup_stones(stones[BLACK], stones[WHITE])
    if comment:
        root.set("C", comment)
    return bytes(game.serialise())


def board_from_sgf(data: bytes | str, *, name: str = "", allow_suicide: bool = False,
                   check: bool = True) -> Board:
    """The position of an SGF game: root setup stones, then the main line's moves.

    Parameters
    ----------
    data : bytes or str
        SGF text (bytes are decoded as the ``CA`` property says, str as UTF-8).
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
        than Go, a size other than 1..25 or a rectangular board, a bad point, setup
        properties after the root, a setup string without a liberty (named), or an
        illegal move (named by its move number).

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
    try:
        game = sgf.Sgf_game.from_coarse_game_tree(
            coarse, override_encoding="utf-8" if isinstance(data, str) else None)
    except (ValueError, LookupError) as e:
        size = coarse.sequence[0].get("SZ", [b""])[0].decode("ascii", "replace")
        if ":" in size:
            raise InvalidInputError(f"{where}: SZ[{size}]: rectangular boards are not "
                                    f"supported in SGF here (sgfmill reads square boards "
                                    f"only)") from None
        if size.strip().isdigit():
            _check_size(int(size), int(size), f"{where}: SZ[{size}]")
        raise InvalidInputError(f"{where}: bad SGF root: {e}") from None
    root = game.get_root()
    gm = root.get_raw("GM") if root.has_property("GM") else b"1"
    if gm.strip() != b"1":
        raise InvalidInputError(f"{where}: GM[{gm.decode('ascii', 'replace')}] is not a Go "
                                f"game (GM[1])")
    n = game.get_size()
    _check_size(n, n, f"{where}: SZ[{n}]")
    arr = np.zeros((n, n), dtype=np.int8)
    for ident, colour in (("AB", BLACK), ("AW", WHITE), ("AE", EMPTY)):
        for r, c in _points(root, ident, n, where):
            arr[n - 1 - r, c] = colour
    board = Board.from_array(arr, allow_suicide=allow_suicide, check=check, name=where)
    _replay(game, board, where)
    return board


def _replay(game: sgf.Sgf_game, board: Board, where: str) -> None:
    """Play the main line's moves on ``board``."""
    n = board.rows
    for number, node in enumerate(game.get_main_sequence()[1:], start=1):
        if node.has_setup_stones():
            raise InvalidInputError(f"{where}: node {number}: setup stones (AB/AW/AE) after "
                                    f"the root node are not supported")
        try:
            colour, move = node.get_move()
        except ValueError:
            who, raw = node.get_raw_move()
            raise InvalidInputError(f"{where}: node {number}: bad move {who.upper()}["
                                    f"{raw.decode('utf-8', 'replace')}] on a {n}x{n} board"
                                    ) from None
        if colour is None:
            continue
        point: Point | None = None if move is None else (n - 1 - move[0], move[1])
        try:
            board.play(BLACK if colour == "b" else WHITE, point)
        except InvalidInputError as e:
            raise InvalidInputError(f"{where}: node {number}: {e}") from None


def _points(node: sgf.Tree_node, ident: str, n: int, where: str) -> set[tuple[int, int]]:
    if not node.has_property(ident):
        return set()
    try:
        points: set[tuple[int, int]] = node.get(ident)
    except ValueError:
        values = b"".join(b"[" + v + b"]" for v in node.get_raw_list(ident))
        raise InvalidInputError(f"{where}: bad point in {ident}"
                                f"{values.decode('utf-8', 'replace')} on a {n}x{n} board"
                                ) from None
    return points


def _check_size(rows: int, cols: int, where: str) -> None:
    if rows != cols:
        raise InvalidInputError(f"{where}: a {rows}x{cols} board cannot be written as SGF "
                                f"here (sgfmill supports square boards only)")
    if not 1 <= rows <= MAX_SGF_SIZE:
        raise InvalidInputError(f"{where}: board size {rows} is out of range 1..{MAX_SGF_SIZE} "
                                f"for SGF (sgfmill writes points with the letters a..y)")


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

