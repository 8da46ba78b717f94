"""The formats module: text and CSV sheets; WOF .ELO and TRF-like files written, read back
and imported; players and results sheets read."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing.formats import (
    format_elo,
    format_pairing,
    format_pairing_csv,
    format_pairing_run,
    format_pairing_terms,
    format_standings,
    format_standings_csv,
    format_trf,
    format_trf_legacy,
    import_tournament,
    parse_elo,
    parse_players_csv,
    parse_results_csv,
    parse_trf,
    read_players_csv,
    read_results_csv,
    read_tournament_file,
    write_elo,
    write_pairing_csv,
    write_standings_csv,
    write_tournament_file,
    write_trf,
)
from gameopt.pairing.model import BYE, Pairing, Table
from gameopt.pairing.records import GameRecord
from gameopt.pairing.store import Tournament, TournamentData
from tests.pairing.test_store import engine, new_tournament, play_round


@pytest.fixture
def small(tmp_path: Path) -> Tournament:
    """Five players, two rounds by hand: a bye, a draw, an unplayed game."""
    t = new_tournament(tmp_path, 5)
    t.store_pairing(Pairing(1, (Table(1, "1", "2", 4, {"colour": 4}), Table(2, "3", "4", 0),
                                Table(3, "5", BYE, 0)), 4, "exact"))
    t.set_result(1, 1, 40, 24)
    t.set_result(1, 2, 30, 30)
    t.store_pairing(Pairing(2, (Table(1, "5", "1", 0), Table(2, "2", "3", 0),
                                Table(3, "4", BYE, 0)), 0, "exact"))
    t.set_result(2, 1, 33, 31)
    return t


@pytest.fixture
def full(tmp_path: Path) -> Tournament:
    """A 5-round event with everything a file must carry: a late entry with a given score
    and a long name, a withdrawal, a forbidden pair, a manual change, an unplayed game."""
    pair = engine()
    rng = np.random.default_rng(11)
    t = new_tournament(tmp_path, 10, name="full.gpt")
    t.forbid("1", "2")
    for k in range(1, 6):
        if k == 2:
            t.add_player("Maximilian Alexander von Something-Longname", id="WOF-77",
                         country="DEU", rating=1712.25, score=1)
        if k == 3:
            t.withdraw("4")
        t.store_pairing(pair(t.round_input()))
        if k == 4:
            g = t.games(4)[0]
            t.swap_players(4, g.black, g.white)
        if k < 5:
            play_round(t, k, rng)
    games = t.games(5)
    assert len(games) == 5 and not any(g.is_bye for g in games)
    t.set_result(5, 2, 0, 0)  # a double forfeit scored 0-0: a draw
    t.set_result(5, 3, 13, 0)  # a wipe-out
    t.set_result(5, 4, 30, 31)
    t.set_result(5, 5, 33, 31)  # table 1 not played yet
    return t


# ------------------------------------------------------------------ text and CSV
def test_pairing_text_and_csv(small: Tournament) -> None:
    text = format_pairing(small.pairing(2), small.players(), small.standings(1))
    lines = text.splitlines()
    assert lines[0] == "Round 2 (exact, total cost 0)"
    assert "| 1     | Player E | 5        | 1.0          | Player A | 1        | 1.0" in text
    assert "| BYE " in lines[-1]
    rows = list(csv.DictReader(io.StringIO(format_pairing_csv(small.pairing(1), small.players()))))
    assert rows[0] == {"round": "1", "table": "1", "black": "Player A", "black_id": "1",
                       "black_points": "", "white": "Player B", "white_id": "2",
                       "white_points": "", "cost": "4"}
    assert rows[2]["white"] == "BYE" and rows[2]["white_id"] == ""


def test_standings_text_and_csv(small: Tournament) -> None:
    table = small.standings()
    rows = list(csv.DictReader(io.StringIO(format_standings_csv(table))))
    assert [r["id"] for r in rows] == ["5", "4", "1", "3", "2"]
    assert rows[0] == {"rank": "1", "name": "Player E", "id": "5", "country": "FRA",
                       "points": "2.0", "brightwell": "83", "discs": "65", "w-d-l": "1-0-0",
                       "byes": "1", "withdrawn": ""}
    # E: bye 32 + 6 x 2 (own points) + 33 + 6 x 1 (A's points) = 83
    # D: 32 + 6 x 0.5 (C's points) + bye 32 + 6 x 1.5 (own points) = 76
    assert (rows[1]["points"], rows[1]["brightwell"], rows[1]["byes"]) == ("1.5", "76", "1")
    text = format_standings(table, ("buchholz",))
    assert text.splitlines()[0].split("|")[1:-1] == [
        " rank ", " name     ", " id ", " country ", " points ", " buchholz ", " w-d-l ",
        " byes ", " out "]


# ------------------------------------------------------------------ WOF .ELO
ELO_SMALL = """\
%%Tournament: Test Open
%%Country: JPN
%%Date: 01/05/2024
%%Sender: gameopt
%
%Player: 1 FRA Player A
%Player: 2 JPN Player B
%Player: 3 FRA Player C
%Player: 4 JPN Player D
%Player: 5 FRA Player E
%Round 1
1 (40)>(24) 2 B
3 (30)=(30) 4 B
%Bye: 5
%Round 2
5 (33)>(31) 1 B
%Bye: 4
"""


def test_elo_format(small: Tournament) -> None:
    assert format_elo(small.snapshot()) == ELO_SMALL  # the unplayed 2-3 is left out


def test_elo_round_trip_through_a_file_and_a_store(small: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "small.elo"
    write_tournament_file(path, small.snapshot())
    with import_tournament(path, tmp_path / "imported.gpt") as t:
        got = t.snapshot()
    want = small.snapshot()
    assert [(p.id, p.name, p.country) for p in got.players] == [
        (p.id, p.name, p.country) for p in want.players]
    # the unplayed game is not in the file, so table numbers after it move up
    def games(d: TournamentData) -> set[tuple[object, ...]]:
        return {(g.round_no, g.black, g.white, g.black_discs, g.white_discs, g.result)
                for g in d.games if g.has_result}

    assert games(got) == games(want) and len(got.games) == 5  # 3 games, 2 byes
    assert (got.info.name, got.info.country, got.info.date) == ("Test Open", "JPN",
                                                                "2024-05-01")


def test_elo_from_another_program() -> None:
    text = """%%Tournament: Paris Open
%%Country: FRA
%%Date: 21/11/2002
%%Sender: someone
% results in file order, white first here, no round markers

3752 (42)>(22) 1024 B
179 (10)<(54) 88 W
1024 (32)=(32) 88 B
3752 (20) < (44) 179 W
"""
    data = parse_elo(text, "paris.elo")
    assert data.info.date == "2002-11-21" and data.info.name == "Paris Open"
    assert [p.id for p in data.players] == ["3752", "1024", "179", "88"]
    assert data.games == (
        GameRecord(1, 1, "3752", "1024", 42, 22), GameRecord(1, 2, "88", "179", 54, 10),
        GameRecord(2, 1, "1024", "88", 32, 32), GameRecord(2, 2, "179", "3752", 44, 20))


@pytest.mark.parametrize(("line", "msg"), [
    ("1 (40)<(24) 2 B", "x.elo:5: sign '<' contradicts discs 40-24"),
    ("1 (40)>(30) 2 B", "x.elo:5: discs 40-30 add up to 70 > 64"),
    ("1 (70)>(0) 2 B", "x.elo:5: black discs 70 not in 0..64"),
    ("1 40-24 2", "x.elo:5: not a game line"),
    ("1 (40)>(24) 1 B", "x.elo:5: bad players 1 v 1"),
])
def test_elo_errors_name_the_line(line: str, msg: str) -> None:
    text = f"%%Tournament: T\n%%Country: X\n%%Date: 01/01/2020\n%%Sender: s\n{line}\n"
    with pytest.raises(InvalidInputError, match=msg):
        parse_elo(text, "x.elo")


def test_elo_header_and_round_errors() -> None:
    with pytest.raises(InvalidInputError, match="x.elo: no %%Tournament: header line"):
        parse_elo("1 (40)>(24) 2 B\n", "x.elo")
    with pytest.raises(InvalidInputError, match="%%Date: '2020.01.01' is not DD/MM/YYYY"):
        parse_elo("%%Tournament: T\n%%Date: 2020.01.01\n", "x.elo")
    with pytest.raises(InvalidInputError, match="x.elo:2: player id 'bye': 1 to 40"):
        parse_elo("%%Tournament: T\n%Player: bye - Somebody\n", "x.elo")
    with pytest.raises(InvalidInputError, match="x.elo:4: 1 already plays in round 1"):
        parse_elo("%%Tournament: T\n%Round 1\n1 (40)>(24) 2 B\n1 (40)>(24) 3 B\n", "x.elo")


# ------------------------------------------------------------------ TRF-like
def test_trf_round_trip_keeps_everything(full: Tournament, tmp_path: Path) -> None:
    want = full.snapshot()
    path = tmp_path / "full.trf"
    write_tournament_file(path, want)  # FIDE TRF-16, with the rounds' costs
    assert read_tournament_file(path) == want
    with import_tournament(path, tmp_path / "again.gpt") as t:
        assert t.snapshot() == want
        assert format_trf(t.snapshot()) == path.read_text(encoding="utf-8")
    legacy = tmp_path / "old.trf"  # what earlier versions wrote: read, costs aside
    legacy.write_text(format_trf_legacy(want), encoding="utf-8")
    assert read_tournament_file(legacy) == _without_costs(want)
    manual = [r.method for r in want.rounds]
    assert manual[3].endswith("+manual") and sum(m.endswith("+manual") for m in manual) == 1


def _without_costs(data: TournamentData) -> TournamentData:
    from dataclasses import replace

    return replace(data, rounds=tuple(replace(r, total_cost=0) for r in data.rounds))


def test_legacy_trf_columns_follow_trf16(small: Tournament) -> None:
    lines = format_trf_legacy(small.snapshot()).splitlines()
    assert lines[:6] == ["012 Test Open", "032 JPN", "042 2024-05-01", "062 5", "XXR 5",
                         "XXW name=33 rating=4 country=3 id=11"]
    a = next(line for line in lines if line.startswith("001    1"))

    def col(first: int, last: int) -> str:  # 1-based, inclusive, as TRF16 documents
        return a[first - 1:last]

    assert col(5, 8) == "   1" and col(15, 47).rstrip() == "Player A"
    assert (col(49, 52), col(54, 56), col(58, 68)) == ("2000", "FRA", "          1")
    assert (col(81, 84), col(86, 89)) == (" 1.0", "   3")
    assert (col(92, 95), col(97, 97), col(99, 99)) == ("   2", "b", "1")  # round 1
    assert a[89:110] == "     2 b 1 40-24    1" and a[110:131] == "     5 w 0 31-33    1"
    e = next(line for line in lines if line.startswith("001    5"))
    assert e[89:110] == "  0000 - U          3"
    b = next(line for line in lines if line.startswith("001    2"))
    assert b[110:131] == "     3 b ?          2"


def _mangle(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_legacy_trf_errors(small: Tournament) -> None:
    good = format_trf_legacy(small.snapshot())
    parse_trf(good, "ok.trf")
    cases = [
        (_mangle(good, "0 31-33    1", "0 31-30    1"), "player 1 round 2: does not match"),
        (_mangle(good, "1 40-24    1", "0 40-24    1"), "result '0' contradicts discs 40-24"),
        (_mangle(good, "062 5", "062 6"), "062 says 6 players, found 5"),
        (good + "XXL 9 2 0\n", "x.trf:\\d+: bad XXL record '9 2 0'"),
        (good + "XXL 2 2 3\n", "x.trf: player 2: given score 3 half points is more than 2"),
        (good + "ZZZ what\n", "x.trf:\\d+: unknown record 'ZZZ'"),
        (_mangle(good, "XXW name=33", "XXW nom=33"), "XXW: bad width 'nom=33'"),
        (_mangle(good, "  0000 - U", "  0000 b U"), "opponent 0000 must be a bye"),
        (_mangle(good, "     2 b 1 40-24", "     2 b 1 40+24"), "round 1: bad block"),
    ]
    for text, msg in cases:
        with pytest.raises(InvalidInputError, match=msg):
            parse_trf(text, "x.trf")


def test_import_refuses_to_overwrite(small: Tournament, tmp_path: Path) -> None:
    path = tmp_path / "small.trf"
    write_tournament_file(path, small.snapshot())
    with pytest.raises(InvalidInputError, match="file exists"):
        import_tournament(path, small.path)


# ------------------------------------------------------------------ writers, path first
def test_writers_take_the_path_first(small: Tournament, tmp_path: Path) -> None:
    data = small.snapshot()
    write_elo(tmp_path / "a.txt", data)  # the format named, whatever the extension
    write_trf(tmp_path / "b.elo", data)
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == format_elo(data)
    assert (tmp_path / "b.elo").read_text(encoding="utf-8") == format_trf(data)
    write_pairing_csv(tmp_path / "p.csv", small.pairing(1), small.players())
    assert (tmp_path / "p.csv").read_text(encoding="utf-8") == format_pairing_csv(
        small.pairing(1), small.players())
    write_standings_csv(tmp_path / "s.csv", small.standings(), ("discs",))
    assert (tmp_path / "s.csv").read_text(encoding="utf-8") == format_standings_csv(
        small.standings(), ("discs",))


def test_pairing_terms_explain_each_table(small: Tournament) -> None:
    assert format_pairing_terms(small.pairing(1), small.players()).splitlines() == [
        "table 1: Player A - Player B: cost 4 = colour 4",
        "table 2: Player C - Player D: cost 0 = no penalty",
        "table 3: Player E - BYE: cost 0 = no penalty"]


# ------------------------------------------------------------------ players and results sheets
def test_players_sheet() -> None:
    text = ("name,id,country,rating\n"
            "Ann Lee,A1,JPN,2000\n"
            "\n# a comment\n"
            "Bob Ray,,FRA\n"
            "Cyd Fox\n")
    assert parse_players_csv(text, "p.csv") == [
        {"name": "Ann Lee", "id": "A1", "country": "JPN", "rating": 2000.0},
        {"name": "Bob Ray", "country": "FRA"},
        {"name": "Cyd Fox"}]


@pytest.mark.parametrize(("text", "message"), [
    ("Ann,A1,JPN,2000,extra\n", r"^p\.csv:1: expected 1 to 4 fields \(name, id, country, "
                                r"rating\), got 5$"),
    ("name\nAnn,A1,JPN,strong\n", r"^p\.csv:2: rating 'strong' is not a number$"),
    ("name\nAnn,A1,JPN,nan\n", r"^p\.csv:2: rating 'nan' is not a number$"),
    ("name\nAnn,A1,JPN,1e999\n", r"^p\.csv:2: rating '1e999' is not a number$"),
    ("name\nAnn,A1,JPN,\u0661\u0665\u0660\u0660\n",
     r"^p\.csv:2: rating '\u0661\u0665\u0660\u0660' is not a number$"),
])
def test_players_sheet_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        parse_players_csv(text, "p.csv")


def test_results_sheet() -> None:
    text = "who,black,white\n1,40,24\nA1,30,30\n"
    assert parse_results_csv(text, "r.csv") == [("1", 40, 24), ("A1", 30, 30)]


@pytest.mark.parametrize(("text", "message"), [
    ("1,40\n", r"^r\.csv:1: expected 3 to 3 fields \(who, black, white\), got 2$"),
    ("1,40,x\n", r"^r\.csv:1: white discs 'x' is not an integer$"),
    ("who,black,white\n2,4.5,20\n", r"^r\.csv:2: black discs '4.5' is not an integer$"),
])
def test_results_sheet_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        parse_results_csv(text, "r.csv")


def test_readers_share_one_error_wording(tmp_path: Path) -> None:
    missing = tmp_path / "missing.csv"
    for read, what in ((read_players_csv, "players file"), (read_results_csv, "results file"),
                       (read_tournament_file, "tournament file")):
        with pytest.raises(InvalidInputError, match=f"^{what} .*missing.csv: no such file$"):
            read(missing)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"Ann,\x81\n")  # neither UTF-8 nor Windows-1252 (0x81 is undefined)
    with pytest.raises(InvalidInputError, match="^players file .*bad.csv:1: neither UTF-8 "
                                                "nor Windows-1252 text"):
        read_players_csv(bad)
    sheet = tmp_path / "p.csv"
    sheet.write_bytes(b"\xef\xbb\xbfname\r\nAnn Lee\r\n")  # BOM and CRLF
    assert read_players_csv(sheet) == [{"name": "Ann Lee"}]


def test_pairing_run_line() -> None:
    p = Pairing(2, (), 17, "slim", 0.5, "cpu", False, None, {"players": 6, "lower": 1.5})
    assert format_pairing_run(p) == ("round 2: slim, 0.500 s (cpu), not proven optimal "
                                     "(total 17); players 6, lower 1.5\n")
    assert format_pairing_run(Pairing(1, (), 0, "manual")) == \
        "round 1: manual, 0.000 s (cpu), not proven optimal (total 0)\n"
