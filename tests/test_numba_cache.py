"""The numba cache folder is keyed on the package's sources (numba alone would reuse a
kernel compiled against an older version of a module it calls)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gameopt import _numba_cache


def test_digest_changes_with_any_module(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "_k.py").write_text("y = 2\n")
    first = _numba_cache._sources_digest(tmp_path)
    assert _numba_cache._sources_digest(tmp_path) == first
    (tmp_path / "sub" / "_k.py").write_text("y = 3\n")
    os.utime(tmp_path / "sub" / "_k.py", ns=(1, 1))
    assert _numba_cache._sources_digest(tmp_path) != first


def test_import_points_numba_at_a_cache_of_these_sources(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = ("import gameopt, os, numba; print(os.environ['NUMBA_CACHE_DIR']); "
            "print(numba.config.CACHE_DIR)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0] == out[1]
    assert Path(out[0]).parent == tmp_path / "gameopt"
    assert Path(out[0]).name.startswith("numba-") and Path(out[0]).is_dir()
    # a preset NUMBA_CACHE_DIR is left alone
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [str(tmp_path / "mine")] * 2
