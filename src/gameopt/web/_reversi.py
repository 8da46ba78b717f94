"""Every name the web front end takes from the Othello system, imported in one place.

The Othello page calls only these: the board and its notations, the search and the exact
solver (each under a :class:`gameopt.core.Limit` with a stop flag and a progress
callback), the static evaluation, the shipped opening book and the GGF game records.
"""

from __future__ import annotations

import functools

import numpy as np

from gameopt.reversi import (
    BLACK,
    PASS,
    WHITE,
    Board,
    Move,
    SearchResult,
    evaluate,
    search,
    solve,
)
from gameopt.reversi.board import moves_string, parse_moves
from gameopt.reversi.book import DEFAULT, Book, open_book
from gameopt.reversi.files import GgfGame, format_ggf, parse_ggf

__all__ = ["BLACK", "WHITE", "PASS", "Board", "Move", "SearchResult", "evaluate", "search",
           "solve", "moves_string", "parse_moves", "GgfGame", "format_ggf", "parse_ggf",
           "shipped_book", "book_move"]


@functools.cache
def shipped_book() -> Book:
    """The opening book shipped with the engine, read once."""
    return open_book(DEFAULT)


def book_move(board: Board, variety: float = 0.0) -> tuple[Move, float, int] | None:
    """The shipped book's move for ``board`` (the best, or a random one within
    ``variety`` discs of it), its value for the mover and the number of moves the book
    values there; None when the position is not in the book."""
    book = shipped_book()
    vals = book.lookup(board)
    if not vals:
        return None
    rng = np.random.default_rng() if variety > 0 else None
    move = book.choose(board, variety, rng)
    assert move is not None
    return move, vals[move], len(vals)
