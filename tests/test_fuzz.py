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
    assert check_input(TARGETS[finding.target], finding.data,
                       Context(tmp_path, random.Random(0)), trace_memory=True,
                       timed=False) is None


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
