"""``gameopt reversi``: perft, exact solving, analysis and the FFO benchmark."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from gameopt.cli.common import default_data_dir
from gameopt.core.table import format_table
from gameopt.errors import GameoptError, InvalidInputError

if TYPE_CHECKING:
    from gameopt.core import Clock, Limit
    from gameopt.reversi.bench import BenchRow
    from gameopt.reversi.board import Board
    from gameopt.reversi.search import SearchParams, SearchResult
    from gameopt.reversi.timing import TimeControl
    from gameopt.reversi.train import TrainData

__all__ = ["register"]

#: ``--eval`` of play and nboard (:func:`_eval_params`)
EVAL_HELP = ("the engine's evaluation: pattern weights FILE (.npz, with the network it "
             "carries; train fit / train network write them) or the hand-set heuristic "
             "(default: the shipped weights)")

MATCH_SPECS = """\
player specs (comma-separated, any order):
  depth=N,end=N,eval=FILE   this engine: midgame depth (default 4), exact from N empties
                            (default 12), pattern weights FILE (default: the shipped
                            trained weights; eval=heuristic: the hand-set heuristic)
  time=S | clock=S,inc=S, cpu|wall, mpc=0|1, mpct=T, keep=0|1, early=0|1
                            this engine thinks S seconds per move, or on a game clock of
                            S seconds (plus inc per move), on CPU time unless wall;
                            mpc=1|0: Multi-ProbCut in the midgame on|off (default: on
                            when thinking by time, off at a fixed depth); mpct=T: its
                            confidence in standard deviations (default 1.8, and 1.5
                            when moves get under 0.2 s, as on a 2.2 s clock); keep=0:
                            a new transposition table for every timed search (default
                            keep=1: one kept through the game); early=0: solve exactly
                            only from end= empties (default early=1: by time also
                            earlier, when the solve should fit in half the move's time)
  passes=0|1                by time, a few empties above the exact solve: selective
                            endgame passes first, each started within the move's time,
                            the last one finished giving the move (default 1; 0: a
                            midgame search there)
  mpctable=FILE             Multi-ProbCut's cut pairs from FILE (made by 'train mpc',
                            with --eval for weights of your own; default: the shipped
                            table, fitted on the shipped weights)
  mpcnest=1|2               2: Multi-ProbCut's cut tests are selective searches
                            themselves (default 1: full width)
  lazy=D, netmax=E          with a weights file that carries a network: skip it at
                            leaves whose pattern value is D discs or more outside the
                            window (lazy evaluation; default 3 when thinking by time,
                            0 at a fixed depth: never), and at positions of more than E
                            empties (default 0: at any)
  book=FILE,variety=V       this engine plays the book's moves while it can (default: no
                            book; book=default: the shipped one), any within V discs of
                            the best (default 0: the best), drawn per game
  nboard=COMMAND,depth=N,timeout=S
                            an external engine speaking NBoard protocol 2, started once
                            per game; depth=N is sent as 'set depth N' (default: the
                            engine's own), S seconds allowed per answer (default 60);
                            COMMAND is split like a shell would and has no comma

example: --a depth=4 --b "nboard=gameopt reversi nboard --no-book,depth=4"
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reversi", help="Othello: perft, exact endgame solver, search, FFO bench")
    ss = p.add_subparsers(dest="reversi_command", metavar="ACTION", required=True)

    s = ss.add_parser("perft", help="count the leaves of the move tree from the start")
    s.add_argument("depth", type=int, metavar="N")
    s.add_argument("--position", default=None, help="board string or move list (default start)")
    s.set_defaults(func=cmd_perft)

    s = ss.add_parser("solve", help="exact score, best move and principal variation")
    s.add_argument("position", nargs="?", default=None,
                   help="board string (64 squares X/O/- then the side) or a move list")
    s.add_argument("--obf", default=None, metavar="FILE", help="solve every position of FILE")
    _limit_flags(s)
    s.set_defaults(func=cmd_solve)

    s = ss.add_parser("analyse", help="iterative-deepening search to a depth or for a time")
    s.add_argument("position", help="board string or move list")
    s.add_argument("--depth", type=int, default=None, metavar="D",
                   help="plies (default 12; with --time-limit and no --depth, as deep as "
                        "the time allows, with Multi-ProbCut)")
    _limit_flags(s)
    s.set_defaults(func=cmd_analyse)

    s = ss.add_parser("openings", help="make balanced openings (random plies scored near 0)")
    s.add_argument("-n", "--count", type=int, default=100)
    s.add_argument("--plies", type=int, default=8)
    s.add_argument("--depth", type=int, default=4, help="search depth of the balance check")
    s.add_argument("--max-abs", type=float, default=2.0, metavar="DISCS")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("-o", "--output", required=True, metavar="FILE")
    s.set_defaults(func=cmd_openings)

    s = ss.add_parser(
        "match", help="engine A against B, each opening twice, colours swapped",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=MATCH_SPECS)
    s.add_argument("--a", default="depth=4", metavar="SPEC", help="player A (see below)")
    s.add_argument("--b", default="depth=2", metavar="SPEC", help="player B (see below)")
    s.add_argument("--openings", default=None, metavar="FILE",
                   help="move lists, one a line (default: --count made with --seed)")
    s.add_argument("-n", "--count", type=int, default=None,
                   help="openings: to make (default 50), or the first N of --openings "
                        "(default all of them)")
    s.add_argument("--plies", type=int, default=8,
                   help="plies of each opening made (0: every pair of games from the "
                        "start, varied only by a player's book variety)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--workers", type=int, default=None)
    s.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT")
    s.add_argument("--games", default=None, metavar="FILE.ggf",
                   help="write the games as GGF: to FILE.ggf.part as each ends, then "
                        "FILE.ggf whole in match order (a stopped match keeps the .part)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    _time_flags(s, "this engine's players without a time setting of their own think by "
                   "time instead of depth (CPU seconds unless --wall; external engines "
                   "keep theirs)")
    s.set_defaults(func=cmd_match)

    s = ss.add_parser("play", help="play against the engine in the terminal")
    s.add_argument("--level", type=int, default=4, metavar="D", help="engine depth (1..20)")
    s.add_argument("--color", default="X", choices=["X", "O", "none"],
                   help="your colour (X moves first; none: engine against itself)")
    s.add_argument("--end", type=int, default=14, metavar="N",
                   help="the engine plays perfectly from N empties")
    s.add_argument("--book", default="default", metavar="FILE",
                   help="opening book (.npz; default: the shipped book)")
    s.add_argument("--no-book", action="store_true", help="play without an opening book")
    s.add_argument("--variety", type=float, default=0.0, metavar="DISCS",
                   help="play any book move within this many discs of the best")
    s.add_argument("--seed", type=int, default=None)
    s.add_argument("--eval", default=None, metavar="FILE|heuristic", help=EVAL_HELP)
    _time_flags(s, "the engine thinks by time instead of --level (wall seconds unless "
                   "--cpu)")
    s.set_defaults(func=cmd_play)

    s = ss.add_parser("book", help="opening book: build one with the engine, or show it")
    bs = s.add_subparsers(dest="book_command", metavar="ACTION", required=True)
    b = bs.add_parser("build", help="negamax-backed expansion from the start")
    b.add_argument("--depth", type=int, default=6, help="plies")
    b.add_argument("--eval-depth", type=int, default=4, help="search depth of the leaves")
    b.add_argument("--width", type=float, default=1.0, metavar="DISCS",
                   help="expand moves within this many discs of the best")
    b.add_argument("-o", "--output", required=True, metavar="FILE")
    b.add_argument("--workers", type=int, default=None,
                   help="threads searching each position's moves at once (default: the "
                        "CPUs; the book is the same for any number)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    b.set_defaults(func=cmd_book_build)
    b = bs.add_parser("show", help="the book's moves and values for a position")
    b.add_argument("position", nargs="?", default="", help="board string or move list")
    b.add_argument("--book", default="default", metavar="FILE",
                   help="the book file (default: the shipped book)")
    b.set_defaults(func=cmd_book_show)
    b = bs.add_parser("openings", help="openings inside the book, for matches: the distinct "
                      "positions N book moves from the start")
    b.add_argument("--plies", type=int, default=6)
    b.add_argument("--max-loss", type=float, default=None, metavar="DISCS",
                   help="only moves within this many discs of their position's best "
                        "(default: every move the book expanded)")
    b.add_argument("--book", default="default", metavar="FILE",
                   help="the book file (default: the shipped book)")
    b.add_argument("-o", "--output", required=True, metavar="FILE")
    b.set_defaults(func=cmd_book_openings)

    s = ss.add_parser("train", help="pattern evaluation: self-play data, then fitting")
    ts = s.add_subparsers(dest="train_command", metavar="ACTION", required=True)
    g = ts.add_parser("generate", help="self-play games labelled by exact endings")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--depth", type=int, default=2, help="self-play search depth")
    g.add_argument("--random-plies", default="8", metavar="N|LO-HI",
                   help="random moves that open each game (LO-HI: uniform per game)")
    g.add_argument("--exact", type=int, default=14, metavar="EMPTIES",
                   help="solve exactly from this many empties")
    g.add_argument("--epsilon", type=float, default=0.05, help="share of random moves")
    g.add_argument("--eval", default="", metavar="FILE|heuristic",
                   help="evaluation of the self-play searches: a weights file, or the "
                   "hand-set heuristic (default: the engine's default weights)")
    g.add_argument("--workers", type=int, default=None)
    g.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT")
    g.add_argument("-q", "--quiet", action="store_true")
    g.add_argument("-o", "--output", required=True, metavar="FILE")
    g.set_defaults(func=cmd_train_generate)
    f = ts.add_parser("label", help="relabel data by backed-up searches, stage by stage "
                      "from the exact endings back")
    f.add_argument("data", nargs="+", metavar="FILE",
                   help="data from train generate (several: labelled as one set)")
    f.add_argument("--depth", type=int, default=4, help="backup search depth")
    f.add_argument("--line", action="store_true",
                   help="bootstrap along each game's own line (static evaluations of the "
                   "positions 4-7 plies later; no search: minutes for millions)")
    f.add_argument("--mix", type=float, default=0.0,
                   help="share of the game result in each label above the exact "
                   "endings (backed-up labels: mixed in after the backup)")
    f.add_argument("--damp", type=float, default=1.0, help="least-squares damping")
    f.add_argument("--iters", type=int, default=300, help="LSQR iterations per stage")
    f.add_argument("--workers", type=int, default=None)
    f.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT")
    f.add_argument("-q", "--quiet", action="store_true")
    f.add_argument("-o", "--output", required=True, metavar="FILE")
    f.set_defaults(func=cmd_train_label)
    f = ts.add_parser("branch", help="positions one random move off the game lines "
                      "(unlabelled: for train label)")
    f.add_argument("data", nargs="+", metavar="FILE", help="data from train generate")
    f.add_argument("--share", type=float, default=1.0,
                   help="share of the positions to branch from (0..1]")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("-o", "--output", required=True, metavar="FILE")
    f.set_defaults(func=cmd_train_branch)
    f = ts.add_parser("fit", help="least-squares pattern weights from data files")
    f.add_argument("data", nargs="+", metavar="FILE")
    f.add_argument("--damp", type=float, default=1.0,
                   help="damping of the least squares (pulls weights toward 0)")
    f.add_argument("--iters", type=int, default=300, help="LSQR iterations per stage")
    f.add_argument("--smooth", action="store_true",
                   help="fit stages from the last back, each damped toward the next "
                   "stage's weights instead of toward 0")
    f.add_argument("--start", metavar="WEIGHTS",
                   help="go on training from these weights (the damping pulls toward "
                   "them; patterns they lack start at 0)")
    f.add_argument("--seed", type=int, default=0, help="seed of the validation split")
    f.add_argument("--holdout", type=float, default=0.1, metavar="FRACTION",
                   help="share of the games held out for validation (0: fit on all)")
    f.add_argument("-q", "--quiet", action="store_true")
    f.add_argument("-o", "--output", required=True, metavar="FILE")
    f.set_defaults(func=cmd_train_fit)
    f = ts.add_parser("network", help="a residual network over the pattern configurations "
                      "fitted to what a weights file's evaluation misses; writes that file "
                      "with the network")
    f.add_argument("data", nargs="+", metavar="FILE", help="labelled data files")
    f.add_argument("--base", default=None, metavar="WEIGHTS",
                   help="the pattern weights under the network (default: the shipped "
                   "ones; a network they carry is replaced)")
    f.add_argument("--hidden", type=int, default=32, help="hidden units (1..64)")
    f.add_argument("--epochs", type=int, default=3)
    f.add_argument("--lr", type=float, default=3e-4, help="first step size")
    f.add_argument("--l2", type=float, default=1e-3, help="decay of the embeddings")
    f.add_argument("--seed", type=int, default=0,
                   help="initial values, orders and the held-out games")
    f.add_argument("--holdout", type=float, default=0.1, metavar="FRACTION",
                   help="share of the games held out to measure the fit (0: fit on all)")
    f.add_argument("-q", "--quiet", action="store_true")
    f.add_argument("-o", "--output", required=True, metavar="FILE")
    f.set_defaults(func=cmd_train_network)
    f = ts.add_parser("blend", help="weights mixed from two weights files (SHARE of the "
                      "first, the rest of the second)")
    f.add_argument("first", metavar="FILE")
    f.add_argument("second", metavar="FILE")
    f.add_argument("--share", type=float, default=0.5, help="share of the first file")
    f.add_argument("-o", "--output", required=True, metavar="FILE")
    f.set_defaults(func=cmd_train_blend)
    f = ts.add_parser("mpc", help="Multi-ProbCut regressions fitted on this engine's own "
                      "searches (shallow against deep values of self-play positions)")
    f.add_argument("--games", type=int, default=150, help="self-play games")
    f.add_argument("--per-game", type=int, default=4, help="positions searched per game")
    f.add_argument("--max-depth", type=int, default=10,
                   help="deepest full-width search (3..16)")
    f.add_argument("--selective-depth", type=int, default=None, metavar="D",
                   help="search on to depth D (max-depth..16) with Multi-ProbCut (the "
                   "shipped table, or --table) and fit the deeper rows on it (default: "
                   "none)")
    f.add_argument("--table", default=None, metavar="FILE",
                   help="the Multi-ProbCut table of the selective searches (default: the "
                   "shipped one; with --selective-depth only)")
    f.add_argument("--eval", default=None, metavar="FILE",
                   help="pattern weights (.npz) that play and evaluate the searches "
                        "(default: the shipped weights); give the table to a player with "
                        "eval=FILE,mpctable=OUTPUT")
    f.add_argument("--tries", type=int, default=1, choices=(1, 2),
                   help="cut tries per depth: 1 (d -> d'), or 2: from --first-from on, a "
                   "try two plies shallower first (15 -> 5, then 7), as Buro's "
                   "Multi-ProbCut and Zebra (default: 1)")
    f.add_argument("--first-from", type=int, default=10, metavar="D",
                   help="with --tries 2: the shallowest depth with two tries (default 10)")
    f.add_argument("--shallow", default=None, metavar="D:D'[,...]",
                   help="check depth D at D' plies instead of 2*(D//4) + D%%2 (Zebra "
                   "checks 5 at 1 and 9 at 3: --shallow 5:1,9:3)")
    f.add_argument("--save-samples", default=None, metavar="FILE",
                   help="also save the searched values, to refit with --from-samples")
    f.add_argument("--from-samples", default=None, metavar="FILE",
                   help="fit on the values saved by --save-samples instead of searching")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--workers", type=int, default=None)
    f.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT")
    f.add_argument("-q", "--quiet", action="store_true")
    f.add_argument("-o", "--output", required=True, metavar="FILE")
    f.set_defaults(func=cmd_train_mpc)

    s = ss.add_parser("nboard", help="speak the NBoard protocol on stdin/stdout (for GUIs)")
    g = s.add_mutually_exclusive_group()
    g.add_argument("--book", default=None, metavar="FILE",
                   help="opening book (.npz) for moves; 'learn' adds the game to it and saves "
                        "it (a missing FILE starts an empty book; default: the shipped "
                        "book, not learned into; 'default': the shipped book, learned into "
                        "in memory, not saved)")
    g.add_argument("--no-book", action="store_true",
                   help="no opening book: every move searched (for benchmarks)")
    s.add_argument("--learn-depth", type=int, default=None, metavar="D",
                   help="search depth of the values 'learn' adds (default: the book's eval "
                        "depth; 4 for a new book)")
    s.add_argument("--eval", default=None, metavar="FILE|heuristic",
                   help=EVAL_HELP + " for go and hint; the book's values and learn keep the "
                   "book's evaluation")
    s.set_defaults(func=cmd_nboard)

    s = ss.add_parser("bench", help="solve the FFO endgame suite and check the answers")
    s.add_argument("suite", choices=["ffo"])
    s.add_argument("--range", default="40-49", metavar="A-B")
    s.add_argument("--data", default=None, metavar="DIR",
                   help="folder of fforum-*.obf (default ../shared/data/reversi)")
    s.add_argument("--alphabeta", action="store_true", help="plain alpha-beta instead of PVS")
    s.set_defaults(func=cmd_bench)


def _time_flags(s: argparse.ArgumentParser, what: str) -> None:
    g = s.add_argument_group("time control", what)
    g.add_argument("--time", type=float, default=None, metavar="S", help="seconds per move")
    g.add_argument("--clock", type=float, default=None, metavar="S",
                   help="seconds per game for each side (a game clock)")
    g.add_argument("--inc", type=float, default=0.0, metavar="S",
                   help="seconds added to the clock per move")
    k = g.add_mutually_exclusive_group()
    k.add_argument("--cpu", dest="time_kind", action="store_const", const="cpu")
    k.add_argument("--wall", dest="time_kind", action="store_const", const="wall")


def _control(args: argparse.Namespace, default_kind: Clock) -> TimeControl | None:
    """The time control of --time/--clock/--inc, or None without them."""
    from gameopt.reversi.timing import TimeControl

    if args.time is None and args.clock is None:
        if args.inc:
            raise InvalidInputError("--inc needs --clock")
        return None
    kind: Clock = args.time_kind or default_kind
    return TimeControl(move=args.time, clock=args.clock, increment=args.inc, kind=kind)


def _limit_flags(s: argparse.ArgumentParser) -> None:
    s.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="seconds on --clock (default: none)")
    s.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                   help="the clock of --time-limit and of the seconds shown (default wall)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress display")


def _limit(args: argparse.Namespace, depth: int | None = None) -> Limit:
    from gameopt.core import Limit, check_count, check_seconds

    return Limit(time=check_seconds(args.time_limit, "--time-limit"), clock=args.clock,
                 depth=check_count(depth, "--depth", maximum=60))


def _position(text: str, where: str = "position") -> Board:
    """A board string (65 non-blank characters) or a move list from the start."""
    from gameopt.reversi.board import Board

    compact = "".join(text.split())
    if len(compact) >= 60 and set(compact[:60].upper()) <= set("XO-.*#BWE"):
        return Board.from_str(text, where)
    return Board.from_moves(text)


def cmd_perft(args: argparse.Namespace) -> int:
    from gameopt.reversi import Board, perft

    if not 0 <= args.depth <= 20:
        raise InvalidInputError(f"perft depth {args.depth}: expected 0..20")
    b = _position(args.position) if args.position else Board.start()
    perft(b, 1)  # load the kernel first
    rows = []
    for d in range(1, args.depth + 1):
        t = time.perf_counter()
        n = perft(b, d)
        dt = time.perf_counter() - t
        rows.append([d, f"{n:,}", f"{dt:.3f}", f"{n / dt / 1e6:.1f}" if dt > 0 else "-"])
    print(format_table(["depth", "leaves", "seconds", "M leaves/s"], rows))
    return 0


def _headers(first: str, results: list[tuple[str, SearchResult]]) -> list[str]:
    clock = results[0][1].clock if results else "wall"
    return [first, "move", "score", "nodes", f"{clock} s", "nodes/s", "PV"]


def _result_rows(results: list[tuple[str, SearchResult]]) -> list[list[object]]:
    rows: list[list[object]] = []
    for name, r in results:
        score = f"{int(r.score):+d}" if r.exact else f"{r.score:+.2f}"
        rows.append([name, str(r.move), score, f"{r.nodes:,}", f"{r.seconds:.3f}",
                     f"{r.nodes_per_second / 1e6:.1f}M", r.pv_string()])
    return rows


def cmd_solve(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.reversi.files import read_obf
    from gameopt.reversi.search import solve

    if (args.position is None) == (args.obf is None):
        raise InvalidInputError("reversi solve: give a POSITION or --obf FILE (one of them)")
    if args.obf:
        entries = [(f"line {e.line}", e.board) for e in read_obf(Path(args.obf))]
    else:
        entries = [("position", _position(args.position))]
    limit = _limit(args)
    results = []
    for name, board in entries:
        r = solve(board, limit, progress=progress_for(args.quiet))
        if r.stopped:
            print(f"{name}: stopped by the time limit after {r.nodes:,} nodes, "
                  f"{r.seconds:.2f} s {r.clock}", file=sys.stderr)
            return 1
        results.append((name, r))
    print(format_table(_headers("position", results), _result_rows(results)))
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.reversi.search import search

    board = _position(args.position)
    depth = args.depth
    if depth is None and args.time_limit is None:
        depth = 12
    limit = _limit(args, depth)
    print(board.draw(board.moves_bitboard()))
    r = search(board, limit, progress=progress_for(args.quiet))
    print(format_table(_headers("depth", [("", r)]),
                       [[r.depth] + row[1:] for row in _result_rows([("", r)])]))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from gameopt.reversi.bench import parse_range, run_ffo
    from gameopt.reversi.search import SearchParams

    first, last = parse_range(args.range)
    data = Path(args.data) if args.data else default_data_dir() / "reversi"
    params = SearchParams(pvs=not args.alphabeta)

    def show(row: BenchRow) -> None:
        r = row.result
        print(f"#{row.number} {r.move} {r.score:+d} {r.nodes:,} nodes {row.seconds:.2f} s "
              f"{'ok' if row.correct else 'WRONG'}", file=sys.stderr)

    rows = run_ffo(data, first, last, params, on_row=show)
    table = [[f"#{w.number}", w.empties, str(w.result.move),
              f"{w.result.score:+d}", "/".join(w.expected_moves) + f" {w.expected_score:+d}",
              f"{w.result.nodes:,}", f"{w.seconds:.2f}",
              f"{w.result.nodes / max(w.seconds, 1e-9) / 1e6:.1f}M",
              "ok" if w.correct else "WRONG"] for w in rows]
    nodes = sum(w.result.nodes for w in rows)
    cpu = sum(w.seconds for w in rows)
    table.append(["total", "", "", "", "", f"{nodes:,}", f"{cpu:.2f}",
                  f"{nodes / max(cpu, 1e-9) / 1e6:.1f}M",
                  f"{sum(w.correct for w in rows)}/{len(rows)}"])
    print(format_table(["FFO", "empties", "move", "score", "expected", "nodes", "CPU s",
                        "nodes/s", "check"], table))
    return 0 if all(w.correct for w in rows) else 1


def cmd_nboard(args: argparse.Namespace) -> int:
    from gameopt.reversi.book import DEFAULT, empty_book, open_book, read_book
    from gameopt.reversi.nboard import run

    if args.learn_depth is not None and not 1 <= args.learn_depth <= 60:
        raise InvalidInputError(f"--learn-depth {args.learn_depth}: expected 1..60")
    if args.learn_depth is not None and args.book is None:
        raise InvalidInputError(f"--learn-depth {args.learn_depth}: learning needs --book "
                                "FILE or --book default (the default book is not learned "
                                "into)")
    book, path = None, args.book
    if args.no_book:
        path = None
    elif args.book in (None, DEFAULT):  # the shipped book: never written; learned into in
        book, path = open_book(DEFAULT), None  # memory only when named (--book default)
    else:
        if Path(args.book).exists():
            book = read_book(args.book)
        else:
            book = empty_book(args.learn_depth or 4)
            print(f"{args.book}: no such file; learn will create it", file=sys.stderr)
    return run(book=book, book_path=path, learn_depth=args.learn_depth,
               learn=args.no_book or args.book is not None, params=_eval_params(args.eval))


def _eval_params(value: str | None) -> SearchParams:
    """The search parameters of ``--eval`` (None: the engine's default); a bad weights
    file fails here, named, in one line."""
    from gameopt.reversi.match import pattern_params
    from gameopt.reversi.search import EvalKind, SearchParams

    if value is None:
        return SearchParams()
    if value == "heuristic":
        return SearchParams(eval_kind=EvalKind.HEURISTIC)
    return pattern_params(value)


def cmd_openings(args: argparse.Namespace) -> int:
    from gameopt.reversi.match import make_openings, write_openings

    ops = make_openings(args.count, args.plies, seed=args.seed, depth=args.depth,
                        max_abs=args.max_abs)
    write_openings(args.output, ops)
    print(f"wrote {len(ops)} openings of {args.plies} plies to {args.output}")
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from gameopt.cli.common import progress_for
    from gameopt.reversi.match import (
        GameLog,
        Player,
        make_openings,
        parse_player,
        read_openings,
        run_match,
    )

    control = _control(args, "cpu")
    players = []
    for spec, label in ((args.a, "A"), (args.b, "B")):
        p = parse_player(spec, f"{label} {spec}")
        if control is not None and isinstance(p, Player) and p.control is None:
            p = replace(p, name=f"{p.name} {control.describe()}", control=control)
        players.append(p)
    a, b = players
    count = args.count
    if count is not None and count < 1:
        raise InvalidInputError(f"--count {count}: expected at least 1 pair")
    if args.openings:
        ops = read_openings(args.openings)
        if count is not None:  # the first N of the file
            if count > len(ops):
                raise InvalidInputError(f"--count {count}: {args.openings} has "
                                        f"{len(ops)} openings")
            ops = ops[:count]
    elif args.plies == 0:  # every pair from the start: only a book's variety varies them
        count = 50 if count is None else count
        ops = [""] * count
        if count > 1 and not any(isinstance(p, Player) and p.variety > 0
                                 for p in players):
            print(f"match: --plies 0 and neither player has book variety (variety=V): the "
                  f"{count} pairs from the start may all be one game a colour, and the "
                  "interval then counts them as independent", file=sys.stderr)
    else:
        ops = make_openings(50 if count is None else count, args.plies, seed=args.seed)
    if args.games is None:
        res = run_match(a, b, ops, scheduler=args.scheduler, workers=args.workers,
                        progress=progress_for(args.quiet))
        print(res.summary())
        return 0
    with GameLog(args.games, a.name, b.name) as log:
        try:
            res = run_match(a, b, ops, scheduler=args.scheduler, workers=args.workers,
                            progress=progress_for(args.quiet), on_game=log.add)
        except KeyboardInterrupt:
            if log.count:
                print(f"{log.count} finished games kept in {log.part}", file=sys.stderr)
            raise
        except GameoptError as e:
            if not log.count:
                raise
            raise type(e)(f"{e} ({log.count} finished games kept in {log.part})") from e
        log.finish(res)
    print(res.summary())
    print(f"wrote {len(res.games)} games to {args.games}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from gameopt.reversi.match import Player
    from gameopt.reversi.play import PlaySession, play

    if not 1 <= args.level <= 20:
        raise InvalidInputError(f"--level {args.level}: expected 1..20")

    def read(prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            return None

    from gameopt.reversi.book import open_book

    book = None if args.no_book else open_book(args.book)
    if args.variety and book is None:
        raise InvalidInputError("--variety needs a book (not --no-book)")
    session = PlaySession(Player("engine", depth=args.level, end_empties=args.end, book=book,
                                 control=_control(args, "wall"),
                                 params=_eval_params(args.eval)),
                          "" if args.color == "none" else args.color, variety=args.variety,
                          seed=args.seed)
    play(session, read, print)
    return 0


def cmd_book_build(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.reversi.book import build_book, write_book

    t = time.perf_counter()
    book = build_book(args.depth, args.eval_depth, args.width,
                      progress=progress_for(args.quiet), workers=args.workers)
    write_book(args.output, book)
    print(f"wrote {args.output}: {len(book)} positions (depth {args.depth}, eval depth "
          f"{args.eval_depth}, width {args.width:g}) in {time.perf_counter() - t:.1f} s")
    return 0


def cmd_book_show(args: argparse.Namespace) -> int:
    from gameopt.reversi.board import Board
    from gameopt.reversi.book import open_book

    book = open_book(args.book)
    board = _position(args.position) if args.position.strip() else Board.start()
    vals = book.lookup(board)
    print(board.draw(board.moves_bitboard()))
    if not vals:
        print(f"not in the book ({len(book)} positions)")
        return 0
    rows = [[str(m), f"{v:+.2f}", " ".join(map(str, book.line(board, m)))]
            for m, v in sorted(vals.items(), key=lambda t: (-t[1], t[0].square))]
    print(format_table(["move", "value", "book line"], rows))
    return 0


def cmd_book_openings(args: argparse.Namespace) -> int:
    from gameopt.reversi.book import open_book
    from gameopt.reversi.match import write_openings

    book = open_book(args.book)
    ops = book.openings(args.plies, args.max_loss)
    write_openings(args.output, ops)
    print(f"wrote {len(ops)} openings of {args.plies} plies inside {args.book} to "
          f"{args.output}")
    return 0


def cmd_train_generate(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.reversi.train import generate, write_data

    t = time.perf_counter()
    lo, _, hi = args.random_plies.partition("-")
    try:
        plies = (int(lo), int(hi or lo))
    except ValueError:
        raise InvalidInputError(f"--random-plies {args.random_plies!r}: expected N or "
                                "LO-HI") from None
    data = generate(args.games, seed=args.seed, random_plies=plies,
                    depth=args.depth, exact_empties=args.exact, epsilon=args.epsilon,
                    eval_source=args.eval, scheduler=args.scheduler, workers=args.workers,
                    progress=progress_for(args.quiet))
    write_data(args.output, data)
    wall = time.perf_counter() - t
    print(f"wrote {args.output}: {len(data)} positions from {args.games} games in "
          f"{wall:.1f} s wall ({len(data) / wall:.0f} positions/s)")
    return 0


def _read_generated(files: list[str], what: str) -> TrainData:
    """The data files as one set, with the exact-ending depth they all record (the
    smallest, when they differ)."""
    from gameopt.reversi.train import TrainData, read_data

    parts = [read_data(f) for f in files]
    if len(parts) == 1:
        return parts[0]
    data = TrainData.concat(parts)
    ends = [p.meta.get("exact_empties") for p in parts]
    if any(not isinstance(e, int) for e in ends):
        bad = next(f for f, e in zip(files, ends, strict=True) if not isinstance(e, int))
        raise InvalidInputError(f"{what}: {bad}: data without its exact-ending depth "
                                "(exact_empties)")
    return TrainData(data.player, data.opponent, data.target, data.game,
                     {**data.meta, "format": parts[0].meta["format"],
                      "exact_empties": min(e for e in ends if isinstance(e, int))})


def cmd_train_branch(args: argparse.Namespace) -> int:
    from gameopt.reversi.train import branch, write_data

    data = _read_generated(args.data, "train branch")
    t = time.perf_counter()
    out = branch(data, seed=args.seed, share=args.share)
    write_data(args.output, out)
    print(f"wrote {args.output}: {len(out)} positions one random move off the lines of "
          f"{len(data)} in {time.perf_counter() - t:.1f} s wall (unlabelled: train label "
          "them with their sources)")
    return 0


def cmd_train_label(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.reversi.train import backup_labels, line_labels, write_data

    data = _read_generated(args.data, "train label")
    t = time.perf_counter()
    if args.line:
        out = line_labels(data, mix=args.mix, damp=args.damp, iters=args.iters,
                          progress=progress_for(args.quiet))
        how = "bootstrapping along the game lines"
    else:
        out = backup_labels(data, depth=args.depth, mix=args.mix, damp=args.damp,
                            iters=args.iters,
                            scheduler=args.scheduler, workers=args.workers,
                            progress=progress_for(args.quiet))
        how = f"{args.depth}-ply backed-up searches" + (
            f" mixed with {args.mix:g} of the game result" if args.mix else "")
    write_data(args.output, out)
    wall = time.perf_counter() - t
    n = int((out.empties > out.meta["exact_empties"]).sum())
    print(f"wrote {args.output}: {n} of {len(out)} positions labelled by {how} in "
          f"{wall:.1f} s wall ({n / max(wall, 1e-9):.0f} positions/s)")
    return 0


def cmd_train_fit(args: argparse.Namespace) -> int:
    import numpy as np

    from gameopt.cli.common import progress_for
    from gameopt.reversi.train import TrainData, fit, read_data, read_weights, write_weights

    data = TrainData.concat([read_data(f) for f in args.data])
    start = None if args.start is None else read_weights(args.start)[0]
    t = time.perf_counter()
    w, rep = fit(data, damp=args.damp, iters=args.iters, seed=args.seed, smooth=args.smooth,
                 val_fraction=args.holdout, start=start, progress=progress_for(args.quiet))
    wall = time.perf_counter() - t
    head = ["stage", "plies", "train MAE", "validation MAE"]
    cols = [rep.train_mae, rep.val_mae]
    if rep.start_val_mae is not None:  # the start weights on the same held-out games
        head.append("start's validation MAE")
        cols.append(rep.start_val_mae)
    rows: list[list[object]] = [[s, f"{4 * s}-{4 * s + 3}", *(f"{c[s]:.2f}" for c in cols)]
                                for s in rep.stages]
    rows.append(["mean", "", *(f"{np.nanmean(c):.3f}" if not np.isnan(c).all() else "-"
                               for c in cols)])  # of the stages' MAEs
    print(format_table(head, rows))
    write_weights(args.output, w, {"positions": len(data), "damp": args.damp,
                                   "iters": args.iters, "smooth": args.smooth,
                                   "start": args.start, "sources": data.meta})
    print(f"wrote {args.output}: fitted {rep.n_train} positions ({rep.n_val} held out) in "
          f"{wall:.1f} s ({rep.n_train / wall:.0f} positions/s)")
    return 0


def cmd_train_network(args: argparse.Namespace) -> int:
    import numpy as np

    from gameopt.cli.common import progress_for
    from gameopt.reversi.netfit import fit_network
    from gameopt.reversi.patterns import DEFAULT_SET
    from gameopt.reversi.train import TrainData, read_data, read_weights, write_weights
    from gameopt.reversi.weights import SHIPPED

    data = TrainData.concat([read_data(f) for f in args.data])
    base_path = SHIPPED if args.base is None else args.base
    base, base_meta = read_weights(base_path)
    t = time.perf_counter()
    net, rep = fit_network(data, DEFAULT_SET.expand(base), hidden=args.hidden,
                           epochs=args.epochs, lr=args.lr, l2=args.l2, seed=args.seed,
                           holdout=args.holdout, progress=progress_for(args.quiet))
    wall = time.perf_counter() - t
    rows: list[list[object]] = [[e + 1, f"{a:.4f}", f"{b:.4f}"]
                                for e, (a, b) in enumerate(zip(rep.train_mae, rep.val_mae,
                                                               strict=True))]
    print(format_table(["epoch", "train MAE (residual)", "held-out MAE with the network"],
                       rows))
    print(f"held-out MAE of the base alone: {rep.base_val_mae:.4f} discs")
    print("per stage, held-out MAE base / with the network: " + " ".join(
        f"{s}:{a:.2f}/{b:.2f}" for s, (a, b) in enumerate(rep.stage_val_mae)))
    info = {k: v for k, v in base_meta.items()
            if k not in ("format", "stages", "terms", "patterns", "network")}
    write_weights(args.output, base, {**info, "network": {
        "base": "default" if args.base is None else str(base_path),  # no local path
        "positions": len(data), "epochs": args.epochs,
        "lr": args.lr, "l2": args.l2, "seed": args.seed, "holdout": args.holdout,
        "held_out_mae": [None if np.isnan(x) else round(x, 4)
                         for x in (rep.base_val_mae, rep.val_mae[-1])],
        "sources": data.meta}},
        network=net)
    print(f"wrote {args.output}: a network of {args.hidden} hidden units fitted on "
          f"{rep.n_train} positions ({rep.n_val} held out) in {wall:.1f} s wall")
    return 0


def cmd_train_blend(args: argparse.Namespace) -> int:
    from gameopt.reversi.train import blend, read_weights, write_weights

    a, meta_a = read_weights(args.first)
    b, meta_b = read_weights(args.second)
    write_weights(args.output, blend(a, b, args.share),
                  {"blend": {"share": args.share, "first": meta_a, "second": meta_b}})
    print(f"wrote {args.output}: {args.share:g} x {args.first} + {1 - args.share:g} x "
          f"{args.second}")
    return 0


def _shallow_pairs(text: str | None) -> dict[int, int] | None:
    """``"5:1,9:3"`` -> {5: 1, 9: 3} (``--shallow``), checked before any search."""
    from gameopt.reversi.mpcfit import check_pairs

    if text is None:
        return None
    pairs: dict[int, int] = {}
    for item in text.split(","):
        d, _, ds = item.strip().partition(":")
        try:
            pairs[int(d)] = int(ds)
        except ValueError:
            raise InvalidInputError(f"--shallow {text!r}: {item.strip()!r} is not D:D' "
                                    "(two whole numbers, such as 9:3)") from None
    check_pairs(pairs, f"--shallow {text!r}")
    return pairs


def cmd_train_mpc(args: argparse.Namespace) -> int:
    from gameopt.cli.common import progress_for
    from gameopt.reversi.mpcfit import (
        FIT_MPC_T,
        fit_mpc,
        mpc_samples,
        read_mpc_samples,
        write_mpc_samples,
    )
    from gameopt.reversi.probcut import write_mpc

    pairs = _shallow_pairs(args.shallow)
    t = time.perf_counter()
    cpu = time.process_time()
    if args.from_samples is not None:
        empties, values, info = read_mpc_samples(args.from_samples)
        info = {k: v for k, v in info.items() if k != "format"}
        info["samples_file"] = Path(args.from_samples).name
    else:
        empties, values = mpc_samples(args.games, max_depth=args.max_depth,
                                      per_game=args.per_game, seed=args.seed,
                                      scheduler=args.scheduler, workers=args.workers,
                                      progress=progress_for(args.quiet),
                                      selective_depth=args.selective_depth,
                                      table=args.table, eval_file=args.eval)
        info = {"games": args.games, "per_game": args.per_game, "seed": args.seed,
                "full_width_depth": args.max_depth}
        if args.selective_depth is not None and args.selective_depth > args.max_depth:
            info["selective_t"] = FIT_MPC_T
        if args.table is not None:
            info["selective_table"] = Path(args.table).name
        if args.eval is not None:
            info["eval"] = Path(args.eval).name
        if args.save_samples is not None:
            write_mpc_samples(args.save_samples, empties, values, info)
    table = fit_mpc(empties, values, tries=args.tries, first_from=args.first_from,
                    pairs=pairs)
    table.meta.update(info)
    write_mpc(args.output, table)
    wall = time.perf_counter() - t
    rows = []
    deepest = values.shape[1]
    tries = table.rows()
    for d in range(3, deepest + 1):
        for ds in sorted({r[2] for r in tries if r[1] == d}):
            sel = [r for r in tries if r[1] == d and r[2] == ds]
            rows.append([d, ds, len(sel), f"{min(r[3] for r in sel):.2f}",
                         f"{max(r[3] for r in sel):.2f}", f"{min(r[5] for r in sel):.0f}",
                         f"{max(r[5] for r in sel):.0f}"])
    print(format_table(["depth", "shallow", "rows", "a min", "a max", "sigma min",
                        "sigma max"], rows))
    how = f"fitted from {args.from_samples}" if args.from_samples is not None else "searched"
    print(f"wrote {args.output}: {len(empties)} positions {how} to depth {deepest} "
          f"in {wall:.1f} s wall (this process {time.process_time() - cpu:.1f} s CPU)")
    return 0
