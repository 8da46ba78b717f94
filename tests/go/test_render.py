"""SVG pictures: well-formed, one circle per stone, one square per mark, atomic writes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.go import BLACK, EMPTY, WHITE, Board
from gameopt.go.render import board_svg, write_svg

from .positions import many_strings

NS = "{http://www.w3.org/2000/svg}"


def elements(svg: str, tag: str, cls: str | None = None) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [e for e in root.iter(NS + tag) if cls is None or e.get("class") == cls]


def test_stones_and_marked_empty_points() -> None:
    arr = many_strings(19)
    board = Board.from_array(arr)
    svg = board_svg(board, marks=arr == EMPTY, title="MSP 19 <273>")
    assert len(elements(svg, "circle", "b")) == board.count(BLACK)
    assert len(elements(svg, "circle", "w")) == board.count(WHITE)
    assert len(elements(svg, "rect", "m")) == board.count(EMPTY)
    texts = {e.text for e in elements(svg, "text")}
    assert {"A", "T", "1", "19"} <= texts and "I" not in texts
    assert elements(svg, "title")[0].text == "MSP 19 <273>"


def test_marks_as_points_on_stones_and_no_coordinates_on_wide_boards() -> None:
    board = Board(3, 30)
    board.play(BLACK, (0, 0))
    svg = board_svg(board, marks=[(0, 0), (2, 29)], cell=10)
    assert len(elements(svg, "rect", "mb")) == 1 and len(elements(svg, "rect", "m")) == 1
    assert elements(svg, "text") == []
    root = ET.fromstring(svg)
    assert root.get("width") == "300" and root.get("height") == "30"


@pytest.mark.parametrize("kwargs, match", [
    ({"marks": [(3, 0)]}, r"marked point \(3, 0\) is off the 3x3 board"),
    ({"marks": np.zeros((2, 3), dtype=bool)}, r"marks of shape \(2, 3\) do not fit a 3x3"),
    ({"cell": 0}, "cell size must be positive, got 0"),
])
def test_bad_arguments(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        board_svg(Board(3), **kwargs)  # type: ignore[arg-type]


def test_write_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "b.svg"
    path.write_text("old")
    write_svg(path, Board(5), marks=[(2, 2)])
    assert path.read_text().startswith("<svg") and len(list(tmp_path.iterdir())) == 1
    with pytest.raises(InvalidInputError, match="does not exist"):
        write_svg(tmp_path / "no" / "b.svg", Board(5))


def _striped(rows: int, cols: int, offset: int, across: bool) -> Board:
    """Every other row (``across``) or column black, starting at ``offset``: every edge
    stone the labels could reach, on a legal board (each stripe has an empty neighbour
    line, or is alone)."""
    arr = np.full((rows, cols), EMPTY, dtype=np.int8)
    if across:
        arr[offset::2, :] = BLACK
    else:
        arr[:, offset::2] = BLACK
    if arr.all():  # 1xN or Nx1 filled: leave one point empty
        arr.flat[-1] = EMPTY
    return Board.from_array(arr)


def _label_clear_of_stones(svg: str) -> None:
    root = ET.fromstring(svg)
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    font = float(svg.split("font:")[1].split("px")[0])
    circles = np.array([(float(e.get("cx") or 0), float(e.get("cy") or 0),
                         float(e.get("r") or 0)) for e in elements(svg, "circle")])
    if not len(circles):  # a 1x1 board holds no stone
        return
    for t in elements(svg, "text"):
        # a box around the label, generous: 0.6 em a character, 1 em high
        tx, ty = float(t.get("x") or 0), float(t.get("y") or 0)
        hw, hh = 0.3 * font * len(t.text or ""), 0.5 * font
        assert 0 <= tx - hw and tx + hw <= width and 0 <= ty - hh and ty + hh <= height, \
            (t.text, tx, ty)
        dx = np.maximum(np.abs(circles[:, 0] - tx) - hw, 0)
        dy = np.maximum(np.abs(circles[:, 1] - ty) - hh, 0)
        assert (np.hypot(dx, dy) > circles[:, 2]).all(), (t.text, tx, ty)


@pytest.mark.parametrize("rows, cols", sorted(
    {(n, n) for n in range(1, 26)}
    | {(r, c) for r in range(1, 53) for c in (2, 19, 25)}
    | {(r, c) for r in (1, 52) for c in range(1, 26)}))
def test_labels_never_overlap_a_stone(rows: int, cols: int) -> None:
    for across in (True, False):
        for offset in (0, 1):
            if offset < (rows if across else cols):
                _label_clear_of_stones(board_svg(_striped(rows, cols, offset, across)))


def test_no_coordinates_past_25_columns() -> None:
    with pytest.raises(InvalidInputError, match="a 3x30 board has more than 25 columns"):
        board_svg(Board(3, 30), coordinates=True)
