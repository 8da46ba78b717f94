"""Deck files the fuzzing (benchmarks/fuzz) found tracebacks on: each is one line now."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from gameopt.deck.formats import read_collection, read_decks, read_pool, read_scores
from gameopt.errors import InvalidInputError

POOL = "id,name,character,attribute,cost,rarity\n1,a,1,god,5,C\n2,b,2,demon,3,R\n"


@pytest.mark.parametrize("name, text, match", [
    ("p.csv", POOL + '3,"' + "x" * 200_000 + '",3,god,1,C\n', r"p\.csv:\d+: not CSV \(field "
     "larger than field limit"),
    ("p.json", "[" * 100_000, r"p\.json: not usable JSON \(nested too deeply\)"),
    ("c.json", "[" + "9" * 5000 + "]", r"c\.json: not usable JSON \(Exceeds the limit"),
    ("p.csv", POOL.replace("1,a,1,god,5", "١,a,1,god,5"), r"p\.csv:2: id: '١' is not an "
     "integer"),
    ("p.csv", POOL.replace("god,5", "god,２"), r"p\.csv:2: cost: '２' is not an integer"),
    ("d.csv", "1,²\n", r"d\.csv:1: id: '²' is not an integer"),
    ("d.csv", "1," + "7" * 5000 + "\n", r"d\.csv:1: id: 777.* digits\) is out of range"),
    ("s.csv", "a,b,score\n1,2,١\n", r"s\.csv:2: score: '١' is not a number"),
    # the long run of 2026-11-24 (seed 1): a header row over csv's field limit was read
    # outside the try (csv.Error), and \s matched '\x1d', which int() refuses (ValueError)
    ("p.csv", "id,na" + "[" * 200_000 + "\n1,a\n", r"p\.csv:1: not CSV \(field larger"),
    ("c.csv", "id," + "(" * 200_000 + "\n1\n", r"c\.csv:1: not CSV \(field larger"),
    ("c.csv", "id\n1006\x1d\n", r"c\.csv:2: id: '1006\\x1d' is not an integer"),
    ("s.csv", "a,b,score\n1,2,3\x1c\n", r"s\.csv:2: score: '3\\x1c' is not a number"),
    # the long run's runaway (deck.scores-csv): the number pattern [0-9]+\.?[0-9]* split a
    # run of digits every way before refusing it, quadratic in its length (20,000 digits
    # and a letter took 10 CPU s; these 100,000 would take minutes)
    ("s.csv", "a,b,score\n1,2," + "3" * 100_000 + "x\n", r"s\.csv:2: score: '3333.*\.\.\. is "
     "not a number"),
])
def test_text_files(tmp_path: Path, name: str, text: str, match: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    readers = {"p": read_pool, "c": read_collection, "d": read_decks, "s": read_scores}
    with pytest.raises(InvalidInputError, match=match) as info:
        readers[name[0]](path)
    assert "\n" not in str(info.value)


def _npz(**arrays: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _huge_header() -> bytes:
    """An NPZ whose R member declares 10^8 x 10^8 floats and holds 8 bytes."""
    head = io.BytesIO()
    np.lib.format.write_array_header_1_0(head, {"descr": "<f8", "fortran_order": False,
                                                "shape": (10**8, 10**8)})
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("ids.npy", _npy(np.array([1, 2])))
        zf.writestr("R.npy", b"\x93NUMPY\x01\x00" + head.getvalue()[8:] + b"\0" * 8)
    return buf.getvalue()


def _npy(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


@pytest.mark.parametrize("data, match", [
    (b"PK\x03\x04 not a zip", r"not an NPZ file \(BadZipFile"),
    (_npz(ids=np.array(["a", "b"])), r"ids: holds <U1 values, not integers"),
    (_npz(ids=np.array([1.0, np.inf])), r"ids: holds float64 values, not integers"),
    (_npz(ids=np.array([1, 2]), R=np.zeros((2, 2), dtype="<U2")),
     r"R: holds <U2 values, not numbers"),
    (_huge_header(), r"R: header declares float64 \(100000000, 100000000\) "
                     r"\(80,000,000,000,000,000 bytes\) in a member of"),
])
def test_npz_scores(tmp_path: Path, data: bytes, match: str) -> None:
    path = tmp_path / "s.npz"
    path.write_bytes(data)
    with pytest.raises(InvalidInputError, match=match):
        read_scores(path)


def test_reading_a_small_gzip_does_not_allocate_the_limit(tmp_path: Path) -> None:
    # found by the fuzzing's tracemalloc check: f.read(limit + 1) took 1 GiB per .gz
    import gzip
    import tracemalloc

    from gameopt.deck.formats import read_mdp

    path = tmp_path / "i.txt.gz"
    path.write_bytes(gzip.compress(b"3 2\n0 1 1\n0 2 2\n1 2 3\n"))
    tracemalloc.start()
    try:
        assert read_mdp(path).n == 3
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20


def test_triplet_indices_and_mdp_indices_are_whole(tmp_path: Path) -> None:
    # found by the fuzzing: NaN/inf indices were cast to int64 (RuntimeWarning, garbage)
    import warnings

    from gameopt.deck.formats import read_mdp

    path = tmp_path / "s.npz"
    path.write_bytes(_npz(ids=np.array([1, 2]), rows=np.array([np.nan]),
                          cols=np.array([1.0]), vals=np.array([1.0])))
    mdp = tmp_path / "m.txt"
    mdp.write_text("3 2\n0 1 1\n0 inf 2\n1 2 3\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InvalidInputError, match=r"rows: holds float64 values, not int"):
            read_scores(path)
        with pytest.raises(InvalidInputError, match=r"m\.txt:3: index 0 inf is not a whole"):
            read_mdp(mdp)
        # an index too big for int64 was cast before the range check (RuntimeWarning)
        mdp.write_text("3 2\n0 1 1\n0 1e300 2\n1 2 3\n")
        with pytest.raises(InvalidInputError,
                           match=r"m\.txt:3: index outside 0\.\.2 \(0 1e\+300\)"):
            read_mdp(mdp)


def test_a_scores_csv_naming_too_many_pieces_is_refused_before_the_matrix(
        tmp_path: Path) -> None:
    # 10,000 lines name 20,000 pieces: 1.6 GB of float32 was allocated, with no ceiling
    import tracemalloc

    from gameopt.deck.formats import MAX_SCORE_PIECES

    path = tmp_path / "s.csv"
    n = MAX_SCORE_PIECES // 2 + 1
    path.write_text("a,b,score\n" + "".join(f"{2 * i + 1},{2 * i + 2},1\n" for i in range(n)))
    tracemalloc.start()
    try:
        with pytest.raises(InvalidInputError, match=r"s\.csv: 16,386 pieces: the score "
                                                    r"matrix would take 1,074,003,984 bytes"):
            read_scores(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 << 20
