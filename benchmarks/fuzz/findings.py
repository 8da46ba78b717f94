"""Every distinct failure the fuzzing found, with its (shortest) input: the regression
corpus. ``tests/test_fuzz.py`` runs each through its target; the long run's table counts
them as found, and as fixed when they pass. Add a line when a fix lands (the fix's own
regression test goes beside the code it fixes)."""

from __future__ import annotations

from typing import NamedTuple


class Finding(NamedTuple):
    target: str
    data: bytes
    what: str


_START = b"-" * 27 + b"O*------*O" + b"-" * 27


def _gz(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, mtime=0)


def _npz(**arrays: object) -> bytes:
    import io

    import numpy as np

    buf = io.BytesIO()
    np.savez(buf, **{k: np.asarray(v) for k, v in arrays.items()})
    return buf.getvalue()


def _trf_seed() -> bytes:
    from pathlib import Path

    return (Path(__file__).resolve().parents[2] / "tests" / "data" / "fuzz" / "pairing"
            / "event.trf").read_bytes()


FINDINGS: list[Finding] = [
    Finding("go.text", b"X.O\n.X.\n", "memory: read_bytes allocated its 1 GiB limit per file"),
    Finding("sudoku.file", b'puzzle,solution\n"' + b"1" * 200_000 + b'",x\n',
            "csv.Error: field larger than field limit"),
    Finding("sudoku.file", "puzzle\u2028x,y\n1,2\n".encode(),
            "ValueError: 'quizzes' is not in list (splitlines and csv disagree on U+2028)"),
    Finding("reversi.obf", b"-" * 64 + b" X; a1:" + b"9" * 10_000 + b";",
            "ValueError: int() of a 10,000-digit score"),
    Finding("reversi.ggf", b"(;GM[Oth\nello]BO[8 " + _START + b" *];)",
            "two-line message: GM text"),
    Finding("reversi.ggf", b"(;GM[Othello]BO[8 " + _START + b" *]B[F\n6];)",
            "two-line message: move text"),
    Finding("go.sgf", b"(;SZ[3]AB[a\nb])", "two-line message: bad point text"),
    Finding("deck.pool-csv", b'id,name,character,attribute,cost,rarity\n1,"' + b"x" * 200_000
            + b'",1,god,1,C\n', "csv.Error: field larger than field limit"),
    Finding("deck.pool-json", b"[" * 100_000, "RecursionError in json.loads"),
    Finding("deck.collection", b"[" + b"9" * 5000 + b"]", "ValueError: 5000-digit JSON number"),
    Finding("deck.collection", b'id\n"' + b"1" * 200_000 + b'"\n', "csv.Error: field limit"),
    Finding("deck.scores-csv", b'a,b,score\n1,2,"' + b"1" * 200_000 + b'"\n',
            "csv.Error: field larger than field limit"),
    Finding("deck.scores-npz", b"PK\x03\x04 not a zip", "BadZipFile"),
    Finding("deck.scores-npz", _npz(ids=["a", "b"]), "ValueError: int() of np.str_"),
    Finding("deck.scores-npz", _npz(ids=[1.0, float("inf")]), "OverflowError: int(inf)"),
    Finding("deck.decks", "1,\u00b2\n".encode(),
            "StopIteration: int('\u00b2') fails, isdigit passes"),
    Finding("deck.mdp-gz", _gz(b"3 2\n0 1 1\n0 2 2\n1 2 3\n"),
            "memory: gzip read(limit) allocated 1 GiB"),
    Finding("pairing.players-csv", b"name,id\n,1001\n", "KeyError: 'name'"),
    Finding("pairing.players-csv", b'name\n"' + b"x" * 200_000 + b'"\n', "csv.Error: field limit"),
    Finding("pairing.results-csv", b"who,black,white\n1,40,\n", "KeyError: 'white'"),
    Finding("pairing.results-csv", b"who,black,white\n99999999999999999999,40,24\n",
            "OverflowError: table number into SQLite"),
    Finding("pairing.toml", b"p_und = [" + b"9" * 5000 + b"]\n", "ValueError: 5000-digit integer"),
    Finding("pairing.toml", b"p_und = " + b"[" * 5000 + b"]" * 5000 + b"\n", "RecursionError"),
    Finding("pairing.elo", b"%%Tournament: T\n%Player: 1 - A\n%Player: 2 - B\n%Round "
            b"99999999999999999999\n1 (40)>(24) 2 B\n", "OverflowError: round into SQLite"),
    Finding("pairing.elo", b"%%Tournament: T\n%Player: 1 - A\n%Player: 2 - B\n%Round 1\n1 ("
            + b"9" * 5000 + b")>(24) 2 B\n", "ValueError: int() of 5000-digit discs"),
    Finding("pairing.trf", b"012 T\nXXR " + b"9" * 5000 + b"\n", "ValueError: 5000-digit XXR"),
    Finding("deck.pool-csv", b"id,na" + b"[" * 200_000 + b"\n1,a\n",
            "csv.Error: the header row over csv's field limit, read outside the try"),
    Finding("deck.collection", b"id," + b"(" * 200_000 + b"\n1\n",
            "csv.Error: the header row over csv's field limit, read outside the try"),
    Finding("deck.collection", b"id\n1006\x1d\n",
            "ValueError: \\s matched '\\x1d', int() refuses it"),
    Finding("deck.mdp", b"3 2\n0 1 1\n0 1e300 2\n1 2 3\n",
            "RuntimeWarning: an index of 1e300 cast to int64 before the range check"),
    Finding("pairing.trf", _trf_seed().replace(b"   5 w 1", b"5  5 w 1", 1),
            "ValueError: int('5  5') of a TRF block's opponent"),
    Finding("web.reversi-ws", b'{"op": "graph", "moves": ' + b"[" * 5000 + b"}",
            "RecursionError: json.loads of a socket message (only ValueError caught)"),
    Finding("web.players-csv", b"name,id,country,rating\rAnn,1001,USA,1554\rBo,1002",
            "csv.Error: new-line character seen in unquoted field (CR line ends)"),
    Finding("web.desk-forms", b"9" * 10_001 + b"\nname=Ann",
            "ValueError in the harness itself: int() of a 10,001-digit route number"),
    Finding("web.desk-forms", b"10\ncsrf=cmn\xe6yrm=yfs",
            "TypeError: hmac.compare_digest of a non-ASCII CSRF field (a 500)"),
    Finding("deck.mdp-cli", b"--method\nvds\n--time-limit\n0.1e999",
            "runaway: inf is 'no limit' to deck mdp; the target did not cap it (the hang of "
            "--inputs 300 --seed 7, input 59)"),
    Finding("deck.rules-cli", b"--cost\n0\n--char-limit\n42949672961",
            "OverflowError: a character limit above int32 into the problem's limits (the "
            "catalogue's path wrapped it to 1)"),
    Finding("deck.scores-csv", b"a,b,score\n1000,1006,1e39\n",
            "RuntimeWarning: a score over float32's range cast into the matrix"),
    Finding("deck.mdp", b"20 5" + b"9" * 9980 + b"\n0 1 1\n",
            "ValueError: int() of a 9,982-digit header number"),
    Finding("deck.scores-csv", b"a,b,score\n1000,1006," + b"3" * 40_000 + b"x\n",
            "runaway: the number pattern backtracked quadratically over a long run of "
            "digits that ends in a letter (20,000 digits: 10 CPU s)"),
]
