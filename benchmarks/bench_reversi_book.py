"""Opening book builds: one thread [baseline] against several searching each position's
moves at once.

Each round builds the same book (``--depth``, ``--eval-depth``, ``--width``) with one
thread and with ``--workers`` threads, the order alternating from round to round, in one
process with the search kernels loaded before any clock starts. The table gives, per way,
the median wall seconds and process CPU seconds over the rounds, the positions, and
whether the book equals the baseline's entry for entry (it must: every search has its own
table).

Run: ``python benchmarks/bench_reversi_book.py [--depth 8] [--eval-depth 8] [--width 2]
[--workers 2] [--rounds 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.reversi import Board, search
from gameopt.reversi.book import Book, build_book


def timed(depth: int, eval_depth: int, width: float, workers: int
          ) -> tuple[Book, float, float]:
    w, c = time.perf_counter(), time.process_time()
    book = build_book(depth, eval_depth, width, workers=workers)
    return book, time.perf_counter() - w, time.process_time() - c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--eval-depth", type=int, default=8)
    ap.add_argument("--width", type=float, default=2.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    if args.workers < 2 or args.rounds < 1:
        ap.error("--workers must be 2 or more and --rounds 1 or more")

    search(Board.start(), Limit(depth=4))  # the kernels loaded before any clock
    ways = {1: "1 thread [baseline]", args.workers: f"{args.workers} threads"}
    walls: dict[int, list[float]] = {k: [] for k in ways}
    cpus: dict[int, list[float]] = {k: [] for k in ways}
    books: dict[int, Book] = {}
    for r in range(args.rounds):
        for k in (list(ways) if r % 2 == 0 else list(reversed(ways))):
            book, wall, cpu = timed(args.depth, args.eval_depth, args.width, k)
            walls[k].append(wall)
            cpus[k].append(cpu)
            if k in books and books[k].entries != book.entries:
                print(f"round {r + 1}: {ways[k]} built another book", file=sys.stderr)
                return 1
            books[k] = book
            print(f"round {r + 1} {ways[k]}: {len(book)} positions, wall {wall:.1f} s, "
                  f"CPU {cpu:.1f} s", file=sys.stderr)
    base = statistics.median(walls[1])
    rows = [[ways[k], len(books[k]), f"{statistics.median(walls[k]):.1f}",
             f"{statistics.median(cpus[k]):.1f}", f"{base / statistics.median(walls[k]):.2f}",
             "yes" if books[k].entries == books[1].entries else "NO"] for k in ways]
    print(f"book depth {args.depth}, eval depth {args.eval_depth}, width {args.width:g}; "
          f"medians of {args.rounds} rounds (wall clock; CPU: process time of all threads)")
    print(format_table(["way", "positions", "wall s", "CPU s", "speed-up (wall)",
                        "same book"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
