"""Pattern-evaluation weights files, and the weights shipped with the package.

Format (``.npz``): ``weights`` (float32, N_STAGES × stage_size, discs: per stage the
bias, the weights of :data:`patterns.TERMS`, then one per shared configuration) and
``meta``, a JSON string: format ``gameopt-patterns-2``, the terms, the pattern set's names
and squares, and training facts. Reading checks the format, the terms, the pattern set
and the shape (a file of an earlier set whose patterns come first in :data:`PATTERNS` is
padded: see :func:`read_weights`). A file may also carry a residual network
(:class:`gameopt.reversi.network.Network`: arrays ``net_embed``, ``net_stage``,
``net_layer``, ``net_bias``, ``net_out``, ``net_out_bias``: float32, the embeddings
float16; meta ``network`` its size and training facts), which the evaluation adds to the
pattern value (:func:`read_network`, :func:`kernel_weights`). ``train fit --start`` and
``train blend`` read the pattern weights only: the files they write carry no network
(a network is fitted to the patterns under it).

The engine's default evaluation is the shipped file ``data/weights.npz``, made by the
commands in the README from nothing (self-play, labels, least squares, blends).
"""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core.files import atomic_write_bytes, read_npz
from gameopt.errors import InvalidInputError
from gameopt.reversi._eval import without_network
from gameopt.reversi.network import MAX_HIDDEN, Network, section_length
from gameopt.reversi.patterns import DEFAULT_SET, N_STAGES, PATTERNS, TERMS, PatternSet

__all__ = ["WEIGHTS_FORMAT", "SHIPPED", "write_weights", "read_weights", "read_network",
           "load_npz", "kernel_weights", "shipped_kernel_weights", "check_kernel_table",
           "pattern_table"]

WEIGHTS_FORMAT = "gameopt-patterns-2"
#: the trained weights the engine uses by default
SHIPPED = Path(__file__).resolve().parent / "data" / "weights.npz"


def load_npz(path: str | Path, fmt: str | tuple[str, ...], what: str | None = None
             ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Arrays and JSON meta of an ``.npz`` file written by gameopt, checked to be ``fmt``
    (or one of them); read by :func:`gameopt.core.read_npz` (bounded, no pickles).
    ``what`` names the file in errors (default: the format's name).

    Raises
    ------
    InvalidInputError
        As :func:`~gameopt.core.read_npz`, or a file whose ``meta`` is missing, is not a
        JSON object, or names another format (one line).
    """
    p = Path(path)
    fmts = (fmt,) if isinstance(fmt, str) else fmt
    what = what or f"{fmts[0]} file"
    arrays = read_npz(p, what)
    raw = arrays.pop("meta", None)
    if raw is None or raw.shape != () or raw.dtype.kind != "U":
        raise InvalidInputError(f"{what} {p}: meta: missing or not a JSON text")
    try:
        meta = json.loads(str(raw))
    except (ValueError, RecursionError):
        meta = None
    if not isinstance(meta, dict):
        raise InvalidInputError(f"{what} {p}: meta: not a JSON object")
    if meta.get("format") not in fmts:
        raise InvalidInputError(f"{p}: format {repr(meta.get('format'))[:40]}, expected "
                                f"{' or '.join(fmts)}")
    return arrays, meta


def write_weights(path: str | Path, weights: npt.NDArray[np.float32],
                  info: dict[str, Any] | None = None, network: Network | None = None
                  ) -> None:
    """Save fitted weights with the pattern set they belong to, and a residual network
    if given (atomic)."""
    meta = {"format": WEIGHTS_FORMAT, "stages": N_STAGES, "terms": list(TERMS),
            "patterns": {k: list(v) for k, v in PATTERNS.items()}, **(info or {})}
    if network is not None:
        meta["network"] = {"k": int(network.embed.shape[1]), "hidden": network.hidden,
                           **meta.get("network", {})}
    arrays: dict[str, Any] = {"weights": np.asarray(weights, dtype=np.float32),
                              "meta": np.array(json.dumps(meta))}
    if network is not None:
        arrays.update(network.arrays())
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    atomic_write_bytes(path, buf.getvalue())


def read_weights(path: str | Path) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
    """Load weights; checks the format, the pattern set and the shape.

    Weights fitted for an earlier pattern set whose patterns are the first ones of
    :data:`PATTERNS`, in the same order (the 11-pattern set before the triangle and the
    corner block were added), are read with the later patterns' weights at 0: the same
    evaluation, so that such a file can still be played, compared and blended (its meta
    then records ``padded_from``, the number of patterns it had).
    """
    w, meta, _ = _read(path)
    return w, meta


def _read(path: str | Path
          ) -> tuple[npt.NDArray[np.float32], dict[str, Any], dict[str, np.ndarray]]:
    """:func:`read_weights`, and every array of the file (one read for the kernel table)."""
    a, meta = load_npz(path, WEIGHTS_FORMAT, "weights file")
    try:
        pats = {k: tuple(v) for k, v in meta.get("patterns", {}).items()}
        terms = tuple(meta.get("terms", ()))
    except (AttributeError, TypeError):  # meta of another shape: not these weights
        pats, terms = {}, ()
    whole = len(pats) == len(PATTERNS)
    if (not pats or list(pats.items()) != list(PATTERNS.items())[:len(pats)]  # in order
            or terms != TERMS):
        raise InvalidInputError(f"{path}: weights for another pattern set")
    expected = (N_STAGES, DEFAULT_SET.stage_size if whole
                else PatternSet.build(pats).stage_size)
    w = a.get("weights")
    if w is not None and w.dtype.kind not in "iuf":
        raise InvalidInputError(f"{path}: weights of {str(w.dtype)[:40]} values, expected "
                                "numbers")
    if w is None or w.shape != expected:
        raise InvalidInputError(f"{path}: weights of shape "
                                f"{None if w is None else w.shape}, expected {expected}")
    if not whole:  # the later patterns' features follow the earlier ones'
        full = np.zeros((N_STAGES, DEFAULT_SET.stage_size), dtype=np.float32)
        full[:, :w.shape[1]] = w
        w = full
        meta = {**meta, "padded_from": len(pats)}
    with np.errstate(over="ignore", invalid="ignore"):  # beyond float32: inf, refused
        w = w.astype(np.float32)
    if not np.isfinite(w).all():
        raise InvalidInputError(f"{path}: weights: values that are not finite numbers")
    return w, meta, a


def read_network(path: str | Path) -> Network | None:
    """The residual network of a weights file, or None when it has none.

    Raises
    ------
    InvalidInputError
        Not a weights file, or its network arrays incomplete or bad (named).
    """
    a, _ = load_npz(path, WEIGHTS_FORMAT, "weights file")
    return Network.from_arrays(a, str(path))


@functools.lru_cache(maxsize=4)
def kernel_weights(path: str) -> npt.NDArray[np.int32]:
    """The weights of ``path`` as the evaluation kernel's table (read-only, as
    :meth:`PatternSet.expand` makes it; loaded once per process and path): the pattern
    stages, then the network's section when the file has one."""
    w, _, arrays = _read(path)  # the file read once for both parts
    table = DEFAULT_SET.expand(w)
    net = Network.from_arrays(arrays, path)
    if net is None:
        return table
    table = np.concatenate([table, net.kernel_section()])
    table.flags.writeable = False
    return table


def pattern_table(w: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """The pattern stages of a kernel table (a read-only view) without its network's
    section; ``w`` itself when it has none: the same evaluation without the network."""
    out = without_network(w)
    if out is not w:
        out.flags.writeable = False
    return out


def check_kernel_table(w: npt.NDArray[np.int32]) -> None:
    """A pattern evaluation's kernel table must be the stages alone, or the stages and a
    network section of the length its H says: the kernels read it without bounds checks.

    Raises
    ------
    InvalidInputError
        Any other length (named).
    """
    base = N_STAGES * DEFAULT_SET.kernel_stage_size
    n = int(w.shape[0])
    if n == base:
        return
    h = int(w[base]) if n > base else 0
    if not (1 <= h <= MAX_HIDDEN and n == base + section_length(h)):
        raise InvalidInputError(f"pattern weights table of length {n}: expected {base} (the "
                                "stages) or that and a network section "
                                f"(H in 1..{MAX_HIDDEN} at entry {base})")


def shipped_kernel_weights() -> npt.NDArray[np.int32]:
    """The shipped weights as the evaluation kernel's table (loaded once per process)."""
    return kernel_weights(str(SHIPPED))
