"""One fuzz target per parser and protocol of gameopt (see :mod:`benchmarks.fuzz.engine`).

Adding a target is one function: decorate ``fn(data: bytes, ctx: Context) -> None`` with
``@target(name, seeds=...)``; feed the bytes to the parser (through a file in
``ctx.tmp`` when the reader takes a path) and let documented errors out. A web form or
JSON API body is fuzzed the same way: post ``data`` with the app's test client and
raise :class:`ContractError` on a 5xx or a traceback in the body (see ``web_json_example``
in the notes of ``benchmarks/fuzz/__main__.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import random
import shutil
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from benchmarks.fuzz.engine import Context, ContractError, target, unchanged

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "tests" / "data" / "fuzz"
DATA = Path(os.environ.get("GAMEOPT_DATA", ROOT.parent / "shared" / "data"))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _files(*patterns: str, limit: int = 40_000, lines: int | None = None
           ) -> Callable[[], list[bytes]]:
    """Seeds: the files matching ``patterns`` under the seed folder or the shared data
    (``data:`` prefix), each cut to ``lines`` lines when given."""
    def seeds() -> list[bytes]:
        out = []
        for pat in patterns:
            base, pat = (DATA, pat[5:]) if pat.startswith("data:") else (SEEDS, pat)
            for p in sorted(base.glob(pat)):
                raw = p.read_bytes()
                if lines is not None:
                    raw = b"".join(raw.splitlines(keepends=True)[:lines])
                out.append(raw[:limit])
        return out
    return seeds


def _also(seeds: Callable[[], list[bytes]], *extra: bytes) -> Callable[[], list[bytes]]:
    return lambda: [*seeds(), *extra]


@cache
def _parser() -> argparse.ArgumentParser:
    from gameopt.cli.main import build_parser

    return build_parser()


def _cli(argv: list[str], tmp: Path) -> int:
    """Run ``gameopt argv`` in this process (``main``, with its parser built once: building
    the whole CLI's argparse tree took 88% of a ``deck build`` input); check the exit
    contract; return the code."""
    from unittest import mock

    import gameopt.cli.main as cli

    err = io.StringIO()
    before = _snapshot(tmp)
    parser = _parser()  # built before the patch below (it calls build_parser)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err), \
            mock.patch.object(cli, "build_parser", lambda: parser):
        try:
            code = cli.main(argv)
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
    lines = err.getvalue().strip().split("\n")
    if code not in (0, 1, 2):
        raise ContractError(f"exit code: gameopt {argv!r} exited {code}")
    if code == 2:
        if len(lines) != 1 or "error" not in lines[0]:
            raise ContractError(f"stderr on exit 2: {len(lines)} lines: {err.getvalue()[:300]!r}")
        if _snapshot(tmp) != before:
            raise ContractError(f"files changed on exit 2: gameopt {argv!r}")
    return code


def _snapshot(tmp: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(tmp.rglob("*")) if p.is_file()}


def _argv(data: bytes) -> list[str]:
    """Command-line words: one per line (so a word may hold spaces)."""
    return [w for w in _text(data).replace("\x00", "").split("\n") if w != ""][:40]


# ======================================================================= Sudoku

_SUDOKU_TOKENS = [b".", b"0", b"9", b"A", b"Z", b";", b",", b"|", b"+", b"-", b"#",
                  b"puzzle,solution\n", b"quizzes,solutions\n", b"20;3;", b"36", b"\n"]


@cache
def _sudoku_lines() -> list[bytes]:
    out = []
    for p in sorted((DATA / "sudoku").glob("*")):
        if p.suffix in (".txt", ".csv"):
            lines = p.read_bytes().splitlines(keepends=True)
            out.append(b"".join(lines[:4]))
            out.extend(ln.strip() for ln in lines[1:3] if not ln.startswith(b"#"))
    return out or [b"." * 81]


@target("sudoku.line", seeds=lambda: [s for s in _sudoku_lines() if b"\n" not in s],
        tokens=_SUDOKU_TOKENS, seconds=1.0)
def sudoku_line(data: bytes, ctx: Context) -> None:
    """A puzzle given on the command line (``sudoku solve LINE``) or typed in a form."""
    from gameopt.sudoku import Puzzle

    Puzzle.from_string(_text(data).replace("\x00", ""), name="puzzle")


@target("sudoku.file", seeds=_sudoku_lines, tokens=_SUDOKU_TOKENS, seconds=1.0)
def sudoku_file(data: bytes, ctx: Context) -> None:
    """Every file format of :mod:`gameopt.sudoku.formats`, one by one and as a set."""
    from gameopt.sudoku.formats import read_puzzle_set, read_puzzles

    path = ctx.write("p.txt", data)
    read_puzzles(path)
    read_puzzle_set(path)


# ======================================================================= Othello

_OTHELLO_TOKENS = [b"X", b"O", b"-", b"*", b".", b"a1", b"h8", b"PA", b"pass", b"d3",
                   b"C4", b"i9", b"a0", b";", b":", b"+64", b"-65", b"%"]


@target("reversi.board", seeds=lambda: [
    b"---------------------------OX------XO--------------------------- X",
    b"-" * 27 + b"OX------XO" + b"-" * 27 + b" O", b"X" * 64 + b" X"],
    tokens=_OTHELLO_TOKENS, seconds=1.0)
def reversi_board(data: bytes, ctx: Context) -> None:
    from gameopt.reversi.board import Board

    Board.from_str(_text(data), "board")


@target("reversi.moves", seeds=lambda: [b"f5d6c3d3c4f4f6f3e6e7", b"F5 D6 C3 pa",
                                        b"f5 f6 e6 f4 e3 c5 c4 e7 b4"],
        tokens=_OTHELLO_TOKENS, seconds=1.0)
def reversi_moves(data: bytes, ctx: Context) -> None:
    from gameopt.reversi.board import Board, parse_moves

    parse_moves(_text(data))
    Board.from_moves(_text(data))


@target("reversi.obf", seeds=_also(_files("reversi/*.obf", "data:reversi/*.obf", lines=6)),
        tokens=_OTHELLO_TOKENS, seconds=1.0)
def reversi_obf(data: bytes, ctx: Context) -> None:
    from gameopt.reversi.files import read_obf

    read_obf(ctx.write("f.obf", data))


@target("reversi.ggf", seeds=_files("reversi/*.ggf"),
        tokens=[*_OTHELLO_TOKENS, b"(;", b";)", b"BO[8 ", b"GM[Othello]", b"B[", b"W[",
                b"]", b"/", b"//"], seconds=1.0)
def reversi_ggf(data: bytes, ctx: Context) -> None:
    from gameopt.reversi.files import read_ggf

    read_ggf(ctx.write("g.ggf", data))


_NBOARD_SEEDS = [
    b"nboard 2\nset depth 1\nset game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]"
    b"BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]"
    b"B[E6];)\nmove f4/1.0/0.2\nhint 2\nping 1\nset contempt 3\nlearn\n",
    b"nboard 2\nset depth 2\nmove f5\nmove d6\ngo\nping 7\nquit\n",
]


@target("reversi.nboard-engine", seeds=lambda: list(_NBOARD_SEEDS),
        tokens=[b"nboard", b"set depth ", b"set game ", b"set contempt ", b"move ", b"go",
                b"hint ", b"ping ", b"learn", b"quit", b"\n", *_OTHELLO_TOKENS], seconds=3.0)
def reversi_nboard_engine(data: bytes, ctx: Context) -> None:
    """Command lines a GUI sends to our engine: every reply line is protocol or a readable
    ``status`` (no ``internal error``, no Python exception text); searches are stopped
    right after they start, so a line costs the parsing, not a search."""
    from gameopt.reversi.nboard import NBoardEngine

    out: list[str] = []
    engine = NBoardEngine(out.append)
    for line in _text(data).split("\n")[:200]:
        line = line.strip()
        engine.notice(line)
        keep = engine.handle(line)
        engine.depth = min(engine.depth, 2)
        engine.stop_search()
        if not keep:
            break
    engine.stop_search()
    for line in out:
        if "internal error" in line or "Error:" in line or "Traceback" in line or \
                "invalid literal" in line or "index out of range" in line:
            raise ContractError(f"raw exception in a reply: {line[:200]!r}")


@cache
def _reply_boards() -> list[object]:
    from gameopt.reversi.board import Board

    start = Board.start()
    return [start, Board.from_moves("f5d6c3d3c4f4f6f3e6e7"),
            Board.from_str("X" * 63 + "- O")]


@target("reversi.nboard-reply", seeds=lambda: [b"=== F5", b"=== d3/0.50/1.2",
                                               b"=== d3 0.00 0.0", b"=== PA", b"===\tc4\t1"],
        tokens=[b"===", b"/", *_OTHELLO_TOKENS], seconds=1.0)
def reversi_nboard_reply(data: bytes, ctx: Context) -> None:
    """An external engine's answer to ``go``, read by our client."""
    from gameopt.reversi.external import parse_reply

    for board in _reply_boards():
        parse_reply(_text(data), board, "engine")  # type: ignore[arg-type]


# ======================================================================= Go

_GO_TOKENS = [b"SZ[", b"SZ[52]", b"SZ[19:7]", b"SZ[53]", b"AB[", b"AW[", b"AE[", b"B[",
              b"W[", b"]", b"[", b"(;", b")", b";", b"aa", b"ZZ", b"zz", b"tt", b"aa:cc",
              b"GM[1]", b"FF[4]", b"CA[latin-1]", b"C[", b"\\]", b"X", b"O", b"."]


def _odd_array(rng: random.Random, dtype: str, shape: tuple[int, ...], floats: list[Any],
               ints: list[int]) -> np.ndarray:
    """Zeros of ``dtype`` and ``shape`` with one odd value (of ``floats`` or ``ints``, by
    the dtype's kind; none that the dtype cannot hold) at a random place."""
    arr = np.zeros(shape, dtype=dtype)
    with contextlib.suppress(ValueError, OverflowError), np.errstate(all="ignore"):
        if arr.size and arr.dtype.kind in "fc":
            arr.flat[rng.randrange(arr.size)] = rng.choice(floats)
        elif arr.size and arr.dtype.kind in "iu":
            arr.flat[rng.randrange(arr.size)] = rng.choice(ints)
    return arr


def _npz_bytes(rng: random.Random, arrays: dict[str, np.ndarray]) -> bytes:
    """``arrays`` as an NPZ file's bytes, compressed or not at random."""
    buf = io.BytesIO()
    np.savez(buf, **arrays) if rng.random() < 0.5 else np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def _random_book(ctx: Context) -> bytes:
    """A fresh book-like NPZ: the book's array names (or not) of random dtypes and shapes,
    and a meta that is a book's, another format's, not an object or not text."""
    import json

    rng = ctx.rng
    n = rng.choice([0, 1, 3])
    arrays: dict[str, np.ndarray] = {}
    for name in rng.sample(["player", "opponent", "moves", "values", "x"], rng.randint(2, 5)):
        dtype = rng.choice([d for d in _NPZ_DTYPES if d != "O"])
        shape = rng.choice([(n,), (n, 32), (n, 31), (), (0,), (2, 2, 2)])
        arrays[name] = _odd_array(rng, dtype, shape, [np.nan, np.inf, -1, 64],
                                  [-1, 63, 64, 2**31 - 1])
    arrays["meta"] = rng.choice([np.array(json.dumps({"format": "gameopt-book-1", "depth": 1})),
                                 np.array('{"format": "other"}'), np.array("[1]"),
                                 np.array("{"), np.zeros(2)])
    return _npz_bytes(rng, arrays)


@target("reversi.book", seeds=_files("reversi/book.npz"),
        tokens=[b"PK\x03\x04", b"\x93NUMPY", b"{'descr': '<u8', 'fortran_order': False, "
                b"'shape': (99999999,), }", b'"format": "gameopt-book-1"'], seconds=1.0)
def reversi_book(data: bytes, ctx: Context) -> None:
    """Opening book NPZ (``--book FILE`` of play, nboard and match specs, ``book show``):
    mutated zips, and one input in three a fresh NPZ of odd arrays."""
    from gameopt.reversi.book import read_book

    if ctx.rng.random() < 0.33:
        data = _random_book(ctx)
    read_book(ctx.write("b.npz", data))


_ENGINE_FORMATS = {"gameopt-patterns-2": ["weights", "net_embed", "net_stage", "net_layer",
                                          "net_bias", "net_out", "net_out_bias"],
                   "gameopt-mpc-2": ["table"], "gameopt-mpc-1": ["table"],
                   "gameopt-train-1": ["player", "opponent", "target", "game"],
                   "gameopt-mpc-samples-1": ["empties", "values"]}


def _engine_seeds() -> list[bytes]:
    from gameopt.reversi.probcut import SHIPPED_MPC

    return [SHIPPED_MPC.read_bytes()]


def _random_engine_npz(ctx: Context) -> bytes:
    """A fresh NPZ in one of the engine's formats (its meta, sometimes with the shipped
    weights' pattern set, or odd): that format's array names of random kinds and shapes."""
    import json

    from gameopt.reversi.patterns import PATTERNS, TERMS

    rng = ctx.rng
    fmt = rng.choice(sorted(_ENGINE_FORMATS))
    meta: object = {"format": fmt}
    if fmt == "gameopt-patterns-2" and rng.random() < 0.7:
        meta = {"format": fmt, "patterns": {k: list(v) for k, v in PATTERNS.items()},
                "terms": list(TERMS)}
    if rng.random() < 0.2:
        meta = rng.choice([[fmt], {"format": fmt, "patterns": [1], "terms": 3}, "x"])
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta))}
    n = rng.choice([0, 1, 3])
    for name in _ENGINE_FORMATS[fmt]:
        if rng.random() < 0.15:
            continue
        dtype = rng.choice([d for d in _NPZ_DTYPES if d != "O"])
        shape = rng.choice([(n,), (n, 3), (15, 16, 2), (), (0,), (2, 2, 2)])
        arrays[name] = _odd_array(rng, dtype, shape, [np.nan, np.inf, -1, 1e30],
                                  [-1, 61, 2**31 - 1])
    return _npz_bytes(rng, arrays)


@target("reversi.engine-npz", seeds=_engine_seeds,
        tokens=[b"PK\x03\x04", b"\x93NUMPY", b'"format": "gameopt-mpc-2"',
                b'"format": "gameopt-train-1"', b'"format": "gameopt-patterns-2"'],
        seconds=1.0)
def reversi_engine_npz(data: bytes, ctx: Context) -> None:
    """The engine's other NPZ files, each read by its reader (``eval=FILE`` weights and
    their network, ``mpctable=FILE``, ``train`` data and MPC samples): mutated Multi-ProbCut
    tables, and one input in two a fresh NPZ in one of the formats."""
    from gameopt.errors import GameoptError
    from gameopt.reversi.mpcfit import read_mpc_samples
    from gameopt.reversi.probcut import read_mpc
    from gameopt.reversi.train import read_data
    from gameopt.reversi.weights import read_network, read_weights

    if ctx.rng.random() < 0.5:
        data = _random_engine_npz(ctx)
    path = ctx.write("e.npz", data)
    refused: list[GameoptError] = []
    readers = (read_weights, read_network, read_mpc, read_data, read_mpc_samples)
    for read in readers:
        try:
            read(path)
        except GameoptError as e:  # each reader's error: one line
            if "\n" in str(e) or not str(e):
                raise ContractError(f"{read.__name__}: error of {str(e).count(chr(10)) + 1} "
                                    f"lines: {str(e)[:200]!r}") from None
            refused.append(e)
    if len(refused) == len(readers):
        raise refused[-1]  # refused by all: counted as refused


@target("go.sgf", seeds=_also(_files("go/*.sgf"), b"(;FF[4]GM[1]SZ[9];B[ee];W[];B[dd])"),
        tokens=_GO_TOKENS, seconds=2.0)
def go_sgf(data: bytes, ctx: Context) -> None:
    from gameopt.go.sgf import board_to_sgf, read_sgf

    board = read_sgf(ctx.write("b.sgf", data))
    board_to_sgf(board)


@target("go.text", seeds=_files("go/*.txt"), tokens=_GO_TOKENS, seconds=1.0)
def go_text(data: bytes, ctx: Context) -> None:
    from gameopt.go.text import read_text

    read_text(ctx.write("b.txt", data))


# ======================================================================= Deck

_DECK_TOKENS = [b",", b"\n", b"id,name,character,attribute,cost,rarity", b"god", b"demon",
                b"dragon", b"\"", b"{", b"}", b"[", b"]", b"null", b"true", b"1e400",
                b"NaN", b"Infinity", b"\"pieces\":", b"\"owned\":", b"a,b,score"]


@cache
def _pool() -> object:
    from gameopt.deck.formats import read_pool

    return read_pool(SEEDS / "deck" / "pool.csv")


@target("deck.pool-csv", seeds=_files("deck/pool.csv"), tokens=_DECK_TOKENS, seconds=1.0)
def deck_pool_csv(data: bytes, ctx: Context) -> None:
    from gameopt.deck.formats import read_pool

    read_pool(ctx.write("pool.csv", data))


@target("deck.pool-json", seeds=_files("deck/pool.json"), tokens=_DECK_TOKENS, seconds=1.0)
def deck_pool_json(data: bytes, ctx: Context) -> None:
    from gameopt.deck.formats import read_pool

    read_pool(ctx.write("pool.json", data))


@target("deck.collection", seeds=_files("deck/collection.*"), tokens=_DECK_TOKENS,
        seconds=1.0)
def deck_collection(data: bytes, ctx: Context) -> None:
    from gameopt.deck.formats import read_collection

    kind = "json" if data.lstrip()[:1] in (b"[", b"{") else "csv"
    read_collection(ctx.write(f"owned.{kind}", data), _pool())  # type: ignore[arg-type]
    read_collection(ctx.write(f"owned2.{kind}", data))


@target("deck.scores-csv", seeds=_files("deck/scores.csv"), tokens=_DECK_TOKENS, seconds=1.0)
def deck_scores_csv(data: bytes, ctx: Context) -> None:
    from gameopt.deck.formats import read_scores

    path = ctx.write("s.csv", data)
    read_scores(path, _pool())  # type: ignore[arg-type]
    read_scores(path)  # the ids the file names: a k x k matrix under a ceiling


_NPZ_DTYPES = ["<i8", "<i4", "<u1", "<f4", "<f8", "<c8", "?", "<U3", "|S2", "<m8", "O"]


def _random_npz(ctx: Context, seed: bytes) -> bytes:
    """A fresh NPZ: arrays named as the format's (or not) of random dtypes and shapes."""
    rng = ctx.rng
    arrays = {}
    ids = _pool().ids  # type: ignore[attr-defined]
    k = rng.choice([0, 1, 2, 5, len(ids)])
    for name in rng.sample(["ids", "R", "rows", "cols", "vals", "leader", "x"],
                           rng.randint(1, 5)):
        dtype = rng.choice(_NPZ_DTYPES)
        shape = rng.choice([(), (k,), (k, k), (k, k + 1), (0,), (2, 2, 2), (rng.randint(0, 9),)])
        if name == "ids" and rng.random() < 0.7:
            arr = np.array(ids[:k], dtype="<i8")
        elif dtype == "O":
            arr = np.empty(shape, dtype=object)
        else:
            arr = _odd_array(rng, dtype, shape, [np.nan, np.inf, 1e300, -1],
                             [-1, 2**31 - 1, 5, 10**6])
        arrays[name] = arr
    return _npz_bytes(rng, arrays)


@target("deck.scores-npz", seeds=_files("deck/*.npz"),
        tokens=[b"PK\x03\x04", b"\x93NUMPY", b"{'descr': '<f8', 'fortran_order': False, "
                b"'shape': (99999999, 99999999), }"], seconds=1.0)
def deck_scores_npz(data: bytes, ctx: Context) -> None:
    """Scores NPZ: mutated zips, and one input in three a fresh NPZ of odd arrays."""
    from gameopt.deck.formats import read_scores

    if ctx.rng.random() < 0.33:
        data = _random_npz(ctx, data)
    read_scores(ctx.write("s.npz", data), _pool())  # type: ignore[arg-type]


@target("deck.decks", seeds=_files("deck/decks.csv", lines=20), tokens=_DECK_TOKENS,
        seconds=1.0)
def deck_decks(data: bytes, ctx: Context) -> None:
    from gameopt.deck.formats import read_decks

    path = ctx.write("decks.csv", data)
    read_decks(path, _pool())  # type: ignore[arg-type]
    read_decks(path)


@target("deck.mdp", seeds=_files("deck/mdp.txt"), tokens=[b"500 50", b"100000 5", b"\n",
                                                          b" ", b"0 0 1"], seconds=1.0)
def deck_mdp(data: bytes, ctx: Context) -> None:
    from gameopt.deck.formats import read_mdp

    read_mdp(ctx.write("i.txt", data))


@target("deck.mdp-gz", seeds=_files("deck/mdp.txt.gz"), tokens=[b"\x1f\x8b\x08"], seconds=1.0)
def deck_mdp_gz(data: bytes, ctx: Context) -> None:
    import gzip
    import zlib

    from gameopt.deck.formats import read_mdp

    if ctx.rng.random() < 0.5:  # mutate the text inside a good gzip too
        with contextlib.suppress(OSError, EOFError, ValueError, zlib.error):
            data = gzip.compress(gzip.decompress(data)[::-1] if ctx.rng.random() < 0.1
                                 else gzip.decompress(data), mtime=0)
    read_mdp(ctx.write("i.txt.gz", data))


def _deck_files(ctx: Context) -> dict[str, str]:
    out = {}
    for name in ("pool.csv", "collection.csv", "scores.npz"):
        shutil.copyfile(SEEDS / "deck" / name, ctx.tmp / name)
        out[name] = str(ctx.tmp / name)
    return out


@target("deck.rules-cli", seeds=lambda: [
    b"--cost\n200\n--attribute\ngod\n--attribute-min\n2\n--must\n1001,1002\n--leader\n1003\n"
    b"--forbid\n1004,1005\n--char-limit\n2\n--seed\n3",
    b"--cost\n150\n--char-limit\n1", b"--cost\n99\n--must\n1010"],
    tokens=[b"--cost\n", b"--must\n", b"--leader\n", b"--forbid\n", b"--char-limit\n",
            b"--attribute-min\n", b"--seed\n", b"--attribute\n", b"1001", b"9999,",
            b"1001,1001"], seconds=3.0)
def deck_rules_cli(data: bytes, ctx: Context) -> None:
    """The rule options of ``deck build`` (greedy, so every input runs to the end)."""
    f = _deck_files(ctx)
    argv = ["deck", "build", "--pool", f["pool.csv"], "--collection", f["collection.csv"],
            "--scores", f["scores.npz"], *_argv(data), "--method", "greedy", "--no-explain",
            "-q"]
    _cli(argv, ctx.tmp)


def _clamp_time(words: list[str], most: float, command: tuple[str, ...] = ("deck", "mdp",
                                                                           "FILE")) -> list[str]:
    """``words`` with a ``--time-limit`` of at most ``most`` seconds: when the words parse
    (as argparse reads them: ``--time-limit=X``, a prefix such as ``--ti``, the last one
    winning) to a longer limit, or to none (``inf`` means no limit), ``--time-limit
    most`` is added at the end. A bad value stays, for the command to refuse."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(err):
            ns = _parser().parse_args([*command, *words])
    except SystemExit:
        return words  # refused by argparse: the command will refuse it the same way
    limit = getattr(ns, "time_limit", None)
    if isinstance(limit, float) and not math.isnan(limit) and limit <= most:
        return words
    if isinstance(limit, float) and math.isnan(limit):
        return words  # refused by the command: keep it
    return [*words, "--time-limit", str(most)]


@target("deck.mdp-cli", seeds=lambda: [b"--time-limit\n0.05\n--seed\n1\n--target\n100",
                                       b"--method\nvds\n--time-limit\n0.02",
                                       b"--method\ntabu\n--target\n-5"],
        tokens=[b"--time-limit\n", b"--seed\n", b"--target\n", b"--method\n", b"nan", b"-1"],
        seconds=3.0)
def deck_mdp_cli(data: bytes, ctx: Context) -> None:
    """``deck mdp`` options (time limit, seed, target, method) on a small instance."""
    path = ctx.tmp / "i.txt"
    shutil.copyfile(SEEDS / "deck" / "mdp.txt", path)
    _cli(["deck", "mdp", str(path), "-q", *_clamp_time(_argv(data), 0.005)], ctx.tmp)


# ======================================================================= pairing

_PAIR_TOKENS = [b",", b"\n", b"\"", b"name,id,country,rating", b"who,black,white", b"BYE",
                b"bye", b"64", b"-1", b"Player 1", b"1001", b"%%Tournament: ", b"%Player: ",
                b"%Round ", b"(40)>(24)", b"=", b"<", b">", b"001 ", b"012 ", b"XXR "]


def _store(ctx: Context) -> Path:
    path = ctx.tmp / "event.sqlite"
    shutil.copyfile(SEEDS / "pairing" / "event.sqlite", path)
    return path


@target("pairing.players-csv", seeds=_files("pairing/players.csv"), tokens=_PAIR_TOKENS,
        seconds=2.0)
def pairing_players_csv(data: bytes, ctx: Context) -> None:
    """A registration sheet, read and added to a tournament: all or nothing."""
    from gameopt.pairing import Tournament
    from gameopt.pairing.formats import read_players_csv

    db = _store(ctx)
    sheet = ctx.write("players.csv", data)
    with unchanged(ctx.tmp, "tournament store"):
        t = Tournament.open(db)
        try:
            t.add_players(read_players_csv(sheet))
        finally:
            t.close()


@target("pairing.results-csv", seeds=_files("pairing/results.csv"), tokens=_PAIR_TOKENS,
        seconds=2.0)
def pairing_results_csv(data: bytes, ctx: Context) -> None:
    """A results sheet for the open round: all entered or none."""
    from gameopt.pairing import Tournament
    from gameopt.pairing.formats import read_results_csv

    db = _store(ctx)
    sheet = ctx.write("results.csv", data)
    with unchanged(ctx.tmp, "tournament store"):
        t = Tournament.open(db)
        try:
            t.set_results(3, read_results_csv(sheet))
        finally:
            t.close()


@target("pairing.toml", seeds=_files("pairing/*.toml"),
        tokens=[b"preset = ", b"\"papp\"", b"\"slim\"", b"\"tuned\"", b"terms = [",
                b"p_und = [", b"]", b"=", b"[table]", b"\"\"\"", b"1e999", b"inf", b"nan",
                b"p_chauv"],
        seconds=1.0)
def pairing_toml(data: bytes, ctx: Context) -> None:
    from gameopt.pairing import PenaltyParams

    PenaltyParams.from_toml(ctx.write("p.toml", data))


@target("pairing.elo", seeds=_files("pairing/*.elo"), tokens=_PAIR_TOKENS, seconds=1.0)
def pairing_elo(data: bytes, ctx: Context) -> None:
    """A WOF ``.ELO`` file, read and imported into a new store (nothing left on error)."""
    from gameopt.pairing import import_tournament

    src = ctx.write("e.elo", data)
    with unchanged(ctx.tmp, "folder"):
        import_tournament(src, ctx.tmp / "new.sqlite").close()


@target("pairing.trf", seeds=_files("pairing/*.trf"), tokens=_PAIR_TOKENS, seconds=1.0)
def pairing_trf(data: bytes, ctx: Context) -> None:
    """A TRF(-like) file, read and imported into a new store (nothing left on error)."""
    from gameopt.pairing import import_tournament

    src = ctx.write("e.trf", data)
    with unchanged(ctx.tmp, "folder"):
        import_tournament(src, ctx.tmp / "new.sqlite").close()


def _foreign_sqlite(ctx: Context) -> bytes:
    """Another program's SQLite file (or ours with a table dropped or renamed)."""
    import sqlite3

    path = ctx.tmp / "foreign.sqlite"
    shutil.copyfile(SEEDS / "pairing" / "event.sqlite", path)
    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        kind = ctx.rng.randrange(4)
        if kind == 0 and tables:
            con.execute(f'DROP TABLE "{ctx.rng.choice(tables)}"')
        elif kind == 1 and tables:
            t = ctx.rng.choice(tables)
            con.execute(f'ALTER TABLE "{t}" RENAME TO "{t}_old"')
        elif kind == 2:
            con.execute(f"PRAGMA user_version = {ctx.rng.choice([0, 2, 99, -1])}")
        else:
            for t in tables:
                con.execute(f'DROP TABLE "{t}"')
            con.execute("CREATE TABLE cards (id INTEGER PRIMARY KEY, name TEXT)")
        con.commit()
    finally:
        con.close()
    data = path.read_bytes()
    path.unlink()
    return data


@target("pairing.sqlite", seeds=_files("pairing/event.sqlite", limit=1 << 20), seconds=2.0,
        tokens=[b"SQLite format 3\x00", b"\x00" * 16, b"\xff" * 8])
def pairing_sqlite(data: bytes, ctx: Context) -> None:
    """A tournament file: bit flips, truncation, foreign schemas; read everything from
    it. A damaged file is refused, never changed."""
    from gameopt.pairing import Tournament

    if ctx.rng.random() < 0.1:
        data = _foreign_sqlite(ctx)
    db = ctx.write("event.sqlite", data)
    with unchanged(ctx.tmp, "tournament store"):
        t = Tournament.open(db)
        try:
            t.info, t.players, t.penalties  # noqa: B018 - reading is the test
            t.forbidden_pairs()
            t.rounds()
            for r in range(1, t.last_round + 1):
                t.pairing(r)
                t.games(r)
            t.standings()
            t.snapshot()
            t.round_input()
        finally:
            t.close()


# ======================================================================= web

_CSRF = "fuzz-csrf-token"
_WEB_TOKENS = [b"&", b"=", b"%", b"%00", b"%ff", b"+", b"csrf=", b"name=", b"rating=",
               b"id=", b"slug=", b"rounds=", b"seconds=", b"puzzle=", b"sgf=", b"cost=",
               b"method=", b"\n", b"[]", b"%5B", b"%0A", b"nan", b"1e999", b"-1", b"9" * 30]


@cache
def _web() -> tuple[object, Path]:
    """One test client over the pages app (no director token, like a server on
    127.0.0.1) and its data folder; the seed tournament is copied in before each input."""
    import tempfile

    from starlette.testclient import TestClient

    from gameopt.web.app import create_app

    root = Path(tempfile.mkdtemp(prefix="fuzz-web-"))
    client = TestClient(create_app(root), base_url="http://testserver")
    client.__enter__()  # one event loop thread for the process, not one per request
    client.cookies.set("gameopt_csrf", _CSRF)
    return client, root


def _web_post(route: str, body: bytes, content_type: str, root: Path) -> object:
    """POST ``body`` to ``route``; a 5xx, an unhandled exception or a traceback in the
    page break the contract, and a 4xx must leave the tournament files as they were."""
    from gameopt.errors import GameoptError

    client, _ = _web()
    shutil.copyfile(SEEDS / "pairing" / "event.sqlite", root / "event.sqlite")
    for p in root.iterdir():
        if p.name != "event.sqlite":
            (shutil.rmtree if p.is_dir() else os.remove)(p)  # type: ignore[operator]
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    try:
        r = client.post(route, content=body,  # type: ignore[attr-defined]
                        headers={"content-type": content_type}, follow_redirects=False)
    except GameoptError as e:  # unhandled by the app: a 500 for the user
        raise ContractError(f"500: {type(e).__name__} out of {route}: {e}") from None
    if r.status_code >= 500 or "Traceback" in r.text:
        raise ContractError(f"server error: {r.status_code} on {route}: {r.text[:200]!r}")
    if 400 <= r.status_code < 500:
        after = {p.name: p.read_bytes() for p in root.iterdir()}
        if after != before:
            raise ContractError(f"files changed on {r.status_code}: {route}")
        if not r.text.strip():
            raise ContractError(f"empty {r.status_code} answer on {route}")
    return r


def _route_and_body(data: bytes, routes: tuple[str, ...], ctx: Context) -> tuple[str, bytes]:
    """An input is ``ROUTE-NUMBER\\nBODY``; a line that is not a known route number sends
    the body to a route chosen at random."""
    head, sep, body = data.partition(b"\n")
    if sep and head.isascii() and head.isdigit() and len(head) <= 3 and int(head) < len(routes):
        return routes[int(head)], body
    return ctx.rng.choice(routes), data


_DESK_ROUTES = ("/desk/new", "/desk/event/players", "/desk/event/withdraw",
                "/desk/event/forbid", "/desk/event/allow", "/desk/event/pair",
                "/desk/event/penalties", "/desk/event/round/3/results",
                "/desk/event/round/3/correct", "/desk/event/round/3/change",
                "/desk/event/round/3/delete", "/desk/import", "/desk/event/players/csv")
_DESK_SEEDS = [
    b"0\nslug=t2&name=Open&rounds=5&country=FRA&date=2026-11-24&preset=papp&overrides=",
    b"1\nname=Ann+Lee&id=2001&country=GER&rating=1500&joined_round=2&score=0&club=X",
    b"2\nplayer=1001&from_round=4", b"3\na=1001&b=1002", b"4\na=1001&b=1002",
    b"5\nmethod=papp&expect=4&extra_round=", b"6\npenalties=p_und+%3D+%5B1%2C2%5D",
    b"7\ntable=1&black=40&white=24", b"8\ntable=1&black=33&white=31",
    b"9\naction=swap&a=1001&b=1002&confirm=yes", b"10\nconfirm=yes",
]


def _multipart(name: str, filename: str, payload: bytes) -> tuple[bytes, str]:
    boundary = "fuzzBoundary7MA4YWxk"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{_CSRF}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"slug\"\r\n\r\nimp\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: text/plain\r\n\r\n").encode() + \
        payload + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


@target("web.desk-forms", seeds=lambda: [*_DESK_SEEDS,
                                        *(b"11\n" + s for s in _files("pairing/*.elo")()),
                                        *(b"12\n" + s for s in _files("pairing/players.csv")())],
        tokens=_WEB_TOKENS, seconds=2.0)
def web_desk_forms(data: bytes, ctx: Context) -> None:
    """The director's desk forms (new, players, withdraw, forbid, pair, penalties, results,
    corrections, deletions, imports and player sheets) on a copy of a 3-round event."""
    _, root = _web()
    route, body = _route_and_body(data, _DESK_ROUTES, ctx)
    if route.endswith(("/import", "/players/csv")):
        name = "t.elo" if body.startswith(b"%") else "t.csv" if b"," in body[:200] else "t.trf"
        body, kind = _multipart("file", name, body)
        _web_post(route, body, kind, root)
    else:
        _web_post(route, f"csrf={_CSRF}&".encode() + body,
                  "application/x-www-form-urlencoded", root)


_PAGE_ROUTES = ("/sudoku/solve", "/sudoku/hint", "/sudoku/generate", "/go/check",
                "/deck/build", "/reversi/api/state", "/reversi/api/load")
_PAGE_SEEDS = [
    b"0\npuzzle=" + b"." * 80 + b"1&method=dlx&seconds=1",
    b"0\npuzzle=53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8"
    b"..79&method=dlx", b"1\npuzzle=" + b"." * 81,
    b"2\nbox=3&givens=30&seed=4&seconds=1&article=", b"3\nsgf=(;FF[4]GM[1]SZ[5]AB[aa][bb])",
    b"4\ncost=150&attribute=god&attribute_min=2&char_limit=2&leader=&method=greedy"
    b"&seconds=0.05&data=synthetic",
    b'5\n{"start": "' + b"-" * 27 + b'OX------XO' + b"-" * 27 + b' X", "moves": "f5d6"}',
    b'6\n{"text": "f5d6c3d3c4"}',
]


@target("web.pages", seeds=lambda: list(_PAGE_SEEDS), tokens=[*_WEB_TOKENS, b"{", b"}",
                                                              b'"moves"', b'"start"'],
        seconds=3.0)
def web_pages(data: bytes, ctx: Context) -> None:
    """The forms of the Sudoku, Go, deck and Othello pages (and the Othello page's JSON
    calls)."""
    _, root = _web()
    route, body = _route_and_body(data, _PAGE_ROUTES, ctx)
    if route.startswith("/reversi/"):
        _web_post(route, body, "application/json", root)
    else:
        _web_post(route, f"csrf={_CSRF}&".encode() + body,
                  "application/x-www-form-urlencoded", root)


class _InProcessDecks:
    """A deck backend for the API that searches in this process, for at most 10 ms (the
    fuzzing is about the request bodies; the worker pool has its own tests)."""

    size = 1

    def __init__(self, catalogue: object) -> None:
        self.catalogue = catalogue

    async def run(self, request: dict[str, object], *, admitted: bool = False
                  ) -> dict[str, object]:
        from gameopt.web.api_deck import serve_request

        seconds = request.get("seconds")
        capped = min(seconds, 0.01) if isinstance(seconds, float | int) else 0.01
        return serve_request(self.catalogue, {**request, "seconds": capped})  # type: ignore[arg-type]

    def snapshot(self) -> dict[str, object]:
        return {"ready": True, "free": 1, "waiting": 0, "queue": 1}

    def retry_after(self) -> int:
        return 1


@cache
def _api() -> tuple[object, list[int]]:
    from starlette.testclient import TestClient

    from gameopt.deck import DeckCatalogue
    from gameopt.deck.scores import deck_scores
    from gameopt.deck.synth import synthesize
    from gameopt.web.api import create_api

    d = synthesize(5, kinds=400, collection=200, decks=800, archetypes=10)
    cat = DeckCatalogue(d.pool, deck_scores(d.decks, d.pool.ids))
    owned = sorted(d.collection.owned)
    app = create_api(cat, _InProcessDecks(cat), collections={"mine": owned},  # type: ignore[arg-type]
                     default_budget=0.01)
    client = TestClient(app, base_url="http://testserver")
    client.__enter__()  # one event loop thread for the process, not one per request
    return client, owned


def _api_seeds() -> list[bytes]:
    import json

    _, owned = _api()
    one = {"collection": {"pieces": owned[:60]}, "rules": {"cost_cap": 160, "leader": owned[3],
                                                           "forbid": [[owned[0], owned[1]]],
                                                           "must": [owned[5]]},
           "method": "greedy", "seed": 4, "time_budget": 0.01, "explain": False}
    named = {"collection": {"id": "mine"}, "rules": {"size": 8, "attribute": "god",
                                                     "attribute_min": 1}, "method": "vds"}
    return [b"0\n" + json.dumps(one).encode(), b"0\n" + json.dumps(named).encode(),
            b"1\n" + json.dumps({"requests": [one, named]}).encode()]


@target("web.api-decks", seeds=_api_seeds, tokens=[b"{", b"}", b"[", b"]", b'"pieces"',
                                                   b'"rules"', b'"method"', b'"requests"',
                                                   b"null", b"true", b"1e999", b"-0"],
        seconds=2.0)
def web_api_decks(data: bytes, ctx: Context) -> None:
    """JSON bodies of ``POST /api/v1/decks`` and ``/api/v1/decks:batch``: 2xx, or a 4xx
    whose detail names the field (``loc``)."""
    client, _ = _api()
    route, body = _route_and_body(data, ("/api/v1/decks", "/api/v1/decks:batch"), ctx)
    r = client.post(route, content=body,  # type: ignore[attr-defined]
                    headers={"content-type": "application/json"})
    if r.status_code >= 500 or "Traceback" in r.text:
        raise ContractError(f"server error: {r.status_code} on {route}: {r.text[:200]!r}")
    if r.status_code == 422:
        detail = r.json().get("detail")
        if not (isinstance(detail, list) and detail and detail[0].get("loc")):
            raise ContractError(f"422 without the field: {r.text[:200]!r}")


@target("web.reversi-ws", seeds=lambda: [
    b'{"op": "reply", "start": "' + b"-" * 27 + b'OX------XO' + b"-" * 27 + b' X", '
    b'"moves": "f5d6", "depth": 2}', b'{"op": "hint", "moves": "f5d6c3", "depth": 1, "top": 3}',
    b'{"op": "analyse", "moves": "", "time": 0.05}', b'{"op": "stop"}',
    b'{"op": "graph", "moves": "f5d6c3d3", "depth": 1}',
    b'{"op": "reply", "moves": "f5", "depth": 2, "book": true, "variety": 1.5}'],
    tokens=[b"{", b"}", b'"op"', b'"reply"', b'"solve"', b'"depth"', b'"time"', b'"top"',
            b'"moves"', b'"start"', b'"book"', b'"variety"', b"true", b"false", b"null",
            b"1e999", b"[" * 50], seconds=3.0)
def web_reversi_ws(data: bytes, ctx: Context) -> None:
    """Messages on the Othello page's WebSocket, decoded and checked as the socket does
    (:func:`decode_message`, :func:`parse_request`), and one in 50 sent through the socket:
    answered by JSON lines ending in a ``result`` or a one-line ``error`` naming the
    field (a search is stopped at once)."""
    import json

    from gameopt.web.reversi_page import Refused, ReversiLimits, decode_message, parse_request

    text = _text(data)
    try:
        msg = decode_message(text)
        if not (isinstance(msg, dict) and msg.get("op") == "stop"):
            parse_request(msg, ReversiLimits())
    except Refused as e:
        if not e.field and e.status != 429 or "\n" in e.message:
            raise ContractError(f"error without a field: {e.json()!r}"[:300]) from None
        msg = None
    if ctx.rng.random() >= 0.02:
        return  # a search costs ~0.1 s: one message in 50 goes through the socket too
    client, _ = _web()
    with client.websocket_connect("/reversi/ws") as ws:  # type: ignore[attr-defined]
        ws.send_text(text)
        if not (isinstance(msg, dict) and msg.get("op") == "stop"):  # a stop gets no answer
            ws.send_text('{"op": "stop"}')
            for _ in range(10_000):
                line = json.loads(ws.receive_text())
                if line.get("type") == "error":
                    if not line.get("field") and line.get("status") != 429 or \
                            "\n" in str(line.get("message")):
                        raise ContractError(f"error without a field: {line!r}"[:300])
                    break
                if line.get("type") == "result":
                    break


@target("web.players-csv", seeds=_files("pairing/players.csv"), tokens=_PAIR_TOKENS,
        seconds=1.0)
def web_players_csv(data: bytes, ctx: Context) -> None:
    """The desk's players sheet reader (``gameopt.web.events.parse_players_csv``)."""
    from gameopt.web.events import parse_players_csv

    parse_players_csv(_text(data), "players.csv")
