"""The transposition table kept from move to move (SearchTable), and what a search cut
short by its limit still proved."""

from __future__ import annotations

import numpy as np
import pytest

from gameopt.core import Limit, Progress
from gameopt.errors import InvalidInputError
from gameopt.reversi import _tt
from gameopt.reversi.board import PASS, Board, Move, parse_moves
from gameopt.reversi.match import Player, parse_player
from gameopt.reversi.search import EvalKind, SearchParams, SearchTable, search, solve
from gameopt.reversi.timing import TimeControl, timed_move

OPENING = "c4c5d6c7e6f5c6e7"  # of benchmarks/data/reversi-openings-8ply.txt
SMALL = SearchParams(tt_bits=16)


def _line(plies: int) -> list[Board]:
    """A game line from OPENING: depth-3 self-play, ``plies`` positions at most."""
    b = Board.start()
    for m in parse_moves(OPENING):
        b = b.play(m)
    line = [b]
    while not b.is_game_over() and len(line) < plies:
        r = search(b, Limit(depth=3), SMALL) if b.legal_moves() != [PASS] else None
        b = b.play(PASS if r is None else r.move)
        line.append(b)
    return line


def _purge_reference(keys: np.ndarray, data: np.ndarray, discs: int) -> int:
    """NumPy: empty (zero) the slots of positions with fewer than ``discs`` discs."""
    both = keys[:, 0] | keys[:, 1]
    counts = np.array([bin(int(x)).count("1") for x in both])
    stale = (both != 0) & (counts < discs)
    keys[stale] = 0
    data[stale] = 0
    return int(stale.sum())


def test_purge_equals_its_reference() -> None:
    rng = np.random.default_rng(5)
    keys, data = _tt.new_table(10)
    for i in range(keys.shape[0]):  # positions of 0..64 discs, some slots empty
        if i % 5:
            squares = rng.permutation(64)[:rng.integers(1, 65)]
            mine = rng.random(len(squares)) < 0.5
            keys[i, 0] = sum(1 << int(s) for s in squares[mine])
            keys[i, 1] = sum(1 << int(s) for s in squares[~mine])
    data[:] = rng.integers(-1000, 1000, size=data.shape, dtype=np.int32)
    for discs in (0, 1, 20, 37, 64, 65):
        k1, d1, k2, d2 = keys.copy(), data.copy(), keys.copy(), data.copy()
        assert _tt.purge(k1, d1, discs) == _purge_reference(k2, d2, discs)
        assert np.array_equal(k1, k2) and np.array_equal(d1, d2)
    assert _tt.purge(keys.copy(), data.copy(), 65) == np.count_nonzero(keys[:, 0] | keys[:, 1])


def test_a_kept_table_gives_the_values_of_a_new_one_with_fewer_nodes() -> None:
    # full-width search: the root value at a depth is the minimax value whatever the
    # table holds, if every kept range is a true bound at its depth
    line = _line(40)
    table = SearchTable(16)
    kept = new = 0
    for b in line[::2]:
        if b.empties <= 14 or b.legal_moves() == [PASS]:
            continue
        a = search(b, Limit(depth=7), SMALL, table=table)
        f = search(b, Limit(depth=7), SMALL)
        assert a.score == f.score, str(b)
        kept, new = kept + a.nodes, new + f.nodes
    assert table.used() > 0
    assert kept < new
    # exact solves with the midgame searches' entries still in the table
    for b in line[-4:]:
        if b.legal_moves() in ([], [PASS]):
            continue
        assert solve(b, params=SMALL, table=table).score == solve(b, params=SMALL).score


def test_a_table_is_cleared_for_another_evaluation() -> None:
    b = _line(20)[-1]
    table = SearchTable(16)
    search(b, Limit(depth=5), SMALL, table=table)
    heur = SearchParams(tt_bits=16, eval_kind=EvalKind.HEURISTIC)
    a = search(b, Limit(depth=5), heur, table=table)
    assert a.score == search(b, Limit(depth=5), heur).score
    # stale entries from a purged past: fewer discs than the board are gone
    def discs_held() -> list[int]:
        both = table.keys[:, 0] | table.keys[:, 1]
        return [bin(int(x)).count("1") for x in both[both != 0]]
    b0 = _line(2)[0]
    search(b0, Limit(depth=6), heur, table=table)
    assert min(discs_held()) < 64 - b.empties
    search(b, Limit(depth=1), heur, table=table)
    assert discs_held() and min(discs_held()) >= 64 - b.empties
    table.clear()
    assert table.used() == 0


def test_selective_entries_never_reach_a_full_width_search() -> None:
    # Multi-ProbCut bounds are not proven: switching it off clears the table
    line = _line(24)
    table = SearchTable(16)
    mpc = SearchParams(tt_bits=16, mpc=True)
    for b in line[4:20:3]:  # the same position searched selectively, then full width
        search(b, Limit(depth=8), mpc, table=table)
        assert search(b, Limit(depth=8), SMALL, table=table).score == \
            search(b, Limit(depth=8), SMALL).score
    # and a timed move (Multi-ProbCut in all its searches) after a full-width search
    r = timed_move(line[16], TimeControl(move=0.02), end_empties=14, params=SMALL,
                   table=table)
    assert r.move in line[16].legal_moves()


def test_a_stopped_solve_leaves_only_proven_bounds() -> None:
    b = next(x for x in _line(64) if x.empties <= 18 and len(x.legal_moves()) > 1)
    table = SearchTable(16)
    cut = solve(b, Limit(nodes=20_000), SMALL, table=table)
    assert cut.stopped and not cut.exact
    exact = solve(b, params=SMALL)
    again = solve(b, params=SMALL, table=table)
    assert (again.score, again.exact) == (exact.score, True)
    assert again.nodes < exact.nodes + cut.nodes


def test_table_size_is_checked() -> None:
    for bits in (3, 31, 2.5, True):
        with pytest.raises(InvalidInputError, match="table bits"):
            SearchTable(bits)  # type: ignore[arg-type]


def test_an_iteration_cut_short_gives_a_move_it_proved_better() -> None:
    # node limits stop a search at the same node every time; the progress reports say
    # which iteration was the last to complete
    b = Board.start()
    for m in parse_moves("f5d6c7f3e3f2c5b6"):
        b = b.play(m)
    cut = 0
    for n in (4096, 12288, 20480, 40960):
        seen: list[Progress] = []
        r = search(b, Limit(nodes=n), SMALL, progress=seen.append)
        assert r.stopped and seen
        last = seen[-1]
        if r.depth == last.done:
            assert (str(r.move), r.score) == (last.info["move"], last.best)
            continue
        # cut short at the next depth: r.move's value there is its score, above the value
        # there of the last iteration's best move (searched first)
        assert r.depth == last.done + 1 and str(r.move) != last.info["move"]
        prev = b.play(Move.from_str(last.info["move"]))
        assert -search(b.play(r.move), Limit(depth=r.depth - 1), SMALL).score == r.score
        assert -search(prev, Limit(depth=r.depth - 1), SMALL).score < r.score
        assert r.pv[0] == r.move and len(r.pv) > 1
        cut += 1
    assert cut >= 1  # here 2: 12288 (c3 at depth 7 after c4 at 6), 40960 (c4 at 8 after c3)


def test_timed_players_keep_a_table_per_game_unless_told() -> None:
    timed = parse_player("time=0.01", "A")
    assert isinstance(timed.new_table(), SearchTable)
    assert parse_player("time=0.01,keep=0", "A").new_table() is None
    assert Player("A", depth=3).new_table() is None  # a fixed depth replays the same games
    with pytest.raises(InvalidInputError, match="keep=0"):
        parse_player("time=0.01,keep=2", "A")
    table = SearchTable(16)
    line = _line(30)
    for b in (line[0], line[2], line[-1]):
        r = timed_move(b, TimeControl(move=0.02), end_empties=14, params=SMALL, table=table)
        assert r.move in b.legal_moves()


def test_timed_moves_keep_one_setting_into_the_endgame() -> None:
    """Every search of a timed game (midgame by time, the solve from ``end_empties`` and
    its root ordering) decides Multi-ProbCut and lazy evaluation the same way, so the
    kept table is never cleared for a changed setting on the way into the endgame: with
    short moves (the cut confidence ``mpc_t_short``) and with longer ones (``mpc_t``)."""
    line = _line(48)
    mid = next(b for b in line if b.empties == 18)
    end = next(b for b in line if b.empties == 12)
    for first, then in ((0.02, 0.1), (0.25, 0.5)):  # both short, both not
        assert TimeControl(move=first).short() == TimeControl(move=then).short()
        table = SearchTable(16)
        timed_move(mid, TimeControl(move=first), end_empties=14, params=SMALL, table=table)
        key = table._key  # what the table was filled under
        assert key is not None
        r = timed_move(end, TimeControl(move=then), end_empties=14, params=SMALL,
                       table=table)
        assert r.exact and table._key == key


def _spy(monkeypatch: pytest.MonkeyPatch, module: object) -> list[SearchTable | None]:
    """Record the table of every timed move made through ``module``'s ``timed_move``."""
    seen: list[SearchTable | None] = []
    real = timed_move

    def spy(*args: object, **kw: object) -> object:
        table = kw.get("table")
        seen.append(table if isinstance(table, SearchTable) else None)
        return real(*args, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(module, "timed_move", spy)
    return seen


def test_match_play_and_nboard_keep_their_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    import gameopt.reversi.match as match_mod
    import gameopt.reversi.nboard as nboard_mod
    from gameopt.reversi.nboard import NBoardEngine
    from gameopt.reversi.play import PlaySession

    seen = _spy(monkeypatch, match_mod)
    fast = "time=0.003,end=8"
    match_mod.play_game(parse_player(fast, "a"), parse_player(fast, "b"), OPENING)
    tables = {id(t) for t in seen}
    assert None not in seen and len(tables) == 2 and len(seen) > 10  # one per side
    seen.clear()
    match_mod.play_game(parse_player(fast + ",keep=0", "a"), Player("b", depth=1), OPENING)
    assert seen and all(t is None for t in seen)
    seen.clear()
    session = PlaySession(parse_player(fast, "e"), human="")
    for _ in range(4):
        move, _ = session.engine_move()
        session.push(move)
    assert len(seen) == 4 and len({id(t) for t in seen}) == 2 and None not in seen

    nb_seen = _spy(monkeypatch, nboard_mod)
    out: list[str] = []
    e = NBoardEngine(out.append)
    for line in ("nboard 2", "set movetime 0.003", "go"):
        e.handle(line)
    e.wait_search()
    e.handle("go")
    e.wait_search()
    assert len(nb_seen) == 2 and nb_seen[0] is nb_seen[1] is not None
    assert sum(x.startswith("===") for x in out) == 2
