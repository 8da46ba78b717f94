"""Midgame search: nodes, CPU seconds and nodes/s to a fixed depth, without and with
Multi-ProbCut, from balanced openings.

For each of the first ``-n`` openings of ``--openings`` (default the 8-ply file of the
strength benchmark), iterative deepening to ``--depth`` (default 12) with the shipped
evaluation: first the full-width search [baseline], then the same with Multi-ProbCut
(``SearchParams(mpc=True)``, the shipped regressions, confidence ``--t``), one after the
other in one process, kernels loaded before any clock starts. CPU seconds are this
process's (the search's own clock, ``Limit(clock="cpu")``). Also reported: how often the
two agree on the move, and the mean absolute difference of their scores.

``--against TABLE`` makes the baseline a Multi-ProbCut search with that table instead of
the full-width one (to compare two tables at depths where full width takes too long: a
table with deeper rows against the shipped one, say).

``--nest 2`` makes the tested side's cut tests Multi-ProbCut searches themselves
(``SearchParams.mpc_nest``; the ``--against`` baseline keeps full-width tests).

``--eval FILE`` searches with that weights file's evaluation instead of the shipped one
(for instance one with a residual network, to see what it costs: run the benchmark with
and without it).

Run: ``python benchmarks/bench_reversi_midgame.py [-n 20] [--depth 12] [--t 1.5]
[--table FILE] [--against TABLE] [--nest 2] [--eval WEIGHTS]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.reversi import Board, SearchParams, search
from gameopt.reversi.match import read_openings
from gameopt.reversi.probcut import read_mpc, shipped_mpc
from gameopt.reversi.weights import kernel_weights

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=Path,
                    default=ROOT / "benchmarks" / "data" / "reversi-openings-8ply.txt")
    ap.add_argument("-n", "--count", type=int, default=20)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--t", type=float, default=1.5, help="Multi-ProbCut confidence")
    ap.add_argument("--table", type=Path, default=None, help="MPC table (default shipped)")
    ap.add_argument("--against", type=Path, default=None, metavar="TABLE",
                    help="baseline: Multi-ProbCut with this table (default full width)")
    ap.add_argument("--nest", type=int, default=1, choices=(1, 2),
                    help="Multi-ProbCut nesting of the tested side (SearchParams.mpc_nest)")
    ap.add_argument("--eval", type=Path, default=None, metavar="WEIGHTS",
                    help="weights file of both searches (default shipped)")
    args = ap.parse_args()
    try:
        table = read_mpc(args.table) if args.table else shipped_mpc()
        against = read_mpc(args.against) if args.against else None
        weights = kernel_weights(str(args.eval)) if args.eval else None
    except InvalidInputError as e:
        print(f"bench_reversi_midgame: {e}", file=sys.stderr)
        return 2
    if table is None:
        print("skipped: no MPC table shipped and none given (--table)", file=sys.stderr)
        return 0
    mpc = SearchParams(mpc=True, mpc_t=args.t, mpc_table=table, weights=weights,
                       mpc_nest=args.nest)
    # the baseline: full width, or Multi-ProbCut with the --against table (nested once)
    full = (SearchParams(weights=weights) if against is None
            else replace(mpc, mpc_table=against, mpc_nest=1))
    base = "full" if against is None else "against"
    search(Board.start(), Limit(depth=2), mpc)  # load the kernels before any clock
    rows: list[list[object]] = []
    tot = {"full": [0, 0.0], "mpc": [0, 0.0]}
    same, diffs = 0, []
    for i, op in enumerate(read_openings(args.openings)[:args.count]):
        b = Board.from_moves(op)
        r0 = search(b, Limit(depth=args.depth, clock="cpu"), full)
        r1 = search(b, Limit(depth=args.depth, clock="cpu"), mpc)
        tot["full"][0] += r0.nodes
        tot["full"][1] += r0.seconds
        tot["mpc"][0] += r1.nodes
        tot["mpc"][1] += r1.seconds
        same += r0.move == r1.move
        diffs.append(abs(r0.score - r1.score))
        rows.append([i + 1, op, f"{r0.nodes:,}", f"{r0.seconds:.2f}", f"{r0.score:+.2f}",
                     str(r0.move), f"{r1.nodes:,}", f"{r1.seconds:.2f}", f"{r1.score:+.2f}",
                     str(r1.move)])
        print(f"{i + 1}: {r0.nodes:,} {r0.seconds:.2f} s | {r1.nodes:,} {r1.seconds:.2f} s",
              file=sys.stderr)
    (n0, s0), (n1, s1) = tot["full"], tot["mpc"]
    rows.append(["total", "", f"{n0:,}", f"{s0:.2f}", "", "", f"{n1:,}", f"{s1:.2f}", "", ""])
    print(format_table(["#", "opening", f"nodes [{base}]", "CPU s", "score", "move",
                        "nodes [MPC]", "CPU s", "score", "move"], rows))
    print(f"\ndepth {args.depth}, {len(diffs)} openings: MPC/{base} nodes {n1 / n0:.3f}, "
          f"CPU {s1 / s0:.3f}; nodes/s {base} {n0 / s0 / 1e6:.2f} M, MPC {n1 / s1 / 1e6:.2f} M; "
          f"same move {same}/{len(diffs)}, mean |score difference| "
          f"{statistics.fmean(diffs):.2f} discs (t = {args.t})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
