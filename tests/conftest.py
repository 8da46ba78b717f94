"""Fixtures shared by every test folder: where the shared benchmark data lives, and the
benchmark scripts of ``benchmarks/`` imported as modules.

The data files too large for the repository (the FFO endgame suites, the Sudoku sets,
MDPLIB instances) live in one folder outside it: ``$GAMEOPT_DATA`` when set, else
``../shared/data`` beside the project root. A test that needs one of its subfolders asks
for the fixture of that subfolder and is skipped, naming the folder it looked for, when
the folder is absent.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

#: The project root (the folder holding ``pyproject.toml``).
ROOT = Path(__file__).resolve().parents[1]

# scripts run by the tests as programs (e.g. the fake NBoard engine), not test modules:
# ``--doctest-modules`` must not import them
collect_ignore = ["data"]


def shared_data_dir() -> Path:
    """The shared data folder: ``$GAMEOPT_DATA`` if set, else ``../shared/data`` beside the
    project root (it may not exist)."""
    env = os.environ.get("GAMEOPT_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "data"


def require_shared_data(*parts: str) -> Path:
    """``shared_data_dir() / parts``, or skip the calling test naming the missing folder."""
    path = shared_data_dir().joinpath(*parts)
    if not path.is_dir():
        pytest.skip(f"shared data folder {path} not found (set GAMEOPT_DATA to the folder "
                    "holding mdp/, reversi/ and sudoku/)")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder (skips the test when it is absent)."""
    return require_shared_data()


@pytest.fixture(scope="session")
def reversi_data() -> Path:
    """``shared/data/reversi``: the FFO endgame suites (OBF files)."""
    return require_shared_data("reversi")


@pytest.fixture(scope="session")
def sudoku_data() -> Path:
    """``shared/data/sudoku``: the published Sudoku puzzle sets."""
    return require_shared_data("sudoku")


@pytest.fixture(scope="session")
def mdp_data() -> Path:
    """``shared/data/mdp``: MDPLIB maximum diversity instances and their best known values."""
    return require_shared_data("mdp")


@pytest.fixture
def load_bench(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], ModuleType]]:
    """``load_bench("bench_x")``: the script ``benchmarks/bench_x.py`` imported as a module
    (a fresh import for each test: the scripts and the ``bench_*`` modules they import
    are dropped from ``sys.modules`` afterwards, whatever the test's outcome)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    before = set(sys.modules)
    yield importlib.import_module
    for name in set(sys.modules) - before:
        if name.startswith("bench_"):
            del sys.modules[name]
