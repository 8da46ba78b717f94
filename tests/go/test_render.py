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
