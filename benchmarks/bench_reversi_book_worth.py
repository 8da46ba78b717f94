"""The opening book's worth over the board: gameopt with its book against gameopt without
[baseline], each against Zebra from the same openings inside the book, and the two
against each other.

Openings: :meth:`~gameopt.reversi.book.Book.openings` of the book (``--book``, default the
shipped one) at ``--plies`` (default 6: the 53 distinct positions six expanded book moves
from the start), each played with both colours. From there the book player plays the
book's best move while the position is in the book (up to its depth, 12 plies for the
shipped book), then searches; the other searches every move. Both search to ``--depth``
plies (default 8) and solve exactly from the strength benchmark's E = min(max(D + 8, 14),
22) empties. Rows:

* *no book* against Zebra at ``--depth`` (book off) [baseline];
* *book* against Zebra at ``--depth``, and the *paired difference* with the baseline, pair
  by pair over the openings (most of a score's noise is the openings; it cancels here);
* *book against no book*, gameopt against itself (the book's values are the engine's own
  deeper searches, so this asks what they add to its own depth-D play).

Zebra is built and driven as ``bench_reversi_strength.py`` does; without it the Zebra rows
are skipped, saying why, and the self-play row is still played. ``--games DIR`` keeps each
row's games (``DIR/ROW.ggf``).

Run: ``python benchmarks/bench_reversi_book_worth.py [--plies 6] [--depth 8] [--workers 2]
[--book FILE] [--games DIR]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

from gameopt.core.table import format_table
from gameopt.errors import GameoptError
from gameopt.reversi.book import DEFAULT, open_book
from gameopt.reversi.match import MatchResult, parse_player

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_reversi_paired import Pairs, paired_difference  # noqa: E402
from bench_reversi_strength import (  # noqa: E402
    PEERS,
    build_zebra,
    equal_depth_exact,
    row,
    run_logged,
)


def pairs(res: MatchResult) -> Pairs:
    """A's points in each pair of ``res`` (its games in match order, two per opening),
    keyed by (opening, occurrence) as ``bench_reversi_paired`` keys them."""
    seen: dict[str, int] = {}
    points: dict[tuple[str, int], float] = {}
    g = res.games
    for i in range(0, len(g), 2):
        k = seen[g[i].opening] = seen.get(g[i].opening, -1) + 1
        points[(g[i].opening, k)] = g[i].a_points + g[i + 1].a_points
    return Pairs(points, 0)


def paired(a: MatchResult, b: MatchResult) -> tuple[float, float, float]:
    """A's mean score minus B's over the same openings, pair by pair, in points, with a 95 %
    interval from the normal model over the per-opening differences
    (``bench_reversi_paired.paired_difference``)."""
    pa, pb = pairs(a), pairs(b)
    if set(pa.points) != set(pb.points):
        raise ValueError("paired: the two matches played other openings")
    _, mean, (lo, hi) = paired_difference(pa, pb)
    return 100 * mean, 100 * lo, 100 * hi


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, default=6, help="openings this many book moves in")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--book", default=DEFAULT, metavar="FILE",
                    help="the book (default: the shipped one)")
    ap.add_argument("-n", "--count", type=int, default=None,
                    help="openings used (the first N; default all)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--games", type=Path, default=None, metavar="DIR")
    ap.add_argument("--zebra-dir", type=Path,
                    default=Path.home() / ".cache" / "gameopt-peers" / "zebra")
    ap.add_argument("--peers", type=Path, default=PEERS)
    args = ap.parse_args(argv)
    if not (1 <= args.depth <= 20 and args.workers >= 1
            and (args.count is None or args.count >= 1)):
        ap.error("--depth 1..20, --workers >= 1, -n >= 1")
    try:
        book_name = str(args.book)
        openings = open_book(args.book).openings(args.plies)[:args.count]
        if args.games is not None:
            args.games.mkdir(parents=True, exist_ok=True)
    except (GameoptError, OSError) as e:
        ap.error(str(e))
    exact = equal_depth_exact(args.depth)
    base = f"depth={args.depth},end={exact}"
    with_book = f"{base},book={book_name}"
    try:  # bad specs (a book path with ',' or '=') before any game is played
        for spec in (base, with_book):
            parse_player(spec, "check")
    except GameoptError as e:
        ap.error(f"--book {book_name!r}: {e}")
    print(f"{len(openings)} openings {args.plies} plies into {book_name} x 2 colours, "
          f"depth {args.depth}, exact from {exact} empties, {args.workers} workers",
          file=sys.stderr)

    commands: list[str] = []

    def play(aspec: str, bspec: str, bname: str, name: str) -> tuple[MatchResult, float]:
        a, b = parse_player(aspec, f"gameopt {aspec}"), parse_player(bspec, bname)
        t = time.perf_counter()
        res = run_logged(a, b, openings, args.workers,
                         None if args.games is None else args.games / f"{name}.ggf")
        commands.append(f'gameopt reversi match --openings OPENINGS --a "{aspec}" '
                        f'--b "{bspec}"')
        print(res.summary(), file=sys.stderr)
        return res, time.perf_counter() - t

    rows: list[list[object]] = []
    zdir, how = build_zebra(args.peers, args.zebra_dir)
    adapter = args.peers / "zebra_nboard.py"
    if zdir is None or not adapter.is_file():
        why = how if zdir is None else f"{adapter} not found"
        print(f"Zebra rows skipped: Zebra is not available ({why})", file=sys.stderr)
    else:
        os.environ["ZEBRA_DIR"] = str(zdir)
        zspec = (f"nboard={shlex.quote(sys.executable)} {adapter} --exact {exact},"
                 f"depth={args.depth},timeout=600")
        zname = f"Zebra d{args.depth}"
        off, wall_off = play(base, zspec, zname, "nobook-zebra")
        on, wall_on = play(with_book, zspec, zname, "book-zebra")
        mean, lo, hi = paired(on, off)
        rows.append(row("no book [baseline]", zname, off, f"{wall_off:.0f} s wall"))
        rows.append(row("book", zname, on, f"paired with the baseline {mean:+.1f} points "
                        f"(95 % {lo:+.1f}..{hi:+.1f}); {wall_on:.0f} s wall"))
    own, wall_own = play(with_book, base, f"gameopt {base}", "book-nobook")
    rows.append(row("book", "gameopt, no book", own, f"{wall_own:.0f} s wall"))
    print(format_table(["gameopt", "against", "games", "gameopt score", "W/D/L",
                        "pairs 0/.5/1/1.5/2", "Elo (95 %)", "mean discs", "notes"], rows))
    first = f", its first {len(openings)}" if args.count is not None else ""
    print(f"\nopenings: gameopt reversi book openings --plies {args.plies} --book "
          f"{book_name} -o OPENINGS{first} ({len(openings)}); equivalent commands:")
    for c in commands:
        print("  " + c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
