"""The NBoard protocol (version 2): lets Othello GUIs and other programs drive the engine.

One command per line on stdin, answers on stdout (each line flushed). Input is read on its
own thread and searches run on a worker thread; the kernels release the GIL and watch a
stop flag (a :class:`gameopt.core.StopFlag` in the searches' :class:`~gameopt.core.Limit`),
so a command that makes the running search moot stops it the moment it is read, whatever
is queued before it.

Commands handled (anything else is ignored, as the protocol asks):

``nboard V``         start; answers ``set myname gameopt``.
``set depth D``      midgame depth (1..60); positions with at most
                     ``max(D + 8, 14)`` empties (capped at 22) are solved exactly. Thinks
                     to that depth again (after a ``set time``).
``set time S [I]``   think by a game clock: S seconds left for the engine's moves (the GUI
                     sends it again whenever it likes), I seconds added per move; after
                     each ``go`` the time used is taken off (a gameopt extension).
``set movetime S``   think S seconds per move (a gameopt extension). Both use the wall
                     clock and :func:`~gameopt.reversi.timing.timed_move`, with one
                     transposition table kept from search to search.
``set game GGF``     the position is the end of this GGF game.
``set contempt C``   stored (draws are scored as 0 either way for now).
``move M[/E/T]``     play M (``PA`` passes) on the current position. The bare form NBoard
                     1.1 sends, the move alone (``F5``, ``PA``), is taken as ``move``.
``go``               think, then answer ``=== M/EVAL/TIME`` (the position is not changed).
``hint N``           ``search M EVAL 0 DEPTH`` for the N best moves (N >= 1).
``ping N``           stop any search, then ``pong N``.
``learn``            with a book: add the current game (the ``set game`` line and the
                     moves since) to it and save it (a book file); then answer
                     ``learned``. An engine made with ``learn=False`` (``gameopt reversi
                     nboard`` with its default, the shipped book) says it does not learn.
``quit``             ends the session.

With an opening book (:class:`~gameopt.reversi.book.Book`), ``go`` answers the book's
best move at once (``=== M/VALUE/0.0`` after a ``status book move`` line) while the
position is in the book and has more empties than the exact-solving threshold, and
``hint N`` answers the book's N best moves as the protocol's book lines, ``book PV EVAL 0
DEPTH`` (PV: the move and the book's best line after it; DEPTH: the book's eval depth;
0 games), without a search. ``learn``
adds the game with :func:`~gameopt.reversi.book.learn_line` (values of new moves from
searches at the book's eval depth, negamax backed up along the line) and writes the book
file atomically; it runs before the next command is read, so a ``ping`` waits for it.

While thinking the engine sends ``status ...`` and ``nodestats NODES SECONDS`` lines.
Commands are taken in order, and one that arrives during a search waits for it to answer,
except that ``ping``, ``quit``, ``go``, ``hint`` and ``set game`` stop it as soon as they are
read (:meth:`NBoardEngine.notice`), even behind other queued commands (a GUI sending
``set contempt`` then ``ping`` during a hint gets its ``pong`` at once); a stopped search
sends nothing more, and a search whose command is already overtaken is not started.
Malformed arguments (a bad GGF, an illegal move, a depth or count that is not a number in
range) are answered by one readable ``status error: CMD: ...`` line and leave the state
unchanged.

References
----------
C. Welty, "NBoard Protocol" (the NBoard GUI and the Ntest engine documentation).
"""

from __future__ import annotations

import logging
import math
import queue
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from gameopt.core import Limit, StopFlag
from gameopt.errors import GameoptError, InvalidInputError
from gameopt.reversi.board import PASS, Board, Move
from gameopt.reversi.book import Book, learn_line, write_book
from gameopt.reversi.files import parse_ggf
from gameopt.reversi.search import SearchParams, SearchResult, SearchTable, search, solve
from gameopt.reversi.timing import MIN_SECONDS, TimeControl, timed_move

__all__ = ["NBoardEngine", "run"]

NAME = "gameopt"
logger = logging.getLogger(__name__)

#: Commands that make a running search moot: read, they stop it at once.
PREEMPT = frozenset({"ping", "quit", "go", "hint"})


#: a command that is a move alone (a square or PA), as NBoard 1.1 sends it for ``move``
_BARE_MOVE = re.compile(r"[a-h][1-8](/\S*)?|pa(/\S*)?")


def _preempts(line: str) -> bool:
    words = line.lower().split()
    return bool(words) and (words[0] in PREEMPT or words[:2] == ["set", "game"])


def _seconds(cmd: str, args: list[str], i: int, what: str) -> float:
    """``args[i]`` as seconds >= 0 (a finite number), else InvalidInputError naming it."""
    if len(args) <= i:
        raise InvalidInputError(f"{cmd}: no {what} given (seconds)")
    try:
        x = float(args[i])
    except ValueError:
        x = math.nan
    if not math.isfinite(x) or x < 0:
        raise InvalidInputError(f"{cmd}: {what} {args[i]!r} is not a number of seconds >= 0")
    return x


def _int_arg(cmd: str, args: list[str], i: int, what: str, lo: int, hi: int) -> int:
    """``args[i]`` as a whole number in lo..hi, else InvalidInputError naming it."""
    if len(args) <= i:
        raise InvalidInputError(f"{cmd}: no {what} given (a whole number {lo}..{hi})")
    try:
        if not args[i].isascii():  # int() also reads ٣ (Arabic-Indic) and ２ (fullwidth)
            raise ValueError(args[i])
        x = int(args[i])
    except ValueError:
        raise InvalidInputError(f"{cmd}: {what} {args[i]!r} is not a whole number "
                                f"({lo}..{hi})") from None
    if not lo <= x <= hi:
        raise InvalidInputError(f"{cmd}: {what} {x} outside {lo}..{hi}")
    return x


class NBoardEngine:
    """The protocol state machine; :meth:`handle` takes one line.

    Parameters
    ----------
    write : callable
        Receives each output line (without the newline); must be thread-safe or called
        under the engine's lock (it is).
    book : Book or None
        Opening book for ``go``, and where ``learn`` adds games.
    book_path : str, Path or None
        Where ``learn`` saves the book (not saved when ``None``).
    learn_depth : int or None
        Search depth of the values ``learn`` adds (default: the book's eval depth).
    learn : bool
        False: ``learn`` leaves the book as it is and says so (the engine's default book,
        which a game's searches would only change in memory, for seconds a game).
    params : SearchParams or None
        The evaluation and settings of ``go`` and ``hint`` searches (default: the
        engine's); the book's values, and those ``learn`` adds, keep the book's.
    """

    def __init__(self, write: Callable[[str], None], book: Book | None = None,
                 book_path: str | Path | None = None, learn_depth: int | None = None,
                 learn: bool = True, params: SearchParams | None = None) -> None:
        self._write = write
        self.params = params
        self._lock = threading.Lock()
        self.book = book
        self.book_path = book_path
        self.learn_depth = learn_depth
        self.learn = learn
        self.game_start = Board.start()  # the game so far: start, then moves (passes explicit)
        self.moves: list[Move] = []
        self.board = Board.start()
        self.depth = 8
        self.control: TimeControl | None = None  # thinking by time (set time / movetime)
        self.remaining: float | None = None  # seconds left on the game clock
        self._table: SearchTable | None = None  # kept between searches by time
        self.contempt = 0.0
        self.version = 0
        self._stop = StopFlag()
        self._worker: threading.Thread | None = None
        self._cancelled = False
        self._seen = 0  # lines noticed by the reader (see notice)
        self._handled = 0  # lines handled
        self._overtaken_by = 0  # number of the last noticed line that stops searches

    # -- output -------------------------------------------------------------------------
    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    # -- commands -----------------------------------------------------------------------
    def notice(self, line: str) -> None:
        """Called by the input reader as each line arrives, before it is queued for
        :meth:`handle`: a line that makes the running search moot (``ping``, ``quit``,
        ``go``, ``hint``, ``set game``) stops it now, and any search of a command queued
        before it will not start. Lines must reach :meth:`handle` in the order noticed."""
        with self._lock:
            self._seen += 1
            if _preempts(line):
                self._overtaken_by = self._seen
                if self._worker is not None:
                    self._cancelled = True
                    self._stop.set()

    def handle(self, line: str) -> bool:
        """Process one command line; False after ``quit``."""
        with self._lock:
            self._handled += 1
        words = line.split()
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        if _BARE_MOVE.fullmatch(cmd):  # NBoard 1.1 sends "F5" for "move F5"
            cmd, args = "move", words
        if cmd == "quit":
            self.stop_search()
            return False
        if cmd == "ping":
            self.stop_search()
            self.say("pong " + (args[0] if args else "0"))
            return True
        handler = {"nboard": self._nboard, "set": self._set, "move": self._move,
                   "go": self._go, "hint": self._hint, "learn": self._learn}.get(cmd)
        if handler is None:
            return True  # unknown lines are ignored
        self.wait_search()  # in order; a search overtaken (see notice) is already stopping
        try:
            handler(line, args)
        except GameoptError as e:
            text = str(e)
            text = text if text.lower().startswith(cmd) else f"{cmd}: {text}"
            self.say(f"status error: {text}".replace("\n", " "))
        except Exception as e:  # noqa: BLE001 - a bug must not end the GUI's session
            logger.exception("nboard: %r failed", line)
            self.say(f"status error: {cmd}: internal error ({type(e).__name__})")
        return True

    def _nboard(self, line: str, args: list[str]) -> None:
        self.version = _int_arg("nboard", args, 0, "protocol version", 1, 99) if args else 0
        self.say(f"set myname {NAME}")
        if self.version != 2:
            self.say(f"status NBoard protocol {self.version}: version 2 expected")

    def _set(self, line: str, args: list[str]) -> None:
        what = args[0].lower() if args else ""
        if what == "depth":
            d = _int_arg("set depth", args, 1, "depth", 1, 60)
            self.depth = d
            self.control = None
            self.say(f"set myname {NAME}{d}")
        elif what in ("time", "movetime"):
            secs = _seconds(f"set {what}", args, 1, "seconds")
            if what == "movetime":
                if secs <= 0:
                    raise InvalidInputError("set movetime: seconds must be > 0")
                self.control, self.remaining = TimeControl(move=secs, kind="wall"), None
            else:
                inc = _seconds("set time", args, 2, "increment") if len(args) > 2 else 0.0
                self.control = TimeControl(clock=max(secs, 1e-3), increment=inc,
                                           kind="wall")
                self.remaining = secs
        elif what == "game":
            text = line.split(None, 2)[2] if len(line.split(None, 2)) > 2 else ""
            if not text.strip():
                raise InvalidInputError("set game: no GGF game given")
            games = parse_ggf(text, "set game")
            if not games:
                raise InvalidInputError(f"set game: no game in {text[:40]!r}")
            self.game_start, self.moves = games[0].start, list(games[0].moves)
            self.board = games[0].final_board()
        elif what == "contempt":
            if len(args) < 2:
                raise InvalidInputError("set contempt: no value given (a number of discs)")
            try:
                c = float(args[1])
            except ValueError:
                c = math.nan
            if not math.isfinite(c):
                raise InvalidInputError(f"set contempt: {args[1]!r} is not a finite number")
            self.contempt = c

    def _move(self, line: str, args: list[str]) -> None:
        if not args:
            raise InvalidInputError("move: no move given (a square such as d3, or PA)")
        move = Move.from_str(args[0].split("/")[0], "move")
        if move not in self.board.legal_moves():
            raise InvalidInputError(f"move: {'PA' if move.is_pass else move} is not legal "
                                    "here")
        self.board = self.board.play(move)
        self.moves.append(move)

    def _learn(self, line: str, args: list[str]) -> None:
        if self.book is None:
            self.say("status learn: no book (the engine was started with --no-book)")
        elif not self.learn:
            self.say("status learn: this engine does not learn into its book (gameopt "
                     "reversi nboard learns with --book FILE, or --book default in memory)")
        else:
            added = learn_line(self.book, self.moves, self.game_start, self.learn_depth)
            if self.book_path is not None:
                write_book(self.book_path, self.book)
            kept = "" if self.book_path is not None else " (not saved: no --book FILE)"
            self.say(f"status learned {len(self.moves)} moves: {added} new book positions, "
                     f"{len(self.book)} in all{kept}")
        self.say("learned")

    def _go(self, line: str, args: list[str]) -> None:
        self._start(self._think_go)

    def _hint(self, line: str, args: list[str]) -> None:
        n = _int_arg("hint", args, 0, "number of moves", 1, 64) if args else 1
        self._start(lambda: self._think_hint(n))

    # -- searches -----------------------------------------------------------------------
    def end_depth(self) -> int:
        """Positions with at most this many empties are solved exactly."""
        return min(22, max(self.depth + 8, 14))

    def _analyse(self, board: Board, depth: int,
                 control: TimeControl | None = None) -> SearchResult:
        control = control or self.control
        if control is not None:
            remaining = self.remaining if control is self.control else None
            if self._table is None:  # one table for the session: entries are positions
                self._table = SearchTable()
            return timed_move(board, control, remaining, end_empties=self.end_depth(),
                              params=self.params, stop=self._stop, table=self._table)
        if board.empties <= self.end_depth():
            return solve(board, Limit(stop=self._stop), self.params)
        return search(board, Limit(depth=max(1, depth), stop=self._stop), self.params)

    def _start(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._overtaken_by > self._handled:
                return  # a later command read already stops this search: do not start it
            self._stop.clear()
            self._cancelled = False
            self._worker = threading.Thread(target=self._guard(job), daemon=True)
            self._worker.start()

    def _guard(self, job: Callable[[], None]) -> Callable[[], None]:
        def body() -> None:
            try:
                job()
            except GameoptError as e:  # bad input met by the search: its one-line message
                self.say(f"status error: {e}".replace("\n", " "))
            except Exception as e:  # noqa: BLE001 - the session must survive any search error
                logger.exception("nboard: search failed")  # no Python text for the GUI
                self.say(f"status error: search failed (internal error, "
                          f"{type(e).__name__})")
        return body

    def stop_search(self) -> None:
        """Stop the running search (if any) and wait for its thread; nothing more is sent."""
        w = self._worker
        if w is None:
            return
        with self._lock:
            self._cancelled = True
        self._stop.set()
        w.join()
        self._worker = None

    def wait_search(self) -> None:
        """Wait for the running search (if any) to finish and answer."""
        w = self._worker
        if w is not None:
            w.join()
            self._worker = None

    def _say_unless_cancelled(self, *lines: str) -> None:
        with self._lock:
            if not self._cancelled:
                for line in lines:
                    self._write(line)

    def _think_go(self) -> None:
        board = self.board
        moves = board.legal_moves()
        if not moves:
            self._say_unless_cancelled("status game over")
            return
        self._say_unless_cancelled(f"status {NAME} is thinking")
        if moves == [PASS]:
            self._say_unless_cancelled("=== PA", "status")
            return
        if self.book is not None and board.empties > self.end_depth():
            m = self.book.choose(board)
            if m is not None and m in moves:
                value = self.book.lookup(board)[m]
                self._say_unless_cancelled("status book move", f"=== {_name(m)}/{value:.2f}/0.0",
                                           "status")
                return
        r = self._analyse(board, self.depth)
        if self.remaining is not None and self.control is not None:
            self.remaining += self.control.increment - r.seconds
        self._say_unless_cancelled(f"nodestats {r.nodes} {r.seconds:.2f}",
                                   f"=== {_name(r.move)}/{r.score + 0.0:.2f}/{r.seconds:.1f}",
                                   "status")

    def _think_hint(self, n: int) -> None:
        board = self.board
        moves = board.legal_moves()
        if not moves:
            self._say_unless_cancelled("status game over")
            return
        self._say_unless_cancelled(f"status {NAME} is analysing")
        if self.book is not None and board.empties > self.end_depth():
            values = self.book.lookup(board)
            if values:  # the book values every move of its positions: no search
                ranked = sorted(values.items(), key=lambda t: (-t[1], t[0].square))[:n]
                depth = self.book.meta.get("eval_depth", 0)
                self._say_unless_cancelled(
                    *(f"book {''.join(map(_name, self.book.line(board, m)))} {v:.2f} 0 {depth}"
                      for m, v in ranked),
                    "status")
                return
        found: list[tuple[float, str]] = []
        nodes, seconds = 0, 0.0
        share = None  # thinking by time: the move's budget is shared among the candidates
        if self.control is not None:
            soft, _ = self.control.allot(board.empties, self.remaining)
            share = TimeControl(move=max(MIN_SECONDS, soft / len(moves)),
                                kind=self.control.kind)
        for m in moves:
            child = board.play(m)
            if child.legal_moves():
                r = self._analyse(child, self.depth - 1, share)
                with self._lock:  # a search by time ends by setting the flag: not a cancel
                    if self._cancelled:
                        return  # cancelled by ping (or a stop): send nothing more
                    self._stop.clear()  # the next candidate's time watchdog starts lowered
                value, depth = 0.0 - r.score, (child.empties if r.exact else r.depth + 1)
                nodes, seconds = nodes + r.nodes, seconds + r.seconds
                pv = "".join(_name(x) for x in (m, *r.pv))
            else:  # game over after m
                value, depth, pv = float(-child.score()), child.empties, _name(m)
            found.append((value, f"search {pv} {value:.2f} 0 {depth}"))
            self._say_unless_cancelled(f"status {NAME} analysed {len(found)}/{len(moves)}")
        found.sort(key=lambda t: -t[0])
        self._say_unless_cancelled(*(text for _, text in found[:n]),
                                   f"nodestats {nodes} {seconds:.2f}", "status")


def _name(move: Move | None) -> str:
    """NBoard's spelling: ``PA`` for a pass, else the square (``d3``)."""
    return "PA" if move is None or move.is_pass else str(move)


def run(stdin: TextIO | None = None, stdout: TextIO | None = None, *,
        book: Book | None = None, book_path: str | Path | None = None,
        learn_depth: int | None = None, learn: bool = True,
        params: SearchParams | None = None) -> int:
    """Serve the protocol until ``quit`` or the end of input; returns 0.

    ``book``, ``book_path``, ``learn_depth``, ``learn`` and ``params`` are those of
    :class:`NBoardEngine`.
    """
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    engine = NBoardEngine(write, book, book_path, learn_depth, learn, params)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:  # on its own thread: a stopping command is seen while others wait
        try:
            for raw in stdin:
                line = raw.strip()
                engine.notice(line)
                lines.put(line)
                if line.lower().split()[:1] == ["quit"]:
                    break
        finally:
            lines.put(None)

    threading.Thread(target=read, daemon=True, name="nboard-input").start()
    while (line := lines.get()) is not None:
        if not engine.handle(line):
            return 0
    engine.wait_search()  # end of input: let the last search answer
    return 0
