"""Limit: one validated description of what a search may spend; the stop flag and watchdog."""

from __future__ import annotations

import math
import threading
import time

import numpy as np
import pytest

from gameopt.core import Limit, StopFlag, check_count, check_finite, check_seconds
from gameopt.errors import InvalidInputError


@pytest.mark.parametrize("value", [None, math.inf])
def test_no_time_limit(value: float | None) -> None:
    assert check_seconds(value) is None
    assert Limit(time=value).time is None


@pytest.mark.parametrize(("value", "message"), [
    (math.nan, r"time limit nan: expected a number of seconds > 0"),
    (-1, r"time limit -1: expected seconds > 0 \(leave it out for no limit\)"),
    (0, r"time limit 0: expected seconds > 0"),
    (-math.inf, r"time limit -inf: expected seconds > 0"),
    ("3", r"time limit '3': expected a number of seconds"),
    (True, r"time limit True: expected a number of seconds"),
])
def test_bad_seconds(value: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        check_seconds(value)


def test_seconds_name_where_they_came_from() -> None:
    with pytest.raises(InvalidInputError, match=r"^--time-limit nan:"):
        check_seconds(math.nan, "--time-limit")


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (np.int64(7), 7), (1e6, 1_000_000),
                                                 (None, None)])
def test_counts(value: object, expected: int | None) -> None:
    assert check_count(value) == expected


@pytest.mark.parametrize("value", [0, -3, 2.5, math.nan, math.inf, "4", False])
def test_bad_counts(value: object) -> None:
    with pytest.raises(InvalidInputError, match=r"^games "):
        check_count(value, "games")


def test_count_range() -> None:
    assert check_count(0, "depth", minimum=0) == 0
    with pytest.raises(InvalidInputError, match=r"depth 61: expected >= 0 and <= 60"):
        check_count(61, "depth", minimum=0, maximum=60)


def test_finite() -> None:
    assert check_finite(-2.5) == -2.5
    for bad in (math.nan, math.inf, -math.inf, "x"):
        with pytest.raises(InvalidInputError, match=r"^--target "):
            check_finite(bad, "--target")


def test_limit_validates_every_field() -> None:
    with pytest.raises(InvalidInputError, match="clock 'gpu'"):
        Limit(clock="gpu")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="node limit 0"):
        Limit(nodes=0)
    with pytest.raises(InvalidInputError, match="target nan"):
        Limit(target=math.nan)
    assert Limit(depth=0).depth == 0


def test_limit_start_makes_a_stop_rule() -> None:
    flag = StopFlag()
    rule = Limit(time=10, clock="cpu", nodes=5, target=1.0, stop=flag).start()
    assert rule.clock == "cpu" and rule.deadline.seconds == 10
    assert rule.should_stop(4, 2.0) is None
    assert rule.should_stop(5, 2.0) == "iterations"
    assert rule.should_stop(0, 1.0) == "target"
    flag.set()
    assert rule.should_stop() == "requested" and rule.reason() == "requested"


def test_watch_sets_the_flag_at_the_deadline() -> None:
    for clock in ("wall", "cpu"):
        rule = Limit(time=0.05, clock=clock).start()  # type: ignore[arg-type]
        with rule.watch() as flag:
            t0 = time.perf_counter()
            while not flag.is_set() and time.perf_counter() - t0 < 5:
                pass  # burn CPU so both clocks advance
        assert flag.is_set() and rule.reason() == "time"
        assert 0.05 <= rule.elapsed() < 2.0


def test_watch_without_limit_starts_no_thread() -> None:
    before = threading.active_count()
    rule = Limit().start()
    with rule.watch() as flag:
        assert threading.active_count() == before
    assert not flag.is_set() and rule.reason() is None


def test_watch_thread_ends_with_the_block() -> None:
    rule = Limit(time=60).start()
    with rule.watch():
        assert any(t.name == "gameopt-deadline" for t in threading.enumerate())
    assert not any(t.name == "gameopt-deadline" for t in threading.enumerate())
    assert not rule.stop_requested


def test_stop_flag_is_what_kernels_poll() -> None:
    flag = StopFlag()
    assert flag.array.dtype == np.uint8 and flag.array.shape == (1,)
    flag.set()
    assert flag.array[0] == 1 and flag.is_set()
    flag.clear()
    assert not flag.is_set()
