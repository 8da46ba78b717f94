"""Tree size by depth: gameopt's Multi-ProbCut search against Zebra's on the same positions.

At a fixed depth from 9 plies up Zebra's midgame search is selective (Multi-ProbCut), as
gameopt's is by time. For each depth of ``--depths`` and each of the first ``-n`` openings
of ``--openings`` (default the strength benchmark's 8-ply file) it runs

* Zebra [baseline] (built as the strength benchmark builds it; skipped, saying why,
  without it): ``zebra -l D 14 14 D 14 14 -b 0 -r 0 -evalone -seq MOVES`` (book off),
  reading the nodes and seconds Zebra reports for its search (its own counters; its
  iterative deepening from depth 2 included) and its move;
* gameopt: ``search(board, Limit(depth=D), SearchParams(mpc=True, mpc_t=T))`` for each
  confidence T of ``--t`` (default the shipped 1.5), with the shipped table or that of
  ``--table``: its nodes (all iterations included), its process CPU seconds and its move.
  The kernels are loaded before any clock starts.

The table gives per depth the mean nodes a position on each side, gameopt's nodes over
Zebra's, gameopt's nodes a second, and how many of gameopt's moves are Zebra's; below it,
the growth per ply of each side's nodes from the first depth to the last (the geometric
mean). Node counts of the two programs are each their own (Zebra counts interior nodes
and evaluations alike, as gameopt does), so the growth is the comparable figure.

Run: ``python benchmarks/bench_reversi_zebra_nodes.py [-n 10] [--depths 10,12,14,16]
[--t 1.5,1.0] [--table MPC.npz]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.errors import GameoptError
from gameopt.reversi import Board, SearchParams, search
from gameopt.reversi.match import read_openings
from gameopt.reversi.probcut import read_mpc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_reversi_strength import DEFAULT_OPENINGS, PEERS, build_zebra  # noqa: E402

#: Zebra's search line: "-->  13  -1.31    528399  e6 e7 c6 g5 d2     0.1 s  5090304 nps"
_ZEBRA_LINE = re.compile(r"-->\s*\*?\s*(\d+)\s+\S+\s+(\d+)\s.*?([\d.]+) s\s+\d+ nps")
_ZEBRA_MOVE = re.compile(r"BESTMOVE\s+([a-h][1-8])")


def zebra_search(zdir: Path, seq: str, depth: int) -> tuple[int, float, str]:
    """(nodes, seconds, move) of Zebra's depth-``depth`` search after ``seq``, as it
    reports them."""
    d = str(depth)
    argv = [str(zdir / "zebra"), "-l", d, "14", "14", d, "14", "14", "-b", "0", "-r", "0",
            "-evalone", "-seq", seq]
    res = subprocess.run(argv, cwd=zdir, capture_output=True, text=True, timeout=600)
    lines = _ZEBRA_LINE.findall(res.stdout)
    move = _ZEBRA_MOVE.search(res.stdout)
    if res.returncode != 0 or not lines or move is None:
        raise RuntimeError(f"zebra failed (exit {res.returncode}) after {seq!r}: "
                           f"{(res.stderr or res.stdout)[-200:]!r}")
    got, nodes, secs = lines[-1]
    if int(got) != depth:
        raise RuntimeError(f"zebra reported depth {got}, not {depth}, after {seq!r}")
    return int(nodes), float(secs), move.group(1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS)
    ap.add_argument("-n", "--count", type=int, default=10, help="openings used (first N)")
    ap.add_argument("--depths", default="10,12,14,16", help="search depths (9..24)")
    ap.add_argument("--t", default="1.5", help="gameopt's Multi-ProbCut confidences")
    ap.add_argument("--table", type=Path, default=None,
                    help="gameopt's Multi-ProbCut table (default the shipped one)")
    ap.add_argument("--zebra-dir", type=Path,
                    default=Path.home() / ".cache" / "gameopt-peers" / "zebra")
    ap.add_argument("--peers", type=Path, default=PEERS)
    args = ap.parse_args()
    try:
        depths = [int(x) for x in args.depths.split(",")]
        confidences = [float(x) for x in args.t.split(",")]
    except ValueError:
        ap.error(f"--depths {args.depths!r} / --t {args.t!r}: comma-separated numbers")
    if not depths or not all(9 <= d <= 24 for d in depths) or depths != sorted(set(depths)):
        ap.error(f"--depths {args.depths}: increasing depths in 9..24")
    if not confidences or not all(0 < t <= 5 for t in confidences):
        ap.error(f"--t {args.t}: confidences in (0, 5]")
    if args.count < 1:
        ap.error(f"-n {args.count}: at least 1")
    zdir, how = build_zebra(args.peers, args.zebra_dir)
    if zdir is None:
        print(f"skipped: Zebra is not available ({how})", file=sys.stderr)
        return 0
    try:
        openings = read_openings(args.openings)[:args.count]
        boards = [Board.from_moves(op) for op in openings]
        table = None if args.table is None else read_mpc(args.table)
    except GameoptError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    seqs = [op.replace(" ", "").lower() for op in openings]
    params = {t: SearchParams(mpc=True, mpc_t=t, mpc_table=table) for t in confidences}
    for p in params.values():
        search(Board.start(), Limit(depth=4), p)  # load the kernels before any clock
    n = len(boards)
    rows, first, last = [], {}, {}
    for d in depths:
        z = [zebra_search(zdir, s, d) for s in seqs]
        zn = statistics.fmean(x[0] for x in z)
        row: list[object] = [d, f"{zn / 1e3:,.0f} k", f"{sum(x[1] for x in z):.1f}"]
        first.setdefault("zebra", (d, zn))
        last["zebra"] = (d, zn)
        for t, p in params.items():
            nodes, cpu, same = 0, 0.0, 0
            for b, (_, _, zmove) in zip(boards, z, strict=True):
                c0 = time.process_time()
                r = search(b, Limit(depth=d), p)
                cpu += time.process_time() - c0
                nodes += r.nodes
                same += str(r.move) == zmove
            gn = nodes / n
            first.setdefault(t, (d, gn))
            last[t] = (d, gn)
            row += [f"{gn / 1e3:,.0f} k", f"{gn / zn:.2f}", f"{cpu:.1f}",
                    f"{nodes / max(cpu, 1e-9) / 1e6:.2f} M", f"{same}/{n}"]
        rows.append(row)
        print(f"depth {d} done", file=sys.stderr, flush=True)
    head = ["depth", "Zebra nodes", "Zebra s"]
    for t in confidences:
        head += [f"t={t} nodes", "/ Zebra", "CPU s", "nodes/s", "Zebra's move"]
    print(f"Mean nodes a position over the first {n} openings of {args.openings.name} "
          "(Zebra: its own counters and seconds; gameopt: process CPU seconds)")
    print(format_table(head, rows))
    if len(depths) > 1:
        growth = []
        for key in ["zebra", *confidences]:
            (d0, n0), (d1, n1) = first[key], last[key]
            name = "Zebra" if key == "zebra" else f"gameopt t={key}"
            growth.append(f"{name} {(n1 / n0) ** (1 / (d1 - d0)):.2f}")
        print(f"growth per ply, depth {depths[0]} to {depths[-1]}: " + ", ".join(growth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
