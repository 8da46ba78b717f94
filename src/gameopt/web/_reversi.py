"""Every name the web front end takes from the Othello system, imported in one place.

The Othello page calls only these: the board and its notations, the search and the exact
solver (each under a :class:`gameopt.core.Limit` with a stop flag and a progress
callback), the static evaluation and the GGF game records.
"""

from __future__ import annotations

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
from gameopt.reversi.files import GgfGame, format_ggf, parse_ggf

__all__ = ["BLACK", "WHITE", "PASS", "Board", "Move", "SearchResult", "evaluate", "search",
           "solve", "moves_string", "parse_moves", "GgfGame", "format_ggf", "parse_ggf"]
