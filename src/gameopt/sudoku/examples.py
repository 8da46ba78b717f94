"""Puzzles embedded in the package (the default data of ``gameopt demo``)."""

from __future__ import annotations

from gameopt.sudoku.grid import Puzzle

__all__ = ["ARTICLE_PUZZLE", "article_puzzle"]

#: The demo puzzle of McCaffrey, "Solving Sudoku Using Combinatorial Evolution",
#: MSDN Magazine, November 2016 (figure 1; 27 givens, one solution).
ARTICLE_PUZZLE = ("..62...8...897......481.5......6...2.7....."
                  "3.6...5......2.471....3.284...5...12..")


def article_puzzle() -> Puzzle:
    """The article's puzzle as a :class:`Puzzle`."""
    return Puzzle.from_string(ARTICLE_PUZZLE, name="McCaffrey 2016")
