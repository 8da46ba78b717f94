"""Lazy evaluation of the residual network: what it saves and what it changes.

A weights file with a network (``--eval``, required: the shipped weights carry none; make
one with ``gameopt reversi train network``) is searched to ``--depth`` from midgame
positions, with the network at every leaf [baseline], with lazy evaluation at each margin of
``--margins`` (``SearchParams.net_margin``, centi-discs: a leaf whose pattern value lies
that far outside the window skips the network; 0: never), each also with the network only
at positions of at most E empties for each E of ``--max-empties``
(``SearchParams.net_max_empties``; 0: at any), and with the patterns alone (the same file
without its network). The positions are those with 44, 36 and 28 empties of games played
from the first ``-n`` openings of ``--openings`` by a depth-2 search of the same file, so
the run needs nothing but the file.

Each setting searches every position once per run; ``--runs`` runs go in alternating
order (the first setting first, then last, ...), and the table gives their totals:
nodes, CPU seconds (this process's, around each search; kernels loaded before any
clock starts), nodes/s and their ratios to the baseline, and how often each setting
chose the baseline's move, and its score (from the last run; the search is
deterministic, so every run gives the same moves and nodes). ``--mpc`` searches with
Multi-ProbCut (the shipped table or ``--table``), as the engine does when it thinks by time.

Run: ``python benchmarks/bench_reversi_lazy.py --eval WEIGHTS [-n 60] [--depth 9]
[--margins 100,200,400] [--max-empties 0,24] [--runs 2] [--mpc] [--table FILE]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.reversi import Board, SearchParams, search
from gameopt.reversi.board import PASS
from gameopt.reversi.match import read_openings
from gameopt.reversi.probcut import read_mpc
from gameopt.reversi.weights import kernel_weights, pattern_table

ROOT = Path(__file__).resolve().parents[1]
EMPTIES = (44, 36, 28)


def positions(openings: list[str], params: SearchParams) -> list[Board]:
    """The positions with EMPTIES empties of games from ``openings`` by depth-2 searches."""
    out = []
    for op in openings:
        b = Board.from_moves(op)
        while not b.is_game_over() and b.empties >= min(EMPTIES):
            if b.empties in EMPTIES and b.moves_bitboard():
                out.append(b)
            if b.must_pass():
                b = b.play(PASS)
                continue
            r = search(b, Limit(depth=2), params)
            assert r.move is not None
            b = b.play(r.move)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, required=True, metavar="WEIGHTS",
                    help="weights file with a network")
    ap.add_argument("--openings", type=Path,
                    default=ROOT / "benchmarks" / "data" / "reversi-openings-8ply.txt")
    ap.add_argument("-n", "--count", type=int, default=60)
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("--margins", default="100,200,400",
                    help="lazy margins in centi-discs, comma-separated")
    ap.add_argument("--max-empties", default="0",
                    help="most empties at which the network is evaluated, comma-separated "
                         "(0: any)")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--mpc", action="store_true", help="with Multi-ProbCut")
    ap.add_argument("--table", type=Path, default=None, help="MPC table (default shipped)")
    args = ap.parse_args()
    try:
        margins = [int(m) for m in args.margins.split(",") if m.strip()]
        mosts = [int(e) for e in args.max_empties.split(",") if e.strip()]
        w = kernel_weights(str(args.eval))
        table = read_mpc(args.table) if args.table else None
        plain = pattern_table(w)
        if plain is w:
            raise InvalidInputError(f"--eval {args.eval}: this weights file has no network")
        if not 1 <= args.depth <= 20 or args.count < 1 or args.runs < 1:
            raise InvalidInputError("--depth must be 1..20, -n and --runs at least 1")
        base = SearchParams(weights=w, mpc=args.mpc, mpc_table=table)
        settings = {"network [baseline]": base}
        for e in mosts:
            for m in margins:
                if m or e:
                    name = f"lazy {m}" + (f", <= {e} empties" if e else "")
                    settings[name] = replace(base, net_margin=m, net_max_empties=e)
    except (InvalidInputError, ValueError) as e:
        print(f"bench_reversi_lazy: {e}", file=sys.stderr)
        return 2
    settings["patterns alone"] = replace(base, weights=plain)
    for p in settings.values():
        search(Board.start(), Limit(depth=3), p)  # load the kernels before any clock
    pos = positions(read_openings(args.openings)[:args.count], base)
    names = list(settings)
    tot = {k: [0, 0.0] for k in names}
    last: dict[str, list[tuple[str, float]]] = {}
    for run in range(args.runs):
        for name in names if run % 2 == 0 else names[::-1]:
            got = []
            for b in pos:
                t0 = time.process_time()
                r = search(b, Limit(depth=args.depth), settings[name])
                tot[name][1] += time.process_time() - t0
                tot[name][0] += r.nodes
                got.append((str(r.move), r.score))
            last[name] = got
            print(f"run {run + 1} {name}: {tot[name][0]:,} nodes", file=sys.stderr)
    ref = names[0]
    n0, s0 = tot[ref]
    rows = []
    for k in names:
        n, s = tot[k]
        same = sum(a[0] == b[0] for a, b in zip(last[k], last[ref], strict=True))
        diff = statistics.fmean(abs(a[1] - b[1]) for a, b in zip(last[k], last[ref],
                                                                 strict=True))
        rows.append([k, f"{n:,}", f"{n / n0:.3f}", f"{s:.2f}", f"{s / s0:.3f}",
                     f"{n / s / 1e6:.2f}", f"{same}/{len(pos)}", f"{diff:.3f}"])
    print(format_table(["setting", "nodes", "/ baseline", "CPU s", "/ baseline", "M nodes/s",
                        "baseline's move", "mean |score diff| (discs)"], rows))
    print(f"\n{len(pos)} positions ({', '.join(map(str, EMPTIES))} empties) of "
          f"{args.count} openings, depth {args.depth}, "
          f"{'Multi-ProbCut' if args.mpc else 'full width'}, {args.runs} runs alternating; "
          f"{args.eval}: {len(w):,} table entries, {np.dtype(w.dtype).name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
