"""Exact endgame solver on the FFO suite, and the seed's alpha-beta vs PVS comparison.

Part 1 solves FFO ``--range`` (default #40-#59) with the default solver (PVS): move, exact
score, whether both agree with the OBF file (the move must be among the best-scoring moves),
nodes, CPU seconds, nodes per CPU second; totals for #40-#49. Positions may be skipped past
``--budget`` CPU seconds in all (reported as not run).

Part 2 redoes Thell's table: plain alpha-beta against PVS on FFO #40-#42 (same solver, same
ordering and table, only the null-window re-search switched), nodes and time as ratios.

Run: ``python benchmarks/bench_reversi_ffo.py [--range 40-59] [--data DIR] [--no-compare]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.reversi.bench import parse_range, run_ffo
from gameopt.reversi.search import SearchParams


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--range", default="40-59", metavar="A-B")
    ap.add_argument("--budget", type=float, default=3600.0,
                    help="stop starting new positions after this many CPU seconds")
    ap.add_argument("--no-compare", action="store_true", help="skip part 2")
    args = ap.parse_args()
    folder = args.data / "reversi"
    if not folder.is_dir():
        print(f"{folder}: not found (the FFO files live in ../shared/data/reversi)",
              file=sys.stderr)
        return 2
    first, last = parse_range(args.range)

    rows: list[list[object]] = []
    solved = []
    spent = 0.0
    for n in range(first, last + 1):
        if spent > args.budget:
            rows.append([f"#{n}", "-", "-", "-", "-", "-", "-", "-", "not run (budget)"])
            continue
        (row,) = run_ffo(folder, n, n)
        spent += row.cpu_seconds
        solved.append(row)
        r = row.result
        rows.append([f"#{n}", row.empties, str(r.move), f"{r.score:+d}",
                     "/".join(row.expected_moves) + f" {row.expected_score:+d}",
                     f"{r.nodes:,}", f"{row.cpu_seconds:.2f}",
                     f"{r.nodes / row.cpu_seconds / 1e6:.1f}M", "ok" if row.correct else "WRONG"])
        print(" ".join(str(c) for c in rows[-1]), file=sys.stderr, flush=True)
    done = [w for w in solved if 40 <= w.number <= 49]
    if done:
        nodes = sum(w.result.nodes for w in done)
        cpu = sum(w.cpu_seconds for w in done)
        rows.append([f"total #{done[0].number}-#{done[-1].number}", "", "", "", "",
                     f"{nodes:,}", f"{cpu:.2f}", f"{nodes / cpu / 1e6:.1f}M",
                     f"{sum(w.correct for w in done)}/{len(done)} ok"])
    print(format_table(["FFO", "empties", "move", "score", "file", "nodes", "CPU s", "nodes/s",
                        "check"], rows))

    if not args.no_compare:
        print()
        table, ratios_n, ratios_t = [], [], []
        for n in (40, 41, 42):
            (ab,) = run_ffo(folder, n, n, SearchParams(pvs=False))
            (pv,) = run_ffo(folder, n, n, SearchParams(pvs=True))
            rn = pv.result.nodes / ab.result.nodes
            rt = pv.cpu_seconds / ab.cpu_seconds
            ratios_n.append(rn)
            ratios_t.append(rt)
            table.append([f"#{n}", f"{ab.result.nodes:,}", f"{ab.cpu_seconds:.2f}",
                          f"{pv.result.nodes:,}", f"{pv.cpu_seconds:.2f}", f"{rn:.2f}",
                          f"{rt:.2f}", "ok" if ab.correct and pv.correct else "WRONG"])
        table.append(["median", "", "", "", "", f"{statistics.median(ratios_n):.2f}",
                      f"{statistics.median(ratios_t):.2f}", ""])
        print(format_table(["FFO", "alpha-beta nodes [baseline]", "CPU s", "PVS nodes", "CPU s",
                            "PVS/AB nodes", "PVS/AB time", "check"], table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
