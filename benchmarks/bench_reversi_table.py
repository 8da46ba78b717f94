"""A transposition table kept from move to move against a new one per search, along games.

For each of the first ``-n`` openings of ``--openings`` (default the 8-ply file of the
strength benchmark), a game line is played from it by depth-6 searches (exact from 14
empties). Each side's positions with more than ``--depth`` + 2 empties are then searched
in game order as a timed engine searches them (Multi-ProbCut on), twice per line:

* to ``--depth`` plies: nodes and this process's CPU seconds around each search call (a
  new table's allocation counted, as a kept table's purge is), with a new table for every
  search [baseline] and with one :class:`~gameopt.reversi.search.SearchTable` per side
  kept through the game;
* with ``--time T``: ``T`` CPU seconds a move (:func:`~gameopt.reversi.timing.timed_move`),
  the mean depth reached per band of empties, both ways.

The two ways alternate in order from line to line, in one process, kernels loaded before
any clock starts.

Run: ``python benchmarks/bench_reversi_table.py [-n 10] [--depth 11] [--time 0.1]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.reversi import PASS, Board, SearchParams, SearchTable, search, solve
from gameopt.reversi.board import parse_moves
from gameopt.reversi.match import read_openings
from gameopt.reversi.timing import TimeControl, timed_move

ROOT = Path(__file__).resolve().parents[1]
BANDS = ((45, 52), (35, 44), (15, 34))
WAYS = ("new table", "kept table")


def game_line(opening: str) -> list[Board]:
    """Every position of a depth-6 self-play game from ``opening`` (exact from 14)."""
    b = Board.start()
    for m in parse_moves(opening):
        b = b.play(m)
    line = [b]
    while not b.is_game_over():
        if b.legal_moves() == [PASS]:
            b = b.play(PASS)
        else:
            r = search(b, Limit(depth=6)) if b.empties > 14 else solve(b)
            assert r.move is not None
            b = b.play(r.move)
        line.append(b)
    return line


def side_positions(line: list[Board], side: str, min_empties: int) -> list[Board]:
    return [b for b in line if b.side == side and b.empties > min_empties
            and len(b.legal_moves()) > 1]


def run_line(line: list[Board], way: str, depth: int, seconds: float | None,
             out: dict[str, dict[str, list[float]]]) -> None:
    params = SearchParams(mpc=True)
    for side in ("X", "O"):
        table = SearchTable() if way == WAYS[1] else None
        for b in side_positions(line, side, depth + 2):
            t = time.process_time()
            r = search(b, Limit(depth=depth), params, table=table)
            out[way]["cpu"].append(time.process_time() - t)
            out[way]["nodes"].append(r.nodes)
    if seconds is None:
        return
    control = TimeControl(move=seconds)
    for side in ("X", "O"):
        table = SearchTable() if way == WAYS[1] else None
        for b in side_positions(line, side, 14):
            r = timed_move(b, control, end_empties=14, table=table)
            for lo, hi in BANDS:
                if lo <= b.empties <= hi:
                    out[way][f"d{lo}"].append(r.depth)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=Path,
                    default=ROOT / "benchmarks" / "data" / "reversi-openings-8ply.txt")
    ap.add_argument("-n", "--count", type=int, default=10)
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--time", type=float, default=None, metavar="T")
    args = ap.parse_args()
    if not 1 <= args.depth <= 40 or args.count < 1 or (
            args.time is not None and not 0 < args.time <= 60):
        print(f"bad arguments: -n {args.count}, --depth {args.depth}, --time {args.time}: "
              "expected -n >= 1, depth 1..40, 0 < time <= 60", file=sys.stderr)
        return 2
    openings = read_openings(args.openings)[:args.count]
    search(Board.start(), Limit(depth=2), SearchParams(mpc=True))  # kernels loaded
    out: dict[str, dict[str, list[float]]] = {w: {} for w in WAYS}
    for w in WAYS:
        for k in ["cpu", "nodes"] + [f"d{lo}" for lo, _ in BANDS]:
            out[w][k] = []
    for i, opening in enumerate(openings):
        line = game_line(opening)
        for way in (WAYS if i % 2 == 0 else WAYS[::-1]):
            run_line(line, way, args.depth, args.time, out)
    rows = []
    base = out[WAYS[0]]
    for way in WAYS:
        o = out[way]
        nodes, cpu = sum(o["nodes"]), sum(o["cpu"])
        row: list[object] = [way, len(o["nodes"]), f"{nodes:,.0f}", f"{cpu:.2f}",
                             f"{nodes / sum(base['nodes']):.3f}", f"{cpu / sum(base['cpu']):.3f}",
                             f"{statistics.median(o['cpu']) * 1000:.1f}"]
        if args.time is not None:
            row += [f"{statistics.fmean(o[f'd{lo}']):.2f}" for lo, _ in BANDS]
        rows.append(row)
    head = ["table", "searches", f"nodes to depth {args.depth}", "CPU s", "nodes ratio",
            "CPU ratio", "median ms"]
    if args.time is not None:
        head += [f"depth in {args.time:g} s, {lo}-{hi} empties" for lo, hi in BANDS]
    print(format_table(head, rows))
    print(f"\n{len(openings)} game lines from {args.openings.name}; Multi-ProbCut on; "
          "CPU seconds of this process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
