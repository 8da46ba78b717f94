"""MSP(n): time to prove it by the basic IP, the improved IP and the DP, side by side with
Miyashiro, Yano and Muramatsu's table (CPLEX 10.1 on a Pentium 4, 2.8 GHz); then
construction and board check for large n.

IP: CP-SAT with 2 workers and the ``core`` + ``max_lp`` subsolvers (default settings never
raise the lower bound on this model here), ``--time-limit`` seconds per run (default 120);
"limit" when not proven. DP: :func:`gameopt.go.msp_dp.domination_number`.
Run: ``python benchmarks/bench_go_msp.py [--min-n 5] [--max-n 19]``.
"""

from __future__ import annotations

import argparse
import sys
import time

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.go.construct import construct_msp
from gameopt.go.msp_dp import domination_number, warm
from gameopt.go.msp_ip import solve_msp_ip
from gameopt.go.msp_solve import check_msp_board

#: Miyashiro, Yano, Muramatsu (2008), Table 1, seconds (basic, improved); the OCR of the
#: paper drops the decimal point of some entries: 17 and 18 read with the text's "one day"
#: and "nearly 10 days", 19 with "about 40 days".
PAPER = {11: (7.3, 7.3), 12: (155, 114), 13: (535, 34.0), 14: (3874, 1552),
        15: (5163, 1869), 16: (12696, 14947), 17: (86461.1, 46765.9),
        18: (823326.1, 306715.2), 19: (None, 3440752.8)}


def ip_seconds(n: int, formulation: str, limit: float) -> tuple[str, float | None]:
    r = solve_msp_ip(n, formulation=formulation, limit=Limit(time=limit))
    return (f"{r.seconds:.2f}" if r.proven else f"limit (γ≤{r.gamma}, ≥{r.bound})",
            r.seconds if r.proven else None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-n", type=int, default=5)
    ap.add_argument("--max-n", type=int, default=19)
    ap.add_argument("--time-limit", type=float, default=120.0)
    args = ap.parse_args()
    warm()  # load or compile the DP kernels outside the timings
    rows = []
    for n in range(args.min_n, args.max_n + 1):
        basic, tb = ip_seconds(n, "basic", args.time_limit)
        improved, ti = ip_seconds(n, "improved", args.time_limit)
        dp = domination_number(n)
        paper_b, paper_i = PAPER.get(n, (None, None))
        speed = f"{tb / ti:.2f}x" if tb and ti else "-"
        paper_speed = f"{paper_b / paper_i:.2f}x" if paper_b and paper_i else "-"
        rows.append([n, dp.msp, dp.gamma, basic, improved, speed, f"{dp.seconds:.3f}",
                     paper_b if paper_b is not None else "-",
                     paper_i if paper_i is not None else "-", paper_speed])
        print(f"n={n} done", file=sys.stderr, flush=True)
    print("\n### Time to prove MSP(n) (seconds)\n")
    print(format_table(["n", "MSP", "γ", "IP basic", "IP improved", "improved speed-up",
                        "DP", "MYM 2008 basic (CPLEX)", "MYM 2008 improved (CPLEX)",
                        "MYM 2008 speed-up"], rows))
    rows = []
    for n in (19, 100, 1000):
        t0 = time.perf_counter()
        r = construct_msp(n)
        t1 = time.perf_counter()
        board = check_msp_board(r)
        t2 = time.perf_counter()
        rows.append([n, r.msp, r.gamma, "yes" if r.proven else "no", f"{t1 - t0:.3f}",
                     f"{t2 - t1:.3f}", board.string_count()])
    print("\n### Construction (theorem value) and board check\n")
    print(format_table(["n", "MSP", "γ", "meets theorem", "construct s", "check s",
                        "strings counted"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
