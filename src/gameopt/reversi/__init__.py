"""Othello: bitboard kernels, board and notations, search and the exact endgame solver."""

from gameopt.reversi.board import BLACK, PASS, WHITE, Board, Move

__all__ = ["Board", "Move", "PASS", "BLACK", "WHITE"]
