"""``gameopt pair``: a whole 100-player, 9-round event from the command line alone."""

from __future__ import annotations

import csv
import random

import pytest

from gameopt.cli.main import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_full_event_from_the_cli(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "event.sqlite")
    players = tmp_path / "players.csv"
    rng = random.Random(7)
    countries = ["JPN", "FRA", "USA", "GBR", "ITA", "NED", "CHN", "THA"]
    players.write_text("name,id,country,rating\n" + "".join(
        f"Player {i},{1000 + i},{rng.choice(countries)},{1400 + rng.randint(0, 600)}\n"
        for i in range(1, 101)))
    run(["pair", "new", db, "--name", "Test Open", "--country", "JPN", "--date", "2026-11-21",
         "--rounds", "9"], capsys)
    assert "registered 100 players" in run(["pair", "add", db, "--csv", str(players)], capsys)
    for k in range(1, 10):
        out = run(["pair", "pair", db, "--why"] if k == 1 else ["pair", "pair", db], capsys)
        assert f"Round {k}" in out
        if k == 1:
            assert "cost" in out and "table 1:" in out
        sheet = tmp_path / f"pairing{k}.csv"
        run(["pair", "export", db, "--pairing-csv", str(sheet)], capsys)
        rows = list(csv.DictReader(sheet.open()))
        assert len(rows) == 50
        results = tmp_path / f"results{k}.csv"
        with results.open("w") as f:
            f.write("who,black,white\n")
            for row in rows:
                b = rng.choice([20, 30, 33, 40, 50, 64])
                f.write(f"{row['table']},{b},{64 - b}\n")
        assert "50 results entered" in run(["pair", "result", db, str(k), "--csv",
                                             str(results)], capsys)
    standings = run(["pair", "standings", db, "--buchholz"], capsys)
    assert "brightwell" in standings and "buchholz" in standings
    elo, trf = tmp_path / "e.elo", tmp_path / "e.trf"
    run(["pair", "export", db, "--elo", str(elo), "--trf", str(trf)], capsys)
    assert elo.read_text().startswith("%%Tournament") and len(
        [ln for ln in elo.read_text().splitlines() if ">" in ln or "<" in ln or "=" in ln]
    ) >= 450
    out = run(["pair", "import", str(trf), str(tmp_path / "copy.sqlite")], capsys)
    assert "100 players, 9 rounds" in out


@pytest.mark.parametrize("args, message", [
    (["pair", "standings", "nofile.sqlite"], "no such tournament file"),
    (["pair", "simulate", "--players", "4", "--rounds", "9"], "rounds < players"),
])
def test_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_store_errors_leave_file_unchanged(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "t.sqlite")
    run(["pair", "new", db, "--name", "T"], capsys)
    for i in range(4):
        run(["pair", "add", db, f"P{i}", "--id", f"{i + 1}"], capsys)
    assert main(["pair", "add", db, "P0"]) == 2  # duplicate name
    assert "gameopt: error:" in capsys.readouterr().err
    run(["pair", "pair", db], capsys)
    before = (tmp_path / "t.sqlite").read_bytes()
    assert main(["pair", "result", db, "1", "1", "40", "40"]) == 2  # 80 discs
    assert main(["pair", "result", db, "1", "9", "40", "24"]) == 2  # no table 9
    assert (tmp_path / "t.sqlite").read_bytes() == before
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("gameopt: error:") == 2


def test_pair_stats_show_the_run_and_its_clock(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "t.sqlite")
    run(["pair", "new", db, "--name", "T"], capsys)
    for i in range(5):
        run(["pair", "add", db, f"P{i}", "--id", f"{i + 1}"], capsys)
    out = run(["pair", "pair", db, "--stats"], capsys)
    assert "round 1: exact, " in out and " s (cpu), proven optimal (total 0); players 5" in out
    run(["pair", "result", db, "1", "--table", "1", "40", "24"], capsys)
    run(["pair", "result", db, "1", "--table", "2", "30", "34"], capsys)
    out = run(["pair", "pair", db, "--method", "slim", "--stats"], capsys)
    assert "round 2: slim, " in out and " s (cpu), not proven optimal (total " in out


def test_pair_time_limit_on_the_cpu_clock(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "t.sqlite")
    run(["pair", "new", db, "--name", "T"], capsys)
    for i in range(6):
        run(["pair", "add", db, f"P{i}", "--id", f"{i + 1}"], capsys)
    before = (tmp_path / "t.sqlite").read_bytes()
    for bad in ("nan", "-1", "0"):
        assert main(["pair", "pair", db, "--time-limit", bad]) == 2
        err = capsys.readouterr().err
        assert f"--time-limit {bad}" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "t.sqlite").read_bytes() == before
    out = run(["pair", "pair", db, "--time-limit", "60", "--stats"], capsys)
    assert "round 1: exact, " in out and " s (cpu), proven optimal" in out
