"""External NBoard engines: the client against a scripted fake process, and a real match."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gameopt.errors import BudgetExhaustedError, InvalidInputError, SolverError
from gameopt.reversi.board import PASS, Board, parse_moves
from gameopt.reversi.external import ExternalPlayer, NBoardClient, parse_reply
from gameopt.reversi.match import Player, parse_player, play_game, run_match

FAKE = Path(__file__).resolve().parents[1] / "data" / "reversi" / "fake_nboard.py"
OURS = (sys.executable, "-m", "gameopt.cli.main", "reversi", "nboard", "--no-book")
#: Black to move has none (a1 empty, b1 black, the rest white); White can take a1.
BLACK_PASSES = Board.from_str("-X" + "O" * 62 + " X")


def fake(mode: str) -> tuple[str, ...]:
    return (sys.executable, str(FAKE), mode)


def test_moves_are_read_and_noise_skipped() -> None:
    with NBoardClient(fake("first"), depth=3, timeout=60) as client:
        assert client.name == "fake"
        moves = parse_moves("f5d6")
        reply = client.play(Board.start(), moves)
        assert reply.move == Board.from_moves("f5d6").legal_moves()[0]
        assert (reply.eval, reply.seconds) == (0.5, 0.01)
        assert reply.line.startswith("=== ")
        assert client.name == "fake-again"  # a later ``set myname`` is taken
        assert client.play(BLACK_PASSES).move == PASS
    assert client.proc.returncode == 0  # it quit when asked


@pytest.mark.parametrize("mode, line, numbers", [
    ("edax", "=== {m} 0.00 0.0", (0.0, 0.0)),
    ("bare", "=== {M}  ", (None, None)),
    ("evalonly", "=== {m}/-1.50\t", (-1.5, None)),
])
def test_reply_forms_of_real_engines_are_read(mode: str, line: str,
                                              numbers: tuple[float | None, float | None]
                                              ) -> None:
    """Edax 4.6 separates by spaces and names a pass PS; others send the move alone or
    with an eval only, in upper case, with trailing blanks."""
    board = Board.from_moves("f5d6")
    first = board.legal_moves()[0]
    with NBoardClient(fake(mode), depth=3, timeout=60) as client:
        reply = client.play(Board.start(), parse_moves("f5d6"))
        assert reply.move == first and (reply.eval, reply.seconds) == numbers
        assert reply.line == line.format(m=first, M=str(first).upper())
        assert client.play(BLACK_PASSES).move == PASS
    assert client.proc.returncode == 0


@pytest.mark.parametrize("line, move, numbers", [
    ("=== c3/1.5/0.2", "c3", (1.5, 0.2)),
    ("=== c3 1.5 0.2", "c3", (1.5, 0.2)),
    ("  ===  C4\t-2 ", "c4", (-2.0, None)),
    ("=== c6/x/nan", "c6", (None, None)),
    ("=== C7 +0.00 12.5 extra", "c7", (0.0, 12.5)),
])
def test_parse_reply_forms(line: str, move: str, numbers: tuple[float | None, ...]) -> None:
    reply = parse_reply(line, Board.from_moves("f5d6"), "engine 'x'")
    assert (str(reply.move), reply.eval, reply.seconds) == (move, *numbers)


@pytest.mark.parametrize("line", ["=== ", "===", "=== 0.5 c3", "== c3", "c3"])
def test_parse_reply_without_a_move(line: str) -> None:
    with pytest.raises(SolverError, match="engine 'x': cannot read a move from "):
        parse_reply(line, Board.from_moves("f5d6"), "engine 'x'")


@pytest.mark.parametrize("mode, error, message", [
    ("illegal", SolverError, r"'=== a1/0.0': a1 is not legal for black in .* \(legal: d3 c4 "),
    ("pass", SolverError, r"'=== PA': PA is not legal for black"),
    ("garbage", SolverError, r"cannot read a move from '=== zz/1.0'"),
    ("crash", SolverError, r"exited \(code 3\) while waiting for "
                           r"'=== MOVE' answer to go; its stderr ends: 'fake: crashed on "),
    ("hang", BudgetExhaustedError, r"no '=== MOVE' answer to go within 1 s; engine killed"),
])
def test_bad_answers_raise_naming_the_engine(mode: str, error: type[Exception],
                                             message: str) -> None:
    client = NBoardClient(fake(mode), timeout=60)  # a loaded machine may start it slowly
    # the fake that hangs never answers go: 1 s is no race at any load; the others answer
    # or exit at once, and a loaded machine may take more than a second to show it
    client.timeout = 1.0 if mode == "hang" else 30.0
    with pytest.raises(error, match=message) as info:
        client.play(Board.start())
    assert f"fake_nboard.py {mode}'" in str(info.value)  # the command line is named
    if error is not SolverError or mode == "crash":
        assert client.proc.poll() is not None  # killed (hang) or gone (crash)
    client.close()
    assert client.proc.poll() is not None


def test_engine_that_cannot_start() -> None:
    with pytest.raises(InvalidInputError, match="command '/nonexistent/engine' not found"):
        NBoardClient(["/nonexistent/engine", "-x"])
    with pytest.raises(SolverError, match=r"exited \(code 0\)"):
        NBoardClient([sys.executable, "-c", "pass"])
    with pytest.raises(InvalidInputError, match="empty command"):
        NBoardClient("")


def test_player_specs() -> None:
    p = parse_player(f"nboard={sys.executable} -m gameopt.cli.main reversi nboard --no-book, "
                     "depth=3, timeout=9.5", "B")
    assert p == ExternalPlayer("B", OURS, depth=3, timeout=9.5)
    assert parse_player("depth=3", "A") == Player("A", depth=3)
    for spec, message in [
        (f"nboard={sys.executable},end=12", r"'end=12': an external engine takes nboard="),
        (f"nboard={sys.executable},depth=x", r"invalid literal for int\(\) with base 10: 'x'"),
        (f"nboard={sys.executable},depth=99", "depth 99 outside 1..60"),
        ("nboard=/nonexistent/engine --flag", "engine command '/nonexistent/engine' not found"),
        ("nboard=", "nboard=COMMAND"),
        ("depth=2,speed=3", r"is not depth=N, end=N, eval=FILE, time=S, clock=S, inc=S, "
                            r"cpu, wall, mpc=0\|1, mpct=T, mpctable=FILE, mpcnest=1\|2, lazy=D, "
                            r"netmax=E, keep=0\|1, "
                            r"early=0\|1, passes=0\|1, book=FILE, "
                            r"variety=V or nboard=COMMAND"),
    ]:
        with pytest.raises(InvalidInputError, match=message):
            parse_player(spec, "B")


def test_game_against_the_fake_engine_is_its_first_moves() -> None:
    moves, diff = play_game(ExternalPlayer("fake", fake("first")), Player("us", depth=1,
                                                                          end_empties=6), "f5")
    board = Board.from_moves("f5")
    for m in moves:
        if board.side == "X":  # the fake plays Black
            assert m == board.legal_moves()[0]
        board = board.play(m)
    assert board.is_game_over() and diff == board.black_score()


def test_engine_failure_in_a_match_names_it() -> None:
    with pytest.raises(SolverError, match=r"job index 0 of 2 failed: SolverError: engine .*"
                                          r"crash'.*exited \(code 3\)"):
        run_match(ExternalPlayer("x", fake("crash")), Player("us", depth=1), ["f5d6"],
                  workers=1)


def test_our_engine_as_an_external_process_plays_the_same_games() -> None:
    """The NBoard engine at depth 2 solves exactly from max(2 + 8, 14) = 14 empties: the
    same engine as ``Player(depth=2, end_empties=14)``, and deterministic, so the games
    over the protocol are the games played in process."""
    openings = ["f5d6c3d3c4", "f5f6e6f4"]
    us = Player("us", depth=2, end_empties=14)
    # In process first: it compiles the kernels into the cache the engine process then
    # loads, so the engine's first answer is not a cold compile (minutes on a loaded CI
    # machine); the generous timeout bounds a hung engine, not a slow one.
    internal = run_match(Player("int", depth=2, end_empties=14), us, openings, workers=1)
    external = run_match(ExternalPlayer("ext", OURS, depth=2, timeout=600), us, openings,
                         workers=1)
    assert external.wins + external.draws + external.losses == len(external.games) == 4
    assert [g.moves for g in external.games] == [g.moves for g in internal.games]
    assert [g.black_diff for g in external.games] == [g.black_diff for g in internal.games]
    assert external.score == 0.5  # each pair cancels: same engine both sides
