"""Files that can't hurt: players/results sheets in UTF-8 (with or without a BOM) or
Windows-1252, binary files refused, damaged tournament files refused in one line before
any change, names capped."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from gameopt.cli.main import main
from gameopt.errors import InvalidInputError
from gameopt.pairing import Tournament, formats, pair_round
from gameopt.pairing.records import MAX_NAME, PlayerRecord

# --------------------------------------------------------------------------- sheets

HEAD = "name,id,country,rating\n"


@pytest.mark.parametrize(("data", "name"), [
    ((HEAD + "Zoë Müller,Z1,GER,1800\n").encode(), "Zoë Müller"),               # UTF-8
    (b"\xef\xbb\xbf" + (HEAD + "Zoë Müller,Z1,GER,1800\n").encode(), "Zoë Müller"),  # BOM
    ((HEAD + "Zoë Müller,Z1,GER,1800\r\n").encode("cp1252"), "Zoë Müller"),    # Excel
    ((HEAD + "Œdipe “Roi”,Z1,FRA,1800\n").encode("cp1252"), "Œdipe “Roi”"),   # 0x80-0x9f
])
def test_players_sheet_encodings(tmp_path: Path, data: bytes, name: str) -> None:
    sheet = tmp_path / "p.csv"
    sheet.write_bytes(data)
    assert formats.read_players_csv(sheet) == [{"name": name, "id": "Z1", "country": "GER"
                                                if "Z" in name else "FRA", "rating": 1800.0}]


def test_a_bom_does_not_hide_the_header(tmp_path: Path) -> None:
    sheet = tmp_path / "r.csv"
    sheet.write_bytes(b"\xef\xbb\xbfwho,black,white\n1,40,24\n")
    assert formats.read_results_csv(sheet) == [("1", 40, 24)]


@pytest.mark.parametrize(("data", "message"), [
    (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), r"p\.csv:1: not a text file"),
    (HEAD.encode() + b"Ann,A1\nB\x00b,B1\n", r"p\.csv:3: not a text file \(control byte"),
    (HEAD.encode() + b"Ann,A1\n\xe9\x81\xe9,B1\n", r"p\.csv:3: neither UTF-8 nor "
                                                   r"Windows-1252 text"),
])
def test_binary_and_undecodable_sheets_are_refused(tmp_path: Path, data: bytes,
                                                   message: str) -> None:
    sheet = tmp_path / "p.csv"
    sheet.write_bytes(data)
    with pytest.raises(InvalidInputError, match=message):
        formats.read_players_csv(sheet)
    with pytest.raises(InvalidInputError, match=message.replace("p\\.csv", "r\\.csv")):
        sheet.rename(tmp_path / "r.csv")
        formats.read_results_csv(tmp_path / "r.csv")


def test_names_are_capped() -> None:
    assert PlayerRecord("A1", "x" * MAX_NAME).name == "x" * MAX_NAME
    with pytest.raises(InvalidInputError, match=rf"^player A1: name 'x{{20}}'\.\.\. has "
                                                rf"{MAX_NAME + 1} characters \(at most "
                                                rf"{MAX_NAME}\)$"):
        PlayerRecord("A1", "x" * (MAX_NAME + 1))
    with pytest.raises(InvalidInputError, match=r"^p\.csv:3: name 'y{20}'\.\.\. has 101 "):
        formats.parse_players_csv(HEAD + "Ann\n" + "y" * 101 + "\n", "p.csv")


# --------------------------------------------------------------------------- damage


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eleven players, two rounds with results, a third paired."""
    path = tmp_path_factory.mktemp("store") / "t.sqlite"
    with Tournament.create(path, "T", rounds=5) as t:
        t.add_players([{"name": f"Player {i}", "rating": 1500 + 10 * i} for i in range(11)])
        for k in (1, 2, 3):
            t.store_pairing(pair_round(t.round_input()))
            if k < 3:
                t.set_results(k, [(g.table, 40, 24) for g in t.games(k) if not g.is_bye])
    return path


def _empty_index(path: Path, index: str) -> None:
    """Make ``index`` (one leaf page) hold no entry, as a bad disk or copy might."""
    con = sqlite3.connect(path)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                       (index,)).fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    page = (root - 1) * page_size
    assert data[page] == 0x0A  # a leaf index page: the whole index is on it
    data[page + 1:page + 8] = bytes([0, 0, 0, 0, 0, 0, 0])  # no cell, content at the end
    data[page + 5:page + 7] = (page_size % 65536).to_bytes(2, "big")
    path.write_bytes(bytes(data))


def test_an_index_corruption_that_quick_check_misses_is_refused_before_a_write(
        played: Path, tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    shutil.copy(played, path)
    _empty_index(path, "games_white")
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert "missing from index games_white" in con.execute(
        "PRAGMA integrity_check").fetchone()[0]
    con.close()
    before = path.read_bytes()
    with Tournament.open(path) as t:  # reading is allowed
        assert len(t.players()) == 11
        with pytest.raises(InvalidInputError,
                           match=r"t\.sqlite: damaged tournament file \(row \d+ missing "
                                 r"from index games_white.*\); use a backup copy$"):
            t.set_result(3, 1, 40, 24, by="table")
    assert path.read_bytes() == before


def _flip(data: bytes, offset: int) -> bytes:
    out = bytearray(data)
    for k in range(offset, min(offset + 8, len(out))):
        out[k] ^= 0xA5
    return bytes(out)


def test_damaged_files_give_one_line_and_are_never_written(
        played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = played.read_bytes()
    page = 4096
    offsets = sorted({16, 20, 28, 40, 60, 100, 104, 108}
                     | {p * page + d for p in range(1, len(good) // page)
                        for d in (0, 5, 12, 200, 1000, 3000)})
    refused = 0
    for offset in offsets:
        path = tmp_path / f"d{offset}.sqlite"
        damaged = _flip(good, offset)
        path.write_bytes(damaged)
        for args in (["standings", str(path)], ["show", str(path), "1"],
                     ["add", str(path), "Late Comer"],
                     ["result", str(path), "3", "--table", "1", "40", "24"]):
            code = main(["pair", *args])
            err = capsys.readouterr().err
            assert code in (0, 2), (offset, args, err)
            if code == 2:
                assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
                if args[0] in ("add", "result"):
                    refused += "damaged" in err or "not a" in err
            if args[0] in ("add", "result") and code == 2 and "damaged" in err:
                assert path.read_bytes() == damaged, (offset, args)
        path.unlink()
    assert refused >= len(offsets) // 2
