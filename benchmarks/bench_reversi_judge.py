"""Move quality of evaluations at equal depth, judged position by position: a cheaper,
lower-variance screen than a match for comparing weights files.

Midgame positions (``--min-empties``..``--max-empties``, default 17..52 empties, more than
one legal move) are drawn from game records (``--ggf``: for instance the games
``bench_reversi_strength.py --games DIR`` writes; without it, the shipped weights play
themselves at depth 6 from the strength benchmark's openings, both colours). For each
position every candidate evaluation, the shipped weights first [baseline], chooses its
move by a full-width search of ``--depth`` plies (default 8, the strength benchmark's
equal-depth row). Each distinct chosen move is then judged by the value of the position it
leads to, for the side that moved:

* exactly, by gameopt's endgame solver, when that position has at most ``--exact-child``
  empties (default 21);
* otherwise by Zebra's search (``--zebra-depth``, default 14, exact from 16 empties; book
  off), an independent judge much deeper than the searches it judges (Zebra is built as the
  strength benchmark builds it, and the benchmark skips, saying why, without it; with
  ``--own-judge`` and no ``--zebra-cand`` it does not need Zebra).

``--zebra-cand`` adds Zebra's own depth-``--depth`` moves as the candidate ``zebra`` (exact
from the strength benchmark's E empties, book off): where in the game the opponent chooses
better. ``--own-judge D`` judges the positions above the exact range by gameopt's own
depth-D Multi-ProbCut search (shipped weights) instead of Zebra's, to see how much a
verdict there leans toward the judge's own evaluation: a deep search prefers the moves
its own evaluation prefers, so above the exact range the difference between moves chosen
by different evaluations measures in part their agreement with the judge's evaluation
(measured: README, "Where Zebra chooses better").

Per candidate and zone of the game: how many of its moves differ from the shipped
weights', the mean loss against the best judged move of the set, and the mean difference
from the shipped weights' moves with a 95 % interval (paired by position). Positions whose
judged child must pass are left out.

Calibration (2026-11-28, 2,500 positions of the shipped weights' 400 games against Zebra
on two fresh random opening samples; README "Games against the opponent"): over nine
weights files, Spearman's rank correlation between this judge and their 400-game depth-8
scores against Zebra was 0.87-0.94; the three files 5-12 points below the shipped weights
in games were below them here by 0.07-0.17 discs a move at 95 % (intervals about
+-0.065), at about a tenth of a match's CPU time per candidate.

Run: ``python benchmarks/bench_reversi_judge.py [--ggf FILE ...] [-n 1000] [--cand
NAME=WEIGHTS ...] [--zebra-cand] [--own-judge D] [--depth 8] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from gameopt.core import Limit
from gameopt.core.parallel import parallel_map
from gameopt.core.table import format_table
from gameopt.reversi import Board, SearchParams, search, solve
from gameopt.reversi.board import PASS, Move, parse_moves
from gameopt.reversi.files import read_ggf
from gameopt.reversi.match import parse_player, pattern_params, read_openings, run_match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_reversi_strength import (  # noqa: E402
    DEFAULT_OPENINGS,
    PEERS,
    build_zebra,
    equal_depth_exact,
)


def _moves(job: tuple[str, list[Board], int]) -> list[Move]:
    """The depth-``d`` move of each board with the weights file ``spec`` ("" = shipped)."""
    spec, boards, depth = job
    params = replace(SearchParams() if spec == "" else pattern_params(spec), tt_bits=18)
    out = []
    for b in boards:
        m = search(b, Limit(depth=depth), params=params).move
        assert m is not None
        out.append(m)
    return out


def _exact(board: Board) -> float:
    return float(solve(board).score)


def _own(job: tuple[Board, int]) -> float:
    """gameopt's own judge: the shipped weights' depth-``d`` Multi-ProbCut search value."""
    board, depth = job
    params = replace(SearchParams(), tt_bits=20, mpc=True)
    return float(search(board, Limit(depth=depth), params=params).score)


def _zebra_stdout(zdir: Path, seq: str, depth: int, exact: int) -> str | None:
    """What Zebra prints for the position after ``seq`` searched to ``depth`` (exact from
    ``exact`` empties, book off), or None when it fails."""
    d, e = str(depth), str(exact)
    r = subprocess.run(["./zebra", "-quiet", "-l", d, e, e, d, e, e, "-b", "0", "-r", "0",
                        "-evalone", "-seq", seq], cwd=zdir, capture_output=True, text=True,
                       timeout=600)
    return r.stdout if r.returncode == 0 else None


def zebra_move(zdir: Path, seq: str, depth: int) -> Move | None:
    """Zebra's depth-``depth`` move after ``seq``, exact from the strength benchmark's
    empties (:func:`equal_depth_exact`), as its adapter plays."""
    out = _zebra_stdout(zdir, seq, depth, equal_depth_exact(depth))
    found = re.search(r"^BESTMOVE ([a-h][1-8])", out or "", re.M)
    return Move.from_str(found.group(1)) if found else None


def zebra_value(zdir: Path, seq: str, depth: int) -> float | None:
    """Zebra's search value (discs, side to move) of the position after ``seq``."""
    out = _zebra_stdout(zdir, seq, depth, 16)
    found = re.findall(r"^-->\s+\S+\s+([+-]?[\d.]+)", out or "", re.M)
    return float(found[-1]) if found else None


def positions(games: list[tuple[Board, tuple[Move, ...]]], lo: int, hi: int = 52
              ) -> list[tuple[Board, str]]:
    """Every position of the games with ``lo``..``hi`` empties and two or more legal moves,
    with its move sequence from the start (up to a game's first pass)."""
    out = []
    for start, moves in games:
        b, seq = start, ""
        for m in moves:
            if m == PASS:
                break
            if lo <= b.empties <= hi and len(b.legal_moves()) > 1:
                out.append((b, seq))
            b, seq = b.play(m), seq + str(m).lower()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ggf", type=Path, nargs="*", default=[],
                    help="game records from the standard start (default: self-play)")
    ap.add_argument("-n", "--count", type=int, default=1000, help="positions judged")
    ap.add_argument("--cand", action="append", default=[], metavar="NAME=WEIGHTS",
                    help="a weights file to compare with the shipped weights (repeat)")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--zebra-depth", type=int, default=14)
    ap.add_argument("--exact-child", type=int, default=21)
    ap.add_argument("--min-empties", type=int, default=17)
    ap.add_argument("--max-empties", type=int, default=52)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--zebra-dir", type=Path,
                    default=Path.home() / ".cache" / "gameopt-peers" / "zebra")
    ap.add_argument("--zebra-cand", action="store_true",
                    help="also judge Zebra's own depth-D moves (the candidate 'zebra')")
    ap.add_argument("--own-judge", type=int, default=0, metavar="D",
                    help="judge above the exact range by gameopt's own depth-D Multi-ProbCut "
                         "search (shipped weights) instead of Zebra's (0: Zebra)")
    args = ap.parse_args()
    cands = [("shipped", "")]
    for c in args.cand:
        name, sep, path = c.partition("=")
        if not sep or not name or not Path(path).is_file():
            ap.error(f"--cand {c!r}: expected NAME=WEIGHTS with an existing file")
        if name in (n for n, _ in cands):
            ap.error(f"--cand {c!r}: the name {name!r} is taken (names must differ, and "
                     "'shipped' is the baseline)")
        cands.append((name, path))
    names = [n for n, _ in cands] + (["zebra"] if args.zebra_cand else [])
    if args.zebra_cand and "zebra" in (n for n, _ in cands):
        ap.error("--zebra-cand: the name 'zebra' is taken by a --cand")
    if not (0 <= args.own_judge <= 30 and 1 <= args.count <= 100_000 and 1 <= args.depth <= 20
            and 1 <= args.zebra_depth <= 30 and 0 <= args.exact_child <= 24
            and 17 <= args.min_empties <= args.max_empties <= 52):
        ap.error("-n 1..100000, --depth 1..20, --own-judge 0..30, --zebra-depth 1..30, "
                 "--exact-child 0..24, 17 <= --min-empties <= --max-empties <= 52")
    for name, path in cands[1:]:
        try:
            pattern_params(path)
        except ValueError as e:  # InvalidInputError: a bad weights file
            ap.error(f"--cand {name}: {e}")
    zdir = Path()  # Zebra is needed only to judge (no --own-judge) or as a candidate
    if args.zebra_cand or not args.own_judge:
        found, how = build_zebra(PEERS, args.zebra_dir)
        if found is None:
            print(f"skipped: Zebra is not available ({how})", file=sys.stderr)
            return 0
        zdir = found
    if args.ggf:
        games = []
        for f in args.ggf:
            try:
                games += [(g.start, g.moves) for g in read_ggf(f)]
            except (OSError, ValueError) as e:
                ap.error(f"--ggf {f}: {e}")
        if any(s != Board.start() for s, _ in games):
            ap.error("--ggf: every game must start from the standard position")
        source = " ".join(str(f) for f in args.ggf)
    else:
        ops = read_openings(DEFAULT_OPENINGS)
        res = run_match(parse_player("depth=6", "a"), parse_player("depth=6", "b"), ops,
                        workers=args.workers)
        games = [(Board.start(), tuple(parse_moves(g.opening)) + g.moves)
                 for g in res.games]
        source = f"self-play of the shipped weights at depth 6 from {DEFAULT_OPENINGS.name}"
    pool = positions(games, args.min_empties, args.max_empties)
    if len(pool) < args.count:
        ap.error(f"-n {args.count}: only {len(pool)} positions in the games")
    rng = np.random.default_rng(args.seed)
    pos = [pool[i] for i in sorted(rng.choice(len(pool), args.count, replace=False))]
    boards = [b for b, _ in pos]
    print(f"{len(pos)} positions of {len(games)} games ({source}); Zebra {how}",
          file=sys.stderr)

    t = time.perf_counter()
    jobs = [(path, boards, args.depth) for _, path in cands]
    chosen: dict[str, Sequence[Move | None]] = dict(zip(
        (n for n, _ in cands), parallel_map(_moves, jobs, workers=args.workers), strict=True))
    if args.zebra_cand:
        with ThreadPoolExecutor(args.workers) as ex:
            chosen["zebra"] = list(ex.map(lambda p: zebra_move(zdir, p[1], args.depth), pos))
    search_wall = time.perf_counter() - t
    need = sorted({(i, m.square) for ms in chosen.values() for i, m in enumerate(ms)
                   if m is not None})
    children = {(i, s): boards[i].play(Move(s)) for i, s in need}
    judged = {k: c for k, c in children.items() if c.legal_moves() not in ([], [PASS])}
    exact_keys = [k for k, c in judged.items() if c.empties <= args.exact_child]
    deep_keys = [k for k, c in judged.items() if c.empties > args.exact_child]
    t = time.perf_counter()
    values: dict[tuple[int, int], float | None] = dict.fromkeys(children)
    for k, v in zip(exact_keys, parallel_map(_exact, [judged[k] for k in exact_keys],
                                             workers=args.workers), strict=True):
        values[k] = -float(v)
    if args.own_judge:
        ov = parallel_map(_own, [(judged[k], args.own_judge) for k in deep_keys],
                          workers=args.workers)
        for k, o in zip(deep_keys, ov, strict=True):
            values[k] = -o
    else:
        with ThreadPoolExecutor(args.workers) as ex:
            zv = ex.map(lambda k: zebra_value(zdir, pos[k[0]][1] + str(Move(k[1])).lower(),
                                              args.zebra_depth), deep_keys)
            for k, z in zip(deep_keys, zv, strict=True):
                values[k] = None if z is None else -z
    judge_wall = time.perf_counter() - t
    def value(n: str, i: int) -> float | None:
        m = chosen[n][i]
        return None if m is None else values[(i, m.square)]

    ok = [i for i in range(len(pos)) if all(value(n, i) is not None for n in names)]
    val = {n: np.array([value(n, i) for i in ok], dtype=float) for n in names}
    best = np.max(np.stack([val[n] for n in names]), axis=0)
    by_solver = np.array([boards[i].empties - 1 <= args.exact_child for i in ok])
    deep = f"own d{args.own_judge}" if args.own_judge else "Zebra"
    zones = [("all", np.ones(len(ok), bool))]
    if by_solver.any() and not by_solver.all():  # both judges: a row set for each
        zones += [("exact judge", by_solver), (f"{deep} judge", ~by_solver)]
    rows: list[list[object]] = []
    for zone, sel in zones:
        for n in names:
            d = (val[n] - val["shipped"])[sel]
            differ = sum(chosen[n][i] != chosen["shipped"][i]
                         for k, i in enumerate(ok) if sel[k])
            half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
            rows.append([zone, n, int(sel.sum()), differ, f"{(best - val[n])[sel].mean():.3f}",
                         "baseline" if n == "shipped" else
                         f"{d.mean():+.3f} ({d.mean() - half:+.3f}..{d.mean() + half:+.3f})"])
    print(format_table(["zone", "weights", "positions", "moves differing", "loss vs best",
                        "discs vs shipped (95 %)"], rows))
    print(f"depth-{args.depth} searches: {len(names)} x {len(pos)} positions in "
          f"{search_wall:.0f} s wall ({args.workers} workers, kernel loading included); "
          f"{len(exact_keys)} moves judged exactly, {len(deep_keys)} by "
          + (f"gameopt's own depth-{args.own_judge} MPC search" if args.own_judge
             else f"Zebra depth {args.zebra_depth}")
          + f": {judge_wall:.0f} s wall; {len(pos) - len(ok)} positions left out (a judged "
          "child passes, or Zebra gave no move or value)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
