"""Writing files whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

from gameopt.errors import InvalidInputError

__all__ = ["atomic_write_bytes", "atomic_write_text"]


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
