"""Branch and bound: brute-force agreement, kernel against the plain reference, pauses."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gameopt.core import Limit, Progress
from gameopt.deck import bnb
from gameopt.deck._bnb_kernel import BEST, DONE, TOP
from gameopt.deck.bnb import _data, _search_reference, solve_bnb
from gameopt.deck.build import build_deck, fitting_pieces, restrict
from gameopt.deck.problem import DeckProblem, deck_score
from gameopt.deck.verify import is_feasible
from gameopt.errors import InfeasibleError, InvalidInputError


def _problem(seed: int, n: int, size: int, *, rules: bool = True) -> DeckProblem:
    """Random scores (some negative), a binding cap; characters, attribute, must, leader."""
    rng = np.random.default_rng(seed)
    U = rng.random((n, n)) - (0.3 if seed % 2 else 0.0)
    cost = rng.integers(1, 10, n).astype(np.int32)
    cheapest = int(np.sort(cost)[:size].sum())
    cap = cheapest + int(rng.uniform(0.2, 0.9) * (cost.mean() * size - cheapest))
    if not rules:
        return DeckProblem(((U + U.T) / 2).astype(np.float32), size, cost=cost, cost_cap=cap)
    return DeckProblem(((U + U.T) / 2).astype(np.float32), size, cost=cost, cost_cap=cap,
                       character=rng.integers(0, n - 2, n).astype(np.int32),
                       char_limit=1 + seed % 2,
                       attribute=(rng.random(n) < 0.5).astype(np.int8),
                       attribute_min=size // 3, must=(int(rng.integers(n)),) if seed % 3 else (),
                       leader_scores=rng.random(n).astype(np.float32))


_NO_STOP = np.zeros(1, dtype=np.uint8)


def _clock() -> bnb._Clock:
    return bnb._Clock(Limit(clock="cpu").start(), None)


def _feasible(p: DeckProblem) -> list[tuple[int, ...]]:
    return [d for d in itertools.combinations(range(p.n), p.size) if is_feasible(p, d)]


@pytest.mark.parametrize("seed", range(16))
def test_bnb_proves_the_brute_force_optimum(seed: int) -> None:
    p = _problem(seed, 12 + seed % 5, 4 + seed % 3, rules=seed % 4 != 0)
    decks = _feasible(p)
    if not decks:
        with pytest.raises(InfeasibleError):
            solve_bnb(p)
        return
    worst = min(decks, key=lambda d: deck_score(p, d))  # a weak incumbent: the search works
    opt = max(deck_score(p, d) for d in decks)
    r = solve_bnb(p, hint=worst)
    assert r.proven and is_feasible(p, r.deck)
    assert r.score == pytest.approx(opt, abs=1e-9)
    assert opt <= r.bound <= opt + 1e-6
    assert solve_bnb(p).score == pytest.approx(opt, abs=1e-9)  # the VDS incumbent


@pytest.mark.parametrize("seed", range(8))
def test_kernel_matches_plain_reference_node_for_node(seed: int) -> None:
    p = _problem(50 + seed, 13, 5, rules=seed % 2 == 0)
    decks = _feasible(p)
    if not decks:
        return
    worst = min(decks, key=lambda d: deck_score(p, d))
    r = solve_bnb(p, hint=worst, table=False)
    # solve_bnb searches the pieces that fit some deck under the cap: so does the reference
    keep = fitting_pieces(p)
    assert r.stats["fitting"] == len(keep)
    q = restrict(p, keep)
    best, deck, nodes = _search_reference(_data(q), q.size, deck_score(p, worst))
    assert r.stats["nodes"] == nodes
    assert best == pytest.approx(r.score, abs=1e-9)
    if deck:
        assert sorted(int(keep[i]) for i in _data(q).order[deck]) == list(r.deck)
    d = _data(p)
    # with a Russian-doll table (and a cost price): the same tree in both
    mu = 0.05 * seed
    V, _ = bnb._table(d, p.size, _clock(), 60, _NO_STOP, mu, max_r=p.size - 1)
    where = np.empty(p.n, dtype=np.int64)
    where[d.order] = np.arange(p.n)
    inc = np.sort(where[list(worst)]).astype(np.int64)
    kn, st, fs, _ = bnb._run(d, p.size, inc, deck_score(p, worst), _clock(), 60, V, _NO_STOP, mu)
    best2, _, nodes2 = _search_reference(d, p.size, deck_score(p, worst), V, mu)
    assert st[TOP] == DONE and kn == nodes2
    assert best2 == pytest.approx(fs[BEST], abs=1e-9) == pytest.approx(best, abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_russian_doll_table_equals_brute_force(seed: int) -> None:
    p = _problem(70 + seed, 11, 5, rules=False)
    d = _data(p)
    mu = 0.1 * seed
    V, _ = bnb._table(d, p.size, _clock(), 60, _NO_STOP, mu, max_r=p.size - 1)
    R = d.R
    for q in range(p.n + 1):
        for r in range(p.size):
            sets = list(itertools.combinations(range(q, p.n), r))
            if not sets:
                assert V[q, r] == -np.inf
                continue
            want = max(sum(float(R[a, b]) for a, b in itertools.combinations(T, 2))
                       - mu * sum(int(d.cost[t]) for t in T) for T in sets)
            assert want <= V[q, r] <= want + 1e-9, (q, r)
        # never built, the last column stays unknown where such sets exist
        assert V[q, p.size] == (np.inf if p.n - q >= p.size else -np.inf)


def test_pausing_every_few_nodes_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    p = _problem(3, 16, 5)
    whole = solve_bnb(p, hint=min(_feasible(p), key=lambda d: deck_score(p, d)))
    monkeypatch.setattr(bnb, "_CHUNK", 3)
    paused = solve_bnb(p, hint=min(_feasible(p), key=lambda d: deck_score(p, d)))
    assert (paused.deck, paused.score, paused.stats['nodes']) == (whole.deck, whole.score,
                                                                   whole.stats['nodes'])


def test_time_out_gives_a_valid_bound() -> None:
    p = _problem(5, 18, 6, rules=False)
    opt = max(deck_score(p, d) for d in _feasible(p))
    worst = min(_feasible(p), key=lambda d: deck_score(p, d))
    # the time is up before the first node: no node, the cheap bound
    r = solve_bnb(p, hint=worst, limit=Limit(time=1e-9, clock="cpu"), table=False)
    assert not r.proven and r.stats["nodes"] == 0 and r.stats["stop"] == "time"
    assert r.bound >= opt - 1e-9 and r.gap >= 0
    r = solve_bnb(p, limit=Limit(time=1e-9, clock="cpu"))  # the VDS hint counts too
    assert not r.proven and r.stats["nodes"] == 0
    assert r.bound >= opt - 1e-9 and r.score <= opt + 1e-9


def test_time_limit_stops_inside_a_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel polls the watchdog's flag: a chunk longer than the whole search no
    longer runs to the end past the deadline (it used to: checks between chunks only)."""
    rng = np.random.default_rng(1)
    U = rng.random((70, 70))
    p = DeckProblem(((U + U.T) / 2).astype(np.float32), 14)
    monkeypatch.setattr(bnb, "_CHUNK", 10**15)
    hint = build_deck(p, "vds").deck  # the kernels loaded before the clock starts
    r = solve_bnb(p, hint=hint, limit=Limit(time=0.5, clock="cpu"), table=False)
    assert not r.proven and r.stats["stop"] == "time" and r.stats["nodes"] > 0
    assert r.bound is not None and r.bound >= r.score


def test_bad_arguments() -> None:
    p = _problem(4, 10, 4)
    with pytest.raises(InvalidInputError, match="time limit 0: expected seconds > 0"):
        solve_bnb(p, limit=Limit(time=0))
    with pytest.raises(InvalidInputError, match="hint breaks the rules"):
        solve_bnb(p, hint=[0, 1])


def test_progress_and_result_shape() -> None:
    """Each chunk is reported; seconds are CPU by default, the hint's share apart."""
    p = _problem(5, 18, 6, rules=False)
    seen: list[Progress] = []
    r = solve_bnb(p, progress=seen.append)
    assert r.proven and r.clock == "cpu" and r.method == "bnb"
    assert r.bound is not None and r.gap is not None and r.gap >= 0
    assert 0 <= r.stats["hint_seconds"] <= r.seconds
    assert seen and seen[-1].task == "bnb" and seen[-1].best == pytest.approx(r.score)
    wall = solve_bnb(p, limit=Limit(time=60, clock="wall"))
    assert wall.clock == "wall" and wall.stats["nodes"] == r.stats["nodes"]


def test_stop_flag_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    from gameopt.core import StopFlag

    p = _problem(5, 18, 6, rules=False)
    flag = StopFlag()
    flag.set()
    monkeypatch.setattr(bnb, "_CHUNK", 2)
    r = solve_bnb(p, limit=Limit(stop=flag))  # no node, no table
    assert not r.proven and r.stats["stop"] == "requested" and r.stats["nodes"] == 0
