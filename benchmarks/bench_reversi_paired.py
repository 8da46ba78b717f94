"""Two matches on the same openings, compared opening by opening (a paired difference).

Two runs of ``bench_reversi_strength.py`` (or ``gameopt reversi match --games``) that
differ in one setting of gameopt, against the same opponent on the same openings, are
compared more sharply pair by pair than by their two scores: most of a score's noise is
the openings, and it cancels in the difference. This reads the two games files (whole
``.ggf`` files or the ``.ggf.part`` files of runs still going or stopped), finds in each
game the player whose name starts with ``--name`` (exactly one per game), groups games
into pairs by their first ``--plies`` moves (one game with each colour), and prints:

* per file, the complete pairs, ``--name``'s score over them with the pentanomial 95 %
  interval of :func:`gameopt.reversi.match.pentanomial_stats`, and its pair counts;
* the *paired difference* over the openings complete in both files: the mean of
  (A's pair points − B's pair points) / 2, in score points, with a 95 % interval from
  the normal model over those per-opening differences. B is the baseline.

An opening played more than once in a file (a random sample may repeat one) forms as
many pairs as it has games of both colours, matched in file order, and pairs with the
same occurrence in the other file.

Run: ``python benchmarks/bench_reversi_paired.py A.ggf B.ggf [--name gameopt]
[--plies 8]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.reversi.files import GgfGame, read_ggf
from gameopt.reversi.match import pentanomial_stats


@dataclass(frozen=True)
class Pairs:
    """A file's complete pairs: (opening, occurrence) -> ``--name``'s points in the pair
    (0, 0.5, ..., 2), and the games left without a partner."""

    points: dict[tuple[str, int], float]
    unpaired: int


def _points(game: GgfGame, name: str, where: str) -> tuple[bool, float]:
    """(``name`` had Black, its points in ``game``)."""
    black, white = game.tags.get("PB", ""), game.tags.get("PW", "")
    is_black = black.startswith(name)
    if is_black == white.startswith(name):
        raise InvalidInputError(f"{where}: players {black!r} and {white!r}: expected exactly "
                                f"one whose name starts with {name!r}")
    diff = game.result
    if diff is None:
        raise InvalidInputError(f"{where}: no result (no RE and the game is not over)")
    mine = diff if is_black else -diff
    return is_black, 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0


def pairs(games: list[GgfGame], name: str, plies: int, source: str) -> Pairs:
    """Pair the games of one file by their first ``plies`` moves (see the module notes).

    Raises
    ------
    InvalidInputError
        A game shorter than ``plies``, without exactly one ``name`` player, or without a
        result (no ``RE`` and not over); the message names the file and the game's number.
    """
    seen: dict[str, dict[bool, list[float]]] = defaultdict(lambda: {True: [], False: []})
    for i, game in enumerate(games, 1):
        where = f"{source}: game {i}"
        if len(game.moves) < plies:
            raise InvalidInputError(f"{where}: {len(game.moves)} moves, fewer than the "
                                    f"{plies} plies of an opening")
        key = "".join(str(m) for m in game.moves[:plies])
        black, pts = _points(game, name, where)
        seen[key][black].append(pts)
    out: dict[tuple[str, int], float] = {}
    unpaired = 0
    for key, by_colour in seen.items():
        both = min(len(by_colour[True]), len(by_colour[False]))
        for k in range(both):
            out[(key, k)] = by_colour[True][k] + by_colour[False][k]
        unpaired += len(by_colour[True]) + len(by_colour[False]) - 2 * both
    return Pairs(out, unpaired)


def paired_difference(a: Pairs, b: Pairs) -> tuple[int, float, tuple[float, float]]:
    """(openings complete in both, mean of A's pair score − B's, 95 % interval), in score
    points (a pair's points / 2). The interval is the normal model's (NaN with fewer than
    two openings)."""
    common = sorted(set(a.points) & set(b.points))
    diffs = [(a.points[k] - b.points[k]) / 2 for k in common]
    if not diffs:
        return 0, math.nan, (math.nan, math.nan)
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return 1, mean, (math.nan, math.nan)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return len(diffs), mean, (mean - half, mean + half)


def _row(label: str, p: Pairs) -> list[str]:
    counts = [0] * 5
    for v in p.points.values():
        counts[round(2 * v)] += 1
    if not p.points:
        return [label, "0", str(p.unpaired), "-", "-"]
    score, (lo, hi), *_ = pentanomial_stats(counts)
    return [label, str(len(p.points)), str(p.unpaired),
            f"{100 * score:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})", " ".join(map(str, counts))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path, help="the games of the setting under test")
    ap.add_argument("b", type=Path, help="the games of the baseline")
    ap.add_argument("--name", default="gameopt", help="the compared player's name prefix")
    ap.add_argument("--plies", type=int, default=8, help="the openings' length in plies")
    args = ap.parse_args(argv)
    if args.plies < 0:
        print(f"bench_reversi_paired: error: --plies {args.plies}: expected 0 or more",
              file=sys.stderr)
        return 2
    try:
        pa = pairs(read_ggf(args.a), args.name, args.plies, str(args.a))
        pb = pairs(read_ggf(args.b), args.name, args.plies, str(args.b))
    except InvalidInputError as e:
        print(f"bench_reversi_paired: error: {e}", file=sys.stderr)
        return 2
    print(format_table(["file", "pairs", "unpaired games", f"{args.name} score (95 %)",
                        "pairs 0 .5 1 1.5 2"],
                       [_row(f"A {args.a.name}", pa), _row(f"B {args.b.name} (baseline)", pb)]))
    n, mean, (lo, hi) = paired_difference(pa, pb)
    print()
    if n == 0:
        print("paired: no opening is complete in both files")
        return 1
    print(f"paired over {n} openings complete in both: A - B = {100 * mean:+.1f} points "
          f"(95 % {100 * lo:+.1f}..{100 * hi:+.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
