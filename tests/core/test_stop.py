"""Deadline and StopRule: budgets, reasons, and a stop requested from another thread."""

from __future__ import annotations

import math
import threading
import time

import pytest

from gameopt.core import Deadline, StopFlag, StopRule
from gameopt.errors import InvalidInputError


def test_deadline_without_limit_never_expires() -> None:
    for d in (Deadline(), Deadline(None), Deadline(math.inf)):
        assert d.seconds == math.inf
        assert not d.expired()
        assert d.remaining() == math.inf


def test_deadline_zero_is_expired_at_once() -> None:
    d = Deadline(0)
    assert d.expired()
    assert d.remaining() == 0.0


def test_deadline_expires() -> None:
    d = Deadline(0.05)
    assert not d.expired()
    assert 0 < d.remaining() <= 0.05
    time.sleep(0.06)
    assert d.expired()
    assert d.remaining() == 0.0
    assert d.elapsed() >= 0.05


def test_cpu_deadline_ignores_sleep() -> None:
    d = Deadline(0.05, cpu=True)
    time.sleep(0.1)
    assert d.elapsed() < 0.05
    assert not d.expired()


@pytest.mark.parametrize("seconds", [-1.0, math.nan])
def test_bad_deadline(seconds: float) -> None:
    with pytest.raises(InvalidInputError, match=r"time limit must be >= 0 seconds, got"):
        Deadline(seconds)


def test_deadline_repr() -> None:
    assert repr(Deadline(2.5, cpu=True)) == "Deadline(2.5, cpu=True)"


def test_stop_rule_defaults_never_stop() -> None:
    assert StopRule().should_stop(10**9, -1e9) is None


def test_stop_rule_iterations() -> None:
    rule = StopRule(max_iterations=10)
    assert rule.should_stop(9) is None
    assert rule.should_stop(10) == "iterations"


def test_stop_rule_target() -> None:
    rule = StopRule(target=0.0)
    assert rule.should_stop(0, 1.0) is None
    assert rule.should_stop(0, None) is None
    assert rule.should_stop(0, 0.0) == "target"


def test_stop_rule_time() -> None:
    assert StopRule(deadline=Deadline(0)).should_stop() == "time"


def test_stop_rule_precedence() -> None:
    rule = StopRule(deadline=Deadline(0), max_iterations=1, target=0.0)
    assert rule.should_stop(5, 1.0) == "iterations"
    assert rule.should_stop(5, 0.0) == "target"
    rule.request_stop()
    assert rule.should_stop(5, 0.0) == "requested"


def test_request_stop_from_another_thread() -> None:
    rule = StopRule()
    started = threading.Event()
    reasons: list[str | None] = []

    def search() -> None:
        started.set()
        iterations = 0
        while (reason := rule.should_stop(iterations)) is None:
            iterations += 1
            time.sleep(0.001)
        reasons.append(reason)

    thread = threading.Thread(target=search)
    thread.start()
    assert started.wait(5)
    assert not rule.stop_requested
    rule.request_stop()
    thread.join(5)
    assert not thread.is_alive()
    assert rule.stop_requested
    assert reasons == ["requested"]


def test_on_flag_acts_once_when_the_flag_goes_up_and_not_after_the_block() -> None:
    from gameopt.core import on_flag

    calls: list[int] = []
    flag = StopFlag()
    with on_flag(flag, lambda: calls.append(1), poll=0.001):
        time.sleep(0.02)
        assert calls == []
        flag.set()
        for _ in range(2000):  # bounded: 2 s at most
            if calls:
                break
            time.sleep(0.001)
        time.sleep(0.01)
    assert calls == [1]
    late = StopFlag()
    with on_flag(late, lambda: calls.append(2), poll=0.001):
        pass
    late.set()
    time.sleep(0.01)
    assert calls == [1]  # the block ended: nothing watches the flag any more
    with on_flag(flag, lambda: calls.append(3)):  # set already: at once
        assert calls == [1, 3]
