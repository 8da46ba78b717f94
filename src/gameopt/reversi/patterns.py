"""Pattern evaluation (Buro): pattern tables, symmetry sharing, stages, weights files.

A *pattern* is an ordered list of squares; its *instances* are its images under the 8
board symmetries (duplicates removed), and all instances of a pattern share one table.
A configuration is the base-3 number ``Σ 3^k · d_k`` over the pattern's squares in order,
with ``d = 0`` empty, ``1`` the side to move, ``2`` the other side. When a symmetry of the
board maps the pattern's squares onto themselves (the 3×3 corner about its diagonal, a
row about its middle...), configurations that are images of each other share one weight,
stored under the smaller index (:data:`PatternSet.canon`).

The evaluation of a position at stage ``s`` (``s = min(14, (60 - empties) // 4)``, 15
stages of 4 moves) is, in centi-discs for the side to move,

    ``bias[s] + Σ_k term_w[s][k]·term_k(P, O) + Σ_instances table[s][type][canon[idx]]``

where the terms (:data:`TERMS`) are those of the hand-set heuristic
(:mod:`gameopt.reversi._eval`): mobility, potential mobility, corners, X- and C-squares,
stable discs and discs, each as P's count minus O's. They carry what patterns alone learn
slowly from little data (mobility above all; Buro folds it into the edge patterns), and
their weights are fitted per stage with the tables.

The default set (:data:`PATTERNS`): edge + 2X, corner 3×3, corner 2×5, rows and columns 2–4,
diagonals of length 4–8 (Buro's set), then the corner triangle and the corner block
(Egaroucid's) — 13 tables, 54 instances. New patterns go last: weights files of the
earlier set are then read with the new patterns at 0 (:func:`weights.read_weights`).

References
----------
M. Buro, "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
Othello", NECI technical report 96, 1997; M. Buro, "From simple features to sophisticated
evaluation functions", Computers and Games 1998.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError
from gameopt.reversi.board import SQUARE_SYMMETRIES, Board, parse_square

__all__ = ["PATTERNS", "PatternSet", "DEFAULT_SET", "N_STAGES", "stage_of", "TERMS",
           "N_SCALARS", "reference_indices", "reference_terms", "reference_evaluate"]

N_STAGES = 15
#: the scalar features of every stage, before the pattern tables (bias first)
TERMS = ("mobility", "potential mobility", "corners", "X-squares", "C-squares",
         "stable discs", "discs")
N_SCALARS = 1 + len(TERMS)


def _sq(names: str) -> tuple[int, ...]:
    return tuple(parse_square(n) for n in names.split())


#: name -> squares of the base instance, in digit order
PATTERNS: dict[str, tuple[int, ...]] = {
    "edge+2x": _sq("b2 a1 b1 c1 d1 e1 f1 g1 h1 g2"),
    "corner3x3": _sq("a1 b1 c1 a2 b2 c2 a3 b3 c3"),
    "corner2x5": _sq("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"),
    "row2": _sq("a2 b2 c2 d2 e2 f2 g2 h2"),
    "row3": _sq("a3 b3 c3 d3 e3 f3 g3 h3"),
    "row4": _sq("a4 b4 c4 d4 e4 f4 g4 h4"),
    "diag8": _sq("a1 b2 c3 d4 e5 f6 g7 h8"),
    "diag7": _sq("b1 c2 d3 e4 f5 g6 h7"),
    "diag6": _sq("c1 d2 e3 f4 g5 h6"),
    "diag5": _sq("d1 e2 f3 g4 h5"),
    "diag4": _sq("e1 f2 g3 h4"),
    "triangle": _sq("a1 b1 c1 d1 a2 b2 c2 a3 b3 a4"),
    "cornerblock": _sq("a1 c1 d1 e1 f1 h1 c2 d2 e2 f2"),
}


def stage_of(empties: int) -> int:
    """Stage 0..14 of a position with ``empties`` empty squares (4 moves per stage)."""
    return min(N_STAGES - 1, max(0, (60 - empties) // 4))


@dataclass(frozen=True, eq=False)
class PatternSet:
    """Tables of a pattern set, as arrays the numba kernel reads.

    Attributes
    ----------
    names : tuple of str
        Pattern names, in table order.
    squares : ndarray of int64, shape (instances, 10)
        Each instance's squares in digit order, -1 padded.
    kind : ndarray of int64, shape (instances,)
        The pattern (table) of each instance.
    base : ndarray of int64, shape (patterns,)
        Offset of each pattern in ``canon``.
    autos : tuple
        Per pattern, the permutations of its digit positions that board symmetries
        induce (the identity included).
    canon : ndarray of int64, shape (Σ 3^len,) (computed on first use)
        ``canon[base[t] + idx]``: the feature number (within a stage) of configuration
        ``idx`` of pattern ``t``; configurations that are images of each other under the
        pattern's own symmetries share one.
    n_features : int (computed on first use)
        Features per stage after sharing; a stage's block of weights is
        ``[bias, the TERMS weights, feature 0, feature 1, ...]``.
    """

    names: tuple[str, ...]
    squares: npt.NDArray[np.int64]
    kind: npt.NDArray[np.int64]
    base: npt.NDArray[np.int64]
    autos: tuple[tuple[tuple[int, ...], ...], ...]  # each pattern's own symmetries

    @functools.cached_property
    def _sharing(self) -> tuple[npt.NDArray[np.int64], int]:
        """(canon, n_features), computed on first use: the evaluation kernel needs only
        the small tables, so importing the engine does not pay for this."""
        parts = []
        n_feat = 0
        for n, autos in zip(self.lengths, self.autos, strict=True):
            canon_t, n_t = _shared_indices(n, [list(a) for a in autos])
            parts.append(canon_t + n_feat)
            n_feat += n_t
        return np.concatenate(parts), n_feat

    @property
    def lengths(self) -> tuple[int, ...]:
        """Squares of each pattern."""
        return tuple(len(a[0]) for a in self.autos)

    @property
    def canon(self) -> npt.NDArray[np.int64]:
        return self._sharing[0]

    @property
    def n_features(self) -> int:
        return self._sharing[1]

    @property
    def stage_size(self) -> int:
        """Fitted (shared) weights per stage: bias, terms, features."""
        return N_SCALARS + self.n_features

    @property
    def n_weights(self) -> int:
        return N_STAGES * self.stage_size

    @property
    def kernel_stage_size(self) -> int:
        """Expanded weights per stage: bias, terms, every raw configuration."""
        return N_SCALARS + sum(3 ** n for n in self.lengths)

    def expand(self, shared: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Fitted weights (N_STAGES × stage_size, discs) -> the kernel's int32 table in
        centi-discs (N_STAGES × kernel_stage_size), each configuration holding the
        weight of its class; read-only, as every table the kernels get (see
        :meth:`gameopt.reversi.search.SearchParams.weight_array`)."""
        sh = np.asarray(shared, dtype=np.float64).reshape(N_STAGES, self.stage_size)
        out = np.empty((N_STAGES, self.kernel_stage_size), dtype=np.float64)
        out[:, :N_SCALARS] = sh[:, :N_SCALARS]
        out[:, N_SCALARS:] = sh[:, N_SCALARS + self.canon]
        table = np.rint(100.0 * out).astype(np.int32).ravel()
        table.flags.writeable = False
        return table

    @classmethod
    def build(cls, patterns: dict[str, tuple[int, ...]]) -> PatternSet:
        """Instances and shared configurations of ``patterns`` (see the module notes)."""
        rows: list[list[int]] = []
        kinds: list[int] = []
        bases: list[int] = []
        all_autos: list[tuple[tuple[int, ...], ...]] = []
        total = 0
        for t, (name, base_sq) in enumerate(patterns.items()):
            if len(base_sq) > 10 or len(set(base_sq)) != len(base_sq):
                raise InvalidInputError(f"pattern {name}: need up to 10 distinct squares")
            seen: set[frozenset[int]] = set()
            autos: list[tuple[int, ...]] = []
            for perm in SQUARE_SYMMETRIES:
                img = [int(perm[s]) for s in base_sq]
                if frozenset(img) == frozenset(base_sq):
                    autos.append(tuple(base_sq.index(s) for s in img))
                if frozenset(img) not in seen:
                    seen.add(frozenset(img))
                    rows.append(img + [-1] * (10 - len(img)))
                    kinds.append(t)
            all_autos.append(tuple(autos))
            bases.append(total)
            total += 3 ** len(base_sq)
        return cls(tuple(patterns), np.array(rows, dtype=np.int64),
                   np.array(kinds, dtype=np.int64), np.array(bases, dtype=np.int64),
                   tuple(all_autos))

def _shared_indices(n: int, autos: list[list[int]]) -> tuple[npt.NDArray[np.int64], int]:
    """Feature number of each configuration (0..3^n-1) when images share one (the smaller
    index names the class); and the number of classes."""
    size = 3 ** n
    digits = np.array([(np.arange(size) // 3 ** k) % 3 for k in range(n)])  # (n, size)
    pw = 3 ** np.arange(n)
    smallest = np.arange(size)
    for auto in autos:  # position k of the image holds the digit of position auto[k]
        img = (digits[auto, :] * pw[:, None]).sum(axis=0)
        smallest = np.minimum(smallest, img)
    reps, feature = np.unique(smallest, return_inverse=True)
    return feature.astype(np.int64), len(reps)


DEFAULT_SET = PatternSet.build(PATTERNS)


def reference_indices(board: Board, ps: PatternSet = DEFAULT_SET) -> list[int]:
    """Raw configuration index of each instance, in plain Python (the kernel's reference)."""
    out = []
    for row in ps.squares:
        idx = 0
        for k, s in enumerate(int(x) for x in row if x >= 0):
            d = 1 if board.player >> s & 1 else 2 if board.opponent >> s & 1 else 0
            idx += d * 3 ** k
        out.append(idx)
    return out


def reference_terms(board: Board) -> list[int]:
    """The :data:`TERMS` of ``board`` (P minus O), in plain Python except the stable discs,
    which come from the kernel (itself checked exhaustively against continuations)."""
    from gameopt.reversi._bitboard import stable_discs  # the kernel: see the docstring

    P, O = board.player, board.opponent
    empty = ~(P | O) & ((1 << 64) - 1)
    def count(x: int) -> int:
        return bin(x).count("1")
    def around(x: int) -> int:
        out = 0
        for s in range(64):
            if x >> s & 1:
                r, c = divmod(s, 8)
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8:
                            out |= 1 << (8 * (r + dr) + c + dc)
        return out
    them = Board(O, P, board.side)
    corners = (0, 7, 56, 63)
    x_sq = (9, 14, 49, 54)
    c_sq = ((1, 8), (6, 15), (48, 57), (55, 62))
    x = c = 0
    for k in range(4):
        if empty >> corners[k] & 1:
            x += (P >> x_sq[k] & 1) - (O >> x_sq[k] & 1)
            c += sum((P >> q & 1) - (O >> q & 1) for q in c_sq[k])
    stable = 0
    if any((P | O) >> q & 1 for q in corners):
        stable = (count(int(stable_discs(np.uint64(P), np.uint64(O))))
                  - count(int(stable_discs(np.uint64(O), np.uint64(P)))))
    return [count(board.moves_bitboard()) - count(them.moves_bitboard()),
            count(around(O) & empty) - count(around(P) & empty),
            sum((P >> q & 1) - (O >> q & 1) for q in corners), x, c, stable,
            count(P) - count(O)]


def reference_evaluate(board: Board, weights: npt.NDArray[np.int32],
                       ps: PatternSet = DEFAULT_SET) -> int:
    """The pattern evaluation in plain Python from the *shared* table (N_STAGES ×
    stage_size, centi-discs): the kernel's reference (it reads the expanded table)."""
    off = stage_of(board.empties) * ps.stage_size
    v = int(weights[off])
    for k, t in enumerate(reference_terms(board)):
        v += int(weights[off + 1 + k]) * t
    for kind, idx in zip(ps.kind, reference_indices(board, ps), strict=True):
        v += int(weights[off + N_SCALARS + ps.canon[ps.base[kind] + idx]])
    return v
