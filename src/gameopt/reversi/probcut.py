"""Multi-ProbCut parameters: the cut pairs and their regressions, files and the shipped set.

Buro's Multi-ProbCut predicts the value of a deep search (depth ``d``) from a shallow one
(depth ``d'``) of the same position by a linear regression ``v_d = a·v_d' + b + e`` with a
normal error of deviation ``sigma``, fitted per game stage on the engine's own searches.
A node of depth ``d`` is then cut when the shallow search puts the deep value beyond the
window with confidence ``t`` (see :func:`gameopt.reversi._midgame.search_mpc`).

An :class:`MpcTable` holds, per number of empties (0..60) and depth ``d``
(0..:data:`MAX_DEPTH`), the shallow depth (0: no cut there), ``a``, ``b`` and ``sigma``
(centi-discs). :func:`shallow_depth` gives the pairs: ``d' = 2·⌊d/4⌋ + (d mod 2)``
(d = 3..16 → 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8: the same parity as ``d``, since
Othello values swing with the side to move at the horizon, as in Edax's choice).
The table is fitted by ``gameopt reversi train mpc`` (:func:`gameopt.reversi.train.fit_mpc`)
and stored as ``.npz`` (``table``: float64, 61 × 17 × 4, and a JSON ``meta``, format
``gameopt-mpc-1``); the engine ships ``data/mpc.npz``.

References
----------
M. Buro, "ProbCut: An Effective Selective Extension of the Alpha-Beta Algorithm", ICCA
Journal 18(2), 1995; M. Buro, "Experiments with Multi-ProbCut and a New High-Quality
Evaluation Function for Othello", NECI technical report, 1997.
"""

from __future__ import annotations

import functools
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.files import atomic_write_bytes
from gameopt.errors import InvalidInputError
from gameopt.reversi._params import MPC_FIELDS, MPC_MAXD
from gameopt.reversi.weights import load_npz

__all__ = ["MpcTable", "MPC_FORMAT", "MAX_DEPTH", "SHIPPED_MPC", "shallow_depth",
           "read_mpc", "write_mpc", "shipped_mpc"]

MPC_FORMAT = "gameopt-mpc-1"
#: deepest node depth a table row can describe
MAX_DEPTH = MPC_MAXD
#: the fitted table the engine uses by default
SHIPPED_MPC = Path(__file__).resolve().parent / "data" / "mpc.npz"
_SHAPE = (61, MAX_DEPTH + 1, MPC_FIELDS)


def shallow_depth(d: int) -> int:
    """The shallow depth paired with depth ``d`` (0 below 3: no cut).

    >>> [shallow_depth(d) for d in range(2, 11)]
    [0, 1, 2, 3, 2, 3, 4, 5, 4]
    """
    if d < 3:
        return 0
    return 2 * (d // 4) + (d & 1)


@dataclass(frozen=True, eq=False)
class MpcTable:
    """Regressions per (empties, depth): ``table[e, d] = (d', a, b, sigma)``; d' = 0: none.

    Raises
    ------
    InvalidInputError
        A table of another shape, a non-finite value, a slope <= 0 or a negative sigma in
        a row that cuts.
    """

    table: npt.NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        t = np.asarray(self.table, dtype=np.float64)
        if t.shape != _SHAPE:
            raise InvalidInputError(f"MPC table of shape {t.shape}, expected {_SHAPE}")
        if not np.isfinite(t).all():
            raise InvalidInputError("MPC table: values must be finite")
        used = t[..., 0] > 0
        if (t[..., 1][used] <= 0).any() or (t[..., 3][used] < 0).any():
            raise InvalidInputError("MPC table: slopes must be > 0 and sigmas >= 0")
        object.__setattr__(self, "table", t)

    def kernel_block(self) -> npt.NDArray[np.int64]:
        """The table as the search kernel reads it (``par[MPC_BASE:MPC_END]``): shallow
        depth, slope in 1/1024, intercept and sigma in centi-discs, rounded."""
        t = self.table
        out = np.zeros(_SHAPE, dtype=np.int64)
        out[..., 0] = np.round(t[..., 0])
        out[..., 1] = np.maximum(1, np.round(t[..., 1] * 1024))
        out[..., 2] = np.round(t[..., 2])
        out[..., 3] = np.round(t[..., 3])
        out[t[..., 0] <= 0] = 0
        return out.ravel()

    def rows(self) -> list[tuple[int, int, int, float, float, float]]:
        """(empties, d, d', a, b, sigma) of every row that cuts."""
        out = []
        for e in range(_SHAPE[0]):
            for d in range(_SHAPE[1]):
                ds, a, b, s = self.table[e, d]
                if ds > 0:
                    out.append((e, d, int(ds), float(a), float(b), float(s)))
        return out


def write_mpc(path: str | Path, table: MpcTable) -> None:
    """Save a table (atomic)."""
    buf = io.BytesIO()
    np.savez_compressed(buf, table=table.table,
                        meta=np.array(json.dumps({"format": MPC_FORMAT, **table.meta})))
    atomic_write_bytes(path, buf.getvalue())


def read_mpc(path: str | Path) -> MpcTable:
    """Load a table; checks the format and the shape.

    Raises
    ------
    InvalidInputError
        A missing or unreadable file, another format, a bad table.
    """
    arrays, meta = load_npz(path, MPC_FORMAT)
    if "table" not in arrays:
        raise InvalidInputError(f"{path}: no MPC table")
    try:
        return MpcTable(arrays["table"], meta)
    except InvalidInputError as e:
        raise InvalidInputError(f"{path}: {e}") from None


@functools.lru_cache(maxsize=1)
def shipped_mpc() -> MpcTable | None:
    """The shipped table, or None when the package has none (loaded once per process)."""
    if not SHIPPED_MPC.is_file():
        return None
    return read_mpc(SHIPPED_MPC)
