"""Time control: how long to think on a move, by time per move or by a game clock.

A :class:`TimeControl` is either a fixed time per move or a game clock (seconds for all of
one side's moves, plus an increment per move), measured on a named clock (``"cpu"`` or
``"wall"``, as :class:`gameopt.core.Limit`). :meth:`TimeControl.allot` turns it into two
budgets for one move: a *soft* one, after which iterative deepening starts no new
iteration (:func:`gameopt.reversi.search.search`'s ``soft_time``), and a *hard* one, the
:class:`~gameopt.core.Limit` time that stops an iteration (the result is then the last
completed one). :func:`timed_move` runs the search (or the exact solve near the end) under
them; a few empties above the exact solve it runs the solver's selective passes first
(:func:`passes_first`), whose last completed pass gives the move when the exact one does
not finish.

The game clock is planned to the exact solve: the moves before it share what is left less
a reserve for the solve (a few times its estimate, :func:`solve_estimate`), the increment
almost whole, and from the solve on a move may use most of what is left; the hard budget
is a few times the soft one but never more than a fixed share of what is left, so a clock
is never run out by one move. (Until stop 67 one move had the remaining clock over the
moves still to play plus 3, which left about a quarter of a 12 s clock unused:
``benchmarks/bench_reversi_clock.py``.)

References
----------
R. Hyatt, "Using time wisely" (ICCA Journal 7(1), 1984): a target time per move from the
moves left, a hard limit for an iteration that runs long, no new iteration past the target.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gameopt.core import CLOCKS, Clock, Limit, StopFlag, check_seconds
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import Board
from gameopt.reversi.search import (
    SearchParams,
    SearchResult,
    SearchTable,
    search,
    selective_params,
    solve,
)

__all__ = ["TimeControl", "timed_move", "solve_estimate", "solve_start", "solves_first",
           "passes_first", "MIN_SECONDS", "SHORT_MOVE", "END_PASSES"]

#: The least time any move is given (a clock at zero still plays a 1-ply move).
MIN_SECONDS = 0.002
#: Share of the remaining clock one move may use at most.
HARD_SHARE = 0.3
#: Hard budget = this many soft budgets (capped by HARD_SHARE of the clock).
HARD_FACTOR = 4.0
#: The exact solve of a game position with 15 empties takes about this many CPU seconds,
#: and each further empty multiplies it by SOLVE_GROWTH: the medians of the solver on 36
#: positions at each of 15..22 empties of games against Zebra were 0.013, 0.027, 0.057,
#: 0.144, 0.29, 0.60, 1.22, 2.97 s (2026-12-01, beside other jobs).
SOLVE_SECONDS = 0.0135
SOLVE_GROWTH = 2.2
#: A timed move solves first (before ``end_empties``) when the estimate is within this
#: share of its soft budget.
TRY_SHARE = 0.5
#: A game clock keeps this many estimates of the first exact solve for the endgame.
ENDGAME_RESERVE = 3.0
#: A move's search runs past its soft budget, on average, to about this many budgets (the
#: iteration under way finishes): the clock's planned share of a midgame move is
#: OVERRUN soft budgets.
OVERRUN = 1.5
#: From the exact solve on, a move's soft budget is the remaining clock over this, its hard
#: budget at most ENDGAME_HARD_SHARE of it.
ENDGAME_SHARES = 1.5
ENDGAME_HARD_SHARE = 0.75
#: A time control is short (:meth:`TimeControl.short`) when its midgame moves get a soft
#: budget below this many seconds: its timed moves cut with ``SearchParams.mpc_t_short``.
#: Between the two measured points: 0.1 s a move and a 2.2 s clock (about 0.08 s a
#: midgame move), where 1.5 did better, and a 12 s clock (0.44 s), where 1.8 did.
SHORT_MOVE = 0.2
#: The confidences of the selective passes (ProbCut to the end of the game,
#: ``SearchParams.end_selectivity``) that a timed move runs a few empties above its exact
#: solve (:func:`passes_first`), each pass started only within the soft budget; the move
#: is the last completed pass's, or the exact one's if it finishes.
END_PASSES = (1.0, 1.5, 2.0)
#: The passes before the exact one finish, typically, in this share of the exact solve's
#: time (:func:`solve_estimate`): at 20-22 empties of games on a 12 s clock (soft budget
#: 0.45 s, hard 1.8 s) a pass or the exact solve finished in 36 positions of 36 (in at
#: most 0.96 s); at 23 empties in 9 of 10, at 24-25 in 12 of 20.
PASS_SHARE = 0.05


@dataclass(frozen=True)
class TimeControl:
    """Time per move (``move``) or a game clock (``clock`` seconds + ``increment`` per
    move), on ``kind`` ("cpu" or "wall"). Exactly one of ``move`` and ``clock`` is set.

    Raises
    ------
    InvalidInputError
        Neither or both of ``move`` and ``clock``, a time that is not a positive number,
        a negative increment or an unknown clock kind.

    Examples
    --------
    >>> TimeControl(move=0.5).allot(40, None)
    (0.5, 0.5)
    >>> soft, hard = TimeControl(clock=60.0).allot(40, 60.0)
    >>> round(soft, 2), round(hard, 2)
    (3.46, 13.84)
    """

    move: float | None = None
    clock: float | None = None
    increment: float = 0.0
    kind: Clock = "cpu"

    def __post_init__(self) -> None:
        object.__setattr__(self, "move", check_seconds(self.move, "time per move"))
        object.__setattr__(self, "clock", check_seconds(self.clock, "game clock"))
        if (self.move is None) == (self.clock is None):
            raise InvalidInputError("time control: give a time per move or a game clock "
                                    "(one of them)")
        if isinstance(self.increment, bool) or not isinstance(self.increment, int | float) \
                or not 0 <= self.increment < float("inf"):
            raise InvalidInputError(f"time control: increment {self.increment!r}: expected "
                                    "seconds >= 0")
        if self.kind not in CLOCKS:
            raise InvalidInputError(f"time control: clock {self.kind!r}: expected 'cpu' or "
                                    "'wall'")

    def allot(self, empties: int, remaining: float | None, end_empties: int = 14,
              early: bool = True) -> tuple[float, float]:
        """(soft, hard) seconds for a move with ``empties`` empty squares, ``remaining``
        seconds left on the game clock (ignored for a time per move); ``end_empties`` and
        ``early`` as :func:`timed_move` is given them (where the exact solve starts).

        A game clock is planned to the exact solve (:func:`solve_start`): before it,
        the side's moves share what is left less :data:`ENDGAME_RESERVE` estimates of
        that first solve, each move's share in :data:`OVERRUN` of a move (the iteration
        under way when the soft budget runs out finishes); from it on, a move may use
        most of what is left (the first solve is the endgame's one costly search). O(1).
        """
        if self.move is not None:
            return self.move, self.move
        assert self.clock is not None  # one of move and clock is set
        left = max(0.0, self.clock if remaining is None else remaining)
        inc = 0.8 * self.increment
        moves_left = max(1, (empties + 1) // 2)  # this side's moves still to play
        # each later move keeps its MIN_SECONDS: the budgets of a game fit its clock
        spare = max(0.0, left - moves_left * MIN_SECONDS)
        if empties <= end_empties or (
                early and ENDGAME_RESERVE * solve_estimate(empties) <= spare):
            soft = spare / ENDGAME_SHARES + inc  # the solve's turn: its reserve is here
            hard = min(HARD_FACTOR * soft, ENDGAME_HARD_SHARE * left + inc)
        else:
            first = solve_start(left / (moves_left + 3) + inc, end_empties, early)
            soft = 0.0
            for _ in range(3):  # the solve's start moves with the budget: settle it
                mid = max(1, (empties - first + 1) // 2)  # this side's moves before it
                reserve = ENDGAME_RESERVE * solve_estimate(first)
                soft = max(0.0, spare - reserve) / (OVERRUN * mid + 1) + inc
                first = solve_start(soft, end_empties, early)
            hard = min(HARD_FACTOR * soft, HARD_SHARE * left + inc)
        soft = max(MIN_SECONDS, min(soft, hard))
        return soft, max(MIN_SECONDS, hard)

    def short(self) -> bool:
        """Whether this control's midgame moves get less than :data:`SHORT_MOVE` seconds:
        a time per move by itself, a game clock by the soft budget of its first move after
        an 8-ply opening (52 empties: the plan is flat up to the exact solve), so a whole
        game has one answer. O(1).

        Examples
        --------
        >>> TimeControl(move=0.1).short(), TimeControl(move=1.0).short()
        (True, False)
        >>> TimeControl(clock=2.2).short(), TimeControl(clock=12.0).short()
        (True, False)
        """
        if self.move is not None:
            return self.move < SHORT_MOVE
        return self.allot(52, None)[0] < SHORT_MOVE

    def describe(self) -> str:
        """``0.1 s/move`` or ``60+1 s/game`` (with the clock kind)."""
        if self.move is not None:
            return f"{self.move:g} s/move {self.kind}"
        assert self.clock is not None
        inc = f"+{self.increment:g}" if self.increment else ""
        return f"{self.clock:g}{inc} s/game {self.kind}"


def solve_estimate(empties: int) -> float:
    """Typical CPU seconds of the exact solve of a game position with ``empties`` empties
    (:data:`SOLVE_SECONDS` · :data:`SOLVE_GROWTH` ** (empties - 15)). O(1)."""
    return SOLVE_SECONDS * SOLVE_GROWTH ** (empties - 15)


def solve_start(soft: float, end_empties: int = 14, early: bool = True) -> int:
    """The most empties at which a timed move with a soft budget of ``soft`` seconds
    starts with the exact solve (:func:`solves_first`; at least ``end_empties``). O(1).

    Examples
    --------
    >>> solve_start(0.1), solve_start(1.0), solve_start(1.0, early=False)
    (16, 19, 14)
    """
    e = end_empties
    if early:
        while e < 60 and solves_first(e + 1, soft, end_empties, early):
            e += 1
    return e


def solves_first(empties: int, soft: float, end_empties: int, early: bool = True) -> bool:
    """Whether a timed move with ``empties`` empties and a soft budget of ``soft`` seconds
    starts with the exact solve: from ``end_empties`` down always, and with ``early`` also
    above it when :func:`solve_estimate` is within :data:`TRY_SHARE` of ``soft``.

    Examples
    --------
    >>> [e for e in range(14, 24) if solves_first(e, 0.1, 14)]
    [14, 15, 16]
    >>> [e for e in range(14, 24) if solves_first(e, 1.0, 14)]
    [14, 15, 16, 17, 18, 19]
    >>> solves_first(16, 0.1, 14, early=False)
    False
    """
    return empties <= end_empties or (early and solve_estimate(empties) <= TRY_SHARE * soft)


def passes_first(empties: int, soft: float, end_empties: int, early: bool = True) -> bool:
    """Whether a timed move with ``empties`` empties and a soft budget of ``soft`` seconds
    runs the selective endgame passes (:data:`END_PASSES`): where it does not solve first
    (:func:`solves_first`) but :data:`PASS_SHARE` of the exact solve's estimate is within
    :data:`TRY_SHARE` of ``soft``: about four empties above the exact solve. Never without
    ``early`` (the solve, exact or selective, then waits for ``end_empties``). O(1).

    Examples
    --------
    >>> [e for e in range(14, 30) if passes_first(e, 0.45, 14)]
    [19, 20, 21, 22]
    >>> [e for e in range(14, 30) if passes_first(e, 0.074, 14)]
    [17, 18, 19, 20]
    >>> passes_first(20, 0.45, 14, early=False)
    False
    """
    return (early and not solves_first(empties, soft, end_empties, early)
            and PASS_SHARE * solve_estimate(empties) <= TRY_SHARE * soft)


def timed_move(board: Board, control: TimeControl, remaining: float | None = None, *,
               end_empties: int = 14, params: SearchParams | None = None,
               stop: StopFlag | None = None, table: SearchTable | None = None,
               early: bool = True, passes: bool = True) -> SearchResult:
    """The engine's move on ``board`` within ``control`` (``remaining``: seconds left on the
    game clock).

    With more than ``end_empties`` empties: iterative deepening with the soft and hard
    budgets of :meth:`TimeControl.allot` (a search that reaches the number of empties ends
    with the exact solver). From ``end_empties`` down, and with ``early`` (the default)
    also above it when the solve is expected to take at most half the soft budget
    (:func:`solves_first`): the exact solve, given most of the hard budget; if it is
    stopped, a midgame search with the rest. With ``passes`` (the default), a few empties
    above that (:func:`passes_first`): the solve with selective passes first
    (:data:`END_PASSES`), a pass started only within the soft budget; its move is the
    exact one if the solve finishes, else the last completed pass's, else (no pass
    finished) a midgame search's with the rest. Every midgame search of
    the move (the solver's root ordering and that fallback too) uses Multi-ProbCut and
    the network's lazy evaluation unless ``params`` says otherwise, at the confidence
    ``params.mpc_t``, or ``params.mpc_t_short`` when the control is short
    (:meth:`TimeControl.short`). The result's ``seconds``
    is the time used on ``control.kind`` (what the caller takes off the clock). ``stop``
    (another thread's switch) ends the thinking at once: the result is then ``stopped``.
    ``table``: the side's transposition table kept from its earlier moves (None: a new
    one for each search).

    Raises
    ------
    InvalidInputError
        The game is over on ``board``.
    """
    if board.is_game_over():
        raise InvalidInputError(f"timed move: the game is over in {board}")
    params = params or SearchParams()
    if control.short():  # the same for every move of a game, so a kept table stays valid
        params = replace(params, mpc_t=params.mpc_t_short)
    # by time: Multi-ProbCut and lazy evaluation in every midgame search of the move
    params = selective_params(params, True)  # (one setting, so a kept table stays valid)
    soft, hard = control.allot(board.empties, remaining, end_empties, early)
    kind = control.kind
    limit = Limit(time=0.75 * hard, clock=kind, stop=stop)
    if solves_first(board.empties, soft, end_empties, early):
        r = solve(board, limit, params, table=table)
    elif passes and passes_first(board.empties, soft, end_empties, early):
        r = solve(board, limit, replace(params, end_selectivity=END_PASSES), table=table,
                  soft_time=soft)
        if r.depth > 0:  # the exact pass or a selective one finished
            return r
    else:
        return search(board, Limit(time=hard, clock=kind, stop=stop), params,
                      soft_time=soft, table=table)
    if not r.stopped or (stop is not None and stop.is_set()):
        return r
    rest = max(MIN_SECONDS, hard - r.seconds)
    m = search(board, Limit(time=rest, clock=kind, depth=max(1, board.empties - 1),
                            stop=stop), params, soft_time=0.5 * rest, table=table)
    return SearchResult(m.move, m.score, m.exact, m.depth, m.pv, r.nodes + m.nodes,
                        r.seconds + m.seconds, True, m.clock, m.bound)
