"""Test positions for the Go board (built here; no data files needed)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from gameopt.go import BLACK, EMPTY, WHITE
from gameopt.go.msp import dominated


def many_strings(rows: int, cols: int | None = None) -> npt.NDArray[np.int8]:
    """A legal position where every stone is a string of its own.

    Stones are coloured like a checkerboard (black where row+col is odd). The empty points
    are the diagonal lattice ``(row + 2*col) % 5 == 0``, which dominates the infinite grid
    (every point is on it or next to exactly one of its points), plus the edge points the
    lattice leaves without an empty neighbour. So every stone touches an empty point: on
    19×19 this gives 274 single-stone strings (the maximum is 277).
    """
    cols = rows if cols is None else cols
    r, c = np.indices((rows, cols))
    empty = (r + 2 * c) % 5 == 0
    empty |= ~dominated(empty)
    arr = np.where((r + c) % 2 == 1, BLACK, WHITE).astype(np.int8)
    arr[empty] = EMPTY
    return arr

