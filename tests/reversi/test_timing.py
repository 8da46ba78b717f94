"""Time control: budgets, the soft stop of iterative deepening, timed players."""

from __future__ import annotations

from pathlib import Path

import pytest

from gameopt.core import Limit
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import Board
from gameopt.reversi.match import Player, parse_player, play_game
from gameopt.reversi.search import SearchParams, SearchResult, SearchTable, search, solve
from gameopt.reversi.timing import (
    END_PASSES,
    HARD_FACTOR,
    HARD_SHARE,
    MIN_SECONDS,
    OVERRUN,
    SHORT_MOVE,
    TimeControl,
    passes_first,
    solve_estimate,
    solve_start,
    solves_first,
    timed_move,
)


def test_control_validation() -> None:
    with pytest.raises(InvalidInputError, match="one of them"):
        TimeControl()
    with pytest.raises(InvalidInputError, match="one of them"):
        TimeControl(move=1.0, clock=10.0)
    with pytest.raises(InvalidInputError, match="time per move"):
        TimeControl(move=-1.0)
    with pytest.raises(InvalidInputError, match="increment"):
        TimeControl(clock=10.0, increment=-1.0)
    with pytest.raises(InvalidInputError, match="clock 'sun'"):
        TimeControl(move=1.0, kind="sun")  # type: ignore[arg-type]


def test_clock_budgets_share_the_clock_and_never_exceed_it() -> None:
    tc = TimeControl(clock=60.0, increment=1.0)
    soft40, hard40 = tc.allot(40, 60.0)
    soft20, _ = tc.allot(20, 60.0)
    assert 0 < soft40 <= hard40 <= 0.3 * 60.0 + 0.8
    assert soft20 > soft40  # fewer moves left: more per move
    assert tc.allot(40, 0.0) == (0.8, 0.8)  # an empty clock: the increment
    assert TimeControl(clock=1.0).allot(50, -3.0) == (MIN_SECONDS, MIN_SECONDS)
    # the sum of the soft budgets of a whole game fits in the clock
    left, total = 60.0, 0.0
    for empties in range(59, 0, -2):
        soft, _ = TimeControl(clock=60.0).allot(empties, left)
        left -= soft
        total += soft
    assert total <= 60.0


def _old_allot(empties: int, left: float) -> tuple[float, float]:
    """The allotment before the clock was planned to the solve (up to stop 67)."""
    soft = left / (max(1, (empties + 1) // 2) + 3)
    return soft, min(HARD_FACTOR * soft, HARD_SHARE * left)


@pytest.mark.parametrize("clock", [2.0, 12.0, 60.0])
def test_a_clock_is_planned_to_the_exact_solve(clock: float) -> None:
    """A model game: each midgame move spends OVERRUN soft budgets (capped by its hard
    one), each endgame move its solve's estimate once the solve starts. The clock is not
    overrun, the solve phase finds its reserve (the first solve is tried: its estimate is
    within the soft budget's try share), and the midgame gets more of the clock than the
    old allotment gave it under the same model."""
    def play(allot) -> tuple[float, float, bool]:  # (midgame spent, total, solve tried)
        left, mid, tried = clock, 0.0, False
        for empties in range(52, 0, -2):
            soft, hard = allot(empties, left)
            assert 0 < soft <= hard <= max(left, MIN_SECONDS) + 1e-9
            if solves_first(empties, soft, 14):
                tried = tried or empties > 14
                spent = min(hard, solve_estimate(empties))
            else:
                spent = min(hard, OVERRUN * soft)
                mid += spent
            left -= spent
        return mid, clock - left, tried

    new = play(TimeControl(clock=clock).allot)
    old = play(_old_allot)
    assert new[1] <= clock
    assert new[2]  # the early solve still comes
    assert new[0] > 1.1 * old[0]  # more of the clock goes to the midgame
    assert new[1] > 0.8 * clock


def test_solve_start_follows_the_budget() -> None:
    assert solve_start(0.1) == 16 and solve_start(1.0) == 19
    assert solve_start(1.0, 10, early=False) == 10
    assert all(solves_first(solve_start(s), s, 14) and not solves_first(solve_start(s) + 1, s, 14)
               for s in (0.05, 0.3, 3.0))
    assert solve_start(1e-6, 14) == 14  # never below end_empties


def test_soft_time_stops_before_a_new_iteration() -> None:
    b = Board.from_moves("f5d6c3d3c4")
    r = search(b, Limit(depth=8), soft_time=1e-9)
    assert r.depth == 1 and not r.stopped and r.move in b.legal_moves()
    assert search(b, Limit(depth=3), soft_time=1e9).depth == 3
    with pytest.raises(InvalidInputError, match="soft time"):
        search(b, Limit(depth=3), soft_time=-1)


def test_timed_move_plays_legal_moves_midgame_and_endgame() -> None:
    mid = Board.from_moves("f5d6c3d3c4f4")
    r = timed_move(mid, TimeControl(move=0.05))
    assert r.move in mid.legal_moves() and r.depth >= 1
    from tests.reversi.positions import random_position
    end = random_position(3, 10)
    r = timed_move(end, TimeControl(move=5.0), end_empties=12)
    assert r.exact and r.move in end.legal_moves()
    over = Board.from_str("X" * 64 + " O")
    with pytest.raises(InvalidInputError, match="game is over"):
        timed_move(over, TimeControl(move=1.0))


def test_timed_move_solves_early_when_the_solve_fits_its_time() -> None:
    from tests.reversi.positions import random_position

    b = random_position(5, 16)  # above end_empties: the old rule searched the midgame
    r = timed_move(b, TimeControl(move=2.0), end_empties=10)
    assert r.exact and r.score == solve(b).score and r.depth == b.empties
    assert not solves_first(16, 2.0, 10, early=False)
    short = timed_move(b, TimeControl(move=0.005), end_empties=10)  # too short to try
    assert not short.exact and short.move in b.legal_moves()
    off = timed_move(b, TimeControl(move=0.005), end_empties=10, early=False)
    assert off.move in b.legal_moves()
    assert parse_player("time=1,early=0", "A").early_solve is False  # type: ignore[union-attr]
    assert parse_player("time=1", "A").early_solve is True  # type: ignore[union-attr]
    with pytest.raises(InvalidInputError, match="not depth"):
        parse_player("early=2", "A")


def test_a_solve_with_soft_time_plays_its_last_selective_pass() -> None:
    from tests.reversi.positions import random_position

    b = random_position(7, 18)
    two = SearchParams(end_selectivity=(1.0, 2.0), end_sel_min=9)
    first = solve(b, params=two, soft_time=1e-9)  # no second pass once the time is spent
    assert (first.exact, first.stopped, first.depth) == (False, False, b.empties)
    assert first.move in b.legal_moves() and -64 < first.score < 64
    one = SearchParams(end_selectivity=(1.0,), end_sel_min=9)
    alone = solve(b, params=one, soft_time=1e-9)
    assert (alone.move, alone.score, alone.nodes) == (first.move, first.score, first.nodes)
    # stopped in the exact pass: the selective pass's move, marked stopped
    cut = solve(b, Limit(nodes=alone.nodes + 1000), params=one)
    assert (cut.stopped, cut.exact, cut.depth) == (True, False, b.empties)
    assert (cut.move, cut.score) == (alone.move, alone.score)
    none = solve(b, Limit(nodes=50), params=two)  # stopped before any pass finished
    assert none.stopped and none.depth == 0
    exact = solve(b)
    whole = solve(b, params=two, soft_time=1e9)  # time for every pass: the exact answer
    assert whole.exact and whole.score == exact.score and not whole.stopped
    with pytest.raises(InvalidInputError, match="soft time"):
        solve(b, params=two, soft_time=-1)


def test_timed_moves_run_the_selective_passes_above_the_solve(monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """A few empties above the exact solve, a timed move solves with the selective passes
    (their soft budget the move's), unless ``passes=False``; below, the exact solve alone;
    above, the midgame search. One kept table goes through all three uncleared."""
    import gameopt.reversi.timing as timing
    from tests.reversi.positions import random_position

    assert [e for e in range(14, 30) if passes_first(e, 0.45, 14)] == [19, 20, 21, 22]
    assert not any(passes_first(e, 0.45, 14) for e in range(14, 19))  # solves_first there
    calls: list[tuple[str, tuple[float, ...], float | None]] = []
    real_solve, real_search = timing.solve, timing.search

    def solve_spy(board: Board, limit: Limit, params: SearchParams, *a: object,
                  **k: object) -> SearchResult:
        soft = k.get("soft_time")
        calls.append(("solve", params.end_selectivity,
                      soft if isinstance(soft, float) else None))
        return real_solve(board, limit, params, *a, **k)  # type: ignore[arg-type]

    def search_spy(board: Board, limit: Limit, params: SearchParams, *a: object,
                   **k: object) -> SearchResult:
        calls.append(("search", params.end_selectivity, None))
        return real_search(board, limit, params, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(timing, "solve", solve_spy)
    monkeypatch.setattr(timing, "search", search_spy)
    table = SearchTable(16)
    cleared: list[int] = []
    clear = table.clear
    monkeypatch.setattr(table, "clear", lambda: (cleared.append(1), clear())[1])
    control = TimeControl(move=0.45)
    boards = [random_position(11, e) for e in (26, 21, 16)]
    for b in boards:
        r = timed_move(b, control, table=table)
        assert r.move in b.legal_moves()
    assert [c[0] for c in calls[:1]] == ["search"] and calls[0][1] == ()
    passes = [c for c in calls if c[1]]
    assert passes == [("solve", END_PASSES, 0.45)]
    assert calls[-1] == ("solve", (), None)
    assert cleared == [1]  # once, by the first search: never between the three
    calls.clear()
    for off in ({"passes": False}, {"early": False}):  # either turns the passes off
        calls.clear()
        r = timed_move(boards[1], control, **off)  # type: ignore[arg-type]
        assert [c[0] for c in calls] == ["search"] and r.move in boards[1].legal_moves()
    assert parse_player("time=1,passes=0", "A").end_passes is False  # type: ignore[union-attr]
    assert parse_player("time=1", "A").end_passes is True  # type: ignore[union-attr]
    with pytest.raises(InvalidInputError, match="not depth"):
        parse_player("passes=2", "A")


def test_a_short_control_cuts_at_the_short_confidence(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A timed move's searches cut at ``mpc_t_short`` (1.5) when the control is short
    (midgame moves under 0.2 s: 0.1 s a move, a 2.2 s clock) and at ``mpc_t`` (1.8)
    otherwise (1 s a move, a 12 s clock), the whole game alike; ``mpct=`` sets both."""
    import gameopt.reversi.timing as timing

    seen: list[float] = []

    def spy(board: Board, limit: Limit, params: SearchParams, *a: object, **k: object
            ) -> SearchResult:
        seen.append(params.mpc_t)
        return search(board, Limit(depth=1), params)

    monkeypatch.setattr(timing, "search", spy)
    mid = Board.from_moves("f5d6c3d3c4f4")
    cases = [(TimeControl(move=0.1), None, 1.5), (TimeControl(move=1.0), None, 1.8),
             (TimeControl(clock=2.2), 2.2, 1.5), (TimeControl(clock=2.2), 0.3, 1.5),
             (TimeControl(clock=12.0), 12.0, 1.8), (TimeControl(clock=12.0), 0.3, 1.8)]
    for control, remaining, t in cases:
        seen.clear()
        timed_move(mid, control, remaining)
        assert seen == [t], (control, remaining)
    assert TimeControl(move=SHORT_MOVE).short() is False
    assert TimeControl(move=0.99 * SHORT_MOVE).short() is True
    seen.clear()
    timed_move(mid, TimeControl(move=0.1), params=SearchParams(mpc_t=2.0, mpc_t_short=0.9))
    assert seen == [0.9]
    with pytest.raises(InvalidInputError, match="mpc_t_short 11"):
        SearchParams(mpc_t_short=11)


def test_player_specs_with_time() -> None:
    p = parse_player("time=0.1,end=10", "A")
    assert isinstance(p, Player) and p.control == TimeControl(move=0.1)
    q = parse_player("clock=30,inc=0.5,wall", "B")
    assert isinstance(q, Player) and q.control == TimeControl(clock=30.0, increment=0.5,
                                                              kind="wall")
    assert parse_player("mpc=0", "C").params.mpc is False  # type: ignore[union-attr]
    assert parse_player("time=1", "C").params.mpc is None  # type: ignore[union-attr]
    d = parse_player("mpc=1,mpct=2.5", "D")
    assert isinstance(d, Player) and (d.params.mpc, d.params.mpc_t) == (True, 2.5)
    assert d.params.mpc_t_short == 2.5  # mpct: one confidence for every time control
    import gameopt.reversi as rv  # a weights file keeps the Multi-ProbCut settings

    shipped = Path(rv.__file__).parent / "data" / "weights.npz"
    e = parse_player(f"eval={shipped},mpc=1,mpct=2.5,mpcnest=2", "E")
    assert isinstance(e, Player)
    ep = e.search_params()
    assert (ep.mpc, ep.mpc_t, ep.mpc_t_short, ep.mpc_nest) == (True, 2.5, 2.5, 2)
    f = parse_player(f"eval={shipped},lazy=1.5,netmax=24", "F")  # and the lazy settings
    assert isinstance(f, Player)
    assert (f.search_params().net_margin, f.search_params().net_max_empties) == (150, 24)
    for bad, msg in [("time=abc", "seconds"), ("inc=1", "needs clock"),
                     ("time=1,clock=2", "one of them"), ("time=-1", "time per move"),
                     ("mpc=2", "not depth"), ("mpct=x", "mpct takes a number"),
                     ("mpct=11", "mpc_t 11.0"), ("mpct=nan", "mpc_t nan"),
                     ("lazy=x", "lazy takes discs"), ("lazy=-1", "lazy takes 0..64"),
                     ("lazy=inf", "'lazy=inf': lazy takes 0..64"),
                     ("netmax=x", "netmax takes 0..60"), ("netmax=61", "net_max_empties 61")]:
        with pytest.raises(InvalidInputError, match=msg):
            parse_player(bad, "X")


def test_a_game_on_a_clock_finishes() -> None:
    fast = Player("clock", end_empties=8, control=TimeControl(clock=3.0))
    depth = Player("depth", depth=1, end_empties=8)
    moves, diff = play_game(fast, depth, "f5d6c3d3c4f4c5b3c2e6")
    assert len(moves) > 30 and -64 <= diff <= 64
