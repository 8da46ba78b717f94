"""Pattern evaluation: kernel = reference, symmetry, training recovers planted weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi._eval import HEURISTIC, HEURISTIC_WEIGHTS, evaluate, terms
from gameopt.reversi.board import SQUARE_SYMMETRIES, Board
from gameopt.reversi.patterns import (
    DEFAULT_SET,
    N_SCALARS,
    N_STAGES,
    PATTERNS,
    TERMS,
    PatternSet,
    reference_evaluate,
    reference_indices,
    reference_terms,
    stage_of,
)
from gameopt.reversi.train import (
    TrainData,
    backup_labels,
    blend,
    branch,
    features,
    fit,
    generate,
    line_labels,
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
    assert len(ps.squares) == 54 and len(ps.names) == 13
    # every square is covered, every instance's squares are distinct
    assert set(ps.squares[ps.squares >= 0].tolist()) == set(range(64))
    # sharing: a row of 8 has (3^8 + 3^4) / 2 classes under its mirror
    row = ps.names.index("row2")
    lo, hi = ps.base[row], ps.base[row] + 3 ** 8
    assert len(np.unique(ps.canon[lo:hi])) == (3 ** 8 + 3 ** 4) // 2
    # the triangle is its own image about the diagonal (2 squares fixed, 4 pairs), the
    # corner block about the edge's middle (5 pairs)
    for name, classes in (("triangle", (3 ** 10 + 3 ** 6) // 2),
                          ("cornerblock", (3 ** 10 + 3 ** 5) // 2)):
        t = ps.names.index(name)
        lo, hi = ps.base[t], ps.base[t] + 3 ** 10
        assert len(np.unique(ps.canon[lo:hi])) == classes
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


def test_kernel_terms_match_reference_terms() -> None:
    """The kernel's terms (X and C squares from masks, stable discs of both sides in one
    pass) against the plain-Python reference, on late positions too (corners taken or
    empty beside occupied X and C squares)."""
    boards = _random_positions(600, 7)
    seen_x = 0
    for b in boards:
        got = [int(x) for x in terms(np.uint64(b.player), np.uint64(b.opponent))]
        want = reference_terms(b)
        assert got == want, b
        seen_x += want[3] != 0
    assert seen_x > 50  # X squares beside empty corners do occur


def test_features_match_reference_indices() -> None:
    boards = _random_positions(50, 3)
    data = TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64),
                     np.zeros(50, np.float32), np.arange(50, dtype=np.int32), {})
    F, T, ply = features(data)
    ps = DEFAULT_SET
    for t, b in enumerate(boards):
        raw = reference_indices(b)
        want = [int(ps.canon[ps.base[k] + i]) for k, i in zip(ps.kind, raw, strict=True)]
        assert F[t].tolist() == want
        assert T[t].tolist() == reference_terms(b)
        assert ply[t] == 60 - b.empties


def test_heuristic_is_the_pattern_evaluation_with_only_terms() -> None:
    """The pattern evaluation with zero tables and the heuristic's weights as its term
    weights is the heuristic: one set of terms serves both."""
    shared = np.zeros((N_STAGES, DEFAULT_SET.stage_size))
    shared[:, 1:N_SCALARS] = HEURISTIC_WEIGHTS / 100
    kernel_w = DEFAULT_SET.expand(shared)
    for b in _random_positions(200, 6):
        P, O = np.uint64(b.player), np.uint64(b.opponent)
        assert evaluate(P, O, 1, kernel_w) == evaluate(P, O, HEURISTIC, HEURISTIC_WEIGHTS)


def test_fit_recovers_planted_weights() -> None:
    """Labels made by known weights (noise-free, the same in every stage, as neighbouring
    stages train on each other's positions): the fit must predict them closely."""
    rng = np.random.default_rng(4)
    shared = np.zeros((N_STAGES, DEFAULT_SET.stage_size))
    shared[:, N_SCALARS:] = rng.normal(0, 0.5, DEFAULT_SET.n_features)
    shared[:, 1] = 0.8
    shared[:, 3] = 5.0
    ref_w = np.rint(shared * 100).astype(np.int32).ravel()
    boards = _random_positions(3000, 5)
    y = np.array([reference_evaluate(b, ref_w) / 100 for b in boards], np.float32)
    data = TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64), y,
                     np.arange(len(boards), dtype=np.int32), {})
    _, base_report = fit(data, iters=1, damp=1e4, val_fraction=0.2, seed=0)
    w, report = fit(data, damp=0.0, iters=60, val_fraction=0.2, seed=0)
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
    w, _ = fit(data, iters=5)
    write_weights(tmp_path / "w.npz", w, {"note": "test"})
    w2, meta = read_weights(tmp_path / "w.npz")
    assert np.array_equal(w, w2) and meta["note"] == "test"
    with pytest.raises(InvalidInputError, match="gameopt-patterns-2"):
        read_weights(tmp_path / "d.npz")


def test_weights_of_an_earlier_pattern_set_read_with_the_new_patterns_at_zero(
        tmp_path: Path) -> None:
    """A file fitted for the first k patterns (the set before the last ones were added)
    reads as the same evaluation: its weights, then 0 for the later patterns' features;
    a set that is not such a prefix, or a wrong shape, is refused."""
    import io
    import json

    first = dict(list(PATTERNS.items())[:11])
    small = PatternSet.build(first)
    rng = np.random.default_rng(4)
    w_small = rng.normal(size=(N_STAGES, small.stage_size)).astype(np.float32)

    def save(name: str, w: np.ndarray, pats: dict[str, tuple[int, ...]]) -> Path:
        meta = {"format": "gameopt-patterns-2", "stages": N_STAGES, "terms": list(TERMS),
                "patterns": {k: list(v) for k, v in pats.items()}}
        buf = io.BytesIO()
        np.savez(buf, weights=w, meta=np.array(json.dumps(meta)))
        (tmp_path / name).write_bytes(buf.getvalue())
        return tmp_path / name

    w, meta = read_weights(save("old.npz", w_small, first))
    assert w.shape == (N_STAGES, DEFAULT_SET.stage_size) and meta["padded_from"] == 11
    assert np.array_equal(w[:, :small.stage_size], w_small)
    assert not w[:, small.stage_size:].any()
    # the same evaluation: the small set's reference equals the full set's on the padding
    boards = _random_positions(100, 7)
    wi_small = np.rint(100 * w_small).astype(np.int32).ravel()
    wi_full = np.rint(100 * w).astype(np.int32).ravel()
    for b in boards:
        assert reference_evaluate(b, wi_full) == reference_evaluate(b, wi_small, small)
    shuffled = dict(reversed(list(first.items())))
    with pytest.raises(InvalidInputError, match="another pattern set"):
        read_weights(save("shuffled.npz", w_small, shuffled))
    with pytest.raises(InvalidInputError, match="shape"):
        read_weights(save("short.npz", w_small[:, :-1], first))


def test_backup_labels_keep_exact_endings_and_back_up_searches() -> None:
    """Positions within the exact ending keep their exact label; every other label is the
    value of a search (a whole number of discs), not the game result."""
    data = generate(6, seed=8, workers=1, exact_empties=10)
    out = backup_labels(data, depth=2, iters=20, workers=1)
    empties = out.empties
    exact = empties <= 10
    assert np.array_equal(out.target[exact], data.target[exact])
    assert out.meta["labels"] == "backed-up" and out.meta["backup_depth"] == 2
    assert np.all(out.target == np.round(out.target))
    assert not np.array_equal(out.target[~exact], data.target[~exact])
    with pytest.raises(InvalidInputError, match="exact_empties"):
        backup_labels(TrainData(data.player, data.opponent, data.target, data.game, {}))


def test_backup_labels_mix_game_results_after_the_backup() -> None:
    """With mix m every label above the exact endings is m * game result + (1 - m) *
    the label without mixing (the reference: the two combined by hand); exact endings
    and the backed-up part are untouched, and mix=1 gives the game results back."""
    data = generate(6, seed=8, workers=1, exact_empties=10)
    plain = backup_labels(data, depth=2, iters=20, workers=1)
    mixed = backup_labels(data, depth=2, mix=0.25, iters=20, workers=1)
    above = data.empties > 10
    want = plain.target.astype(np.float64)
    want[above] = 0.25 * data.target[above] + 0.75 * want[above]
    assert np.array_equal(mixed.target, want.astype(np.float32))
    assert not np.array_equal(mixed.target, plain.target)
    assert mixed.meta["backup_mix"] == 0.25 and "backup_mix" not in plain.meta
    whole = backup_labels(data, depth=2, mix=1.0, iters=20, workers=1)
    assert np.array_equal(whole.target, data.target)
    with pytest.raises(InvalidInputError, match="mix=-0.1"):
        backup_labels(data, depth=2, mix=-0.1)
    # targets that are not game results cannot be mixed in: relabelled or branch data
    both = TrainData.concat([data, branch(data, seed=1)])
    both = TrainData(both.player, both.opponent, both.target, both.game,
                     {**both.meta, "exact_empties": 10})
    for bad in (plain, both):
        with pytest.raises(InvalidInputError, match="not game results"):
            backup_labels(bad, depth=2, mix=0.5)
        with pytest.raises(InvalidInputError, match="not game results"):
            line_labels(bad, mix=0.5)
    # branch positions are off the game lines (targets 0 at the exact endings too)
    with pytest.raises(InvalidInputError, match="branch positions"):
        line_labels(both, mix=0.0)


def test_line_labels_bootstrap_from_later_positions_of_the_same_game() -> None:
    """Exact endings keep their label; with mix=1 every label is the game result again;
    with mix=0 a position whose later positions (4..7 plies on) are all exact gets the
    mean of their exact labels, signed for the side to move."""
    data = generate(5, seed=3, workers=1, exact_empties=12, epsilon=0.0)
    out = line_labels(data, iters=20)
    empties = out.empties
    exact = empties <= 12
    assert np.array_equal(out.target[exact], data.target[exact])
    assert out.meta["labels"] == "line"
    assert np.array_equal(line_labels(data, mix=1.0, iters=20).target, data.target)
    n = len(data)
    checked = 0
    for t in range(n):
        later = [t + k for k in range(4, 8)]
        if (exact[t] or later[-1] >= n or any(data.game[i] != data.game[t] for i in later)
                or not all(exact[i] for i in later)):
            continue
        want = np.mean([data.target[i] * (1 if k % 2 == 0 else -1)
                        for k, i in zip(range(4, 8), later, strict=True)])
        assert out.target[t] == pytest.approx(want, abs=1e-4)
        checked += 1
    assert checked >= 5  # the positions 4..7 plies before each exact ending
    with pytest.raises(InvalidInputError, match="exact_empties"):
        line_labels(TrainData(data.player, data.opponent, data.target, data.game, {}))
    with pytest.raises(InvalidInputError, match="mix"):
        line_labels(data, mix=1.5)


def test_blend_mixes_two_weight_sets_and_so_their_evaluations() -> None:
    """The blend's weights are the mix, so its prediction is the same mix of the two
    fits' predictions; mismatched shapes or a share outside [0, 1] are refused."""
    rng = np.random.default_rng(2)
    a = rng.normal(0, 1, (N_STAGES, DEFAULT_SET.stage_size)).astype(np.float32)
    b = rng.normal(0, 1, (N_STAGES, DEFAULT_SET.stage_size)).astype(np.float32)
    m = blend(a, b, 0.25)
    assert np.allclose(m, 0.25 * a + 0.75 * b, atol=1e-6)
    assert np.array_equal(blend(a, b, 1.0), a)
    with pytest.raises(InvalidInputError, match="share"):
        blend(a, b, 1.5)
    with pytest.raises(InvalidInputError, match="shapes"):
        blend(a, b[:3], 0.5)


def test_branch_plays_one_random_legal_move_off_each_line() -> None:
    """Every branch is its parent (same game) after one of the parent's legal moves
    (checked with :meth:`Board.play`, the reference), with more empties than the exact
    endings; over many parents the moves are not always the first legal one; the seed
    fixes them; labelling relabels every branch; fit refuses them unlabelled."""
    data = generate(4, seed=6, workers=1, exact_empties=10, depth=1)
    out = branch(data, seed=3)
    assert out.meta["labels"] == "none" and out.meta["branch"] == {"seed": 3, "share": 1.0}
    parents: dict[tuple[int, int], set[int]] = {}  # position -> its games
    for p, o, g in zip(data.player.tolist(), data.opponent.tolist(), data.game.tolist(),
                       strict=True):
        if (p | o).bit_count() < 64 - 11:
            parents.setdefault((p, o), set()).add(g)
    kids: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for p, o in parents:
        b = Board(p, o)
        moves = [m for m in b.legal_moves() if not m.is_pass]
        kids[(p, o)] = {(c.player, c.opponent) for c in (b.play(m) for m in moves)}
    firsts = 0
    for p, o, g in zip(out.player.tolist(), out.opponent.tolist(), out.game.tolist(),
                       strict=True):
        parent = next(k for k, v in kids.items() if (p, o) in v and g in parents[k])
        b = Board(*parent)
        first = b.play(next(m for m in b.legal_moves() if not m.is_pass))
        firsts += (p, o) == (first.player, first.opponent)
    n_parents = sum(len(parents[k]) for k, v in kids.items() if v)  # repeats included
    assert len(out) == n_parents > 50
    assert firsts < len(out) // 2
    assert np.all(out.empties > 10) and not out.target.any()
    again = branch(data, seed=3)
    assert np.array_equal(again.player, out.player)
    assert not np.array_equal(branch(data, seed=4).player, out.player)
    half = branch(data, seed=3, share=0.5)
    assert 0 < len(half) < len(out)
    with pytest.raises(InvalidInputError, match="unlabelled"):
        fit(out, iters=5)
    both = TrainData.concat([data, out])
    both = TrainData(both.player, both.opponent, both.target, both.game,
                     {**both.meta, "exact_empties": 10})
    with pytest.raises(InvalidInputError, match="unlabelled"):
        fit(both, iters=5)
    labelled = backup_labels(both, depth=1, iters=10, workers=1)
    assert labelled.target[len(data):].any()
    fit(labelled, iters=5)
    with pytest.raises(InvalidInputError, match="share"):
        branch(data, share=0.0)
    with pytest.raises(InvalidInputError, match="exact_empties"):
        branch(TrainData(data.player, data.opponent, data.target, data.game, {}))


def test_generate_draws_random_plies_per_game_from_a_range() -> None:
    """(lo, hi): each game opens with its own number of random moves, recorded as a
    range; a bad range is refused in one line."""
    data = generate(6, seed=5, workers=1, random_plies=(10, 14), exact_empties=8, depth=1)
    assert data.meta["random_plies"] == [10, 14]
    fixed = generate(2, seed=5, workers=1, random_plies=9, exact_empties=8, depth=1)
    assert fixed.meta["random_plies"] == 9
    with pytest.raises(InvalidInputError, match="random_plies"):
        generate(2, random_plies=(5, 3))


def test_generate_plays_with_the_named_evaluation(tmp_path: Path) -> None:
    """``eval_source``: the shipped weights file named explicitly gives the default games
    (so a data set stays reproducible after the default changes), the heuristic gives
    others, and a bad file fails once, in the caller, with its name."""
    from gameopt.reversi.weights import SHIPPED

    kw = {"seed": 3, "workers": 1, "random_plies": 6, "exact_empties": 8, "depth": 2,
          "epsilon": 0.0}
    default = generate(3, **kw)  # type: ignore[arg-type]
    named = generate(3, eval_source=str(SHIPPED), **kw)  # type: ignore[arg-type]
    heur = generate(3, eval_source="heuristic", **kw)  # type: ignore[arg-type]
    assert np.array_equal(default.player, named.player)
    assert np.array_equal(default.target, named.target)
    assert named.meta["eval"] == str(SHIPPED) and default.meta["eval"] == "default"
    assert not (len(heur) == len(default) and np.array_equal(heur.player, default.player))
    bad = tmp_path / "w.npz"
    bad.write_bytes(b"not a weights file")
    with pytest.raises(InvalidInputError, match="w.npz"):
        generate(1, eval_source=str(bad), **kw)  # type: ignore[arg-type]


def test_train_data_concat_keeps_games_apart() -> None:
    from gameopt.reversi.train import TrainData

    def part(games: list[int], tag: str) -> TrainData:
        k = len(games)
        return TrainData(np.arange(k, dtype=np.uint64), np.arange(k, dtype=np.uint64) << 8,
                         np.full(k, 1.0, np.float32), np.array(games, np.int32), {"t": tag})

    joined = TrainData.concat([part([0, 0, 1], "a"), part([0, 2], "b"), part([], "c")])
    assert list(joined.game) == [0, 0, 1, 2, 4] and len(joined) == 5
    assert list(joined.player) == [0, 1, 2, 0, 1]
    assert joined.meta == {"sources": [{"t": "a"}, {"t": "b"}, {"t": "c"}]}


def test_fit_goes_on_from_start_weights() -> None:
    """With ``start`` the damping pulls toward those weights, not toward 0: heavily damped,
    the fit returns them (stages without positions included); lightly damped from the
    planted weights themselves, it stays near them (the error is the noise's); a start of
    the wrong shape, or with ``smooth``, is refused."""
    rng = np.random.default_rng(12)
    planted = np.zeros((N_STAGES, DEFAULT_SET.stage_size))
    planted[:, N_SCALARS:] = rng.normal(0, 0.5, DEFAULT_SET.n_features)
    planted[:, 1] = 0.8
    ref_w = np.rint(planted * 100).astype(np.int32).ravel()
    boards = _random_positions(1500, 13)
    y = np.array([reference_evaluate(b, ref_w) / 100 for b in boards], np.float32)
    y += rng.normal(0, 1.0, len(y)).astype(np.float32)
    data = TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64), y,
                     np.arange(len(boards), dtype=np.int32), {})
    held, _ = fit(data, damp=1e6, iters=20, val_fraction=0.2, start=planted)
    assert np.allclose(held, planted, atol=1e-3)
    zero, _ = fit(data, damp=1e6, iters=20, val_fraction=0.2)
    assert np.abs(zero).max() < 1e-3  # without start the same damping pulls to 0
    _, from_planted = fit(data, damp=1.0, iters=30, val_fraction=0.2, start=planted)
    _, from_zero = fit(data, damp=1.0, iters=30, val_fraction=0.2)
    assert np.nanmean(from_planted.val_mae) < 1.0  # the noise's MAE is 0.8
    assert np.nanmean(from_planted.val_mae) < 0.5 * np.nanmean(from_zero.val_mae)
    # the start weights' own error on the same held-out games: the planted ones see only
    # the noise; a report without start has none
    assert from_planted.start_val_mae is not None and from_zero.start_val_mae is None
    assert 0.6 < np.nanmean(from_planted.start_val_mae) < 1.0
    with pytest.raises(InvalidInputError, match="start"):
        fit(data, start=planted[:, :-1])
    with pytest.raises(InvalidInputError, match="smooth"):
        fit(data, start=planted, smooth=True)


def test_smooth_fit_carries_weights_to_stages_without_data() -> None:
    """Positions only in the last stage (ply >= 52): a plain fit leaves the early stages
    at 0; the smoothed fit (stages from the last back, each damped toward the next) gives
    the stages with no positions the weights of the first stage that had some, and they
    predict late positions' labels far better than zeros."""
    rng = np.random.default_rng(9)
    boards = [b for b in _random_positions(1500, 11) if b.empties <= 8]
    assert len(boards) > 100
    y = rng.normal(0, 1, len(boards)).astype(np.float32) + np.array(
        [float(b.player.bit_count() - b.opponent.bit_count()) for b in boards], np.float32)
    data = TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64), y,
                     np.arange(len(boards), dtype=np.int32), {})
    plain, _ = fit(data, iters=30, val_fraction=0.2)
    smooth, rep = fit(data, iters=30, val_fraction=0.2, smooth=True)
    assert not plain[:12].any()  # no positions before stage 13 trains any weight
    for s in range(12):
        assert np.array_equal(smooth[s], smooth[12]) and smooth[s].any()
    assert np.nanmean(rep.val_mae) < np.nanmean(np.abs(y))
