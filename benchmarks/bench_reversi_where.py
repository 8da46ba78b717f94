"""Where games are lost: exact values along played games, each move's loss, per side.

Reads the games of a GGF file (as ``bench_reversi_strength.py --games DIR`` writes them)
and solves exactly every position with ``--from`` down to ``--to`` empties where the side
to move has a move. Each move between two solved positions is charged with the discs its
side gave away (the exact value before it less the value after it, from the mover's view:
0 for a perfect move), and with a *result lost* when it made the game-theoretic result
(win, draw, loss) worse for the mover. The table gives, per side (the players whose names
start with ``--name``, against the others: the baseline, in the same games) and number of
empties, the moves, the mean loss in discs and the results lost; then, over the games,
``--name``'s score by the exact value at ``--from`` empties against its final score: what
the moves before ``--from`` left it and what the moves after made of it.

A solve stopped by ``--time-limit`` (CPU s) leaves that position unsolved; moves next to it
are not charged (the count is printed). The identity "the losses of a game's moves, signed
by side, add up to the first solved value less the last" is what the tests check.

Run: ``python benchmarks/bench_reversi_where.py GAMES.ggf [--from 22] [--to 14]
[--name gameopt] [-n N] [--time-limit 60]``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.reversi import PASS, Board, solve
from gameopt.reversi.files import GgfGame, read_ggf


@dataclass
class Charge:
    """One move: its side's name, empties before it, discs lost, result lost."""

    side: str
    empties: int
    loss: int
    result_lost: bool


@dataclass
class GameLine:
    """A game's solved positions (empties -> Black's exact value) and charged moves."""

    black: str
    white: str
    black_values: dict[int, int] = field(default_factory=dict)
    charges: list[Charge] = field(default_factory=list)
    unsolved: int = 0
    final_black: float = 0.0


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def analyse_game(game: GgfGame, hi: int, lo: int, seconds: float) -> GameLine:
    """Solve ``game``'s positions with ``hi``..``lo`` empties and charge each move
    between two of them (see the module notes). O(solves)."""
    line = GameLine(game.tags.get("PB", "black"), game.tags.get("PW", "white"))
    res = game.result
    line.final_black = 0.0 if res is None else float(res)
    b = game.start
    positions: list[tuple[Board, int | None]] = []  # (board before the move, Black's value)
    for mv in game.moves:
        if lo <= b.empties <= hi and mv != PASS:
            r = solve(b, Limit(time=seconds))
            value = None if r.stopped else round(r.score) * (1 if b.side == "X" else -1)
            if value is None:
                line.unsolved += 1
            else:
                line.black_values.setdefault(b.empties, value)
            positions.append((b, value))
        b = b.play(mv)
    for (before, v0), (after, v1) in itertools.pairwise(positions):
        if v0 is None or v1 is None or after.empties != before.empties - 1:
            continue  # (a pass between them changes neither the empties nor the value)
        mover = 1 if before.side == "X" else -1
        name = line.black if mover == 1 else line.white
        line.charges.append(Charge(name, before.empties, (v0 - v1) * mover,
                                   _sign(v1 * mover) < _sign(v0 * mover)))
    return line


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=Path, help="a GGF file of played games")
    ap.add_argument("--from", dest="hi", type=int, default=22, help="most empties solved")
    ap.add_argument("--to", dest="lo", type=int, default=14, help="fewest empties solved")
    ap.add_argument("--name", default="gameopt", help="the side to report (name prefix)")
    ap.add_argument("-n", "--count", type=int, default=None, help="first N games only")
    ap.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                    help="CPU seconds per solve (default 60)")
    args = ap.parse_args()
    if not 1 <= args.lo <= args.hi <= 30 or (args.count is not None and args.count < 1) \
            or not 0 < args.time_limit <= 3600:
        print(f"bad arguments: --from {args.hi}, --to {args.lo}, -n {args.count}, "
              f"--time-limit {args.time_limit}: expected 1 <= to <= from <= 30, n >= 1, "
              "0 < time-limit <= 3600", file=sys.stderr)
        return 2
    try:
        games = read_ggf(args.games)
    except (OSError, InvalidInputError) as err:
        print(f"games {args.games}: {err}", file=sys.stderr)
        return 2
    games = games[:args.count] if args.count is not None else games
    solve(Board.start().play(Board.start().legal_moves()[0]), Limit(nodes=1000))  # kernels
    cpu = time.process_time()
    lines = [analyse_game(g, args.hi, args.lo, args.time_limit) for g in games]
    cpu = time.process_time() - cpu
    ours = [ln for ln in lines if ln.black.startswith(args.name) or
            ln.white.startswith(args.name)]
    rows = []
    for mine in (True, False):
        for e in range(args.hi, args.lo - 1, -1):
            ch = [c for ln in lines for c in ln.charges if c.empties == e and
                  c.side.startswith(args.name) == mine]
            if ch:
                rows.append([args.name if mine else "others", e, len(ch),
                             f"{sum(c.loss for c in ch) / len(ch):.2f}",
                             sum(c.result_lost for c in ch)])
        ch = [c for ln in lines for c in ln.charges if c.side.startswith(args.name) == mine]
        if ch:
            rows.append([args.name if mine else "others", "all", len(ch),
                         f"{sum(c.loss for c in ch) / len(ch):.2f}",
                         sum(c.result_lost for c in ch)])
    print(format_table(["side", "empties", "moves", "mean discs lost", "results lost"], rows))
    at_hi, final = [], []
    for ln in ours:
        view = 1 if ln.black.startswith(args.name) else -1
        if args.hi in ln.black_values:
            at_hi.append(_sign(ln.black_values[args.hi] * view))
            final.append(_sign(ln.final_black * view))
    if at_hi:
        def score(s: list[int]) -> float:
            return 100 * sum((x + 1) / 2 for x in s) / len(s)
        print(f"\n{args.name} in {len(at_hi)} games solved at {args.hi} empties: "
              f"{score(at_hi):.1f} % by the exact value there, {score(final):.1f} % by "
              "the final result")
    print(f"{len(lines)} games of {args.games.name}; {sum(ln.unsolved for ln in lines)} "
          f"solves stopped at {args.time_limit:g} s; {cpu:.1f} CPU s of this process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
