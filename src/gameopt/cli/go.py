"""``gameopt go``: the maximum-strings problem and board checks."""

from __future__ import annotations

import argparse
import re

from gameopt.cli.common import progress_for
from gameopt.core import Limit, check_seconds
from gameopt.core.table import format_table
from gameopt.errors import InvalidInputError
from gameopt.go import MSP_METHODS, check_msp_board, msp_table, solve_msp

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("go", help="Go: maximum number of strings MSP(n), board checks")
    ss = p.add_subparsers(dest="go_command", metavar="ACTION", required=True)

    s = ss.add_parser("msp", help="MSP(n): the most strings that can stand on an n×n board")
    s.add_argument("size", nargs="?", default=None, metavar="N|MxN",
                   help="board size, e.g. 19 or 16x23")
    s.add_argument("--method", default="auto", choices=["auto", *MSP_METHODS])
    s.add_argument("--table", default=None, metavar="A..B",
                   help="print MSP(n) for n in A..B (e.g. 1..30) instead")
    s.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="wall seconds (per size with --table)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    s.add_argument("--sgf", default=None, metavar="FILE", help="write the board as SGF")
    s.add_argument("--svg", default=None, metavar="FILE", help="draw the board as SVG")
    s.add_argument("--text", action="store_true", help="print the board (X, O, .)")
    s.set_defaults(func=cmd_msp)

    c = ss.add_parser("check", help="legality, strings and liberties of an SGF or text board")
    c.add_argument("file", metavar="FILE.sgf|FILE.txt")
    c.set_defaults(func=cmd_check)


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*(?:[x×]\s*(\d+))?\s*", text)
    if not m:
        raise InvalidInputError(f"board size {text!r}: expected N or MxN, e.g. 19 or 16x23")
    rows = int(m.group(1))
    return rows, int(m.group(2) or rows)


def _range(text: str) -> list[int]:
    m = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if not m or int(m.group(1)) < 1 or int(m.group(1)) > int(m.group(2)):
        raise InvalidInputError(f"--table {text!r}: expected A..B with 1 <= A <= B, e.g. 1..30")
    return list(range(int(m.group(1)), int(m.group(2)) + 1))


def cmd_msp(args: argparse.Namespace) -> int:
    limit = Limit(time=check_seconds(args.time_limit, "--time-limit"), clock="wall")
    progress = progress_for(args.quiet)
    if args.table:
        rows = msp_table(_range(args.table), limit=limit, progress=progress)
        print(format_table(["n", "MSP(n)", "γ", "proved by", f"{limit.clock} s", "board"],
                           rows))
        return 0
    if args.size is None:
        raise InvalidInputError("go msp: give a size N (or MxN) or --table A..B")
    m, n = _size(args.size)
    from gameopt.go.sgf import MAX_SGF_SIZE

    if args.sgf and max(m, n) > MAX_SGF_SIZE:  # refuse before the solve, not after printing
        raise InvalidInputError(f"--sgf: a {m}x{n} board cannot be written as SGF (sides "
                                f"1..{MAX_SGF_SIZE} in FF[4])")
    res = solve_msp(m, n, args.method, limit=limit, progress=progress)
    board = check_msp_board(res)
    state = "proven" if res.proven else f"not proven (lower bound on γ: {res.bound})"
    print(f"MSP({m}x{n}) = {res.msp} strings ({res.gamma} empty points), {state}, "
          f"method {res.method}, {res.seconds:.3f} s {res.clock}; board checked: legal, "
          f"{board.string_count()} strings")
    if args.text:
        from gameopt.go.text import format_text

        print(format_text(board))
    if args.sgf:
        from gameopt.go.sgf import write_sgf

        write_sgf(args.sgf, board, comment=f"MSP({m}x{n}) = {res.msp}, gameopt")
    if args.svg:
        from gameopt.go.render import write_svg

        write_svg(args.svg, board, marks=res.empty)
    return 0 if res.proven else 1


def cmd_check(args: argparse.Namespace) -> int:
    from pathlib import Path

    path = Path(args.file)
    if path.suffix.lower() == ".sgf":
        from gameopt.go.sgf import read_sgf

        board = read_sgf(path)
    else:
        from gameopt.go.text import read_text

        board = read_text(path)
    strings = board.strings()
    libs = [len(s.liberties) for s in strings]
    print(f"{path}: {board.rows}x{board.cols}, legal position, {len(strings)} strings, "
          f"liberties min {min(libs, default=0)} / max {max(libs, default=0)}, "
          f"{len(board.legal_moves(1))} legal moves for black, "
          f"{len(board.legal_moves(2))} for white")
    return 0
