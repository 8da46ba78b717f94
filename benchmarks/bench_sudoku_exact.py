"""Exact Sudoku solver against tdoku: CPU time per puzzle, same sets, same run.

For each set, gameopt's two 9x9 kernels (:func:`gameopt.sudoku.exact.count_array`, one
batch call per pass over the set: ``kernel="cells"``, the kernel of every box size and
9x9's before the band kernel, and ``kernel="band"``, today's 9x9 kernel) and tdoku (Tom
Dillon's C++ solver, ``TdokuSolverDpllTriadSimd`` called from a small C loop linked with
its static library) count the solutions of every puzzle up to ``--limit`` (2 proves
uniqueness). Each measurement loops over the whole set until ``--min-cpu`` seconds of
process CPU time (``CLOCK_PROCESS_CPUTIME_ID`` for the C loop, ``time.process_time`` for
Python) are used; gameopt's kernels are compiled before. The three are measured in turn
``--repeats`` times and the table gives the median rates and the median of the
per-repeat ratios of CPU per puzzle to tdoku's. Every count of the three solvers is
compared (a mismatch stops the run), and every gameopt solution is verified.

tdoku is built from its source snapshot in ``../shared/peers`` (``build.sh tdoku``) into
``~/.cache/gameopt-peers/tdoku``; without a C/C++ compiler or cmake its columns are
skipped with the reason. The multi-solution set ("17 clues minus one") is the 17-clue
set with its first given blanked, so every puzzle has several solutions.

Run: ``python benchmarks/bench_sudoku_exact.py [--data DIR] [--sets 17,1106,rad-medium]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from gameopt.core.table import format_table
from gameopt.sudoku import Puzzle, verify
from gameopt.sudoku.exact import count_array, warm
from gameopt.sudoku.formats import read_puzzles

ROOT = Path(__file__).resolve().parents[1]

#: key: (file, label, blank the first given of each puzzle)
SETS = {
    "17": ("tdoku_17_clue_200.txt", "17 clues (tdoku sample)", False),
    "1106": ("tdoku_forum_hardest_1106_100.txt", "forum hardest 1106", False),
    "11plus": ("tdoku_forum_hardest_1905_11plus_200.txt", "forum hardest 11+", False),
    "rad-easy": ("radcliffe_easy_d0-1_200.csv", "Radcliffe easy", False),
    "rad-medium": ("radcliffe_medium_d3-4_200.csv", "Radcliffe medium", False),
    "rad-hard": ("radcliffe_hard_d6-8.5_200.csv", "Radcliffe hard", False),
    "16": ("tdoku_17_clue_200.txt", "17 clues minus one (multiple)", True),
}

#: Our own loop around tdoku's C entry point (not tdoku code): load lines, count each
#: puzzle once (printed, to compare), then time passes on the process CPU clock.
LOOP_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
size_t TdokuSolverDpllTriadSimd(const char *, size_t, unsigned, char *, size_t *);
static double cpu(void) {
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
int main(int argc, char **argv) {
    size_t limit = strtoul(argv[2], 0, 10); double min_cpu = atof(argv[3]);
    FILE *f = fopen(argv[1], "r"); if (!f) return 1;
    static char buf[100000][82]; char line[256]; int m = 0; char sol[82];
    while (m < 100000 && fgets(line, sizeof line, f)) {
        if (strlen(line) < 81) continue;
        memcpy(buf[m], line, 81); buf[m][81] = 0; m++;
    }
    size_t guesses = 0, g;
    for (int i = 0; i < m; i++) {
        size_t k = TdokuSolverDpllTriadSimd(buf[i], limit, 0, sol, &g);
        guesses += g; printf("%zu\n", k);
    }
    long done = 0; size_t sink = 0; double t0 = cpu(), used;
    do {
        for (int i = 0; i < m; i++) sink += TdokuSolverDpllTriadSimd(buf[i], limit, 0, sol, &g);
        done += m; used = cpu() - t0;
    } while (used < min_cpu);
    printf("rate %.3f guesses %.4f sink %zu\n", done / used, (double)guesses / m, sink);
    return 0;
}
"""


def build_tdoku() -> tuple[Path | None, str]:
    """The path of a compiled C loop around tdoku, or None and the reason."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gameopt-peers"
    lib = cache / "tdoku" / "build" / "libtdoku_static.a"
    script = ROOT.parent / "shared" / "peers" / "build.sh"
    if not lib.is_file():
        if not script.is_file():
            return None, f"no tdoku build and no {script}"
        for tool in ("cmake", "c++", "cc"):
            if shutil.which(tool) is None:
                return None, f"no {tool} to build tdoku"
        r = subprocess.run(["bash", str(script), "tdoku", str(cache / "tdoku")],
                           capture_output=True, text=True)
        if r.returncode or not lib.is_file():
            return None, f"build.sh tdoku failed: {r.stderr.strip()[-200:]}"
    exe = cache / "tdoku" / "gameopt_loop"
    src = cache / "tdoku" / "gameopt_loop.c"
    if not exe.is_file() or not src.is_file() or src.read_text() != LOOP_C:
        src.write_text(LOOP_C)
        r = subprocess.run(["c++", "-O2", "-x", "c", str(src), "-x", "none", str(lib),
                            "-o", str(exe), "-lstdc++", "-lm"], capture_output=True, text=True)
        if r.returncode:
            return None, f"compiling the tdoku loop failed: {r.stderr.strip()[-200:]}"
    return exe, ""


def tdoku_run(exe: Path, path: Path, limit: int, min_cpu: float
              ) -> tuple[list[int], float, float]:
    """Counts (first pass), puzzles per CPU second and mean guesses from the C loop."""
    out = subprocess.run([str(exe), str(path), str(limit), str(min_cpu)], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    *counts, last = [x for x in out if x]
    words = last.split()
    return [int(k) for k in counts], float(words[1]), float(words[3])


def gameopt_rate(grids: np.ndarray, limit: int, min_cpu: float, kernel: str) -> float:
    """Puzzles per CPU second of the kernel, one batch call per pass."""
    done = 0
    t0 = time.process_time()
    while True:
        count_array(grids, 3, limit, kernel=kernel)
        done += len(grids)
        used = time.process_time() - t0
        if used >= min_cpu:
            return done / used


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / ".." / "shared" / "data",
                    help="data folder (default: ../shared/data from the project root)")
    ap.add_argument("--sets", default="17,1106,rad-easy,rad-hard,16",
                    help=f"comma-separated set keys among {', '.join(SETS)}")
    ap.add_argument("--limit", type=int, default=2, help="count up to this many solutions")
    ap.add_argument("--min-cpu", type=float, default=1.0, help="CPU seconds per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="alternate measurements per set")
    args = ap.parse_args()

    exe, why = build_tdoku()
    if exe is None:
        print(f"(tdoku skipped: {why})", file=sys.stderr)
    warm(3)
    rows = []
    for key in args.sets.split(","):
        if key not in SETS:
            ap.error(f"--sets: unknown set {key!r}")
        name, label, blank = SETS[key]
        path = next((p for p in (args.data / "sudoku" / name, args.data / name)
                     if p.is_file()), None)
        if path is None:
            print(f"({name} not found under {args.data}: skipped)", file=sys.stderr)
            continue
        puzzles = read_puzzles(path)
        grids = np.stack([p.cells for p in puzzles]).astype(np.int8)
        if blank:
            for g in grids:
                g[np.flatnonzero(g)[0]] = 0
        nodes = {}
        for kernel in ("cells", "band"):
            counts, sols, nodes[kernel] = count_array(grids, 3, args.limit, kernel=kernel)
            for p, g, k, s in zip(puzzles, grids, counts.tolist(), sols, strict=True):
                if k and not verify(Puzzle(3, g) if blank else p, s):
                    raise SystemExit(f"{label}: a wrong gameopt solution for {p.to_line()}")
            if kernel == "cells":
                before = counts
            elif counts.tolist() != before.tolist():
                raise SystemExit(f"{label}: the band and cell kernels count differently")
        old, mine, theirs, ratios, old_ratios = [], [], [], [], []
        t_guesses = float("nan")
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tmp:
            tmp.write("\n".join("".join("." if v == 0 else str(v) for v in g.tolist())
                                for g in grids) + "\n")
        try:
            for _ in range(args.repeats):
                old.append(gameopt_rate(grids, args.limit, args.min_cpu, "cells"))
                mine.append(gameopt_rate(grids, args.limit, args.min_cpu, "band"))
                if exe is not None:
                    t_counts, rate, t_guesses = tdoku_run(exe, Path(tmp.name), args.limit,
                                                          args.min_cpu)
                    if t_counts != counts.tolist():
                        bad = next(i for i, (a, b) in enumerate(
                            zip(t_counts, counts.tolist(), strict=True)) if a != b)
                        raise SystemExit(f"{label}: puzzle {bad} counted {counts[bad]} by "
                                         f"gameopt, {t_counts[bad]} by tdoku")
                    theirs.append(rate)
                    ratios.append(rate / mine[-1])
                    old_ratios.append(rate / old[-1])
        finally:
            os.unlink(tmp.name)
        status = (f"{int((counts == 1).sum())} unique" if not blank
                  else f"{int((counts >= 2).sum())} multiple")
        rows.append([label, len(grids), status,
                     f"{nodes['cells'].mean():.2f} / {nodes['band'].mean():.2f}",
                     f"{t_guesses:.2f}", f"{statistics.median(old):,.0f}",
                     f"{statistics.median(mine):,.0f}",
                     f"{statistics.median(theirs):,.0f}" if theirs else "-",
                     f"{statistics.median(old_ratios):.2f}x" if ratios else "-",
                     f"{statistics.median(ratios):.2f}x" if ratios else "-"])
    if not rows:
        print(f"no data sets found under {args.data}", file=sys.stderr)
        return 1
    print(f"\n### Exact solver, count up to {args.limit}, puzzles per CPU second "
          f"(median of {args.repeats})\n")
    print(format_table(["set", "puzzles", "counts", "guesses cells / band", "guesses tdoku",
                        "cells /CPU s (before)", "band /CPU s (after)",
                        "tdoku /CPU s [baseline]", "CPU ratio before", "CPU ratio after"],
                       rows))
    print("\nCPU ratio: gameopt's CPU per puzzle over tdoku's (median of the per-repeat "
          "ratios); guesses: digits tried at branching cells (gameopt), tdoku's own count.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
