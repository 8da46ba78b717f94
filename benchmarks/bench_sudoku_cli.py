"""Per-puzzle cost of the CLI: ``gameopt sudoku solve FILE --method exact`` against its kernel.

Puzzles per CPU second, each measured in this run on the same file (default: the tdoku
17-clue sample), uniqueness proved (count up to 2):

* **kernel** [baseline]: :func:`gameopt.sudoku.exact.count_array` on the puzzles already
  in one array: the compiled search alone.
* **library**: :func:`gameopt.sudoku.solve_set` (kernel plus the vectorised check of
  every answer), on a :class:`~gameopt.sudoku.PuzzleSet` already read.
* **CLI in process**: ``gameopt.cli.main.main(["sudoku", "solve", FILE, ...])`` with its
  output captured: reading and parsing the file, solving, verifying, formatting and
  writing every line. Run on a file of the set repeated ``--copies`` times, minus a run
  on a file of its first puzzle, so what is left is the cost of the extra puzzles: the
  per-run work (building the argument parser, the kernel load) is out.
* **CLI process** (``--process``): the same difference with the ``gameopt`` console
  script, as child CPU time (process start out too).

The kernel and library rates are the median of ``--repeats`` measurements, each looping
over the set until ``--min-cpu`` CPU seconds are used; the CLI rows the median of
``--runs`` runs of each file. The issue's target: the CLI at >= 50 % of the kernel's
rate.

Run: ``python benchmarks/bench_sudoku_cli.py [--data DIR] [--file NAME] [--process]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gameopt.cli.main import main as gameopt_main
from gameopt.core.table import format_table
from gameopt.sudoku import read_puzzle_set, solve_set
from gameopt.sudoku.exact import count_array


def rate(work: Callable[[], object], items: int, min_cpu: float, repeats: int) -> float:
    """Median items per CPU second of ``work`` (run once first, untimed)."""
    work()
    rates = []
    for _ in range(repeats):
        done = 0
        t0 = time.process_time()
        while True:
            work()
            done += items
            used = time.process_time() - t0
            if used >= min_cpu:
                break
        rates.append(done / used)
    return statistics.median(rates)


def run_cli(path: Path) -> None:
    argv = ["sudoku", "solve", str(path), "--method", "exact"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = gameopt_main(argv)
    if code != 0:
        raise SystemExit(f"gameopt {' '.join(argv)} exited {code}: {err.getvalue()}")


def own_cpu(path: Path) -> float:
    """CPU seconds of one in-process CLI run on ``path``."""
    t0 = time.process_time()
    run_cli(path)
    return time.process_time() - t0


def child_cpu(path: Path) -> float:
    """CPU seconds (user + system) of one ``gameopt`` process on ``path``."""
    exe = shutil.which("gameopt")
    assert exe is not None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([exe, "sudoku", "solve", str(path), "--method", "exact"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ.copy())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def extra_rate(cpu: Callable[[Path], float], big: Path, one: Path, extra: int,
               runs: int) -> float | None:
    """Puzzles per CPU second of the puzzles ``big`` has beyond ``one``."""
    cpu(one)  # load the kernels (and numba's cache) first
    big_s = statistics.median(cpu(big) for _ in range(runs))
    one_s = statistics.median(cpu(one) for _ in range(runs))
    return extra / (big_s - one_s) if big_s > one_s else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path,
                    default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--file", default="sudoku/tdoku_17_clue_200.txt",
                    help="puzzle file under --data (one box size)")
    ap.add_argument("--min-cpu", type=float, default=1.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="measurements per row (median)")
    ap.add_argument("--process", action="store_true",
                    help="also time the gameopt console script (child processes)")
    ap.add_argument("--copies", type=int, default=50, help="copies of the set in the CLI's file")
    ap.add_argument("--runs", type=int, default=3, help="CLI runs of each file (median)")
    args = ap.parse_args()

    path = args.data / args.file
    if not path.is_file():
        print(f"{path}: no such file (give --data)", file=sys.stderr)
        return 1
    puzzles = read_puzzle_set(path)
    cells = puzzles.cells.copy()  # a plain writable array, as the CLI hands the kernel
    m = len(puzzles)
    kernel = rate(lambda: count_array(cells, puzzles.box, 2), m, args.min_cpu, args.repeats)
    rows: list[list[object]] = [["kernel (count_array) [baseline]", f"{kernel:,.0f}",
                                 f"{1e6 / kernel:.2f}", "100 %"]]

    def add(label: str, value: float | None) -> None:
        if value is not None:
            rows.append([label, f"{value:,.0f}", f"{1e6 / value:.2f}",
                         f"{100 * value / kernel:.0f} %"])

    add("library (solve_set)", rate(lambda: solve_set(puzzles, "exact"), m, args.min_cpu,
                                    args.repeats))
    lines = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    with tempfile.TemporaryDirectory() as tmp:
        big, one = Path(tmp) / "big.txt", Path(tmp) / "one.txt"
        big.write_text("\n".join(lines * args.copies) + "\n")
        one.write_text(lines[0] + "\n")
        extra = len(lines) * args.copies - 1
        add(f"CLI in process (read, solve, verify, print; x{args.copies} minus 1 puzzle)",
            extra_rate(own_cpu, big, one, extra, args.runs))
        if args.process and shutil.which("gameopt") is None:
            print("(gameopt console script not found: process row skipped)", file=sys.stderr)
        elif args.process:
            add(f"CLI process (x{args.copies} minus 1 puzzle)",
                extra_rate(child_cpu, big, one, extra, args.runs))
    print(f"\n### gameopt sudoku solve --method exact: {path.name}, {m} puzzles, "
          "uniqueness proved\n")
    print(format_table(["what", "puzzles / CPU s", "µs / puzzle", "of kernel"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
