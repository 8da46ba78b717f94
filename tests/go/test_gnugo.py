"""Interoperability with GNU Go (Debian's ``gnugo`` 3.8) over GTP, where it is installed.

GNU Go keeps its strings in a fixed table of ``4 * 19 * 19 / 5 = 288`` entries
(``board.c``). It reads our many-string SGF fine, but as soon as it analyses the position
its look-ahead needs more table entries than that, and it aborts on the assertion at
``board.c:3692``, with 273 strings on the board (fewer than 288: the moves it reads make
new strings). That is the crash the seed paper (Miyashiro, Yano, Muramatsu 2008) predicts
of most Go programs on a maximum-strings board; our board analyses the same position.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gameopt.go import BLACK, WHITE, Board, opponent
from gameopt.go.reference import reference_legal_moves, reference_strings
from gameopt.go.sgf import write_sgf

from .positions import many_strings

GNUGO = shutil.which("gnugo") or next(
    (p for p in ("/usr/games/gnugo",) if Path(p).is_file()), None)

pytestmark = pytest.mark.skipif(
    GNUGO is None, reason="GNU Go not installed (no `gnugo` on PATH, no /usr/games/gnugo); "
                          "Debian/Ubuntu: apt-get install gnugo")


def gtp(commands: list[str]) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """Send GTP commands to a fresh GNU Go; its answers (without ``= ``) and the process."""
    assert GNUGO is not None
    proc = subprocess.run([GNUGO, "--mode", "gtp"], input="\n".join([*commands, "quit"]) + "\n",
                          capture_output=True, text=True, timeout=120, check=False)
    answers = [block.strip() for block in proc.stdout.split("\n\n") if block.strip()]
    return answers, proc


def ko_point(board: Board) -> tuple[int, int] | None:
    return None if board.ko is None else board.ko[0]


@pytest.fixture(scope="module", params=["msp19", "many"])
def many_sgf(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Board]:
    """Our 277-string MSP(19) board (the construction), and the tests' own 273-string one."""
    if request.param == "msp19":
        from gameopt.go.msp import msp_position
        from gameopt.go.msp_solve import solve_msp

        res = solve_msp(19)
        assert res.msp == 277 and res.empty is not None
        board = Board.from_array(msp_position(res.empty))
        assert board.string_count() == 277
    else:
        board = Board.from_array(many_strings(19))
    path = tmp_path_factory.mktemp("gnugo") / f"{request.param}.sgf"
    write_sgf(path, board)
    return path, board


def test_gnugo_loads_every_stone(many_sgf: tuple[Path, Board]) -> None:
    path, board = many_sgf
    answers, proc = gtp([f"loadsgf {path}", "list_stones black", "list_stones white"])
    assert proc.returncode == 0, proc.stderr[-500:]
    assert len(answers) == 4 and all(a.startswith("=") for a in answers), answers
    for answer, colour in zip(answers[1:3], (BLACK, WHITE), strict=True):
        ours = {board.name((r, c)) for r, row in enumerate(board.to_array().tolist())
                for c, v in enumerate(row) if v == colour}
        assert set(answer[1:].split()) == ours
    total = board.count(BLACK) + board.count(WHITE)
    assert board.string_count() == total and total in (273, 277)


@pytest.mark.characterisation
@pytest.mark.parametrize("command", ["estimate_score", "genmove black"])
def test_gnugo_aborts_analysing_a_many_string_position(many_sgf: tuple[Path, Board],
                                                       command: str) -> None:
    path, board = many_sgf
    before = board.copy()
    stones = board.count(BLACK) + board.count(WHITE)
    answers, proc = gtp([f"loadsgf {path}", command])
    assert answers[:1] == ["= black"]                   # the position was read ...
    assert proc.returncode != 0                         # ... then GNU Go died (SIGABRT)
    assert "assertion failure" in proc.stderr
    assert "board.c:3692 - s < (4 * 19 * 19 / 5)" in proc.stderr
    # ... while our board analyses the same position: every move and its captures.
    assert board.is_legal_position() and board.string_count() == stones
    for colour in (BLACK, WHITE):
        legal = board.legal_moves(colour)
        assert legal
        for point in legal:
            captured = board.play(colour, point)
            after = reference_strings(board.to_array().tolist())
            assert board.is_legal_position() and board.string_count() == len(after)
            assert len(captured) == stones - sum(s.size for s in board.strings()) + 1
            assert board.legal_moves(opponent(colour)) == reference_legal_moves(
                board.to_array().tolist(), opponent(colour), ko_point(board))
            board.undo()
    assert board == before
