"""Multi-ProbCut parameters: the cut pairs and their regressions, files and the shipped set.

Buro's Multi-ProbCut predicts the value of a deep search (depth ``d``) from a shallow one
(depth ``d'``) of the same position by a linear regression ``v_d = a·v_d' + b + e`` with a
normal error of deviation ``sigma``, fitted per game stage on the engine's own searches.
A node of depth ``d`` is then cut when the shallow search puts the deep value beyond the
window with confidence ``t`` (see :func:`gameopt.reversi._midgame.search_mpc`).

An :class:`MpcTable` holds, per number of empties (0..60) and depth ``d``
(0..:data:`MAX_DEPTH`), up to :data:`TRIES` cut tries in the order the search makes them,
each a shallow depth (0: no such try), ``a``, ``b`` and ``sigma`` (centi-discs).
:func:`shallow_depth` gives the one-try pairs: ``d' = 2·⌊d/4⌋ + (d mod 2)``
(d = 3..16 → 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8: the same parity as ``d``, since
Othello values swing with the side to move at the horizon, as in Edax's choice).
:func:`shallow_depths` adds, as Buro's Multi-ProbCut allows, a cheaper first try two plies
shallower from depth 10 on (10 → 2 then 4, 15 → 5 then 7: the shape of Zebra's pairs).
The table is fitted by ``gameopt reversi train mpc`` (:func:`gameopt.reversi.mpcfit.fit_mpc`)
and stored as ``.npz`` (``table``: float64, 61 × 17 × 4 with one try, format
``gameopt-mpc-1``; 61 × 17 × 8 with two, format ``gameopt-mpc-2``; and a JSON ``meta``);
the engine ships ``data/mpc.npz``.

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
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.files import atomic_write_bytes
from gameopt.errors import InvalidInputError
from gameopt.reversi._params import MPC_FIELDS, MPC_MAXD, MPC_TRIES, MPC_TRY
from gameopt.reversi.weights import load_npz

__all__ = ["MpcTable", "MPC_FORMAT", "MPC_FORMAT_1", "MAX_DEPTH", "TRIES", "SHIPPED_MPC",
           "shallow_depth", "shallow_depths", "read_mpc", "write_mpc", "shipped_mpc"]

#: the format of a table with two tries in some row (61 × 17 × 8)
MPC_FORMAT = "gameopt-mpc-2"
#: the format of a table with one try per row (61 × 17 × 4), read and written as before
MPC_FORMAT_1 = "gameopt-mpc-1"
#: deepest node depth a table row can describe
MAX_DEPTH = MPC_MAXD
#: cut tries a row can hold
TRIES = MPC_TRIES
#: the fitted table the engine uses by default
SHIPPED_MPC = Path(__file__).resolve().parent / "data" / "mpc.npz"
_SHAPE = (61, MAX_DEPTH + 1, MPC_FIELDS)
_SHAPE_1 = (61, MAX_DEPTH + 1, MPC_TRY)


def shallow_depth(d: int) -> int:
    """The shallow depth paired with depth ``d`` (0 below 3: no cut).

    >>> [shallow_depth(d) for d in range(2, 11)]
    [0, 1, 2, 3, 2, 3, 4, 5, 4]
    """
    if d < 3:
        return 0
    return 2 * (d // 4) + (d & 1)


def shallow_depths(d: int, tries: int = 1, first_from: int = 10,
                   pairs: Mapping[int, int] | None = None) -> tuple[int, ...]:
    """The shallow depths of the cut tries at depth ``d``, in the order they are tried:
    :func:`shallow_depth` (or ``pairs[d]`` where ``pairs`` names another for ``d``) alone,
    or with ``tries`` = 2 from depth ``first_from`` on, a try two plies shallower before
    it (the same parity).

    >>> shallow_depths(9, 2), shallow_depths(10, 2), shallow_depths(15, 2)
    ((5,), (2, 4), (5, 7))
    >>> shallow_depths(9, pairs={9: 3}), shallow_depths(10, pairs={9: 3})
    ((3,), (4,))
    """
    ds = pairs[d] if pairs is not None and d in pairs else shallow_depth(d)
    if ds == 0:
        return ()
    if tries >= 2 and d >= first_from and ds > 2:
        return (ds - 2, ds)
    return (ds,)


@dataclass(frozen=True, eq=False)
class MpcTable:
    """Cut tries per (empties, depth): ``table[e, d, 4 i: 4 i + 4] = (d', a, b, sigma)``
    of try ``i`` (0 first); d' = 0: no such try. A one-try table (61 × 17 × 4) is widened
    with empty second tries.

    Raises
    ------
    InvalidInputError
        A table of another shape, a non-finite value, a slope <= 0 or a negative sigma in
        a try that cuts.
    """

    table: npt.NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        t = np.asarray(self.table, dtype=np.float64)
        if t.shape == _SHAPE_1:
            t = np.concatenate([t, np.zeros(_SHAPE_1)], axis=2)
        if t.shape != _SHAPE:
            raise InvalidInputError(f"MPC table of shape {t.shape}, expected {_SHAPE_1} or "
                                    f"{_SHAPE}")
        if not np.isfinite(t).all():
            raise InvalidInputError("MPC table: values must be finite")
        tries = t.reshape(61, MAX_DEPTH + 1, TRIES, MPC_TRY)
        used = tries[..., 0] > 0
        if (tries[..., 1][used] <= 0).any() or (tries[..., 3][used] < 0).any():
            raise InvalidInputError("MPC table: slopes must be > 0 and sigmas >= 0")
        object.__setattr__(self, "table", t)

    @property
    def tries(self) -> int:
        """The most tries any row holds (at least 1)."""
        used = self.table.reshape(61, MAX_DEPTH + 1, TRIES, MPC_TRY)[..., 0] > 0
        return max(1, int(used.sum(axis=2).max()))

    def kernel_block(self) -> npt.NDArray[np.int64]:
        """The table as the search kernel reads it (``par[MPC_BASE:MPC_END]``): per try,
        shallow depth, slope in 1/1024, intercept and sigma in centi-discs, rounded."""
        t = self.table.reshape(61, MAX_DEPTH + 1, TRIES, MPC_TRY)
        out = np.zeros(t.shape, dtype=np.int64)
        out[..., 0] = np.round(t[..., 0])
        out[..., 1] = np.maximum(1, np.round(t[..., 1] * 1024))
        out[..., 2] = np.round(t[..., 2])
        out[..., 3] = np.round(t[..., 3])
        out[t[..., 0] <= 0] = 0
        return out.ravel()

    def rows(self) -> list[tuple[int, int, int, float, float, float]]:
        """(empties, d, d', a, b, sigma) of every try that cuts, in the order tried."""
        out = []
        t = self.table.reshape(61, MAX_DEPTH + 1, TRIES, MPC_TRY)
        for e in range(61):
            for d in range(MAX_DEPTH + 1):
                for ds, a, b, s in t[e, d]:
                    if ds > 0:
                        out.append((e, d, int(ds), float(a), float(b), float(s)))
        return out


def write_mpc(path: str | Path, table: MpcTable) -> None:
    """Save a table (atomic): a one-try table in the first format, as before, so that
    older readers take it; one with second tries in the second."""
    one = not table.table[..., MPC_TRY:].any()
    fmt = MPC_FORMAT_1 if one else MPC_FORMAT
    buf = io.BytesIO()
    np.savez_compressed(buf, table=table.table[..., :MPC_TRY] if one else table.table,
                        meta=np.array(json.dumps({**table.meta, "format": fmt})))
    atomic_write_bytes(path, buf.getvalue())


def read_mpc(path: str | Path) -> MpcTable:
    """Load a table of either format; checks the format and the shape.

    Raises
    ------
    InvalidInputError
        A missing or unreadable file, another format, a bad table.
    """
    arrays, meta = load_npz(path, (MPC_FORMAT, MPC_FORMAT_1), "Multi-ProbCut table")
    if "table" not in arrays:
        raise InvalidInputError(f"{path}: no MPC table")
    shape = _SHAPE_1 if meta["format"] == MPC_FORMAT_1 else _SHAPE
    if arrays["table"].dtype.kind not in "iuf":
        raise InvalidInputError(f"{path}: MPC table of {str(arrays['table'].dtype)[:40]} "
                                "values, expected numbers")
    if arrays["table"].shape != shape:
        raise InvalidInputError(f"{path}: MPC table of shape {arrays['table'].shape}, "
                                f"expected {shape} in format {meta['format']}")
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
