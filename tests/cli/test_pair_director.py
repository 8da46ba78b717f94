"""``gameopt pair``: the director's commands that must not be misread — results by
``--table`` or ``--player``, extra rounds, ``unpair``, ``show``, ``replace``, ``allow``
and late entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from gameopt.cli.main import main
from gameopt.pairing import Tournament, pair_round


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def refused(args: list[str], capsys: pytest.CaptureFixture[str], db: Path) -> str:
    """The command exits 2 with one error line and leaves the file byte for byte."""
    before = db.read_bytes()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert db.read_bytes() == before
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.fixture
def event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Five players with ids 1..5 (as default and WOF ids are), 2 planned rounds,
    round 1 paired with the default weights: top half against bottom half, the first
    colour alternating, 1-3 at table 1, 4-2 at table 2, the bye for 5 at table 3 (the
    optimum: the brute-force pairing)."""
    db = tmp_path / "e.sqlite"
    run(["pair", "new", str(db), "--name", "T", "--rounds", "2"], capsys)
    for name in ("Ann", "Bob", "Cid", "Dan", "Eve"):
        run(["pair", "add", str(db), name], capsys)
    with Tournament.open(db) as t:
        brute = pair_round(t.round_input(), t.penalties, method="brute")
    run(["pair", "pair", str(db)], capsys)
    with Tournament.open(db) as t:
        tables = [(g.table, g.black, g.white) for g in t.games(1)]
    assert tables == [(1, "1", "3"), (2, "4", "2"), (3, "5", "BYE")]
    assert tables == [(x.number, x.black, x.white) for x in brute.tables]
    return db


def test_a_number_that_could_be_table_or_player_is_refused(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The case: "3" meant player 3 (table 1); table 3 is another game.
    err = refused(["pair", "result", str(event), "1", "3", "40", "24"], capsys, event)
    assert "'3' could be table 3 (5 - BYE) or player 3 (Cid, table 1)" in err
    assert "--table 3 or --player 3" in err
    # Bob (2) and Cid (3) swapped: table 1 is 1-2, table 2 is 4-3.
    run(["pair", "swap", str(event), "1", "Bob", "Cid"], capsys)
    err = refused(["pair", "result", str(event), "1", "2", "40", "24"], capsys, event)
    assert "could be table 2 (4 - 3) or player 2 (Bob, table 1)" in err


def test_table_and_player_say_which(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["pair", "result", str(event), "1", "--player", "3", "40", "24"], capsys)
    assert out == "round 1 table 1: 1 40-24 3\n"
    out = run(["pair", "result", str(event), "1", "--table", "2", "20", "44"], capsys)
    assert out == "round 1 table 2: 4 20-44 2\n"
    with Tournament.open(event) as t:
        assert [(g.black_discs, g.white_discs) for g in t.games(1)[:2]] == [(40, 24), (20, 44)]
    err = refused(["pair", "result", str(event), "1", "--player", "Dan", "10", "54"],
                  capsys, event)
    assert "result already entered" in err and "use --replace" in err
    run(["pair", "result", str(event), "1", "--player", "dan", "10", "54", "--replace"],
        capsys)


def test_unambiguous_bare_numbers_still_work(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 1 is player 1 at table 1, 2 player 2 at table 2 (the same games); 5 is only a
    # player; names are players.
    assert run(["pair", "result", str(event), "1", "1", "40", "24"], capsys) == \
        "round 1 table 1: 1 40-24 3\n"
    assert run(["pair", "result", str(event), "1", "2", "33", "31"], capsys) == \
        "round 1 table 2: 4 33-31 2\n"
    assert "5 has a bye" in refused(["pair", "result", str(event), "1", "5", "40", "24"],
                                    capsys, event)
    assert run(["pair", "result", str(event), "1", "Cid", "30", "34", "--replace"],
               capsys) == "round 1 table 1: 1 30-34 3\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--table", "9", "40", "24"], "round 1 has no table 9"),
    (["--player", "Zed", "40", "24"], "unknown player 'Zed'"),
    (["--table", "x", "40", "24"], "table 'x' is not a number"),
    (["9", "40", "24"], "'9' is neither a table nor a player paired in the round"),
    (["--table", "1", "forty", "24"], "black discs 'forty' is not an integer"),
    (["40", "24"], "give --table N BLACK WHITE"),
])
def test_result_errors(event: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                       message: str) -> None:
    assert message in refused(["pair", "result", str(event), "1", *args], capsys, event)


def test_csv_numbers_follow_the_same_rule(event: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "r.csv"
    sheet.write_text("who,black,white\n1,40,24\n3,33,31\n")
    err = refused(["pair", "result", str(event), "1", "--csv", str(sheet)], capsys, event)
    assert "'3' could be table 3" in err
    sheet.write_text("who,black,white\n1,40,24\nBob,33,31\n")
    assert "2 results entered" in run(["pair", "result", str(event), "1", "--csv",
                                       str(sheet)], capsys)


def _finish_round(db: Path, k: int, capsys: pytest.CaptureFixture[str]) -> None:
    with Tournament.open(db) as t:
        tables = t.missing_results(k)
    for table in tables:
        run(["pair", "result", str(db), str(k), "--table", str(table), "40", "24"], capsys)


def test_pairing_past_the_planned_rounds_needs_extra_round(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _finish_round(event, 1, capsys)
    run(["pair", "pair", str(event)], capsys)
    _finish_round(event, 2, capsys)
    err = refused(["pair", "pair", str(event)], capsys, event)
    assert "round 3: the event has 2 planned rounds; pair an extra round with " \
           "--extra-round" in err
    assert "Round 3" in run(["pair", "pair", str(event), "--extra-round"], capsys)


def test_unpair_removes_the_last_round_while_it_has_no_result(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["pair", "unpair", str(event)], capsys) == "round 1 removed\n"
    with Tournament.open(event) as t:
        assert t.last_round == 0
    assert "no round paired yet" in refused(["pair", "unpair", str(event)], capsys, event)
    run(["pair", "pair", str(event)], capsys)
    run(["pair", "result", str(event), "1", "--table", "2", "40", "24"], capsys)
    err = refused(["pair", "unpair", str(event)], capsys, event)
    assert "round 1: results already entered at table 2" in err


def test_show_an_earlier_round(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _finish_round(event, 1, capsys)
    run(["pair", "pair", str(event)], capsys)
    out = run(["pair", "show", str(event), "1", "--why"], capsys)
    assert out.startswith("Round 1 (exact, total cost 0)")
    assert "| 2     | Dan   | 4        | 0.0" in out  # points before the round
    assert "table 3: Eve - BYE: cost 0" in out
    assert "round 7 is not paired" in refused(["pair", "show", str(event), "7"], capsys,
                                              event)


def test_replace_allow_and_late_entry(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["pair", "add", str(event), "Fay", "--from-round", "2", "--score", "0.5"],
              capsys)
    assert out == "registered Fay (id 6, from round 2 with 0.5 points)\n"
    with Tournament.open(event) as t:
        fay = t.player("Fay")
        assert (fay.joined_round, fay.initial_score) == (2, 1)
    assert "--score '0.3'" in refused(["pair", "add", str(event), "Gus", "--score", "0.3"],
                                      capsys, event)
    # Fay joins in round 2: she cannot take a seat in round 1.
    err = refused(["pair", "replace", str(event), "1", "Dan", "Fay"], capsys, event)
    assert "not active in round 1" in err
    # A no-show: Dan's opponent Bob gets a bye, and Dan is left out (a warning).
    with Tournament.open(event) as t:
        t.withdraw("Fay")  # not in this test's later rounds
    main(["pair", "replace", str(event), "1", "Dan", "BYE"])
    out, err = capsys.readouterr()
    assert out == "round 1: BYE in Dan's seat\n"
    assert err == "warning: round 1: 4 has no game (withdraw or pair them)\n"
    with Tournament.open(event) as t:
        assert [(g.black, g.white) for g in t.games(1)] == [("1", "3"), ("2", "BYE"),
                                                            ("5", "BYE")]
    run(["pair", "forbid", str(event), "Ann", "Bob"], capsys)
    assert run(["pair", "allow", str(event), "1", "bob"], capsys) == \
        "Ann and Bob may be paired again\n"
    assert "pair 1, 2 is not forbidden" in refused(["pair", "allow", str(event), "Ann",
                                                    "Bob"], capsys, event)


def test_forfeit_from_the_cli(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["pair", "result", str(event), "1", "--forfeit", "Ann"], capsys) == \
        "round 1 table 1: 1 -:+ 3, won by 3 by forfeit\n"
    assert run(["pair", "result", str(event), "1", "--forfeit", "4", "--both"], capsys) == \
        "round 1 table 2: 4 -:- 2, both forfeit\n"
    err = refused(["pair", "result", str(event), "1", "--forfeit", "Cid"], capsys, event)
    assert "result already entered (1 -:+ 3, won by 3 by forfeit)" in err
    assert "--both goes with --forfeit" in refused(
        ["pair", "result", str(event), "1", "--table", "1", "40", "24", "--both"], capsys,
        event)
    assert "takes no disc counts" in refused(
        ["pair", "result", str(event), "1", "40", "24", "--forfeit", "Bob"], capsys, event)
    run(["pair", "result", str(event), "1", "--forfeit", "Cid", "--replace"], capsys)
    out = run(["pair", "standings", str(event)], capsys)
    ann = next(line for line in out.splitlines() if "| Ann " in line)
    assert "| 1.0 " in ann and "| 32 " in ann  # a win and 32 discs
    elo = event.with_suffix(".elo")
    run(["pair", "export", str(event), "--elo", str(elo)], capsys)
    assert "%Forfeit: 1 3 B" in elo.read_text() and "%Forfeit: 4 2 0" in elo.read_text()


# ------------------------------------------------------------------ the Low items
def test_every_pair_option_is_documented() -> None:
    import argparse

    from gameopt.cli.main import build_parser

    def subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        (act,) = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        return dict(act.choices)

    pair = subparsers(build_parser())["pair"]
    missing = [f"{name} {a.dest}" for name, sp in subparsers(pair).items()
               for a in sp._actions if not isinstance(a, argparse._HelpAction)
               and not a.help]
    assert missing == []


def test_points_columns_and_the_bye_before_the_round(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The fixture's round 1 printed Eve (the bye) with 0.0, not the bye's point.
    _finish_round(event, 1, capsys)
    out = run(["pair", "pair", str(event)], capsys)
    bye_line = next(line for line in out.splitlines() if "| BYE" in line)
    with Tournament.open(event) as t:
        before = {s.id: s.points for s in t.standings(1)}
        bye = next(g.black for g in t.games(2) if g.is_bye)
    assert f"| {before[bye]:.1f} " in bye_line
    sheet = tmp_path / "p.csv"
    run(["pair", "export", str(event), "--pairing-csv", str(sheet)], capsys)
    rows = sheet.read_text().splitlines()
    assert rows[0] == "round,table,black,black_id,black_points,white,white_id," \
                      "white_points,cost"
    for row in rows[1:]:
        cells = row.split(",")
        assert cells[4] == f"{before[cells[3]]:.1f}"
        assert cells[7] == ("" if cells[6] == "" else f"{before[cells[6]]:.1f}")


@pytest.mark.parametrize("value", ["-3", "0", "2"])
def test_standings_after_round_must_be_paired(
        event: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    err = refused(["pair", "standings", str(event), "--after-round", value], capsys, event)
    assert f"--after-round {value}: choose a paired round, 1..1" in err
    assert "| Eve " in run(["pair", "standings", str(event), "--after-round", "1"], capsys)


def test_withdraw_and_forbid_say_what_they_did(
        event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["pair", "forbid", str(event), "ann", "2"], capsys) == \
        "Ann (id 1) and Bob (id 2) will not be paired\n"
    assert run(["pair", "withdraw", str(event), "Cid"], capsys) == \
        "Cid (id 3) withdrawn from round 2 on\n"
    assert run(["pair", "withdraw", str(event), "Dan", "--from-round", "3"], capsys) == \
        "Dan (id 4) withdrawn from round 3 on\n"


def test_simulate_refuses_an_unknown_rule_before_any_worker(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair", "simulate", "--rules", "exact,bogus", "--events", "1"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "gameopt: error: simulation: unknown rule 'bogus' (exact, " \
                          "networkx, slim, naive, brute, rustworkx, dutch)"


def test_import_a_fide_trf_without_ids(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    line = "001 {:>4}      {:<33} {:>4} {:3} {:11} {:10} {:>4} {:>4}{}"
    trf = tmp_path / "club.trf"
    trf.write_text("012 Club\nXXR 3\n"
                   + line.format(1, "Alpha", "1800", "", "", "", "1.0", 1, "     2 b 1") + "\n"
                   + line.format(2, "Beta", "", "", "", "", "0.0", 2, "     1 w 0") + "\n")
    out = run(["pair", "import", str(trf), str(tmp_path / "club.sqlite")], capsys)
    assert out == f"created {tmp_path / 'club.sqlite'} with 2 players, 1 round\n"
