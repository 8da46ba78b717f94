"""benchmarks/bench_deck_service.py explains as the service does (issue 16)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from gameopt.deck import DeckProblem, solve


def test_bench_service_explains_within_the_search_time(
        monkeypatch: pytest.MonkeyPatch, load_bench: Callable[[str], ModuleType]) -> None:
    """The explanation stage had no limit and always re-solved by VDS: it measured more
    than the service does. It now passes the deck's method and the search's time."""
    bench = load_bench("bench_deck_service")

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(bench, "binding_rules",
                        lambda p, deck, **kw: calls.append(kw) or [])
    rng = np.random.default_rng(0)
    R = rng.random((20, 20))
    p = DeckProblem(((R + R.T) / 2).astype(np.float32), 5,
                    cost=np.arange(1, 21, dtype=np.int32), cost_cap=40)
    r = solve(p, "bnb", seed=0)
    bench.explain(p, r, 3, "bnb")
    (kw,) = calls
    assert kw["method"] == "bnb" and kw["seed"] == 3
    assert kw["limit"].time == pytest.approx(max(r.seconds, 1e-3))
    assert kw["limit"].clock == r.clock
