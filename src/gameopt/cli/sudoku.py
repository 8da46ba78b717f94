"""``gameopt sudoku``: solve, generate, bench."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gameopt.cli.common import (
    add_evolution_flags,
    default_data_dir,
    evolution_params,
    progress_for,
)
from gameopt.core import check_count, check_seconds
from gameopt.core.files import atomic_write_text
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.sudoku import (
    METHODS,
    RATINGS,
    SUDOKU_EVOLUTION,
    Puzzle,
    format_grid,
    format_lines,
    load_puzzle_set,
    solve,
    solve_set,
    time_limit,
)

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sudoku", help="Sudoku of any box size: evolution, exact, CP-SAT")
    ss = p.add_subparsers(dest="sudoku_command", metavar="ACTION", required=True)

    s = ss.add_parser("solve", help="solve a puzzle (81-character line) or a file of puzzles")
    s.add_argument("puzzle", metavar="PUZZLE|FILE")
    s.add_argument("--method", choices=METHODS, default="exact")
    s.add_argument("--seed", type=int, default=None, help="seed for evolution")
    s.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="seconds per puzzle: CPU for evolution and exact, wall for cpsat "
                        "(a count cut short is 'unsolved')")
    s.add_argument("--count-limit", type=int, default=2, metavar="K",
                   help="count solutions up to K (exact, cpsat; 2 proves uniqueness)")
    s.add_argument("--line", action="store_true", help="print solutions as one line each")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_evolution_flags(s, SUDOKU_EVOLUTION)
    s.add_argument("--propagate", default=None, action=argparse.BooleanOptionalAction,
                   help="evolution: constraint propagation between runs, restarts from "
                        "partial states built on the best grid (default: on from 16x16 "
                        "up; off with --article)")
    s.set_defaults(func=cmd_solve)

    g = ss.add_parser("generate", help="generate puzzles with a unique solution")
    g.add_argument("--box", type=int, default=3, help="box size b (side b*b; default 3)")
    g.add_argument("--givens", type=int, default=None, help="target number of givens")
    g.add_argument("--difficulty", choices=RATINGS, default=None,
                   help="rating the puzzles must have (the logical solver's, as 'explain' "
                        "prints it; default: any)")
    g.add_argument("--moves", type=int, default=None, metavar="K",
                   help="swap moves of the walk towards fewer givens (default 200 on "
                        "9x9, 0 elsewhere)")
    g.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="CPU seconds per puzzle (the walk stops early; a difficulty not "
                        "found by then exits 2)")
    g.add_argument("--from", dest="source", default=None, metavar="PUZZLE",
                   help="carve the puzzles from this puzzle's solution grid (its box size)")
    g.add_argument("--rate", action="store_true",
                   help="print each puzzle's rating and givens after it (as a comment)")
    g.add_argument("--count", type=int, default=1, help="how many puzzles (default 1)")
    g.add_argument("--seed", type=int, default=None)
    g.add_argument("-o", "--output", default=None, help="write to this file (else stdout)")
    g.set_defaults(func=cmd_generate)

    h = ss.add_parser("hint", help="the next logical step, with the technique's name")
    h.add_argument("puzzle", metavar="PUZZLE")
    h.set_defaults(func=cmd_hint)

    e = ss.add_parser("explain", help="the whole logical path and a difficulty rating")
    e.add_argument("puzzle", metavar="PUZZLE")
    e.add_argument("--candidates", action="store_true",
                   help="draw the candidates where logic stops (puzzles that need guessing)")
    e.set_defaults(func=cmd_explain)

    b = ss.add_parser("bench", help="quick benchmark on the shared public puzzle sets")
    b.add_argument("--data", type=Path, default=None,
                   help="data folder (default ../shared/data beside the project)")
    b.add_argument("--seeds", type=int, default=5, help="evolution seeds on the article puzzle")
    b.add_argument("--workers", type=int, default=None,
                   help="local processes for the evolution runs (default: all CPUs)")
    b.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="run the evolution runs on this Dask scheduler's workers")
    b.set_defaults(func=cmd_bench)


def cmd_solve(args: argparse.Namespace) -> int:
    puzzles = load_puzzle_set(args.puzzle)
    limit = None
    if args.time_limit is not None:
        limit = time_limit(args.method, check_seconds(args.time_limit, "--time-limit"))
    count_limit = check_count(args.count_limit, "--count-limit")
    assert count_limit is not None
    refined = not args.article
    common = {"count_limit": count_limit, "limit": limit, "seed": args.seed,
              "params": evolution_params(args, SUDOKU_EVOLUTION),
              "prune": args.prune and refined, "focus": args.focus and refined,
              "propagate": args.propagate if refined else False}
    if len(puzzles) == 1 and not args.line:
        res = solve(puzzles[0], args.method, progress=progress_for(args.quiet), **common)
        head = _summary(res.method, res.status, res.count, res.stats)
        print(f"{puzzles.names[0] or 'puzzle'}: {head} {res.seconds:.3f} s {res.clock}")
        if res.solution is not None:
            print(format_grid(res.solution, puzzles.box))
        return 0 if res.solved else 1
    out = solve_set(puzzles, args.method, **common)
    lines = format_lines(out.solutions)
    if out.method == "exact":  # the fast path: one line of text per puzzle, no dicts
        assert out.count is not None
        text = [f"{line if k else ''}  # {name}: exact {status} count={k} nodes={g}"
                for line, name, status, k, g in zip(
                    lines, puzzles.names, out.status, out.count.tolist(),
                    out.stats["nodes"].tolist(), strict=True)]
    else:
        counts = [None] * len(out) if out.count is None else [
            None if k < 0 else k for k in out.count.tolist()]
        text = [f"{line if sol else ''}  # {name}: "
                f"{_summary(out.method, status, count, extra)}"
                for line, sol, name, status, count, extra in zip(
                    lines, out.solved.tolist(), puzzles.names, out.status, counts,
                    out.stats["each"], strict=True)]
    sys.stdout.write("\n".join(text) + "\n")
    solved = int(out.solved.sum())
    print(f"{len(out)} puzzles, {solved} solved, {out.method}: {out.seconds:.4f} s "
          f"{out.clock}", file=sys.stderr)
    return 0 if solved == len(out) else 1


def _summary(method: str, status: str, count: int | None, stats: dict[str, object]) -> str:
    """``exact unique count=1 nodes=3``: the method, its verdict and its main figures."""
    shown = "".join(f" {k}={stats[k]}" for k in ("epochs", "restarts", "nodes", "best_error")
                    if stats.get(k) is not None)
    return f"{method} {status}{f' count={count}' if count is not None else ''}{shown}"


def cmd_generate(args: argparse.Namespace) -> int:
    from gameopt.core import Limit
    from gameopt.core.rng import spawn_seeds
    from gameopt.sudoku import count_solutions, explain, generate

    count = check_count(args.count, "--count")
    assert count is not None
    seconds = check_seconds(args.time_limit, "--time-limit")
    limit = Limit(time=seconds, clock="cpu") if seconds is not None else None
    seeds = [args.seed] if count == 1 else spawn_seeds(args.seed, count)
    box, grid = args.box, None
    if args.source is not None:
        source = _one_puzzle(args.source)
        found = count_solutions(source, 1)
        if found.solution is None:
            raise InvalidInputError(f"--from {args.source}: the puzzle has no solution")
        box, grid = source.box, found.solution
    lines = []
    for s in seeds:
        p = generate(box, args.givens, seed=s, difficulty=args.difficulty,
                     moves=args.moves, limit=limit, solution=grid)
        note = f"  # {explain(p).rating}, {p.givens} givens" if args.rate else ""
        lines.append(p.to_line() + note)
    text = "\n".join(lines) + "\n"
    if args.output:
        atomic_write_text(args.output, text)
        print(f"wrote {len(lines)} puzzles to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _one_puzzle(arg: str) -> Puzzle:
    puzzles = load_puzzle_set(arg)
    if len(puzzles) != 1:
        raise InvalidInputError(f"{arg}: expected one puzzle, got {len(puzzles)}")
    return puzzles[0]


def cmd_hint(args: argparse.Namespace) -> int:
    from gameopt.sudoku import explain

    puzzle = _one_puzzle(args.puzzle)
    if puzzle.givens == puzzle.side ** 2:
        print("the puzzle is already solved")
        return 0
    out = explain(puzzle, max_steps=1)
    if not out.steps:
        print(f"no logical step: {out.stop_text}")
        return 1
    step = out.steps[0]
    print(f"{step.text}  [{step.technique}, {step.tier}]")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from gameopt.sudoku import explain, format_candidates

    puzzle = _one_puzzle(args.puzzle)
    out = explain(puzzle)
    print(f"{puzzle.name or 'puzzle'}: {puzzle.side ** 2 - puzzle.givens} empty cells")
    width = len(str(len(out.steps)))
    for i, step in enumerate(out.steps, 1):
        print(f"{i:>{width}}. {step.text}")
    used = ", ".join(f"{name} x{k}" for name, k in out.stats["techniques"].items())
    if out.solved:
        print(format_grid(out.grid, puzzle.box))
    else:
        print(out.stop_text)
        print(format_candidates(out.grid, out.candidates, puzzle.box) if args.candidates
              else format_grid(out.grid, puzzle.box))
    hardest = f", hardest: {out.hardest}" if out.hardest else ""
    print(f"rating: {out.rating}{hardest} ({len(out.steps)} steps: {used or 'none'}; "
          f"{out.seconds:.3f} s {out.clock})")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from gameopt.sudoku import bench
    from gameopt.sudoku.examples import article_puzzle
    from gameopt.sudoku.formats import read_puzzles

    data = (args.data or default_data_dir()) / "sudoku"
    if args.seeds < 1:
        raise InvalidInputError(f"--seeds must be >= 1, got {args.seeds}")
    runs = bench.run_evolution([article_puzzle()], list(range(args.seeds)), SUDOKU_EVOLUTION,
                               60.0, workers=args.workers, scheduler=args.scheduler,
                               progress=progress_for(False))
    s = bench.summarise_evolution(runs)
    print(format_table(["evolution, article puzzle", "solved", "median CPU s", "max CPU s"],
                       [[f"{args.seeds} seeds", f"{s['solved']}/{s['runs']}",
                         s["median_cpu"], s["max_cpu"]]]))
    if not data.is_dir():
        print(f"(no data folder {data}: exact-solver rates skipped)")
        return 0
    rows = []
    for name in ("tdoku_17_clue_200.txt", "tdoku_forum_hardest_1106_100.txt",
                 "radcliffe_easy_d0-1_200.csv"):
        puzzles = read_puzzles(data / name)
        rate, unique, _ = bench.exact_rate(puzzles, min_cpu=0.5, repeats=1)
        cp_rate, _ = bench.cpsat_rate(puzzles[:10])
        rows.append([name, len(puzzles), unique, rate, cp_rate, rate / cp_rate])
    print(format_table(["set", "puzzles", "unique", "exact /CPU s", "cpsat /CPU s", "ratio"],
                       rows))
    return 0
