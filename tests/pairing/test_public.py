"""The pairing package's face: its entry points, and front ends that use only them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import gameopt.pairing as pairing

ROOT = Path(__file__).resolve().parents[2]
FRONTS = [ROOT / "src" / "gameopt" / "cli" / "pair.py", *sorted(
    (ROOT / "benchmarks").glob("bench_pairing*.py"))]


def test_every_exported_name_resolves() -> None:
    for name in pairing.__all__:
        assert getattr(pairing, name) is not None, name


def test_numba_loads_only_with_pair_round() -> None:
    code = ("import sys, gameopt.pairing as p; a = 'numba' in sys.modules; p.pair_round; "
            "print(a, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "True"]


def test_front_ends_import_public_names_only() -> None:
    for path in FRONTS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "gameopt.pairing"):
                assert not any(part.startswith("_") for part in node.module.split(".")), path
                assert not any(a.name.startswith("_") for a in node.names), path
