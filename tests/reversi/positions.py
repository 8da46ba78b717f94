"""Seeded positions for the Othello tests, reached by random play from the start."""

from __future__ import annotations

import random

from gameopt.reversi.board import Board


def random_position(seed: int, empties: int) -> Board:
    """A position with ``empties`` empty squares (or the game's end if it comes first) where
    the side to move has a legal move, by seeded random play; retries further seeds."""
    for attempt in range(100):
        rng = random.Random(seed * 1000 + attempt)
        b = Board.start()
        while b.empties > empties and b.legal_moves():
            b = b.play(rng.choice(b.legal_moves()))
        if b.empties == empties and b.moves_bitboard():
            return b
    raise AssertionError(f"no position with {empties} empties from seed {seed}")
