"""Pattern evaluation: kernel = reference, symmetry, training recovers planted weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi._eval import evaluate
from gameopt.reversi.board import SQUARE_SYMMETRIES, Board
from gameopt.reversi.patterns import (
    DEFAULT_SET,
    N_STAGES,
    reference_evaluate,
    reference_indices,
    stage_of,
)
from gameopt.reversi.train import (
    TrainData,
    features,
    fit,
    generate,
    read_data,
    read_weights,
    write_data,
    write_weights,
)


def _random_positions(n: int, seed: int) -> list[Board]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = Board.start()
        for _ in range(int(rng.integers(0, 58))):
            moves = b.legal_moves()
            if not moves:
                break
            b = b.play(moves[int(rng.integers(len(moves)))])
        out.append(b)
    return out


def _image(board: Board, perm: np.ndarray) -> Board:
    def img(x: int) -> int:
        return sum(1 << int(perm[s]) for s in range(64) if x >> s & 1)
    return Board(img(board.player), img(board.opponent), board.side)


def test_pattern_set_shape() -> None:
    ps = DEFAULT_SET
    assert len(ps.squares) == 46 and len(ps.names) == 11
    # every square is covered, every instance's squares are distinct
    assert set(ps.squares[ps.squares >= 0].tolist()) == set(range(64))
    # sharing: a row of 8 has (3^8 + 3^4) / 2 classes under its mirror
    row = ps.names.index("row2")
    lo, hi = ps.base[row], ps.base[row] + 3 ** 8
    assert len(np.unique(ps.canon[lo:hi])) == (3 ** 8 + 3 ** 4) // 2
    assert [stage_of(e) for e in (60, 57, 56, 4, 0)] == [0, 0, 1, 14, 14]


def test_kernel_equals_reference_and_is_symmetric() -> None:
    rng = np.random.default_rng(1)
    shared = rng.integers(-300, 300, DEFAULT_SET.n_weights).astype(np.float64) / 100
    kernel_w = DEFAULT_SET.expand(shared)
    ref_w = np.rint(shared * 100).astype(np.int32)
    for b in _random_positions(300, 2):
        v = evaluate(np.uint64(b.player), np.uint64(b.opponent), 1, kernel_w)
        assert v == reference_evaluate(b, ref_w)
        for perm in SQUARE_SYMMETRIES[1:]:
            im = _image(b, perm)
            assert evaluate(np.uint64(im.player), np.uint64(im.opponent), 1, kernel_w) == v


def test_features_match_reference_indices() -> None:
    boards = _random_positions(50, 3)
    data = TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64),
                     np.zeros(50, np.float32), np.arange(50, dtype=np.int32), {})
    F, mob, ply = features(data)
    ps = DEFAULT_SET
    for t, b in enumerate(boards):
        raw = reference_indices(b)
        want = [int(ps.canon[ps.base[k] + i]) for k, i in zip(ps.kind, raw, strict=True)]
        assert F[t].tolist() == want
        assert ply[t] == 60 - b.empties


def test_fit_recovers_planted_weights() -> None:
    """Labels made by known weights (noise-free, the same in every stage, as neighbouring
    stages train on each other's positions): the fit must predict them closely."""
    rng = np.random.default_rng(4)
    shared = np.zeros((N_STAGES, DEFAULT_SET.stage_size))
    shared[:, 2:] = rng.normal(0, 0.5, DEFAULT_SET.n_features)
    shared[:, 1] = 0.8
    ref_w = np.rint(shared * 100).astype(np.int32).ravel()
    boards = _random_positions(3000, 5)
    y = np.array([reference_evaluate(b, ref_w) / 100 for b in boards], np.float32)
    data = TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64), y,
                     np.arange(len(boards), dtype=np.int32), {})
    _, base_report = fit(data, epochs=1, lr=1e-9, val_fraction=0.2, seed=0)
    w, report = fit(data, epochs=30, lr=0.5, l2=0.0, val_fraction=0.2, seed=0)
    train = np.nanmean(report.train_mae)
    assert train < 0.2 * np.nanmean(base_report.train_mae)  # fits what it saw
    assert w.shape == (N_STAGES, DEFAULT_SET.stage_size)


def test_generate_labels_and_files(tmp_path: Path) -> None:
    data = generate(4, seed=3, workers=1, exact_empties=10)
    assert len(data) > 100 and set(np.unique(data.game)) == {0, 1, 2, 3}
    # each game's labels are one exact result, with the sign of the side to move
    for g in range(4):
        assert len(np.unique(np.abs(data.target[data.game == g]))) == 1
    last = np.flatnonzero(data.game == 0)[-1]
    b = Board(int(data.player[last]), int(data.opponent[last]))
    assert b.empties <= 10
    write_data(tmp_path / "d.npz", data)
    again = read_data(tmp_path / "d.npz")
    assert np.array_equal(again.player, data.player) and again.meta == data.meta
    w, _ = fit(data, epochs=1)
    write_weights(tmp_path / "w.npz", w, {"note": "test"})
    w2, meta = read_weights(tmp_path / "w.npz")
    assert np.array_equal(w, w2) and meta["note"] == "test"
    with pytest.raises(InvalidInputError, match="gameopt-patterns-1"):
        read_weights(tmp_path / "d.npz")
