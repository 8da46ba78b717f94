"""Reading files with one error wording, and writing them whole or not at all.

Every reader in gameopt goes through :func:`read_text` / :func:`read_bytes`, so a missing
file, a directory, a file too large or one that is not text gets the same one-line
:class:`~gameopt.errors.InvalidInputError`: ``"{what} {path}: {reason}"``. Writers take the
path first: ``write_x(path, value)``.
"""

from __future__ import annotations

import io
import math
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gameopt.errors import InvalidInputError

__all__ = ["MAX_FILE_BYTES", "atomic_write_bytes", "atomic_write_text", "read_bytes",
           "read_npz", "read_text"]

#: Files larger than this are refused before they are read (a documented memory ceiling).
MAX_FILE_BYTES = 1 << 30


def read_bytes(path: str | Path, what: str = "file", *,
               max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, or a one-line error naming ``what`` and the path.

    Raises
    ------
    InvalidInputError
        If the file does not exist, is a directory, cannot be read, or is larger than
        ``max_bytes``.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
        if p.is_dir():
            raise InvalidInputError(f"{what} {p}: is a directory, expected a file")
        if size > max_bytes:
            raise InvalidInputError(
                f"{what} {p}: {size:,} bytes is larger than the {max_bytes:,}-byte limit")
        with open(p, "rb") as f:  # read(n) first allocates n bytes: ask for what is there
            data = f.read(size + 1)
            while size < len(data) <= max_bytes and (more := f.read(1 << 16)):
                data += more  # the file grew since stat (or stat gives 0: a pipe)
        if len(data) > max_bytes:
            raise InvalidInputError(f"{what} {p}: larger than the {max_bytes:,}-byte limit")
        return data
    except FileNotFoundError:
        raise InvalidInputError(f"{what} {p}: no such file") from None
    except OSError as e:
        raise InvalidInputError(f"{what} {p}: cannot read ({e.strerror or e})") from None


def read_text(path: str | Path, what: str = "file", *, encoding: str = "utf-8",
              max_bytes: int = MAX_FILE_BYTES) -> str:
    """The text of ``path`` (UTF-8 by default, a leading byte-order mark dropped).

    Newlines are read as ``Path.read_text`` does (universal newlines: ``\\r\\n`` and ``\\r``
    become ``\\n``).

    Raises
    ------
    InvalidInputError
        As :func:`read_bytes`, or if the bytes are not text in ``encoding`` (the message
        gives the offset of the first bad byte), or hold a NUL byte.
    """
    data = read_bytes(path, what, max_bytes=max_bytes)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise InvalidInputError(
            f"{what} {path}: not {encoding} text (byte {e.start}: "
            f"{data[e.start:e.start + 1]!r})") from None
    if "\x00" in text:
        raise InvalidInputError(
            f"{what} {path}: not text (NUL byte at offset {text.index(chr(0))})")
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def read_npz(path: str | Path, what: str = "NPZ file", *,
             max_bytes: int = MAX_FILE_BYTES) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the ``.npz`` file ``path`` by name (``.npy`` dropped), read without
    trusting the file: the members' unpacked sizes add up to at most ``max_bytes`` (a
    member compressed a thousandfold would otherwise unpack far beyond the file), each
    array's header is checked against its member's size before the array is allocated (a
    header may declare any shape), and object arrays are refused (no pickles).

    Raises
    ------
    InvalidInputError
        As :func:`read_bytes`, or one line ``"{what} {path}: ..."`` for a file that is not
        a readable NPZ, for members too large, or for a header that promises more than its
        member holds.
    """
    p = Path(path)
    data = read_bytes(p, what, max_bytes=max_bytes)
    out: dict[str, npt.NDArray[Any]] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if sum(i.file_size for i in infos) > max_bytes:
                raise InvalidInputError(f"{what} {p}: NPZ members add up to more than "
                                        f"{max_bytes:,} bytes")
            for info in infos:
                name = info.filename.removesuffix(".npy")
                shown = _clip(name)
                with zf.open(info) as f:  # reads at most the member's declared size
                    version = np.lib.format.read_magic(f)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(f)
                    # an element of no bytes still counts one: 10**12 of them are no
                    # array to hand on (converting it would allocate terabytes)
                    need = math.prod(shape) * max(dtype.itemsize, 1)
                    if dtype.hasobject or need > info.file_size:
                        raise InvalidInputError(
                            f"{what} {p}: {shown}: header declares {_clip(str(dtype))} "
                            f"{_clip(str(shape))} ({_clip(f'{need:,}')} bytes) in a member "
                            f"of {info.file_size:,} bytes")
                    f.seek(0)
                    out[name] = np.lib.format.read_array(f, allow_pickle=False)
    except InvalidInputError:
        raise
    except Exception as e:  # noqa: BLE001 - zip, zlib, npy header: any damage is bad input
        detail = _clip(str(e), 80)
        raise InvalidInputError(f"{what} {p}: not an NPZ file ({type(e).__name__}: "
                                f"{detail})") from None
    return out


def _clip(text: str, n: int = 40) -> str:
    """``text`` on one line, cut to ``n`` characters (names and shapes from a file)."""
    one = " ".join(text.split())
    return one if len(one) <= n else one[:n - 3] + "..."


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, sync it, rename it over ``path``.

    A crash or an error leaves either the old file or the new one, never a half-written
    file, and no temporary file behind.

    Raises
    ------
    InvalidInputError
        If the directory does not exist or the file cannot be written.
    """
    p = Path(path)
    directory = p.parent if str(p.parent) else Path(".")
    if not directory.is_dir():
        raise InvalidInputError(f"{p}: directory {directory} does not exist")
    tmp = directory / f".{p.name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise InvalidInputError(f"{p}: cannot write ({e.strerror or e})") from None


def atomic_write_text(path: str | Path, text: str) -> None:
    """:func:`atomic_write_bytes` of ``text`` in UTF-8 (newlines as given)."""
    atomic_write_bytes(path, text.encode("utf-8"))
