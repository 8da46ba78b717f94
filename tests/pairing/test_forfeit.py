"""Forfeits (no-shows) as results: records, standings, the engine's view, the store, files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing.formats import format_elo, parse_elo
from gameopt.pairing.model import BYE, Colour, Pairing, Table
from gameopt.pairing.records import GameRecord, Outcome, PlayerRecord, result_text
from gameopt.pairing.standings import build_round_input, compute_standings
from gameopt.pairing.store import SCHEMA_VERSION, Tournament


def _players(n: int) -> list[PlayerRecord]:
    return [PlayerRecord(str(i), f"P{i}", seq=i) for i in range(1, n + 1)]


def test_a_forfeit_record_checks_itself() -> None:
    g = GameRecord(1, 1, "1", "2", result=Outcome.WHITE, forfeit=True)
    assert (g.score_of("2"), g.score_of("1")) == (2, 0)
    assert (g.discs_of("2"), g.discs_of("1")) == (32, 0)
    assert not g.played and g.unearned_point("2") and not g.unearned_point("1")
    both = GameRecord(1, 1, "1", "2", result=Outcome.NEITHER, forfeit=True)
    assert both.score_of("1") == both.score_of("2") == 0
    with pytest.raises(InvalidInputError, match="no discs"):
        GameRecord(1, 1, "1", "2", 40, 24, forfeit=True)
    with pytest.raises(InvalidInputError, match="no discs"):
        GameRecord(1, 1, "1", "2", result=Outcome.DRAW, forfeit=True)
    with pytest.raises(InvalidInputError, match="only a forfeit"):
        GameRecord(1, 1, "1", "2", result=Outcome.NEITHER)
    with pytest.raises(InvalidInputError, match="bye"):
        GameRecord(1, 1, "1", BYE, forfeit=True)
    assert result_text(both) == "1 -:- 2, both forfeit"


def test_standings_score_a_forfeit_like_a_bye() -> None:
    # Round 1: 1 beats 2 40-24; 3 wins by forfeit against 4. Round 2: 1 v 3 draw 32-32,
    # 2 v 4 double forfeit.
    games = [GameRecord(1, 1, "1", "2", 40, 24),
             GameRecord(1, 2, "3", "4", result=Outcome.BLACK, forfeit=True),
             GameRecord(2, 1, "1", "3", 32, 32),
             GameRecord(2, 2, "2", "4", result=Outcome.NEITHER, forfeit=True)]
    rows = {s.id: s for s in compute_standings(_players(4), games)}
    assert [rows[p].score for p in "1234"] == [3, 0, 3, 0]
    assert (rows["3"].wins, rows["3"].forfeits, rows["3"].games) == (1, 1, 1)
    assert (rows["4"].losses, rows["4"].forfeits, rows["4"].games) == (2, 2, 0)
    # discs: a forfeit win 32, a forfeit loss 0
    assert rows["3"].discs == 32 + 32 and rows["4"].discs == 0
    # Brightwell (C = 6), by hand: player 3 = forfeit (32 + 6·1.5) + draw (32 + 6·1.5)
    assert rows["3"].brightwell == 32 + 9 + 32 + 9
    # player 4 = two forfeit losses, each 0 + 6·0
    assert rows["4"].brightwell == 0
    # player 1 = 40 + 6·0 (player 2) + 32 + 6·1.5 (player 3)
    assert rows["1"].brightwell == 40 + 32 + 9
    # Buchholz counts the own score for a forfeit
    assert rows["3"].buchholz == 3 + 3


def test_the_engine_sees_no_colour_no_opponent_and_a_bye_for_a_forfeit_win() -> None:
    games = [GameRecord(1, 1, "1", "2", result=Outcome.WHITE, forfeit=True),
             GameRecord(1, 2, "3", "4", 40, 24)]
    ri = build_round_input(2, _players(4), games)
    by = {p.id: p for p in ri.players}
    assert by["1"].colours == (Colour.BYE_,) and by["1"].opponents == (None,)
    assert by["2"].byes == 1 and by["1"].byes == 0
    assert by["3"].colours == (Colour.BLACK,) and by["3"].opponents == ("4",)


def _event(tmp_path: Path, n: int = 5) -> Tournament:
    t = Tournament.create(tmp_path / "t.gpt", "T", rounds=3)
    for i in range(n):
        t.add_player(f"P{i + 1}")
    t.store_pairing(Pairing(1, (Table(1, "1", "2", 0), Table(2, "3", "4", 0),
                                Table(3, "5", BYE, 0)), 0, "test"))
    return t


def test_store_forfeit_replace_and_refusals(tmp_path: Path) -> None:
    t = _event(tmp_path)
    g = t.set_forfeit(1, "P1")
    assert g.forfeit and g.result is Outcome.WHITE
    with pytest.raises(InvalidInputError, match="already entered .*forfeit.*--replace"):
        t.set_result(1, 1, 40, 24)
    with pytest.raises(InvalidInputError, match="has a bye"):
        t.set_forfeit(1, "5")
    assert t.set_result(1, 1, 40, 24, replace=True).forfeit is False
    assert t.set_forfeit(1, "2", replace=True).result is Outcome.BLACK
    t.set_forfeit(1, "3", both=True)
    stored = {g.table: g for g in t.games(1)}
    assert stored[1].forfeit and stored[1].result is Outcome.BLACK
    assert stored[2].result is Outcome.NEITHER
    # the round is complete: the next one can be paired, the forfeit winner gets no bye
    ri = t.round_input(2)
    assert {p.id: p.byes for p in ri.players} == {"1": 1, "2": 0, "3": 0, "4": 0, "5": 1}


def test_a_sheet_of_results_and_forfeits_is_one_transaction(tmp_path: Path) -> None:
    t = _event(tmp_path)
    # table 1's result is fine, the forfeit names the bye player: nothing is written
    with pytest.raises(InvalidInputError, match="has a bye"):
        t.set_results(1, [(1, 40, 24)], forfeits=[("5", False)])
    assert all(g.black_discs is None and not g.forfeit for g in t.games(1))
    # and a bad result after a good forfeit leaves the forfeit unwritten too
    with pytest.raises(InvalidInputError):
        t.set_results(1, [(2, 40, 40)], forfeits=[("P1", False)])
    assert not any(g.forfeit for g in t.games(1))
    done = t.set_results(1, [(2, 40, 24)], forfeits=[("P1", False)])
    assert [(g.table, g.forfeit) for g in done] == [(2, False), (1, True)]


def test_the_schema_refuses_an_inconsistent_forfeit(tmp_path: Path) -> None:
    _event(tmp_path).close()
    con = sqlite3.connect(tmp_path / "t.gpt")
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("UPDATE games SET forfeit = 1, black_discs = 40, white_discs = 24, "
                    "result = 'B' WHERE table_no = 1")
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("UPDATE games SET result = '0' WHERE table_no = 1")
    con.close()


def test_a_version_1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    t = _event(tmp_path)
    t.set_result(1, 1, 40, 24)
    t.close()
    # Rebuild the file as version 1 wrote it: games without the forfeit column.
    con = sqlite3.connect(tmp_path / "t.gpt")
    con.executescript("""
        CREATE TABLE g1 AS SELECT round_no, table_no, black, white, black_discs,
            white_discs, result, cost, terms FROM games;
        DROP TABLE games; ALTER TABLE g1 RENAME TO games;
        CREATE UNIQUE INDEX games_black ON games(round_no, black);
        CREATE UNIQUE INDEX games_white ON games(round_no, white) WHERE white <> 'BYE';
        UPDATE meta SET value = '1' WHERE key = 'schema_version';
        PRAGMA user_version = 1;""")
    con.close()
    with Tournament.open(tmp_path / "t.gpt") as t:
        assert [(g.table, g.black_discs) for g in t.games(1)] == [(1, 40), (2, None),
                                                                  (3, None)]
        t.set_forfeit(1, "3")
    con = sqlite3.connect(tmp_path / "t.gpt")
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()


def test_elo_round_trip_keeps_forfeits_withdrawals_and_late_entries(tmp_path: Path) -> None:
    t = _event(tmp_path, 5)
    t.set_result(1, 1, 40, 24)
    t.set_forfeit(1, "4")
    t.add_player("Late", joined_round=2, score=1)
    t.withdraw("P2", 2)
    t.store_pairing(Pairing(2, (Table(1, "1", "3", 0), Table(2, "4", "5", 0),
                                Table(3, "6", BYE, 0)), 0, "test"))
    data = t.snapshot()
    text = format_elo(data)
    assert "%Forfeit: 3 4 B" in text and "%Withdrawn: 2 2" in text and "%Late: 6 2 1" in text
    assert "%Round 2" not in text and "%Bye: 6" not in text  # round 2 not played yet
    back = parse_elo(text, "x.elo")
    by = {p.id: p for p in back.players}
    assert by["2"].withdrawn_round == 2 and (by["6"].joined_round, by["6"].initial_score) \
        == (2, 1)
    assert [g for g in back.games if g.forfeit] == [
        GameRecord(1, 2, "3", "4", result=Outcome.BLACK, forfeit=True)]
    with pytest.raises(InvalidInputError, match=r"x.elo:2: %Forfeit: result 'X'"):
        parse_elo("%%Tournament: T\n%Forfeit: 1 2 X\n", "x.elo")
