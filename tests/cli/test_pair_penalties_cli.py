"""``gameopt pair``: the penalty weights a tournament file pairs with (``new --preset``,
``penalties``, ``pair --params`` over the stored weights, ``simulate --params``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gameopt.cli.main import main
from gameopt.pairing import PenaltyParams, Tournament


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def _event(tmp_path: Path, capsys: pytest.CaptureFixture[str], *new: str) -> Path:
    db = tmp_path / "e.sqlite"
    run(["pair", "new", str(db), "--name", "T", *new], capsys)
    for name in ("Ann", "Bob", "Cid", "Dan"):
        run(["pair", "add", str(db), name], capsys)
    return db


def _round(db: Path, k: int) -> list[tuple[str, str]]:
    with Tournament.open(db) as t:
        return [(g.black, g.white) for g in t.games(k)]


def test_new_stores_the_tuned_defaults_or_the_preset_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _event(tmp_path, capsys)
    assert run(["pair", "penalties", str(db)], capsys) == 'preset = "tuned"\n'
    run(["pair", "pair", str(db)], capsys)
    assert _round(db, 1) == [("1", "3"), ("4", "2")]
    (tmp_path / "p").mkdir()
    old = _event(tmp_path / "p", capsys, "--preset", "papp")
    assert run(["pair", "penalties", str(old)], capsys) == 'preset = "papp"\n'
    run(["pair", "pair", str(old)], capsys)
    assert _round(old, 1) == [("1", "2"), ("3", "4")]


def test_a_file_made_before_keeps_papps_weights_until_changed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _event(tmp_path, capsys)
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM meta WHERE key = 'penalties'")
    con.close()
    assert run(["pair", "penalties", str(db)], capsys) == 'preset = "papp"\n'
    run(["pair", "pair", str(db)], capsys)
    assert _round(db, 1) == [("1", "2"), ("3", "4")]
    run(["pair", "unpair", str(db)], capsys)
    out = run(["pair", "penalties", str(db), "--preset", "tuned"], capsys)
    assert out == f'{db}: penalties stored; they apply from round 1\npreset = "tuned"\n'
    run(["pair", "pair", str(db)], capsys)
    assert _round(db, 1) == [("1", "3"), ("4", "2")]


def test_params_files_override_the_stored_weights(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _event(tmp_path, capsys, "--preset", "papp")
    over = tmp_path / "over.toml"
    over.write_text("p_bye2 = 7\n")
    out = run(["pair", "penalties", str(db), "--params", str(over)], capsys)
    assert "p_bye2 = 7" in out and 'terms = ["chauvinism", "colour", "elitism"' in out
    with Tournament.open(db) as t:
        assert t.penalties == PenaltyParams.papp(p_bye2=7)
    # --params on pair: this round only, over the stored weights (no preset in the file)
    halves = tmp_path / "halves.toml"
    halves.write_text('terms = ["colour", "undulation", "repetition", "chauvinism", '
                      '"elitism", "halves"]\np_colalt = 1\n')
    run(["pair", "pair", str(db), "--params", str(halves)], capsys)
    assert _round(db, 1) == [("1", "3"), ("4", "2")]
    with Tournament.open(db) as t:
        assert t.penalties == PenaltyParams.papp(p_bye2=7)


@pytest.mark.parametrize(("args", "message"), [
    (["--preset", "fide"], "argument --preset: invalid choice: 'fide'"),
    (["--params", "missing.toml"], "missing.toml"),
])
def test_bad_penalties_change_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      args: list[str], message: str) -> None:
    db = _event(tmp_path, capsys)
    before = db.read_bytes()
    with pytest.raises(SystemExit) if "--preset" in args else _nothing():
        assert main(["pair", "penalties", str(db), *args]) == 2
    assert message in capsys.readouterr().err
    assert db.read_bytes() == before


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_simulate_takes_a_penalty_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.pairing import SimConfig, simulate_rules

    papp = tmp_path / "papp.toml"
    papp.write_text('preset = "papp"\n')
    args = ["pair", "simulate", "--events", "2", "--players", "12", "--rounds", "3",
            "--rules", "exact", "--workers", "1"]

    def tau(out: str) -> str:  # the Kendall τ cell of the one row
        return out.splitlines()[2].split("|")[9].strip()

    expected = {label: simulate_rules(["exact"], SimConfig(12, 3), events=2, seed=0,
                                      workers=1, params=params)[0][8]
                for label, params in (("default", None), ("papp", PenaltyParams.papp()))}
    assert expected["default"] != expected["papp"]
    assert tau(run(args, capsys)) == str(expected["default"])
    assert tau(run([*args, "--params", str(papp)], capsys)) == str(expected["papp"])
