"""SVG pictures of Go boards, with a set of points marked.

The picture shows the grid lines, the stones and, as small squares, a set of marked points
(for a maximum-strings board: the empty points, i.e. the dominating set). Boards of up
to 25 columns get Go coordinates around the edge, in margins wide enough that no label
reaches an edge stone (the left and right ones widen with the row numbers' digits). The
SVG is plain text, one element per stone or mark, styled by three CSS classes, so a 19×19
board is a few kilobytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np
import numpy.typing as npt

from gameopt.core.files import atomic_write_bytes
from gameopt.errors import InvalidInputError
from gameopt.go.board import BLACK, GO_LETTERS, WHITE, Board, Point

__all__ = ["board_svg", "write_svg"]

#: Font size, stone radius and the least space between a label and a stone or the
#: picture's edge, in cells.
_FONT, _RADIUS, _GAP = 0.45, 0.47, 0.08

_STYLE = (".g{stroke:#000;stroke-width:1}.b{fill:#000}"
          ".w{fill:#fff;stroke:#000;stroke-width:1}.m{fill:#c0392b}.mb{fill:#f5b7b1}"
          ".t{font:%(font)spx sans-serif;fill:#000;text-anchor:middle;"
          "dominant-baseline:central}")


def board_svg(board: Board, *, marks: Iterable[Point] | npt.NDArray[np.bool_] | None = None,
              cell: float = 24.0, coordinates: bool | None = None,
              title: str | None = None) -> str:
    """An SVG picture of ``board``.

    Parameters
    ----------
    board : Board
        Any size.
    marks : bool array of shape (rows, cols), or iterable of Point, optional
        Points drawn as small squares (on a stone too, in a contrasting colour).
    cell : float
        Distance between grid lines in pixels (> 0).
    coordinates : bool, optional
        Draw Go coordinates around the board; by default when it has at most 25 columns.
    title : str, optional
        Written as the picture's ``<title>``.

    Returns
    -------
    str
        The SVG document.

    Raises
    ------
    InvalidInputError
        If ``cell`` is not positive, a mark is off the board, the mark array has
        another shape than the board, or ``coordinates=True`` on more than 25 columns.

    Notes
    -----
    O(rows*cols) time and output size.
    """
    if not cell > 0:
        raise InvalidInputError(f"cell size must be positive, got {cell!r}")
    rows, cols = board.shape
    marked = _mark_array(board, marks)
    if coordinates is None:
        coordinates = cols <= len(GO_LETTERS)
    elif coordinates and cols > len(GO_LETTERS):
        raise InvalidInputError(f"coordinates: a {rows}x{cols} board has more than "
                                f"{len(GO_LETTERS)} columns, which have no Go letters")
    font = cell * _FONT
    radius = cell * _RADIUS
    if coordinates:
        mx = max(cell, radius + 2 * (_half_width(str(rows), font) + cell * _GAP))
        my = max(cell, radius + 2 * (font / 2 + cell * _GAP))
    else:
        mx = my = cell / 2
    width, height = 2 * mx + (cols - 1) * cell, 2 * my + (rows - 1) * cell

    def x(c: int) -> float:
        return mx + c * cell

    def y(r: int) -> float:
        return my + r * cell

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}">',
           f"<style>{_STYLE % {'font': f'{font:g}'}}</style>"]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{width:g}" height="{height:g}" fill="#dcb35c"/>')
    lines = [f"M{x(0):g} {y(r):g}H{x(cols - 1):g}" for r in range(rows)]
    lines += [f"M{x(c):g} {y(0):g}V{y(rows - 1):g}" for c in range(cols)]
    out.append(f'<path class="g" d="{"".join(lines)}"/>')
    if coordinates:
        out += _coordinates(rows, cols, x, y, mx - radius, my - radius, width, height)
    arr = board.to_array()
    for colour, cls in ((BLACK, "b"), (WHITE, "w")):
        rs, cs = np.nonzero(arr == colour)
        out += [f'<circle class="{cls}" cx="{x(c):g}" cy="{y(r):g}" r="{radius:g}"/>'
                for r, c in zip(rs.tolist(), cs.tolist(), strict=True)]
    side = cell * 0.4
    rs, cs = np.nonzero(marked)
    for r, c in zip(rs.tolist(), cs.tolist(), strict=True):
        cls = "mb" if arr[r, c] == BLACK else "m"
        out.append(f'<rect class="{cls}" x="{x(c) - side / 2:g}" y="{y(r) - side / 2:g}" '
                   f'width="{side:g}" height="{side:g}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _mark_array(board: Board, marks: Iterable[Point] | npt.NDArray[np.bool_] | None
                ) -> npt.NDArray[np.bool_]:
    rows, cols = board.shape
    if marks is None:
        return np.zeros((rows, cols), dtype=bool)
    if isinstance(marks, np.ndarray):
        if marks.shape != (rows, cols):
            raise InvalidInputError(f"marks of shape {marks.shape} do not fit a "
                                    f"{rows}x{cols} board")
        return marks.astype(bool)
    marked = np.zeros((rows, cols), dtype=bool)
    for point in marks:
        r, c = point
        if not (0 <= r < rows and 0 <= c < cols):
            raise InvalidInputError(f"marked point {point!r} is off the {rows}x{cols} board")
        marked[r, c] = True
    return marked


def _half_width(label: str, font: float) -> float:
    """Half the width of ``label`` at ``font`` pixels, on the safe side: 0.6 em a
    character (a digit of common sans-serif faces is about 0.55 em wide)."""
    return 0.3 * font * len(label)


def _coordinates(rows: int, cols: int, x: Callable[[int], float], y: Callable[[int], float],
                 gap_x: float, gap_y: float, width: float, height: float) -> list[str]:
    """Column letters above and below, row numbers (from the bottom) left and right, each
    centred in the strip between the picture's edge and the edge stones (``gap_x`` wide
    on the left and right, ``gap_y`` high above and below)."""
    out = []
    for c in range(cols):
        for ty in (gap_y / 2, height - gap_y / 2):
            out.append(f'<text class="t" x="{x(c):g}" y="{ty:g}">{GO_LETTERS[c]}</text>')
    for r in range(rows):
        for tx in (gap_x / 2, width - gap_x / 2):
            out.append(f'<text class="t" x="{tx:g}" y="{y(r):g}">{rows - r}</text>')
    return out


def write_svg(path: str | Path, board: Board, *,
              marks: Iterable[Point] | npt.NDArray[np.bool_] | None = None,
              cell: float = 24.0, coordinates: bool | None = None,
              title: str | None = None) -> None:
    """Write :func:`board_svg` to ``path``; the file is written whole or not at all."""
    svg = board_svg(board, marks=marks, cell=cell, coordinates=coordinates, title=title)
    atomic_write_bytes(path, svg.encode("utf-8"))
