"""Logical Sudoku solver: share solved without guessing, CPU time per puzzle, ratings.

For each data set, :func:`gameopt.sudoku.explain` runs on every puzzle (or the first
``--limit``). The table gives the share the techniques finish without guessing, the
median and largest CPU seconds of the logical path (the exact solve that checks each step
is timed apart), and how many puzzles got each rating. The baseline, measured in the same
run, is the exact solver on the same puzzles (CPU seconds per puzzle, one batch call).
For the Radcliffe sets the set's own difficulty range (the ``difficulty`` column of its
CSV file, a backtracking measure) is shown beside ours.

Run: ``python benchmarks/bench_sudoku_logic.py [--data DIR] [--limit N]``.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.sudoku import RATINGS, explain
from gameopt.sudoku.exact import count_many
from gameopt.sudoku.formats import read_puzzles

SETS = [
    ("radcliffe_easy_d0-1_200.csv", "Radcliffe easy"),
    ("radcliffe_medium_d3-4_200.csv", "Radcliffe medium"),
    ("radcliffe_hard_d6-8.5_200.csv", "Radcliffe hard"),
    ("tdoku_17_clue_200.txt", "17 clues (tdoku)"),
    ("magictour_top95.txt", "magictour top95"),
    ("sudokuexchange_diabolical_200.txt", "Sudoku Exchange diabolical"),
    ("tdoku_forum_hardest_1905_11plus_200.txt", "forum hardest, SE > 11"),
]


def find(data: Path, name: str) -> Path | None:
    for p in (data / "sudoku" / name, data / name):
        if p.is_file():
            return p
    return None


def own_ratings(path: Path, count: int) -> str:
    """The range of a CSV set's own ``difficulty`` column over its first ``count`` rows."""
    if path.suffix != ".csv":
        return "-"
    with path.open(newline="") as f:
        values = [float(row["difficulty"]) for row, _ in zip(csv.DictReader(f), range(count),
                                                             strict=False)]
    return f"{min(values):g}-{max(values):g}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--limit", type=int, default=200, help="puzzles per set (first N)")
    args = ap.parse_args()

    rows = []
    for name, label in SETS:
        path = find(args.data, name)
        if path is None:
            print(f"({name} not found under {args.data}: skipped)", file=sys.stderr)
            continue
        puzzles = read_puzzles(path)[:args.limit]
        count_many(puzzles[:1])  # compile the exact kernel before any clock
        t0 = time.process_time()
        count_many(puzzles)
        exact = (time.process_time() - t0) / len(puzzles)
        outs = [explain(p) for p in puzzles]
        seconds = [o.seconds for o in outs]
        counts = {r: sum(o.rating == r for o in outs) for r in RATINGS}
        solved = sum(o.solved for o in outs)
        rows.append([label, len(puzzles), own_ratings(path, len(puzzles)),
                     f"{solved} ({100 * solved / len(puzzles):.1f} %)",
                     f"{statistics.median(seconds) * 1000:.1f}", f"{max(seconds) * 1000:.0f}",
                     f"{exact * 1000:.2f}", *counts.values()])
    print(format_table(["set", "puzzles", "own rating", "no guessing", "median ms",
                        "max ms", "exact ms", *RATINGS], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
