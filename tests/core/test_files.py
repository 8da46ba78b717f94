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
