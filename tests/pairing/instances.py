"""Instances shared by the pairing engine's tests: random cost matrices, Swiss events
played out by the engine itself, and small helpers."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gameopt.errors import InfeasibleError
from gameopt.pairing.matching import matching_cost, min_weight_perfect_matching
from gameopt.pairing.model import BYE, Colour, Pairing, PlayerState, RoundInput
from gameopt.pairing.pairer import pair_round
from gameopt.pairing.penalties import PairCosts, PenaltyParams

# --------------------------------------------------------------------------------------
# Instances
# --------------------------------------------------------------------------------------


def random_instance(rng: np.random.Generator, n: int, *, p_forbid: float = 0.0,
                    low: int = -20, high: int = 100,
                    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Symmetric random integer costs and a random symmetric set of allowed pairs."""
    c = rng.integers(low, high, (n, n))
    c = np.triu(c, 1)
    c = c + c.T
    a = np.triu(rng.random((n, n)) >= p_forbid, 1)
    a = a | a.T
    return c.astype(np.int64), a


def play_event(n: int, rounds: int, seed: int, *, method: str = "naive",
               params: PenaltyParams | None = None, countries: int = 5,
               draw: float = 0.05) -> RoundInput:
    """The input of round ``rounds + 1`` of a Swiss event paired by the engine itself,
    with results drawn from the players' strengths (Elo-like)."""
    *_, (last, _) = play_rounds(n, rounds, seed, method=method, params=params,
                                countries=countries, draw=draw)
    return last


def play_rounds(n: int, rounds: int, seed: int, *, method: str = "naive",
                params: PenaltyParams | None = None, countries: int = 5,
                draw: float = 0.05) -> list[tuple[RoundInput, Pairing | None]]:
    """Every round of :func:`play_event`: ``(input, pairing)``, then the next round's
    input with ``None``."""
    out: list[tuple[RoundInput, Pairing | None]] = []
    rng = np.random.default_rng(seed)
    ids = [f"P{k:04d}" for k in range(n)]
    strength = rng.normal(0.0, 1.0, n)
    score = dict.fromkeys(ids, 0)
    discs = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    hist: dict[str, list[tuple[Colour, str | None, int, int | None]]] = {i: [] for i in ids}

    def state(r: int) -> RoundInput:
        order = sorted(ids, key=lambda i: (-score[i], -discs[i], i))
        return RoundInput(r, tuple(
            PlayerState(id=i, name=i.lower(), country=f"C{int(i[1:]) % countries}",
                        score=score[i], colours=tuple(h[0] for h in hist[i]),
                        opponents=tuple(h[1] for h in hist[i]),
                        scores_before=tuple(h[2] for h in hist[i]),
                        opponent_scores_before=tuple(h[3] for h in hist[i]),
                        rank=k + 1, byes=byes[i])
            for k, i in enumerate(order)))

    for r in range(1, rounds + 1):
        ri = state(r)
        pairing = pair_round(ri, params, method)
        out.append((ri, pairing))
        before = dict(score)
        for t in pairing.tables:
            b, w = t.black, t.white
            if w == BYE:
                hist[b].append((Colour.BYE_, None, before[b], None))
                score[b] += 2
                byes[b] += 1
                discs[b] += 32
                continue
            hist[b].append((Colour.BLACK, w, before[b], before[w]))
            hist[w].append((Colour.WHITE, b, before[w], before[b]))
            p_b = 1.0 / (1.0 + np.exp(strength[ids.index(w)] - strength[ids.index(b)]))
            u = rng.random()
            d = 32 if u < draw else (int(rng.integers(33, 65)) if u < draw + (1 - draw) * p_b
                                     else int(rng.integers(0, 32)))
            pts = 1 if d == 32 else (2 if d > 32 else 0)
            score[b] += pts
            score[w] += 2 - pts
            discs[b] += d
            discs[w] += 64 - d
    out.append((state(rounds + 1), None))
    return out


def rank_spread(pairing: Pairing, ri: RoundInput) -> int:
    """Sum of squared (rank, id)-order distances of the tables (the bye is last)."""
    order = sorted(ri.players, key=lambda p: (p.rank, p.id))
    pos = {p.id: k for k, p in enumerate(order)} | {BYE: len(order)}
    return sum((pos[t.black] - pos[t.white]) ** 2 for t in pairing.tables)


def total(pairs: list[tuple[int, int]], c: npt.NDArray[np.int64]) -> int:
    return matching_cost(c, pairs)


def solve_or_none(method: str, c: npt.NDArray[np.int64], a: npt.NDArray[np.bool_],
                  **kw: object) -> list[tuple[int, int]] | None:
    try:
        return min_weight_perfect_matching(c, a, method=method, **kw)  # type: ignore[arg-type]
    except InfeasibleError:
        return None


def all_matchings(items: list[int]) -> list[list[tuple[int, int]]]:
    if not items:
        return [[]]
    out = []
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1:]
        out += [[(items[0], items[k]), *m] for m in all_matchings(rest)]
    return out


def tier_key(pc: PairCosts, pairs: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(terms other than colour, colour-tier breaks, colour cost) of a pairing given as
    index pairs of ``pc.players`` (the bye is index ``len(pc.players)``)."""
    n = len(pc.players)
    up = br = col = 0
    for u, v in pairs:
        if v == n:
            up += int(pc.bye[u])
        else:
            up += int(pc.upper[u, v])
            br += int(pc.breaks[u, v])
            col += int(pc.colour[u, v])
    return up, br, col


def index_pairs(p: Pairing, pc: PairCosts) -> list[tuple[int, int]]:
    """A pairing's tables as sorted index pairs of ``pc.players`` (bye: ``len(players)``)."""
    index = {q.id: k for k, q in enumerate(pc.players)} | {BYE: len(pc.players)}
    return [(min(index[t.black], index[t.white]), max(index[t.black], index[t.white]))
            for t in p.tables]
