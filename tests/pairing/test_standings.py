"""Standings and tie-breaks on hand-computed examples; the other pure record functions."""

from __future__ import annotations

import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing.model import BYE, Colour, Table
from gameopt.pairing.records import (
    GameRecord,
    Outcome,
    PlayerRecord,
    check_discs,
    check_pairing,
    final_discs,
    pairing_warnings,
    require_complete,
)
from gameopt.pairing.standings import build_round_input, compute_standings


def players(*ids: str, ratings: dict[str, float] | None = None) -> list[PlayerRecord]:
    ratings = ratings or {}
    return [PlayerRecord(pid, f"Player {pid}", seq=i, rating=ratings.get(pid))
            for i, pid in enumerate(ids, start=1)]


# ------------------------------------------------------------------ the worked example
# Five players; D withdraws from round 3.
#   R1  t1 A-B 40-24 (A wins)       t2 C-D 30-30 (draw, 4 empty)    t3 E bye
#   R2  t1 E-A 33-31 (E wins)       t2 B-C 20-10 (B wins, 34 empty) t3 D bye
#   R3  t1 A-C 64-0  (A wins)       t2 B-E 32-32 (draw)
# Scores (half points): A 2+0+2=4, B 0+2+1=3, C 1+0+0=1, D 1+2=3, E 2+2+1=5.
# Final discs (empties to the winner, a draw 32-32, a bye 32):
#   A 40+31+64=135  B 24+54+32=110  C 32+10+0=42  D 32+32=64  E 32+33+32=97
# Brightwell (C=6, points = half/2):
#   A 135 + 6(1.5+2.5+0.5)                     = 162
#   B 110 + 6(2+0.5+2.5)                       = 140
#   C (10+0) + 6(1.5+2) + [D withdrew] 32+6(.5) = 31 + 35 = 66
#   D (32 + 6(0.5)) + [bye] 32+6(1.5)           = 35 + 41 = 76
#   E [bye] 32+6(2.5) + 33+6(2) + 32+6(1.5)     = 47 + 45 + 41 = 133
# Buchholz (half points; bye / withdrawn opponent = own score):
#   A 3+5+1=9  B 4+1+5=10  C 1+3+4=8  D 1+3=4  E 5+4+3=12
def worked() -> tuple[list[PlayerRecord], list[GameRecord]]:
    ps = players("A", "B", "C", "D", "E")
    ps[3] = PlayerRecord("D", "Player D", seq=4, withdrawn_round=3)
    games = [
        GameRecord(1, 1, "A", "B", 40, 24), GameRecord(1, 2, "C", "D", 30, 30),
        GameRecord(1, 3, "E", BYE),
        GameRecord(2, 1, "E", "A", 33, 31), GameRecord(2, 2, "B", "C", 20, 10),
        GameRecord(2, 3, "D", BYE),
        GameRecord(3, 1, "A", "C", 64, 0), GameRecord(3, 2, "B", "E", 32, 32),
    ]
    return ps, games


def test_worked_example_brightwell_discs_and_order() -> None:
    ps, games = worked()
    table = compute_standings(ps, games)
    got = {s.id: (s.score, s.brightwell, s.discs, s.buchholz) for s in table}
    assert got == {"A": (4, 162, 135, 9), "B": (3, 140, 110, 10), "C": (1, 66, 42, 8),
                   "D": (3, 76, 64, 4), "E": (5, 133, 97, 12)}
    assert [s.id for s in table] == ["E", "A", "B", "D", "C"]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    d = next(s for s in table if s.id == "D")
    assert d.withdrawn and d.byes == 1 and (d.wins, d.draws, d.losses) == (0, 1, 0)
    assert d.points == 1.5 and d.games == 1


def test_withdrawal_counts_only_once_it_has_happened() -> None:
    ps, games = worked()
    # After round 2, D has not withdrawn yet: C's game with D counts as played.
    table = {s.id: s for s in compute_standings(ps, games, through_round=2)}
    assert not table["D"].withdrawn
    # C: discs 32 + 10, opponents D (3 half points after R2) and B (2 half points)
    assert table["C"].brightwell == 42 + 3 * (3 + 2)


def test_buchholz_first_and_factor() -> None:
    ps, games = worked()
    by_buch = compute_standings(ps, games, tiebreaks=("buchholz",))
    assert [s.id for s in by_buch] == ["E", "A", "B", "D", "C"]
    c3 = {s.id: s.brightwell for s in compute_standings(ps, games, brightwell_factor=3)}
    assert c3["A"] == 135 + 3 * 4.5 and c3["E"] == 32 + 7.5 + 33 + 6 + 32 + 4.5


def test_ties_share_a_rank_and_order_by_rating_then_entry() -> None:
    ps = players("P", "Q", "X", "Y", ratings={"Q": 2000.0})
    games = [GameRecord(1, 1, "P", "X", 40, 24), GameRecord(1, 2, "Q", "Y", 40, 24)]
    table = compute_standings(ps, games)
    assert [(s.id, s.rank) for s in table] == [("Q", 1), ("P", 1), ("X", 3), ("Y", 3)]
    games[0] = GameRecord(1, 1, "P", "X", 50, 14)
    table = compute_standings(ps, games)
    assert [(s.id, s.rank) for s in table][:2] == [("P", 1), ("Q", 2)]


def test_discs_break_a_brightwell_tie() -> None:
    # P beats X 46-18, X ends on 0 points:  BQ 46 + 6 x 0 = 46, discs 46.
    # Q beats Y 40-24, Y ends on 1 point:   BQ 40 + 6 x 1 = 46, discs 40.
    ps = players("P", "Q", "X", "Y", "Z", "W")
    games = [GameRecord(1, 1, "P", "X", 46, 18), GameRecord(1, 2, "Q", "Y", 40, 24),
             GameRecord(1, 3, "Z", "W", 32, 32),
             GameRecord(2, 1, "Z", "X", 40, 24), GameRecord(2, 2, "Y", "W", 40, 24)]
    table = {s.id: s for s in compute_standings(ps, games)}
    assert table["P"].brightwell == table["Q"].brightwell == 46
    assert (table["P"].discs, table["Q"].discs) == (46, 40)
    order = [s.id for s in compute_standings(ps, games)]
    assert order.index("P") + 1 == order.index("Q")
    assert table["P"].rank + 1 == table["Q"].rank
    only_bq = {s.id: s.rank for s in compute_standings(ps, games, tiebreaks=("brightwell",))}
    assert only_bq["P"] == only_bq["Q"]


def test_late_entry_given_score_counts_for_everyone() -> None:
    ps = players("A", "B", "C")
    ps.append(PlayerRecord("L", "Late", seq=4, joined_round=2, initial_score=1))
    games = [GameRecord(1, 1, "A", "B", 40, 24), GameRecord(1, 2, "C", BYE),
             GameRecord(2, 1, "L", "A", 34, 30), GameRecord(2, 2, "B", "C", 10, 20)]
    table = {s.id: s for s in compute_standings(ps, games)}
    assert table["L"].score == 3
    assert table["A"].brightwell == 40 + 3 * 0 + 30 + 3 * 3  # B has 0, L has 3 half points


def test_unplayed_games_and_later_rounds_are_ignored() -> None:
    ps = players("A", "B")
    games = [GameRecord(1, 1, "A", "B", 40, 24), GameRecord(2, 1, "B", "A")]
    assert [s.score for s in compute_standings(ps, games)] == [2, 0]
    assert [s.score for s in compute_standings(ps, games, through_round=0)] == [0, 0]


def test_standings_input_errors() -> None:
    ps, games = worked()
    with pytest.raises(InvalidInputError, match="unknown tie-break 'median'"):
        compute_standings(ps, games, tiebreaks=("median",))
    with pytest.raises(InvalidInputError, match="factor -1"):
        compute_standings(ps, games, brightwell_factor=-1)
    with pytest.raises(InvalidInputError, match="round 1 table 1: unknown player 'Z'"):
        compute_standings(ps, [GameRecord(1, 1, "Z", "A", 40, 24)])


# ------------------------------------------------------------------ results
def test_final_discs_give_empties_to_the_winner() -> None:
    assert final_discs(40, 24) == (40, 24)
    assert final_discs(20, 10) == (54, 10)
    assert final_discs(10, 20) == (10, 54)
    assert final_discs(30, 30) == (32, 32)
    assert final_discs(0, 0) == (32, 32)
    assert final_discs(13, 0) == (64, 0)


@pytest.mark.parametrize(("b", "w", "msg"), [
    (65, 0, "black discs 65 not in 0..64"),
    (0, -1, "white discs -1 not in 0..64"),
    (40, 30, "discs 40-30 add up to 70 > 64"),
    (40.0, 20, "black discs must be an integer, got 40.0"),
    (True, 20, "black discs must be an integer"),
])
def test_check_discs(b: object, w: object, msg: str) -> None:
    with pytest.raises(InvalidInputError, match=f"^round 2 table 7: {msg}"):
        check_discs(b, w, "round 2 table 7")


def test_game_record_consistency() -> None:
    assert GameRecord(1, 1, "A", "B", 30, 34).result is Outcome.WHITE
    assert GameRecord(1, 1, "A", BYE).result is Outcome.BLACK
    assert GameRecord(1, 1, "A", "B").result is None
    with pytest.raises(InvalidInputError, match="result B contradicts discs 30-34"):
        GameRecord(1, 1, "A", "B", 30, 34, Outcome.BLACK)
    with pytest.raises(InvalidInputError, match="a bye has no disc counts"):
        GameRecord(1, 1, "A", BYE, 32, 0)
    with pytest.raises(InvalidInputError, match="only one disc count"):
        GameRecord(1, 1, "A", "B", 32, None)
    with pytest.raises(InvalidInputError, match="bad players"):
        GameRecord(1, 1, "A", "A")
    g = GameRecord(1, 3, "A", "B", 20, 10)
    assert (g.score_of("A"), g.score_of("B"), g.discs_of("B")) == (2, 0, 10)
    with pytest.raises(InvalidInputError, match="'C' does not play here"):
        g.opponent("C")


# ------------------------------------------------------------------ history and checks
def test_build_round_input_history() -> None:
    ps, games = worked()
    ri = build_round_input(3, ps, [g for g in games if g.round_no < 3])
    assert [p.id for p in ri.players] == ["E", "A", "B", "C"]  # D withdrew from round 3
    assert [p.rank for p in ri.players] == [1, 2, 3, 4]
    e, a, b, c = ri.players
    assert e.colours == (Colour.BYE_, Colour.BLACK) and e.opponents == (None, "A")
    assert e.scores_before == (0, 2) and e.opponent_scores_before == (None, 2)
    assert (e.score, e.byes) == (4, 1)
    assert a.colours == (Colour.BLACK, Colour.WHITE) and a.scores_before == (0, 2)
    assert c.opponents == ("D", "B") and c.opponent_scores_before == (0, 0)
    assert (b.score, c.score) == (2, 1)


def test_build_round_input_late_entry_and_forbidden() -> None:
    ps = players("A", "B", "C")
    ps.append(PlayerRecord("L", "Late", seq=4, joined_round=2, initial_score=2))
    games = [GameRecord(1, 1, "A", "B", 40, 24), GameRecord(1, 2, "C", BYE)]
    forbidden = frozenset({frozenset({"A", "L"}), frozenset({"B", "Z"})})
    ri = build_round_input(2, ps, games, forbidden)
    late = next(p for p in ri.players if p.id == "L")
    assert late.colours == (Colour.BYE_,) and late.byes == 0
    assert late.score == 2 and late.scores_before == (0,)
    assert ri.forbidden == frozenset({frozenset({"A", "L"})})


def test_check_pairing_and_complete() -> None:
    ps = players("A", "B", "C")
    ok = [Table(1, "A", "B", 0), Table(2, "C", BYE, 0)]
    check_pairing(1, ok, ps, frozenset())
    with pytest.raises(InvalidInputError, match="round 1: active player C not paired"):
        check_pairing(1, ok[:1], ps, frozenset())
    with pytest.raises(InvalidInputError, match="forbidden pair"):
        check_pairing(1, ok, ps, frozenset({frozenset({"A", "B"})}))
    with pytest.raises(InvalidInputError, match="round 1: no result yet at table 2, 3"):
        require_complete([GameRecord(1, 1, "A", "B", 1, 0), GameRecord(1, 2, "C", "D"),
                          GameRecord(1, 3, "E", "F")], 2)


def test_pairing_warnings() -> None:
    games = [GameRecord(1, 1, "A", "B", 40, 24), GameRecord(1, 2, "C", BYE),
             GameRecord(2, 1, "A", "C", 40, 24), GameRecord(2, 2, "B", BYE)]
    tables = [Table(1, "A", "B", 0), Table(2, "C", BYE, 0)]
    w = pairing_warnings(3, tables, games, frozenset({frozenset({"A", "B"})}))
    assert sorted(x.kind for x in w) == ["bye", "colour", "colour", "forbidden", "rematch"]
    colour = {x.players: str(x) for x in w if x.kind == "colour"}
    assert colour == {("A",): "round 3 table 1: A would have +3 blacks over whites",
                      ("B",): "round 3 table 1: B would have -2 blacks over whites"}
    assert "already met in round 1" in next(str(x) for x in w if x.kind == "rematch")
