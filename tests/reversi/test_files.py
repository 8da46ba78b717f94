"""OBF position suites and GGF game records: the shared FFO files, round trips, errors."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from gameopt.errors import InvalidInputError
from gameopt.reversi.board import BLACK, PASS, WHITE, Board, Move
from gameopt.reversi.files import (
    GgfGame,
    ObfEntry,
    format_ggf,
    format_obf_line,
    parse_ggf,
    parse_obf_line,
    read_ggf,
    read_obf,
    write_ggf,
    write_obf,
)

HERE = Path(__file__).resolve()
SAMPLE_GGF = HERE.parents[1] / "data" / "reversi" / "sample.ggf"
FFO_1 = ("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; "
         "H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;")
START_BO = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *"

# FFO #40-#59: best move(s) and exact score, from the data README (Edax and Egaroucid agree).
FFO_40_59 = [
    ("a2", 38), ("h4", 0), ("g2", 6), ("c7 g3", -12), ("d2 b8", -14), ("b2", 6), ("b3", -8),
    ("g2", 4), ("f6", 28), ("e1", 16), ("d8", 10), ("e2 a3", 6), ("a3", 0), ("d8", -2),
    ("c7", -2), ("g6 b7 e2 g4", 0), ("h5", 2), ("a6", -10), ("g1", 4), ("g8 h4 e8", 64),
]


def random_game(seed: int, with_pass: bool = False) -> GgfGame:
    """A seeded random game to its end (the first seed from ``seed`` with a pass, if asked)."""
    for s in range(seed, seed + 1000):
        rng = random.Random(s)
        board, moves = Board.start(), []
        while legal := board.legal_moves():
            moves.append(rng.choice(legal))
            board = board.play(moves[-1])
        if with_pass and PASS not in moves:
            continue
        evals = [None if rng.random() < 0.3 else round(rng.uniform(-64, 64), 2) for _ in moves]
        times = [None if rng.random() < 0.3 else rng.random() * 10 for _ in moves]
        tags = {"GM": "Othello", "PC": "test", "PB": f"seed {s}", "PW": "rng]\\x", "TY": "8"}
        return GgfGame(Board.start(), tuple(moves), tags, tuple(evals), tuple(times))
    raise AssertionError("no random game with a pass")


# ------------------------------------------------------------------------ OBF
def test_every_shared_obf_file_parses(reversi_data: Path) -> None:
    files = sorted(reversi_data.glob("*.obf"))
    assert [f.name for f in files] == ["fforum-1-19.obf", "fforum-20-39.obf",
                                       "fforum-40-59.obf", "fforum-60-79.obf"]
    counts = []
    for f in files:
        entries = read_obf(f)
        lines = [t for t in f.read_text().splitlines() if t.strip()]
        counts.append(len(entries))
        # Written back exactly as Edax wrote them; the trailing blank line of 60-79 skipped.
        assert [format_obf_line(e) for e in entries] == lines
        assert [e.line for e in entries] == list(range(1, len(entries) + 1))
        for e in entries:
            assert parse_obf_line(format_obf_line(e)) == e
            assert e.best_moves[0] == e.scores[0][0] and e.best_score == e.scores[0][1]
    assert counts == [19, 20, 20, 20]
    assert parse_obf_line(FFO_1) == read_obf(files[0])[0]


def test_ffo_40_59_answers(reversi_data: Path) -> None:
    entries = read_obf(reversi_data / "fforum-40-59.obf")
    ffo40 = entries[0]
    assert ffo40.best_moves == [Move.from_str("A2")] and ffo40.best_score == 38
    assert ffo40.board.side == BLACK and ffo40.board.empties == 20
    for number, (entry, (moves, score)) in enumerate(zip(entries, FFO_40_59, strict=True), 40):
        assert entry.best_score == score, number
        assert {str(m) for m in entry.best_moves} == set(moves.split()), number
        assert all(entry.board.is_legal(m) for m, _ in entry.scores)


def test_obf_entry_values() -> None:
    board = Board.from_str(FFO_1[:66])
    entry = ObfEntry(board, ((Move.from_str("g8"), 18), (Move.from_str("h1"), 18)), 0, " note ")
    assert entry.comment == "note" and entry.best_moves == [Move(62), Move(7)]
    text = format_obf_line(entry)
    assert text.endswith("X; G8:+18; H1:+18; % note") and parse_obf_line(text) == entry
    empty = ObfEntry(board)
    assert empty.best_score is None and empty.best_moves == []
    assert format_obf_line(empty) == FFO_1[:66] + ";" and parse_obf_line(FFO_1[:66]) == empty
    assert parse_obf_line(FFO_1, line=9).line == 9 and parse_obf_line(FFO_1, line=9) == \
        parse_obf_line(FFO_1)  # the line number is where it came from, not part of the value
    lower = parse_obf_line(FFO_1.replace("G8", "g8") + " % from Edax")
    assert lower.scores[0] == (Move(62), 18) and lower.comment == "from Edax"


def test_obf_pass_and_zero_scores() -> None:
    # A side with no move while the other has one: the only listed move is a pass.
    game = random_game(0, with_pass=True)
    board = game.start
    for move in game.moves:
        if move.is_pass:
            break
        board = board.play(move)
    entry = ObfEntry(board, ((PASS, 0),))
    assert format_obf_line(entry).endswith(f"{board.side}; PS:+0;")
    assert parse_obf_line(format_obf_line(entry)) == entry
    assert parse_obf_line(format_obf_line(entry).replace("PS", "pa")) == entry


@pytest.mark.parametrize(("line", "message"), [
    (FFO_1[:63] + " X; G8:+18;", r"f\.obf: line 7: 63 squares, expected 64"),
    (FFO_1[:64] + "; G8:+18;", r"f\.obf: line 7: the side to move \(X or O\) is missing"),
    (FFO_1[:64] + " Q; G8:+18;", r"f\.obf: line 7: side to move 'Q' is not X or O"),
    (FFO_1[:64] + " XO; G8:+18;", r"f\.obf: line 7: side to move 'XO' is not X or O"),
    ("Z" + FFO_1[1:], r"f\.obf: line 7: unknown character 'Z' at square a1"),
    (FFO_1[:66] + "; G8+18;", r"f\.obf: line 7: 'G8\+18' is not a move:score pair"),
    (FFO_1[:66] + "; :+18;", r"f\.obf: line 7: ':\+18' is not a move:score pair"),
    (FFO_1[:66] + "; G8:+1.5;", r"f\.obf: line 7: score '\+1\.5' of G8 is not an integer"),
    (FFO_1[:66] + "; G8:;", r"f\.obf: line 7: score '' of G8 is not an integer"),
    (FFO_1[:66] + "; G8:+66;", r"f\.obf: line 7: score 66 of G8 is not an integer in -64\.\.64"),
    (FFO_1[:66] + "; Z9:+6;", r"f\.obf: line 7: 'Z9' is not a square"),
    (FFO_1[:66] + "; A8:+6;", r"f\.obf: line 7: move A8 is illegal for X in --XXXXX"),
    (FFO_1[:66] + "; PS:+6;", r"f\.obf: line 7: move PS is illegal for X"),
    (FFO_1[:66] + "; G8:+6; g8:+4;", r"f\.obf: line 7: move G8 is listed twice"),
])
def test_obf_line_errors(line: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        parse_obf_line(line, "f.obf", 7)


def test_obf_entry_errors() -> None:
    board = Board.from_str(FFO_1[:66])
    with pytest.raises(InvalidInputError, match="ObfEntry: score 65 of G8"):
        ObfEntry(board, ((Move(62), 65),))
    with pytest.raises(InvalidInputError, match="ObfEntry: move A1 is illegal"):
        ObfEntry(board, ((Move(0), 0),))
    with pytest.raises(InvalidInputError, match="ObfEntry: comment 'a\\\\nb' holds a line"):
        ObfEntry(board, (), 0, "a\nb")


def test_obf_files(tmp_path: Path) -> None:
    good = FFO_1
    path = tmp_path / "suite.obf"
    path.write_text(f"% a comment\n\n{good}\n# another\n{good[:66]}; H1:+12; G8:+18;\n\n")
    entries = read_obf(path)
    assert [e.line for e in entries] == [3, 5]
    assert entries[1].best_moves == [Move(62)] and entries[1].best_score == 18
    out = tmp_path / "out.obf"
    write_obf(out, entries)
    assert out.read_text() == f"{good}\n{good[:66]}; H1:+12; G8:+18;\n"
    assert read_obf(out) == entries and sorted(os.listdir(tmp_path)) == ["out.obf", "suite.obf"]
    path.write_text(f"{good}\n\n% fine so far\n{good[:66]}; A8:+2;\n")
    with pytest.raises(InvalidInputError, match=r"suite\.obf: line 4: move A8 is illegal"):
        read_obf(path)
    with pytest.raises(InvalidInputError, match=r"missing\.obf: no such file"):
        read_obf(tmp_path / "missing.obf")
    with pytest.raises(InvalidInputError, match="does not exist"):
        write_obf(tmp_path / "no" / "x.obf", entries)


# ------------------------------------------------------------------------ GGF
def test_ggf_sample_file() -> None:
    games = read_ggf(SAMPLE_GGF)
    assert len(games) == 2
    ggs, nboard = games
    assert ggs.start == Board.start() and ggs.tags["PB"] == "player1" and "BO" not in ggs.tags
    assert [str(m) for m in ggs.moves] == ["f5", "d6", "c3", "d3", "c4"]
    assert ggs.evals == (None, 0.5, None, -1.0, None)
    assert ggs.times == (1.23, 2.1, None, 0.01, None)
    assert ggs.result == 4.0 and ggs.final_board() == Board.from_moves("f5d6c3d3c4")
    assert nboard.tags["DT"] == "2014-02-21 20:52:27 GMT" and nboard.tags["RE"] == "?"
    assert nboard.result is None and nboard.evals[-1] == 1.5 and nboard.times[-1] == 0.001
    assert nboard.final_board() == Board.from_moves("f5f6e6f4e3")
    for game in games:
        assert parse_ggf(format_ggf(game)) == [game]
    assert format_ggf(ggs).startswith("(;GM[Othello]PC[GGS/os]")
    assert f"BO[{START_BO}]B[F5//1.23]W[D6/0.5/2.1]B[C3]W[D3/-1.0/0.01]B[C4];)" in format_ggf(ggs)


def test_ggf_nboard_one_line() -> None:
    line = ("(;GM[Othello]PC[NBoard]PB[me]PW[you]RE[?]TI[0]TY[8]BO[8 " + "-" * 27 + "O*" + "-" * 6
            + "*O" + "-" * 27 + " *]B[F5]W[f6]B[E6/-2.5];)")
    (game,) = parse_ggf(line)
    assert game.moves == tuple(Move.from_str(s) for s in ("f5", "f6", "e6"))
    assert game.evals == (None, None, -2.5) and game.times == (None, None, None)
    assert parse_ggf(format_ggf(game)) == [game]


def test_ggf_round_trip_random_games(tmp_path: Path) -> None:
    games = [random_game(1, with_pass=True), random_game(2), random_game(3)]
    assert PASS in games[0].moves and "[PA" in format_ggf(games[0])
    for game in games:
        assert parse_ggf(format_ggf(game)) == [game]
        final = game.final_board()
        assert final.is_game_over()
        diff = final.score() if final.side == BLACK else -final.score()
        assert game.result == diff
    path = tmp_path / "games.ggf"
    write_ggf(path, games)
    assert read_ggf(path) == games and len(path.read_text().splitlines()) == 3
    assert parse_ggf("\n  \n".join(format_ggf(g) for g in games)) == games


def test_ggf_game_values() -> None:
    game = GgfGame(Board.start(), (Move(37),))
    assert game.tags == {"GM": "Othello"} and game.evals == (None,) and game.times == (None,)
    assert game.result is None and format_ggf(game) == f"(;GM[Othello]BO[{START_BO}]B[F5];)"
    white = GgfGame(Board.start().play("f5"), (Move.from_str("f6"),), {})
    assert format_ggf(white).startswith(f"(;BO[8 {'-' * 8} ") and "O]W[F6];)" in format_ggf(white)
    assert parse_ggf(format_ggf(white)) == [white] and white.start.side == WHITE
    clock = parse_ggf(f"(;BO[{START_BO}]B[F5//1:02.5];)")[0]
    assert clock.times == (62.5,)


@pytest.mark.parametrize(("text", "message"), [
    (f"(;GM[Othello]BO[{START_BO}]B[F5]W[F6]B[A1];)",
     r"x\.ggf: game 1 \(line 1\): move 3 B\[A1\]: illegal for X in "),
    (f"(;BO[{START_BO}]B[F5];)\n(;BO[{START_BO}]B[F5]B[F6];)",
     r"x\.ggf: game 2 \(line 2\): move 2 B\[F6\]: white is to move \(a pass is written W\[PA\]\)"),
    (f"(;BO[{START_BO}]B[F5]W[PA];)", r"game 1 \(line 1\): move 2 W\[PA\]: illegal for O"),
    (f"(;BO[{START_BO}]W[F5];)", r"move 1 W\[F5\]: black is to move"),
    (f"(;BO[{START_BO}]B[Z5];)", r"move 1 B\[Z5\]: 'Z5' is not a square"),
    (f"(;BO[{START_BO}]B[F5/x];)", r"move 1 B\[F5/x\]: eval 'x' is not a number"),
    (f"(;BO[{START_BO}]B[F5//nan];)", r"move 1 B\[F5//nan\]: time 'nan' is not a finite"),
    (f"(;BO[{START_BO}]B[F5/1/2/3];)", r"move 1 B\[F5/1/2/3\]: expected square/eval/time"),
    ("(;GM[Othello]B[F5];)", r"game 1 \(line 1\): no BO\[\.\.\.\] start position"),
    (f"(;GM[Go]BO[{START_BO}];)", r"GM\[Go\] is not an Othello game"),
    (f"(;BO[{START_BO}]BO[{START_BO}];)", r"a second BO or a size other than 8"),
    (f"(;BO[10 {'-' * 100} *];)", r"BO\[10 -+ \*\]: a second BO or a size other than 8"),
    ("(;BO[8 " + "-" * 64 + "];)", r"BO: the side to move \(X or O\) is missing"),
    ("(;BO[8 " + "-" * 60 + " *];)", r"BO: 60 squares, expected 64"),
    ("(;BO[8 " + "-" * 63 + "? *];)", r"BO: unknown character '\?' at square h8"),
    (f"(;PB[a]PB[b]BO[{START_BO}];)", r"property PB given twice"),
    (f"(;BO[{START_BO}]B[F5]", r"game 1 \(line 1\): line 1: expected a property or ';\)', found "
                              "the end"),
    (f"(;BO[{START_BO}]\n\nB[F5] junk;)", r"game 1 \(line 1\): line 3: expected a property .* "
                                          "found 'junk;\\)'"),
    (f"(;BO[{START_BO}];)\njunk", r"game 2 \(line 2\): expected '\(;' to start a game, found "
                                 "'junk'"),
])
def test_ggf_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        parse_ggf(text, "x.ggf")


def test_ggf_game_after_the_end_and_value_errors(tmp_path: Path) -> None:
    game = random_game(5)
    text = format_ggf(game).replace(";)", f"{'B' if len(game.moves) % 2 == 0 else 'W'}[PA];)")
    path = tmp_path / "over.ggf"
    path.write_text(format_ggf(game) + "\n" + text + "\n")
    with pytest.raises(InvalidInputError, match=rf"over\.ggf: game 2 \(line 2\): move "
                                                rf"{len(game.moves) + 1} [BW]\[PA\]: the game is "
                                                "over"):
        read_ggf(path)
    with pytest.raises(InvalidInputError, match=r"GgfGame: 2 evals for 1 moves"):
        GgfGame(Board.start(), (Move(37),), {}, (None, None))
    with pytest.raises(InvalidInputError, match=r"GgfGame: move 1 B\[A1\]: illegal for X"):
        GgfGame(Board.start(), (Move(0),))
    with pytest.raises(InvalidInputError, match=r"GgfGame: times \(inf,\) hold a non-finite"):
        GgfGame(Board.start(), (Move(37),), {}, (), (float("inf"),))
    with pytest.raises(InvalidInputError, match=r"GgfGame: 'pb' is not a tag name"):
        GgfGame(Board.start(), (), {"pb": "x"})
    with pytest.raises(InvalidInputError, match=r"GgfGame: 'BO' is not a tag name"):
        GgfGame(Board.start(), (), {"BO": "x"})
    with pytest.raises(InvalidInputError, match=r"nope\.ggf: no such file"):
        read_ggf(tmp_path / "nope.ggf")


@pytest.mark.parametrize("text, match", [
    # found by the fuzzing: int() of a 10,000-digit score, Unicode digits read as scores
    ("-" * 64 + " X; a1:" + "9" * 10_000 + ";", r"score '9999.*' of a1 is not an integer"),
    ("-" * 64 + " X; a1:+١٢;", r"score '\+١٢' of a1 is not an integer"),
])
def test_obf_scores_are_ascii_and_bounded(text: str, match: str) -> None:
    from gameopt.reversi.files import parse_obf_line

    with pytest.raises(InvalidInputError, match=match):
        parse_obf_line(text)


def test_ggf_messages_are_one_line() -> None:
    from gameopt.reversi.files import parse_ggf

    with pytest.raises(InvalidInputError, match=r"GM\[Oth\\nello\] is not an Othello") as e:
        parse_ggf("(;GM[Oth\nello]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *];)")
    assert "\n" not in str(e.value)


def test_ggf_move_text_on_one_line() -> None:
    from gameopt.reversi.files import parse_ggf

    with pytest.raises(InvalidInputError, match=r"move 1 B\[F\\n6\]") as e:
        parse_ggf("(;GM[Othello]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]B[F\n6];)")
    assert "\n" not in str(e.value)
