"""A scripted NBoard engine for the client tests (tests/reversi/test_external.py).

``python fake_nboard.py MODE``; every mode handshakes normally (``set myname fake``,
``pong N``) and differs only in its answer to ``go``:

first    the first legal move (``PA`` when it must pass), after noise the client must skip
         (status, nodestats, search, a blank line, a stale pong, a second ``set myname``)
edax     the first legal move as Edax 4.6 answers: ``=== d8 0.00 0.0`` (spaces, not
         slashes), ``=== PS 0.00 0.0`` for a pass
bare     the first legal move alone, upper case, trailing spaces: ``=== D8  ``
evalonly the first legal move with an eval and no time: ``=== d8/-1.50\t``
pass     always ``=== PA``
illegal  the first empty square that is not a legal move
garbage  ``=== zz/1.0``
crash    writes a line on stderr and exits with code 3
hang     never answers (but still quits on ``quit``)
"""

from __future__ import annotations

import sys

from gameopt.reversi.board import Board
from gameopt.reversi.files import parse_ggf


def answer(mode: str, board: Board) -> list[str]:
    legal = board.legal_moves()
    if mode == "first":
        m = legal[0]
        return ["status fake is thinking", "nodestats 12 0.01", f"search {m} 0.5 0 1", "",
                "pong 999", "set myname fake-again", f"=== {'PA' if m.is_pass else m}/0.50/0.01",
                "status"]
    name = ("PS" if mode == "edax" else "PA") if legal[0].is_pass else str(legal[0])
    if mode == "edax":
        return ["status Edax is thinking", f"=== {name} 0.00 0.0", "status"]
    if mode == "bare":
        return [f"=== {name.upper()}  "]
    if mode == "evalonly":
        return [f"=== {name}/-1.50\t"]
    if mode == "pass":
        return ["=== PA"]
    if mode == "illegal":
        empty = ~(board.player | board.opponent)
        sq = next(s for s in range(64) if empty >> s & 1 and all(m.square != s for m in legal))
        return [f"=== {'abcdefgh'[sq % 8]}{sq // 8 + 1}/0.0"]
    if mode == "garbage":
        return ["=== zz/1.0"]
    if mode == "crash":
        print("fake: crashed on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    return []  # hang


def main() -> int:
    mode = sys.argv[1]
    board = Board.start()
    for line in sys.stdin:
        words = line.split()
        out: list[str] = []
        if not words:
            continue
        if words[0] == "quit":
            return 0
        if words[0] == "nboard":
            out = ["set myname fake"]
        elif words[0] == "ping":
            out = [f"pong {words[1]}"]
        elif words[:2] == ["set", "game"]:
            board = parse_ggf(line.split(None, 2)[2])[0].final_board()
        elif words[0] == "go":
            out = answer(mode, board)
        for text in out:
            print(text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
