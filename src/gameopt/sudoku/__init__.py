"""Sudoku of any box size: evolution, an exact solver, a CP-SAT cross-check, human logic.

The face of the package::

    from gameopt.sudoku import Puzzle, solve, read_puzzle_set, solve_set
    res = solve(Puzzle.from_string(line), "exact")      # or "evolution", "cpsat"
    print(hint(puzzle)); out = explain(puzzle)           # a person's next step, the path

Grids, formats and the verifier load at once; the solvers (numba kernels, OR-Tools) load
on first use of :func:`solve`, :func:`solve_set`, :func:`count_solutions` or
:func:`generate`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gameopt.sudoku.formats import (
    load_puzzle_arg,
    load_puzzle_set,
    parse_puzzle_set,
    parse_puzzles,
    read_puzzle_set,
    read_puzzles,
    write_puzzles,
)
from gameopt.sudoku.grid import Puzzle, PuzzleSet, format_grid, format_lines
from gameopt.sudoku.techniques import RATINGS
from gameopt.sudoku.verify import solution_problems, verify

if TYPE_CHECKING:
    from gameopt.sudoku.exact import count_solutions
    from gameopt.sudoku.generator import generate
    from gameopt.sudoku.logic import (
        Explanation,
        LogicStep,
        explain,
        format_candidates,
        hint,
    )
    from gameopt.sudoku.methods import (
        METHOD_CLOCK,
        METHODS,
        SUDOKU_EVOLUTION,
        SetSolution,
        SudokuSolution,
        solve,
        solve_set,
        time_limit,
        warm,
    )

#: Names loaded on first use, and the module that holds each.
_LAZY = {**dict.fromkeys(["solve", "solve_set", "time_limit", "METHODS", "METHOD_CLOCK",
                          "SUDOKU_EVOLUTION", "SudokuSolution", "SetSolution", "warm"],
                         "methods"),
         **dict.fromkeys(["explain", "hint", "Explanation", "LogicStep",
                          "format_candidates"], "logic"),
         "count_solutions": "exact", "generate": "generator"}

__all__ = [
    "METHODS",
    "METHOD_CLOCK",
    "RATINGS",
    "SUDOKU_EVOLUTION",
    "Explanation",
    "LogicStep",
    "Puzzle",
    "PuzzleSet",
    "SetSolution",
    "SudokuSolution",
    "count_solutions",
    "explain",
    "format_candidates",
    "format_grid",
    "format_lines",
    "generate",
    "hint",
    "load_puzzle_arg",
    "load_puzzle_set",
    "parse_puzzle_set",
    "parse_puzzles",
    "read_puzzle_set",
    "read_puzzles",
    "solution_problems",
    "solve",
    "solve_set",
    "time_limit",
    "verify",
    "warm",
    "write_puzzles",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
