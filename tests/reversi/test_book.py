"""Opening book: symmetry, negamax backing, files, use in play."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gameopt.core import Limit
from gameopt.errors import InvalidInputError
from gameopt.reversi.board import PASS, Board, Move, parse_moves
from gameopt.reversi.book import (
    _PERMS,
    DEFAULT,
    SHIPPED,
    Book,
    _apply,
    build_book,
    canonical,
    empty_book,
    learn_line,
    open_book,
    read_book,
    write_book,
)
from gameopt.reversi.match import Player, play_game
from gameopt.reversi.search import search


def test_symmetries_are_a_group_of_8_on_boards() -> None:
    b = Board.from_moves("f5d6c3d3c4")
    images = {(_apply(p, b.player), _apply(p, b.opponent)) for p in _PERMS}
    assert len(images) == 8
    for p in _PERMS:
        assert sorted(p) == list(range(64))
    # every first move leads to the same canonical position
    keys = {canonical(Board.start().play(m))[0] for m in Board.start().legal_moves()}
    assert len(keys) == 1


def _value_after(board: Board, depth: int) -> float:
    if board.is_game_over():
        return float(-board.score())
    return -search(board, Limit(depth=depth)).score


def test_full_width_book_is_the_negamax_of_the_leaf_searches() -> None:
    book = build_book(depth=2, eval_depth=1, width=1000.0)
    root = Board.start()
    vals = book.lookup(root)
    assert set(vals) == set(root.legal_moves())
    for m, v in vals.items():
        child = root.play(m)
        grand = [_value_after(child.play(m2), 1) for m2 in child.legal_moves()]
        assert v == pytest.approx(-max(grand))  # backed up from depth 2
        assert book.lookup(child) == pytest.approx(
            {m2: g for m2, g in zip(child.legal_moves(), grand, strict=True)})


def test_width_zero_expands_only_the_best_and_files_round_trip(tmp_path: Path) -> None:
    book = build_book(depth=4, eval_depth=1, width=0.0)
    assert 2 <= len(book) <= 20
    write_book(tmp_path / "b.npz", book)
    again = read_book(tmp_path / "b.npz")
    assert again.meta == book.meta and again.entries.keys() == book.entries.keys()
    for key, vals in book.entries.items():  # values are stored as float32
        assert again.entries[key] == pytest.approx(vals, abs=1e-5)
    board = Board.start()
    for _ in range(3):  # the best backed-up move is always expanded, even at width 0
        m = book.choose(board)
        assert m is not None and m in board.legal_moves()
        assert book.lookup(board.play(m))
        board = board.play(m)


def test_the_window_follows_the_backed_up_values() -> None:
    """A move first outside the window is expanded once the expanded ones fall below it:
    at every book position above the last ply, each move within ``width`` of the best
    backed-up value leads into the book, and each value is that of its child."""
    depth, width = 4, 0.5
    book = build_book(depth=depth, eval_depth=1, width=width)
    boards, frontier = [], [Board.start()]
    for _ in range(depth - 1):  # the book positions of plies 0 .. depth - 2
        boards += frontier
        frontier = [b.play(m) for b in frontier for m, v in book.lookup(b).items()
                    if v >= max(book.lookup(b).values()) - width]
        assert all(book.lookup(c) for c in frontier)
    for b in boards:
        vals = book.lookup(b)
        for m, v in vals.items():
            child = book.lookup(b.play(m))
            if child:  # expanded: backed up by negamax
                assert v == pytest.approx(-max(child.values()))


def test_unexpanded_moves_are_valued_at_the_leaves_parity() -> None:
    """A move left out of the expansion at ply p is searched ``eval_depth`` plies deep at
    the last ply and one deeper where ``depth - 1 - p`` is odd: every value rests on leaves
    ``depth + eval_depth`` plies from the start, up to an even number."""
    depth, eval_depth, width = 4, 1, 0.5
    book = build_book(depth=depth, eval_depth=eval_depth, width=width)
    assert book.meta["leaf_parity"] is True
    level, seen, checked = [Board.start()], set(), {0: 0, 1: 0}
    for ply in range(depth):
        nxt = []
        for b in level:
            vals = book.lookup(b)
            for m, v in vals.items():
                child = b.play(m)
                if book.lookup(child) and ply + 1 < depth:
                    if str(child) not in seen:
                        seen.add(str(child))
                        nxt.append(child)
                else:
                    d = eval_depth + (depth - 1 - ply) % 2
                    assert v == pytest.approx(_value_after(child, d)), (ply, str(m))
                    checked[d - eval_depth] += 1
        level = nxt
    assert checked[0] >= 5 and checked[1] >= 5  # both parities met


def test_a_book_line_follows_the_best_moves() -> None:
    book = build_book(depth=4, eval_depth=1, width=0.0)
    start = Board.start()
    first = book.choose(start)
    assert first is not None
    line = book.line(start, first)
    board = start.play(first)
    for m in line[1:]:  # each later move is the book's choice where it stands
        assert m == book.choose(board)
        board = board.play(m)
    assert not book.lookup(board) and 2 <= len(line) <= 10
    assert book.line(start, first, longest=2) == line[:2]


def test_threads_build_the_same_book(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    one = build_book(depth=4, eval_depth=2, width=1.0, workers=1)
    two = build_book(depth=4, eval_depth=2, width=1.0, workers=2)
    assert len(one) > 5 and one.entries == two.entries and one.meta == two.meta
    for bad in (0, -1, 1.5, True):
        with pytest.raises(InvalidInputError, match=f"workers={bad!r}: need a whole number"):
            build_book(depth=1, eval_depth=1, workers=bad)  # type: ignore[arg-type]
    out = tmp_path / "b.npz"
    assert main(["reversi", "book", "build", "--depth", "4", "--eval-depth", "2", "--width",
                 "1", "--workers", "2", "-q", "-o", str(out)]) == 0
    again = read_book(out)  # values are stored as float32
    assert again.entries.keys() == one.entries.keys()
    for key, vals in one.entries.items():
        assert again.entries[key] == pytest.approx(vals, abs=1e-5)
    assert main(["reversi", "book", "build", "--workers", "0", "-o", str(tmp_path / "c.npz")]) == 2
    assert "workers=0: need a whole number >= 1" in capsys.readouterr().err
    assert not (tmp_path / "c.npz").exists()


def test_openings_are_the_distinct_book_positions_at_a_ply(tmp_path: Path) -> None:
    from gameopt.cli.main import main

    book = build_book(depth=4, eval_depth=1, width=1.0)

    def walk(plies: int, max_loss: float | None) -> set[tuple[int, int]]:
        """Every position reached by ``plies`` book moves, each into the book (brute force
        over move sequences, without the symmetry reduction)."""
        level = [Board.start()]
        for _ in range(plies):
            nxt = []
            for b in level:
                vals = book.lookup(b)
                for m, v in vals.items():
                    if (max_loss is None or v >= max(vals.values()) - max_loss) \
                            and book.lookup(b.play(m)):
                        nxt.append(b.play(m))
            level = nxt
        return {canonical(b)[0] for b in level}

    for plies in (1, 2, 3):
        for loss in (None, 0.0, 0.5):
            ops = book.openings(plies, loss)
            assert ops == sorted(ops) and all(len(op) == 2 * plies for op in ops)
            keys = [canonical(Board.from_moves(op))[0] for op in ops]
            assert len(set(keys)) == len(keys)  # one line per position up to symmetry
            assert set(keys) == walk(plies, loss)
            for op in ops:  # each position of the line is in the book
                assert all(book.lookup(Board.from_moves(op[:2 * k])) for k in range(plies + 1))
    assert len(book.openings(3)) > len(book.openings(3, 0.0)) >= 1
    with pytest.raises(InvalidInputError, match="no book position 4 plies from the start"):
        book.openings(4)
    with pytest.raises(InvalidInputError, match="plies=0"):
        book.openings(0)
    with pytest.raises(InvalidInputError, match="max_loss=-1"):
        book.openings(2, -1.0)
    path, out = tmp_path / "b.npz", tmp_path / "ops.txt"
    write_book(path, book)
    assert main(["reversi", "book", "openings", "--plies", "2", "--book", str(path),
                 "-o", str(out)]) == 0
    assert out.read_text().split() == book.openings(2)
    assert main(["reversi", "book", "openings", "--plies", "9", "--book", str(path),
                 "-o", str(tmp_path / "never.txt")]) == 2
    assert not (tmp_path / "never.txt").exists()


def test_variety_and_use_in_games() -> None:
    book = build_book(depth=2, eval_depth=1, width=1000.0)
    rng = np.random.default_rng(0)
    picks = {book.choose(Board.start(), variety=100.0, rng=rng) for _ in range(40)}
    assert picks == set(Board.start().legal_moves())
    moves, _ = play_game(Player("a", depth=1, end_empties=4, book=book),
                         Player("b", depth=1, end_empties=4))
    assert moves[0] == book.choose(Board.start())


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no such file"):
        read_book(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(InvalidInputError, match=r"^book file .*junk.npz: not an NPZ file"):
        read_book(tmp_path / "junk.npz")
    good = build_book(depth=1, eval_depth=1)
    write_book(tmp_path / "good.npz", good)
    with np.load(tmp_path / "good.npz") as z:
        arrays = {k: z[k] for k in z.files}

    def damaged(**change: object) -> Path:
        path = tmp_path / "damaged.npz"
        np.savez_compressed(path, **{**arrays, **change})  # type: ignore[arg-type]
        return path

    meta = json.loads(str(arrays["meta"]))
    for change, message in [
        ({"meta": np.array("[1, 2]")}, r"^book file .*: meta: not a JSON object$"),
        ({"meta": np.array(json.dumps({**meta, "format": "x"}))}, r"format 'x', expected"),
        ({"meta": np.zeros(3)}, r"meta: missing or not a JSON text$"),
        ({"values": arrays["values"].astype(np.float64)[:, :5]},
         r"^book file .*damaged.npz: arrays of inconsistent shapes$"),
        ({"moves": arrays["moves"].astype(np.float64)}, r"arrays of the wrong types"),
        ({"moves": np.where(arrays["moves"] >= 0, 64, -1).astype(np.int8)},
         r"entry 0 has a square outside 0..63$"),
        ({"values": np.full_like(arrays["values"], np.nan)}, r"entry 0 has a value that is "
                                                             r"not finite$"),
    ]:
        with pytest.raises(InvalidInputError, match=message):
            read_book(damaged(**change))
    # keys with the top bit set, stored signed: read as the same 64 bits
    high = Book(entries={((1 << 63) | 1, 2): {5: 1.0}}, meta=meta)
    write_book(tmp_path / "high.npz", high)
    with np.load(tmp_path / "high.npz") as z:
        arrays = {k: z[k] for k in z.files}
    signed = damaged(player=arrays["player"].view(np.int64))
    assert int(np.load(signed)["player"][0]) < 0
    assert read_book(signed).entries == high.entries
    with pytest.raises(InvalidInputError, match="depth=0"):
        build_book(depth=0)


#: Black to move has none (a1 empty, b1 black, the rest white); White takes a1 and ends it.
BLACK_PASSES = Board.from_str("-X" + "O" * 62 + " X")


def _line(opening: str) -> tuple[list[Move], list[Board]]:
    moves = parse_moves(opening)
    played, _ = play_game(Player("a", depth=1, end_empties=6), Player("b", depth=1,
                                                                      end_empties=6), opening)
    moves += played
    boards = [Board.start()]
    for m in moves:
        boards.append(boards[-1].play(m))
    return moves, boards


def test_learning_a_whole_game_backs_its_result_up_the_line() -> None:
    moves, boards = _line("f5d6c3")
    book = empty_book(eval_depth=1)
    added = learn_line(book, moves)
    playing = [(b, m) for b, m in zip(boards, moves, strict=False) if not m.is_pass]
    assert added == len(book) == len(playing)
    value = float(boards[-1].score())  # the final position, for its side to move
    for b, m in zip(reversed(boards[:-1]), reversed(moves), strict=True):
        if m.is_pass:
            value = -value
            continue
        vals = book.lookup(b)
        assert set(vals) == set(b.legal_moves())
        assert vals[m] == pytest.approx(-value)  # backed up along the line
        for other in set(vals) - {m}:
            assert vals[other] == pytest.approx(_value_after(b.play(other), 1))
        value = max(vals.values())
    snapshot = {k: dict(v) for k, v in book.entries.items()}
    assert learn_line(book, moves) == 0  # a second time adds nothing and changes nothing
    assert book.entries == snapshot


def test_learning_keeps_the_values_already_in_the_book(tmp_path: Path) -> None:
    book = build_book(depth=2, eval_depth=1, width=1000.0)
    before = {k: dict(v) for k, v in book.entries.items()}
    moves, boards = _line("f5f6")
    added = learn_line(book, moves)
    assert added == len(book) - len(before) and added > 0
    start = book.lookup(boards[0])
    old = Book(before).lookup(boards[0])
    assert all(start[m] == old[m] for m in old if m != moves[0])
    assert start[moves[0]] == pytest.approx(-max(book.lookup(boards[1]).values()))
    write_book(tmp_path / "b.npz", book)
    assert read_book(tmp_path / "b.npz").entries.keys() == book.entries.keys()


def test_learning_into_a_built_book_values_new_moves_at_its_leaf_parity() -> None:
    """New moves of a learned line are searched as the build searches unexpanded ones:
    ``eval_depth`` plies deep, one more where ``depth - 1 - ply`` is odd; with another
    learning depth, whichever of it and one more puts the leaves at the build's parity."""
    depth, eval_depth = 2, 1
    built = build_book(depth=depth, eval_depth=eval_depth, width=0.0)
    moves, boards = _line("f5f4e3f6d3")  # leaves the width-0 book at once
    assert not built.lookup(boards[1]) or not built.lookup(boards[2])
    for learn_depth in (None, 2):
        book = Book({k: dict(v) for k, v in built.entries.items()}, dict(built.meta))
        learn_line(book, moves, eval_depth=learn_depth)
        base = learn_depth or eval_depth
        checked = {0: 0, 1: 0}
        ply = -1  # moves played before b, passes not counted (the build's plies)
        for b, m in zip(boards[:-1], moves, strict=True):
            if m.is_pass:
                continue
            ply += 1
            if canonical(b)[0] in built.entries:
                continue
            d = base + (depth + eval_depth - ply - 1 - base) % 2
            assert (ply + 1 + d) % 2 == (depth + eval_depth) % 2
            for other, v in book.lookup(b).items():
                if other != m:
                    assert v == pytest.approx(_value_after(b.play(other), d)), (ply, other)
                    checked[d - base] += 1
        assert checked[0] >= 3 and checked[1] >= 3  # both parities met
    # a book without the rule (learned from empty) searches every ply alike
    plain = empty_book(eval_depth=1)
    learn_line(plain, moves)
    for b, m in zip(boards[:-1], moves, strict=True):
        for other, v in plain.lookup(b).items():
            if other != m:
                assert v == pytest.approx(_value_after(b.play(other), 1))


def test_learning_a_line_that_ends_on_a_pass_or_is_illegal() -> None:
    book = empty_book(eval_depth=1)
    assert learn_line(book, [], start=BLACK_PASSES) == 1  # White's a1 after the pass
    white = BLACK_PASSES.play(PASS)
    assert book.lookup(white) == {Move.from_str("a1"): 64.0}  # all 64 discs white
    assert learn_line(book, [PASS, Move.from_str("a1")], start=BLACK_PASSES) == 0
    with pytest.raises(InvalidInputError, match="ply 2: a1 is not legal"):
        learn_line(book, [Move.from_str("f5"), Move.from_str("a1")])
    with pytest.raises(InvalidInputError, match="eval_depth=0"):
        empty_book(0)


def _two_ply_openings() -> list[str]:
    out = []
    for m in Board.start().legal_moves():
        b = Board.start().play(m)
        out += [f"{m}{r}" for r in b.legal_moves()]
    return out


def test_match_spec_book_with_variety(tmp_path: Path) -> None:
    from gameopt.reversi.match import run_match

    book = build_book(depth=3, eval_depth=1, width=1000.0)
    path = tmp_path / "book.npz"
    write_book(path, book)
    openings = _two_ply_openings()
    assert len(openings) == 12
    other = Player("b", depth=1, end_empties=4)

    def first_replies(spec: str) -> list[tuple[Board, Move]]:
        a = Player.from_spec(spec, "a")
        res = run_match(a, other, openings, workers=1)
        # A has Black after a 2-ply opening: its book move is the first move played
        return [(Board.from_moves(g.opening), g.moves[0]) for g in res.games if g.a_black]

    best = first_replies(f"depth=1,end=4,book={path}")
    assert all(m == book.choose(b) for b, m in best)
    varied = first_replies(f"depth=1,end=4,book={path},variety=100")
    assert all(m in book.lookup(b) for b, m in varied)
    assert any(m != book.choose(b) for b, m in varied)  # variety 0 would pick these
    assert first_replies(f"depth=1,end=4,book={path},variety=100") == varied  # replayed
    p = Player.from_spec(f"book={path},variety=2.5", "a")
    assert p.book is not None and p.variety == 2.5


def test_repeats_of_an_opening_are_other_games_with_variety(tmp_path: Path) -> None:
    from gameopt.reversi.match import run_match

    book = build_book(depth=4, eval_depth=1, width=1000.0)
    path = tmp_path / "book.npz"
    write_book(path, book)
    other = Player("b", depth=1, end_empties=4)

    def book_lines(spec: str, openings: list[str]) -> list[tuple[bool, tuple[Move, ...]]]:
        res = run_match(Player.from_spec(spec, "a"), other, openings, workers=1)
        assert [g.opening for g in res.games] == [op for op in openings for _ in "ab"]
        return [(g.a_black, g.moves[:4]) for g in res.games]  # the book's plies

    varied = book_lines(f"depth=1,end=4,book={path},variety=100", [""] * 8)
    assert len(set(varied)) > 2  # without the game's number: one game a colour
    # replayed alike; the first pair is the game a match without repeats plays
    assert book_lines(f"depth=1,end=4,book={path},variety=100", [""] * 8) == varied
    assert book_lines(f"depth=1,end=4,book={path},variety=100", [""]) == varied[:2]
    # every move of A's in the book's plies is a book move; B plays its search
    for a_black, moves in varied:
        board = Board.start()
        for ply, m in enumerate(moves):
            if (ply % 2 == 0) == a_black:
                assert m in book.lookup(board)
            board = board.play(m)
    # an opening written two ways is one opening: its second pair is game 1 either way
    spelled = book_lines(f"depth=1,end=4,book={path},variety=100", ["f5d6", "F5 D6"])
    assert spelled == book_lines(f"depth=1,end=4,book={path},variety=100", ["f5d6"] * 2)
    # without variety, repeats are the same game
    best = book_lines(f"depth=1,end=4,book={path}", [""] * 3)
    assert len(set(best)) == 2


def test_match_spec_book_errors(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="variety= needs book=FILE"):
        Player.from_spec("depth=2,variety=1", "A")
    missing = tmp_path / "none.npz"
    with pytest.raises(InvalidInputError, match=f"player A: book: .*{missing.name}"):
        Player.from_spec(f"book={missing}", "A")
    write_book(tmp_path / "b.npz", build_book(depth=1, eval_depth=1))
    with pytest.raises(InvalidInputError, match="'variety=x': variety takes discs"):
        Player.from_spec(f"book={tmp_path / 'b.npz'},variety=x", "A")
    with pytest.raises(InvalidInputError, match="variety -1.0 outside 0..128"):
        Player.from_spec(f"book={tmp_path / 'b.npz'},variety=-1", "A")
    with pytest.raises(InvalidInputError, match="variety nan outside"):
        Player("A", variety=float("nan"))


def test_the_shipped_book_is_the_engine_s_own_searches() -> None:
    """The shipped book (``open_book("default")``) has the build parameters the README
    gives, opens with the four symmetric first moves at one value, and its values of
    moves left out of the expansion are fresh searches of their children at the leaves'
    parity (``eval_depth`` plies at the last ply, one more at the ply above; checked on
    the two deepest positions of its main line)."""
    book = open_book(DEFAULT)
    assert open_book(SHIPPED).entries == book.entries
    depth, eval_depth = 12, 8
    assert (book.meta["depth"], book.meta["eval_depth"], book.meta["width"],
            book.meta["leaf_parity"]) == (depth, eval_depth, 2.0, True)
    assert len(book) > 500
    first = book.lookup(Board.start())
    assert sorted(map(str, first)) == ["c4", "d3", "e6", "f5"] and len(set(first.values())) == 1
    board, line = Board.start(), []
    while vals := book.lookup(board):
        line.append(board)
        board = board.play(max(vals, key=lambda m: (vals[m], -m.square)))
    assert len(line) == depth  # the main line runs to the book's depth
    checked = {eval_depth: 0, eval_depth + 1: 0}
    for ply in (depth - 1, depth - 2):
        b = line[ply]
        for m, v in book.lookup(b).items():
            child = b.play(m)
            d = eval_depth + (depth - 1 - ply) % 2
            if not book.lookup(child) and checked[d] < 3:  # valued, not expanded
                assert v == pytest.approx(-search(child, Limit(depth=d)).score, abs=1e-3)
                checked[d] += 1
    assert checked == {eval_depth: 3, eval_depth + 1: 3}


def test_default_names_the_shipped_book_in_specs_and_commands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    p = Player.from_spec("depth=1,book=default,variety=1", "a")
    assert p.book is not None and p.book.entries == open_book(DEFAULT).entries
    assert main(["reversi", "book", "show", "f5"]) == 0  # --book: the shipped one
    out = capsys.readouterr().out
    assert "move" in out and "not in the book" not in out
    book, after = open_book(DEFAULT), Board.from_moves("f5")
    rows = [r.split("|")[1:-1] for r in out.splitlines() if r.startswith("| ")][1:]
    values = book.lookup(after)
    assert [(r[0].strip(), r[1].strip()) for r in rows] == [
        (str(m), f"{v:+.2f}") for m, v in sorted(values.items(),
                                                 key=lambda t: (-t[1], t[0].square))]
    best = max(values, key=lambda m: (values[m], -m.square))
    assert rows[0][2].split() == [str(m) for m in book.line(after, best)]
    assert main(["reversi", "play", "--no-book", "--variety", "1"]) == 2
    assert "--variety needs a book" in capsys.readouterr().err
    assert main(["reversi", "book", "show", "--book", str(tmp_path / "none.npz")]) == 2
    assert "none.npz" in capsys.readouterr().err
