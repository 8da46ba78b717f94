"""Terminal play: a scripted person against the engine."""

from __future__ import annotations

import subprocess
import sys

from gameopt.reversi.board import Board
from gameopt.reversi.match import Player
from gameopt.reversi.play import PlaySession, play
from gameopt.reversi.timing import TimeControl


def test_scripted_game_to_the_end() -> None:
    session = PlaySession(Player("engine", depth=1, end_empties=6), "O")
    out: list[str] = []

    def read(prompt: str) -> str:
        return str(session.board.legal_moves()[-1])  # the person plays its last legal move

    diff = play(session, read, out.append)
    board = session.board
    assert board.is_game_over()
    assert diff == (board.score() if board.side == "X" else -board.score())
    assert out[-1].startswith("game over:") and f"black {diff:+d} discs" in out[-1]
    assert Board.from_moves("".join(str(m) for m in session.moves or [])) == board


def test_commands_undo_hint_level_and_bad_input() -> None:
    session = PlaySession(Player("engine", depth=1), "X")
    script = iter(["f5", "zz", "a1", "hint", "level 99", "level 2", "moves", "undo", "undo",
                   "moves", "quit"])
    out: list[str] = []
    assert play(session, lambda prompt: next(script), out.append) == 0
    text = "\n".join(out)
    assert "'zz' is not a square" in text and "a1 is not legal here" in text
    assert "hint: " in text and "level: give a depth 1..20" in text
    assert "engine depth 2" in text and session.engine.depth == 2
    assert "taken back" in text and "nothing to undo" in text and "(none yet)" in text
    assert session.board == Board.start() and "game left unfinished" in out[-1]


def test_engine_against_itself_and_cli_end_of_input() -> None:
    session = PlaySession(Player("engine", depth=1, end_empties=4), "")
    play(session, lambda prompt: None, lambda line: None)
    assert session.board.is_game_over()
    r = subprocess.run([sys.executable, "-m", "gameopt.cli.main", "reversi", "play",
                        "--level", "1"], input="f5\nd3\n", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "end of input" in r.stdout and r.stderr == ""


def test_play_and_match_by_time_from_the_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``play --clock`` keeps the engine's clock (the note says what is left); ``match
    --time`` makes depth players think by time (named in the summary); bad time flags are
    one line and exit 2."""
    session = PlaySession(Player("engine", end_empties=6,
                                 control=TimeControl(clock=2.0, increment=0.1)), "")
    notes: list[str] = []
    play(session, lambda prompt: None, notes.append)
    assert session.board.is_game_over() and session.clocks is not None
    assert any("s left" in n for n in notes)
    ops = tmp_path / "ops.txt"
    ops.write_text("f5d6c3d3c4f4c5b3\n")
    cli = [sys.executable, "-m", "gameopt.cli.main", "reversi"]
    r = subprocess.run(cli + ["match", "--openings", str(ops), "--a", "end=6",
                              "--b", "depth=1,end=6", "--time", "0.02", "--workers", "1",
                              "-q"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "0.02 s/move cpu" in r.stdout and "2 games" in r.stdout
    for bad, msg in [(["--inc", "1"], "--inc needs --clock"),
                     (["--time", "-1"], "time per move -1.0")]:
        r = subprocess.run(cli + ["play", *bad], input="", capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 2 and msg in r.stderr and "Traceback" not in r.stderr


def test_play_opens_from_the_shipped_book_unless_told_not_to() -> None:
    cli = [sys.executable, "-m", "gameopt.cli.main", "reversi", "play", "--level", "1",
           "--color", "O"]
    r = subprocess.run(cli, input="", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stderr == ""
    assert "engine (black (X)) plays " in r.stdout and "(book " in r.stdout
    r = subprocess.run(cli + ["--no-book"], input="", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "(book" not in r.stdout and "engine (black (X)) plays " in r.stdout


def test_play_with_another_evaluation_and_a_bad_one() -> None:
    """``--eval heuristic`` (or a weights file) is the engine's evaluation: its first move's
    value is that of a search with it; a file that is not weights is one line, exit 2."""
    from gameopt.core import Limit
    from gameopt.reversi.search import EvalKind, SearchParams, search

    cli = [sys.executable, "-m", "gameopt.cli.main", "reversi", "play", "--level", "3",
           "--color", "O", "--no-book"]
    values = {}
    for name, extra, params in [("default", [], SearchParams()),
                                ("heuristic", ["--eval", "heuristic"],
                                 SearchParams(eval_kind=EvalKind.HEURISTIC))]:
        r = subprocess.run(cli + extra, input="", capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        want = search(Board.start(), Limit(depth=3), params)
        assert f"plays {want.move} (eval {want.score:+.2f} at depth 3)" in r.stdout, name
        values[name] = want.score
    assert values["default"] != values["heuristic"]  # the option is seen
    r = subprocess.run(cli + ["--eval", "nope.npz"], input="", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and r.stderr.strip() == ("gameopt: error: weights file nope.npz: "
                                                      "no such file")
