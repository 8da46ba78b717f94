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
