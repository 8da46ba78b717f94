"""The ``gameopt`` console script: one subcommand per system that works."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from gameopt import __version__
from gameopt.cli import deck, demo, go, pair, reversi, serve, sudoku
from gameopt.errors import GameoptError

__all__ = ["main", "build_parser"]

#: Subcommand modules: each has ``register(subparsers)`` setting ``func`` on its parsers.
SYSTEMS = (sudoku, go, pair, deck, reversi, demo, serve)


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (exit 2), as for every other bad input."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gameopt", description=(
        "Exact and fast solvers for the combinatorial problems of board and card games."))
    parser.add_argument("--version", action="version", version=f"gameopt {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in SYSTEMS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 a job not done, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except GameoptError as e:
        print(f"gameopt: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gameopt: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
