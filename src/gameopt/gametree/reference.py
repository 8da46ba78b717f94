"""Reference negamax and alpha-beta over a :class:`GameState` protocol.

Written to be obviously correct, not fast: the fast, game-specific searches (Othello's
numba kernels) are tested against these on small trees. A game meets them only through the
protocol; a pass is an ordinary move, and ``ply_cost`` lets a game say that a move does not
use a ply of depth (Othello's pass).

References
----------
D. E. Knuth and R. W. Moore, "An analysis of alpha-beta pruning", Artificial Intelligence
6 (1975): negamax and fail-soft alpha-beta.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["GameState", "negamax", "alphabeta"]

S = TypeVar("S", bound="GameState")


class GameState(Protocol):
    """A two-player zero-sum position, values from the side to move's point of view."""

    def legal_moves(self) -> Sequence[Any]:
        """The moves of the side to move; empty exactly when the game is over."""

    def play(self: S, move: Any) -> S:
        """The position after ``move``."""

    def ply_cost(self, move: Any) -> int:
        """Plies of depth the move uses (1; 0 for a move that must not shorten a search)."""

    def final_value(self) -> int:
        """The result at the end of the game."""

    def evaluate(self) -> int:
        """A static value where the depth runs out."""


def negamax(state: GameState, depth: int | None, counter: list[int] | None = None) -> int:
    """Plain negamax: the full tree to ``depth`` plies (None: to the end of the game).

    O(b^d) positions; ``counter[0]`` (if given) counts them.
    """
    if counter is not None:
        counter[0] += 1
    moves = state.legal_moves()
    if not moves:
        return state.final_value()
    if depth == 0:
        return state.evaluate()
    best: int | None = None
    for m in moves:
        d = None if depth is None else depth - state.ply_cost(m)
        v = -negamax(state.play(m), d, counter)
        best = v if best is None or v > best else best
    assert best is not None
    return best


def alphabeta(state: GameState, depth: int | None, alpha: int, beta: int,
              counter: list[int] | None = None) -> int:
    """Fail-soft alpha-beta in the moves' own order; equals negamax when inside the window.

    Returns v with: v <= alpha implies value <= v; v >= beta implies value >= v; otherwise
    v is the value.
    """
    if counter is not None:
        counter[0] += 1
    moves = state.legal_moves()
    if not moves:
        return state.final_value()
    if depth == 0:
        return state.evaluate()
    best: int | None = None
    a = alpha
    for m in moves:
        d = None if depth is None else depth - state.ply_cost(m)
        v = -alphabeta(state.play(m), d, -beta, -a, counter)
        if best is None or v > best:
            best = v
        if v >= beta:
            return v
        if v > a:
            a = v
    assert best is not None
    return best
