"""Fuzz every parser and protocol of gameopt and print a table.

    python -m benchmarks.fuzz                       # the long run: 100,000 inputs a target
    python -m benchmarks.fuzz --inputs 1000 -j 2    # the short pass CI runs (as a test)
    python -m benchmarks.fuzz --targets sudoku --show    # one system, failing inputs shown

Columns: *inputs* run; *found*: distinct failures (the regression corpus of
``findings.py`` plus new ones of this run); *fixed*: corpus entries that pass now;
*remaining*: corpus entries still failing plus new failures. The exit code is 1 when
anything remains. The process runs under a memory ceiling (``--memory``, address space,
default 4 GiB), so a parser that would allocate from an unchecked size fails with
``MemoryError`` instead of swapping; one input in 50 is also measured with tracemalloc
against the target's own ceiling.

Adding a target (a web form, a JSON API body...) is one function in ``targets.py``::

    @target("web.pairing-form", seeds=lambda: [b"name=Ann&rating=1500"], seconds=1.0)
    def web_pairing_form(data: bytes, ctx: Context) -> None:
        response = _client().post("/events/x/players", content=data,
                                  headers={"content-type": "application/x-www-form-urlencoded"})
        if response.status_code >= 500 or "Traceback" in response.text:
            raise ContractError(f"server error: {response.status_code}")
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.fuzz import targets as _targets  # noqa: F401 - registers the targets
from benchmarks.fuzz.engine import TARGETS, Context, RunStats, check_input, run_target
from benchmarks.fuzz.findings import FINDINGS


def replay_findings(name: str, tmp: Path) -> tuple[int, int]:
    """(found, still failing) of the regression corpus of target ``name``."""
    import random

    tgt = TARGETS[name]
    found = failing = 0
    for f in FINDINGS:
        if f.target == name:
            found += 1
            if check_input(tgt, f.data, Context(tmp, random.Random(0)), trace_memory=True,
                           timed=False) is not None:
                failing += 1
    return found, failing


def _job(args: tuple[str, int, int, int, float | None]) -> tuple[RunStats, int, int]:
    name, inputs, seed, memory, budget = args
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{name}-") as tmp:
        stats = run_target(TARGETS[name], inputs, seed, Path(tmp), budget=budget)
        found, failing = replay_findings(name, Path(tmp))
    return stats, found, failing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzz",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000, help="inputs per target")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--targets", default="", help="only targets whose name contains this")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes (one target each)")
    ap.add_argument("--memory", type=float, default=4.0,
                    help="address-space ceiling per process, GiB (0: none)")
    ap.add_argument("--budget", type=float, default=None,
                    help="CPU seconds per target: stop early (the table shows the inputs run)")
    ap.add_argument("--show", action="store_true", help="print each failure and its input")
    args = ap.parse_args(argv)
    names = [n for n in TARGETS if args.targets in n]
    if not names:
        ap.error(f"no target matches {args.targets!r}; targets: {', '.join(TARGETS)}")
    jobs = [(n, args.inputs, args.seed, int(args.memory * 2**30), args.budget) for n in names]
    w0, c0 = time.perf_counter(), os.times()
    results = []
    with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
        for done in pool.imap_unordered(_job, jobs, chunksize=1):
            results.append(done)
            stats, found, failing = done
            print(f"done {stats.target}: {stats.inputs:,} inputs, {len(stats.failures)} new "
                  f"failures, {found - failing}/{found} corpus fixed, "
                  f"{stats.cpu_seconds:.0f} CPU s", file=sys.stderr, flush=True)
            for f in stats.failures.values():  # now, so a run stopped early keeps them
                print(f"  {f.key}: {f.what} input {f.data[:200]!r}", file=sys.stderr,
                      flush=True)
    results.sort(key=lambda r: names.index(r[0].target))
    c1 = os.times()
    cpu = (c1.user + c1.system + c1.children_user + c1.children_system
           - c0.user - c0.system - c0.children_user - c0.children_system)
    head = ["target", "inputs", "found", "fixed", "remaining", "refused %", "CPU s"]
    rows, remaining = [], 0
    for stats, found, failing in results:
        new = len(stats.failures)
        rem = new + failing
        remaining += rem
        rows.append([stats.target, f"{stats.inputs:,}", str(found + new),
                     str(found - failing), str(rem),
                     f"{100 * stats.refused / max(1, stats.inputs):.0f}",
                     f"{stats.cpu_seconds:.1f}"])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    print(f"{len(rows)} targets, {sum(s.inputs for s, _, _ in results):,} inputs, "
          f"{remaining} remaining; wall {time.perf_counter() - w0:.0f} s, CPU {cpu:.0f} s "
          f"(seed {args.seed}, {args.jobs} jobs)")
    for stats, _, _ in results:
        for f in stats.failures.values():
            print(f"FAIL {stats.target}: {f.key} x{f.count}: {f.what}", file=sys.stderr)
            if args.show:
                print(f"     input {f.data[:300]!r}{' ...' if len(f.data) > 300 else ''}",
                      file=sys.stderr)
    return 1 if remaining else 0


if __name__ == "__main__":
    sys.exit(main())
