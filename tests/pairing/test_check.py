"""``check_round``: every rule a stored or imported round breaks, named once each."""

from __future__ import annotations

from pathlib import Path

import pytest

from gameopt.cli.main import main
from gameopt.errors import InvalidInputError
from gameopt.pairing.check import check_round
from gameopt.pairing.formats import write_trf
from gameopt.pairing.model import BYE
from gameopt.pairing.pairer import pair_round
from gameopt.pairing.penalties import PenaltyParams
from gameopt.pairing.records import GameRecord, Outcome, PlayerRecord
from gameopt.pairing.store import Tournament


def _players(n: int) -> list[PlayerRecord]:
    return [PlayerRecord(str(i), f"P{i}", rating=2000.0 - i, seq=i) for i in range(1, n + 1)]


def _won(k: int, t: int, b: str, w: str) -> GameRecord:
    return GameRecord(k, t, b, w, 40, 24)


def test_each_rule_is_named() -> None:
    players = _players(7)
    games = [_won(1, 1, "1", "2"), _won(1, 2, "3", "4"), _won(1, 3, "5", "6"),
             GameRecord(1, 4, "7", BYE),
             _won(2, 1, "1", "3"), _won(2, 2, "2", "7"),
             GameRecord(2, 3, "4", "5", result=Outcome.WHITE, forfeit=True),
             GameRecord(2, 4, "6", BYE),
             # round 3: 1 and 2 meet again, 3 and 4 (forbidden) too, 7 gets a second bye
             # although 4 has none, 1 has black a third time, 5 is left out
             _won(3, 1, "1", "2"), _won(3, 2, "3", "4"), _won(3, 3, "6", "7"),
             GameRecord(3, 4, "7", BYE)]
    found = check_round(players, games, 3, frozenset({frozenset(("3", "4"))}))
    rules = [b.rule for b in found]
    assert rules == ["unpaired", "unpaired", "forbidden", "rematch", "rematch",
                     "second-bye", "bye-order", "colour-run", "colour-difference"], \
        [str(b) for b in found]
    assert str(found[0]) == "round 3: unpaired: 7 is paired 2 times"
    assert "5 is active but not paired" in str(found[1])
    assert str(found[3]) == "round 3 table 1: rematch: 1 and 2 already played in round 1"
    assert "second-bye: 7 already scored 1 point without playing" in str(found[5])
    assert "the bye is with 7; 4 is the lowest-ranked" in str(found[6])
    assert str(found[7]) == "round 3 table 1: colour-run: 1 has black a third time in a row"
    assert str(found[8]) == "round 3 table 1: colour-difference: 1 has +3 blacks over whites"


def test_byes_colour_difference_and_optimality() -> None:
    players = _players(5)
    games = [_won(1, 1, "1", "2"), _won(1, 2, "3", "4"), GameRecord(1, 3, "5", BYE),
             _won(2, 1, "1", "3"), _won(2, 2, "4", "2"), GameRecord(2, 3, "5", BYE)]
    found = check_round(players, games, 2)
    rules = {b.rule for b in found}
    assert {"second-bye", "bye-order"} <= rules
    # round 2 as the exact method pairs it breaks nothing
    from gameopt.pairing.standings import build_round_input

    ri = build_round_input(2, players, games[:3])
    best = pair_round(ri)
    good = games[:3] + [GameRecord(2, t.number, t.black, t.white) for t in best.tables]
    assert check_round(players, good, 2) == []
    # the same players with the colours reversed at every table: colour is worse
    worse = games[:3] + [GameRecord(2, t.number, t.white, t.black) if t.white != BYE
                         else GameRecord(2, t.number, t.black, BYE) for t in best.tables]
    found = check_round(players, worse, 2)
    assert [str(b) for b in found] == [  # the defaults: the halves term ranked with colour
        "round 2: not-optimal: (other terms, colour-tier breaks, colour and halves) = "
        "(404, 0, 22); the exact pairing has (404, 0, 1)"]
    papp = PenaltyParams.papp()
    best = pair_round(ri, papp)
    worse = games[:3] + [GameRecord(2, t.number, t.white, t.black) if t.white != BYE
                         else GameRecord(2, t.number, t.black, BYE) for t in best.tables]
    assert [str(b) for b in check_round(players, worse, 2, params=papp)] == [
        "round 2: not-optimal: (other terms, colour-tier breaks, colour) = (404, 0, 21); "
        "the exact pairing has (404, 0, 0)"]
    d = [GameRecord(1, 1, "1", "2", 40, 24), GameRecord(2, 1, "1", "2", 40, 24),
         GameRecord(3, 1, "1", "2", 40, 24)]
    found = check_round(_players(2), d, 3, optimality=False)
    assert [b.rule for b in found] == ["rematch", "colour-run", "colour-run",
                                       "colour-difference", "colour-difference"]
    with pytest.raises(InvalidInputError, match="round 9 has no table"):
        check_round(players, games, 9)


def test_a_pairing_worse_only_on_the_halves_term_is_not_optimal() -> None:
    # Round 1 of four: 1-2, 3-4 has no colour cost, but the defaults pair 1-3, 4-2.
    players = _players(4)
    neighbours = [GameRecord(1, 1, "1", "2"), GameRecord(1, 2, "3", "4")]
    assert [str(b) for b in check_round(players, neighbours, 1)] == [
        "round 1: not-optimal: (other terms, colour-tier breaks, colour and halves) = "
        "(0, 0, 2); the exact pairing has (0, 0, 0)"]
    assert check_round(players, neighbours, 1, params=PenaltyParams.papp()) == []
    halves = [GameRecord(1, 1, "1", "3"), GameRecord(1, 2, "4", "2")]
    assert check_round(players, halves, 1) == []


def test_check_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.sqlite"
    t = Tournament.create(db, "T", rounds=3)
    for i in range(5):
        t.add_player(f"P{i + 1}")
    t.store_pairing(pair_round(t.round_input()))
    for g in t.games(1):
        if not g.is_bye:
            t.set_result(1, g.table, 40, 24)
    t.store_pairing(pair_round(t.round_input()))
    t.close()
    assert main(["pair", "check", str(db)]) == 0
    assert capsys.readouterr().out == "round 1: no rule broken\nround 2: no rule broken\n"
    with Tournament.open(db) as t:
        g = t.games(2)[0]
        t.swap_players(2, g.black, g.white)
        write_trf(tmp_path / "t.trf", t.snapshot())
    assert main(["pair", "check", str(db), "--round", "2"]) == 1
    out = capsys.readouterr().out
    assert "round 2: not-optimal:" in out
    assert main(["pair", "check", str(tmp_path / "t.trf"), "--round", "1"]) == 0
    assert main(["pair", "check", str(db), "--round", "7"]) == 2
    assert "round 7 is not paired (rounds 1, 2)" in capsys.readouterr().err
