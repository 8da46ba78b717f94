"""Go: a board with strings and liberties, text and SGF formats, pictures, and the
maximum-strings problem.

The board (:mod:`gameopt.go.board`) is the core; :mod:`gameopt.go.text`,
:mod:`gameopt.go.sgf` and :mod:`gameopt.go.render` are add-ons that use it and are never
imported by it.
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

__all__ = [
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
]
