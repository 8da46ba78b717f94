"""perft from the start position: numba kernel against the pure-Python reference rules.

The baseline is :func:`gameopt.reversi.reference.perft` (square-by-square rules) at small
depths in the same run; the kernel runs depths 1..``--depth`` (default 11), each timed as
the median of ``--repeats`` runs after a warm-up. Counts are checked against the standard
values (a pass counts as a ply).

Run: ``python benchmarks/bench_reversi_perft.py [--depth 11]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gameopt.core.table import format_table
from gameopt.reversi import Board, perft, reference

STANDARD = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
            1939886636, 18429641748]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--ref-depth", type=int, default=6, help="deepest reference run")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    b = Board.start()
    perft(b, 1)  # load the kernel
    rows = []
    for d in range(1, args.depth + 1):
        times = []
        for _ in range(args.repeats if d <= 11 else 1):
            t = time.perf_counter()
            n = perft(b, d)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        ref_rate = "-"
        ratio = "-"
        if d <= args.ref_depth:
            t = time.perf_counter()
            rn = reference.perft(b.player, b.opponent, d)
            rt = time.perf_counter() - t
            assert rn == n
            ref_rate = f"{rn / rt:,.0f}"
            ratio = f"{(n / med) / (rn / rt):,.0f}x" if med > 0 else "-"
        ok = d >= len(STANDARD) or n == STANDARD[d]
        rows.append([d, f"{n:,}", f"{med:.4f}", f"{n / med / 1e6:.1f}" if med > 0 else "-",
                     ref_rate, ratio, "ok" if ok else "WRONG"])
    print(format_table(["depth", "leaves", "kernel s (median)", "M leaves/s",
                        "reference leaves/s [baseline]", "speed-up", "count"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
