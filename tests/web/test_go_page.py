"""The Go page through its routes: MSP boards, their downloads, and board checks of SGF."""

from __future__ import annotations

import re

import pytest

from gameopt.go.sgf import board_from_sgf
from gameopt.go.text import parse_text
from tests.web.conftest import Desk, text

#: Black A5-B5 (two stones) surrounded by white A4, B4 and C5: a string without liberty.
DEAD_SGF = "(;GM[1]FF[4]SZ[5]AB[aa][ba]AW[ab][bb][ca])"


def test_the_page_without_a_size_shows_the_form(desk: Desk) -> None:
    r = desk.get("/go")
    assert r.status_code == 200 and 'id="msp-form"' in r.text and "<svg" not in r.text


def test_msp_19_board_values_and_how_it_was_proven(desk: Desk) -> None:
    r = desk.get("/go?size=19")
    assert r.status_code == 200
    page = text(r)
    assert "MSP(19) = 277" in page
    assert re.search(r'id="gamma">84 — the domination number, proven', page)
    assert "Gonçalves, Pinlou, Rao and Thomassé" in page
    assert "gives 84: agrees" in page
    svg = re.search(r'<figure class="goboard" id="msp-board">(<svg.*?</svg>)', r.text, re.S)
    assert svg and "<style>" not in svg.group(1)  # the CSP refuses inline styles
    assert svg.group(1).count('class="m"') == 84  # the dominating empty points
    assert svg.group(1).count("<circle") == 19 * 19 - 84


def test_small_and_rectangular_boards_by_the_dp(desk: Desk) -> None:
    r = desk.get("/go?size=9")
    assert "MSP(9) = 61" in text(r) and "dynamic program" in text(r)
    assert "Published γ(9×9) = 20 (Alanko et al. 2011): agrees" in text(r)
    r = desk.get("/go?size=3x5")
    assert r.status_code == 200 and "MSP(3×5)" in text(r)
    assert 'id="download-sgf"' in r.text and 'id="download-text"' in r.text


@pytest.mark.parametrize("size, rows, cols", [("5x7", 5, 7), ("30", 30, 30)])
def test_rectangles_and_sides_past_25_download_as_sgf(desk: Desk, size: str, rows: int,
                                                      cols: int) -> None:
    r = desk.get(f"/go?size={size}")
    m = re.search(r"MSP\((?:\d+×\d+|\d+)\) = (\d+)", text(r))
    assert m, text(r)
    r = desk.get(f"/go/msp.sgf?size={size}")
    assert r.status_code == 200, text(r)
    board = board_from_sgf(r.content)
    assert (board.rows, board.cols) == (rows, cols)
    assert board.string_count() == int(m.group(1))


def test_the_sgf_download_holds_277_strings(desk: Desk) -> None:
    r = desk.get("/go/msp.sgf?size=19&method=auto")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="msp-19.sgf"'
    board = board_from_sgf(r.content)
    assert board.string_count() == 277 and board.is_legal_position()


def test_the_text_download_of_a_rectangle(desk: Desk) -> None:
    r = desk.get("/go/msp.txt?size=4x6")
    assert r.status_code == 200
    board = parse_text(r.text)
    assert board.shape == (4, 6)
    r2 = desk.get("/go?size=4x6")
    m = re.search(r"MSP\(4×6\) = (\d+)", text(r2))
    assert m and board.string_count() == int(m.group(1))


@pytest.mark.parametrize(("url", "message"), [
    ("/go?size=0", "size: rows 0 is outside 1..40"),
    ("/go?size=41", "size: rows 41 is outside 1..40"),
    ("/go?size=3x99", "size: columns 99 is outside 1..40"),
    ("/go?size=big", "size: 'big' is not N or MxN"),
    ("/go?size=9&method=magic", "method: 'magic' is not one of auto"),
    ("/go?size=9&method=construct", "construction needs both sides >= 16"),
    ("/go/msp.txt?size=", "size: '' is not N or MxN"),
])
def test_bad_sizes_are_a_400(desk: Desk, url: str, message: str) -> None:
    r = desk.get(url)
    assert r.status_code == 400
    assert message in text(r)


def test_check_an_uploaded_legal_board(desk: Desk) -> None:
    sgf = desk.get("/go/msp.sgf?size=7").content
    r = desk.post("/go/check", {}, files={"file": ("msp7.sgf", sgf, "application/x-go-sgf")})
    assert r.status_code == 200
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text(r)))
    assert "msp7.sgf: 7×7, legal position, 37 strings" in page
    assert 'id="check-strings">37 strings' in r.text  # MSP(7) = 49 - 12
    assert 'id="check-board"' in r.text and 'id="dead"' not in r.text


def test_check_draws_the_strings_without_liberty(desk: Desk) -> None:
    r = desk.post("/go/check", {"sgf": DEAD_SGF})
    assert r.status_code == 200
    page = text(r)
    assert "not a legal position" in page
    assert "black string of 2 stones at A5" in page
    board = re.search(r'id="check-board">(<svg.*?</svg>)', r.text, re.S)
    assert board and board.group(1).count('class="mb"') == 2  # the two dead black stones


@pytest.mark.parametrize(("data", "message"), [
    ("(;GM[1]SZ[5]AB[aa", "pasted SGF: malformed SGF"),
    ("(;GM[3]SZ[5])", "GM[3] is not a Go game"),
    ("(;GM[1]SZ[5];B[aa];W[aa])", "pasted SGF"),
    ("", "SGF: no file chosen and nothing pasted"),
])
def test_bad_sgf_is_a_400(desk: Desk, data: str, message: str) -> None:
    r = desk.post("/go/check", {"sgf": data})
    assert r.status_code == 400
    assert message in text(r) and 'id="error-sgf"' in r.text


def test_a_solve_cut_by_the_budget_is_a_422(desk: Desk, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    from gameopt.web import go_page

    monkeypatch.setattr(go_page, "SECONDS", 0.2)
    r = desk.get("/go?size=15x40")  # the DP needs seconds for 40 rows
    assert r.status_code == 422
    assert "MSP 15x40 not finished within 0.2 s" in text(r) and 'id="error-size"' in r.text
    r = desk.get("/go/msp.txt?size=15x40")
    assert r.status_code == 422 and "not finished within 0.2 s" in text(r)
