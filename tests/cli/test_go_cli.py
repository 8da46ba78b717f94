"""``gameopt go``: MSP, tables, checks, files, and one-line errors."""

from __future__ import annotations

import pytest

from gameopt.cli.main import main


def test_msp19_writes_sgf_and_svg_then_check(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    sgf, svg = tmp_path / "m.sgf", tmp_path / "m.svg"
    assert main(["go", "msp", "19", "--sgf", str(sgf), "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert "MSP(19x19) = 277 strings (84 empty points), proven" in out
    assert svg.read_text().lstrip().startswith("<")
    assert main(["go", "check", str(sgf)]) == 0
    assert "legal position, 277 strings" in capsys.readouterr().out


def test_table_and_methods(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["go", "msp", "--table", "1..8"]) == 0
    out = capsys.readouterr().out
    assert "| 8 | 48     | 16 | DP" in out
    for method in ("ip-basic", "ip-improved", "dp"):
        assert main(["go", "msp", "6x7", "--method", method]) == 0
        assert "MSP(6x7) = " in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["go", "msp", "0"], "rows must be an integer in 1..10000, got 0"),
    (["go", "msp", "ab"], "board size 'ab': expected N or MxN"),
    (["go", "msp", "--table", "5..2"], "expected A..B with 1 <= A <= B"),
    (["go", "msp", "12", "--method", "construct"], "construction needs both sides >= 16"),
    (["go", "check", "missing.sgf"], "missing.sgf"),
])
def test_bad_input(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_check_names_string_without_liberty(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "b.txt"
    f.write_text("XO.\nO..\n...\n")
    assert main(["go", "check", str(f)]) == 2
    assert "no liberty" in capsys.readouterr().err


def test_msp_prints_the_clock_and_stops_on_time(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["go", "msp", "6", "--method", "dp", "--time-limit", "30", "-q"]) == 0
    assert " s wall; board checked" in capsys.readouterr().out
    assert main(["go", "msp", "--table", "3..4", "-q"]) == 0
    assert "| wall s |" in capsys.readouterr().out
    assert main(["go", "msp", "6", "--time-limit", "-1"]) == 2
    assert "--time-limit -1" in capsys.readouterr().err


def test_msp26_writes_sgf_and_too_large_is_refused_first(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # was: 'go msp 26 --sgf' printed the result, then exited 2 (sgfmill's 25 limit)
    path = tmp_path / "m26.sgf"
    assert main(["go", "msp", "26", "--sgf", str(path), "-q"]) == 0
    assert b"SZ[26]" in path.read_bytes()
    assert main(["go", "msp", "53", "--sgf", str(tmp_path / "m53.sgf"), "-q"]) == 2
    out, err = capsys.readouterr()
    assert "MSP(53x53)" not in out and not (tmp_path / "m53.sgf").exists()
    assert err.startswith("gameopt: error: --sgf: a 53x53 board cannot be written as SGF")
