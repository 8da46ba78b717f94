"""External Othello engines driven over the NBoard protocol (version 2).

An add-on in the manner of python-chess's ``engine`` module: the game-state modules
(board, files, search, book) never import it; the match runner does. :class:`NBoardClient`
starts the engine as a child process with line-buffered pipes and speaks the GUI's side
of the protocol (the engine's side is :mod:`gameopt.reversi.nboard`)::

    client -> engine               engine -> client
    nboard 2                       set myname NAME        (any time; remembered)
    set depth D                    status ... / nodestats ... / search ...  (skipped)
    ping N                         pong N                 (stale pongs skipped)
    set game GGF
    go                             === MOVE[/EVAL[/TIME]] (PA: a pass; spaces
                                   instead of slashes, as Edax sends, are read too)
    quit

Before every move request the whole game so far is sent as GGF (``set game``), then a
``ping`` is answered, so the engine is known to have taken the position before ``go``.
Every wait has a time limit. Failures raise, naming the engine's command line:
:class:`~gameopt.errors.InvalidInputError` when the command cannot be started,
:class:`~gameopt.errors.SolverError` when the engine exits (with its exit code and the
last line it wrote on stderr) or answers a move that cannot be read or is not legal (the
line received is quoted), :class:`~gameopt.errors.BudgetExhaustedError` when it does not
answer in time. After a failure the process is killed; :meth:`NBoardClient.close` (or
leaving the ``with`` block) sends ``quit`` and kills the engine if it has not exited
within a grace period.

:class:`ExternalPlayer` is the match runner's setting for such an engine
(``nboard=COMMAND,depth=D,timeout=S``); it pickles, so games can run on worker processes
or Dask workers (where COMMAND must run too), and each game starts its own engine process.

References
----------
C. Welty, "NBoard Protocol" (the NBoard GUI and the Ntest engine documentation).
N. Fiekas, python-chess, ``chess.engine`` (engine processes behind a protocol class).
"""

from __future__ import annotations

import collections
import math
import queue
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from gameopt.errors import BudgetExhaustedError, InvalidInputError, SolverError
from gameopt.reversi.board import Board, Move
from gameopt.reversi.files import GgfGame, format_ggf

__all__ = ["EngineReply", "NBoardClient", "ExternalPlayer", "parse_reply", "DEFAULT_TIMEOUT"]

#: Seconds to wait for any one answer (handshake, pong, move) unless told otherwise.
DEFAULT_TIMEOUT = 60.0
#: Seconds an engine is given to exit after ``quit`` before it is killed.
QUIT_GRACE = 5.0


@dataclass(frozen=True)
class EngineReply:
    """An engine's answer to ``go``: the move, its evaluation and time if it gave them
    (``None`` when absent or not a number), and the line as received."""

    move: Move
    eval: float | None
    seconds: float | None
    line: str


def _number(text: str) -> float | None:
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def parse_reply(line: str, board: Board, where: str) -> EngineReply:
    """Read an engine's answer to ``go`` and check the move is legal on ``board``.

    Accepted forms (what real engines send): ``=== MOVE/EVAL/TIME`` (Ntest, NBoard's own
    spelling), ``=== MOVE EVAL TIME`` (Edax 4.6: ``=== d8 0.00 0.0``; the NBoard GUI turns
    the spaces into slashes), ``=== MOVE`` alone, ``=== MOVE/EVAL`` or ``=== MOVE EVAL``,
    the move in either case (``D8``, ``pa``, ``PS``), and spaces or tabs around any part.
    An EVAL or TIME that is not a finite number is kept as ``None``.

    Raises
    ------
    SolverError
        When no move can be read from the line, or the move is not legal (both quote the
        line, ``where`` names the engine).
    """
    body = line.strip()
    parts = body[3:].replace("/", " ").split() if body.startswith("===") else []
    try:
        move = Move.from_str(parts[0] if parts else "", "move")
    except InvalidInputError:
        raise SolverError(f"{where}: cannot read a move from {line!r}") from None
    legal = board.legal_moves()
    if move not in legal:
        listed = " ".join("PA" if m.is_pass else str(m) for m in legal) or "none: game over"
        mover = "black" if board.side == "X" else "white"
        raise SolverError(f"{where}: {line!r}: {'PA' if move.is_pass else move} is not legal "
                          f"for {mover} in {board} (legal: {listed})")
    ev = _number(parts[1]) if len(parts) > 1 else None
    sec = _number(parts[2]) if len(parts) > 2 else None
    return EngineReply(move, ev, sec, line)


class NBoardClient:
    """An external engine process speaking NBoard protocol 2 (see the module notes).

    Parameters
    ----------
    command : str or sequence of str
        The program and its arguments (a string is split as a shell would, without a shell).
    depth : int or None
        Sent as ``set depth D`` after the handshake (1..60); ``None`` leaves the engine's.
    timeout : float
        Seconds to wait for each answer.

    Raises
    ------
    InvalidInputError
        An empty command, a program that is not found or cannot be run, a bad ``depth`` or
        ``timeout``.
    SolverError, BudgetExhaustedError
        The engine exits or does not answer the handshake (``ping``) in time.

    Notes
    -----
    Two threads read the engine's stdout (into a queue) and stderr (its last lines are kept
    for error messages), so a chatty engine never blocks on a full pipe.
    """

    def __init__(self, command: str | Sequence[str], *, depth: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.command = tuple(argv)
        self.where = f"engine {shlex.join(argv)!r}"
        if not argv:
            raise InvalidInputError("engine: empty command")
        if depth is not None and not 1 <= depth <= 60:
            raise InvalidInputError(f"{self.where}: depth {depth} outside 1..60")
        if not timeout > 0:
            raise InvalidInputError(f"{self.where}: timeout {timeout!r} must be > 0 seconds")
        self.timeout = float(timeout)
        self.name = ""  # the engine's ``set myname``
        self._pings = 0
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1)
        except FileNotFoundError:
            raise InvalidInputError(f"{self.where}: command {argv[0]!r} not found") from None
        except OSError as e:
            raise InvalidInputError(f"{self.where}: cannot run {argv[0]!r} ({e})") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=5)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for t in self._readers:
            t.start()
        try:
            self.send("nboard 2")
            if depth is not None:
                self.send(f"set depth {depth}")
            self.ping()
        except BaseException:
            self.kill()
            raise

    def __repr__(self) -> str:
        return f"NBoardClient({shlex.join(self.command)!r})"

    def __enter__(self) -> NBoardClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pipes --------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):  # closed under us
            pass
        self._lines.put(None)  # end of the engine's output

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        try:
            for line in self.proc.stderr:
                if line.strip():
                    self._stderr.append(line.strip())
        except (OSError, ValueError):
            pass

    def send(self, line: str) -> None:
        """Write one command line to the engine.

        Raises
        ------
        SolverError
            The engine has exited (its stdin is closed).
        """
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._exited(f"sending {line.split()[0]!r}") from None

    def _exited(self, doing: str) -> SolverError:
        try:
            code: int | None = self.proc.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            code = None
        for t in self._readers[1:]:  # let stderr's last lines arrive
            t.join(timeout=1.0)
        tail = f"; its stderr ends: {self._stderr[-1]!r}" if self._stderr else ""
        self.kill()
        what = f"exited (code {code})" if code is not None else "closed its output"
        return SolverError(f"{self.where}: the engine {what} while {doing}{tail}")

    def expect(self, done: Callable[[str], bool], what: str) -> str:
        """The first line for which ``done`` is true; other lines are noted or skipped.

        ``set myname NAME`` lines set :attr:`name`; ``status``, ``nodestats``, ``search``,
        stale ``pong`` and unknown lines are skipped, as a GUI does.

        Raises
        ------
        SolverError
            The engine exits first.
        BudgetExhaustedError
            No such line within :attr:`timeout` seconds (the engine is then killed).
        """
        end = time.monotonic() + self.timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise BudgetExhaustedError(f"{self.where}: no {what} within "
                                           f"{self.timeout:g} s; engine killed") from None
            if line is None:
                raise self._exited(f"waiting for {what}")
            if done(line):
                return line
            if line.startswith("set myname"):
                self.name = line[len("set myname"):].strip()

    # -- protocol -----------------------------------------------------------------------
    def ping(self) -> None:
        """Send ``ping N`` and wait for ``pong N`` (the engine has taken every command)."""
        self._pings += 1
        want = f"pong {self._pings}"
        self.send(f"ping {self._pings}")
        self.expect(lambda s: s.strip() == want, repr(want))

    def set_game(self, start: Board, moves: Sequence[Move] = ()) -> Board:
        """Send the game (``start`` then ``moves``, passes explicit) and sync; returns the
        position reached."""
        game = GgfGame(start, tuple(moves), {"GM": "Othello", "PC": "gameopt"},
                       where=f"{self.where}: game to send")
        self.send("set game " + format_ggf(game))
        self.ping()
        return game.final_board()

    def go(self, board: Board) -> EngineReply:
        """Ask for a move in the position last set (``board``, to check the answer)."""
        self.send("go")
        line = self.expect(lambda s: s.lstrip().startswith("==="), "'=== MOVE' answer to go")
        return parse_reply(line, board, self.where)

    def play(self, start: Board, moves: Sequence[Move] = ()) -> EngineReply:
        """The engine's move after ``moves`` from ``start`` (:meth:`set_game`, then
        :meth:`go`). O(len(moves)) to build the GGF, plus the engine's time."""
        return self.go(self.set_game(start, moves))

    def close(self) -> int | None:
        """``quit``, wait up to :data:`QUIT_GRACE` seconds, then kill; the exit code."""
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=QUIT_GRACE)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        return self.kill()

    def kill(self) -> int | None:
        """Kill the process if it still runs and close the pipes; the exit code.

        A reader still blocked after the process died (a grandchild holding the pipe)
        is left to its daemon thread rather than waited for.
        """
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait()
        streams: list[IO[str] | None] = [self.proc.stdin]
        for t, stream in zip(self._readers, (self.proc.stdout, self.proc.stderr), strict=True):
            t.join(timeout=1.0)
            if not t.is_alive():
                streams.append(stream)
        for stream in streams:
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return code


@dataclass(frozen=True)
class ExternalPlayer:
    """A match player that is an external NBoard engine; see :meth:`ExternalPlayer.seat`.

    Attributes
    ----------
    name : str
        The player's name in results.
    command : tuple of str
        The engine's program and arguments.
    depth : int or None
        Sent as ``set depth``; ``None`` keeps the engine's own.
    timeout : float
        Seconds allowed for each answer.
    """

    name: str
    command: tuple[str, ...]
    depth: int | None = None
    timeout: float = DEFAULT_TIMEOUT

    def __post_init__(self) -> None:
        if not self.command:
            raise InvalidInputError(f"player {self.name}: empty engine command (nboard=COMMAND)")
        if self.depth is not None and not 1 <= self.depth <= 60:
            raise InvalidInputError(f"player {self.name}: depth {self.depth} outside 1..60")
        if not self.timeout > 0:
            raise InvalidInputError(f"player {self.name}: timeout {self.timeout!r} must be "
                                    "> 0 seconds")

    @contextmanager
    def seat(self, game: int = 0) -> Iterator[Callable[[Board, Sequence[Move], Board], Move]]:
        """Start the engine for one game; yields ``(start, moves, board) -> move``
        (``game``, the game's number among a match's games from one opening, is not
        passed on: the engine's own settings decide its variety).

        The engine process lives for the game and is closed (``quit``, then killed if
        needed) when the block ends, normally or by an error.
        """
        with NBoardClient(self.command, depth=self.depth, timeout=self.timeout) as client:
            yield lambda start, moves, board: client.play(start, moves).move

    @classmethod
    def from_spec(cls, spec: str, name: str) -> ExternalPlayer:
        """``nboard=COMMAND[,depth=D][,timeout=S]`` -> ExternalPlayer.

        COMMAND is split as a shell would (quotes allowed) and may not contain a comma.

        Raises
        ------
        InvalidInputError
            A key other than these, a bad number, or a program that is not found on PATH
            (checked now, before any game starts).
        """
        kw: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, _, value = part.partition("=")
            if key not in ("nboard", "depth", "timeout") or not value.strip():
                raise InvalidInputError(f"player {name}: {part!r}: an external engine takes "
                                        "nboard=COMMAND, depth=N and timeout=SECONDS")
            kw[key] = value.strip()
        try:
            argv = shlex.split(kw.get("nboard", ""))
            depth = int(kw["depth"]) if "depth" in kw else None
            timeout = float(kw.get("timeout", DEFAULT_TIMEOUT))
        except ValueError as e:
            raise InvalidInputError(f"player {name}: {spec!r}: {e}") from None
        if argv and shutil.which(argv[0]) is None:
            raise InvalidInputError(f"player {name}: engine command {argv[0]!r} not found "
                                    "(nboard=COMMAND)")
        return cls(name, tuple(argv), depth, timeout)
