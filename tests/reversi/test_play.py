"""Terminal play: a scripted person against the engine."""

from __future__ import annotations

import subprocess
import sys

from gameopt.reversi.board import Board
from gameopt.reversi.match import Player
from gameopt.reversi.play import PlaySession, play


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
