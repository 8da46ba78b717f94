"""The penalty weights a tournament file pairs with: stored when it is made, PAPP's for a
file made before the weights were stored (it paired with PAPP's defaults then)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing import PenaltyParams, Tournament, TournamentData, pair_round
from gameopt.pairing.store import TournamentInfo


def _four(path: Path, **kw: object) -> Tournament:
    t = Tournament.create(path, "T", **kw)  # type: ignore[arg-type]
    for name in ("Ann", "Bob", "Cid", "Dan"):
        t.add_player(name)
    return t


def _round_one(t: Tournament) -> list[tuple[str, str]]:
    """Round 1 with the stored weights (the brute-force enumeration agrees)."""
    got = [(x.black, x.white) for x in pair_round(t.round_input(), t.penalties).tables]
    brute = pair_round(t.round_input(), t.penalties, method="brute")
    assert got == [(x.black, x.white) for x in brute.tables]
    return got


def _drop_penalties(path: Path) -> None:
    """Make ``path`` what a file written before the weights were stored looks like."""
    con = sqlite3.connect(path)
    with con:
        con.execute("DELETE FROM meta WHERE key = 'penalties'")
    con.close()


def test_a_new_tournament_stores_the_defaults(tmp_path: Path) -> None:
    with _four(tmp_path / "a.sqlite") as t:
        assert t.penalties == PenaltyParams() == PenaltyParams.tuned()
        assert _round_one(t) == [("1", "3"), ("4", "2")]  # top half against bottom half
    with Tournament.open(tmp_path / "a.sqlite") as t:  # reopened: the same weights
        assert t.penalties == PenaltyParams()


def test_the_stored_weights_are_kept_as_given(tmp_path: Path) -> None:
    custom = PenaltyParams.slim(p_und=(0, 50, 200), p_chauv=(0, 9))
    with Tournament.create(tmp_path / "c.sqlite", "T", penalties=custom) as t:
        assert t.penalties == custom
    with _four(tmp_path / "p.sqlite", penalties=PenaltyParams.papp()) as t:
        assert t.penalties == PenaltyParams.papp()
        assert _round_one(t) == [("1", "2"), ("3", "4")]
        t.set_penalties(PenaltyParams.tuned(p_bye2=7))
    with Tournament.open(tmp_path / "p.sqlite") as t:
        assert t.penalties == PenaltyParams.tuned(p_bye2=7)


def test_a_file_without_stored_weights_keeps_pairing_with_papps(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _four(path).close()
    _drop_penalties(path)
    with Tournament.open(path) as t:
        assert t.penalties == PenaltyParams.papp()
        assert _round_one(t) == [("1", "2"), ("3", "4")]  # as it paired before
        t.add_player("Eve")  # a change does not add the weights
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key = 'penalties'").fetchone() is None
    con.close()


def test_an_import_stores_the_defaults(tmp_path: Path) -> None:
    data = TournamentData(TournamentInfo("T"), (), ())
    with Tournament.from_data(tmp_path / "i.sqlite", data) as t:
        assert t.penalties == PenaltyParams()
    with Tournament.from_data(tmp_path / "j.sqlite", data, PenaltyParams.papp()) as t:
        assert t.penalties == PenaltyParams.papp()


@pytest.mark.parametrize(("value", "message"), [
    ("{not json", r"damaged tournament file \(Expecting property name"),
    ("[1, 2]", r"damaged tournament file \(stored penalties are not a JSON object\)"),
    ("[" * 100_000, r"damaged tournament file \(maximum recursion depth"),
    ('{"p_luck": 1}', r"stored penalties: unknown key 'p_luck'"),
    ('{"p_bye2": -5}', r"stored penalties: p_bye2 must be a non-negative integer, got -5"),
])
def test_damaged_stored_weights_are_one_line(tmp_path: Path, value: str,
                                             message: str) -> None:
    path = tmp_path / "d.sqlite"
    _four(path).close()
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'penalties'", (value,))
    con.close()
    with Tournament.open(path) as t, pytest.raises(InvalidInputError, match=message) as e:
        t.penalties  # noqa: B018
    assert "\n" not in str(e.value)
