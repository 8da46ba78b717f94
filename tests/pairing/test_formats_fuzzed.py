"""Pairing sheets and penalty files the fuzzing (benchmarks/fuzz) found tracebacks on."""

from __future__ import annotations

from pathlib import Path

import pytest

from gameopt.errors import InvalidInputError
from gameopt.pairing import PenaltyParams
from gameopt.pairing.formats import parse_players_csv, parse_results_csv


@pytest.mark.parametrize("text, match", [
    ("who,black,white\n1,40,\n", r"r\.csv:2: the white field is empty"),
    ("who,black,white\n1,٤٠,24\n", r"r\.csv:2: black discs '٤٠' is not an integer"),
    ("who,black,white\n1,4_0,24\n", r"r\.csv:2: black discs '4_0' is not an integer"),
    ("who,black,white\n1,40," + "9" * 5000 + "\n", r"white discs '9999.*\.\.\. is not an "),
    ('who,black,white\n1,"' + "x" * 200_000 + '",3\n', r"r\.csv: not CSV \(field larger"),
])
def test_results_sheet(text: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        parse_results_csv(text, "r.csv")


def test_players_sheet_with_a_giant_field() -> None:
    with pytest.raises(InvalidInputError, match=r"p\.csv: not CSV \(field larger"):
        parse_players_csv('name\n"' + "x" * 200_000 + '"\n', "p.csv")


@pytest.mark.parametrize("text, match", [
    ("p_und = [" + "9" * 5000 + "]\n", r"not usable TOML \(Exceeds the limit"),
    ("p_und = " + "[" * 5000 + "]" * 5000 + "\n", r"not usable TOML \(nested too deeply\)"),
])
def test_penalty_file(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(InvalidInputError, match=match):
        PenaltyParams.from_toml(path)


_TRF = (Path(__file__).parents[1] / "data" / "fuzz" / "pairing" / "event.trf").read_text()


def _player_line(text: str, n: int = 1) -> str:
    return [ln for ln in text.splitlines() if ln.startswith("001")][n - 1]


@pytest.mark.parametrize("old, new, match", [
    # int() took Unicode digits ('٥' read as 5) and '5  5' raised ValueError (fuzzing)
    ("   5 w 1", "   ٥ w 1", r"t\.trf:\d+: round 1: bad block"),
    ("   5 w 1", "5  5 w 1", r"t\.trf:\d+: round 1: bad block"),
    ("XXT 1 1 0008 0003 20-44", "XXT 1 1 ٠٠٠٨ 0003 20-44", r"t\.trf:\d+: bad XXT record"),
    ("1554 USA", " nan USA", r"t\.trf:\d+: rating 'nan' is not a number"),
])
def test_trf16_numbers_are_ascii(old: str, new: str, match: str) -> None:
    from gameopt.pairing.formats import parse_trf

    assert old in _TRF
    with pytest.raises(InvalidInputError, match=match):
        parse_trf(_TRF.replace(old, new, 1), "t.trf")


def test_legacy_trf_numbers_are_ascii() -> None:
    from gameopt.pairing.formats import format_trf_legacy, parse_trf, parse_trf_legacy

    text = format_trf_legacy(parse_trf(_TRF, "t.trf"))
    line = _player_line(text)
    assert parse_trf_legacy(text, "l.trf").players  # the untouched file reads
    for bad in (line[:4] + "   ١" + line[8:],  # start rank
                line[:-8] + line[-8:].replace("1", "١", 1)):  # a block's table or discs
        assert bad != line
        with pytest.raises(InvalidInputError, match=r"l\.trf:\d+: (bad start rank|round)"):
            parse_trf_legacy(text.replace(line, bad), "l.trf")
