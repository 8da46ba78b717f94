"""FIDE TRF-16: our files read back exactly, bbpPairings' files read and written back as
bbpPairings wrote them (it is built from ../shared/peers when it can be), bad files
refused in one line."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing.formats import format_trf, format_trf_legacy, parse_trf
from gameopt.pairing.model import BYE, Pairing, Table
from gameopt.pairing.records import Outcome
from gameopt.pairing.store import Tournament, TournamentData

PEERS = Path(__file__).resolve().parents[3] / "shared" / "peers"


def _event(tmp_path: Path) -> TournamentData:
    """Seven players, three rounds: a forfeit, a double forfeit, byes, a late entrant
    with half a point, a withdrawal, a forbidden pair, long fields, round 3 unplayed."""
    t = Tournament.create(tmp_path / "t.gpt", "Paris Open", "FRA", "2026-11-21", rounds=5)
    t.add_player("Ann " + "Long" * 10, id="WOF-12345678901", country="FRANCE",
                 rating=2012.5)
    for k, (name, rating) in enumerate((("Bob", 1900.0), ("Cid", None), ("Dan", 1700.0),
                                        ("Eve", 1600.0)), start=2):
        t.add_player(name, id=str(k), rating=rating, country="JPN")
    t.forbid("2", "3")
    t.store_pairing(Pairing(1, (Table(1, "WOF-12345678901", "2", 0), Table(2, "3", "4", 0),
                                Table(3, "5", BYE, 0)), 0, "exact"))
    t.set_result(1, 1, 40, 24)
    t.set_forfeit(1, "4")
    t.add_player("Fay", id="6", joined_round=2, score=1)
    t.add_player("Gus", id="7", joined_round=2)
    t.store_pairing(Pairing(2, (Table(1, "3", "WOF-12345678901", 0), Table(2, "2", "4", 0),
                                Table(3, "5", "6", 0), Table(4, "7", BYE, 0)), 0, "slim"))
    t.set_result(2, 1, 32, 32)
    t.set_forfeit(2, "2", both=True)
    t.set_result(2, 3, 10, 50)
    t.withdraw("4", 3)
    t.store_pairing(Pairing(3, (Table(1, "6", "WOF-12345678901", 0), Table(2, "2", "5", 0),
                                Table(3, "3", "7", 0)), 0, "exact"))
    data = t.snapshot()
    t.close()
    return data


def test_our_file_reads_back_exactly(tmp_path: Path) -> None:
    data = _event(tmp_path)
    text = format_trf(data)
    back = parse_trf(text, "t.trf")
    assert back == data
    # FIDE's columns: start rank 5-8, name 15-47, rating 49-52, federation 54-56,
    # points 81-84; round blocks of 10 from column 90; only complete rounds (1, 2).
    bob = next(line for line in text.splitlines() if line.startswith("001    2"))
    assert bob[14:47].strip() == "Bob" and bob[48:52] == "1900" and bob[53:56] == "JPN"
    assert bob[80:84] == " 0.0" and bob[89:] == "     1 w 0     4 b -"
    fay = next(line for line in text.splitlines() if line.startswith("001    6"))
    assert fay[89:] == "  0000 - H     5 w 1"  # her given half point, then a win
    assert "XXT 3 1 0006 0001" in text and "XXP 2 3" in text and "XXD 4 3" in text
    # the legacy TRF-like layout (no forfeits) is still read
    played = replace(data, games=tuple(g for g in data.games if not g.forfeit))
    assert parse_trf(format_trf_legacy(played), "old.trf") == played


def _line(rank: int, name: str, rating: str, points: str, blocks: str) -> str:
    """A 001 record in FIDE's columns (no id, no birth date)."""
    return (f"001 {rank:>4}      {name:<33} {rating:>4} {'':3} {'':11} {'':10} "
            f"{points:>4} {rank:>4}{blocks}")


def test_a_trf_without_ids_or_discs(tmp_path: Path) -> None:
    text = "\n".join(["012 Club",
                      _line(1, "Alpha", "1800", "2.0", "     2 b 1  0000 - U"),
                      _line(2, "Beta", "", "0.0", "     1 w 0     3 b -"),
                      _line(3, "Gamma", "", "1.0", "  0000 - Z     2 w +")]) + "\n"
    data = parse_trf(text, "club.trf")
    assert [p.id for p in data.players] == ["1", "2", "3"]
    assert data.players[0].rating == 1800.0 and data.players[1].rating is None
    g1, bye, g2 = data.games
    assert (g1.black, g1.white, g1.result, g1.black_discs) == ("1", "2", Outcome.BLACK, None)
    assert bye.is_bye and bye.round_no == 2
    assert g2.forfeit and g2.result is Outcome.WHITE
    path = tmp_path / "club.sqlite"
    Tournament.from_data(path, data).close()
    with Tournament.open(path) as t:
        assert [s.score for s in t.standings()] == [4, 2, 0]


@pytest.mark.parametrize(("line", "message"), [
    (_line(1, "A", "", "1.0", "     2 w 1"), "colours 'w' and 'w' do not match"),
    (_line(1, "A", "", "1.0", "     3 b 1"), "no player with start rank 3"),
    (_line(1, "A", "", "1.0", "     2 b ?"), "bad block"),
    (_line(1, "A", "", "1.0", "     2 b 0"), "results '0' and '0' do not match"),
    (_line(1, "A", "", "1.5", "     2 b 1  0000 - H"), "half-point bye in the middle"),
    ("001    x      A", "start rank 'x'"),
    ("ABC hello", "unknown record 'ABC'"),
])
def test_bad_files_are_refused_in_one_line(line: str, message: str) -> None:
    other = _line(2, "B", "", "0.0", "     1 w 0")
    with pytest.raises(InvalidInputError, match=message) as e:
        parse_trf(f"012 T\n{line}\n{other}\n", "bad.trf")
    assert "\n" not in str(e.value) and "bad.trf" in str(e.value)


# ------------------------------------------------------------------ bbpPairings
def _bbp() -> Path:
    """bbpPairings built from ../shared/peers into ~/.cache/gameopt-peers (or skip)."""
    exe = Path.home() / ".cache" / "gameopt-peers" / "bbp" / "bbpPairings.exe"
    if exe.exists():
        return exe
    script = PEERS / "build.sh"
    if not script.exists() or shutil.which("make") is None:
        pytest.skip(f"bbpPairings: no {script} or no make to build it")
    run = subprocess.run([str(script), "bbp"], capture_output=True, text=True, timeout=600,
                         check=False)
    if run.returncode != 0 or not exe.exists():
        pytest.skip(f"bbpPairings did not build: {run.stderr.strip()[-200:]}")
    return exe


def _rounds(text: str) -> list[str]:
    """Each 001 record's points and round blocks (what both programs must agree on)."""
    return [line[80:84] + line[89:].rstrip() for line in text.replace("\r", "\n").splitlines()
            if line.startswith("001")]


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_bbp_files_round_trip(tmp_path: Path, seed: int) -> None:
    exe = _bbp()
    cfg = tmp_path / "cfg.txt"
    cfg.write_text("PlayersNumber=15\nRoundsNumber=6\nDrawPercentage=20\nForfeitRate=8\n"
                   "RetiredRate=20\n")
    gen = tmp_path / "gen.trf"
    subprocess.run([str(exe), "--dutch", "-g", str(cfg), "-o", str(gen), "-s", str(seed)],
                   check=True, capture_output=True, timeout=120)
    theirs = gen.read_text()
    data = parse_trf(theirs, str(gen))
    assert len(data.players) == 15 and max(g.round_no for g in data.games) == 6
    ours = format_trf(data)
    assert _rounds(ours) == _rounds(theirs)
    # Both files give bbpPairings the same next round.
    outs = []
    for name, text in (("theirs", theirs), ("ours", ours)):
        path = tmp_path / f"{name}.trf"
        lines = [ln for ln in text.replace("\r", "\n").splitlines() if ln
                 and not ln.startswith("XXR")]
        path.write_text("\n".join([*lines, "XXR 7"]) + "\n")
        out = tmp_path / f"{name}.out"
        subprocess.run([str(exe), "--dutch", str(path), "-p", str(out)], check=True,
                       capture_output=True, timeout=120, env={**os.environ})
        outs.append(out.read_text())
    assert outs[0] == outs[1] and len(outs[0].splitlines()) >= 7
