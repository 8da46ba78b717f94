"""benchmarks/bench_reversi_lazy.py: its table on a weights file with a small network, and
bad arguments in one line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from gameopt.reversi.network import NET_K, Network
from gameopt.reversi.patterns import DEFAULT_SET, N_STAGES
from gameopt.reversi.weights import SHIPPED, read_weights, write_weights


@pytest.fixture
def bench(load_bench: Callable[[str], ModuleType]) -> ModuleType:
    return load_bench("bench_reversi_lazy")


def _with_network(path: Path) -> Path:
    rng = np.random.default_rng(1)
    h = 4
    net = Network(rng.normal(0, 0.2, (DEFAULT_SET.n_features, NET_K)),
                  rng.normal(0, 0.5, (N_STAGES, NET_K)), rng.normal(0, 0.5, (h, NET_K)),
                  rng.normal(0, 0.5, h), rng.normal(0, 0.8, h), rng.normal(0, 0.5, N_STAGES))
    write_weights(path, read_weights(SHIPPED)[0], network=net)
    return path


def test_it_compares_lazy_margins_with_the_full_network(
        bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    w = _with_network(tmp_path / "wn.npz")
    monkeypatch.setattr(sys, "argv", ["bench", "--eval", str(w), "-n", "2", "--depth", "3",
                                      "--margins", "0,300", "--max-empties", "0,40",
                                      "--runs", "1"])
    assert bench.main() == 0
    out = capsys.readouterr().out
    rows = {line.split("|")[1].strip(): line for line in out.splitlines()
            if line.startswith("| ") and "setting" not in line}
    assert set(rows) == {"network [baseline]", "lazy 300", "lazy 0, <= 40 empties",
                         "lazy 300, <= 40 empties", "patterns alone"}
    n = len(bench.positions(["f5d6", "f5f6"], bench.SearchParams()))
    assert n == 6 and "patterns alone" in out
    assert f"{n} positions (44, 36, 28 empties) of 2 openings, depth 3" in out


@pytest.mark.parametrize("argv, message", [
    (["--eval", str(SHIPPED)], "has no network"),
    (["--eval", "/nonexistent.npz"], "/nonexistent.npz"),
    (["--eval", str(SHIPPED), "--margins", "x"], "invalid literal"),
])
def test_bad_arguments_are_one_line(bench: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str], argv: list[str],
                                    message: str) -> None:
    monkeypatch.setattr(sys, "argv", ["bench", *argv])
    assert bench.main() == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
