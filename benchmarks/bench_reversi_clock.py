"""Where a game clock goes: self-play on a clock, the shipped allotment against the old one.

For each of the first ``-n`` openings of ``--openings`` (default the 8-ply file of the
strength benchmark) a game is played by gameopt against itself, both sides on a game clock
of ``--clock`` CPU seconds (:func:`~gameopt.reversi.timing.timed_move`, exact from 14
empties and earlier when the solve fits, each side's table kept through the game), once
with each allotment:

* *moves left + 3* [baseline]: the allotment shipped until stop 67, one move's soft
  budget the remaining clock over this side's moves still to play plus 3 (its hard one 4
  soft budgets, at most 0.3 of the clock), whatever the solve's share;
* *planned to the solve* (shipped, :meth:`~gameopt.reversi.timing.TimeControl.allot`):
  the moves before the exact solve share the clock less the solve's reserve.

The table gives each allotment's clock used a game (mean and share), the seconds of its
midgame moves (above 20 empties), the mean depth reached in bands of empties, and the
most empties of a move that was solved exactly (mean over the sides' games). The two
allotments alternate in order from opening to opening, in one process, kernels loaded
before any clock starts; the clock is this process's CPU time.

Run: ``python benchmarks/bench_reversi_clock.py [-n 4] [--clock 12]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from gameopt.core import Limit
from gameopt.core.table import format_table
from gameopt.reversi import PASS, Board, SearchTable, search
from gameopt.reversi.board import parse_moves
from gameopt.reversi.match import read_openings
from gameopt.reversi.timing import HARD_FACTOR, HARD_SHARE, MIN_SECONDS, TimeControl, timed_move

ROOT = Path(__file__).resolve().parents[1]
BANDS = ((41, 52), (31, 40), (21, 30))
END_EMPTIES = 14


@dataclass(frozen=True)
class OldControl(TimeControl):
    """The allotment before the clock was planned to the solve (up to stop 67)."""

    def allot(self, empties: int, remaining: float | None, end_empties: int = 14,
              early: bool = True) -> tuple[float, float]:
        assert self.clock is not None
        left = max(0.0, self.clock if remaining is None else remaining)
        soft = left / (max(1, (empties + 1) // 2) + 3) + 0.8 * self.increment
        hard = min(HARD_FACTOR * soft, HARD_SHARE * left + 0.8 * self.increment)
        return max(MIN_SECONDS, min(soft, hard)), max(MIN_SECONDS, hard)


WAYS: dict[str, Callable[[float], TimeControl]] = {
    "moves left + 3 [baseline]": lambda c: OldControl(clock=c),
    "planned to the solve": lambda c: TimeControl(clock=c),
}


def play(opening: str, control: TimeControl, out: dict[str, list[float]]) -> None:
    """One self-play game on ``control``'s clock, its figures appended to ``out``."""
    assert control.clock is not None
    b = Board.start()
    for m in parse_moves(opening):
        b = b.play(m)
    left = {"X": control.clock, "O": control.clock}
    mid = {"X": 0.0, "O": 0.0}
    solved = {"X": 0, "O": 0}
    tables = {"X": SearchTable(), "O": SearchTable()}
    while not b.is_game_over():
        if b.legal_moves() == [PASS]:
            b = b.play(PASS)
            continue
        s = b.side
        r = timed_move(b, control, left[s], end_empties=END_EMPTIES, table=tables[s])
        left[s] -= r.seconds
        if b.empties > 20:
            mid[s] += r.seconds
        if r.exact:
            solved[s] = max(solved[s], b.empties)
        for lo, hi in BANDS:
            if lo <= b.empties <= hi:
                out[f"d{lo}"].append(r.depth)
        assert r.move is not None
        b = b.play(r.move)
    for s in ("X", "O"):
        out["used"].append(control.clock - left[s])
        out["mid"].append(mid[s])
        out["solved"].append(solved[s])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openings", type=Path,
                    default=ROOT / "benchmarks" / "data" / "reversi-openings-8ply.txt")
    ap.add_argument("-n", "--count", type=int, default=4)
    ap.add_argument("--clock", type=float, default=12.0, metavar="C")
    args = ap.parse_args()
    if args.count < 1 or not 0 < args.clock <= 600:
        print(f"bad arguments: -n {args.count}, --clock {args.clock}: expected -n >= 1, "
              "0 < clock <= 600", file=sys.stderr)
        return 2
    openings = read_openings(args.openings)[:args.count]
    search(Board.start(), Limit(depth=2))  # kernels loaded before any clock starts
    out: dict[str, dict[str, list[float]]] = {
        w: {k: [] for k in ["used", "mid", "solved"] + [f"d{lo}" for lo, _ in BANDS]}
        for w in WAYS}
    names = list(WAYS)
    for i, opening in enumerate(openings):
        for w in (names if i % 2 == 0 else names[::-1]):
            play(opening, WAYS[w](args.clock), out[w])
    rows = []
    for w in names:
        o = out[w]
        used = statistics.fmean(o["used"])
        rows.append([w, len(o["used"]), f"{used:.2f} ({used / args.clock:.0%})",
                     f"{max(o['used']):.2f}", f"{statistics.fmean(o['mid']):.2f}",
                     *[f"{statistics.fmean(o[f'd{lo}']):.2f}" for lo, _ in BANDS],
                     f"{statistics.fmean(o['solved']):.1f}"])
    head = ["allotment", "side-games", "clock used a game (share)", "most used",
            "midgame s a game (> 20 empties)",
            *[f"mean depth, {lo}-{hi} empties" for lo, hi in BANDS],
            "first exact move (empties)"]
    print(format_table(head, rows))
    print(f"\n{len(openings)} self-play games a row from {args.openings.name}, clock "
          f"{args.clock:g} s a side; CPU seconds of this process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
