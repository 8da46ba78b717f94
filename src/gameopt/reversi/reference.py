"""Slow, obviously correct Othello rules: the reference the numba kernels are tested against.

Positions are plain Python ints ``(P, O)`` as in :mod:`gameopt.reversi._bitboard`
(bit ``8 * row + column``). Every function walks the board square by square, direction by
direction, exactly as the rules are written; nothing here is fast.
"""

from __future__ import annotations

from collections.abc import Callable

from gameopt.gametree import negamax

__all__ = ["legal_moves", "flipped", "full_lines", "perft", "final_score", "negamax_exact",
           "ReferenceState", "alphabeta_mpc"]

DIRECTIONS = ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1))


def _on(bits: int, r: int, c: int) -> bool:
    return bool(bits >> (8 * r + c) & 1)


def flipped(P: int, O: int, s: int) -> int:
    """Opponent discs flipped by P playing on s (0 when s is occupied or the move is illegal)."""
    if _on(P | O, s // 8, s % 8):
        return 0
    out = 0
    r0, c0 = divmod(s, 8)
    for dr, dc in DIRECTIONS:
        run = 0
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 8 and 0 <= c < 8 and _on(O, r, c):
            run |= 1 << (8 * r + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and _on(P, r, c):
            out |= run
    return out


def full_lines(full: int) -> tuple[int, int, int, int]:
    """The squares whose whole row, column, a1-h8 diagonal, h1-a8 diagonal are occupied
    (``full`` the occupied squares), walking each line square by square."""
    out = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        bits = 0
        for s in range(64):
            r0, c0 = divmod(s, 8)
            ok = _on(full, r0, c0)
            for sign in (1, -1):
                r, c = r0 + sign * dr, c0 + sign * dc
                while ok and 0 <= r < 8 and 0 <= c < 8:
                    ok = _on(full, r, c)
                    r, c = r + sign * dr, c + sign * dc
            if ok:
                bits |= 1 << s
        out.append(bits)
    return out[0], out[1], out[2], out[3]


def legal_moves(P: int, O: int) -> list[int]:
    """The squares where P may play, in increasing order."""
    return [s for s in range(64) if flipped(P, O, s)]


def perft(P: int, O: int, depth: int, passed: bool = False) -> int:
    """Leaves at ``depth`` plies; a pass is a ply and the end of the game is a leaf."""
    if depth == 0:
        return 1
    moves = legal_moves(P, O)
    if not moves:
        return 1 if passed else perft(O, P, depth - 1, True)
    total = 0
    for s in moves:
        f = flipped(P, O, s)
        total += perft(O ^ f, P | f | (1 << s), depth - 1, False)
    return total


def final_score(P: int, O: int) -> int:
    """Disc difference for P at the end of the game; empty squares go to the winner."""
    p, o = bin(P).count("1"), bin(O).count("1")
    empties = 64 - p - o
    if p > o:
        return p - o + empties
    if p < o:
        return p - o - empties
    return 0


def negamax_exact(P: int, O: int) -> int:
    """Exact final disc difference for P with perfect play (full tree, no pruning).

    :func:`gameopt.gametree.negamax` over :class:`ReferenceState` to the end of the game:
    the generic reference search over these plain rules.
    """
    return negamax(ReferenceState(P, O), None)


def alphabeta_mpc(P: int, O: int, depth: int, alpha: int, beta: int,
                  evaluate: Callable[[int, int], int],
                  rows: dict[tuple[int, int], tuple[int, ...]] | None = None,
                  t100: int = 150, passed: bool = False, nest: int = 1) -> int:
    """Fail-soft alpha-beta in square order (centi-discs; a pass uses no ply), with Buro's
    Multi-ProbCut as the numba search does it when it neither orders, hashes nor uses PVS.

    ``rows[(empties, d)] = (d', a, b, sigma, ...)``: one or more tries of four of the
    kernel's integers (slope ``a`` in 1/1024; d' = 0: no such try), tried in order;
    ``t100`` the confidence in hundredths. At a node of depth d >= 3 with moves and a row,
    for each try: if a plain null-window search of depth d' at
    ``ceil((beta - b + s)·1024/a)`` fails high, the value is beta; if one at
    ``floor((alpha - b - s)·1024/a)`` fails low, it is alpha (``s = sigma·t100 // 100``;
    bounds only inside ±6400). Without ``rows``, plain fail-soft alpha-beta. ``nest`` 2:
    those null-window searches are themselves Multi-ProbCut searches of nest 1 (the
    kernel's ``SearchParams.mpc_nest``).
    """
    moves = legal_moves(P, O)
    if not moves:
        if passed or not legal_moves(O, P):
            return 100 * final_score(P, O)
        return -alphabeta_mpc(O, P, depth, -beta, -alpha, evaluate, rows, t100, True, nest)
    if depth == 0:
        return evaluate(P, O)
    row = rows.get((64 - bin(P | O).count("1"), depth), ()) if rows and depth >= 3 else ()
    inner = rows if nest > 1 else None  # the tests' own rows
    for i in range(0, len(row), 4):
        ds, a, b, sigma = row[i:i + 4]
        if ds <= 0:
            continue
        s = sigma * t100 // 100
        if beta < 6400:
            bound = -((-(beta - b + s) * 1024) // a)
            if -6400 < bound < 6400 and alphabeta_mpc(P, O, ds, bound - 1, bound, evaluate,
                                                      inner, t100, nest=nest - 1) >= bound:
                return beta
        if alpha > -6400:
            bound = ((alpha - b - s) * 1024) // a
            if -6400 < bound < 6400 and alphabeta_mpc(P, O, ds, bound, bound + 1, evaluate,
                                                      inner, t100, nest=nest - 1) <= bound:
                return alpha
    best, a_ = -(1 << 20), alpha
    for sq in moves:
        f = flipped(P, O, sq)
        v = -alphabeta_mpc(O ^ f, P | f | (1 << sq), depth - 1, -beta, -a_, evaluate, rows,
                           t100, nest=nest)
        if v > best:
            best = v
            if v >= beta:
                return v
            a_ = max(a_, v)
    return best


class ReferenceState:
    """An Othello position as a :class:`gameopt.gametree.GameState` (pure Python rules).

    The numba searches are tested against :func:`gameopt.gametree.negamax` and
    :func:`gameopt.gametree.alphabeta` over this state.

    A pass is move 64 and uses no ply of depth, as in the numba search; ``scale`` multiplies
    final disc differences (100 for midgame centi-discs); ``evaluate`` is the evaluation
    function used at the horizon, called as ``evaluate(P, O)``.
    """

    def __init__(self, P: int, O: int, scale: int = 1,
                 evaluate: Callable[[int, int], int] | None = None) -> None:
        self.P, self.O, self.scale, self._evaluate = P, O, scale, evaluate

    def legal_moves(self) -> list[int]:
        moves = legal_moves(self.P, self.O)
        if moves:
            return moves
        return [64] if legal_moves(self.O, self.P) else []

    def play(self, move: int) -> ReferenceState:
        if move == 64:
            return ReferenceState(self.O, self.P, self.scale, self._evaluate)
        f = flipped(self.P, self.O, move)
        return ReferenceState(self.O ^ f, self.P | f | (1 << move), self.scale, self._evaluate)

    def ply_cost(self, move: int) -> int:
        return 0 if move == 64 else 1

    def final_value(self) -> int:
        return self.scale * final_score(self.P, self.O)

    def evaluate(self) -> int:
        if self._evaluate is None:
            raise ValueError("ReferenceState: no evaluation given for a depth-limited search")
        return self._evaluate(self.P, self.O)

