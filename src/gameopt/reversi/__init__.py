"""Othello: bitboard kernels, board and notations, search and the exact endgame solver."""

from gameopt.reversi.board import BLACK, PASS, WHITE, Board, Move
from gameopt.reversi.search import SearchControl, SearchParams, SearchResult, search, solve

__all__ = ["Board", "Move", "PASS", "BLACK", "WHITE", "search", "solve", "SearchParams",
           "SearchResult", "SearchControl"]
