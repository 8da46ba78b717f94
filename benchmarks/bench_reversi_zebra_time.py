"""Zebra's CPU seconds a move by depth, and gameopt's by time, on the positions of games.

A strength row "gameopt T s a move against Zebra depth D" is at equal time only when
Zebra's depth D costs about T a move, and Zebra at a fixed depth spends very different
times on different moves (its exact solve and its selective search both vary). This
benchmark measures that on the positions where a match spends its time: every midgame
position (more than ``--exact`` empties, at least two legal moves, after the opening) of
the games of ``--games FILE.ggf`` (e.g. a strength run's ``--games`` output), or, without
one, of gameopt ``depth=4`` self-play games from the first ``-n`` openings of
``--openings``. On each position it runs

* Zebra as the NBoard adapter ``../shared/peers/zebra_nboard.py`` runs it for a ``go``
  (``zebra -quiet -l D E E D E E -b 0 -r 0 -evalone -seq MOVES``, a process per move), at
  each depth of ``--depths``, measuring the child's CPU time (``RUSAGE_CHILDREN``, user +
  system); depth 1 is the baseline: the process start and the loading of Zebra's
  coefficients, which every one of its moves pays;
* gameopt at each ``--times`` seconds a move (CPU clock, exact from ``--exact`` empties,
  the defaults of a match spec ``time=T,end=E``), measuring its process CPU time per move.
  The kernels are compiled and loaded before any timing.

The table gives per setting the mean and median CPU seconds a move and the mean less
Zebra's depth-1 baseline (its thinking time). Run: ``python
benchmarks/bench_reversi_zebra_time.py [--games FILE.ggf] [-n 10] [--depths 1,12,19,20]
[--times 0.1,1] [--max-positions 400]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.errors import GameoptError
from gameopt.reversi.board import Board, parse_moves
from gameopt.reversi.files import read_ggf
from gameopt.reversi.match import Player, play_game, read_openings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_reversi_strength import DEFAULT_OPENINGS, PEERS, build_zebra  # noqa: E402


def midgame_positions(lines: list[tuple[Board, list[str]]], exact: int, skip: int = 8
                      ) -> list[tuple[str, Board]]:
    """``(moves from the start as a Zebra -seq string, board)`` for every position of the
    games (each a start board and its moves, passes ``"PS"``) after the first ``skip``
    plies with more than ``exact`` empties and at least two legal moves."""
    out = []
    for start, moves in lines:
        board, seq = start, []
        for k, m in enumerate(moves):
            if k >= skip and board.empties > exact and len(board.legal_moves()) > 1:
                out.append(("".join(seq), board))
            board = board.play(m)
            if m != "PS":
                seq.append(m.lower())
    return out


def zebra_cpu(zdir: Path, seq: str, depth: int, exact: int) -> float:
    """CPU seconds of one Zebra call at ``depth`` (exact from ``exact``) after ``seq``."""
    e, d = str(exact), str(depth)
    argv = [str(zdir / "zebra"), "-quiet", "-l", d, e, e, d, e, e, "-b", "0", "-r", "0",
            "-evalone", "-seq", seq]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run(argv, cwd=zdir, capture_output=True, text=True, timeout=600)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0 or "BESTMOVE" not in res.stdout:
        raise RuntimeError(f"zebra failed (exit {res.returncode}) after {seq!r}: "
                           f"{(res.stderr or res.stdout)[-200:]!r}")
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def gameopt_cpu(player: Player, board: Board) -> float:
    t = time.process_time()
    player.choose(board)
    return time.process_time() - t


def parse_numbers(text: str, what: str) -> list[float]:
    """``"1,12"`` -> [1.0, 12.0]; a ValueError naming ``what`` otherwise."""
    try:
        out = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a comma-separated list of numbers") from None
    if not out:
        raise ValueError(f"{what}: {text!r} is empty")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=Path, default=None, metavar="FILE.ggf",
                    help="positions from these games (default: gameopt depth=4 self-play "
                         "from the first -n openings)")
    ap.add_argument("-n", "--count", type=int, default=10, help="games used (first N)")
    ap.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS)
    ap.add_argument("--depths", default="1,12,19,20", help="Zebra depths (1: the baseline)")
    ap.add_argument("--times", default="0.1,1", help="gameopt seconds a move")
    ap.add_argument("--exact", type=int, default=14, help="both solve exactly from here")
    ap.add_argument("--max-positions", type=int, default=400)
    ap.add_argument("--zebra-dir", type=Path,
                    default=Path.home() / ".cache" / "gameopt-peers" / "zebra")
    ap.add_argument("--peers", type=Path, default=PEERS)
    args = ap.parse_args()
    try:
        depth_values = parse_numbers(args.depths, "--depths")
        times = parse_numbers(args.times, "--times")
    except ValueError as e:
        ap.error(str(e))
    depths = [int(d) for d in depth_values]
    if (depths != depth_values or not all(1 <= d <= 30 for d in depths)
            or not all(0 < t <= 60 for t in times)):
        ap.error(f"--depths {args.depths} / --times {args.times}: depths 1..30, "
                 "times 0 < T <= 60")
    if not (1 <= args.count and 1 <= args.max_positions and 0 <= args.exact <= 30):
        ap.error("-n and --max-positions must be >= 1, --exact 0..30")
    zdir, how = build_zebra(args.peers, args.zebra_dir)
    if zdir is None:
        print(f"skipped: Zebra is not available ({how})", file=sys.stderr)
        return 0
    try:
        if args.games is not None:
            lines = [(g.start, [str(m) for m in g.moves])
                     for g in read_ggf(args.games)[:args.count]]
            source = f"the first {len(lines)} games of {args.games}"
        else:
            ops = read_openings(args.openings)[:args.count]
            p = Player.from_spec("depth=4,end=14", "self")
            lines = [(Board.start(), [str(m) for m in parse_moves(op)]
                      + [str(m) for m in play_game(p, p, op)[0]]) for op in ops]
            source = f"gameopt depth=4 self-play from the first {len(ops)} openings"
    except GameoptError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if any(start != Board.start() for start, _ in lines):
        print("error: Zebra's -seq needs games from the standard start", file=sys.stderr)
        return 2
    positions = midgame_positions(lines, args.exact)[:args.max_positions]
    if not positions:
        print("error: no midgame positions in those games", file=sys.stderr)
        return 2
    print(f"{len(positions)} positions from {source}; Zebra {how} in {zdir}",
          file=sys.stderr)
    rows = []
    base = None
    for d in depths:
        cpus = [zebra_cpu(zdir, seq, d, args.exact) for seq, _ in positions]
        if d == 1:
            base = statistics.fmean(cpus)
        rows.append((f"Zebra depth {d}", cpus))
    for t in times:
        p = Player.from_spec(f"time={t},end={args.exact}", "g")
        p.choose(positions[0][1])  # compile / load the kernels off the clock
        rows.append((f"gameopt {t:g} s/move", [gameopt_cpu(p, b) for _, b in positions]))
    table = []
    for name, cpus in rows:
        mean = statistics.fmean(cpus)
        think = "" if base is None or not name.startswith("Zebra") else f"{mean - base:.3f}"
        table.append([name, len(cpus), f"{mean:.3f}", f"{statistics.median(cpus):.3f}",
                      f"{max(cpus):.3f}", think])
    print(format_table(["setting", "positions", "mean CPU s", "median", "max",
                        "mean less Zebra's depth 1"], table))
    print("\nCPU seconds per move (process time: RUSAGE_CHILDREN for Zebra, "
          "time.process_time for gameopt, one position after the other)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
