"""One round's pairing time (CPU) by field size: exact blossom vs networkx vs SLIM.

For each field size a Swiss event of ``--rounds`` rounds is played first, paired round
after round by the engine itself (``--history`` rule, default the fast naive top-down
pairing) with random results: Elo-like win probabilities from normal strengths, about 3 %
draws, disc counts. The next round is then paired by

* ``exact``: :func:`gameopt.pairing.pair_round` with rustworkx's blossom (after
  the exact reduced-cost pruning) — the method under test;
* ``networkx``: the same objective with networkx's pure-Python blossom (the baseline,
  measured in the same run; skipped above 1,000 players once a run has taken more than
  ``--networkx-limit`` seconds, default 60, and above ``--networkx-max`` players);
* ``slim``: SLIM's greedy + 2/3/4-player swaps, whose extra penalty over the optimum is
  reported.

The exact methods rank pairings by the terms other than colour, then the colour-tier
breaks, then the colour cost (:func:`gameopt.pairing.pair_round`); the table gives each
pairing's key (:func:`gameopt.pairing.pairer.pairing_key`): ``same optimum`` compares
the whole key of exact and networkx, ``SLIM extra`` the first part, ``breaks`` the
second.

Each time is the ``seconds`` a ``pair_round`` result reports: the process CPU time
(``clock="cpu"``) of the complete call (cost matrix, matching, tables), the numba kernels
loaded beforehand; ``matrix`` is the cost matrix alone.
Run: ``python benchmarks/bench_pairing.py [--sizes 50,100,...] [--terms slim]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from gameopt.core.table import format_table
from gameopt.pairing import BYE, Colour, PenaltyParams, PlayerState, RoundInput, pair_round
from gameopt.pairing.pairer import pairing_key
from gameopt.pairing.penalties import cost_matrix

SIZES = (50, 100, 200, 500, 1000, 3000)
T = TypeVar("T")


class Event:
    """A Swiss event's records, enough to build each round's :class:`RoundInput`."""

    def __init__(self, n: int, rng: np.random.Generator, countries: int = 12) -> None:
        self.rng = rng
        self.ids = [f"P{k:05d}" for k in range(n)]
        self.index = {pid: k for k, pid in enumerate(self.ids)}
        self.strength = rng.normal(0.0, 1.0, n)
        self.country = [f"C{int(c)}" for c in rng.integers(0, countries, n)]
        self.score = np.zeros(n, dtype=np.int64)
        self.discs = np.zeros(n, dtype=np.int64)
        self.byes = np.zeros(n, dtype=np.int64)
        self.hist: list[list[tuple[Colour, str | None, int, int | None]]] = \
            [[] for _ in range(n)]

    def round_input(self, round_no: int) -> RoundInput:
        order = np.lexsort((np.arange(len(self.ids)), -self.discs, -self.score))
        players = []
        for rank, k in enumerate(order.tolist(), start=1):
            h = self.hist[k]
            players.append(PlayerState(
                id=self.ids[k], name=self.ids[k], country=self.country[k],
                score=int(self.score[k]), colours=tuple(x[0] for x in h),
                opponents=tuple(x[1] for x in h), scores_before=tuple(x[2] for x in h),
                opponent_scores_before=tuple(x[3] for x in h), rank=rank,
                byes=int(self.byes[k])))
        return RoundInput(round_no, tuple(players))

    def play(self, ri: RoundInput, method: str, params: PenaltyParams) -> None:
        before = self.score.copy()
        for t in pair_round(ri, params, method).tables:
            b = self.index[t.black]
            if t.white == BYE:
                self.hist[b].append((Colour.BYE_, None, int(before[b]), None))
                self.score[b] += 2
                self.discs[b] += 32
                self.byes[b] += 1
                continue
            w = self.index[t.white]
            self.hist[b].append((Colour.BLACK, t.white, int(before[b]), int(before[w])))
            self.hist[w].append((Colour.WHITE, t.black, int(before[w]), int(before[b])))
            p_black = 1.0 / (1.0 + 10.0 ** ((self.strength[w] - self.strength[b]) * 0.5))
            u = self.rng.random()
            if u < 0.03:
                d = 32
            elif u < 0.03 + 0.97 * p_black:
                d = int(self.rng.integers(33, 65))
            else:
                d = int(self.rng.integers(0, 32))
            pts = 1 if d == 32 else (2 if d > 32 else 0)
            self.score[b] += pts
            self.score[w] += 2 - pts
            self.discs[b] += d
            self.discs[w] += 64 - d


def history(n: int, rounds: int, seed: int, method: str, params: PenaltyParams) -> RoundInput:
    """Input of round ``rounds + 1`` after ``rounds`` rounds paired by ``method``."""
    event = Event(n, np.random.default_rng([seed, n]))
    for r in range(1, rounds + 1):
        event.play(event.round_input(r), method, params)
    return event.round_input(rounds + 1)


def key(ri: RoundInput, p: Any) -> tuple[int, int, int]:
    """The exact order's key of a pairing (other terms, colour-tier breaks, colour)."""
    return pairing_key(ri, [(t.black, t.white) for t in p.tables])


def cpu(fn: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``fn(*args)`` and the process CPU seconds it took."""
    t = time.process_time()
    out = fn(*args)
    return out, time.process_time() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="field sizes, comma-separated (default %(default)s)")
    ap.add_argument("--rounds", type=int, default=8, help="rounds of history (default 8)")
    ap.add_argument("--seed", type=int, default=2002)
    ap.add_argument("--terms", choices=("papp", "slim"), default="papp",
                    help="penalty terms: PAPP's set (default) or SLIM's")
    ap.add_argument("--history", default="naive", choices=("naive", "slim", "exact"),
                    help="pairing rule of the history rounds (default naive)")
    ap.add_argument("--networkx-max", type=int, default=10**9,
                    help="largest field networkx is run on (default: no limit)")
    ap.add_argument("--networkx-limit", type=float, default=60.0,
                    help="above 1,000 players, skip networkx once a run took longer")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    params = PenaltyParams() if args.terms == "papp" else PenaltyParams.slim()

    warm = history(12, 2, 0, "naive", params)  # compile the numba kernels first
    for method in ("exact", "slim"):
        pair_round(warm, params, method)

    rows = []
    notes: dict[str, list[int]] = {}
    nx_slowest = 0.0
    for n in sizes:
        print(f"[{n} players] playing {args.rounds} rounds ({args.history})...",
              file=sys.stderr, flush=True)
        ri = history(n, args.rounds, args.seed, args.history, params)
        _, t_matrix = cpu(cost_matrix, ri, params)
        exact = pair_round(ri, params, "exact")
        t_exact = exact.seconds
        print(f"[{n} players] exact {t_exact:.2f} s", file=sys.stderr, flush=True)
        slim = pair_round(ri, params, "slim")
        t_slim = slim.seconds
        skip = ("above --networkx-max" if n > args.networkx_max else
                f"networkx took {nx_slowest:.0f} s > {args.networkx_limit:.0f} s at a "
                f"smaller field" if n > 1000 and nx_slowest > args.networkx_limit else "")
        if not skip:
            ref = pair_round(ri, params, "networkx")
            t_nx = ref.seconds
            nx_slowest = max(nx_slowest, t_nx)
            nx_cell: object = round(t_nx, 3)
            agree = "yes" if key(ri, ref) == key(ri, exact) else "NO"
            speed: object = f"{t_nx / t_exact:,.0f}x"
            print(f"[{n} players] networkx {t_nx:.2f} s", file=sys.stderr, flush=True)
        else:
            nx_cell, agree, speed = "skipped", "-", "-"
            notes.setdefault(skip, []).append(n)
        k_exact, k_slim = key(ri, exact), key(ri, slim)
        extra = k_slim[0] - k_exact[0]
        rows.append([n, len(exact.tables), round(t_matrix, 3), round(t_exact, 3), nx_cell,
                     speed, agree, round(t_slim, 3), k_exact[0], k_slim[0],
                     f"{extra} ({100.0 * extra / max(k_exact[0], 1):.1f} %)",
                     f"{k_exact[1]} / {k_slim[1]}"])

    print(f"\n### One round's pairing, {args.terms.upper()} terms, after {args.rounds} "
          f"rounds ({args.history} history), CPU seconds\n")
    print(format_table(["players", "tables", "matrix s", "exact s", "networkx s [baseline]",
                        "speed-up", "same optimum", "SLIM s", "optimum (other terms)",
                        "SLIM (other terms)", "SLIM extra", "breaks exact / SLIM"], rows))
    for reason, where in notes.items():
        print(f"\nnetworkx skipped at {', '.join(map(str, where))} players: {reason}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
