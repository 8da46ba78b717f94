"""Play Othello against the engine in a terminal.

The board is drawn after every move with the legal moves marked ``*``. A person types a
square (``f5``) or a command:

``undo``       take back the last own move (and the engine's answer);
``hint``       the engine's choice for this position, with its evaluation;
``level N``    the engine's midgame depth from now on (1..20);
``moves``      the game so far as a move list;
``quit``       stop (end of input also stops).

A pass is played automatically when the side to move has none. With a book the engine
plays book moves while it can (with ``variety``, any move within that many discs of the
best, at random). At the end the score is shown. All input and output go through two
callables, so tests script a whole game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from gameopt.errors import InvalidInputError
from gameopt.reversi.board import BLACK, PASS, WHITE, Board, Move
from gameopt.reversi.match import Player
from gameopt.reversi.search import SearchTable

__all__ = ["PlaySession", "play"]

HELP = "type a move like f5, or: undo, hint, level N, moves, quit"


@dataclass
class PlaySession:
    """A game between a person (``human`` = ``'X'``, ``'O'``, or ``''`` for engine vs
    engine) and the engine ``engine``; ``history`` holds every position from the start."""

    engine: Player
    human: str = BLACK
    history: list[Board] | None = None
    moves: list[Move] | None = None
    variety: float = 0.0
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.human not in ("X", "O", ""):
            raise InvalidInputError(f"play: colour {self.human!r} is not X, O or ''")
        self.history = self.history or [Board.start()]
        self.moves = self.moves or []
        self.rng = np.random.default_rng(self.seed)
        control = self.engine.control
        start = control.clock if control is not None else None
        #: seconds left on the engine's game clock per colour (with a clock control)
        self.clocks: dict[str, float] | None = (None if start is None
                                                else {BLACK: start, WHITE: start})
        #: each colour's transposition table, kept while the engine thinks by time
        self._tables: dict[str, SearchTable | None] = {}
        self._tables_for: Player | None = None

    @property
    def board(self) -> Board:
        assert self.history is not None
        return self.history[-1]

    def push(self, move: Move) -> None:
        assert self.history is not None and self.moves is not None
        self.history.append(self.board.play(move))
        self.moves.append(move)

    def undo(self) -> bool:
        """Back to the person's previous turn; False when there is none."""
        assert self.history is not None and self.moves is not None
        for k in range(len(self.history) - 2, -1, -1):
            b = self.history[k]
            if b.side == self.human and b.legal_moves() not in ([], [PASS]):
                del self.history[k + 1:]
                del self.moves[k:]
                return True
        return False

    def engine_move(self) -> tuple[Move, str]:
        """The engine's move and a note (its evaluation) for the current position; on a game
        clock, the time used is taken off the mover's clock (the increment added)."""
        side = self.board.side
        if self._tables_for is not self.engine:  # a new level: new tables
            self._tables, self._tables_for = {}, self.engine
        if side not in self._tables:
            self._tables[side] = self.engine.new_table()
        remaining = None if self.clocks is None else self.clocks[side]
        m, note, used = self.engine.decide(self.board, self.variety, self.rng, remaining,
                                           table=self._tables[side])
        if self.clocks is None or self.engine.control is None:
            return m, note
        self.clocks[side] += self.engine.control.increment - used
        return m, f"{note}; {max(0.0, self.clocks[side]):.1f} s left"


def play(session: PlaySession, read: Callable[[str], str | None],
         write: Callable[[str], None]) -> int:
    """Run the game loop; ``read(prompt)`` returns a line or None at the end of input.

    Returns Black's final disc difference (0 if the game was left unfinished).
    """
    write(HELP)
    while not session.board.is_game_over():
        board = session.board
        moves = board.legal_moves()
        mark = board.moves_bitboard()
        write("\n" + board.draw(mark))
        if moves == [PASS]:
            write(f"{_side(board)} has no move and passes")
            session.push(PASS)
            continue
        if board.side != session.human:
            move, note = session.engine_move()
            write(f"engine ({_side(board)}) plays {move} ({note})")
            session.push(move)
            continue
        write("legal: " + " ".join(str(m) for m in moves))
        line = read(f"{_side(board)} to move> ")
        if line is None:
            write("end of input: game left unfinished")
            return 0
        if not _command(session, line.strip(), write):
            write("game left unfinished")
            return 0
    board = session.board
    diff = board.black_score()
    write("\n" + board.draw())
    winner = "black wins" if diff > 0 else "white wins" if diff < 0 else "draw"
    write(f"game over: {winner}, black {diff:+d} discs")
    return diff


def _side(board: Board) -> str:
    return "black (X)" if board.side == BLACK else "white (O)"


def _command(session: PlaySession, text: str, write: Callable[[str], None]) -> bool:
    """Apply one line of the person's; False to quit."""
    word = text.lower().split()
    if not word:
        return True
    if word[0] in ("quit", "exit", "q"):
        return False
    if word[0] == "undo":
        write("taken back" if session.undo() else "nothing to undo")
    elif word[0] == "hint":
        move, note = session.engine_move()
        write(f"hint: {move} ({note})")
    elif word[0] == "moves":
        assert session.moves is not None
        write("".join(str(m) for m in session.moves) or "(none yet)")
    elif word[0] == "level":
        if len(word) != 2 or not word[1].isdigit() or not 1 <= int(word[1]) <= 20:
            write("level: give a depth 1..20, e.g. level 6")
        else:
            session.engine = replace(session.engine, depth=int(word[1]))
            write(f"engine depth {session.engine.depth}")
    else:
        try:
            move = Move.from_str(word[0], "move")
        except InvalidInputError as e:
            write(f"{e}; {HELP}")
            return True
        if move not in session.board.legal_moves():
            write(f"{move} is not legal here")
        else:
            session.push(move)
    return True
