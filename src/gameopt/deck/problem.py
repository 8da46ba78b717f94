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

__all__ = ["DeckProblem", "deck_score"]


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

    def __post_init__(self) -> None:
        R = np.ascontiguousarray(self.R, dtype=np.float32)
        if R.ndim != 2 or R.shape[0] != R.shape[1]:
            raise InvalidInputError(f"scores: matrix of shape {R.shape} is not square")
        n = R.shape[0]
        if not np.all(np.isfinite(R)):
            i, j = map(int, np.argwhere(~np.isfinite(R))[0])
            raise InvalidInputError(f"scores: R[{i}, {j}] is {R[i, j]}")
        if not np.allclose(R, R.T, atol=1e-5):
            i, j = map(int, np.argwhere(~np.isclose(R, R.T, atol=1e-5))[0])
            raise InvalidInputError(f"scores: not symmetric at row {i}, column {j} "
                                    f"({R[i, j]} vs {R[j, i]})")
        R = (R + R.T) * np.float32(0.5)  # exactly symmetric: kernels read rows for columns
        np.fill_diagonal(R, 0.0)
        object.__setattr__(self, "R", R)
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
        if self.cost is not None and (self.cost < 0).any():
            i = int(np.argmax(self.cost < 0))
            raise InvalidInputError(f"cost: piece {i} has negative cost {self.cost[i]}")
        if self.leader_scores is not None:
            ls = np.ascontiguousarray(self.leader_scores, dtype=np.float32)
            if ls.shape != (n,) or not np.all(np.isfinite(ls)):
                raise InvalidInputError("leader scores: need n finite values")
            object.__setattr__(self, "leader_scores", ls)
        if len(set(self.must)) != len(self.must) or any(not 0 <= m < n for m in self.must):
            raise InvalidInputError(f"rules: must-include {self.must} has repeats or "
                                    f"indices outside 0..{n - 1}")
        if len(self.must) > self.size:
            raise InvalidInputError(f"rules: {len(self.must)} must-include pieces for a deck "
                                    f"of {self.size}")

    @property
    def n(self) -> int:
        return int(self.R.shape[0])

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
