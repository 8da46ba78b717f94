"""A residual network over pattern configurations, added to the pattern evaluation.

The pattern evaluation (:mod:`gameopt.reversi.patterns`) is linear: a sum of one weight
per instance's configuration. The network adds what a sum cannot hold, interactions
between the patterns. Each shared configuration (feature) has an *embedding* of
:data:`NET_K` numbers; a position's embedding is its stage's vector plus the sum of its
54 instances' embeddings, and one layer of H rectified units and a linear output turn it
into a value in discs, added to the pattern value:

    ``a = stage_vec[s] + Σ_instances embed[feature]``
    ``value = out_bias[s] + Σ_u out[u] · max(0, bias[u] + layer[u] · a)``

The embedding sum is a sum of table reads like the pattern value itself (NNUE's
accumulator, Nasu 2018, over Buro's features instead of piece-square pairs); the layer
costs H · NET_K multiply-adds at each evaluated position. It is fitted by
:func:`gameopt.reversi.netfit.fit_network` to what the pattern evaluation misses.

The kernel (:mod:`gameopt.reversi._eval`) evaluates it in fixed point: embeddings and
stage vectors times ``2**NET_SE``, the layer times ``2**NET_SW``, its biases times
``2**(NET_SE + NET_SW)``, the output in centi-discs times ``2**NET_SV``, each rounded to
the nearest integer; the output is shifted down (floor) to centi-discs. Bounds on the
parameters (:data:`LIMITS`) keep every table entry in int32 and every sum in int64.
:func:`reference_value` computes the same integers in plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError
from gameopt.reversi._eval import NET_K, NET_SE, NET_SV, NET_SW
from gameopt.reversi.board import Board
from gameopt.reversi.patterns import (
    DEFAULT_SET,
    N_SCALARS,
    N_STAGES,
    PatternSet,
    reference_indices,
    stage_of,
)

__all__ = ["Network", "NET_K", "MAX_HIDDEN", "LIMITS", "reference_value", "section_length"]

#: the most hidden units (with :data:`LIMITS`, the kernel's int64 sums cannot overflow)
MAX_HIDDEN = 64
#: largest magnitude of each parameter array (discs for the outputs)
LIMITS = {"embed": 16.0, "stage": 16.0, "layer": 16.0, "bias": 1000.0, "out": 16.0,
          "out_bias": 64.0}


@dataclass(frozen=True, eq=False)
class Network:
    """A residual network's parameters (float32; see the module notes).

    Attributes
    ----------
    embed : ndarray, shape (n_features, NET_K)
        Per shared configuration of :data:`patterns.DEFAULT_SET`; held at float16
        precision (rounded on construction) and so stored, which halves the weights
        file: a relative rounding of 2**-11, for embeddings below 1 (as fitted ones
        are) under the kernel's own quantum of 2**-NET_SE.
    stage : ndarray, shape (N_STAGES, NET_K)
    layer : ndarray, shape (H, NET_K)
    bias : ndarray, shape (H,)
    out : ndarray, shape (H,)
        Discs per unit of each hidden unit.
    out_bias : ndarray, shape (N_STAGES,)
        Discs.

    Raises
    ------
    InvalidInputError
        A shape that does not fit the pattern set or H, H outside 1..MAX_HIDDEN, a value
        that is not finite or beyond :data:`LIMITS` (named).
    """

    embed: npt.NDArray[np.float32]
    stage: npt.NDArray[np.float32]
    layer: npt.NDArray[np.float32]
    bias: npt.NDArray[np.float32]
    out: npt.NDArray[np.float32]
    out_bias: npt.NDArray[np.float32]

    def __post_init__(self) -> None:
        h = np.shape(self.layer)[0] if np.ndim(self.layer) == 2 else -1
        if not 1 <= h <= MAX_HIDDEN:
            raise InvalidInputError(f"network layer of shape {np.shape(self.layer)}: "
                                    f"expected (H, {NET_K}) with H in 1..{MAX_HIDDEN}")
        shapes = {"embed": (DEFAULT_SET.n_features, NET_K), "stage": (N_STAGES, NET_K),
                  "layer": (h, NET_K), "bias": (h,), "out": (h,), "out_bias": (N_STAGES,)}
        for name, shape in shapes.items():
            a = np.asarray(getattr(self, name))
            if a.shape != shape:
                raise InvalidInputError(f"network {name} of shape {a.shape}: expected {shape}")
            if not np.isfinite(a).all() or np.abs(a).max() > LIMITS[name]:
                raise InvalidInputError(f"network {name}: values must be finite and within "
                                        f"±{LIMITS[name]:g} (largest {np.abs(a).max():g})")
            if name == "embed":  # float16 precision (see the class notes)
                a = a.astype(np.float16)
            object.__setattr__(self, name, np.ascontiguousarray(a, dtype=np.float32))

    @property
    def hidden(self) -> int:
        """H, the hidden units."""
        return int(self.layer.shape[0])

    def arrays(self) -> dict[str, npt.NDArray[np.floating]]:
        """The parameters under their weights-file names (``net_embed`` ...; the
        embeddings as float16, the rest float32)."""
        out = {f"net_{k}": getattr(self, k) for k in _FIELDS}
        out["net_embed"] = self.embed.astype(np.float16)
        return out

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any], where: str) -> Network | None:
        """The network of a weights file's arrays, or None when it has none.

        Raises
        ------
        InvalidInputError
            Some of the arrays missing, or bad (named, with ``where``).
        """
        present = [k for k in _FIELDS if f"net_{k}" in arrays]
        if not present:
            return None
        if len(present) != len(_FIELDS):
            missing = sorted(set(_FIELDS) - set(present))
            raise InvalidInputError(f"{where}: network arrays missing: {', '.join(missing)}")
        for k in _FIELDS:
            if np.asarray(arrays[f"net_{k}"]).dtype.kind not in "iuf":
                raise InvalidInputError(f"{where}: network array net_{k}: "
                                        f"{str(np.asarray(arrays[f'net_{k}']).dtype)[:40]} "
                                        "values, expected numbers")
        try:
            with np.errstate(over="ignore", invalid="ignore"):  # beyond float32: inf, refused
                parts = {k: np.asarray(arrays[f"net_{k}"], dtype=np.float32) for k in _FIELDS}
            return cls(**parts)
        except InvalidInputError as e:
            raise InvalidInputError(f"{where}: {e}") from None

    def quantized(self) -> dict[str, npt.NDArray[np.int64]]:
        """The kernel's integers of each parameter (see the module notes)."""
        def q(a: npt.NDArray[np.float32], scale: float) -> npt.NDArray[np.int64]:
            return np.rint(a.astype(np.float64) * scale).astype(np.int64)

        return {"embed": q(self.embed, 2.0 ** NET_SE), "stage": q(self.stage, 2.0 ** NET_SE),
                "layer": q(self.layer, 2.0 ** NET_SW),
                "bias": q(self.bias, 2.0 ** (NET_SE + NET_SW)),
                "out": q(self.out, 100 * 2.0 ** NET_SV), "out_bias": q(self.out_bias, 100)}

    def kernel_section(self, ps: PatternSet = DEFAULT_SET) -> npt.NDArray[np.int32]:
        """The section of the kernel's table after the pattern stages (layout in
        :mod:`gameopt.reversi._eval`): embeddings per *raw* configuration, as the index
        vectors address them, as int16 two to an int32 entry."""
        q = self.quantized()
        raw = np.zeros((ps.kernel_stage_size, NET_K), dtype=np.int64)
        raw[N_SCALARS:] = q["embed"][ps.canon]
        assert np.abs(raw).max(initial=0) < 2 ** 15  # LIMITS["embed"] · 2**NET_SE
        packed = (raw[:, 1::2] << 16) | (raw[:, 0::2] & 0xFFFF)  # int16 pairs, in int32
        out = np.concatenate([[self.hidden], packed.ravel(), q["stage"].ravel(),
                              q["layer"].ravel(), q["bias"], q["out"],
                              q["out_bias"]]).astype(np.int32)
        assert len(out) == section_length(self.hidden, ps)
        return out

    def output_bounds(self, ps: PatternSet = DEFAULT_SET) -> npt.NDArray[np.int64]:
        """Guaranteed bounds on the kernel's output, per stage: shape (N_STAGES, 2), the
        least and the greatest value in centi-discs over every combination of the
        instances' configurations (interval arithmetic on the kernel's integers: each
        instance's contribution to each unit ranges independently over its pattern's
        configurations, so the bounds hold for every position and are loose). A
        ``SearchParams.net_margin`` of ``max(-lo, hi)`` over the stages makes lazy
        evaluation exact."""
        q = self.quantized()
        emb, lay = q["embed"], q["layer"]
        lo = np.zeros(self.hidden, dtype=np.int64)
        hi = np.zeros(self.hidden, dtype=np.int64)
        ends = [*ps.base[1:], len(ps.canon)]
        for t in range(len(ps.base)):
            c = emb[np.unique(ps.canon[ps.base[t]:ends[t]])] @ lay.T  # (configs, H)
            n = int(np.count_nonzero(ps.kind == t))
            lo += n * c.min(axis=0)
            hi += n * c.max(axis=0)
        out = np.zeros((N_STAGES, 2), dtype=np.int64)
        for s in range(N_STAGES):
            base = q["bias"] + lay @ q["stage"][s]
            r_lo, r_hi = np.maximum(base + lo, 0), np.maximum(base + hi, 0)
            w = q["out"]
            o_lo = int(np.sum(np.where(w >= 0, w * r_lo, w * r_hi)))
            o_hi = int(np.sum(np.where(w >= 0, w * r_hi, w * r_lo)))
            out[s] = [(o_lo >> _SHIFT) + q["out_bias"][s], (o_hi >> _SHIFT) + q["out_bias"][s]]
        return out

    def values(self, features: npt.NDArray[np.integer], stages: npt.NDArray[np.integer]
               ) -> npt.NDArray[np.float64]:
        """The network's output in discs (float) for positions given by their features
        (N, instances; :func:`gameopt.reversi.train.features`) and stages (N,)."""
        a = self.stage[stages].astype(np.float64)
        for i in range(features.shape[1]):
            a += self.embed[features[:, i]]
        hid = np.maximum(a @ self.layer.T.astype(np.float64) + self.bias, 0.0)
        return hid @ self.out.astype(np.float64) + self.out_bias[stages]


_FIELDS = ("embed", "stage", "layer", "bias", "out", "out_bias")
#: the kernel's output shift down to centi-discs
_SHIFT = NET_SE + NET_SW + NET_SV


def section_length(hidden: int, ps: PatternSet = DEFAULT_SET) -> int:
    """Entries of the kernel table's network section for H = ``hidden``."""
    return (1 + ps.kernel_stage_size * NET_K // 2 + (N_STAGES + hidden) * NET_K
            + 2 * hidden + N_STAGES)


def reference_value(board: Board, net: Network, ps: PatternSet = DEFAULT_SET) -> int:
    """The network's output for ``board`` in centi-discs, in plain Python integers (the
    kernel's reference)."""
    q = net.quantized()
    s = stage_of(board.empties)
    a = [int(x) for x in q["stage"][s]]
    for kind, idx in zip(ps.kind, reference_indices(board, ps), strict=True):
        row = q["embed"][ps.canon[ps.base[kind] + idx]]
        a = [x + int(y) for x, y in zip(a, row, strict=True)]
    o = 0
    for u in range(net.hidden):
        t = int(q["bias"][u]) + sum(int(wj) * aj for wj, aj in zip(q["layer"][u], a,
                                                                    strict=True))
        o += int(q["out"][u]) * max(t, 0)
    return (o >> _SHIFT) + int(q["out_bias"][s])
