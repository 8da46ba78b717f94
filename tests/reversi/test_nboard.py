"""NBoard protocol: a scripted client drives ``gameopt reversi nboard`` in a child process."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gameopt.core import Limit
from gameopt.reversi.board import Board, Move, parse_moves
from gameopt.reversi.book import _PERMS, Book, canonical, read_book
from gameopt.reversi.match import Player, play_game
from gameopt.reversi.nboard import NBoardEngine
from gameopt.reversi.search import search

GGF = ("(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------"
       "O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")
OPENING = "f5f6d3c5e6f7e7f4"  # the moves of GGF
AFTER = Board.from_moves(OPENING)


class Client:
    """The engine as a child process; lines read on a thread into a queue."""

    def __init__(self, *options: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gameopt.cli.main", "reversi", "nboard", *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, pred, timeout: float = 120.0) -> list[str]:  # type: ignore[no-untyped-def]
        """Lines up to and including the first one that satisfies ``pred``."""
        got: list[str] = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; got {got}")
            line = self.lines.get(timeout=left)
            got.append(line)
            if pred(line):
                return got

    def close(self) -> int:
        self.send("quit")
        return self.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def warm_kernels() -> None:
    """Load the engine's search kernels in this process first, compiling them into
    numba's on-disk cache if needed: the child process then loads them from the cache in
    seconds instead of compiling them for minutes (after a source edit, on a loaded
    machine) inside the replies' time limits."""
    out: list[str] = []
    e = NBoardEngine(out.append)
    for line in ("nboard 2", "set depth 2", "set game " + GGF, "go"):
        e.handle(line)
    e.wait_search()
    e.handle("hint 2")
    e.wait_search()
    assert any(s.startswith("===") for s in out)


@pytest.fixture
def client(warm_kernels: None):  # type: ignore[no-untyped-def]
    c = Client("--no-book")  # these tests drive the search
    yield c
    if c.proc.poll() is None:
        c.proc.kill()


def test_session_go_hint_move_learn(client: Client) -> None:
    client.send("nboard 2", "set depth 3", "set game " + GGF, "ping 1")
    got = client.until(lambda s: s.startswith("pong"))
    assert "set myname gameopt" in got and "set myname gameopt3" in got and got[-1] == "pong 1"
    client.send("go")
    got = client.until(lambda s: s.startswith("==="))
    move = got[-1].split()[1].split("/")
    assert Move.from_str(move[0]) in AFTER.legal_moves() and float(move[1]) == float(move[1])
    assert any(s.startswith("nodestats ") for s in got)
    client.send("hint 3")
    got = client.until(lambda s: s.startswith("nodestats"))
    hints = [s.split() for s in got if s.startswith("search ")]
    assert len(hints) == 3
    evals = [float(h[2]) for h in hints]
    assert evals == sorted(evals, reverse=True)
    assert all(Move.from_str(h[1][:2]) in AFTER.legal_moves() for h in hints)
    client.send(f"move {move[0]}/{move[1]}/0.1", "learn")
    assert client.until(lambda s: s == "learned")
    assert client.close() == 0


def test_ping_stops_a_long_search(client: Client) -> None:
    client.send("nboard 2", "set depth 40", "set game " + GGF, "go")
    client.until(lambda s: s.startswith("status gameopt is thinking"))
    time.sleep(0.5)
    t = time.monotonic()
    client.send("ping 7")
    got = client.until(lambda s: s.startswith("pong"), timeout=30)
    assert got[-1] == "pong 7" and not any(s.startswith("===") for s in got)
    assert time.monotonic() - t < 30
    client.send("ping 8")  # the stopped search sends nothing after its pong
    got = client.until(lambda s: s.startswith("pong"), timeout=30)
    assert got == ["pong 8"]
    assert client.close() == 0


def test_garbage_and_bad_arguments_are_survived(client: Client) -> None:
    client.send("nboard 2", "xyzzy plugh", "", "set", "set depth many", "set depth 99",
                "move", "move z9", "move a1", "hint lots", "set game (;GM[Chess];)",
                "set game garbage", "set depth 2", "set game " + GGF, "go")
    got = client.until(lambda s: s.startswith("==="))
    errors = [s for s in got if s.startswith("status error")]
    assert len(errors) == 8, errors  # depth many / 99, move / z9 / a1, hint, 2 games
    assert "a1 is not legal" in " ".join(errors)
    assert Move.from_str(got[-1].split()[1].split("/")[0]) in AFTER.legal_moves()
    assert client.close() == 0


def test_engine_pass_and_game_over() -> None:
    out: list[str] = []
    e = NBoardEngine(out.append)
    e.handle("nboard 2")
    # Black to move with no legal move while White has one: the answer is a pass
    e.board = Board.from_str("-X" + "O" * 62 + " X")
    e.handle("go")
    e.wait_search()
    assert "=== PA" in out
    e.board = Board.from_str("X" * 64 + " X")
    e.handle("go")
    e.wait_search()
    assert out[-1] == "status game over"


def test_learn_adds_the_game_to_the_book_file_and_go_plays_from_it(
        tmp_path: Path, warm_kernels: None) -> None:
    path = tmp_path / "book.npz"  # absent: learn creates it
    rest, _ = play_game(Player("a", depth=1, end_empties=6), Player("b", depth=1,
                                                                    end_empties=6), OPENING)
    moves = parse_moves(OPENING) + list(rest)
    client = Client("--book", str(path), "--learn-depth", "1")
    try:
        client.send("nboard 2", "set depth 1", "set game " + GGF,
                    *(f"move {'PA' if m.is_pass else m}" for m in rest), "learn")
        got = client.until(lambda s: s == "learned")
        n = sum(not m.is_pass for m in moves)
        assert f"status learned {len(moves)} moves: {n} new book positions, {n} in all" in got
        assert not any(s.startswith("status error") for s in got), got
        book = read_book(path)
        board = Board.start()
        for m in moves:  # every position of the game, with every move valued
            if not m.is_pass:
                assert set(book.lookup(board)) == set(board.legal_moves())
            board = board.play(m)
        assert board.is_game_over() and len(book) == n
        client.send("set game " + GGF, "go")  # a position of the learned line
        got = client.until(lambda s: s.startswith("==="))
        best = book.choose(AFTER)
        assert best is not None and "status book move" in got
        assert got[-1] == f"=== {best}/{book.lookup(AFTER)[best]:.2f}/0.0"
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_go_follows_the_book_over_the_search() -> None:
    searched = search(AFTER, Limit(depth=1)).move
    other = next(m for m in AFTER.legal_moves() if m != searched)
    key, t = canonical(AFTER)  # book entries hold squares in the key's frame
    entry = {int(_PERMS[t][m.square]): (5.0 if m == other else -5.0)
             for m in AFTER.legal_moves()}
    out: list[str] = []
    e = NBoardEngine(out.append, Book({key: entry}))
    e.handle("set depth 1")
    e.board = AFTER
    e.handle("go")
    e.wait_search()
    assert out[-2:] == [f"=== {other}/5.00/0.0", "status"]
    e.board = Board.from_moves(OPENING[:-2])  # not in the book: searched
    e.handle("go")
    e.wait_search()
    assert "status book move" not in out[-4:] and any(s.startswith("nodestats") for s in out)


def test_hint_answers_book_lines_in_the_book_and_searches_out_of_it() -> None:
    searched = search(AFTER, Limit(depth=1)).move
    other = next(m for m in AFTER.legal_moves() if m != searched)
    key, t = canonical(AFTER)
    entry = {int(_PERMS[t][m.square]): (5.0 if m == other else -5.0 - m.square / 100)
             for m in AFTER.legal_moves()}
    out: list[str] = []
    e = NBoardEngine(out.append, Book({key: entry}, meta={"eval_depth": 6}))
    e.handle("set depth 2")
    e.board = AFTER
    e.handle("hint 3")
    e.wait_search()
    lines = [s for s in out if s.startswith(("book ", "search "))]
    ranked = sorted(AFTER.legal_moves(), key=lambda m: -(5.0 if m == other else
                                                          -5.0 - m.square / 100))[:3]
    values = [5.0 if m == other else -5.0 - m.square / 100 for m in ranked]
    assert lines == [f"book {m} {v:.2f} 0 6" for m, v in zip(ranked, values, strict=True)]
    assert out[-1] == "status" and not any(s.startswith("nodestats") for s in out)
    out.clear()
    e.board = Board.from_moves(OPENING[:-2])  # not in the book: searched
    e.handle("hint 2")
    e.wait_search()
    assert [s.split()[0] for s in out if s.startswith(("book ", "search "))] == ["search"] * 2


def test_the_shipped_book_answers_hints_with_its_lines() -> None:
    from gameopt.reversi.book import DEFAULT, open_book

    book = open_book(DEFAULT)
    out: list[str] = []
    e = NBoardEngine(out.append, book)
    e.handle("set depth 4")
    e.board = Board.from_moves("f5")
    e.handle("hint 2")
    e.wait_search()
    lines = [s.split() for s in out if s.startswith("book ")]
    values = book.lookup(e.board)
    best = sorted(values.items(), key=lambda t: (-t[1], t[0].square))[:2]
    assert [x[0] for x in lines] == ["book", "book"] and len(lines) == 2
    for (m, v), (_, pv, ev, games, depth) in zip(best, lines, strict=True):
        assert pv.startswith(str(m)) and len(pv) > 4  # the move and the book's line after it
        assert (ev, games, depth) == (f"{v:.2f}", "0", str(book.meta["eval_depth"]))
    board = Board.from_moves("f5")  # the pv is the book's best line: legal, move by move
    for sq in (lines[0][1][i:i + 2] for i in range(0, len(lines[0][1]), 2)):
        board = board.play(next(m for m in board.legal_moves() if str(m) == sq))


def _go_from_the_start_answers_the_book(client: Client, book: Book) -> Move:
    """Start a session at the initial position, ``go``, and check that the answer is the
    book's best move with its value; returns the move."""
    best = book.choose(Board.start())
    assert best is not None
    client.send("nboard 2", "set depth 1", "set game " + GGF.split("B[F5]")[0] + ";)", "go")
    got = client.until(lambda s: s.startswith("==="))
    assert "status book move" in got
    assert got[-1] == f"=== {best}/{book.lookup(Board.start())[best]:.2f}/0.0"
    return best


def test_the_shipped_book_answers_go_and_learns_without_saving(warm_kernels: None) -> None:
    from gameopt.reversi.book import DEFAULT, SHIPPED, open_book

    stamp = SHIPPED.stat().st_mtime_ns
    client = Client("--book", "default", "--learn-depth", "1")
    try:
        _go_from_the_start_answers_the_book(client, open_book(DEFAULT))
        client.send("learn")
        got = client.until(lambda s: s == "learned")
        assert any("(not saved: no --book FILE)" in s for s in got), got
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
    assert SHIPPED.stat().st_mtime_ns == stamp


def test_by_default_the_shipped_book_answers_and_is_not_learned_into(
        warm_kernels: None) -> None:
    from gameopt.reversi.book import DEFAULT, open_book

    client = Client()  # no options: the shipped book
    try:
        best = _go_from_the_start_answers_the_book(client, open_book(DEFAULT))
        client.send(f"move {best}", "learn")
        got = client.until(lambda s: s == "learned", timeout=30)
        assert any("this engine does not learn into its book" in s for s in got), got
        assert client.close() == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()


def test_learn_without_a_book_says_so() -> None:
    out: list[str] = []
    e = NBoardEngine(out.append)
    e.handle("learn")
    assert out == ["status learn: no book (the engine was started with --no-book)",
                   "learned"]


@pytest.mark.parametrize("line, status", [
    ("hint -3", "status error: hint: number of moves -3 outside 1..64"),
    ("hint 0", "status error: hint: number of moves 0 outside 1..64"),
    ("hint lots", "status error: hint: number of moves 'lots' is not a whole number (1..64)"),
    ("set depth x", "status error: set depth: depth 'x' is not a whole number (1..60)"),
    ("set depth", "status error: set depth: no depth given (a whole number 1..60)"),
    ("set depth 99", "status error: set depth: depth 99 outside 1..60"),
    ("set game", "status error: set game: no GGF game given"),
    ("set game garbage", "status error: set game: game 1 (line 1): expected '(;' to start a "
                         "game, found 'garbage'"),
    ("set contempt", "status error: set contempt: no value given (a number of discs)"),
    ("set contempt x", "status error: set contempt: 'x' is not a finite number"),
    ("set contempt nan", "status error: set contempt: 'nan' is not a finite number"),
    ("move", "status error: move: no move given (a square such as d3, or PA)"),
    ("move z9", "status error: move: 'z9' is not a square (a1..h8)"),
    ("move a1/0.5", "status error: move: a1 is not legal here"),
    ("move PA", "status error: move: PA is not legal here"),
    ("A1", "status error: move: a1 is not legal here"),  # NBoard 1.1's bare move
    ("pa", "status error: move: PA is not legal here"),
    ("nboard two", "status error: nboard: protocol version 'two' is not a whole number "
                   "(1..99)"),
    ("set time", "status error: set time: no seconds given (seconds)"),
    ("set time soon", "status error: set time: seconds 'soon' is not a number of seconds >= 0"),
    ("set time 10 -1", "status error: set time: increment '-1' is not a number of seconds "
                       ">= 0"),
    ("set movetime 0", "status error: set movetime: seconds must be > 0"),
    ("set movetime inf", "status error: set movetime: seconds 'inf' is not a number of "
                         "seconds >= 0"),
])
def test_bad_arguments_answer_one_readable_status_line(line: str, status: str) -> None:
    out: list[str] = []
    e = NBoardEngine(out.append)
    e.handle(line)
    e.wait_search()
    assert out == [status]
    assert (e.depth, e.board, e.moves, e.contempt) == (8, Board.start(), [], 0.0)
    assert e.control is None and e.remaining is None


def test_a_bare_move_is_played_as_nboard_1_1_sends_it() -> None:
    """NBoard 1.1 sends ``F5`` where the protocol now says ``move F5``: both play it."""
    out: list[str] = []
    e = NBoardEngine(out.append)
    e.handle("set game " + GGF)
    first, second = AFTER.legal_moves()[:2]
    e.handle(str(first).upper())
    assert (e.board, e.moves[-1]) == (AFTER.play(first), first)
    reply = AFTER.play(first).legal_moves()[0]
    e.handle(f"{str(reply).upper()}/-1.5/0.2")
    assert (e.board, e.moves[-1]) == (AFTER.play(first).play(reply), reply)
    e.handle("set game " + GGF)
    e.handle(f"move {second}")
    assert e.board == AFTER.play(second) and out == []


def test_go_by_game_clock_and_by_time_per_move() -> None:
    """``set time`` makes go think on a clock that each answer's time is taken off;
    ``set movetime`` a fixed time; ``set depth`` returns to depth."""
    from gameopt.reversi.timing import TimeControl

    out: list[str] = []
    e = NBoardEngine(out.append)
    for line in ("nboard 2", "set game " + GGF, "set time 20 0.5", "go"):
        e.handle(line)
    e.wait_search()
    assert e.control == TimeControl(clock=20.0, increment=0.5, kind="wall")
    answer = [x for x in out if x.startswith("===")][-1]
    move, _, secs = answer.split()[1].split("/")
    assert Move.from_str(move) in AFTER.legal_moves()
    assert e.remaining is not None and e.remaining < 20.5
    e.handle("set movetime 0.05")
    e.handle("go")
    e.wait_search()
    assert e.control == TimeControl(move=0.05, kind="wall") and e.remaining is None
    e.handle("set depth 3")
    assert e.control is None


class Session:
    """``nboard.run`` in this process, fed through a pipe; output lines in a queue."""

    def __init__(self) -> None:
        import os

        from gameopt.reversi.nboard import run

        r, w = os.pipe()
        self.stdin = os.fdopen(r, "r")
        self.pipe = os.fdopen(w, "w")
        self.lines: queue.Queue[str] = queue.Queue()
        session = self

        class Out:
            def write(self, text: str) -> None:
                for line in text.splitlines():
                    session.lines.put(line)

            def flush(self) -> None:
                pass

        self.code: list[int] = []
        self.thread = threading.Thread(
            target=lambda: self.code.append(run(self.stdin, Out())), daemon=True)  # type: ignore[arg-type]
        self.thread.start()

    def send(self, *lines: str) -> None:
        for line in lines:
            self.pipe.write(line + "\n")
        self.pipe.flush()

    until = Client.until


def test_set_then_ping_during_a_long_hint_are_answered_at_once() -> None:
    """The GUI's pattern: ``set contempt`` then ``ping`` while a hint runs. The ping is read
    behind the queued ``set`` and stops the hint at once (it took the whole hint before)."""
    s = Session()
    s.send("nboard 2", "set depth 40", "set game " + GGF, "hint 5")
    s.until(lambda x: x.startswith("status gameopt is analysing"), timeout=60)
    time.sleep(0.3)
    t = time.monotonic()
    s.send("set contempt 2", "ping 4")
    got = s.until(lambda x: x.startswith("pong"), timeout=20)
    assert time.monotonic() - t < 20
    assert got[-1] == "pong 4" and not any(x.startswith(("search", "nodestats")) for x in got)
    s.send("quit")
    s.thread.join(timeout=20)
    assert s.code == [0]


def test_go_overtakes_a_running_hint() -> None:
    """A new ``go`` stops the hint (which answers nothing more); the ``set depth`` queued
    between them is taken, then the go answers at that depth."""
    s = Session()
    s.send("nboard 2", "set depth 40", "set game " + GGF, "hint 5")
    s.until(lambda x: x.startswith("status gameopt is analysing"), timeout=60)
    time.sleep(0.3)
    s.send("set depth 2", "go")
    got = s.until(lambda x: x.startswith("==="), timeout=30)
    assert "set myname gameopt2" in got and not any(x.startswith("search") for x in got)
    assert Move.from_str(got[-1].split()[1].split("/")[0]) in AFTER.legal_moves()
    s.send("quit")
    s.thread.join(timeout=20)
    assert s.code == [0]


def test_quit_during_a_deep_search_in_process() -> None:
    s = Session()
    s.send("nboard 2", "set depth 40", "set game " + GGF, "go")
    s.until(lambda x: x.startswith("status gameopt is thinking"), timeout=60)
    time.sleep(0.3)
    s.send("set contempt 1", "quit")
    s.thread.join(timeout=20)
    assert not s.thread.is_alive() and s.code == [0]


def test_child_process_set_and_ping_during_a_hint_then_quit_during_a_search(
        client: Client) -> None:
    client.send("nboard 2", "set depth 40", "set game " + GGF, "hint 3")
    client.until(lambda s: s.startswith("status gameopt is analysing"))
    time.sleep(0.5)
    t = time.monotonic()
    client.send("set contempt 1", "ping 5")
    got = client.until(lambda s: s.startswith("pong"), timeout=20)
    assert got[-1] == "pong 5" and not any(s.startswith("search") for s in got)
    assert time.monotonic() - t < 20
    client.send("go")
    client.until(lambda s: s.startswith("status gameopt is thinking"))
    time.sleep(0.5)
    t = time.monotonic()
    client.send("set contempt 2", "quit")
    assert client.proc.wait(timeout=20) == 0
    assert time.monotonic() - t < 20


def test_child_process_bad_arguments_answer_readable_lines(client: Client) -> None:
    client.send("nboard 2", "hint -3", "set depth x", "set", "set game garbage", "move z9",
                "set contempt", "ping 1")
    got = client.until(lambda s: s.startswith("pong"))
    errors = [s for s in got if s.startswith("status error")]
    assert errors == [
        "status error: hint: number of moves -3 outside 1..64",
        "status error: set depth: depth 'x' is not a whole number (1..60)",
        "status error: set game: game 1 (line 1): expected '(;' to start a game, found "
        "'garbage'",
        "status error: move: 'z9' is not a square (a1..h8)",
        "status error: set contempt: no value given (a number of discs)",
    ]
    assert not any(x in s for s in got for x in ("index out of range", "invalid literal"))
    assert client.close() == 0


@pytest.mark.parametrize("line", ["ping 3", "quit", "go", "hint 2", "set game " + GGF,
                                  "GO", "Set Game " + GGF])
def test_noticing_a_command_that_overtakes_the_search_stops_it(line: str) -> None:
    out: list[str] = []
    e = NBoardEngine(out.append)
    e.handle("set depth 40")
    e.board = AFTER
    e.notice("go")
    e.handle("go")
    time.sleep(0.3)
    e.notice("set contempt 1")  # queued, does not overtake: the search goes on
    time.sleep(0.3)
    worker = e._worker
    assert worker is not None and worker.is_alive()
    t = time.monotonic()
    e.notice(line)  # read behind the queued set contempt: stops the search now
    worker.join(timeout=20)
    assert not worker.is_alive() and time.monotonic() - t < 20
    assert not any(s.startswith("===") for s in out)


def test_a_hint_by_time_shares_the_move_budget_among_the_candidates(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``set movetime S`` a hint used to give every candidate the whole S (a hint of
    10 moves took 10 S); now each candidate gets S / (number of moves), on the same clock,
    and the game clock is not charged for a hint."""
    import gameopt.reversi.nboard as nb

    given: list[tuple[object, object]] = []
    real = nb.timed_move

    def spy(board: Board, control: object, remaining: object = None, **kw: object) -> object:
        given.append((control, remaining))
        return real(board, control, remaining, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(nb, "timed_move", spy)
    out: list[str] = []
    e = NBoardEngine(out.append)
    for line in ("nboard 2", "set game " + GGF, "set movetime 0.2", "hint 2"):
        e.handle(line)
    e.wait_search()
    n = len(AFTER.legal_moves())
    assert len([x for x in out if x.startswith("search ")]) == 2
    assert len(given) == n and n > 1
    assert all(c == nb.TimeControl(move=0.2 / n, kind="wall") and r is None
               for c, r in given)
    given.clear()
    e.handle("set time 30")
    before = e.remaining
    e.handle("hint 1")
    e.wait_search()
    soft, _ = nb.TimeControl(clock=30.0, kind="wall").allot(AFTER.empties, before)
    assert all(c == nb.TimeControl(move=soft / n, kind="wall") for c, _ in given)
    assert e.remaining == before


def test_go_searches_with_the_engines_evaluation() -> None:
    """``NBoardEngine(params=...)`` (``nboard --eval``) searches ``go`` with them: the
    value is that of a search with the heuristic, not the default weights'."""
    from gameopt.reversi.search import EvalKind, SearchParams

    heuristic = SearchParams(eval_kind=EvalKind.HEURISTIC)
    want = search(AFTER, Limit(depth=3), heuristic)
    default = search(AFTER, Limit(depth=3))
    assert round(want.score, 2) != round(default.score, 2)
    out: list[str] = []
    e = NBoardEngine(out.append, params=heuristic)
    for line in ("nboard 2", "set depth 3", "set game " + GGF, "go"):
        e.handle(line)
    e.wait_search()
    move, value = [s for s in out if s.startswith("===")][-1].split()[1].split("/")[:2]
    assert (move.lower(), float(value)) == (str(want.move), round(want.score, 2))
    r = subprocess.run([sys.executable, "-m", "gameopt.cli.main", "reversi", "nboard",
                        "--eval", "nope.npz"], input="", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and r.stderr.strip() == ("gameopt: error: weights file nope.npz: "
                                                      "no such file")
