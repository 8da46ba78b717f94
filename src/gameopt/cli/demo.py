"""``gameopt demo``: run every system on embedded default data and print a short report."""

from __future__ import annotations

import argparse
import time

from gameopt.core.table import format_table

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="run every system on embedded data; print a report")
    p.add_argument("--seed", type=int, default=1, help="seed for the stochastic parts")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    print("gameopt demo: every working system on embedded data\n")
    ok = _sudoku(args.seed)
    ok = _go() and ok
    ok = _reversi(args.seed) and ok
    _pairing(args.seed)
    _deck(args.seed)
    return 0 if ok else 1


def _sudoku(seed: int) -> bool:
    from gameopt.sudoku import METHODS, format_grid, generate, solve, time_limit, warm
    from gameopt.sudoku.examples import article_puzzle

    print("## Sudoku: McCaffrey's puzzle (MSDN Magazine, Nov 2016)")
    puzzle = article_puzzle()
    print(format_grid(puzzle.cells, puzzle.box), "\n")
    rows: list[list[object]] = []
    solutions = []
    for method in METHODS:
        limit = None if method == "exact" else time_limit(method, 60)
        res = solve(puzzle, method, seed=seed, limit=limit)
        solutions.append(None if res.solution is None else res.solution.tobytes())
        detail = ", ".join(f"{k}={res.stats[k]}" for k in ("restarts", "epochs", "nodes")
                           if k in res.stats)
        rows.append([method, res.status, f"{res.seconds:.4f}", res.clock, detail])
    print(format_table(["method", "status", "seconds", "clock", "detail"], rows))
    same = len(set(solutions)) == 1 and solutions[0] is not None
    print(f"\nall three methods give the same verified solution: {'yes' if same else 'NO'}\n")
    if solutions[0] is not None:
        print(format_grid(res.solution, puzzle.box), "\n")  # type: ignore[arg-type]

    print("## Sudoku: generated puzzles (unique solution), solved by evolution and exact")
    rows = []
    for box, givens in ((2, None), (3, 26), (4, 120)):
        warm(box)  # load the kernels before the clock starts
        t0 = time.process_time()
        p = generate(box, givens, seed=seed)
        gen_s = time.process_time() - t0
        ex = solve(p, "exact")
        ev = solve(p, "evolution", seed=seed, limit=time_limit("evolution", 30))
        rows.append([f"{p.side}x{p.side}", p.givens, f"{gen_s:.2f}", ex.status,
                     f"{ex.seconds:.4f}", ev.status, f"{ev.seconds:.2f}"])
    print(format_table(["size", "givens", "generate CPU s", "exact", "exact CPU s",
                        "evolution", "evolution CPU s"], rows))
    return same


def _go() -> bool:
    from gameopt.go import check_msp_board, msp_table, solve_msp
    from gameopt.go.text import format_text

    print("## Go: the maximum number of strings MSP(n) (Miyashiro, Yano, Muramatsu 2008)")
    res = solve_msp(19)
    board = check_msp_board(res)
    print(f"MSP(19) = {res.msp}: {res.gamma} empty points, {board.string_count()} strings, "
          f"every one with a liberty ({res.method}, {res.seconds:.3f} s {res.clock}; "
          "Miyashiro, Yano and Muramatsu's CPLEX proof took about 40 days)\n")
    print(format_text(board), "\n")
    print(format_table(["n", "MSP(n)", "γ", "proved by", "wall s", "board"],
                       msp_table(list(range(5, 17)))))
    return res.msp == 277 and res.proven


def _reversi(seed: int) -> bool:
    from gameopt.core import Limit
    from gameopt.reversi import Board, perft, search, solve
    from gameopt.reversi.match import random_position

    print("\n## Othello: perft, an exact endgame solve and a midgame search")
    start = Board.start()
    leaves = perft(start, 9)
    print(f"perft(9) from the start = {leaves:,} (standard: 3,005,288)")
    b = random_position(18, seed=seed)
    r = solve(b)
    print(b.draw(b.moves_bitboard()))
    print(f"exact: {r.move} scores {int(r.score):+d} for "
          f"{'black' if b.side == 'X' else 'white'} ({r.nodes:,} nodes, {r.seconds:.2f} s); "
          f"PV {r.pv_string()}")
    m = search(Board.from_moves("f5d6c3d3c4"), Limit(depth=10))
    print(f"after f5d6c3d3c4, depth {m.depth}: {m.move} {m.score:+.2f} discs, PV "
          f"{m.pv_string()} ({m.nodes:,} nodes, {m.seconds:.2f} s)")
    return leaves == 3005288 and r.exact


def _pairing(seed: int) -> None:
    from gameopt.pairing import SimConfig, simulate_rules
    from gameopt.pairing.simulate import SUMMARY_COLUMNS

    print("\n## Othello Swiss pairing: 10 simulated events of 40 players x 7 rounds")
    rows = simulate_rules(["exact", "slim", "naive"], SimConfig(players=40, rounds=7),
                          events=10, seed=seed, workers=1)
    print(format_table(list(SUMMARY_COLUMNS), rows))


def _deck(seed: int) -> None:
    from gameopt.deck import Rules, solve, to_problem
    from gameopt.deck.synth import synthetic_data

    print("\n## Deck: synthetic pool of 4,000 kinds, 2,000 owned, scores from 20,000 decks")
    pool, collection, scores = synthetic_data(seed)
    rows = []
    for rules in (Rules(cost_cap=220), Rules(cost_cap=200, attribute="god", attribute_min=10)):
        problem, _ = to_problem(pool, collection, rules, scores)
        for method in ("greedy", "hc", "vds"):
            r = solve(problem, method, seed=seed)  # kernels loaded first, not timed
            rule = f"cost <= {rules.cost_cap}" + (f", >= {rules.attribute_min} {rules.attribute}"
                                                   if rules.attribute else "")
            rows.append([rule, method, round(r.score, 2), r.cost,
                         f"{r.seconds * 1000:.0f} ({r.clock})"])
    print(format_table(["rules", "method", "score", "cost", "ms"], rows))
