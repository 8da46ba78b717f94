"""Go: a board with strings and liberties, text and SGF formats, pictures, and the
maximum-strings problem.

The board (:mod:`gameopt.go.board`) is the core; :mod:`gameopt.go.text`,
:mod:`gameopt.go.sgf` and :mod:`gameopt.go.render` are add-ons that use it and are never
imported by it (nor by this face: import them by name).

The maximum-strings problem::

    from gameopt.go import solve_msp, check_msp_board
    res = solve_msp(19)                       # method "auto": construction, DP or CP-SAT
    board = check_msp_board(res)              # a legal board of res.msp strings

OR-Tools loads on the first CP-SAT solve; the DP kernels on the first DP run.
"""

from gameopt.go.board import (
    BLACK,
    EMPTY,
    WHITE,
    Board,
    Colour,
    GoString,
    Point,
    opponent,
    parse_point,
    point_name,
)
from gameopt.go.msp import MspResult
from gameopt.go.msp_dp import DPResult, domination_number, optimal_dominating_set
from gameopt.go.msp_solve import METHODS as MSP_METHODS
from gameopt.go.msp_solve import best_method, check_msp_board, msp_table, solve_msp

__all__ = [
    "DPResult",
    "MSP_METHODS",
    "MspResult",
    "BLACK",
    "EMPTY",
    "WHITE",
    "Board",
    "Colour",
    "GoString",
    "Point",
    "opponent",
    "parse_point",
    "point_name",
    "best_method",
    "check_msp_board",
    "domination_number",
    "msp_table",
    "optimal_dominating_set",
    "solve_msp",
]
