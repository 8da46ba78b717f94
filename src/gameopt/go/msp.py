"""The maximum-strings problem MSP(m, n): shared definitions.

A set ``D`` of points of the m×n grid *dominates* it when every point is in ``D`` or next
to a point of ``D``. Leave the points of ``D`` empty and colour every other point like a
checkerboard (Miyashiro, Yano, Muramatsu 2008, Theorem 1: black where i+j is odd, white
where it is even, 1-based): each stone is then a string of its own, and it has a liberty
exactly because its point is dominated. So MSP(m, n) = m·n − γ(G_{m,n}).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError

__all__ = ["MspResult", "dominated", "is_dominating", "msp_position", "check_size",
           "formula_gamma", "KNOWN_GAMMA"]

EMPTY, BLACK, WHITE = 0, 1, 2

#: γ(G_{n,n}) for n = 1..12 (issue 7; Alanko et al. 2011).
KNOWN_GAMMA = {1: 1, 2: 2, 3: 3, 4: 4, 5: 7, 6: 10, 7: 12, 8: 16, 9: 20, 10: 24, 11: 29,
               12: 35}


@dataclass(frozen=True)
class MspResult:
    """MSP(m, n) as one method found it.

    Attributes
    ----------
    m, n : int
        Board size (rows, columns).
    gamma : int
        Size of the dominating set found (proven minimum when ``proven``).
    msp : int
        m·n − gamma: strings on the board.
    proven : bool
        True when ``gamma`` is proven to be the domination number.
    method : str
        ``"ip-basic"``, ``"ip-improved"``, ``"dp"``, ``"construct"``...
    seconds : float
        Time the method took on ``clock`` (kernel compile and OR-Tools load excluded).
    empty : ndarray of bool, shape (m, n), or None
        The dominating set (empty points of the optimal board), when the method gives one.
    bound : int or None
        Best proven lower bound on γ (for unproven runs).
    stats : dict
        Method-specific figures.
    clock : str
        The clock of ``seconds``: ``"wall"`` (CP-SAT limits wall time, and the DP runs
        on several threads), or the clock a limit named for the DP or the construction.

    An :class:`~gameopt.core.Outcome`.
    """

    m: int
    n: int
    gamma: int
    msp: int
    proven: bool
    method: str
    seconds: float
    empty: npt.NDArray[np.bool_] | None = None
    bound: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    clock: str = "wall"


def check_size(m: int, n: int, *, where: str = "board size", limit: int = 10_000) -> None:
    """Raise :class:`InvalidInputError` for sizes outside 1..limit."""
    for name, v in (("rows", m), ("columns", n)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or not 1 <= v <= limit:
            raise InvalidInputError(f"{where}: {name} must be an integer in 1..{limit}, "
                                    f"got {v!r}")


def dominated(empty: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Points in the set or next to it (vectorised; O(m·n))."""
    d = empty.copy()
    d[1:, :] |= empty[:-1, :]
    d[:-1, :] |= empty[1:, :]
    d[:, 1:] |= empty[:, :-1]
    d[:, :-1] |= empty[:, 1:]
    return d


def is_dominating(empty: npt.NDArray[np.bool_]) -> bool:
    """True when every point is in ``empty`` or next to one of its points."""
    return bool(dominated(np.asarray(empty, dtype=bool)).all())


def msp_position(empty: npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
    """The checkerboard position of a dominating set: 0 empty, 1 black, 2 white.

    Black where i+j is odd and white where it is even (1-based, as Miyashiro, Yano and
    Muramatsu; the same parity 0-based).
    """
    e = np.asarray(empty, dtype=bool)
    i, j = np.indices(e.shape)
    board = np.where((i + j) % 2 == 1, BLACK, WHITE).astype(np.int8)
    board[e] = EMPTY
    return board


def formula_gamma(m: int, n: int) -> int | None:
    """γ(G_{m,n}) = ⌊(m+2)(n+2)/5⌋ − 4 for 16 ≤ min(m, n) (Gonçalves et al. 2011); None
    below 16, where the formula does not hold."""
    a, b = sorted((m, n))
    if a < 16:
        return None
    return (a + 2) * (b + 2) // 5 - 4
