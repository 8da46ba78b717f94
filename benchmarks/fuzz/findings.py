"""Every distinct failure the fuzzing found, with its (shortest) input: the regression
corpus. ``tests/test_fuzz.py`` runs each through its target; the long run's table counts
them as found, and as fixed when they pass. Add a line when a fix lands (the fix's own
regression test goes beside the code it fixes)."""

from __future__ import annotations

from typing import NamedTuple


class Finding(NamedTuple):
    target: str
    data: bytes
    what: str


FINDINGS: list[Finding] = [
]
