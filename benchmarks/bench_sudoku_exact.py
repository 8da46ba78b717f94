"""Exact Sudoku solver: puzzles per CPU second, uniqueness proved (counting up to 2).

For each data set, the exact solver's rate is the median of ``--repeats`` measurements,
each looping over the whole set (one batch call per pass) until ``--min-cpu`` seconds of
process CPU time are used; compilation is done before any measurement. The baseline,
measured in the same run, is CP-SAT (:func:`gameopt.sudoku.cpsat.count_solutions`, also
counting up to 2) on the first ``--cpsat`` puzzles of each set, one pass. Every puzzle of
these sets is unique; the ``unique`` column checks it.

Run: ``python benchmarks/bench_sudoku_exact.py [--data DIR]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.sudoku.bench import cpsat_rate, exact_rate
from gameopt.sudoku.formats import read_puzzles

SETS = [
    ("tdoku_17_clue_200.txt", "17 clues (tdoku sample)"),
    ("tdoku_forum_hardest_1106_100.txt", "hardest for backtracking (forum 1106)"),
    ("radcliffe_easy_d0-1_200.csv", "easy (Radcliffe d0-1)"),
]


def find(data: Path, name: str) -> Path | None:
    for p in (data / "sudoku" / name, data / name):
        if p.is_file():
            return p
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--min-cpu", type=float, default=1.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="measurements per set (median)")
    ap.add_argument("--cpsat", type=int, default=20, help="puzzles per set for CP-SAT")
    args = ap.parse_args()

    rows = []
    for name, label in SETS:
        path = find(args.data, name)
        if path is None:
            print(f"({name} not found under {args.data}: skipped)", file=sys.stderr)
            continue
        puzzles = read_puzzles(path)
        rate, unique, guesses = exact_rate(puzzles, min_cpu=args.min_cpu,
                                           repeats=args.repeats)
        subset = puzzles[:args.cpsat]
        cp_rate, cp_unique = cpsat_rate(subset)
        rows.append([label, len(puzzles), f"{unique}/{len(puzzles)}", round(guesses, 1),
                     f"{rate:,.0f}", f"{cp_rate:,.1f}", f"{cp_unique}/{len(subset)}",
                     f"{rate / cp_rate:,.0f}x"])
    if not rows:
        print(f"no data sets found under {args.data}", file=sys.stderr)
        return 1
    print("\n### Exact solver, uniqueness proved (count up to 2), puzzles per CPU second\n")
    print(format_table(["set", "puzzles", "unique", "guesses/puzzle", "exact /CPU s",
                        "CP-SAT /CPU s [baseline]", "CP-SAT unique", "speed-up"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
