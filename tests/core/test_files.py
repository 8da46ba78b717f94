"""Files written whole or not at all."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import numpy as np
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


def _member(zf: zipfile.ZipFile, name: str, dtype: str, shape: tuple[int, ...],
            body: int) -> None:
    """A deflated ``.npy`` member: a header declaring ``dtype shape``, ``body`` zero bytes."""
    head = io.BytesIO()
    np.lib.format.write_array_header_1_0(head, {"descr": np.dtype(dtype).str,
                                                "fortran_order": False, "shape": shape})
    with zf.open(name + ".npy", "w") as f:
        f.write(head.getvalue() + bytes(body))


def test_read_npz_is_bounded_before_it_allocates(tmp_path: Path) -> None:
    from gameopt.core.files import read_npz

    good = tmp_path / "good.npz"
    np.savez_compressed(good, a=np.arange(5), b=np.eye(2, dtype=np.float32))
    arrays = read_npz(good, "table")
    assert sorted(arrays) == ["a", "b"] and arrays["a"].tolist() == [0, 1, 2, 3, 4]
    # a member that unpacks to 500 times its packed size or more: refused by the unpacked sizes
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        _member(zf, "a", "<u8", (1 << 18,), 8 << 18)
    assert bomb.stat().st_size < (8 << 18) // 500
    with pytest.raises(InvalidInputError, match=r"^table .*bomb.npz: NPZ members add up to "
                                                r"more than 1,048,576 bytes$"):
        read_npz(bomb, "table", max_bytes=1 << 20)
    assert read_npz(bomb, "table", max_bytes=4 << 20)["a"].shape == (1 << 18,)
    # a header promising more than its member holds: refused before the allocation
    liar = tmp_path / "liar.npz"
    with zipfile.ZipFile(liar, "w", zipfile.ZIP_DEFLATED) as zf:
        _member(zf, "a", "<f8", (10**6, 10**6), 64)
    with pytest.raises(InvalidInputError, match=r"table .*liar.npz: a: header declares "
                                                r"float64 \(1000000, 1000000\)"):
        read_npz(liar, "table")
    # elements of no bytes count one each; a member's name is cut to one short line
    void = tmp_path / "void.npz"
    with zipfile.ZipFile(void, "w", zipfile.ZIP_DEFLATED) as zf:
        _member(zf, "v\n" + "x" * 500, "|V0", (10**12,), 0)
    with pytest.raises(InvalidInputError) as info:
        read_npz(void, "table")
    message = str(info.value)
    assert "header declares |V0 (1000000000000,) (1,000,000,000,000 bytes)" in message
    assert "\n" not in message and "v xxxx" in message and len(message) < 250
    objects = tmp_path / "objects.npz"
    np.savez(objects, a=np.array([{"x": 1}], dtype=object))
    with pytest.raises(InvalidInputError, match=r"objects.npz: a: header declares object"):
        read_npz(objects, "table")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"PK\x03\x04 and then nothing")
    with pytest.raises(InvalidInputError, match=r"^table .*junk.npz: not an NPZ file "
                                                r"\(BadZipFile: [^\n]*\)$"):
        read_npz(junk, "table")
