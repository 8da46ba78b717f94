"""The residual network: kernel = plain reference (from scratch, indexed, in searches),
its files, its training kernel = NumPy reference, and training that finds a planted net."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from gameopt.core import Limit
from gameopt.errors import InvalidInputError
from gameopt.reversi import _midgame, _netfit
from gameopt.reversi._eval import (
    N_INSTANCES,
    NET_K,
    PATTERN,
    evaluate,
    evaluate_indexed,
    evaluate_indexed_lazy,
    evaluate_lazy,
    pattern_indices,
    without_network,
)
from gameopt.reversi.board import SQUARE_SYMMETRIES, Board
from gameopt.reversi.netfit import fit_network, reference_sgd_epoch
from gameopt.reversi.network import LIMITS, MAX_HIDDEN, Network, reference_value
from gameopt.reversi.patterns import DEFAULT_SET, N_STAGES, reference_evaluate, stage_of
from gameopt.reversi.search import SearchParams, search
from gameopt.reversi.train import TrainData, features, write_data
from gameopt.reversi.weights import kernel_weights, read_network, read_weights, write_weights
from tests.reversi.positions import random_position
from tests.reversi.test_midgame import WINDOWS, _run, _same_verdict
from tests.reversi.test_patterns import _image, _random_positions

search_mod = importlib.import_module("gameopt.reversi.search")


def _net(seed: int, hidden: int = 12, scale: float = 1.0) -> Network:
    rng = np.random.default_rng(seed)
    return Network(rng.normal(0, 0.3 * scale, (DEFAULT_SET.n_features, NET_K)),
                   rng.normal(0, 0.5, (N_STAGES, NET_K)), rng.normal(0, 0.5, (hidden, NET_K)),
                   rng.normal(0, 0.5, hidden), rng.normal(0, 0.8, hidden),
                   rng.normal(0, 0.5, N_STAGES))


def _shared(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-300, 300, DEFAULT_SET.n_weights).astype(np.float64) / 100


def _table(shared: np.ndarray, net: Network) -> np.ndarray:
    t = np.concatenate([DEFAULT_SET.expand(shared), net.kernel_section()])
    t.flags.writeable = False
    return t


def _pv(b: Board) -> tuple[np.uint64, np.uint64]:
    return np.uint64(b.player), np.uint64(b.opponent)


def test_kernel_equals_reference_and_is_symmetric() -> None:
    """Pattern value plus network, from scratch: the plain-integer reference exactly, and
    the same under the 8 board symmetries (the network sums over all instances)."""
    shared = _shared(1)
    net = _net(2)
    w = _table(shared, net)
    ref_w = np.rint(shared * 100).astype(np.int32)
    seen = set()
    changed = 0
    for b in _random_positions(200, 3):
        v = evaluate(*_pv(b), PATTERN, w)
        assert v == reference_evaluate(b, ref_w) + reference_value(b, net)
        changed += v != evaluate(*_pv(b), PATTERN, DEFAULT_SET.expand(shared))
        seen.add(stage_of(b.empties))
        for perm in SQUARE_SYMMETRIES[1:]:
            assert evaluate(*_pv(_image(b, perm)), PATTERN, w) == v
    assert len(seen) == N_STAGES and changed > 180


def test_indexed_evaluation_with_the_network_equals_scratch() -> None:
    w = _table(_shared(4), _net(5))
    ix = np.zeros(N_INSTANCES, dtype=np.int32)
    for b in _random_positions(100, 6):
        pattern_indices(*_pv(b), ix)
        assert evaluate_indexed(*_pv(b), ix, w) == evaluate(*_pv(b), PATTERN, w)


@pytest.mark.parametrize("seed", range(3))
def test_searches_with_the_network_equal_frame_by_frame(seed: int) -> None:
    """The nested shallow search keeps index vectors incrementally; with the network's
    table it must still equal the frame-by-frame search (values and node counts)."""
    w = _table(_shared(7), _net(8))
    b = random_position(seed, (44, 30, 18)[seed])
    params = SearchParams(shallow_order=0)
    for depth in (1, 2, 3, 4):
        for alpha, beta in WINDOWS:
            assert _run(_midgame.search, b, depth, alpha, beta, params, w) == \
                _run(_midgame.search_frames, b, depth, alpha, beta, params, w)


def test_lazy_evaluation_skips_the_network_only_outside_the_window() -> None:
    """Lazy evaluation, indexed and from scratch: the pattern value p alone above ``most``
    empties; else the full value when p lies within ``margin`` of the window, p moved
    ``margin`` toward it when not (margin 0: the full value whatever the window); a table
    without a network: p, whatever the window."""
    shared = _shared(21)
    w = _table(shared, _net(22, scale=2.0))
    plain = DEFAULT_SET.expand(shared)
    plain.flags.writeable = False
    ix = np.zeros(N_INSTANCES, dtype=np.int32)
    rng = np.random.default_rng(23)
    kinds = set()
    for b in _random_positions(400, 24):
        P, O = _pv(b)
        pattern_indices(P, O, ix)
        full, p = evaluate(P, O, PATTERN, w), evaluate(P, O, PATTERN, plain)
        alpha = int(rng.integers(-3000, 3000))
        beta = alpha + int(rng.choice([1, 2, 500]))
        margin = int(rng.choice([0, 1, 200, 1000]))
        most = int(rng.choice([0, 0, 20, 40]))
        if most and b.empties > most:
            want, kind = p, "empties"
        elif margin and p + margin <= alpha:
            want, kind = p + margin, "below"
        elif margin and p - margin >= beta:
            want, kind = p - margin, "above"
        else:
            want, kind = full, "full"
        kinds.add(kind)
        assert evaluate_indexed_lazy(P, O, ix, w, alpha, beta, margin, most) == want
        assert evaluate_lazy(P, O, w, alpha, beta, margin, most) == want
        assert evaluate_indexed_lazy(P, O, ix, plain, alpha, beta, margin, most) == p
    assert kinds == {"empties", "below", "above", "full"}


def test_output_bounds_hold_for_every_position() -> None:
    """The interval bounds of the network's output contain the kernel's output of every
    position tried (from the opening to the end), per stage."""
    net = _net(25, scale=0.5)
    bounds = net.output_bounds()
    assert bounds.shape == (N_STAGES, 2) and (bounds[:, 0] <= bounds[:, 1]).all()
    for b in _random_positions(300, 26):
        lo, hi = bounds[stage_of(b.empties)]
        assert lo <= reference_value(b, net) <= hi


@pytest.mark.parametrize("seed", range(3))
def test_lazy_search_with_a_true_bound_is_the_full_search(seed: int) -> None:
    """With the margin at the network's guaranteed bound, lazy evaluation never changes a
    verdict: the same value inside every window and the same side of it outside; with any
    margin the nested shallow search still equals the frame-by-frame one (values, nodes)."""
    net = _net(27 + seed, hidden=6, scale=0.05)
    w = _table(_shared(30 + seed) / 4, net)
    margin = int(np.abs(net.output_bounds()).max()) + 1
    for bad in (-1, 6401):
        with pytest.raises(InvalidInputError, match=f"net_margin {bad}: expected 0..6400"):
            SearchParams(net_margin=bad)
    for bad in (-1, 61):
        with pytest.raises(InvalidInputError, match=f"net_max_empties {bad}: expected 0..60"):
            SearchParams(net_max_empties=bad)
    b = random_position(seed, (44, 30, 22)[seed])
    full = SearchParams(shallow_order=0)
    for depth in (1, 2, 3, 4, 5):
        for alpha, beta in WINDOWS:
            want = _run(_midgame.search, b, depth, alpha, beta, full, w)[0]
            for m, most in ((margin, 0), (150, 0), (0, b.empties - 2), (150, b.empties - 2)):
                lazy = SearchParams(shallow_order=0, net_margin=m, net_max_empties=most)
                got = _run(_midgame.search, b, depth, alpha, beta, lazy, w)
                assert got == _run(_midgame.search_frames, b, depth, alpha, beta, lazy, w)
                if m == margin:
                    assert _same_verdict(got[0], want, alpha, beta)


def test_network_changes_what_the_engine_plays() -> None:
    shared = _shared(9) / 10
    plain = SearchParams(weights=DEFAULT_SET.expand(shared), tt_bits=12)
    with_net = SearchParams(weights=_table(shared, _net(10, scale=3.0)), tt_bits=12)
    b = random_position(1, 48)
    r0, r1 = search(b, Limit(depth=4), plain), search(b, Limit(depth=4), with_net)
    assert r0.score != r1.score


def test_lazy_evaluation_is_on_by_time_and_off_at_a_fixed_depth() -> None:
    """Left unset, ``net_margin`` is LAZY_BY_TIME in a search by time (as Multi-ProbCut is
    on) and 0 at a fixed depth: the same moves, scores and nodes as the explicit values,
    and by time not those of the full network."""
    from gameopt.reversi.search import LAZY_BY_TIME

    shared = _shared(13) / 10
    table = _table(shared, _net(14, scale=1.0))
    b = random_position(2, 40)

    def run(limit: Limit, **kw: object) -> tuple[object, ...]:
        r = search(b, limit, SearchParams(weights=table, tt_bits=14, **kw))  # type: ignore[arg-type]
        return r.move, r.score, r.nodes, r.depth

    by_time = Limit(time=600.0, nodes=150_000)  # the node limit ends it, not the clock
    assert SearchParams().net_margin is None
    assert run(by_time) == run(by_time, net_margin=LAZY_BY_TIME)
    assert run(by_time)[2:] != run(by_time, net_margin=0)[2:]
    assert run(Limit(depth=5)) == run(Limit(depth=5), net_margin=0)
    assert run(Limit(depth=5))[2] != run(Limit(depth=5), net_margin=LAZY_BY_TIME)[2]


def test_exact_solver_orders_by_the_patterns_alone() -> None:
    """The exact solver's searches get the table without the network's section: the same
    nodes and values as with the pattern table alone, the midgame still with the network."""
    shared = _shared(11) / 10
    plain, with_net = DEFAULT_SET.expand(shared), _table(shared, _net(12, scale=3.0))
    assert np.array_equal(without_network(with_net), plain)
    assert without_network(plain) is plain
    b = random_position(5, 20)
    runs = [search_mod._Run(SearchParams(weights=w, tt_bits=12), Limit(), None)
            for w in (plain, with_net)]
    ends = [(r.end_value(b.player, b.opponent, -64, 64), r.nodes) for r in runs]
    assert ends[0] == ends[1] and ends[0][1] > 1000
    assert runs[1].w.shape[0] > runs[1].w_end.shape[0] == plain.shape[0]


def test_network_checks_shapes_and_values() -> None:
    net = _net(11, hidden=4)
    args = {k: getattr(net, k) for k in ("embed", "stage", "layer", "bias", "out",
                                          "out_bias")}
    with pytest.raises(InvalidInputError, match=r"network embed of shape \(3, 8\)"):
        Network(**{**args, "embed": np.zeros((3, NET_K))})
    with pytest.raises(InvalidInputError, match=f"H in 1..{MAX_HIDDEN}"):
        Network(**{**args, "layer": np.zeros((MAX_HIDDEN + 1, NET_K))})
    with pytest.raises(InvalidInputError, match=r"network bias of shape \(3,\)"):
        Network(**{**args, "bias": np.zeros(3)})
    bad = args["out"].copy()
    bad[1] = np.nan
    with pytest.raises(InvalidInputError, match="network out: values must be finite"):
        Network(**{**args, "out": bad})
    big = args["stage"].copy()
    big[0, 0] = LIMITS["stage"] * 2
    with pytest.raises(InvalidInputError, match=r"network stage: .*±16 \(largest 32\)"):
        Network(**{**args, "stage": big})


def test_weights_file_with_a_network(tmp_path: Path) -> None:
    shared = _shared(12).reshape(N_STAGES, -1)
    net = _net(13)
    path = tmp_path / "w.npz"
    write_weights(path, shared, {"note": 1}, network=net)
    got = read_network(path)
    assert got is not None and got.hidden == net.hidden
    for k in ("embed", "stage", "layer", "bias", "out", "out_bias"):
        assert np.array_equal(getattr(got, k), getattr(net, k)), k
    w, meta = read_weights(path)
    assert np.allclose(w, shared) and meta["network"]["hidden"] == net.hidden
    assert np.array_equal(kernel_weights(str(path)), _table(shared, net))
    plain = tmp_path / "p.npz"
    write_weights(plain, shared)
    assert read_network(plain) is None
    assert len(kernel_weights(str(plain))) == N_STAGES * DEFAULT_SET.kernel_stage_size
    with np.load(path) as z:  # a file missing one of the network's arrays
        arrays = {k: z[k] for k in z.files if k != "net_out"}
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)
    with pytest.raises(InvalidInputError, match="broken.npz: network arrays missing: out$"):
        read_network(broken)
    arrays["net_out"] = np.full(net.hidden, np.inf, np.float32)
    np.savez(broken, **arrays)
    with pytest.raises(InvalidInputError, match="broken.npz: network out: values must be"):
        kernel_weights(str(broken))


def test_training_kernel_equals_numpy_reference() -> None:
    rng = np.random.default_rng(14)
    n, nf, h = 40, 300, 6
    F = rng.integers(0, nf, (n, N_INSTANCES)).astype(np.int32)
    F[:, 1] = F[:, 0]  # a feature twice in one position
    stage = rng.integers(0, N_STAGES, n).astype(np.int64)
    r = rng.normal(0, 8, n)
    params = [rng.normal(0, 0.1, (nf, NET_K)), rng.normal(0, 0.1, (N_STAGES, NET_K)),
              rng.normal(0, 0.5, (h, NET_K)), rng.normal(0, 0.2, h), rng.normal(0, 0.5, h),
              rng.normal(0, 0.1, N_STAGES)]
    mine = [p.copy() for p in params]
    idx = rng.permutation(n)
    got = _netfit.sgd_epoch(F, stage, r, *mine, idx, 0.01, 0.1, 5.0)
    want = reference_sgd_epoch(F, stage, r, params, idx, 0.01, 0.1, 5.0)
    assert got == pytest.approx(want, rel=1e-12)
    for a, b in zip(mine, params, strict=True):
        assert np.allclose(a, b, rtol=1e-10, atol=1e-12)
    out = np.zeros(n)
    _netfit.forward(F, stage, *mine, np.arange(n), out)
    E, S, W, b, v, c = mine
    a = S[stage] + E[F].sum(axis=1)
    assert np.allclose(out, c[stage] + np.maximum(a @ W.T + b, 0) @ v)


def _data(n: int, seed: int) -> TrainData:
    boards = _random_positions(n, seed)
    return TrainData(np.array([b.player for b in boards], np.uint64),
                     np.array([b.opponent for b in boards], np.uint64),
                     np.zeros(n, np.float32), np.arange(n, dtype=np.int32), {})


def test_fit_network_finds_a_planted_network() -> None:
    """Labels = a base evaluation plus a planted network's output: the fit must explain
    most of what the base misses on held-out games; same seed, same network."""
    base = DEFAULT_SET.expand(_shared(15) / 10)
    teacher = _net(16, hidden=8)
    keep = np.zeros(DEFAULT_SET.n_features, bool)  # planted on the short diagonals only,
    for name in ("diag4", "diag5"):  # whose configurations 4,000 positions all show
        t = DEFAULT_SET.names.index(name)
        lo = DEFAULT_SET.base[t]
        keep[DEFAULT_SET.canon[lo:lo + 3 ** DEFAULT_SET.lengths[t]]] = True
    teacher = Network(np.where(keep[:, None], teacher.embed, 0), teacher.stage,
                      teacher.layer, teacher.bias, teacher.out, teacher.out_bias)
    data = _data(4000, 17)
    F, _, ply = features(data)
    base_v = _netfit.base_values(data.player, data.opponent, PATTERN, base)
    y = base_v + teacher.values(F, np.minimum(ply // 4, N_STAGES - 1))
    data = TrainData(data.player, data.opponent, y.astype(np.float32), data.game, {})
    net, rep = fit_network(data, base, hidden=16, epochs=6, lr=3e-3, l2=0.0, seed=1,
                           holdout=0.2)
    assert rep.n_train + rep.n_val == len(data) and rep.n_val == 800
    assert rep.val_mae[-1] < 0.5 * rep.base_val_mae, rep
    again, rep2 = fit_network(data, base, hidden=16, epochs=6, lr=3e-3, l2=0.0, seed=1,
                              holdout=0.2)
    assert rep2 == rep and np.array_equal(again.embed, net.embed)
    other, _ = fit_network(data, base, hidden=16, epochs=1, seed=2, holdout=0.2)
    assert not np.array_equal(other.layer, net.layer)


def test_fit_network_refuses_bad_input() -> None:
    data = _data(20, 18)
    base = DEFAULT_SET.expand(_shared(19))
    with pytest.raises(InvalidInputError, match=r"hidden=0 \(1..64\)"):
        fit_network(data, base, hidden=0)
    with pytest.raises(InvalidInputError, match="holdout=1"):
        fit_network(data, base, holdout=1)
    with pytest.raises(InvalidInputError, match="a pattern table without a network"):
        fit_network(data, _table(_shared(19), _net(20)))
    unlabelled = TrainData(data.player, data.opponent, data.target, data.game,
                           {"labels": "none"})
    with pytest.raises(InvalidInputError, match="fit_network: unlabelled positions"):
        fit_network(unlabelled, base)


def test_train_network_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    data = _data(300, 21)
    data = TrainData(data.player, data.opponent,
                     np.random.default_rng(0).normal(0, 5, 300).astype(np.float32),
                     data.game, {"format": "gameopt-train-1"})
    path, base, out = tmp_path / "d.npz", tmp_path / "base.npz", tmp_path / "n.npz"
    write_data(path, data)
    write_weights(base, _shared(22).reshape(N_STAGES, -1) / 10)
    assert main(["reversi", "train", "network", str(path), "--base", str(base), "--hidden",
                 "4", "--epochs", "2", "-q", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "held-out MAE of the base alone" in text and "wrote" in text
    net = read_network(out)
    assert net is not None and net.hidden == 4
    assert np.array_equal(read_weights(out)[0], read_weights(base)[0])
    assert read_weights(out)[1]["network"]["base"] == str(base)
    assert main(["reversi", "train", "network", str(path), "--hidden", "0", "-o",
                 str(tmp_path / "bad.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert "hidden=0" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "bad.npz").exists()


def test_search_refuses_a_pattern_table_of_another_length() -> None:
    """The kernels read the table without bounds checks: a pattern table is the stages,
    or the stages and a network section of the length its H says."""
    good = _table(_shared(23), _net(24, hidden=3))
    b = random_position(2, 40)
    assert search(b, Limit(depth=2), SearchParams(weights=good)).move is not None
    base = N_STAGES * DEFAULT_SET.kernel_stage_size
    for bad in (good[:-1], good[:base - 1], np.concatenate([good, [0]])):
        with pytest.raises(InvalidInputError, match=f"table of length {len(bad)}: expected"):
            search(b, Limit(depth=2), SearchParams(weights=bad))
    wrong_h = good.copy()
    wrong_h[base] = 4  # says 4 hidden units, holds 3
    with pytest.raises(InvalidInputError, match=f"H in 1..{MAX_HIDDEN} at entry {base}"):
        SearchParams(weights=wrong_h).weight_array()
