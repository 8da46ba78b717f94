"""A logical Sudoku solver for people: the next step, the whole path, and a difficulty.

:func:`hint` gives the next step a person can take, :func:`explain` the whole path up to
the solution (or up to where logic stops), with a rating. The techniques
(:mod:`gameopt.sudoku.techniques`) are tried easiest first; every step is checked against
the puzzle's one solution, found by the exact solver, before it is shown.

Difficulty scale (the tier of the hardest technique the path needs):

========== ==================================================================
rating     techniques
========== ==================================================================
easy       hidden single, naked single
medium     pointing, box-line reduction, naked and hidden pairs and triples
hard       naked and hidden quads, X-Wing, simple colouring, XY-Wing,
           Swordfish, XYZ-Wing, unique rectangle (type 1)
expert     W-Wing, X-Chain (skyscraper, 2-string kite...), Jellyfish
extreme    XY-Chain
guessing   none of the above finishes the puzzle: trial and error is needed
========== ==================================================================

Examples
--------
>>> from gameopt.sudoku.grid import Puzzle
>>> p = Puzzle.from_string(
...     "..62...8...897......481.5......6...2.7.....3.6...5......2.471....3.284...5...12..")
>>> print(hint(p))
r5c5 = 8: hidden single in box 5
>>> out = explain(p)
>>> out.solved, out.rating
(True, 'medium')
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.core import StopFlag, check_count
from gameopt.errors import BudgetExhaustedError, InvalidInputError, SolverError
from gameopt.sudoku.exact import count_solutions
from gameopt.sudoku.grid import Puzzle, cell_name
from gameopt.sudoku.techniques import (
    RATINGS,
    TIERS,
    Candidates,
    LogicStep,
    Technique,
    applicable,
    tier_of,
)

__all__ = ["RATINGS", "Explanation", "LogicStep", "explain", "format_candidates", "hint",
           "next_step"]


@dataclass(frozen=True, eq=False)
class Explanation:
    """The logical path through a puzzle.

    Attributes
    ----------
    puzzle : Puzzle
    steps : tuple of LogicStep
        In order; each checked against the solution.
    grid : ndarray of int8, shape (n*n,)
        The grid where the path ends (the solution when ``solved``).
    candidates : tuple of int
        The candidate bitmask of every cell where the path ends (0 for filled cells).
    solution : ndarray of int8, shape (n*n,)
        The puzzle's one solution (from the exact solver).
    seconds : float
        CPU seconds of the logical solve (the exact solve excluded).
    techniques : tuple of str
        The techniques tried, easiest first.
    stuck : bool
        True when the path ends because no technique applies (not solved, and not cut
        short by ``max_steps``).

    An :class:`~gameopt.core.Outcome`: ``clock`` is ``"cpu"``, ``proven`` means solved by
    logic alone, ``bound`` is None.
    """

    puzzle: Puzzle
    steps: tuple[LogicStep, ...]
    grid: npt.NDArray[np.int8]
    candidates: tuple[int, ...]
    solution: npt.NDArray[np.int8]
    seconds: float
    techniques: tuple[str, ...] = field(default=())
    stuck: bool = False

    @property
    def solved(self) -> bool:
        """True when logic alone filled the grid."""
        return bool(np.all(self.grid != 0))

    @property
    def empty(self) -> int:
        """Cells still empty where the path ends."""
        return int(np.count_nonzero(self.grid == 0))

    @property
    def rating(self) -> str:
        """One of :data:`RATINGS`: the tier of the hardest step, or ``"guessing"``.

        A path cut short by ``max_steps`` is rated by its steps so far (a lower bound).
        """
        if self.stuck:
            return "guessing"
        return max((s.tier for s in self.steps), key=TIERS.index, default="easy")

    @property
    def hardest(self) -> str | None:
        """The name of the hardest technique used (the first one of the top tier)."""
        if not self.steps:
            return None
        top = max(TIERS.index(s.tier) for s in self.steps)
        order = [t for t in self.techniques if TIERS.index(tier_of(t)) == top]
        used = {s.technique for s in self.steps}
        return next(t for t in reversed(order) if t in used)

    @property
    def stop_text(self) -> str:
        """Where and why logic stops (empty unless :attr:`stuck`)."""
        if not self.stuck:
            return ""
        return (f"Logic stops here with {self.empty} cells empty: none of the "
                f"{len(self.techniques)} techniques applies; the rest needs guessing "
                f"(trial and error).")

    @property
    def clock(self) -> str:
        return "cpu"

    @property
    def proven(self) -> bool:
        return self.solved

    @property
    def bound(self) -> float | None:
        return None

    @property
    def stats(self) -> dict[str, Any]:
        return {"steps": len(self.steps),
                "placements": sum(len(s.placements) for s in self.steps),
                "eliminations": sum(len(s.eliminations) for s in self.steps),
                "techniques": dict(Counter(s.technique for s in self.steps))}


def explain(puzzle: Puzzle, max_steps: int | None = None, *, stop: StopFlag | None = None
            ) -> Explanation:
    """Solve ``puzzle`` step by step with human techniques, easiest first.

    Parameters
    ----------
    puzzle : Puzzle
        Any box size; it must have exactly one solution.
    max_steps : int, optional
        Stop after this many steps (the whole path when None).
    stop : StopFlag, optional
        Read by the exact count that proves the solution unique (every 1024 guesses) and
        between steps; once set, :class:`~gameopt.errors.BudgetExhaustedError`.

    Returns
    -------
    Explanation

    Raises
    ------
    InvalidInputError
        If ``puzzle`` is not a Puzzle, or has no solution or several, or ``max_steps`` is
        not a whole number >= 0.
    SolverError
        If a step contradicts the solution (a bug in a technique; never shown).
    BudgetExhaustedError
        If ``stop`` was set before the path ended.

    Notes
    -----
    Each step restarts from the easiest technique, so the path uses the simplest
    technique available at every point. A technique scan costs at most
    O(3n * C(n, k)) word operations for subsets and fish of size k (k <= 4).
    """
    if not isinstance(puzzle, Puzzle):
        raise InvalidInputError(f"explain: expected a Puzzle, got {type(puzzle).__name__}")
    max_steps = check_count(max_steps, "max_steps", minimum=0)
    solution = _solution(puzzle, stop)
    techniques = list(applicable(puzzle.box))
    state = Candidates(puzzle.cells, puzzle.box)
    t0 = time.process_time()
    steps: list[LogicStep] = []
    stuck = False
    while state.empty() and (max_steps is None or len(steps) < max_steps):
        if stop is not None and stop.is_set():
            raise BudgetExhaustedError(f"explain: stopped after {len(steps)} steps")
        step = next_step(state, techniques)
        if step is None:
            stuck = True
            break
        _check(step, solution, puzzle)
        state.apply(step)
        steps.append(step)
    return Explanation(puzzle, tuple(steps), state.grid(), tuple(state.cands), solution,
                       time.process_time() - t0, tuple(t.name for t in techniques), stuck)


def hint(puzzle: Puzzle, *, stop: StopFlag | None = None) -> LogicStep | None:
    """The next logical step from ``puzzle``'s grid, or None if solved or logic is stuck.

    Candidates are worked out from the filled cells only (a grid holds no pencil marks).
    ``stop`` as in :func:`explain`.

    Raises
    ------
    InvalidInputError
        If ``puzzle`` has no solution or several.
    BudgetExhaustedError
        If ``stop`` was set before the step was found.
    """
    out = explain(puzzle, max_steps=1, stop=stop)
    return out.steps[0] if out.steps else None


def next_step(state: Candidates, techniques: list[Technique] | None = None
              ) -> LogicStep | None:
    """The first step the easiest applicable technique finds in ``state`` (not applied)."""
    for t in techniques if techniques is not None else applicable(state.box):
        step = t.find(state)
        if step is not None:
            return step
    return None


def _solution(puzzle: Puzzle, stop: StopFlag | None) -> npt.NDArray[np.int8]:
    out = count_solutions(puzzle, 2, stop=stop)
    where = puzzle.name or "puzzle"
    if out.status == "stopped":
        raise BudgetExhaustedError(f"{where}: stopped before the solution was proven unique")
    if out.status == "none":
        raise InvalidInputError(f"{where}: no solution, so there is nothing to explain")
    if out.status != "unique":
        raise InvalidInputError(
            f"{where}: several solutions, so logic alone cannot finish it (a proper "
            f"puzzle has exactly one)")
    assert out.solution is not None
    return out.solution


def _check(step: LogicStep, solution: npt.NDArray[np.int8], puzzle: Puzzle) -> None:
    """Raise :class:`SolverError` if ``step`` contradicts the solution."""
    n = puzzle.side
    for cell, value in step.placements:
        if int(solution[cell]) != value:
            raise SolverError(
                f"{puzzle.name or 'puzzle'}: {step.technique} placed {value} at "
                f"{cell_name(cell, n)}, the solution has {int(solution[cell])} ({step.text})")
    for cell, value in step.eliminations:
        if int(solution[cell]) == value:
            raise SolverError(
                f"{puzzle.name or 'puzzle'}: {step.technique} removed {value} from "
                f"{cell_name(cell, n)}, the solution's value there ({step.text})")


def format_candidates(grid: npt.NDArray[np.int8], candidates: tuple[int, ...], box: int
                      ) -> str:
    """A drawing of the grid with each empty cell's candidates (``[1279]``)."""
    n = box * box
    sep = "," if n > 9 else ""
    texts = [str(int(v)) if v else
             sep.join(str(x) for x in range(1, n + 1) if candidates[c] >> (x - 1) & 1)
             for c, v in enumerate(grid.tolist())]
    width = max(map(len, texts))
    lines = []
    for r in range(n):
        if r and r % box == 0:
            lines.append("+".join("-" * (box * (width + 1) + 1) for _ in range(box))[1:-1])
        row = [" ".join(texts[r * n + c].ljust(width) for c in range(b * box, (b + 1) * box))
               for b in range(box)]
        lines.append(" | ".join(row).rstrip())
    return "\n".join(lines)
