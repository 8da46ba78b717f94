"""The deck-building problem in array form: what every builder and the verifier take.

Pieces are indexed 0..n-1 (the owned pieces of a collection, or an MDP instance's
elements). A deck is a set of ``size`` distinct indices that maximises the sum over all
its pairs of ``R[i, j]`` (plus, when a leader is fixed, the leader's own row of scores),
subject to the rules. With only the size rule this is the Maximum Diversity Problem.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError

__all__ = ["MAX_COST_CAP", "MAX_SCORE", "DeckProblem", "check_scores", "deck_score"]

#: Scores of this magnitude or more are refused: float32 keeps 24 bits, so beside one
#: of them every ordinary score is rounding noise; and below it no deck sum can reach
#: float32's largest value (3.4e38 needs over 10¹¹ pieces in a deck), so a matrix of
#: 3e38 is refused here rather than printing "score inf". To keep two pieces apart use
#: ``DeckProblem(forbidden_pairs=...)``, not a huge score.
MAX_SCORE = 1e15
#: The largest cost cap (costs are int32; the kernels' "no cap" is 2⁶²).
MAX_COST_CAP = 2**31 - 1
#: Entries checked at a time by :func:`check_scores` (bounds its float64 temporaries).
CHECK_BLOCK = 1 << 20


def check_scores(values: object, what: str, shape: tuple[int, ...] | None = None
                 ) -> npt.NDArray[np.float32]:
    """``values`` as a float32 array of finite scores below :data:`MAX_SCORE`.

    Raises
    ------
    InvalidInputError
        Naming ``what`` (a field, a file and field) and the first bad entry: not
        numbers (strings, objects), a wrong shape, NaN or ±inf, or ``|x| ≥ MAX_SCORE``.
    """
    A = np.asarray(values)
    if A.dtype.kind not in "biuf":
        raise InvalidInputError(f"{what}: holds {A.dtype} values, not numbers")
    if shape is not None and A.shape != shape:
        raise InvalidInputError(f"{what}: matrix of shape {A.shape}, expected {shape}")
    out = np.empty(A.shape, dtype=np.float32)
    flat, dst = A.reshape(-1), out.reshape(-1)
    for lo in range(0, flat.size, CHECK_BLOCK):  # bounded float64 temporaries
        block = flat[lo:lo + CHECK_BLOCK].astype(np.float64)
        bad = ~np.isfinite(block) | (np.abs(block) >= MAX_SCORE)
        if bad.any():
            first = int(np.argmax(bad))
            at = tuple(int(t) for t in np.unravel_index(lo + first, A.shape))
            where = f"row {at[0]}, column {at[1]}" if len(at) == 2 else f"entry {at[0]}"
            raise InvalidInputError(f"{what}: {where} is {block[first]:g}; scores must be "
                                    f"finite and below {MAX_SCORE:g} in size (to keep two "
                                    "pieces apart, forbid the pair)")
        dst[lo:lo + CHECK_BLOCK] = block
    return out


@dataclass(frozen=True, eq=False)
class DeckProblem:
    """Scores and rules over n candidate pieces.

    Attributes
    ----------
    R : ndarray of float32, shape (n, n)
        Symmetric pair scores (within 1e-5; stored as ``(R + Rᵀ)/2``), zero diagonal.
    size : int
        Pieces in the deck (15 others when a leader is fixed, 16 in all).
    cost : ndarray of int32, shape (n,), optional
        Cost of each piece; with ``cost_cap``, Σ cost ≤ cost_cap.
    cost_cap : int or None
    character : ndarray of int32, shape (n,), optional
        Character id (0, 1, ...) of each piece (evolved forms share one); at most
        ``char_limit`` pieces per character.
    char_limit : int or ndarray of int32, shape (max character + 1,)
        One limit for every character, or the limit ``L_c`` of each character id.
    attribute : ndarray of int8, shape (n,), optional
        1 when the piece has the deck attribute asked for (e.g. God); at least
        ``attribute_min`` of them.
    attribute_min : int
    must : tuple of int
        Indices that must be in the deck.
    leader_scores : ndarray of float32, shape (n,), optional
        The fixed leader's score with each piece, added once per piece in the deck.
    names : tuple of str, optional
        For messages and output.
    forbidden_pairs : tuple of (int, int)
        Pairs of indices that may not both be in a deck: a hard rule that every method
        keeps and :mod:`gameopt.deck.verify` checks. Stored as ``(i, j)`` with ``i < j``,
        sorted. Inside ``R`` such a pair's score is replaced by ``-forbid_penalty``, a
        penalty larger than the score range of every deck (so every search steers clear
        of it and every bound stays valid); a deck that keeps the rules never holds one,
        so its score is unaffected. Prefer this to a huge negative score.

    Raises
    ------
    InvalidInputError
        Not a square matrix, not symmetric, a score that is not finite or is at least
        :data:`MAX_SCORE` in size, a bad rule.
    """

    R: npt.NDArray[np.float32]
    size: int
    cost: npt.NDArray[np.int32] | None = None
    cost_cap: int | None = None
    character: npt.NDArray[np.int32] | None = None
    char_limit: int | npt.NDArray[np.int32] = 10**9
    attribute: npt.NDArray[np.int8] | None = None
    attribute_min: int = 0
    must: tuple[int, ...] = ()
    leader_scores: npt.NDArray[np.float32] | None = None
    names: tuple[str, ...] = field(default=())
    forbidden_pairs: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        R = np.asarray(self.R)
        if R.ndim != 2 or R.shape[0] != R.shape[1]:
            raise InvalidInputError(f"scores: matrix of shape {R.shape} is not square")
        n = R.shape[0]
        pairs = self._pairs(n)
        R = check_scores(R, "scores: R").copy()
        for i, j in pairs:  # the penalty of an earlier problem (dataclasses.replace)
            R[i, j] = R[j, i] = 0.0
        if not np.allclose(R, R.T, atol=1e-5):
            i, j = map(int, np.argwhere(~np.isclose(R, R.T, atol=1e-5))[0])
            raise InvalidInputError(f"scores: not symmetric at row {i}, column {j} "
                                    f"({R[i, j]} vs {R[j, i]})")
        R = (R + R.T) * np.float32(0.5)  # exactly symmetric: kernels read rows for columns
        np.fill_diagonal(R, 0.0)
        if not 1 <= self.size <= n:
            raise InvalidInputError(f"rules: deck size {self.size} with {n} pieces")
        for name, dtype in (("cost", np.int32), ("character", np.int32), ("attribute", np.int8)):
            arr = getattr(self, name)
            if arr is not None:
                a = np.ascontiguousarray(arr, dtype=dtype)
                if a.shape != (n,):
                    raise InvalidInputError(f"{name}: {a.shape[0]} values for {n} pieces")
                object.__setattr__(self, name, a)
        if self.character is not None and (self.character < 0).any():
            i = int(np.argmax(self.character < 0))
            raise InvalidInputError(f"character: piece {i} has negative id {self.character[i]}")
        if not isinstance(self.char_limit, int | np.integer):
            lim = np.ascontiguousarray(self.char_limit, dtype=np.int32)
            top = -1 if self.character is None else int(self.character.max(initial=-1))
            if lim.ndim != 1 or lim.shape[0] <= top:
                raise InvalidInputError(f"char_limit: {lim.shape} limits for character ids "
                                        f"0..{top}")
            if (lim < 0).any():
                c = int(np.argmax(lim < 0))
                raise InvalidInputError(f"char_limit: character {c} has limit {lim[c]}")
            object.__setattr__(self, "char_limit", lim)
        if self.cost_cap is not None and not (
                isinstance(self.cost_cap, int | np.integer)
                and 0 <= self.cost_cap <= MAX_COST_CAP):
            raise InvalidInputError(f"rules: cost cap {self.cost_cap!r}: expected a whole "
                                    f"number 0..{MAX_COST_CAP}")
        if self.cost is not None and (self.cost < 0).any():
            i = int(np.argmax(self.cost < 0))
            raise InvalidInputError(f"cost: piece {i} has negative cost {self.cost[i]}")
        l_max = 0.0
        if self.leader_scores is not None:
            ls = check_scores(self.leader_scores, "leader scores", (n,))
            object.__setattr__(self, "leader_scores", ls)
            l_max = float(np.abs(ls).max(initial=0.0))
        k = self.size
        r_max = float(np.abs(R).max(initial=0.0))
        reach = k * (k - 1) / 2 * r_max + k * l_max  # the most |score| of any deck
        # A forbidden pair costs more than any two decks' scores differ by
        penalty = 1.0 + 1.01 * 2 * reach
        for i, j in pairs:
            R[i, j] = R[j, i] = -penalty
        object.__setattr__(self, "R", R)
        object.__setattr__(self, "forbidden_pairs", pairs)
        object.__setattr__(self, "forbid_penalty", penalty if pairs else 0.0)
        if len(set(self.must)) != len(self.must) or any(not 0 <= m < n for m in self.must):
            raise InvalidInputError(f"rules: must-include {self.must} has repeats or "
                                    f"indices outside 0..{n - 1}")
        if len(self.must) > self.size:
            raise InvalidInputError(f"rules: {len(self.must)} must-include pieces for a deck "
                                    f"of {self.size}")
        must = set(self.must)
        for i, j in self.forbidden_pairs:
            if i in must and j in must:
                raise InvalidInputError(f"rules: must-include pieces {i} and {j} are a "
                                        "forbidden pair")

    def _pairs(self, n: int) -> tuple[tuple[int, int], ...]:
        """The forbidden pairs checked and normalised: ``(i, j)``, ``i < j``, sorted."""
        out = set()
        for pair in self.forbidden_pairs:
            try:
                i, j = (int(v) for v in pair)
            except (TypeError, ValueError):
                raise InvalidInputError(f"forbidden_pairs: {pair!r} is not a pair of "
                                        "indices") from None
            if not (0 <= i < n and 0 <= j < n) or i == j:
                raise InvalidInputError(f"forbidden_pairs: ({i}, {j}) needs two different "
                                        f"indices in 0..{n - 1}")
            out.add((min(i, j), max(i, j)))
        return tuple(sorted(out))

    @property
    def n(self) -> int:
        return int(self.R.shape[0])

    #: The score given to a forbidden pair in ``R`` is minus this (0 without pairs).
    forbid_penalty: float = field(init=False, repr=False, default=0.0)

    @functools.cached_property
    def score_scale(self) -> float:
        """The size of a deck's score, for tolerances (at least 1).

        ``size·(size-1)/2`` times the 99th percentile of ``|R|`` (off the diagonal, on a
        fixed sample of at most 2¹⁶ entries) plus ``size`` times that of the leader
        scores. One huge entry (a blocked pair) does not change it, so tolerances made
        from it stay fine-grained; ``max |R|`` would not.
        """
        n, k = self.n, self.size
        at = np.arange(0, n * n, max(1, n * n // 65536) | 1)  # odd step: rows differ
        at = at[at % (n + 1) != 0]  # off the diagonal
        vals = np.abs(self.R.ravel()[at])
        q = float(np.quantile(vals, 0.99)) if len(vals) else 0.0
        lq = (0.0 if self.leader_scores is None
              else float(np.quantile(np.abs(self.leader_scores), 0.99)))
        return max(1.0, k * (k - 1) / 2 * q + k * lq)

    @functools.cached_property
    def r_range(self) -> tuple[float, float]:
        """``(min R, max R)`` over the whole matrix (diagonal zeros included)."""
        return float(self.R.min()), float(self.R.max())

    def char_limits(self) -> npt.NDArray[np.int64]:
        """The limit of each character id 0..max(character) (empty without characters)."""
        if self.character is None:
            return np.zeros(0, dtype=np.int64)
        k = int(self.character.max(initial=-1)) + 1
        if isinstance(self.char_limit, np.ndarray):
            return self.char_limit[:k].astype(np.int64)
        return np.full(k, min(int(self.char_limit), 2**62), dtype=np.int64)


def deck_score(problem: DeckProblem, deck: npt.ArrayLike) -> float:
    """Σ over pairs of the deck of R, plus the leader's scores (float64; O(size²))."""
    d = np.asarray(deck, dtype=np.int64)
    sub = problem.R[np.ix_(d, d)].astype(np.float64)
    s = float(sub.sum() / 2.0)
    if problem.leader_scores is not None:
        s += float(problem.leader_scores[d].astype(np.float64).sum())
    return s
