"""Tournament files, sheets and imports the fuzzing (benchmarks/fuzz) found tracebacks on."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing import Tournament
from gameopt.pairing.formats import parse_elo, parse_players_csv, parse_trf

EVENT = Path(__file__).parents[1] / "data" / "fuzz" / "pairing" / "event.sqlite"


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "event.sqlite"
    shutil.copyfile(EVENT, path)
    return path


def test_players_sheet_without_a_name() -> None:
    with pytest.raises(InvalidInputError, match=r"^p\.csv:2: the name field is empty$"):
        parse_players_csv("name,id\n,1001\n", "p.csv")


@pytest.mark.parametrize("who", ["99999999999999999999", "٣"])
def test_results_for_a_table_number_too_large_or_not_ascii(event: Path, who: str) -> None:
    # was: OverflowError from SQLite for the 20 digits; ٣ was read as table 3
    before = event.read_bytes()
    t = Tournament.open(event)
    try:
        with pytest.raises(InvalidInputError, match=r"unknown player '.*' \(neither an id "):
            t.set_results(3, [(who, 40, 24)])
    finally:
        t.close()
    assert event.read_bytes() == before


def test_elo_round_number_too_large() -> None:
    with pytest.raises(InvalidInputError, match=r"x\.elo:2: round number '9999.* is not an "):
        parse_elo("%%Tournament: T\n%Round 99999999999999999999\n", "x.elo")


def test_trf_xxr_of_5000_digits() -> None:
    with pytest.raises(InvalidInputError, match=r"x\.trf: XXR '9999.* is not an integer"):
        parse_trf("012 T\nXXR " + "9" * 5000 + "\n", "x.trf")


@pytest.mark.parametrize("sql", [
    "UPDATE games SET terms = '{\"colour\": ' WHERE round_no = 1",      # cut JSON
    "UPDATE games SET terms = 'not json' WHERE round_no = 1",
])
def test_damaged_records_are_one_line(event: Path, sql: str) -> None:
    con = sqlite3.connect(event)
    con.execute(sql)
    con.commit()
    con.close()
    t = Tournament.open(event)
    try:
        with pytest.raises(InvalidInputError, match=r"damaged tournament file"):
            t.pairing(1)
    finally:
        t.close()



def test_elo_discs_of_thousands_of_digits() -> None:
    with pytest.raises(InvalidInputError, match=r"x\.elo:3: discs '9999.* is not an integer"):
        parse_elo("%%Tournament: T\n%Round 1\n1 (" + "9" * 5000 + ")>(24) 2 B\n", "x.elo")


def _tamper(path: Path, *sql: str) -> bytes:
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA foreign_keys = OFF")
        for q in sql:
            con.execute(q)
    finally:
        con.close()
    return path.read_bytes()


def _read_all(path: Path) -> None:
    t = Tournament.open(path)
    try:
        t.info, t.players, t.penalties  # noqa: B018 - reading is the test
        t.forbidden_pairs()
        for r in range(1, t.last_round + 1):
            t.pairing(r)
            t.games(r)
        t.standings()
        t.round_input()
    finally:
        t.close()


@pytest.mark.parametrize(("sql", "what"), [
    # the long fuzz run of 2026-11-24 (pairing.sqlite): KeyError 'name', and a TypeError
    # sorting player ids of two types; SQLite keeps a blob in a TEXT column as it is
    ("DELETE FROM meta WHERE key = 'name'", r"meta record 'name' is None"),
    ("UPDATE players SET name = X'416e6e' WHERE seq = 1", r"player record with bytes"),
    ("UPDATE games SET white = X'31303032' WHERE round_no = 1 AND table_no = 1",
     r"game record with bytes"),
    ("INSERT INTO forbidden VALUES (X'31', X'32')", r"forbidden pair record with bytes"),
])
def test_a_record_of_the_wrong_type_is_a_damaged_file(event: Path, sql: str,
                                                      what: str) -> None:
    before = _tamper(event, sql)
    with pytest.raises(InvalidInputError, match=r"damaged tournament file \(.*" + what):
        _read_all(event)
    assert event.read_bytes() == before


def test_a_damaged_record_met_by_a_change_is_refused_and_nothing_written(
        event: Path) -> None:
    before = _tamper(event, "UPDATE players SET name = X'416e6e' WHERE seq = 1")
    t = Tournament.open(event)
    try:
        with pytest.raises(InvalidInputError, match=r"damaged tournament file \(player "):
            t.withdraw("1001")
    finally:
        t.close()
    assert event.read_bytes() == before
