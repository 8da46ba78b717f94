"""``gameopt reversi``: perft, solve, analyse, bench, and one-line errors (exit 2)."""

from __future__ import annotations

import ast
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest

from gameopt.cli.main import main
from gameopt.reversi.board import Board
from gameopt.reversi.files import read_ggf
from gameopt.reversi.weights import read_weights
from tests.reversi.positions import random_position


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reversi", "perft", "7"]) == 0
    out = capsys.readouterr().out
    assert "| 7     | 55,092" in out


def test_solve_position_and_obf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    b = random_position(7, 12)
    assert main(["reversi", "solve", str(b)]) == 0
    out = capsys.readouterr().out
    assert "| position |" in out and "nodes/s" in out
    obf = tmp_path / "p.obf"
    obf.write_text(f"{str(b).replace(' ', ' ')};\n{random_position(8, 10)};\n")
    assert main(["reversi", "solve", "--obf", str(obf)]) == 0
    out = capsys.readouterr().out
    assert "line 1" in out and "line 2" in out


def test_analyse_by_time_is_not_capped_at_the_default_depth(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    search_mod = importlib.import_module("gameopt.reversi.search")

    seen = []
    real = search_mod.search

    def spy(board, limit=None, params=None, progress=None, **kw):  # type: ignore[no-untyped-def]
        seen.append(limit)
        return real(board, limit, params, progress, **kw)

    monkeypatch.setattr(search_mod, "search", spy)
    assert main(["reversi", "analyse", "f5d6c3", "--time-limit", "0.05", "-q"]) == 0
    assert main(["reversi", "analyse", "f5d6c3", "-q"]) == 0
    assert [(lim.depth, lim.time) for lim in seen] == [(None, 0.05), (12, None)]


def test_analyse_move_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reversi", "analyse", "f5d6c3", "--depth", "4"]) == 0
    out = capsys.readouterr().out
    assert "| 4     |" in out and "white to move" in out


def test_bench_ffo_first_positions(reversi_data: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reversi", "bench", "ffo", "--range", "1-3", "--data",
                 str(reversi_data)]) == 0
    out = capsys.readouterr().out
    assert "| total |" in out and "3/3" in out


@pytest.mark.parametrize("args, message", [
    (["reversi", "solve", "X" * 63 + "-"], "the side to move (X or O) is missing"),
    (["reversi", "solve", "X" * 30], "is not a move"),
    (["reversi", "solve", "X" * 63 + "Z X"], "unknown character 'Z' at square h8"),
    (["reversi", "solve", "X" * 66], "66 characters"),
    (["reversi", "solve", "f5d6c3c3"], "ply 4: c3 is illegal for white"),
    (["reversi", "analyse", "f5 zz"], "is not a move"),
    (["reversi", "perft", "99"], "perft depth 99"),
    (["reversi", "solve", "f5d6", "--time-limit", "nan"], "--time-limit nan"),
    (["reversi", "analyse", "f5d6", "--time-limit", "-1"], "--time-limit -1.0"),
    (["reversi", "analyse", "f5d6", "--depth", "0"], "--depth 0"),
    (["reversi", "bench", "ffo", "--range", "50-40"], "--range '50-40'"),
    (["reversi", "bench", "ffo", "--data", "/nonexistent"], "no such directory"),
    (["reversi", "solve"], "give a POSITION or --obf FILE"),
    (["reversi", "match", "--a", "depth=x"],
     "is not depth=N, end=N, eval=FILE, time=S, clock=S, inc=S, cpu, wall, mpc=0|1, mpct=T, "
     "mpctable=FILE, mpcnest=1|2, lazy=D, netmax=E, keep=0|1, early=0|1, passes=0|1, "
     "book=FILE, variety=V or "
     "nboard=COMMAND"),
    (["reversi", "match", "--b", "nboard=/nonexistent/engine"],
     "engine command '/nonexistent/engine' not found"),
    (["reversi", "match", "--b", "nboard=gameopt reversi nboard,end=3"],
     "'end=3': an external engine takes nboard=COMMAND, depth=N and timeout=SECONDS"),
    (["reversi", "match", "--openings", "/nonexistent.txt"], "no such file"),
    (["reversi", "openings", "-n", "0", "-o", "/tmp/never-written.txt"], "count=0"),
    (["reversi", "nboard", "--learn-depth", "0"], "--learn-depth 0: expected 1..60"),
    (["reversi", "nboard", "--learn-depth", "3"], "--learn-depth 3: learning needs --book"),
    (["reversi", "nboard", "--no-book", "--learn-depth", "3"],
     "--learn-depth 3: learning needs --book"),
])
def test_bad_input_one_line_exit_2(args: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_bad_obf_line_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obf = tmp_path / "bad.obf"
    good = str(random_position(9, 10))
    obf.write_text(f"{good};\n{good[:40]} X;\n")
    assert main(["reversi", "solve", "--obf", str(obf)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and err.count("\n") == 1


def test_openings_then_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ops.txt"
    assert main(["reversi", "openings", "-n", "3", "--plies", "4", "--depth", "2",
                 "--max-abs", "4", "-o", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 3
    assert main(["reversi", "match", "--a", "depth=2", "--b", "depth=1", "--openings",
                 str(out), "--workers", "1", "-q"]) == 0
    text = capsys.readouterr().out
    assert "6 games" in text and "Elo" in text and "p " in text
    games = tmp_path / "m.ggf"
    assert main(["reversi", "match", "--a", "depth=2", "--b", "depth=1", "--openings",
                 str(out), "--workers", "1", "-q", "--games", str(games)]) == 0
    assert f"wrote 6 games to {games}" in capsys.readouterr().out
    assert len(read_ggf(games)) == 6 and not (tmp_path / "m.ggf.part").exists()
    first = tmp_path / "first.ggf"  # -n with --openings: the file's first N
    assert main(["reversi", "match", "--a", "depth=2", "--b", "depth=1", "--openings",
                 str(out), "-n", "2", "--workers", "1", "-q", "--games", str(first)]) == 0
    assert "4 games" in capsys.readouterr().out
    assert ([g.moves[:4] for g in read_ggf(first)]
            == [g.moves[:4] for g in read_ggf(games)[:4]])
    for n, message in (("4", f"--count 4: {out} has 3 openings"),
                       ("0", "--count 0: expected at least 1 pair")):
        assert main(["reversi", "match", "--openings", str(out), "-n", n, "-q"]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    bad = tmp_path / "no" / "m.ggf"
    assert main(["reversi", "match", "--openings", str(out), "--workers", "1", "-q",
                 "--games", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: directory" in err and err.count("\n") == 1


def test_match_from_the_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.ggf"
    assert main(["reversi", "match", "--a", "depth=1,book=default,variety=4", "--b",
                 "depth=1", "-n", "3", "--plies", "0", "--workers", "1", "-q",
                 "--games", str(out)]) == 0
    assert "6 games" in capsys.readouterr().out
    games = read_ggf(out)
    assert len(games) == 6 and all(g.start == Board.start() for g in games)
    assert len({tuple(g.moves) for g in games}) > 2
    assert main(["reversi", "match", "--a", "depth=1", "--b", "depth=1,end=4", "-n", "2",
                 "--plies", "0", "--workers", "1", "-q"]) == 0
    cap = capsys.readouterr()
    assert "neither player has book variety" in cap.err and "4 games" in cap.out
    assert main(["reversi", "match", "-n", "0", "--plies", "0"]) == 2
    assert "--count 0: expected at least 1 pair" in capsys.readouterr().err
    assert main(["reversi", "match", "-n", "2", "--plies", "-1"]) == 2
    assert "plies=-1" in capsys.readouterr().err


def test_train_generate_fit_then_match_with_the_weights(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    data, weights = tmp_path / "d.npz", tmp_path / "w.npz"
    assert main(["reversi", "train", "generate", "--games", "6", "--exact", "10",
                 "--workers", "1", "-q", "-o", str(data)]) == 0
    labelled = tmp_path / "l.npz"
    assert main(["reversi", "train", "label", str(data), "--depth", "2", "--workers", "1",
                 "-q", "-o", str(labelled)]) == 0
    assert "backed-up searches" in capsys.readouterr().out
    assert main(["reversi", "train", "fit", str(labelled), "--iters", "5", "-o",
                 str(weights)]) == 0
    out = capsys.readouterr().out
    assert "validation MAE" in out and "wrote" in out
    smooth = tmp_path / "ws.npz"
    assert main(["reversi", "train", "fit", str(labelled), "--iters", "5", "--smooth", "-q",
                 "-o", str(smooth)]) == 0
    assert read_weights(smooth)[1]["smooth"] is True
    assert read_weights(weights)[1]["smooth"] is False
    held = tmp_path / "wh.npz"  # go on from weights; damped hard, they stay as they were
    assert main(["reversi", "train", "fit", str(labelled), "--iters", "5", "--damp", "1e6",
                 "--start", str(weights), "-q", "-o", str(held)]) == 0
    assert read_weights(held)[1]["start"] == str(weights)
    assert np.allclose(read_weights(held)[0], read_weights(weights)[0], atol=1e-3)
    assert main(["reversi", "train", "fit", str(labelled), "--iters", "5", "--start",
                 str(weights), "-o", str(tmp_path / "wh2.npz")]) == 0
    assert "start's validation MAE" in capsys.readouterr().out
    assert main(["reversi", "train", "fit", str(labelled), "--start", str(data), "-o",
                 str(tmp_path / "bad.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert str(data) in err and len(err.splitlines()) == 1
    assert not (tmp_path / "bad.npz").exists()
    assert main(["reversi", "train", "label", str(weights), "-o", str(labelled)]) == 2
    capsys.readouterr()
    assert main(["reversi", "train", "label", str(data), "--depth", "2", "--mix", "0.5",
                 "--workers", "1", "-q", "-o", str(tmp_path / "m.npz")]) == 0
    assert "mixed with 0.5 of the game result" in capsys.readouterr().out
    assert main(["reversi", "train", "label", str(data), "--mix", "2", "-o",
                 str(tmp_path / "m2.npz")]) == 2
    err = capsys.readouterr().err.strip()
    assert "mix=2" in err and len(err.splitlines()) == 1 and not (tmp_path / "m2.npz").exists()
    data2, lined = tmp_path / "d2.npz", tmp_path / "line.npz"
    assert main(["reversi", "train", "generate", "--games", "3", "--exact", "10",
                 "--random-plies", "9-12", "--seed", "4", "--workers", "1", "-q", "-o",
                 str(data2)]) == 0
    capsys.readouterr()
    assert main(["reversi", "train", "label", str(data), str(data2), "--line", "--iters",
                 "5", "-q", "-o", str(lined)]) == 0
    assert "along the game lines" in capsys.readouterr().out
    assert main(["reversi", "train", "fit", str(lined), "--iters", "5", "-q", "--holdout",
                 "0", "-o", str(smooth)]) == 0
    assert "(0 held out)" in capsys.readouterr().out
    assert main(["reversi", "train", "fit", str(lined), "--holdout", "1", "-o",
                 str(smooth)]) == 2
    mixed = tmp_path / "mixed.npz"
    assert main(["reversi", "train", "blend", str(weights), str(smooth), "--share", "0.3",
                 "-o", str(mixed)]) == 0
    assert read_weights(mixed)[1]["blend"]["share"] == 0.3
    assert np.allclose(read_weights(mixed)[0], 0.3 * read_weights(weights)[0]
                       + 0.7 * read_weights(smooth)[0], atol=1e-5)
    assert main(["reversi", "train", "blend", str(weights), str(data), "-o",
                 str(mixed)]) == 2
    assert main(["reversi", "train", "generate", "--random-plies", "8-x", "-o",
                 str(data2)]) == 2
    assert main(["reversi", "train", "label", str(data), str(labelled), str(weights),
                 "--line", "-o", str(lined)]) == 2
    branched, both = tmp_path / "b.npz", tmp_path / "both.npz"
    capsys.readouterr()
    assert main(["reversi", "train", "branch", str(data), str(data2), "--seed", "2", "-o",
                 str(branched)]) == 0
    assert "one random move off the lines" in capsys.readouterr().out
    assert main(["reversi", "train", "fit", str(branched), "-o", str(smooth)]) == 2
    assert "unlabelled" in capsys.readouterr().err
    assert main(["reversi", "train", "label", str(data), str(branched), "--depth", "1",
                 "--workers", "1", "-q", "-o", str(both)]) == 0
    assert main(["reversi", "train", "fit", str(both), "--iters", "5", "-q", "-o",
                 str(smooth)]) == 0
    assert main(["reversi", "train", "branch", str(data), "--share", "2", "-o",
                 str(branched)]) == 2
    assert "share=2.0" in capsys.readouterr().err
    assert main(["reversi", "match", "--a", f"depth=1,eval={weights}", "--b", "depth=1",
                 "-n", "1", "--plies", "2", "--workers", "1", "-q"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert main(["reversi", "match", "--a", f"eval={tmp_path / 'none.npz'}"]) == 2


@pytest.mark.parametrize("stop", ["error", "interrupt"])
def test_a_stopped_match_says_where_its_games_are(
        stop: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import gameopt.reversi.match as match_mod
    from gameopt.errors import SolverError

    real = match_mod.run_match

    def one_game_then_stop(a, b, ops, **kw):  # type: ignore[no-untyped-def]
        real(a, b, ops[:1], workers=1, on_game=lambda g: (kw["on_game"](g), stop_now()))

    def stop_now() -> None:
        if stop == "error":
            raise SolverError("engine B exited (code 3)")
        raise KeyboardInterrupt

    monkeypatch.setattr(match_mod, "run_match", one_game_then_stop)
    games = tmp_path / "m.ggf"
    code = main(["reversi", "match", "--a", "depth=1", "--b", "depth=2", "-n", "2",
                 "--plies", "2", "-q", "--games", str(games)])
    err = capsys.readouterr().err
    assert code == (2 if stop == "error" else 130)
    assert f"1 finished games kept in {games}.part" in err
    if stop == "error":
        assert "engine B exited (code 3)" in err and err.count("\n") == 1
    assert len(read_ggf(f"{games}.part")) == 1 and not games.exists()


def test_match_against_an_external_engine(capsys: pytest.CaptureFixture[str]) -> None:
    fake = Path(__file__).resolve().parents[1] / "data" / "reversi" / "fake_nboard.py"
    engine = shlex.join([sys.executable, str(fake)])
    assert main(["reversi", "match", "--a", "depth=1", "--b", f"nboard={engine} first",
                 "-n", "1", "--plies", "2", "--workers", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "vs B nboard=" in out and "2 games" in out
    assert main(["reversi", "match", "--a", "depth=1", "--b", f"nboard={engine} crash",
                 "-n", "1", "--plies", "2", "--workers", "1", "-q"]) == 2
    err = capsys.readouterr().err
    assert "exited (code 3)" in err and err.count("\n") == 1


def test_nboard_takes_a_book_or_no_book(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["reversi", "nboard", "--book", "b.npz", "--no-book"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1
    assert "argument --no-book: not allowed with argument --book" in err


def test_nboard_book_that_is_not_a_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    assert main(["reversi", "nboard", "--book", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "junk.npz: not an NPZ file" in err and err.count("\n") == 1


def test_time_limit_names_its_clock(capsys: pytest.CaptureFixture[str]) -> None:
    b = random_position(11, 40)
    assert main(["reversi", "solve", str(b), "--time-limit", "0.3", "--clock", "cpu"]) == 1
    assert "stopped by the time limit" in capsys.readouterr().err
    assert main(["reversi", "analyse", str(b), "--depth", "60", "--time-limit", "0.3"]) == 0
    assert "| wall s |" in capsys.readouterr().out
    assert main(["reversi", "analyse", "f5d6", "--depth", "3", "--clock", "cpu"]) == 0
    assert "| cpu s |" in capsys.readouterr().out


def test_front_ends_import_no_private_reversi_module() -> None:
    root = Path(__file__).resolve().parents[2]
    files = [root / "src/gameopt/cli/reversi.py", root / "src/gameopt/cli/demo.py",
             *sorted((root / "benchmarks").glob("bench_reversi_*.py"))]
    assert len(files) >= 4
    for f in files:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith("gameopt.reversi._"), f"{f.name} imports {name}"
