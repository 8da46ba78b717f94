"""Engine matches: balanced openings, paired games, Elo with an interval and a test.

An evaluation (or any engine setting) is judged as engine testers do: from many
openings, each played twice with the colours swapped, so an opening's bias cancels; the
difference is then tested for significance. Games run on local processes or a Dask
cluster (:func:`gameopt.core.parallel.parallel_map`).

Players are :class:`Contestant` s: this engine at some setting (:class:`Player`), or an
external program speaking the NBoard protocol
(:class:`~gameopt.reversi.external.ExternalPlayer`, one engine process per game).
:func:`parse_player` reads either from a spec (``depth=4,eval=FILE`` or
``nboard=COMMAND,depth=4``).

Openings are made by the project (the idea behind the XOT set): random move sequences of
``plies`` plies from the start, kept when a shallow search scores them within
``max_abs`` discs of 0.

Statistics: the pentanomial model, as chess engine testing frameworks (fishtest) use.
Each opening gives a pair of games; engine A's points in the pair (win 1, draw ½, loss 0,
summed over both games) are in {0, ½, 1, 1½, 2} and are the unit of the test, since the
two games share the opening. With ``N`` pairs, ``n_k`` of them scoring ``k/2`` points,
the pair score fraction ``x = k/4`` has mean ``p = Σ n_k·(k/4) / N`` (A's score) and
variance ``v = Σ n_k·(k/4 - p)² / N``; the standard error of ``p`` is ``√(v/N)``, the
95 % interval ``p ± 1.96·se`` (clipped to 0..1), the Elo difference
``400·log10(p/(1-p))`` and its interval map that one through the same formula, and the
test of "A and B are equally strong" is the two-sided z test of ``p = ½``.

When every pair scored the same (all won, all lost, all split) the variance is 0 and the
normal model would give a zero-width interval (and an infinite Elo for a clean sweep). The
interval is then exact instead: if a fraction ``π`` of pairs could score otherwise, ``N``
alike pairs have probability ``(1-π)^N``, so at 95 % (2.5 % each side, as Clopper and
Pearson) ``π ≤ 1 - 0.025^(1/N)`` and ``p`` lies between ``x·(1-π)`` and ``x + π·(1-x)``;
the p value is the exact bound ``2·(½/x)^N`` (Markov's inequality; ``x`` the pair score
fraction, or ``1-x`` below ½). An Elo bound at 0 % or 100 % is infinite: the summary then
says the sample is too small for it (``Elo > +277 (95 % lower bound; sample too small for
an upper bound)`` after 20 pairs all won) rather than printing ``inf``.

References
----------
M. Buro, "Experiments with Multi-ProbCut and a New High-Quality Evaluation Function for
Othello", NECI technical report, 1997 (paired-opening matches).
Fishtest, the Stockfish testing framework, ``stat_util.py`` (pentanomial statistics of
game pairs: mean and variance of the pair score, Elo and its 95 % interval).
C. J. Clopper, E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
case of the binomial", Biometrika 26 (1934) (the exact bound for samples all alike).
"""

from __future__ import annotations

import functools
import math
import os
import statistics
import zlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType
from typing import IO, Protocol, TypeVar

import numpy as np

from gameopt.core import Clock, Limit
from gameopt.core.files import atomic_write_text, read_text
from gameopt.core.parallel import parallel_map
from gameopt.core.progress import ProgressCallback
from gameopt.core.rng import make_rng
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import PASS, Board, Move, parse_moves
from gameopt.reversi.book import Book, open_book
from gameopt.reversi.external import ExternalPlayer
from gameopt.reversi.files import GgfGame, format_ggf, write_ggf
from gameopt.reversi.probcut import MpcTable, read_mpc
from gameopt.reversi.search import EvalKind, SearchParams, SearchTable, search, solve
from gameopt.reversi.timing import TimeControl, timed_move

__all__ = ["Contestant", "MoveFn", "Player", "parse_player", "GameRecord", "MatchResult",
           "play_game", "run_match", "game_ggf", "GameLog", "make_openings", "read_openings",
           "write_openings", "match_stats", "pentanomial_stats", "PAIR_POINTS"]

T = TypeVar("T")

#: A's points in a pair of games (both colours of one opening): the pentanomial outcomes.
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)

#: A seated player's turn: ``(start, moves so far with explicit passes, board now) -> move``.
MoveFn = Callable[[Board, Sequence[Move], Board], Move]


class Contestant(Protocol):
    """A player of a match: a name, and a seat at one game.

    ``seat(game)`` is entered once per game (an external engine starts its process there
    and stops it on exit); what it yields is asked for every move of that player's colour.
    ``game`` numbers the games of a match that start from one opening with one colour
    (0 for the first, 1 for the opening's next pair...), so that a player that varies its
    moves can vary them between such games. Contestants travel to worker processes, so
    they must pickle.
    """

    @property
    def name(self) -> str: ...

    def seat(self, game: int = 0) -> AbstractContextManager[MoveFn]: ...


@dataclass(frozen=True)
class Player:
    """An engine setting: midgame depth, exact solving below ``end_empties``, parameters,
    and an optional opening book (its best move is played while the position is in it;
    with ``variety`` > 0, in a game of :meth:`seat`, any book move within ``variety``
    discs of the best, drawn by a generator seeded from the game's moves before the
    engine's first move, its colour and the game's number among those of its opening:
    varied across openings, colours and repeats of an opening, the same games when a
    match is replayed).

    With a ``control`` (:class:`~gameopt.reversi.timing.TimeControl`: time per move or a
    game clock) the engine thinks by time instead of to ``depth``
    (:func:`~gameopt.reversi.timing.timed_move`); a game clock is kept per game by
    :meth:`seat`, and with ``keep_table`` (the default) the transposition table too
    (:class:`~gameopt.reversi.search.SearchTable`: each move starts from what the side's
    earlier searches stored). At a fixed depth every search starts from an empty table,
    so a replayed match plays the same games.
    """

    name: str
    depth: int = 4
    end_empties: int = 12
    params: SearchParams = field(default_factory=SearchParams)
    book: Book | None = field(default=None, compare=False, repr=False)
    eval_file: str | None = None
    control: TimeControl | None = None
    variety: float = 0.0
    keep_table: bool = True
    early_solve: bool = True
    end_passes: bool = True

    def search_params(self) -> SearchParams:
        """``params``, or the pattern evaluation of ``eval_file`` (loaded once per process)."""
        if self.eval_file is None:
            return self.params
        return replace(pattern_params(self.eval_file), mpc=self.params.mpc,
                       mpc_t=self.params.mpc_t, mpc_t_short=self.params.mpc_t_short,
                       mpc_table=self.params.mpc_table, mpc_nest=self.params.mpc_nest,
                       net_margin=self.params.net_margin,
                       net_max_empties=self.params.net_max_empties)

    def __post_init__(self) -> None:
        if self.depth < 1 or self.end_empties < 0:
            raise InvalidInputError(f"player {self.name}: depth {self.depth} and end_empties "
                                    f"{self.end_empties} must be >= 1 and >= 0")
        if not (math.isfinite(self.variety) and 0.0 <= self.variety <= 128.0):
            raise InvalidInputError(f"player {self.name}: variety {self.variety} outside "
                                    "0..128 discs")
        if self.variety and self.book is None:
            raise InvalidInputError(f"player {self.name}: variety= needs book=FILE")

    def choose(self, board: Board) -> Move:
        """The move this setting plays (``board`` has a legal move or a pass)."""
        return self.think(board)[0]

    def seat(self, game: int = 0) -> AbstractContextManager[MoveFn]:
        """This engine at a game: the board, and the history and ``game`` (the game's
        number among those of its opening and colour) only to seed the book's variety.
        With a game clock, the time each move took (on the control's clock) is taken off
        it."""
        varied = self.book is not None and self.variety > 0
        if not varied and self.control is None:
            return nullcontext(lambda start, moves, board: self.choose(board))
        control = self.control
        clock = {"left": None if control is None else control.clock}
        rngs: list[np.random.Generator] = []
        table = self.new_table()

        def move(start: Board, moves: Sequence[Move], board: Board) -> Move:
            if varied and not rngs:
                rngs.append(_game_rng(start, moves, board.side, game))
            m, _, used = self.decide(board, self.variety, rngs[0] if rngs else None,
                                     remaining=clock["left"], table=table)
            if control is not None and clock["left"] is not None:
                clock["left"] += control.increment - used
            return m
        return nullcontext(move)

    def new_table(self) -> SearchTable | None:
        """A transposition table for one game's moves (None: at a fixed depth, or
        ``keep_table`` off), sized by the parameters' ``tt_bits``."""
        if self.control is None or not self.keep_table:
            return None
        return SearchTable(self.params.tt_bits)

    def think(self, board: Board, variety: float = 0.0,
              rng: np.random.Generator | None = None,
              remaining: float | None = None) -> tuple[Move, str]:
        """The move and a note on why: forced, book value, exact score or evaluation.

        With ``variety`` and ``rng``, any book move within ``variety`` discs of the best;
        ``remaining``: seconds left on the game clock (with a clock ``control``).
        """
        m, note, _ = self.decide(board, variety, rng, remaining)
        return m, note

    def decide(self, board: Board, variety: float = 0.0,
               rng: np.random.Generator | None = None,
               remaining: float | None = None, table: SearchTable | None = None
               ) -> tuple[Move, str, float]:
        """:meth:`think`, with the seconds the search took (0 for a book or forced move);
        ``table``: the game's table from :meth:`new_table` (by time only)."""
        moves = board.legal_moves()
        if moves == [PASS]:
            return PASS, "must pass", 0.0
        if len(moves) == 1:
            return moves[0], "only move", 0.0
        if self.book is not None:
            m = self.book.choose(board, variety, rng)
            if m is not None and m in moves:
                return m, f"book {self.book.lookup(board)[m]:+.2f}", 0.0
        params = self.search_params()
        if self.control is not None:
            r = timed_move(board, self.control, remaining, end_empties=self.end_empties,
                           params=params, table=table, early=self.early_solve,
                           passes=self.end_passes)
            note = (f"exact {r.score:+.0f}" if r.exact
                    else f"eval {r.score:+.2f} at depth {r.depth}")
            note += f" in {r.seconds:.2f} s"
        elif board.empties <= self.end_empties:
            r = solve(board, params=params)
            note = f"exact {r.score:+.0f}"
        else:
            r = search(board, Limit(depth=self.depth), params=params)
            note = f"eval {r.score:+.2f} at depth {r.depth}"
        assert r.move is not None
        return r.move, note, r.seconds

    @classmethod
    def from_spec(cls, spec: str, name: str) -> Player:
        """``depth=4,end=12,eval=FILE,time=S,clock=S,inc=S,cpu|wall,mpc=0|1,mpct=T,
        mpctable=FILE,mpcnest=1|2,lazy=D,netmax=E,keep=0|1,early=0|1,passes=0|1,book=FILE,
        variety=V``
        (any order, all optional) -> Player.

        Without ``eval`` the engine's default evaluation (the shipped trained weights);
        ``eval=FILE`` uses the pattern weights of FILE, ``eval=heuristic`` the hand-set
        heuristic. ``time=S`` thinks S seconds per move, ``clock=S`` (with ``inc=S``) plays
        on a game clock, both on CPU time unless ``wall`` is given; ``depth`` is then
        unused. ``mpc=1`` turns Multi-ProbCut on, ``mpc=0`` off (default: on when thinking
        by time, off at a fixed depth; see :class:`~gameopt.reversi.search.SearchParams`),
        ``mpct=T`` sets its confidence for every time control (by default 1.8, 1.5 on a
        short one: :meth:`~gameopt.reversi.timing.TimeControl.short`), ``mpctable=FILE``
        its cut pairs (a table of ``gameopt reversi train mpc``, e.g. fitted with
        ``--eval`` on the weights of ``eval=FILE``; default the shipped table),
        ``mpcnest=2`` makes its cut tests
        selective searches themselves (``SearchParams.mpc_nest``), ``lazy=D`` the
        network's lazy-evaluation margin in discs (``SearchParams.net_margin``; a weights
        file with a network; default: 3 when thinking by time, 0 at a fixed depth),
        ``netmax=E``
        evaluates the network only at positions of E empties or fewer
        (``SearchParams.net_max_empties``), ``keep=0``
        starts every timed search from an empty transposition table (default ``keep=1``:
        kept from move to move in a game), ``early=0`` solves exactly only from ``end``
        empties down (default ``early=1``: by time, also above it when the solve is
        expected to fit in the move's time; see
        :func:`~gameopt.reversi.timing.solves_first`), ``passes=0`` leaves out the
        selective endgame passes a few empties above the exact solve (default
        ``passes=1``, by time and with ``early=1``; see
        :func:`~gameopt.reversi.timing.passes_first`).
        ``book=FILE`` plays the book's moves while the position is in it
        (``book=default``: the shipped book), ``variety=V`` (with a book) any book move
        within V discs of the best (see the class notes).
        """
        kw = {"depth": 4, "end": 12}
        times: dict[str, float] = {}
        kind: Clock = "cpu"
        eval_file = None
        kind_eval: EvalKind | None = None
        mpc: bool | None = None
        mpc_t: float | None = None
        mpc_table: MpcTable | None = None
        mpc_nest: int | None = None
        margin: float | None = None
        net_max: int | None = None
        book: Book | None = None
        variety = 0.0
        keep = True
        early = True
        passes = True
        for part in filter(None, (p.strip() for p in spec.split(","))):
            key, _, value = part.partition("=")
            if key == "book" and value:
                book = _spec_file(name, key, value, open_book)
                continue
            if key == "variety":
                variety = _spec_number(name, part, "variety takes discs (a number)")
                continue
            if key == "eval" and value:
                eval_file = None if value == "heuristic" else value
                kind_eval = EvalKind.HEURISTIC if value == "heuristic" else EvalKind.PATTERN
                continue
            if key in ("cpu", "wall") and not value:
                kind = "cpu" if key == "cpu" else "wall"
                continue
            if key == "mpc" and value in ("0", "1"):
                mpc = value == "1"
                continue
            if key == "mpcnest" and value in ("1", "2"):
                mpc_nest = int(value)
                continue
            if key == "keep" and value in ("0", "1"):
                keep = value == "1"
                continue
            if key == "early" and value in ("0", "1"):
                early = value == "1"
                continue
            if key == "passes" and value in ("0", "1"):
                passes = value == "1"
                continue
            if key == "mpctable" and value:
                mpc_table = _spec_file(name, key, value, read_mpc)
                continue
            if key == "mpct":
                mpc_t = _spec_number(name, part, "mpct takes a number of standard deviations")
                continue
            if key == "lazy":
                margin = _spec_number(name, part, "lazy takes discs (a number)")
                if not (math.isfinite(margin) and 0.0 <= margin <= 64.0):
                    raise InvalidInputError(f"player {name}: {part!r}: lazy takes 0..64 "
                                            "discs")
                continue
            if key == "netmax":
                if not value.strip().isdigit():
                    raise InvalidInputError(f"player {name}: {part!r}: netmax takes 0..60 "
                                            "empties")
                net_max = int(value)
                continue
            if key in ("time", "clock", "inc"):
                times[key] = _spec_number(name, part, f"{key} takes seconds (a number)")
                continue
            if key not in kw or not value.strip().lstrip("-").isdigit():
                raise InvalidInputError(f"player {name}: {part!r} is not depth=N, end=N, "
                                        "eval=FILE, time=S, clock=S, inc=S, cpu, wall, "
                                        "mpc=0|1, mpct=T, mpctable=FILE, "
                                        "mpcnest=1|2, lazy=D, "
                                        "netmax=E, keep=0|1, "
                                        "early=0|1, passes=0|1, book=FILE, "
                                        "variety=V or "
                                        "nboard=COMMAND")
            kw[key] = int(value)
        if eval_file is not None:
            pattern_params(eval_file)  # fail now, naming the file, not in a worker
        params = SearchParams() if kind_eval is None else SearchParams(eval_kind=kind_eval)
        if mpc is not None:
            params = replace(params, mpc=mpc)
        try:
            if mpc_t is not None:  # the one confidence, whatever the time control
                params = replace(params, mpc_t=mpc_t, mpc_t_short=mpc_t)
            if mpc_table is not None:
                params = replace(params, mpc_table=mpc_table)
            if mpc_nest is not None:
                params = replace(params, mpc_nest=mpc_nest)
            if margin is not None:
                params = replace(params, net_margin=round(100 * margin))
            if net_max is not None:
                params = replace(params, net_max_empties=net_max)
        except InvalidInputError as e:
            raise InvalidInputError(f"player {name}: {e}") from None
        control = None
        if times:
            if "inc" in times and "clock" not in times:
                raise InvalidInputError(f"player {name}: inc= needs clock=")
            try:
                control = TimeControl(move=times.get("time"), clock=times.get("clock"),
                                      increment=times.get("inc", 0.0), kind=kind)
            except InvalidInputError as e:
                raise InvalidInputError(f"player {name}: {e}") from None
        return cls(name, depth=kw["depth"], end_empties=kw["end"], params=params,
                   eval_file=eval_file, control=control, book=book, variety=variety,
                   keep_table=keep, early_solve=early, end_passes=passes)


def _spec_file(name: str, key: str, value: str, read: Callable[[str], T]) -> T:
    """``read(value)`` for the spec key ``key``, its error prefixed with the player's name
    and the key."""
    try:
        return read(value.strip())
    except InvalidInputError as e:
        raise InvalidInputError(f"player {name}: {key}: {e}") from None


def _spec_number(name: str, part: str, what: str) -> float:
    """The number after ``=`` in the spec item ``part`` of player ``name``, or an error
    quoting the item and saying ``what`` it takes."""
    try:
        return float(part.partition("=")[2])
    except ValueError:
        raise InvalidInputError(f"player {name}: {part!r}: {what}") from None


def _game_rng(start: Board, moves: Sequence[Move], side: str, game: int = 0
              ) -> np.random.Generator:
    """A generator seeded by the game so far (start, moves), the engine's colour and the
    game's number among those of its opening (the first game's seed is that of a match
    without repeats)."""
    text = f"{start.player:x} {start.opponent:x} {start.side} {side} " + "".join(
        str(m) for m in moves)
    if game:
        text += f" #{game}"
    return make_rng(zlib.crc32(text.encode()))


def parse_player(spec: str, name: str) -> Player | ExternalPlayer:
    """A player from its spec: :meth:`ExternalPlayer.from_spec` when it holds
    ``nboard=COMMAND``, else :meth:`Player.from_spec`.

    Raises
    ------
    InvalidInputError
        An unknown key or bad value (named), a weights file or engine command not found.
    """
    if any(p.strip().startswith("nboard=") for p in spec.split(",")):
        return ExternalPlayer.from_spec(spec, name)
    return Player.from_spec(spec, name)


@functools.lru_cache(maxsize=4)
def pattern_params(path: str) -> SearchParams:
    """Search parameters using the pattern weights of ``path`` (cached per process)."""
    from gameopt.reversi.weights import kernel_weights

    return SearchParams(eval_kind=EvalKind.PATTERN, weights=kernel_weights(path))


@dataclass(frozen=True)
class GameRecord:
    """One game: the opening, who had Black, the moves after the opening, Black's result."""

    opening: str
    a_black: bool
    moves: tuple[Move, ...]
    black_diff: int

    @property
    def a_diff(self) -> int:
        """A's final disc difference (empties to the winner)."""
        return self.black_diff if self.a_black else -self.black_diff

    @property
    def a_points(self) -> float:
        return 1.0 if self.a_diff > 0 else 0.5 if self.a_diff == 0 else 0.0


def play_game(black: Contestant, white: Contestant, opening: str = "", game: int = 0
              ) -> tuple[tuple[Move, ...], int]:
    """Play from the opening to the end; returns (moves after it, Black's disc difference).

    Both players are seated (with ``game``, the game's number among a match's games from
    this opening and colour) for the whole game and unseated however it ends.

    Raises
    ------
    InvalidInputError
        A move of a player that is not legal (an external engine's illegal answers raise
        :class:`~gameopt.errors.SolverError` from its client first).
    """
    start = Board.start()
    history = parse_moves(opening)  # passes explicit, as GGF wants them
    n_opening = len(history)
    board = Board.from_moves(opening)
    with ExitStack() as stack:
        turn = {"X": stack.enter_context(black.seat(game)),
                "O": stack.enter_context(white.seat(game))}
        while not board.is_game_over():
            move = turn[board.side](start, tuple(history), board)
            if move not in board.legal_moves():
                raise InvalidInputError(f"game {opening or 'from the start'}: "
                                        f"{(black if board.side == 'X' else white).name} "
                                        f"played {move}, not legal in {board}")
            history.append(move)
            board = board.play(move)
    return tuple(history[n_opening:]), board.black_score()


def _game_job(job: tuple[Contestant, Contestant, str, bool, int]) -> GameRecord:
    a, b, opening, a_black, game = job
    moves, diff = play_game(a if a_black else b, b if a_black else a, opening, game)
    return GameRecord(opening, a_black, moves, diff)


@dataclass(frozen=True)
class MatchResult:
    """Games and statistics of A against B (see the module notes).

    ``pentanomial`` counts the pairs by A's points in them (0, ½, 1, 1½, 2). ``exact`` is
    true when every pair scored alike and the interval and p value are the exact bounds
    (``z`` is then NaN). ``elo`` and the bounds of ``elo_ci`` are ±inf when ``score`` or a
    bound of ``score_ci`` is 0 or 1; :meth:`summary` says the sample is too small then.
    """

    a: str
    b: str
    games: tuple[GameRecord, ...]
    wins: int
    draws: int
    losses: int
    mean_diff: float
    pentanomial: tuple[int, int, int, int, int]
    score: float
    score_ci: tuple[float, float]
    elo: float
    elo_ci: tuple[float, float]
    z: float
    p_value: float
    exact: bool = False

    def elo_text(self) -> str:
        """The Elo estimate and its 95 % interval, saying which bound the sample is too
        small to give instead of printing an infinite one."""
        lo, hi = self.elo_ci
        if not math.isfinite(self.elo):
            if self.elo > 0:
                return (f"Elo > {_fmt_elo(lo)} (95% lower bound; sample too small for an "
                        "upper bound)")
            return (f"Elo < {_fmt_elo(hi)} (95% upper bound; sample too small for a lower "
                    "bound)")
        text = (f"Elo {_fmt_elo(self.elo)} (95% "
                f"{_fmt_elo(lo) if math.isfinite(lo) else 'no lower bound'}.."
                f"{_fmt_elo(hi) if math.isfinite(hi) else 'no upper bound'}")
        missing = [w for w, x in (("lower", lo), ("upper", hi)) if not math.isfinite(x)]
        if missing:
            text += f": sample too small for {' and '.join(missing)} bound"
            text += "s" if len(missing) == 2 else ""
        return text + ")"

    def summary(self) -> str:
        n = len(self.games) // 2
        alike = (f"; all {n} pairs alike, exact bounds" if self.exact else "")
        test = (f"p <= {self.p_value:.3g} (exact bound)" if self.exact
                else f"z {self.z:.2f}, p {self.p_value:.3g}")
        return (f"{self.a} vs {self.b}: {len(self.games)} games, +{self.wins} ={self.draws} "
                f"-{self.losses}, pairs 0/0.5/1/1.5/2: "
                f"{' '.join(str(c) for c in self.pentanomial)}, "
                f"score {100 * self.score:.1f}% "
                f"(95% {100 * self.score_ci[0]:.1f}..{100 * self.score_ci[1]:.1f}{alike}), "
                f"mean disc difference {self.mean_diff:+.2f}, {self.elo_text()}, {test}")


def _fmt_elo(x: float) -> str:
    return f"{x:+.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _elo(p: float) -> float:
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def pentanomial_stats(counts: Sequence[int]) -> tuple[float, tuple[float, float], float,
                                                       float, bool]:
    """``(score, 95 % interval, z, p value, exact)`` from the pair counts (module notes).

    ``counts[k]`` pairs scored ``k/2`` points (k = 0..4). O(1).
    """
    n = sum(counts)
    xs = [k / 4 for k in range(5)]
    p = sum(c * x for c, x in zip(counts, xs, strict=True)) / n
    var = sum(c * (x - p) ** 2 for c, x in zip(counts, xs, strict=True)) / n
    if sum(c > 0 for c in counts) > 1:  # the normal model over the pair scores
        se = math.sqrt(var / n)
        z = (p - 0.5) / se
        ci = (max(0.0, p - 1.96 * se), min(1.0, p + 1.96 * se))
        return p, ci, z, math.erfc(abs(z) / math.sqrt(2.0)), False
    q = 1.0 - 0.025 ** (1.0 / n)  # all pairs alike: at most q of them could differ
    far = max(p, 1.0 - p)
    pval = min(1.0, 2.0 * (0.5 / far) ** n)
    return p, (p * (1.0 - q), p + q * (1.0 - p)), math.nan, pval, True


def match_stats(a: str, b: str, games: Sequence[GameRecord]) -> MatchResult:
    """Statistics of finished games (pairs are games sharing an opening, in order)."""
    if len(games) < 2 or len(games) % 2:
        raise InvalidInputError(f"match: {len(games)} games; need pairs (2 per opening)")
    counts = [0] * 5
    for i in range(0, len(games), 2):
        counts[round(2 * (games[i].a_points + games[i + 1].a_points))] += 1
    p, (lo, hi), z, pval, exact = pentanomial_stats(counts)
    c0, c1, c2, c3, c4 = counts
    return MatchResult(a, b, tuple(games), sum(g.a_diff > 0 for g in games),
                       sum(g.a_diff == 0 for g in games), sum(g.a_diff < 0 for g in games),
                       statistics.fmean(g.a_diff for g in games), (c0, c1, c2, c3, c4), p,
                       (lo, hi), _elo(p), (_elo(lo), _elo(hi)), z, pval, exact)


def run_match(a: Contestant, b: Contestant, openings: Sequence[str], *,
              scheduler: str | None = None, workers: int | None = None,
              progress: ProgressCallback | None = None,
              on_game: Callable[[GameRecord], None] | None = None) -> MatchResult:
    """Each opening twice (A Black, then A White), in parallel; then :func:`match_stats`.

    An opening may repeat (``""``, the start position, n times: n pairs from the start);
    its k-th pair is seated as game k, so a player with book variety plays other games.

    ``on_game`` is called with each game as it ends (in finishing order, in this process),
    e.g. :meth:`GameLog.add`, so that a stopped match keeps the games it finished.

    Raises
    ------
    InvalidInputError
        No openings, or two players with the same name.
    SolverError
        A game failed (an external engine exited, answered an illegal move or nothing in
        time): the message names the job and the engine's error.
    """
    if not openings:
        raise InvalidInputError("match: no openings")
    if a.name == b.name:
        raise InvalidInputError(f"match: both players are named {a.name!r}")
    seen: dict[str, int] = {}
    jobs = []
    for op in openings:
        key = "".join(str(m) for m in parse_moves(op))  # f5d6, F5D6 and "f5 d6" alike
        game = seen[key] = seen.get(key, -1) + 1
        jobs += [(a, b, op, a_black, game) for a_black in (True, False)]
    games = parallel_map(_game_job, jobs, scheduler=scheduler, workers=workers,
                         progress=progress,
                         on_result=None if on_game is None else lambda _, g: on_game(g))
    return match_stats(a.name, b.name, games)


def game_ggf(a: str, b: str, game: GameRecord) -> GgfGame:
    """``game`` of A (named ``a``) against B as GGF: from the start, the opening's moves
    included, ``PB``/``PW`` the players' names, ``RE`` Black's disc difference."""
    black, white = (a, b) if game.a_black else (b, a)
    return GgfGame(Board.start(), tuple(parse_moves(game.opening)) + game.moves,
                   {"GM": "Othello", "PB": black, "PW": white, "RE": f"{game.black_diff:+d}"})


class GameLog:
    """A match's games in a GGF file, kept as they end.

    While the match runs, each game is appended to ``PATH.part`` as one whole GGF line
    (flushed as written), in finishing order; :meth:`finish` then writes ``PATH`` whole,
    in the match's order (each opening, A Black then A White), and removes the part file.
    A match that stops before the end leaves ``PATH`` as it was and ``PATH.part`` with
    every game it finished (no part file when it finished none). Entering checks that the
    file can be written, so a bad path fails before the first game, not after the last.

    Raises
    ------
    InvalidInputError
        On entering, when ``PATH``'s directory does not exist, ``PATH`` is a directory, or
        ``PATH.part`` cannot be written.
    """

    def __init__(self, path: str | Path, a: str, b: str) -> None:
        self.path = Path(path)
        self.part = self.path.with_name(self.path.name + ".part")
        self.a, self.b = a, b
        self.count = 0
        self._file: IO[str] | None = None

    def __enter__(self) -> GameLog:
        directory = self.path.parent if str(self.path.parent) else Path(".")
        if not directory.is_dir():
            raise InvalidInputError(f"{self.path}: directory {directory} does not exist")
        if self.path.is_dir():
            raise InvalidInputError(f"{self.path}: is a directory, not a games file")
        try:
            self._file = open(self.part, "w", encoding="utf-8")
        except OSError as e:
            raise InvalidInputError(f"{self.part}: cannot write ({e.strerror or e})") from None
        return self

    def add(self, game: GameRecord) -> None:
        """Append ``game`` to the part file."""
        if self._file is None:
            raise InvalidInputError(f"{self.path}: the games file is not open")
        try:
            self._file.write(format_ggf(game_ggf(self.a, self.b, game)) + "\n")
            self._file.flush()
        except OSError as e:
            raise InvalidInputError(f"{self.part}: cannot write ({e.strerror or e})") from None
        self.count += 1

    def finish(self, result: MatchResult) -> None:
        """Write ``PATH`` with the games of ``result`` (whole or not at all), then remove
        the part file."""
        write_ggf(self.path, [game_ggf(result.a, result.b, g) for g in result.games])
        if self._file is not None:
            self._file.close()
            self._file = None
        os.unlink(self.part)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            if self.count == 0:
                self.part.unlink(missing_ok=True)


def make_openings(count: int, plies: int = 8, *, seed: int | None = 0, depth: int = 4,
                  max_abs: float = 2.0, max_tries: int | None = None) -> list[str]:
    """Distinct random openings of ``plies`` plies that a ``depth`` search scores near 0.

    Returns move lists (``f5d6...``); passes are not allowed inside an opening.

    Raises
    ------
    InvalidInputError
        Bad arguments, or fewer than ``count`` openings found in ``max_tries`` draws
        (default ``200·count``).
    """
    if count < 1 or plies < 1 or depth < 1 or max_abs < 0:
        raise InvalidInputError(f"openings: count={count}, plies={plies}, depth={depth}, "
                                f"max_abs={max_abs}: need positive values")
    rng = make_rng(seed)
    tries = max_tries if max_tries is not None else 200 * count
    found: dict[str, None] = {}
    for _ in range(tries):
        if len(found) == count:
            break
        board = Board.start()
        text = ""
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves or moves == [PASS]:
                break
            m = moves[int(rng.integers(len(moves)))]
            text += str(m)
            board = board.play(m)
        else:
            if text in found:
                continue
            if abs(search(board, Limit(depth=depth)).score) <= max_abs:
                found[text] = None
    if len(found) < count:
        raise InvalidInputError(f"openings: only {len(found)} of {count} found in {tries} "
                                f"tries (raise max_abs or lower plies)")
    return list(found)


def random_position(empties: int, *, seed: int | None = 0) -> Board:
    """A position with ``empties`` empty squares reached by uniformly random legal moves,
    with a legal move for the side to move (a game that ends earlier is replayed).

    Raises
    ------
    InvalidInputError
        If ``empties`` is not in 1..59.
    """
    if isinstance(empties, bool) or not isinstance(empties, int) or not 1 <= empties <= 59:
        raise InvalidInputError(f"random position: empties {empties!r}: expected 1..59")
    rng = make_rng(seed)
    board = Board.start()
    while board.empties > empties or not board.moves_bitboard():
        moves = board.legal_moves()
        if not moves:  # the game ended before reaching ``empties``: play again
            board = Board.start()
            continue
        board = board.play(moves[int(rng.integers(len(moves)))])
    return board


def write_openings(path: str | Path, openings: Sequence[str]) -> None:
    """One move list per line (atomic write)."""
    atomic_write_text(path, "".join(op + "\n" for op in openings))


def read_openings(path: str | Path) -> list[str]:
    """Move lists, one per line (``#`` comments and blank lines skipped), each checked.

    Raises
    ------
    InvalidInputError
        A missing file, or a line with an illegal move (naming the line, ply and move).
    """
    p = Path(path)
    out = []
    for no, line in enumerate(read_text(p, "openings file").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        parse_moves(text, where=f"{p}:{no}")
        out.append(text)
    if not out:
        raise InvalidInputError(f"{p}: no openings")
    return out
