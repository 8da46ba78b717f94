"""numba bitboard kernels for Othello: moves, flips, counts, stability, hashing, perft.

Scalars in, scalars out; nothing here validates its input. The slow reference these kernels
are tested against is :mod:`gameopt.reversi.reference`.

Data and invariants
-------------------
A position is two ``uint64`` bitboards ``(P, O)``: the discs of the player to move and of
the opponent, ``P & O == 0``. Bit ``s`` is square ``s = 8 * row + column``: a1 = 0, b1 = 1,
..., h1 = 7, a2 = 8, ..., h8 = 63 (the order of board strings and of Edax).

Every constant and every operand of a bit operation is ``uint64``: numba types
``int64 op uint64`` as ``float64``, so signed integers never meet a bitboard. Square
numbers and counts are ``int64``.

Flips use rays: ``RAYS[d, s]`` holds the squares from ``s`` (excluded) to the board edge in
direction ``d``. Directions 0..3 go towards higher bits (+1, +7, +8, +9), 4..7 towards
lower bits (-1, -7, -8, -9). The discs flipped along a ray are the opponent discs before
the first square that is not an opponent disc, if that square holds a disc of the player.

These helpers are plain ``@njit`` functions, not ``inline="always"``: numba's own inlining
works on its IR and re-types every call site, which cost the search kernels most of their
compile time (268 CPU s on a fresh cache, against 117 s without it here and in a few small
helpers: ``_stack.final_score`` and ``poll``, ``_tt._bucket``, and ``_endgame``'s
``_flip_if``, ``_odd_quadrants``, ``_mobility_weighted``, ``_list_moves``, ``_etc``); LLVM
is left to inline them (the same node counts and speed, measured with
``bench_reversi_ffo.py``, ``bench_reversi_midgame.py`` and ``bench_reversi_perft.py``). The
evaluation's incremental helpers (``_eval``) stay inlined by numba: without it the midgame
search was ~17 % slower.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = [
    "get_moves", "flips", "popcount", "count_last_flip", "stable_discs", "stable_pair",
    "hash_position",
    "perft", "square_of", "around", "full_lines", "RAYS", "CORNERS",
]

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # no square on file a
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # no square on file h
INNER = np.uint64(0x7E7E7E7E7E7E7E7E)  # files b..g
S1 = np.uint64(1)
S7 = np.uint64(7)
S8 = np.uint64(8)
S9 = np.uint64(9)

_DIRS = ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1))


def _make_rays() -> np.ndarray:
    """RAYS[d, s]: the squares strictly beyond s in direction d (plain Python, at import)."""
    rays = np.zeros((8, 64), dtype=np.uint64)
    for d, (dr, dc) in enumerate(_DIRS):
        for s in range(64):
            r, c = divmod(s, 8)
            bits = 0
            r, c = r + dr, c + dc
            while 0 <= r < 8 and 0 <= c < 8:
                bits |= 1 << (8 * r + c)
                r, c = r + dr, c + dc
            rays[d, s] = np.uint64(bits)
    return rays


RAYS = _make_rays()

# Hash multipliers (odd 64-bit constants from splitmix64).
_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xBF58476D1CE4E5B9)
_H3 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


@njit(cache=True)
def popcount(x: np.uint64) -> int:
    """Number of set bits (SWAR)."""
    x = x - ((x >> S1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))  # type: ignore[return-value]


@njit(cache=True, inline="always")
def _shift_moves(P: np.uint64, mask: np.uint64, s: np.uint64) -> np.uint64:
    """Squares reached by a run of ``mask`` discs from P in both directions of shift s.

    A run is up to 6 discs long: two single steps reach runs of 1 and 2, then two double
    steps through pairs of ``mask`` squares (``m``) reach 4 and 6 (Kogge-Stone style;
    4 dependent steps a direction instead of 6)."""
    s2 = s + s
    t = mask & (P << s)
    t |= mask & (t << s)
    m = mask & (mask << s)
    t |= m & (t << s2)
    t |= m & (t << s2)
    u = mask & (P >> s)
    u |= mask & (u >> s)
    m = m >> s
    u |= m & (u >> s2)
    u |= m & (u >> s2)
    return (t << s) | (u >> s)


@njit(cache=True)
def get_moves(P: np.uint64, O: np.uint64) -> np.uint64:
    """Bitboard of the legal moves of the player P against O (Kogge-Stone style fills)."""
    mask = O & INNER
    moves = _shift_moves(P, mask, S1)
    moves |= _shift_moves(P, mask, S7)
    moves |= _shift_moves(P, O, S8)
    moves |= _shift_moves(P, mask, S9)
    return moves & ~(P | O)


@intrinsic
def _clz(typingctx, x):
    """Leading zero bits of a uint64 (LLVM ``ctlz``, one ``lzcnt``; 64 for 0)."""
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


HIGH = np.uint64(1 << 63)


@njit(cache=True)
def flips(P: np.uint64, O: np.uint64, s: int) -> np.uint64:
    """Discs of O flipped when P plays on the empty square s (0 if the move is illegal).

    Along each ray the first square that is not an opponent disc (the *outflank* square)
    decides: the discs before it flip when it holds a disc of P. Towards higher bits it is
    the lowest set bit of ``ray & ~O``; towards lower bits the highest, found with one
    leading-zero count (``| 1`` keeps the count below 64; bit 0 then stands for "none", and
    ``& ray`` drops it when it is not on the ray). Branch-free but for the selects.
    """
    f = U0
    nO = ~O
    for d in range(4):  # towards higher bits
        ray = RAYS[d, s]
        block = ray & nO
        first = block & (~block + U1)
        if first & P:
            f |= (first - U1) & ray
    for d in range(4, 8):  # towards lower bits
        ray = RAYS[d, s]
        first = (HIGH >> np.uint64(_clz((ray & nO) | U1))) & P & ray  # type: ignore[call-arg]
        f |= ray & (U0 - (first << U1))
    return f


def _make_line_flips() -> np.ndarray:
    """LINE_FLIPS[256 * i + x]: the discs flipped along a line of 8 squares by a move on
    square i of it, where ``x`` marks the mover's discs and every other square holds an
    opponent disc (plain Python, at import)."""
    table = np.zeros(8 * 256, dtype=np.uint8)
    for i in range(8):
        for x in range(256):
            if x >> i & 1:
                continue
            n = 0
            for step in (1, -1):
                j, run = i + step, 0
                while 0 <= j < 8 and not x >> j & 1:
                    j, run = j + step, run + 1
                if 0 <= j < 8:
                    n += run
            table[256 * i + x] = n
    return table


def _make_diagonals() -> tuple[np.ndarray, np.ndarray]:
    """The a1-h8 and h1-a8 diagonals through each square (plain Python, at import)."""
    d9 = np.zeros(64, dtype=np.uint64)
    d7 = np.zeros(64, dtype=np.uint64)
    for s in range(64):
        r, c = divmod(s, 8)
        d9[s] = np.uint64(sum(1 << (8 * rr + cc) for rr in range(8) for cc in range(8)
                              if rr - cc == r - c))
        d7[s] = np.uint64(sum(1 << (8 * rr + cc) for rr in range(8) for cc in range(8)
                              if rr + cc == r + c))
    return d9, d7


LINE_FLIPS = _make_line_flips()
DIAG9, DIAG7 = _make_diagonals()
FILE_A = np.uint64(0x0101010101010101)
#: gathers the file-a squares into one byte, rank r to bit r (no two products collide)
FILE_TO_BYTE = np.uint64(0x0102040810204080)
S56 = np.uint64(56)
BYTE = np.uint64(0xFF)


@njit(cache=True)
def count_last_flip(P: np.uint64, O: np.uint64, s: int) -> int:
    """Number of discs flipped when P plays on s, the last empty square.

    With one empty square every square of a line through s that is not P's is O's, so the
    count depends only on P's discs on the four lines: each line is gathered into a byte
    (a rank by a shift, a file and the diagonals by one multiplication that brings every
    square to its rank or file bit: the line occupancy of chess programs' "kindergarten
    bitboards", Gerd Isenberg's name, Chess Programming Wiki) and looked up in
    :data:`LINE_FLIPS`. Off-board bits of a short diagonal's byte read as opponent discs,
    but they only lie beyond the diagonal's ends, where no disc of P can close a run.
    ``O`` is not read.
    """
    r = s >> 3
    c = s & 7
    row = (P >> np.uint64(8 * r)) & BYTE
    col = (((P >> np.uint64(c)) & FILE_A) * FILE_TO_BYTE) >> S56
    d9 = ((P & DIAG9[s]) * FILE_A) >> S56
    d7 = ((P & DIAG7[s]) * FILE_A) >> S56
    return (np.int64(LINE_FLIPS[256 * c + np.int64(row)])  # type: ignore[return-value]
            + np.int64(LINE_FLIPS[256 * r + np.int64(col)])
            + np.int64(LINE_FLIPS[256 * c + np.int64(d9)])
            + np.int64(LINE_FLIPS[256 * c + np.int64(d7)]))


@njit(cache=True)
def hash_position(P: np.uint64, O: np.uint64) -> np.uint64:
    """A 64-bit mix of (P, O) (splitmix64 finaliser); the index of transposition tables."""
    x = P * _H1 + O
    x = (x ^ (x >> _S30)) * _H2
    x = (x ^ (x >> _S27)) * _H3
    return x ^ (x >> _S31)


EDGES = np.uint64(0xFF818181818181FF)
FILE_AH = np.uint64(0x8181818181818181)
RANK_18 = np.uint64(0xFF000000000000FF)


@njit(cache=True)
def _reach(g: np.uint64, s: np.uint64, mask: np.uint64) -> np.uint64:
    """g and every square reached from it by shifting left by s any number of times
    (Kogge-Stone fill; ``mask`` drops the squares a shift wraps onto)."""
    g |= mask & (g << s)
    mask &= mask << s
    g |= mask & (g << (s + s))
    mask &= mask << (s + s)
    return g | (mask & (g << (s + s + s + s)))


@njit(cache=True)
def _reach_down(g: np.uint64, s: np.uint64, mask: np.uint64) -> np.uint64:
    """As :func:`_reach`, shifting right."""
    g |= mask & (g >> s)
    mask &= mask >> s
    g |= mask & (g >> (s + s))
    mask &= mask >> (s + s)
    return g | (mask & (g >> (s + s + s + s)))


@njit(cache=True)
def full_lines(full: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The squares whose row, column, a1-h8 diagonal and h1-a8 diagonal hold no empty
    square: the complement of the empties spread both ways along each direction."""
    e = ~full
    h = ~(_reach(e, S1, NOT_A) | _reach_down(e, S1, NOT_H))
    v = ~(_reach(e, S8, ALL) | _reach_down(e, S8, ALL))
    d9 = ~(_reach(e, S9, NOT_A) | _reach_down(e, S9, NOT_H))
    d7 = ~(_reach(e, S7, NOT_H) | _reach_down(e, S7, NOT_A))
    return h, v, d9, d7


@njit(cache=True, inline="always")
def _stable_in(P: np.uint64, ok_h: np.uint64, ok_v: np.uint64, ok_9: np.uint64,
               ok_7: np.uint64) -> np.uint64:
    """P's discs that can never be flipped, given the squares whose line in each direction
    cannot bracket a disc by itself (full, or on that direction's edge): the fixed point of
    :func:`stable_discs`."""
    stable = U0
    while True:
        h = ok_h | ((stable << S1) & NOT_A) | ((stable >> S1) & NOT_H)
        v = ok_v | (stable << S8) | (stable >> S8)
        d9 = ok_9 | ((stable << S9) & NOT_A) | ((stable >> S9) & NOT_H)
        d7 = ok_7 | ((stable << S7) & NOT_H) | ((stable >> S7) & NOT_A)
        new = P & h & v & d9 & d7
        if new == stable:
            return stable
        stable = new


@njit(cache=True)
def stable_discs(P: np.uint64, O: np.uint64) -> np.uint64:
    """A subset of P's discs that can never be flipped (a lower bound on stability).

    A disc is stable when, along each of its four lines, the line is full or the disc has a
    neighbour on that line that is off the board or a stable disc of its own colour (a run
    of P's discs that ends at a stable disc or the edge cannot be bracketed). The set grows
    from nothing to a fixed point; each round is O(1) bit operations, at most 64 rounds.
    """
    fh, fv, f9, f7 = full_lines(P | O)
    return _stable_in(P, fh | FILE_AH, fv | RANK_18, f9 | EDGES, f7 | EDGES)


@njit(cache=True)
def stable_pair(P: np.uint64, O: np.uint64) -> tuple[np.uint64, np.uint64]:
    """(``stable_discs(P, O)``, ``stable_discs(O, P)``), the full lines found once."""
    fh, fv, f9, f7 = full_lines(P | O)
    ok_h = fh | FILE_AH
    ok_v = fv | RANK_18
    ok_9 = f9 | EDGES
    ok_7 = f7 | EDGES
    return _stable_in(P, ok_h, ok_v, ok_9, ok_7), _stable_in(O, ok_h, ok_v, ok_9, ok_7)


CORNERS = np.uint64(0x8100000000000081)


@njit(cache=True)
def around(x: np.uint64) -> np.uint64:
    """Squares next to any square of x (8-neighbourhood)."""
    h = ((x << S1) & NOT_A) | ((x >> S1) & NOT_H)
    v = (x << S8) | (x >> S8)
    d = ((x << S9) & NOT_A) | ((x >> S9) & NOT_H) | ((x << S7) & NOT_H) | ((x >> S7) & NOT_A)
    return h | v | d


@njit(cache=True)
def square_of(b: np.uint64) -> int:
    """The square of a one-bit bitboard."""
    return popcount(b - U1)


@njit(cache=True)
def perft(P: np.uint64, O: np.uint64, depth: int, passed: bool) -> int:
    """Leaves at ``depth`` plies, a pass counting as a ply; the game end is a leaf.

    Depth-first over an explicit stack (numba cannot load self-recursive functions from its
    cache, numba issue #6061). Frame k holds the position, its moves not yet played and
    whether it was reached by a pass; the last ply is counted in bulk (popcount).
    """
    if depth <= 0:
        return 1
    sP = np.empty(depth + 1, dtype=np.uint64)
    sO = np.empty(depth + 1, dtype=np.uint64)
    rest = np.empty(depth + 1, dtype=np.uint64)
    total = 0
    k = 0
    sP[0] = P
    sO[0] = O
    entering = True
    pass_in = passed
    while k >= 0:
        if entering:
            entering = False
            p = sP[k]
            o = sO[k]
            left = depth - k
            if left == 0:
                total += 1
                k -= 1
                continue
            moves = get_moves(p, o)
            if moves == U0:
                if pass_in:
                    total += 1  # neither side can move: the game is over, a leaf
                    k -= 1
                    continue
                # pass: one ply, same discs, other side to move
                rest[k] = U0
                sP[k + 1] = o
                sO[k + 1] = p
                k += 1
                entering = True
                pass_in = True
                continue
            if left == 1:
                total += popcount(moves)
                k -= 1
                continue
            rest[k] = moves
        # play the next move of frame k, or go back up
        moves = rest[k]
        if moves == U0:
            k -= 1
            continue
        b = moves & (~moves + U1)
        rest[k] = moves ^ b
        p = sP[k]
        o = sO[k]
        f = flips(p, o, square_of(b))
        sP[k + 1] = o ^ f
        sO[k + 1] = p | b | f
        k += 1
        entering = True
        pass_in = False
    return total
