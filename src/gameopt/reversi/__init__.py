"""Othello: bitboard kernels, board and notations, search and the exact endgame solver.

Entry points: :class:`Board` and :class:`Move` (the game), :func:`perft` (move-tree
leaves), :func:`search` (iterative-deepening PVS) and :func:`solve` (exact endgame), both
under a :class:`gameopt.core.Limit` and returning a :class:`SearchResult`;
:class:`SearchParams` and :class:`EvalKind` (the evaluations), :func:`evaluate`;
:class:`SearchTable` (a transposition table kept from move to move);
:func:`build_book` (opening book) and :func:`read_obf` (positions with their scores).
Match play and the NBoard protocol are add-ons in ``match``, ``external`` and ``nboard``:
this package never imports them.
"""

from gameopt.reversi.board import BLACK, PASS, WHITE, Board, Move, perft
from gameopt.reversi.book import build_book
from gameopt.reversi.files import read_obf
from gameopt.reversi.search import (
    EvalKind,
    SearchParams,
    SearchResult,
    SearchTable,
    evaluate,
    search,
    solve,
)

__all__ = ["Board", "Move", "PASS", "BLACK", "WHITE", "perft", "search", "solve", "evaluate",
           "EvalKind", "SearchParams", "SearchResult", "SearchTable", "build_book",
           "read_obf"]
