"""Simulated events: same seed, same events; the result shape; validated inputs; progress."""

from __future__ import annotations

import pytest

from gameopt.core import Outcome, Progress
from gameopt.errors import InvalidInputError
from gameopt.pairing import SimConfig, simulate_rules
from gameopt.pairing.simulate import SUMMARY_COLUMNS, simulate_event


def test_event_is_an_outcome_and_repeats_with_its_seed() -> None:
    cfg = SimConfig(players=20, rounds=4)
    a, b = simulate_event("exact", cfg, 5), simulate_event("exact", cfg, 5)
    assert isinstance(a, Outcome)
    assert (a.rematches, a.floats, a.colour_diffs, a.kendall_tau) == \
        (b.rematches, b.floats, b.colour_diffs, b.kendall_tau)
    assert a.clock == "cpu" and a.seconds >= 0
    assert a.stats == {"rounds": 4, "colour_breaks": b.stats["colour_breaks"],
                       "high_byes": 0}
    assert a.proven and a.bound is None
    assert not simulate_event("slim", cfg, 5).proven
    assert a.seconds_per_round == pytest.approx(a.seconds / 4)


def test_rules_report_progress_per_event() -> None:
    seen: list[Progress] = []
    rows = simulate_rules(["exact", "naive"], SimConfig(players=12, rounds=3), events=2,
                          seed=1, workers=1, progress=seen.append)
    assert [r[0] for r in rows] == ["exact", "naive"]
    assert all(len(r) == len(SUMMARY_COLUMNS) for r in rows)
    assert [p.done for p in seen] == [0, 1, 2, 3, 4] and seen[-1].total == 4


@pytest.mark.parametrize(("call", "message"), [
    (lambda: SimConfig(players=4, rounds=9), "rounds < players"),
    (lambda: SimConfig(players=10.5), "simulation: players 10.5: expected a whole number"),
    (lambda: SimConfig(rounds=0), r"simulation: rounds 0: expected >= 1"),
    (lambda: SimConfig(draw_prob=float("nan")), "simulation: draw_prob nan"),
    (lambda: simulate_rules(["exact"], SimConfig(players=6, rounds=2), events=0),
     "simulation: events 0: expected >= 1"),
    (lambda: simulate_rules(["bogus"], SimConfig(players=6, rounds=2), events=1),
     "simulation: unknown rule 'bogus'"),
    (lambda: simulate_event("bogus", SimConfig(players=6, rounds=2), 1),
     "simulation: unknown rule 'bogus'"),
])
def test_bad_input(call: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        call()  # type: ignore[operator]


def test_byes_follow_the_bye_tier_and_colour_breaks_are_counted() -> None:
    # an odd field: one bye a round, always to the lowest group of players without one
    cfg = SimConfig(players=15, rounds=6)
    for seed in (1, 2, 3):
        e = simulate_event("exact", cfg, seed)
        assert e.stats["high_byes"] == 0
        assert e.stats["colour_breaks"] >= sum(d > 2 for d in e.colour_diffs)
