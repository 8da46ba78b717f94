"""Plain-text Go boards: ``X`` black, ``O`` white, ``.`` empty, one row per line.

The first line is the top row (row 0). Spaces and tabs inside a line are ignored, so
``X O .`` and ``XO.`` are the same row; blank lines are skipped. Errors name the line and
column (both from 1) of the bad character in the text.

``parse_text`` and ``format_text`` are a pair: ``parse_text(format_text(b)) == b`` for
every board without a ko state.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gameopt.core import files as core_files
from gameopt.core.files import atomic_write_bytes
from gameopt.errors import InvalidInputError
from gameopt.go.board import BLACK, EMPTY, STONE_CHARS, WHITE, Board

__all__ = ["parse_text", "format_text", "read_text", "write_text"]

_VALUE = {STONE_CHARS[EMPTY]: EMPTY, STONE_CHARS[BLACK]: BLACK, STONE_CHARS[WHITE]: WHITE}


def parse_text(text: str, *, name: str = "", allow_suicide: bool = False,
               check: bool = True) -> Board:
    """The board drawn in ``text``.

    Parameters
    ----------
    text : str
        One line per row of ``X``, ``O`` and ``.``.
    name : str
        Where the text came from (a file name), for messages.
    allow_suicide, check : bool
        As in :meth:`Board.from_array`; with ``check`` a string without a liberty is
        refused.

    Raises
    ------
    InvalidInputError
        On an unknown character (naming its line and column), rows of different lengths
        (naming the first line that differs), no rows at all, or a string without a
        liberty.

    Notes
    -----
    O(characters).
    """
    where = name or "text board"
    rows: list[list[int]] = []
    first_line = 0
    for lineno, line in enumerate(text.splitlines(), start=1):
        row = []
        for colno, ch in enumerate(line, start=1):
            if ch in " \t\r":
                continue
            v = _VALUE.get(ch)
            if v is None:
                raise InvalidInputError(f"{where}: line {lineno}, column {colno}: unexpected "
                                        f"character {ch!r} (a point is X, O or .)")
            row.append(v)
        if not row:
            continue
        if rows and len(row) != len(rows[0]):
            raise InvalidInputError(f"{where}: line {lineno}: {len(row)} points, but line "
                                    f"{first_line} has {len(rows[0])}")
        if not rows:
            first_line = lineno
        rows.append(row)
    if not rows:
        raise InvalidInputError(f"{where}: no board rows found (expected lines of X, O, .)")
    return Board.from_array(np.array(rows, dtype=np.int8), allow_suicide=allow_suicide,
                            check=check, name=where)


def format_text(board: Board) -> str:
    """The board as text, one row per line, with a final newline. O(rows*cols)."""
    return f"{board}\n"


def read_text(path: str | Path, *, allow_suicide: bool = False, check: bool = True) -> Board:
    """Read a text board from a file (see :func:`parse_text`).

    Raises
    ------
    InvalidInputError
        If the file cannot be read or does not hold a valid board.
    """
    text = core_files.read_text(path, "board file")
    return parse_text(text, name=str(path), allow_suicide=allow_suicide, check=check)


def write_text(path: str | Path, board: Board) -> None:
    """Write the board as text; the file is written whole or not at all."""
    atomic_write_bytes(path, format_text(board).encode("ascii"))
