"""Time to prove γ(G_{n,n}), and so MSP(n), by the transfer dynamic program.

For n = ``--min-n``..``--max-n`` (default 5..16): γ, MSP(n) = n² − γ, the DP states per
table (3**n bytes), and the wall-clock seconds of :func:`gameopt.go.msp_dp.domination_number`
(compilation done before any measurement). The baseline, measured in the same run up to
``--baseline-max-n``, is the plain version of the same DP: one pass over the whole table
per cell, no cache blocking, no skipping of unreachable blocks (the shape of a plain C
implementation, with the same numba cell kernels and their skipping of all-INF groups).

Run: ``python benchmarks/bench_go_dp.py [--max-n 19] [--threads 1]``. n = 19 needs
1.2 GB, n = 20 3.5 GB.

:func:`dp_row` is importable, for tables that put other methods beside the DP.
"""

from __future__ import annotations

import argparse
import sys
import time

from gameopt.core.table import format_table
from gameopt.go import domination_number
from gameopt.go.msp_dp import plain_domination_number, warm

HEADERS = ["n", "γ", "MSP", "states", "DP s"]


def dp_row(n: int, threads: int | None = None) -> dict[str, object]:
    """One row of the table: n, γ(G_{n,n}), MSP(n), DP states, seconds (keys as HEADERS)."""
    r = domination_number(n, threads=threads)
    return dict(zip(HEADERS, [n, r.gamma, r.msp, r.states, r.seconds],
                    strict=True))


def plain_dp(n: int) -> tuple[int, float]:
    """γ(G_{n,n}) and wall seconds by the unblocked DP: ``n*n`` passes over the table."""
    start = time.perf_counter()
    gamma = plain_domination_number(n)
    return gamma, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-n", type=int, default=5)
    ap.add_argument("--max-n", type=int, default=16)
    ap.add_argument("--baseline-max-n", type=int, default=15,
                    help="largest n for the plain-DP baseline (0: none)")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads for the DP (default: the CPUs this process may use)")
    args = ap.parse_args()

    warm()  # load or compile every kernel before measuring
    rows = []
    for n in range(args.min_n, args.max_n + 1):
        row = dp_row(n, args.threads)
        base: object = ""
        if n <= args.baseline_max_n:
            gamma, seconds = plain_dp(n)
            if gamma != row["γ"]:
                print(f"n={n}: plain DP gives {gamma}, DP {row['γ']}", file=sys.stderr)
                return 1
            base = seconds
        rows.append([*row.values(), base])
        print(f"n={n} done", file=sys.stderr, flush=True)
    print("\n### Proving γ(G_{n,n}) and MSP(n) by the transfer DP (wall seconds)\n")
    print(format_table([*HEADERS, "plain DP s [baseline]"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
