"""The short fuzz pass CI runs: every parser and protocol on its seeds and mutations.

``GAMEOPT_FUZZ_INPUTS`` sets the inputs per target (default 1000); the long run is
``python -m benchmarks.fuzz`` (see CONTRIBUTING.md). A failure prints each distinct
failure with its shortest input: save the input in ``benchmarks/fuzz/findings.py`` and
as a regression test beside the fix.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from benchmarks.fuzz import targets  # noqa: F401 - registers the targets
from benchmarks.fuzz.engine import TARGETS, Context, check_input, mutate, run_target
from benchmarks.fuzz.findings import FINDINGS

INPUTS = int(os.environ.get("GAMEOPT_FUZZ_INPUTS", "1000"))


@pytest.mark.parametrize("name", list(TARGETS))
def test_short_fuzz_pass(name: str, tmp_path: Path) -> None:
    stats = run_target(TARGETS[name], INPUTS, seed=0, tmp=tmp_path)
    assert stats.inputs == INPUTS
    report = [f"{f.key} x{f.count}: {f.what}\n    input {f.data[:200]!r}"
              for f in stats.failures.values()]
    assert not report, "\n".join(report)


@pytest.mark.parametrize("finding", FINDINGS, ids=lambda f: f"{f.target}:{f.what[:40]}")
def test_findings_stay_fixed(finding, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # memory measured for the memory findings only: under tracemalloc, loading numba's
    # kernels on a first input took a minute
    assert check_input(TARGETS[finding.target], finding.data,
                       Context(tmp_path, random.Random(0)),
                       trace_memory=finding.what.startswith("memory"), timed=False) is None


def test_the_harness_sees_a_traceback(tmp_path: Path) -> None:
    """The contract check is not vacuous: a parser that raises ValueError is a failure
    keyed by its line; a GameoptError of one line is not; a two-line one is."""
    from benchmarks.fuzz.engine import Target

    from gameopt.errors import InvalidInputError

    def parse(data: bytes, ctx: Context) -> None:
        if data.startswith(b"v"):
            int(data)
        if data.startswith(b"i"):
            raise InvalidInputError("bad input: one line")
        if data.startswith(b"m"):
            raise InvalidInputError("bad\ninput")

    t = Target("toy", parse, lambda: [b"ok"])
    ctx = Context(tmp_path, random.Random(0))
    assert check_input(t, b"ok", ctx) is None
    assert check_input(t, b"i", ctx) is None
    bad = check_input(t, b"v", ctx)
    assert bad is not None and bad[0].startswith("ValueError at ")
    bad = check_input(t, b"m", ctx)
    assert bad is not None and "message of 2 lines" in bad[1]


def test_mutations_are_seeded_and_varied() -> None:
    a = [mutate(b"1,2,3\n4,5,6\n", random.Random(s)) for s in range(200)]
    b = [mutate(b"1,2,3\n4,5,6\n", random.Random(s)) for s in range(200)]
    assert a == b and len(set(a)) > 150


def _toy(name: str, fn, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Register ``fn`` as a toy target with a 0.3 s hard limit, for this test only."""
    import benchmarks.fuzz.__main__ as runner
    import benchmarks.fuzz.engine as engine
    from benchmarks.fuzz.engine import Target

    monkeypatch.setattr(engine, "hard_limit", lambda seconds, timed=True: 0.3)
    monkeypatch.setattr(runner, "hard_limit", lambda seconds, timed=True: 0.3)
    monkeypatch.setitem(TARGETS, name, Target(name, fn, lambda: [b"ok"], seconds=0.1))
    return TARGETS[name]


def test_a_runaway_input_is_interrupted_and_reported(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The hang of the morning of 2026-11-24 (``--inputs 300 --seed 7 -j 2``): input 59
    of ``deck.mdp-cli`` was ``--time-limit 0.1e999``, inf, which ``deck mdp`` reads as
    no limit, so ``vds`` searched for ever; the per-input budget was checked only after
    an input returned. Now a CPU timer interrupts the input and it is a failure."""
    def spin(data: bytes, ctx: Context) -> None:
        if data == b"spin":
            while True:
                pass

    t = _toy("toy.spin", spin, monkeypatch)
    ctx = Context(tmp_path, random.Random(0))
    assert check_input(t, b"ok", ctx) is None
    bad = check_input(t, b"spin", ctx)
    assert bad is not None and bad[0] == "runaway"
    assert check_input(t, b"ok", ctx) is None  # the timer is off again


def test_the_mdp_cli_target_caps_an_infinite_time_limit(tmp_path: Path) -> None:
    from benchmarks.fuzz.targets import _clamp_time

    for words in (["--method", "vds", "--time-limit", "0.1e999"], ["--time-limit=inf"],
                  ["--ti", "1e6"], []):
        assert _clamp_time(words, 0.005)[-2:] == ["--time-limit", "0.005"], words
    for words in (["--time-limit", "nan"], ["--time-limit", "-1"], ["--time-limit", "x"],
                  ["--time-limit", "0.001"]):
        assert _clamp_time(words, 0.005) == words  # refused (or short): left as given
    assert check_input(TARGETS["deck.mdp-cli"], b"--method\nvds\n--time-limit\n0.1e999",
                       Context(tmp_path, random.Random(0))) is None


@pytest.mark.slow
def test_a_child_stuck_in_c_code_is_killed_and_the_run_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A loop in C (no Python signal handler runs) is killed from outside; the input is
    rebuilt from the seed for the report and a new process goes on from the next one."""
    import hashlib

    import benchmarks.fuzz.__main__ as runner
    from benchmarks.fuzz.engine import inputs_of

    def stuck(data: bytes, ctx: Context) -> None:
        if len(data) > 2 and data[2] % 5 == 0:
            hashlib.pbkdf2_hmac("sha256", b"x", b"y", 10**9)

    t = _toy("toy.stuck", stuck, monkeypatch)
    bad = [i for i, d in zip(range(30), (d for _, d in inputs_of(t, 0)), strict=False)
           if len(d) > 2 and d[2] % 5 == 0]
    assert bad
    (stats, _, _), = runner.run_jobs(["toy.stuck"], bad[0] + 3, 0, 1, 0, None, grace=0.5)
    assert stats.inputs == bad[0] + 3
    f = stats.failures["killed"]
    assert f"at input {bad[0]}" in f.what
    assert f.data == next(inputs_of(t, 0, bad[0]))[1]


def test_save_writes_each_failing_input_whole(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``--save DIR`` keeps the whole input of each failure (the run prints 200 bytes of
    it: three failures of the long run of 2026-11-24 could not be replayed)."""
    import benchmarks.fuzz.__main__ as runner

    def parse(data: bytes, ctx: Context) -> None:
        if len(data) > 40:
            raise ValueError("long")

    _toy("toy.save", parse, monkeypatch)
    monkeypatch.setattr(runner, "FINDINGS", [])
    assert runner.main(["--targets", "toy.save", "--inputs", "300", "--progress", "0",
                        "--save", str(tmp_path / "saved")]) == 1
    saved = sorted((tmp_path / "saved").glob("toy.save-*.bin"))
    assert len(saved) == 1
    data = saved[0].read_bytes()
    assert len(data) > 40
    with pytest.raises(ValueError):
        parse(data, Context(tmp_path, random.Random(0)))
    what = saved[0].with_suffix(".txt").read_text(encoding="utf-8").splitlines()
    assert what[0] == "toy.save" and what[1].startswith("ValueError at ")
