"""Fixtures shared by every test folder: where the shared benchmark data lives.

The data files too large for the repository (the FFO endgame suites, the Sudoku sets,
MDPLIB instances) live in one folder outside it: ``$GAMEOPT_DATA`` when set, else
``../shared/data`` beside the project root. A test that needs one of its subfolders asks
for the fixture of that subfolder and is skipped, naming the folder it looked for, when
the folder is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

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
