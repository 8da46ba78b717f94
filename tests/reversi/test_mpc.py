"""Multi-ProbCut: the numba search against the plain reference, the table, the fitting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi import _midgame, _tt
from gameopt.reversi import _params as pp
from gameopt.reversi._eval import HEURISTIC, HEURISTIC_WEIGHTS, evaluate
from gameopt.reversi.board import Board
from gameopt.reversi.match import Player
from gameopt.reversi.mpcfit import fit_mpc
from gameopt.reversi.probcut import (
    MAX_DEPTH,
    MpcTable,
    read_mpc,
    shallow_depth,
    shallow_depths,
    shipped_mpc,
    write_mpc,
)
from gameopt.reversi.reference import alphabeta_mpc
from gameopt.reversi.search import SearchParams, search, solve
from tests.reversi.positions import random_position

W = HEURISTIC_WEIGHTS


def _eval(P: int, O: int) -> int:
    return int(evaluate(np.uint64(P), np.uint64(O), HEURISTIC, W))


def _table(a: float = 1.0, b: float = 20.0, sigma: float = 150.0) -> MpcTable:
    t = np.zeros((61, MAX_DEPTH + 1, 4))
    for d in range(3, MAX_DEPTH + 1):
        t[:, d] = (shallow_depth(d), a, b, sigma)
    return MpcTable(t)


def _kernel(b: Board, depth: int, alpha: int, beta: int, params: SearchParams
            ) -> tuple[int, int]:
    st = np.zeros(pp.N_ST, dtype=np.int64)
    keys, data = _tt.new_table(12)
    par = params.array()
    kernel = (_midgame.search, _midgame.search_mpc, _midgame.search_mpc2)[int(par[pp.MPC])]
    v = kernel(np.uint64(b.player), np.uint64(b.opponent), depth, alpha, beta, st,
               np.zeros(1, np.uint8), par, W, keys, data)
    return int(v), int(st[pp.NODES])


def _rows(table: MpcTable) -> dict[tuple[int, int], tuple[int, ...]]:
    block = table.kernel_block().reshape(61, MAX_DEPTH + 1, pp.MPC_FIELDS)
    return {(e, d): tuple(int(x) for x in block[e, d])
            for e in range(61) for d in range(MAX_DEPTH + 1) if block[e, d].any()}


@pytest.mark.parametrize("seed", range(6))
def test_kernel_matches_reference_alphabeta_with_mpc(seed: int) -> None:
    """Square order, no table, no PVS: the kernel's Multi-ProbCut search is exactly the
    reference's, for several windows; and the cuts change values somewhere."""
    table = _table()
    params = SearchParams(pvs=False, use_tt=False, sort_height=60, shallow_order=0,
                          eval_kind=HEURISTIC, mpc=True, mpc_t=1.0, mpc_table=table)
    plain = SearchParams(pvs=False, use_tt=False, sort_height=60, shallow_order=0,
                         eval_kind=HEURISTIC)
    rows = _rows(table)
    b = random_position(seed, 40 - seed)
    differs = 0
    for alpha, beta in [(-_midgame.INF, _midgame.INF), (-50, 50), (0, 1), (-300, -299)]:
        got, _ = _kernel(b, 5, alpha, beta, params)
        ref = alphabeta_mpc(b.player, b.opponent, 5, alpha, beta, _eval, rows, 100)
        assert got == ref, (seed, alpha, beta)
        base, _ = _kernel(b, 5, alpha, beta, plain)
        assert base == alphabeta_mpc(b.player, b.opponent, 5, alpha, beta, _eval)
        differs += base != got
    if seed == 0:
        assert differs > 0, "the test table should make some cut change a value"


@pytest.mark.parametrize("seed", range(4))
def test_nested_kernel_matches_reference(seed: int) -> None:
    """Nested Multi-ProbCut (the cut tests selective too): the kernel's search is exactly
    the reference's with ``nest=2``, and nesting changes values or nodes somewhere."""
    table = _table()
    flat = dict(pvs=False, use_tt=False, sort_height=60, shallow_order=0,
                eval_kind=HEURISTIC, mpc=True, mpc_t=1.0, mpc_table=table)
    nested = SearchParams(**flat, mpc_nest=2)  # type: ignore[arg-type]
    once = SearchParams(**flat)  # type: ignore[arg-type]
    rows = _rows(table)
    b = random_position(seed, 40 - seed)
    differs = 0
    for alpha, beta in [(-_midgame.INF, _midgame.INF), (-50, 50), (0, 1), (-300, -299)]:
        got, nodes = _kernel(b, 6, alpha, beta, nested)
        assert got == alphabeta_mpc(b.player, b.opponent, 6, alpha, beta, _eval, rows, 100,
                                    nest=2), (seed, alpha, beta)
        differs += (got, nodes) != _kernel(b, 6, alpha, beta, once)
    assert differs > 0


def test_mpc_nest_is_checked_and_reaches_the_player() -> None:
    with pytest.raises(InvalidInputError, match="mpc_nest 3"):
        SearchParams(mpc_nest=3)
    assert SearchParams(mpc=True, mpc_nest=2).array()[pp.MPC] == 2
    assert SearchParams(mpc=False, mpc_nest=2).array()[pp.MPC] == 0
    assert Player.from_spec("time=0.1,mpcnest=2", "a").params.mpc_nest == 2
    assert Player.from_spec("time=0.1", "a").params.mpc_nest == 1
    with pytest.raises(InvalidInputError, match="mpcnest=3"):
        Player.from_spec("time=0.1,mpcnest=3", "a")


def test_huge_sigma_never_cuts() -> None:
    """With a confidence no shallow search can meet, the selective search's value is the
    plain one (the cut tests only add nodes)."""
    b = random_position(3, 36)
    sure = SearchParams(eval_kind=HEURISTIC, mpc=True, mpc_table=_table(sigma=1e5))
    plain = SearchParams(eval_kind=HEURISTIC)
    assert _kernel(b, 6, -_midgame.INF, _midgame.INF, sure)[0] == \
        _kernel(b, 6, -_midgame.INF, _midgame.INF, plain)[0]


def test_mpc_by_default_when_thinking_by_time_not_at_a_fixed_depth() -> None:
    """``mpc=None`` (the default) is Multi-ProbCut exactly when the limit is a time
    without a depth: the same search, node for node, as ``mpc=True`` then, and as
    ``mpc=False`` at a fixed depth."""
    from gameopt.core import Limit

    b = random_position(3, 44)
    assert SearchParams().mpc is None
    # by time (a node limit stops both at the same node; 600 s is never reached)
    by_time = Limit(time=600.0, nodes=300_000)
    auto, on, off = (search(b, by_time, SearchParams(mpc=m, tt_bits=16))
                     for m in (None, True, False))
    assert (auto.move, auto.score, auto.depth, auto.nodes) == \
        (on.move, on.score, on.depth, on.nodes)
    assert auto.depth > off.depth  # the selective search gets deeper on the same nodes
    # at a fixed depth, with or without a time
    for lim in (Limit(depth=6), Limit(depth=6, time=600.0)):
        auto, on, off = (search(b, lim, SearchParams(mpc=m, tt_bits=16))
                         for m in (None, True, False))
        assert (auto.score, auto.nodes) == (off.score, off.nodes) != (on.score, on.nodes)


def test_mpc_search_uses_fewer_nodes_and_solve_stays_exact() -> None:
    b = random_position(5, 40)
    sel = SearchParams(eval_kind=HEURISTIC, mpc=True, mpc_table=_table(b=0, sigma=100))
    full = SearchParams(eval_kind=HEURISTIC)
    from gameopt.core import Limit

    r_sel = search(b, Limit(depth=7), sel)
    r_full = search(b, Limit(depth=7), full)
    assert r_sel.nodes < r_full.nodes
    end = random_position(7, 14)
    assert solve(end, params=sel).score == solve(end, params=full).score


def test_table_file_round_trip_and_errors(tmp_path) -> None:
    t = _table()
    write_mpc(tmp_path / "m.npz", t)
    back = read_mpc(tmp_path / "m.npz")
    assert np.array_equal(back.table, t.table)
    with pytest.raises(InvalidInputError, match="shape"):
        MpcTable(np.zeros((3, 4)))
    bad = t.table.copy()
    bad[20, 5, 1] = -1.0
    with pytest.raises(InvalidInputError, match="slopes"):
        MpcTable(bad)
    (tmp_path / "x.npz").write_bytes(b"not a file")
    with pytest.raises(InvalidInputError, match="x.npz"):
        read_mpc(tmp_path / "x.npz")
    with pytest.raises(InvalidInputError, match="mpc_t"):
        SearchParams(mpc_t=-1)


def _samples(rng: np.random.Generator, n: int, depth: int, empties: tuple[int, int]
             ) -> tuple[np.ndarray, np.ndarray]:
    """n positions with empties in the range and one random value at every depth 1..depth
    (the tests then make some depths depend on others)."""
    e = rng.integers(*empties, size=n)
    values = np.zeros((n, depth), dtype=np.int64)
    values[:, :] = rng.normal(0, 800, size=(n, 1)).round()
    return e, values


def test_fit_recovers_a_known_regression() -> None:
    rng = np.random.default_rng(1)
    n = 400
    empties, values = _samples(rng, n, 6, (20, 40))
    # deep value = 0.9 * shallow + 30 + noise(sigma 100) for the pair (6, 2)
    values[:, 5] = (0.9 * values[:, 1] + 30 + rng.normal(0, 100, size=n)).round()
    table = fit_mpc(empties, values, bucket=10, min_samples=30)
    ds, a, b, sigma = table.table[30, 6, :4]
    assert ds == 2
    assert a == pytest.approx(0.9, abs=0.05)
    assert b == pytest.approx(30, abs=25)
    assert sigma == pytest.approx(100, rel=0.2)
    assert table.table[30, 2, 0] == 0  # below depth 3: no cut
    with pytest.raises(InvalidInputError):
        fit_mpc(empties[:3], values)


def test_shipped_table_is_valid() -> None:
    t = shipped_mpc()
    if t is None:
        pytest.skip("no shipped MPC table in this checkout")
    rows = t.rows()
    assert rows and all(d >= 3 and 0 < ds < d for _, d, ds, _, _, _ in rows)


def test_solve_with_mpc_on_keeps_the_ffo_answers(reversi_data) -> None:  # type: ignore[no-untyped-def]
    """Multi-ProbCut only orders the root of an exact solve: FFO scores and moves stay."""
    from gameopt.reversi.files import read_obf

    entries = [e for e in read_obf(reversi_data / "fforum-1-19.obf")
               if e.best_score is not None and e.board.empties <= 18][:8]
    assert entries
    params = SearchParams(mpc=True)
    for e in entries:
        r = solve(e.board, params=params)
        assert r.score == e.best_score and r.move in e.best_moves, e.line


def test_samples_go_on_selectively_past_the_full_width_depth(tmp_path: Path) -> None:
    """``selective_depth``: values on to that depth (``selective_depth`` = ``max_depth``:
    the plain samples, as before), and ``train mpc`` fits rows there; bad depths are
    refused (exit 2 from the command, no file)."""
    from gameopt.cli.main import main
    from gameopt.reversi.mpcfit import mpc_samples

    e, v = mpc_samples(2, max_depth=3, per_game=2, selective_depth=5, workers=1)
    assert v.shape == (len(e), 5) and len(e) >= 2 and (e > 6).all()
    e0, v0 = mpc_samples(2, max_depth=3, per_game=2, workers=1)
    assert v0.shape == (len(e0), 3)
    same, _ = mpc_samples(2, max_depth=3, per_game=2, selective_depth=3, workers=1)
    assert (same == e0).all() and (v0 == mpc_samples(2, max_depth=3, per_game=2,
                                                      selective_depth=3, workers=1)[1]).all()
    with pytest.raises(InvalidInputError, match="selective_depth=2"):
        mpc_samples(2, max_depth=3, selective_depth=2)
    with pytest.raises(InvalidInputError, match="selective_depth=17"):
        mpc_samples(2, max_depth=3, selective_depth=17)
    out = tmp_path / "m.npz"
    assert main(["reversi", "train", "mpc", "--games", "40", "--per-game", "4",
                 "--max-depth", "3", "--selective-depth", "5", "--workers", "1", "-q",
                 "-o", str(out)]) == 0
    t = read_mpc(out)
    assert t.meta["max_depth"] == 5 and t.meta["full_width_depth"] == 3
    assert t.meta["selective_t"] == 1.5  # the confidence the selective samples were cut at
    assert any(d == 5 for _, d, *_ in t.rows())
    assert main(["reversi", "train", "mpc", "--games", "1", "--max-depth", "3",
                 "--selective-depth", "2", "-o", str(tmp_path / "x.npz")]) == 2
    assert not (tmp_path / "x.npz").exists()


def test_samples_use_the_table_they_are_given(tmp_path: Path) -> None:
    """``table``: the selective searches use that file. The shipped table as a file gives
    the shipped samples; a table that never cuts makes the selective values the
    full-width ones; a table without selective depths, or a file that is no table, is
    refused (exit 2 from ``train mpc --table``, no file written)."""
    from gameopt.cli.main import main
    from gameopt.reversi.mpcfit import mpc_samples

    shipped = shipped_mpc()
    if shipped is None:
        pytest.skip("no shipped MPC table in this checkout")
    copy = tmp_path / "shipped.npz"
    write_mpc(copy, shipped)
    e, v = mpc_samples(2, max_depth=3, per_game=2, selective_depth=5, workers=1)
    e1, v1 = mpc_samples(2, max_depth=3, per_game=2, selective_depth=5, workers=1,
                         table=copy)
    assert (e == e1).all() and (v == v1).all()
    never = tmp_path / "never.npz"
    write_mpc(never, MpcTable(np.zeros_like(shipped.table), {}))
    e2, v2 = mpc_samples(2, max_depth=3, per_game=2, selective_depth=5, workers=1,
                         table=never)
    e3, v3 = mpc_samples(2, max_depth=5, per_game=2, workers=1)
    assert (e2 == e3).all() and (v2 == v3).all()
    with pytest.raises(InvalidInputError, match="selective_depth above max_depth"):
        mpc_samples(2, max_depth=3, table=copy)
    bad = tmp_path / "bad.npz"
    bad.write_text("not a table")
    with pytest.raises(InvalidInputError, match="bad.npz"):
        mpc_samples(2, max_depth=3, selective_depth=5, table=bad)
    for extra in (["--table", str(bad)], ["--table", str(tmp_path / "none.npz")]):
        assert main(["reversi", "train", "mpc", "--games", "1", "--max-depth", "3",
                     "--selective-depth", "4", "-q", "-o", str(tmp_path / "x.npz"),
                     *extra]) == 2
        assert not (tmp_path / "x.npz").exists()
    out = tmp_path / "m.npz"
    assert main(["reversi", "train", "mpc", "--games", "2", "--per-game", "2",
                 "--max-depth", "3", "--selective-depth", "4", "--workers", "1", "-q",
                 "--table", str(never), "-o", str(out)]) == 0
    assert read_mpc(out).meta["selective_table"] == "never.npz"


def test_samples_cut_at_the_fitting_confidence_not_plays(tmp_path: Path) -> None:
    """The selective searches of the samples cut at ``selective_t``, by default
    ``FIT_MPC_T`` = 1.5, the confidence the shipped table was fitted at, and not at play's
    default ``SearchParams.mpc_t`` (1.8): so the README's commands remake the shipped
    table. A loose table (a = 1, b = 0, sigma one disc at depths 3..7) makes the
    confidence matter on a few positions; a confidence outside 0..10 is refused."""
    from gameopt.reversi.mpcfit import FIT_MPC_T, mpc_samples

    assert FIT_MPC_T == 1.5 and SearchParams().mpc_t != FIT_MPC_T
    shipped = shipped_mpc()
    if shipped is None:
        pytest.skip("no shipped MPC table in this checkout")
    loose = np.zeros_like(shipped.table)
    for d in range(3, 8):
        loose[:, d, 0:4] = (shallow_depth(d), 1.0, 0.0, 100.0)
    path = tmp_path / "loose.npz"
    write_mpc(path, MpcTable(loose, {}))

    def values(**kw: float) -> np.ndarray:
        e, v = mpc_samples(3, max_depth=3, per_game=4, selective_depth=6, workers=1,
                           table=path, **kw)
        assert len(e) == 12 and v.shape == (12, 6)
        return v

    default = values()
    assert np.array_equal(default, values(selective_t=FIT_MPC_T))
    assert not np.array_equal(default, values(selective_t=SearchParams().mpc_t))
    bold, never = values(selective_t=0.0), values(selective_t=10.0)
    assert not np.array_equal(bold, never)
    assert np.array_equal(bold[:, :3], never[:, :3])  # the full-width depths do not cut
    for bad in (-0.5, 10.5):
        with pytest.raises(InvalidInputError, match=f"selective_t={bad}"):
            mpc_samples(1, max_depth=3, selective_depth=4, selective_t=bad)


def test_samples_use_the_weights_they_are_given(tmp_path: Path) -> None:
    """``eval_file``: the games and searches use those weights. A copy of the shipped
    weights gives the shipped samples; other weights give other values; a file that is
    no weights file is refused before any game (exit 2 from ``train mpc --eval``, no
    file written), and the meta names the weights."""
    from gameopt.cli.main import main
    from gameopt.reversi.mpcfit import mpc_samples
    from gameopt.reversi.weights import SHIPPED, read_weights, write_weights

    w, meta = read_weights(SHIPPED)
    copy, half = tmp_path / "copy.npz", tmp_path / "half.npz"
    write_weights(copy, w, meta)
    write_weights(half, w * 0.5, meta)
    e, v = mpc_samples(2, max_depth=4, per_game=2, workers=1)
    e1, v1 = mpc_samples(2, max_depth=4, per_game=2, workers=1, eval_file=copy)
    assert (e == e1).all() and (v == v1).all()
    _, v2 = mpc_samples(2, max_depth=4, per_game=2, workers=1, eval_file=half)
    assert not np.array_equal(v, v2)
    bad = tmp_path / "bad.npz"
    bad.write_text("not weights")
    with pytest.raises(InvalidInputError, match="bad.npz"):
        mpc_samples(2, max_depth=3, eval_file=bad)
    for name in ("bad.npz", "none.npz"):
        assert main(["reversi", "train", "mpc", "--games", "1", "--max-depth", "3", "-q",
                     "--eval", str(tmp_path / name), "-o", str(tmp_path / "x.npz")]) == 2
        assert not (tmp_path / "x.npz").exists()
    out = tmp_path / "m.npz"
    assert main(["reversi", "train", "mpc", "--games", "2", "--per-game", "2",
                 "--max-depth", "3", "--workers", "1", "-q", "--eval", str(half),
                 "-o", str(out)]) == 0
    assert read_mpc(out).meta["eval"] == "half.npz"


def test_a_player_searches_with_the_table_it_is_given(tmp_path: Path) -> None:
    """``mpctable=FILE`` in a player spec reaches the search, with ``eval=FILE`` too: a
    table that never cuts searches as Multi-ProbCut off does; the shipped one cuts."""
    from gameopt.core import Limit
    from gameopt.reversi.weights import SHIPPED

    shipped = shipped_mpc()
    if shipped is None:
        pytest.skip("no shipped MPC table in this checkout")
    never = tmp_path / "never.npz"
    write_mpc(never, MpcTable(np.full_like(shipped.table, 0.0), {}))
    b = random_position(5, 40)
    off = search(b, Limit(depth=7), params=Player.from_spec(
        f"eval={SHIPPED},mpc=0", "off").search_params())
    for spec in (f"mpc=1,mpctable={never}", f"eval={SHIPPED},mpc=1,mpctable={never}"):
        p = Player.from_spec(spec, "p").search_params()
        assert p.mpc_table is not None and not p.mpc_table.table.any()
        r = search(b, Limit(depth=7), params=p)
        assert (r.move, r.score, r.nodes) == (off.move, off.score, off.nodes)
    cut = search(b, Limit(depth=7), params=Player.from_spec(
        f"eval={SHIPPED},mpc=1", "on").search_params())
    assert cut.nodes < off.nodes
    with pytest.raises(InvalidInputError, match=r"player p: mpctable: .*none\.npz"):
        Player.from_spec(f"mpctable={tmp_path / 'none.npz'}", "p")


def _two_try_table(first_sigma: float = 120.0) -> MpcTable:
    """Every depth from 5 on: a first try two plies shallower than the usual pair (from
    depth 5 on, where there is one), then the usual pair."""
    t = np.zeros((61, MAX_DEPTH + 1, pp.MPC_FIELDS))
    for d in range(3, MAX_DEPTH + 1):
        ds = shallow_depths(d, 2, first_from=5)
        for i, s in enumerate(ds):
            t[:, d, 4 * i:4 * i + 4] = (s, 1.0, 20.0, first_sigma if len(ds) > 1 and i == 0
                                        else 150.0)
    return MpcTable(t)


def test_shallow_depths_two_tries_are_shallower_first() -> None:
    assert [shallow_depths(d) for d in (2, 3, 10, 15)] == [(), (1,), (4,), (7,)]
    assert [shallow_depths(d, 2) for d in (9, 10, 11, 14, 15, 16)] == \
        [(5,), (2, 4), (3, 5), (4, 6), (5, 7), (6, 8)]
    assert all(shallow_depths(d, 2)[-1] == shallow_depth(d) for d in range(3, 17))
    assert shallow_depths(7, 2, first_from=5) == (1, 3)
    assert shallow_depths(6, 2, first_from=5) == (2,)  # no try of depth 0


@pytest.mark.parametrize("seed", range(4))
def test_kernel_matches_reference_with_two_tries(seed: int) -> None:
    """Two tries per row: the kernel's search is exactly the reference's (which makes the
    tries in the row's order), and the first try changes values or nodes somewhere."""
    table = _two_try_table()
    assert table.tries == 2
    params = SearchParams(pvs=False, use_tt=False, sort_height=60, shallow_order=0,
                          eval_kind=HEURISTIC, mpc=True, mpc_t=1.0, mpc_table=table)
    one = SearchParams(pvs=False, use_tt=False, sort_height=60, shallow_order=0,
                       eval_kind=HEURISTIC, mpc=True, mpc_t=1.0, mpc_table=_table())
    rows = _rows(table)
    assert any(len(r) == 8 and r[4] > 0 for r in rows.values())
    b = random_position(seed, 40 - seed)
    differs = 0
    for alpha, beta in [(-_midgame.INF, _midgame.INF), (-50, 50), (0, 1), (-300, -299)]:
        got, nodes = _kernel(b, 6, alpha, beta, params)
        assert got == alphabeta_mpc(b.player, b.opponent, 6, alpha, beta, _eval, rows,
                                    100), (seed, alpha, beta)
        differs += (got, nodes) != _kernel(b, 6, alpha, beta, one)
    assert differs > 0


def test_a_first_try_beyond_the_range_is_skipped() -> None:
    """A first try whose bounds lie beyond +-64 discs is not searched: the two-try search
    is the one-try search, value and nodes, while a first try in range changes them."""
    b = random_position(2, 40)
    one = SearchParams(eval_kind=HEURISTIC, mpc=True, mpc_table=_table())
    never_first = SearchParams(eval_kind=HEURISTIC, mpc=True,
                               mpc_table=_two_try_table(first_sigma=1e5))
    first = SearchParams(eval_kind=HEURISTIC, mpc=True, mpc_table=_two_try_table())
    full = -_midgame.INF, _midgame.INF
    assert _kernel(b, 8, *full, never_first) == _kernel(b, 8, *full, one)
    assert _kernel(b, 8, *full, first) != _kernel(b, 8, *full, one)


def test_table_formats_one_and_two_tries(tmp_path: Path) -> None:
    """A one-try table is written as before (format 1, 61 x 17 x 4, the shipped file's
    shape); a two-try table as format 2; both read back equal; a file whose shape does not
    fit its format is refused, naming it."""
    import json

    from gameopt.reversi.probcut import MPC_FORMAT, MPC_FORMAT_1

    one, two = _table(), _two_try_table()
    assert one.table.shape == (61, MAX_DEPTH + 1, 8) and one.tries == 1
    for name, t, fmt, width in (("one", one, MPC_FORMAT_1, 4), ("two", two, MPC_FORMAT, 8)):
        write_mpc(tmp_path / f"{name}.npz", t)
        with np.load(tmp_path / f"{name}.npz") as z:
            assert json.loads(str(z["meta"]))["format"] == fmt
            assert z["table"].shape == (61, MAX_DEPTH + 1, width)
        assert np.array_equal(read_mpc(tmp_path / f"{name}.npz").table, t.table)
    np.savez(tmp_path / "bad.npz", table=one.table[..., :4],
             meta=np.array(json.dumps({"format": MPC_FORMAT})))
    with pytest.raises(InvalidInputError, match=r"bad\.npz: .*shape"):
        read_mpc(tmp_path / "bad.npz")
    np.savez(tmp_path / "other.npz", table=one.table[..., :4],
             meta=np.array(json.dumps({"format": "gameopt-mpc-9"})))
    with pytest.raises(InvalidInputError, match=r"other\.npz: format 'gameopt-mpc-9'"):
        read_mpc(tmp_path / "other.npz")


def test_fit_two_tries_recovers_both_regressions() -> None:
    rng = np.random.default_rng(2)
    n = 500
    empties, values = _samples(rng, n, 10, (25, 45))
    values[:, 1] += rng.normal(0, 150, size=n).round().astype(np.int64)  # depth 2: noisier
    values[:, 3] += rng.normal(0, 50, size=n).round().astype(np.int64)
    values[:, 9] = (1.1 * values[:, 3] - 40 + rng.normal(0, 60, size=n)).round()
    table = fit_mpc(empties, values, bucket=10, tries=2)
    first, second = table.table[35, 10, :4], table.table[35, 10, 4:]
    assert (first[0], second[0]) == (2, 4)
    assert first[3] > second[3] > 0  # the shallower try is the less sure one
    assert second[1] == pytest.approx(1.1, abs=0.05)
    assert table.meta["tries"] == 2
    plain = fit_mpc(empties, values, bucket=10)
    assert np.array_equal(plain.table[:, :, :4][:, :10], table.table[:, :, :4][:, :10])
    assert not plain.table[..., 4:].any()
    with pytest.raises(InvalidInputError, match="tries=3"):
        fit_mpc(empties, values, tries=3)


def test_train_mpc_saves_samples_and_refits_from_them(tmp_path: Path) -> None:
    """``--save-samples`` then ``--from-samples``: the same table as fitting on the search
    (one try), a two-try table from the same values without searching; a samples file
    that is none, or has bad values, is one line and exit 2, with no table written."""
    import json

    from gameopt.cli.main import main
    from gameopt.reversi.mpcfit import read_mpc_samples

    s, direct = tmp_path / "s.npz", tmp_path / "direct.npz"
    assert main(["reversi", "train", "mpc", "--games", "30", "--per-game", "4",
                 "--max-depth", "5", "--workers", "1", "-q", "--save-samples", str(s),
                 "-o", str(direct)]) == 0
    e, v, meta = read_mpc_samples(s)
    assert v.shape == (len(e), 5) and meta["games"] == 30
    again, two = tmp_path / "again.npz", tmp_path / "two.npz"
    assert main(["reversi", "train", "mpc", "--from-samples", str(s), "-o", str(again)]) == 0
    assert np.array_equal(read_mpc(again).table, read_mpc(direct).table)
    assert read_mpc(again).meta["samples_file"] == "s.npz"
    assert main(["reversi", "train", "mpc", "--from-samples", str(s), "--tries", "2",
                 "--first-from", "5", "-o", str(two)]) == 0
    assert read_mpc(two).tries == 2
    bad = tmp_path / "bad.npz"
    huge = v.copy()
    huge[0, 0] = 10**7
    np.savez(bad, empties=e, values=huge,
             meta=np.array(json.dumps({"format": "gameopt-mpc-samples-1"})))
    for f in (bad, tmp_path / "none.npz", direct):
        out = tmp_path / "x.npz"
        assert main(["reversi", "train", "mpc", "--from-samples", str(f), "-o",
                     str(out)]) == 2
        assert not out.exists()


def test_fit_with_named_pairs_checks_those_depths_there() -> None:
    """``pairs`` (``train mpc --shallow``) fits the named depths on their named shallow
    depth and leaves every other row as the rule makes it."""
    rng = np.random.default_rng(3)
    n = 500
    empties, values = _samples(rng, n, 10, (25, 45))
    values[:, 8] = (0.8 * values[:, 2] + 50 + rng.normal(0, 80, size=n)).round()
    plain = fit_mpc(empties, values, bucket=10)
    named = fit_mpc(empties, values, bucket=10, pairs={9: 3, 5: 1})
    assert (named.table[35, 9, 0], named.table[35, 5, 0]) == (3, 1)
    assert plain.table[35, 9, 0] == 5
    assert named.table[35, 9, 1] == pytest.approx(0.8, abs=0.05)
    assert named.table[35, 9, 3] == pytest.approx(80, rel=0.2)
    others = [d for d in range(17) if d not in (5, 9)]
    assert np.array_equal(named.table[:, others], plain.table[:, others])
    assert named.meta["pairs"] == {"5": 1, "9": 3}
    assert shallow_depths(9, pairs={9: 3}) == (3,) and shallow_depths(9) == (5,)
    for bad in ({9: 9}, {9: 0}, {2: 1}, {17: 3}):
        with pytest.raises(InvalidInputError, match="pair"):
            fit_mpc(empties, values, pairs=bad)


def test_train_mpc_shallow_option(tmp_path: Path) -> None:
    """``train mpc --shallow 5:1`` refits from samples with depth 5 checked at 1; a bad
    option is one line and exit 2 before any search, with no table written."""
    from gameopt.cli.main import main

    s, plain, named = tmp_path / "s.npz", tmp_path / "plain.npz", tmp_path / "named.npz"
    assert main(["reversi", "train", "mpc", "--games", "40", "--per-game", "4",
                 "--max-depth", "5", "--workers", "1", "-q", "--save-samples", str(s),
                 "-o", str(plain)]) == 0
    assert main(["reversi", "train", "mpc", "--from-samples", str(s), "--shallow", "5:1",
                 "-o", str(named)]) == 0
    a, b = read_mpc(plain).table, read_mpc(named).table
    used = b[:, 5, 0] > 0
    assert used.any() and (b[used, 5, 0] == 1).all() and (a[used, 5, 0] == 3).all()
    assert np.array_equal(a[:, :5], b[:, :5])
    for bad in ("5", "5:x", "5:5", "1:0,9:3"):
        out = tmp_path / "x.npz"
        r = subprocess.run([sys.executable, "-m", "gameopt.cli.main", "reversi", "train",
                            "mpc", "--games", "1000", "--shallow", bad, "-o", str(out)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and "--shallow" in r.stderr, (bad, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and not out.exists()
