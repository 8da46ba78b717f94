"""The console script: outputs, exit codes, and one-line errors for bad input."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from gameopt.cli.main import main

ARTICLE = "..62...8...897......481.5......6...2.7.....3.6...5......2.471....3.284...5...12.."
SOLUTION_ROW1 = "7 1 6 | 2 3 5 | 9 8 4"


@pytest.mark.parametrize("method", ["exact", "cpsat", "evolution"])
def test_solve_article_puzzle(method: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sudoku", "solve", ARTICLE, "--method", method, "--seed", "1", "-q"])
    out = capsys.readouterr().out
    assert code == 0
    assert SOLUTION_ROW1 in out
    assert ("unique" in out) if method != "evolution" else ("solved" in out)


def test_solve_file_one_line_per_puzzle(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "p.txt"
    f.write_text(f"# two puzzles\n{ARTICLE}\n{'.' * 81}\n")
    assert main(["sudoku", "solve", str(f)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "unique" in lines[0] and "multiple count=2" in lines[1]


@pytest.mark.parametrize("args, message", [
    (["sudoku", "solve", ARTICLE[:-1]], "80 cells is not a square grid"),
    (["sudoku", "solve", ARTICLE[:3] + "x" + ARTICLE[4:]], "unknown character 'x' at r1c4"),
    (["sudoku", "solve", "6" + ARTICLE[1:]], "value 6 given twice in row 1: r1c1 and r1c3"),
    (["sudoku", "solve", "no/such/file.txt"], "no such file"),
    # longer than a file name may be (the OS refuses to look it up): read as a puzzle
    (["sudoku", "solve", "1," * 700], "700 cells is not a square grid"),  # commas separate
    (["sudoku", "solve", ARTICLE, "--max-epochs", "0"], "max_epochs=0 is out of range"),
    (["sudoku", "solve", ARTICLE, "--count-limit", "0"], "--count-limit 0: expected >= 1"),
    (["sudoku", "solve", ARTICLE, "--time-limit", "nan"], "--time-limit nan"),
    (["sudoku", "solve", ARTICLE, "--time-limit", "-1"], "--time-limit -1.0: expected seconds > 0"),
    (["sudoku", "generate", "--box", "9"], "box"),
    (["sudoku", "bench", "--seeds", "1", "--scheduler", "localhost:1"],
     "'localhost:1'"),
])
def test_bad_input_one_line_exit_2(args: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_unsolvable_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    # Givens do not clash, yet r1c9 has no candidate left: 1..8 in row 1, 9 in column 9.
    puzzle = "12345678." + "........9" + "." * 63
    assert main(["sudoku", "solve", puzzle]) == 1
    assert "none" in capsys.readouterr().out


def test_generate_to_file_then_solve(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "gen.txt"
    assert main(["sudoku", "generate", "--count", "3", "--seed", "5", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and all(len(x) == 81 for x in lines)
    assert main(["sudoku", "solve", str(out)]) == 0
    assert capsys.readouterr().out.count("unique") == 3


def test_generate_into_missing_directory_writes_nothing(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["sudoku", "generate", "-o", str(tmp_path / "nodir" / "x.txt")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "nodir").exists()


@pytest.mark.skipif(shutil.which("gameopt") is None, reason="console script not installed")
def test_console_script_bad_input_no_traceback() -> None:
    r = subprocess.run(["gameopt", "sudoku", "solve", "12"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("gameopt: error:")
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1
    r = subprocess.run(["gameopt", "nosuch"], capture_output=True, text=True)
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "all three methods give the same verified solution: yes" in out
    assert "16x16" in out


def test_help_lists_only_working_systems() -> None:
    r = subprocess.run([sys.executable, "-c", "from gameopt.cli.main import main; main(['-h'])"],
                       capture_output=True, text=True)
    for system in ("sudoku", "go", "pair", "deck", "reversi", "demo"):
        assert system in r.stdout


def test_solve_file_prints_the_clock_and_keeps_lines(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "p.txt"
    f.write_text(f"{ARTICLE}\n{ARTICLE}\n")
    assert main(["sudoku", "solve", str(f), "--method", "exact"]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("exact unique count=1 nodes=") == 2
    assert "2 puzzles, 2 solved, exact:" in captured.err and " s cpu" in captured.err
    assert main(["sudoku", "solve", ARTICLE, "--method", "evolution", "--seed", "1",
                 "--time-limit", "5", "-q"]) == 0
    assert " s cpu" in capsys.readouterr().out


def test_sudoku_hint_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sudoku", "hint", ARTICLE]) == 0
    assert capsys.readouterr().out == (
        "r5c5 = 8: hidden single in box 5  [hidden single, easy]\n")
    assert main(["sudoku", "explain", ARTICLE]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "puzzle: 54 empty cells" and out[1] == " 1. r5c5 = 8: hidden single in box 5"
    assert SOLUTION_ROW1 in out and out[-1].startswith("rating: medium, hardest: box-line")


def test_sudoku_puzzle_on_the_command_line_is_called_puzzle(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sudoku", "solve", ARTICLE, "-q"]) == 0
    assert capsys.readouterr().out.startswith("puzzle: exact unique count=1 ")
    assert main(["sudoku", "hint", ARTICLE[:-1] + "x"]) == 2
    assert "error: puzzle: unknown character 'x' at r9c9" in capsys.readouterr().err


def test_sudoku_explain_where_logic_stops(capsys: pytest.CaptureFixture[str]) -> None:
    hard = "98.7.....7...8.9....6..5.7.4..3..7...9.....4...2.....1.3.8..4......1..5......6..2"
    assert main(["sudoku", "explain", hard, "--candidates"]) == 0
    out = capsys.readouterr().out
    assert "Logic stops here with 58 cells empty" in out and "rating: guessing" in out
    assert "9      8      1345   | 7      2346   1234   | 12356  1236   3456" in out
    assert main(["sudoku", "hint", hard]) == 1
    assert capsys.readouterr().out.startswith("no logical step: Logic stops here with 58")
    assert main(["sudoku", "hint", "." * 20 + hard[20:]]) == 2
    assert "several solutions" in capsys.readouterr().err


def test_solve_evolution_propagate_flag(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sudoku", "solve", ARTICLE, "--method", "evolution", "--seed", "1",
                 "--propagate", "-q"]) == 0
    out = capsys.readouterr().out
    assert SOLUTION_ROW1 in out and "evolution solved" in out
