"""The tournament store: a tournament built round by round, bad input, manual changes, crashes.

Rounds are paired by ``gameopt.pairing.pair_round``; a few store tests use
:func:`simple_pair` below (top-down, avoiding rematches and forbidden pairs) to build
pairings by hand.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, Colour, Pairing, PlayerState, RoundInput, Table
from gameopt.pairing.records import Outcome
from gameopt.pairing.store import SCHEMA_VERSION, Tournament


# ------------------------------------------------------------------ helpers (also used by
# the other test modules of this package)
def simple_pair(ri: RoundInput) -> Pairing:
    """Top-down pairing: the bye to the lowest-ranked player with fewest byes, then each
    highest unpaired player against the next one not met and not forbidden; black to
    whoever has had fewer blacks."""
    rest = list(ri.players)
    tables: list[Table] = []
    bye = None
    if len(rest) % 2:
        bye = min(reversed(rest), key=lambda p: p.byes)
        rest.remove(bye)
    while rest:
        a = rest.pop(0)
        allowed = [q for q in rest if frozenset((a.id, q.id)) not in ri.forbidden]
        b = next((q for q in allowed if q.id not in a.opponents), allowed[0])
        rest.remove(b)
        first, second = (a, b) if _blacks(a) <= _blacks(b) else (b, a)
        tables.append(Table(len(tables) + 1, first.id, second.id, 0))
    if bye is not None:
        tables.append(Table(len(tables) + 1, bye.id, BYE, 0))
    return Pairing(ri.round_no, tuple(tables), 0, "simple")


def _blacks(p: PlayerState) -> int:
    return sum(c is Colour.BLACK for c in p.colours) - sum(c is Colour.WHITE for c in p.colours)


def engine() -> Callable[[RoundInput], Pairing]:
    from gameopt.pairing.pairer import pair_round

    return pair_round


def play_round(t: Tournament, k: int, rng: np.random.Generator) -> None:
    """Enter a result at every table of round ``k``: the higher rating usually wins."""
    rating = {p.id: p.rating or 1500.0 for p in t.players()}
    for g in t.games(k):
        if g.is_bye or g.has_result:
            continue
        p_black = 1 / (1 + 10 ** ((rating[g.white] - rating[g.black]) / 400))
        u = rng.random()
        if u < 0.05:
            t.set_result(k, g.table, 32, 32)
            continue
        win = int(rng.integers(33, 65))
        lose = max(0, 64 - win - int(rng.choice([0, 0, 0, 2])))
        black_wins = u < 0.05 + 0.95 * p_black
        t.set_result(k, g.table, *((win, lose) if black_wins else (lose, win)))


@contextmanager
def unchanged(path: Path) -> Iterator[None]:
    """The file's bytes are the same after the block (and no journal is left)."""
    before = path.read_bytes()
    yield
    assert path.read_bytes() == before
    assert not path.with_name(path.name + "-journal").exists()


def new_tournament(tmp_path: Path, n: int = 6, name: str = "t.gpt") -> Tournament:
    t = Tournament.create(tmp_path / name, "Test Open", "JPN", "2024-05-01", rounds=5)
    for i in range(n):
        letters = chr(65 + i) if i < 26 else chr(64 + i // 26) + chr(65 + i % 26)
        t.add_player(f"Player {letters}", country="JPN" if i % 2 else "FRA",
                     rating=2000.0 - 50 * i)
    return t


# ------------------------------------------------------------------ files
def test_create_open_and_refuse_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "event.gpt"
    with Tournament.create(path, "  Paris   Open ", "FRA", "2002-11-21", rounds=7) as t:
        assert t.info.name == "Paris Open" and t.info.rounds == 7
        t.add_player("Ann")
    with unchanged(path), pytest.raises(InvalidInputError, match="file exists; not over"):
        Tournament.create(path, "Other")
    with Tournament.open(path) as t:
        assert t.info.date == "2002-11-21" and [p.name for p in t.players()] == ["Ann"]
    assert sorted(os.listdir(tmp_path)) == ["event.gpt"]  # one file, no sidecars
    with pytest.raises(InvalidInputError, match="not YYYY-MM-DD"):
        Tournament.create(tmp_path / "x.gpt", "X", date="21/11/2002")
    with pytest.raises(InvalidInputError, match="positive integer"):
        Tournament.create(tmp_path / "x.gpt", "X", rounds=0)
    assert not (tmp_path / "x.gpt").exists()


def test_open_checks_the_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no such tournament file"):
        Tournament.open(tmp_path / "missing.gpt")
    (tmp_path / "text.gpt").write_text("hello, not a database\n" * 100)
    with pytest.raises(InvalidInputError, match="text.gpt: not a tournament file"):
        Tournament.open(tmp_path / "text.gpt")
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE x (y)").connection.close()
    with pytest.raises(InvalidInputError, match="not a gameopt tournament file"):
        Tournament.open(tmp_path / "other.db")
    new_tournament(tmp_path).close()
    con = sqlite3.connect(tmp_path / "t.gpt")
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    with pytest.raises(InvalidInputError, match=f"schema version 99, .* {SCHEMA_VERSION}"):
        Tournament.open(tmp_path / "t.gpt")


def test_the_schema_itself_refuses_an_inconsistent_result(tmp_path: Path) -> None:
    t = new_tournament(tmp_path, 2)
    t.store_pairing(Pairing(1, (Table(1, "1", "2", 0),), 0, "test"))
    con = sqlite3.connect(tmp_path / "t.gpt")
    for sql in ("UPDATE games SET black_discs = 40, white_discs = 20, result = 'W'",
                "UPDATE games SET black_discs = 40, white_discs = 30, result = 'B'"):
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            con.execute(sql)
    con.close()


# ------------------------------------------------------------------ players
def test_players_ids_and_duplicates(tmp_path: Path) -> None:
    t = new_tournament(tmp_path, 3)
    assert [p.id for p in t.players()] == ["1", "2", "3"]
    p = t.add_player("Ben Smith", id="W-1234", country="GBR", rating=1850.5)
    assert (p.seq, p.joined_round, p.initial_score) == (4, 1, 0)
    assert t.player("ben  SMITH") == p and t.player("W-1234") == p
    assert t.add_player("Cy").id == "4"
    path = tmp_path / "t.gpt"
    bad = [
        (dict(name="BEN SMITH"), "player name 'BEN SMITH' already taken \\(id W-1234\\)"),
        (dict(name="Dee", id="W-1234"), "player id W-1234 already taken"),
        (dict(name="Dee", id="two words"), "player id 'two words': 1 to 40 characters"),
        (dict(name="Dee", id="bye"), "not BYE"),
        (dict(name="  "), "name '  ' is empty"),
        (dict(name="Dee", country="New Zealand"), "country 'New Zealand' must be one word"),
        (dict(name="Dee", rating="strong"), "rating 'strong' not a number"),
        (dict(name="Dee", joined_round=2, score=3), "given score 3 half points is more than 2"),
    ]
    for kwargs, msg in bad:
        with unchanged(path), pytest.raises(InvalidInputError, match=msg):
            t.add_player(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="unknown player 'Zed'"):
        t.player("Zed")
    entries: list[dict[str, object]] = [{"name": "Eve", "rating": 1700},
                                        {"name": "Fay", "id": "W-1234"}]
    with unchanged(path), pytest.raises(InvalidInputError, match="id W-1234 already taken"):
        t.add_players(entries)  # all or nothing: Eve is not added either
    with unchanged(path), pytest.raises(InvalidInputError, match="unknown field 'elo'"):
        t.add_players([{"name": "Eve", "elo": 1700}])
    added = t.add_players([entries[0], {"name": "Fay"}])
    assert [(p.id, p.name, p.seq) for p in added] == [("5", "Eve", 6), ("6", "Fay", 7)]


# ------------------------------------------------------------------ a whole event
def test_tournament_round_by_round(tmp_path: Path) -> None:
    """9 players, 5 rounds; a forbidden pair, a withdrawal after round 2, a late entry
    at round 3 with one win given; every round re-reads the same history."""
    pair = engine()
    rng = np.random.default_rng(5)
    t = new_tournament(tmp_path, 9)
    t.forbid("Player A", "Player B")
    inputs: dict[int, RoundInput] = {}
    for k in range(1, 6):
        if k == 3:
            t.withdraw("Player I")
            late = t.add_player("Late Comer", id="L", rating=1900.0, score=2)
            assert late.joined_round == 3
        ri = t.round_input()
        inputs[k] = ri
        assert ri.round_no == k and [p.rank for p in ri.players] == list(
            range(1, len(ri.players) + 1))
        pairing = pair(ri)
        t.store_pairing(pairing)
        stored = t.pairing(k)
        assert {(x.number, x.black, x.white) for x in stored.tables} == {
            (x.number, x.black, x.white) if x.black != BYE else (x.number, x.white, BYE)
            for x in pairing.tables}
        play_round(t, k, rng)
        assert t.missing_results(k) == ()
    # the engine's input of every round is rebuilt identically from the history
    for k, ri in inputs.items():
        assert t.round_input(k) == ri
        assert pair(t.round_input(k)).tables == t.pairing(k).tables  # re-pairing: same
    games = t.games()
    assert not any({g.black, g.white} == {"1", "2"} for g in games)
    assert not any("9" in g.players() for g in games if g.round_no >= 3)
    assert not any("L" in g.players() for g in games if g.round_no < 3)
    byes = [g.black for g in games if g.is_bye]
    assert len(byes) == len(set(byes)) == 5  # 9 players every round: never a second bye
    # standings agree with a count by hand
    half = {p.id: p.initial_score for p in t.players()}
    for g in games:
        for pid in g.players():
            half[pid] += g.score_of(pid)
    table = t.standings()
    assert {s.id: s.score for s in table} == half
    assert [s.score for s in table] == sorted((s.score for s in table), reverse=True)
    assert next(s for s in table if s.id == "9").withdrawn
    # a round cannot be paired twice, nor a round beyond the next one
    with pytest.raises(InvalidInputError, match="round 7: cannot pair \\(rounds 1..6\\)"):
        t.round_input(7)


def test_round_input_needs_every_earlier_result(tmp_path: Path) -> None:
    t = new_tournament(tmp_path, 4)
    t.store_pairing(simple_pair(t.round_input()))
    t.set_result(1, 1, 40, 24)
    with pytest.raises(InvalidInputError, match="round 1: no result yet at table 2"):
        t.round_input(2)
    with unchanged(tmp_path / "t.gpt"), pytest.raises(InvalidInputError,
                                                       match="round 1: no result yet"):
        t.store_pairing(Pairing(2, (Table(1, "1", "3", 0), Table(2, "2", "4", 0)), 0, "x"))


# ------------------------------------------------------------------ bad input
@pytest.fixture
def round_one(tmp_path: Path) -> Tournament:
    """Five players, round 1 paired: 1-2, 3-4, 5 has the bye; table 1 played 40-24."""
    t = new_tournament(tmp_path, 5)
    t.store_pairing(Pairing(1, (Table(1, "1", "2", 3), Table(2, "3", "4", 0),
                                Table(3, BYE, "5", 0)), 3, "test"))
    t.set_result(1, 1, 40, 24)
    return t


@pytest.mark.parametrize(("args", "msg"), [
    ((1, 1, 40, 24), "^round 1 table 1: result already entered \\(1 40-24 2\\)"),
    ((1, "Player A", 30, 34), "^round 1 table 1: result already entered"),
    ((1, 3, 40, 24), "^round 1 table 3: 5 has a bye; there is no result$"),
    ((2, 1, 40, 24), "^round 2 is not paired$"),
    ((1, 9, 40, 24), "^round 1 has no table 9$"),
    ((1, "Nobody", 40, 24), "^unknown player 'Nobody'"),
    ((1, 2, 65, 0), "^round 1 table 2: black discs 65 not in 0..64$"),
    ((1, 2, 40, 30), "^round 1 table 2: discs 40-30 add up to 70 > 64$"),
    ((1, "4", -1, 30), "^round 1 table 2: black discs -1 not in 0..64$"),
])
def test_bad_results_leave_the_store_unchanged(round_one: Tournament, args: tuple,
                                                msg: str) -> None:
    with unchanged(round_one.path), pytest.raises(InvalidInputError, match=msg):
        round_one.set_result(*args)


def test_result_by_player_and_correction(round_one: Tournament) -> None:
    g = round_one.set_result(1, "Player D", 20, 10)  # by the white player's name
    assert (g.table, g.black, g.result) == (2, "3", Outcome.BLACK)
    assert round_one.games(1)[2].is_bye and round_one.games(1)[2].black == "5"
    g = round_one.set_result(1, 1, 30, 34, replace=True)
    assert g.result is Outcome.WHITE and round_one.games(1)[0].white_discs == 34
    with pytest.raises(InvalidInputError, match="neither a table nor a player"):
        round_one.set_result(1, 2.0, 40, 24)  # type: ignore[arg-type]


def test_a_results_sheet_is_all_or_nothing(round_one: Tournament) -> None:
    # round 1: table 1 played, table 2 open, table 3 the bye
    with unchanged(round_one.path), pytest.raises(InvalidInputError,
                                                  match="^round 1 table 3: 5 has a bye"):
        round_one.set_results(1, [(2, 33, 31), (3, 40, 24)])
    assert round_one.missing_results(1) == (2,)
    done = round_one.set_results(1, [("Player C", 33, 31), (1, 24, 40)], replace=True)
    assert [g.result for g in done] == [Outcome.BLACK, Outcome.WHITE]


@pytest.mark.parametrize(("tables", "msg"), [
    (((1, "1", "2"), (2, "3", "4")), "round 2: active player 5 not paired"),
    (((1, "1", "2"), (2, "3", "4"), (3, "5", "1")), "round 2: player 1 paired twice"),
    (((1, "1", "2"), (2, "3", "4"), (3, "5", "X")), "table 3: unknown player 'X'"),
    (((1, "1", "2"), (1, "3", "4"), (3, "5", BYE)), "table number 1 repeated"),
    (((1, "1", "3"), (2, "2", BYE), (3, "4", "5")), "table 1: 1 and 3 are a forbidden pair"),
    (((1, "1", "2"), (2, "3", BYE), (3, "4", BYE), (4, "5", BYE)), "3 byes for 5 players"),
])
def test_bad_pairings_leave_the_store_unchanged(round_one: Tournament, tables: tuple,
                                                 msg: str) -> None:
    round_one.set_result(1, 2, 33, 31)
    round_one.forbid("1", "3")
    pairing = Pairing(2, tuple(Table(n, b, w, 0) for n, b, w in tables), 0, "test")
    with unchanged(round_one.path), pytest.raises(InvalidInputError, match=msg):
        round_one.store_pairing(pairing)
    wrong_round = Pairing(3, pairing.tables, 0, "test")
    with pytest.raises(InvalidInputError, match="round 3: the next round to pair is 2"):
        round_one.store_pairing(wrong_round)


def test_withdrawal_rules(round_one: Tournament) -> None:
    path = round_one.path
    with unchanged(path), pytest.raises(InvalidInputError,
                                        match="player 3 \\(Player C\\) is paired in round 1 "
                                              "table 2; change that pairing first"):
        round_one.withdraw("3", from_round=1)
    p = round_one.withdraw("Player C")
    assert p.withdrawn_round == 2
    with unchanged(path), pytest.raises(InvalidInputError, match="already withdrawn from "
                                                                 "round 2"):
        round_one.withdraw("3")
    round_one.set_result(1, 2, 33, 31)
    assert "3" not in {s.id for s in round_one.round_input().players}
    with unchanged(path), pytest.raises(InvalidInputError,
                                        match="table 1: player 3 is not active in round 2"):
        round_one.store_pairing(Pairing(2, (Table(1, "1", "3", 0), Table(2, "2", "4", 0),
                                            Table(3, "5", BYE, 0)), 0, "x"))


def test_forbid_and_allow(round_one: Tournament) -> None:
    round_one.forbid("Player A", "5")
    assert round_one.forbidden_pairs() == frozenset({frozenset({"1", "5"})})
    with pytest.raises(InvalidInputError, match="forbidden pair: 1 twice"):
        round_one.forbid("1", "Player A")
    round_one.allow("5", "1")
    with unchanged(round_one.path), pytest.raises(InvalidInputError, match="not forbidden"):
        round_one.allow("5", "1")


# ------------------------------------------------------------------ manual changes
def test_manual_swap_warns_instead_of_refusing(tmp_path: Path) -> None:
    t = new_tournament(tmp_path, 4)
    t.store_pairing(Pairing(1, (Table(1, "1", "2", 0), Table(2, "3", "4", 0)), 0, "x"))
    t.set_result(1, 1, 40, 24)
    t.set_result(1, 2, 40, 24)
    t.forbid("1", "4")
    t.store_pairing(Pairing(2, (Table(1, "1", "3", 5), Table(2, "4", "2", 7)), 12, "exact"))
    warnings = t.swap_players(2, "3", "4")  # tables: 1-4 (forbidden), 3-2; BB and WW
    assert [w.kind for w in warnings] == ["forbidden"] + ["colour"] * 4
    assert str(warnings[1]) == "round 2 table 1: 1 would have +2 blacks over whites"
    assert [(x.black, x.white) for x in t.pairing(2).tables] == [("1", "4"), ("3", "2")]
    assert t.pairing(2).method == "exact+manual" and t.pairing(2).total_cost == 0
    assert t.pairing(2).tables[0].terms == {"manual": 0}
    warnings = t.swap_players(2, "3", "1")  # tables: 3-4 (rematch), 1-2 (rematch)
    assert sorted(w.kind for w in warnings) == ["colour"] * 4 + ["rematch"] * 2
    warnings = t.swap_players(2, "1", "2")  # same table: colours swap, now balanced
    assert [w.kind for w in warnings] == ["rematch"]
    assert (t.pairing(2).tables[1].black, t.pairing(2).tables[1].white) == ("2", "1")
    t.set_result(2, 1, 40, 24)
    with unchanged(t.path), pytest.raises(InvalidInputError, match="round 2 table 1: "
                                                                   "already played"):
        t.swap_players(2, "3", "1")
    with pytest.raises(InvalidInputError, match="only the last paired round \\(2\\)"):
        t.swap_players(1, "1", "3")


def test_replace_player_fills_the_bye_with_a_late_entry(round_one: Tournament) -> None:
    round_one.set_result(1, 2, 33, 31)
    round_one.store_pairing(Pairing(2, (Table(1, "5", "1", 0), Table(2, "2", "3", 0),
                                        Table(3, "4", BYE, 0)), 0, "test"))
    late = round_one.add_player("Late", id="L", joined_round=2)
    assert round_one.replace_player(2, BYE, late.id) == []
    tables = round_one.pairing(2).tables
    assert (tables[2].black, tables[2].white) == ("4", "L")
    assert not round_one.games(2)[2].has_result  # a game now, no longer a won bye
    warnings = round_one.replace_player(2, "1", BYE)  # 1 leaves: 5 gets the bye
    assert [w.kind for w in warnings] == ["bye", "absent"]
    assert round_one.games(2)[0].is_bye and round_one.games(2)[0].black == "5"
    with pytest.raises(InvalidInputError, match="player 2 \\(Player B\\) is already paired"):
        round_one.replace_player(2, "3", "2")
    round_one.withdraw("1", from_round=2)  # absent from round 2, so now withdrawn
    with pytest.raises(InvalidInputError, match="player 1 \\(Player A\\) is not active"):
        round_one.replace_player(2, "3", "1")


def test_delete_round(round_one: Tournament) -> None:
    with unchanged(round_one.path), pytest.raises(InvalidInputError,
                                                  match="results already entered at table 1"):
        round_one.delete_round(1)
    round_one.set_result(1, 1, 10, 20, replace=True)
    fresh = new_tournament(round_one.path.parent, 4, name="u.gpt")
    fresh.store_pairing(simple_pair(fresh.round_input()))
    fresh.delete_round(1)
    assert fresh.last_round == 0 and fresh.games() == ()


# ------------------------------------------------------------------ crash safety
CHILD = r"""
import sys
import time
from gameopt.pairing.model import Pairing, Table
from gameopt.pairing.store import Tournament

t = Tournament.open(sys.argv[1])
hold = int(sys.argv[2])  # > 0: stop inside the hold-th writing transaction, before COMMIT
writes = [0, False]

def trace(sql):
    if sql.startswith(("INSERT", "UPDATE")):
        writes[1] = True
    elif sql == "COMMIT" and writes[1]:
        writes[0] += 1
        writes[1] = False
        if writes[0] == hold:
            print("inside", flush=True)
            time.sleep(60)

t._con.set_trace_callback(trace)
ids = [p.id for p in t.players()]
n = len(ids)
for k in range(1, 200):
    rot = ids[1:][k % (n - 1):] + ids[1:][:k % (n - 1)]   # the circle method
    ring = [ids[0]] + rot
    tables = tuple(Table(i + 1, ring[i], ring[n - 1 - i], 0) for i in range(n // 2))
    t.store_pairing(Pairing(k, tables, 0, "circle"))
    print("pair", k, flush=True)
    for table in range(1, n // 2 + 1):
        b = (7 * k + 13 * table) % 65
        w = (3 * k + table) % (65 - b)
        t.set_result(k, table, b, w)
        print("result", k, table, b, w, flush=True)
"""


def crash(path: Path, lines: int = 0, hold: int = 0) -> list[list[str]]:
    """Run the writer and SIGKILL it after ``lines`` printed commits, or once it stops
    inside transaction ``hold``; return every commit it printed."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(hold)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line.split())
        if (hold and seen[-1] == ["inside"]) or (lines and len(seen) >= lines):
            os.kill(proc.pid, signal.SIGKILL)
            break
    seen += [line.split() for line in proc.stdout]  # printed before the kill
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the writer ended before it was killed"
    return [line for line in seen if line != ["inside"]]


@pytest.mark.parametrize(("lines", "hold"), [(3, 0), (17, 0), (40, 0), (0, 12)])
def test_kill_during_writes_keeps_every_committed_result(tmp_path: Path, lines: int,
                                                         hold: int) -> None:
    """Killed at a random point of its work (``lines``), or surely inside a transaction
    whose pages are already in the journal (``hold``): every commit that returned is
    there, nothing else but possibly the commit in flight, and no round is half stored."""
    new_tournament(tmp_path, 40).close()
    path = tmp_path / "t.gpt"
    done = crash(path, lines, hold)
    if hold:
        assert path.with_name(path.name + "-journal").exists()  # a hot journal
    con = sqlite3.connect(path)  # rolls a hot journal back, if any
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    with Tournament.open(path) as t:
        games = {(g.round_no, g.table): g for g in t.games()}
        for line in done:
            if line[0] == "pair":
                assert t.pairing(int(line[1])).tables  # committed round is there
            else:
                k, table, b, w = map(int, line[1:])
                g = games[(k, table)]
                assert (g.black_discs, g.white_discs) == (b, w)
        # no half-stored round: every stored round has all 20 tables
        for r in t.rounds():
            assert len(t.games(r.round_no)) == 20
        entered = sum(g.has_result for g in games.values())
        printed = sum(line[0] == "result" for line in done)
        assert printed <= entered <= printed + (0 if hold else 1)
