"""Penalty weights tuned by simulation: the search improves a bad start, keeps the hard
constraints, repeats with its seed, and refuses bad input; the CLI's one-line errors."""

from __future__ import annotations

import pytest

from gameopt.cli.main import main
from gameopt.core import Limit, Outcome, Progress
from gameopt.errors import InvalidInputError
from gameopt.pairing import PenaltyParams, SimConfig
from gameopt.pairing.simulate import simulate_event
from gameopt.pairing.tune import (
    evaluate,
    paired_difference,
    params_toml,
    tune_and_validate,
    tune_params,
    weight_value,
)

#: Floats free and no elitism: nothing keeps the score groups together.
BAD = PenaltyParams(p_und=(0,), p_elects=(0,), p_flcum=0, min_fac=0)


def test_tuner_improves_a_bad_weight_set() -> None:
    seen: list[Progress] = []
    r = tune_params([SimConfig(16, 4)], events=4, seed=3, start=BAD, max_evals=8, workers=1,
                    progress=seen.append)
    assert isinstance(r, Outcome) and not r.proven and r.clock == Limit().start().clock
    assert r.best.tau > r.start.tau + 0.05
    assert r.best.rematches == 0 and r.best.high_byes <= r.start.high_byes
    assert r.best.colour_breaks <= r.start.colour_breaks
    assert r.stats["evaluations"] == len(r.history) == 8
    assert seen and seen[-1].done == 8 and seen[-1].best == pytest.approx(r.best.tau)
    # the training figure is what a fresh evaluation of the tuned weights gives
    again = evaluate(r.params, [SimConfig(16, 4)], events=4, seed=3, workers=1)
    assert again.taus == r.best.taus


def test_tuner_repeats_with_its_seed_and_never_accepts_a_worse_set() -> None:
    a = tune_params([SimConfig(12, 3)], events=2, seed=5, max_evals=4, workers=1)
    b = tune_params([SimConfig(12, 3)], events=2, seed=5, max_evals=4, workers=1)
    assert a.params == b.params and [e.taus for e in a.history] == \
        [e.taus for e in b.history]
    assert a.best.tau >= a.start.tau


def test_evaluation_is_the_events_it_names() -> None:
    cfg = SimConfig(12, 3)
    e = evaluate(BAD, [cfg], events=2, seed=1, workers=1)
    from gameopt.core.rng import spawn_seeds
    events = [simulate_event("exact", cfg, s, BAD) for s in spawn_seeds(1, 2)]
    assert e.taus == tuple(x.kendall_tau for x in events)
    assert e.rematches == sum(x.rematches for x in events)


def test_weight_value_and_toml_round_trip(tmp_path: object) -> None:
    p = PenaltyParams(terms=PenaltyParams().terms | {"rank"}, p_rank=5, p_elects=(4,))
    assert weight_value(p, "p_rank") == 5 and weight_value(PenaltyParams(), "p_rank") == 0
    assert weight_value(p, "p_elects") == 4
    from pathlib import Path
    path = Path(str(tmp_path)) / "w.toml"
    path.write_text(params_toml(p), encoding="utf-8")
    assert PenaltyParams.from_toml(path) == p


def test_paired_difference() -> None:
    a = evaluate(PenaltyParams(), [SimConfig(12, 3)], events=3, seed=2, workers=1)
    mean, low, high = paired_difference(a, a)
    assert mean == low == high == 0.0
    with pytest.raises(InvalidInputError, match="same events"):
        paired_difference(a, evaluate(PenaltyParams(), [SimConfig(12, 3)], events=2, seed=2,
                                      workers=1))


def test_validation_uses_other_seeds() -> None:
    v = tune_and_validate([SimConfig(12, 3)], events=2, holdout=3, seed=0, max_evals=1,
                          workers=1)
    assert len(v.before.taus) == 3 and v.before.taus != v.result.start.taus[:3]
    assert v.better == (v.difference[1] > 0 and v.after.rematches == 0
                        and v.after.high_byes <= v.before.high_byes
                        and v.after.colour_breaks <= v.before.colour_breaks)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: tune_params([], events=1), "tune: no event size given"),
    (lambda: tune_params([SimConfig(12, 3)], events=0), "tune: events 0: expected >= 1"),
    (lambda: tune_params([SimConfig(12, 3)], events=1, max_evals=0),
     "tune: max_evals 0: expected >= 1"),
    (lambda: tune_params([SimConfig(12, 3)], events=1, limit=Limit(nodes=5)),
     "tune: a limit takes time and a stop flag only"),
    (lambda: tune_and_validate([SimConfig(12, 3)], events=1, holdout=1),
     "tune: holdout 1: expected >= 2"),
    (lambda: tune_and_validate([SimConfig(12, 3)], events=1, holdout=2, seed=-1),
     "tune: seed must be a non-negative integer"),
])
def test_bad_input(call: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(("args", "message"), [
    (["--sizes", "40by7"], "--sizes: expected PLAYERSxROUNDS, e.g. 40x7, got '40by7'"),
    (["--sizes", "5x9"], "rounds < players"),
    (["--events", "0"], "--events 0: expected >= 1"),
    (["--holdout", "1"], "--holdout 1: expected >= 2"),
    (["--max-evals", "0"], "--max-evals 0: expected >= 1"),
    (["--time-limit", "-1"], "--time-limit -1.0: expected seconds > 0"),
    (["--seed", "-3"], "--seed: expected a non-negative integer, got -3"),
    (["--workers", "0"], "--workers 0: expected >= 1"),
    (["--start", "/nonexistent/w.toml"], "penalty file /nonexistent/w.toml: no such file"),
])
def test_cli_bad_options(args: list[str], message: str,
                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pair", "tune", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_cli_tunes_a_tiny_field(tmp_path: object,
                                capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path
    start = Path(str(tmp_path)) / "bad.toml"
    start.write_text(params_toml(BAD), encoding="utf-8")
    out = Path(str(tmp_path)) / "tuned.toml"
    code = main(["pair", "tune", "--sizes", "16x4", "--events", "4", "--holdout", "4",
                 "--max-evals", "8", "--seed", "3", "--workers", "1", "--start", str(start),
                 "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "search: 8 candidates" in text and "held-out τ difference" in text
    if "are better" in text:
        assert PenaltyParams.from_toml(out) != BAD
    else:
        assert not out.exists()


def test_no_weight_set_is_evaluated_twice() -> None:
    # From PAPP's weights this search improves in its first pass (from the defaults, the
    # tuned weights, it stops after one), so it makes a second pass.
    r = tune_params([SimConfig(12, 3)], events=1, seed=2, max_evals=40, workers=1,
                    start=PenaltyParams.papp())
    assert r.stats["passes"] >= 2  # a second pass would retry the start's values
    sets = [r.start.params, *(e.params for e in r.history)]
    assert len(sets) == len(set(sets))
