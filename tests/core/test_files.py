"""Files written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gameopt.core.files import atomic_write_text
from gameopt.errors import InvalidInputError


def test_atomic_write(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    atomic_write_text(path, "a\n")
    atomic_write_text(path, "b\n")
    assert path.read_text() == "b\n" and os.listdir(tmp_path) == ["out.csv"]
    with pytest.raises(InvalidInputError, match="directory .* does not exist"):
        atomic_write_text(tmp_path / "no" / "out.csv", "x")
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(InvalidInputError, match="dir.csv: cannot write"):
        atomic_write_text(tmp_path / "dir.csv", "x")
    assert sorted(os.listdir(tmp_path)) == ["dir.csv", "out.csv"]


def test_read_text_one_wording(tmp_path: Path) -> None:
    from gameopt.core.files import read_bytes, read_text

    good = tmp_path / "p.txt"
    good.write_bytes(b"\xef\xbb\xbfa\r\nb\rc\n")
    assert read_text(good, "puzzle file") == "a\nb\nc\n"
    assert read_bytes(good) == b"\xef\xbb\xbfa\r\nb\rc\n"
    with pytest.raises(InvalidInputError, match=r"^puzzle file .*nope.txt: no such file$"):
        read_text(tmp_path / "nope.txt", "puzzle file")
    with pytest.raises(InvalidInputError, match=r"^pool .*: is a directory, expected a file$"):
        read_text(tmp_path, "pool")
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"ok\nZo\xeb\n")
    with pytest.raises(InvalidInputError, match=r"bad.csv: not utf-8 text \(byte 5: b'\\xeb'\)"):
        read_text(bad, "players")
    nul = tmp_path / "nul.txt"
    nul.write_bytes(b"ab\x00")
    with pytest.raises(InvalidInputError, match=r"not text \(NUL byte at offset 2\)"):
        read_text(nul)
    with pytest.raises(InvalidInputError, match=r"larger than the 2-byte limit"):
        read_bytes(good, max_bytes=2)


def test_reading_a_small_file_does_not_allocate_the_limit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # found by the fuzzing (benchmarks/fuzz): f.read(limit + 1) allocated the whole
    # 1 GiB limit for every file read, a 3-byte one too
    import tracemalloc

    from gameopt.core.files import read_bytes

    path = tmp_path / "small.txt"
    path.write_bytes(b"abc")
    tracemalloc.start()
    try:
        assert read_bytes(path) == b"abc"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20
