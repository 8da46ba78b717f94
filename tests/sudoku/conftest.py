from __future__ import annotations

from pathlib import Path

import pytest

ARTICLE = "..62...8...897......481.5......6...2.7.....3.6...5......2.471....3.284...5...12.."
ARTICLE_SOLUTION = ("716235984528974316394816527845163792271489635"
                    "639752841982647153163528479457391268")


def data_dir() -> Path:
    import os

    env = os.environ.get("GAMEOPT_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "data"


@pytest.fixture
def sudoku_data() -> Path:
    d = data_dir() / "sudoku"
    if not d.is_dir():
        pytest.skip(f"shared Sudoku data not found at {d} (set GAMEOPT_DATA)")
    return d
