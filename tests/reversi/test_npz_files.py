"""The engine's NPZ files (weights, network, Multi-ProbCut table, training data) with
arrays of the wrong kind or shape, or a meta of another shape: one line naming the file,
never a traceback (each was a ValueError, TypeError or AttributeError before)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi.network import Network
from gameopt.reversi.probcut import MPC_FORMAT, read_mpc
from gameopt.reversi.train import DATA_FORMAT, read_data
from gameopt.reversi.weights import SHIPPED, WEIGHTS_FORMAT, read_weights


def _save(path: Path, meta: dict[str, Any], **arrays: Any) -> Path:
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)
    return path


@pytest.fixture(scope="module")
def shipped_meta() -> dict[str, Any]:
    with np.load(SHIPPED) as z:
        return dict(json.loads(str(z["meta"])))


def test_weights_with_a_meta_of_another_shape_or_text_weights(
        tmp_path: Path, shipped_meta: dict[str, Any]) -> None:
    for meta in ({"format": WEIGHTS_FORMAT, "patterns": [1, 2]},
                 {"format": WEIGHTS_FORMAT, "patterns": {"a": 5}},
                 {**shipped_meta, "terms": 7}):
        with pytest.raises(InvalidInputError, match=r"w.npz: weights for another pattern set$"):
            read_weights(_save(tmp_path / "w.npz", meta, weights=np.zeros(3)))
    with pytest.raises(InvalidInputError, match=r"w.npz: weights of <U1 values, expected "
                                                r"numbers$"):
        read_weights(_save(tmp_path / "w.npz", shipped_meta, weights=np.array(["a"])))


def test_network_arrays_of_text() -> None:
    arrays = {f"net_{k}": np.array(["a"]) for k in
              ("embed", "stage", "layer", "bias", "out", "out_bias")}
    with pytest.raises(InvalidInputError, match=r"^w.npz: network array net_embed: <U1 "
                                                r"values, expected numbers$"):
        Network.from_arrays(arrays, "w.npz")


@pytest.mark.parametrize(("make", "message"), [
    (lambda: {"player": np.array(["a"])}, r"player: <U1 of shape \(1,\), expected a list of "
                                          r"integers$"),
    (lambda: {"player": np.array(5)}, r"player: int64 of shape \(\), expected a list"),
    (lambda: {"target": np.zeros((2, 2))}, r"target: float64 of shape \(2, 2\), expected a "
                                           r"list of numbers$"),
    (lambda: {"game": np.zeros(3, dtype=np.int32)}, r"arrays of different lengths$"),
    (lambda: {"player": None}, r"missing array 'player'$"),
    (lambda: {"target": np.array([1.0, 1e300])}, r"target: values that are not finite numbers$"),
])
def test_training_data_of_other_kinds(tmp_path: Path, make: Callable[[], dict[str, Any]],
                                      message: str) -> None:
    arrays: dict[str, Any] = {"player": np.zeros(2, dtype=np.uint64),
                              "opponent": np.zeros(2, dtype=np.uint64),
                              "target": np.zeros(2, dtype=np.float32),
                              "game": np.zeros(2, dtype=np.int32), **make()}
    arrays = {k: v for k, v in arrays.items() if v is not None}
    path = _save(tmp_path / "d.npz", {"format": DATA_FORMAT}, **arrays)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning on the way either
        with pytest.raises(InvalidInputError, match=message):
            read_data(path)


def test_an_mpc_table_of_text(tmp_path: Path) -> None:
    path = _save(tmp_path / "m.npz", {"format": MPC_FORMAT}, table=np.array(["a"]))
    with pytest.raises(InvalidInputError, match=r"m.npz: MPC table of <U1 values, expected "
                                                r"numbers$"):
        read_mpc(path)
