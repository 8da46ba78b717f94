"""Fuzz every parser and protocol of gameopt and print a table.

    python -m benchmarks.fuzz                       # the long run: 100,000 inputs a target
    python -m benchmarks.fuzz --inputs 1000 -j 2    # the short pass CI runs (as a test)
    python -m benchmarks.fuzz --targets sudoku --show    # one system, failing inputs shown
    python -m benchmarks.fuzz --save fuzz-failures       # each failing input kept whole

Columns: *inputs* run; *found*: distinct failures (the regression corpus of
``findings.py`` plus new ones of this run); *fixed*: corpus entries that pass now;
*remaining*: corpus entries still failing plus new failures. The exit code is 1 when
anything remains. The process runs under a memory ceiling (``--memory``, address space,
default 4 GiB), so a parser that would allocate from an unchecked size fails with
``MemoryError`` instead of swapping; one input in 50 is also measured with tracemalloc
against the target's own ceiling.

One process per target (forked; ``-j`` of them at once, the slowest first): an input
that runs past its hard limit is interrupted by a CPU timer, and a process whose input
outlives the limit anyway (a loop in C code, a wait) is killed and replaced, the input
rebuilt from the seed and reported. ``--start S`` continues a stopped run from input S.

Adding a target (a web form, a JSON API body...) is one function in ``targets.py``; see
the ``web.*`` targets there (``_web_post`` checks the web contract: no 5xx, and a 4xx
leaves the files as they were).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import multiprocessing.connection as mp_connection
import os
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from benchmarks.fuzz import targets as _targets  # noqa: F401 - registers the targets
from benchmarks.fuzz.engine import (
    TARGETS,
    Context,
    Failure,
    RunStats,
    check_input,
    hard_limit,
    inputs_of,
    run_target,
    seed_count,
)
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


#: CPU milliseconds per input of the slow targets (measured on 2026-11-24): the run starts
#: them first, so that with ``-j`` the fast ones fill in at the end.
COST = {"web.desk-forms": 6.0, "web.pages": 6.0, "web.api-decks": 5.0,
        "reversi.nboard-engine": 4.5, "go.sgf": 3.3, "pairing.elo": 3.3, "deck.rules-cli": 2.7,
        "web.reversi-ws": 2.7, "deck.mdp-cli": 2.1, "pairing.players-csv": 1.7,
        "pairing.results-csv": 1.7, "pairing.sqlite": 1.7, "deck.scores-csv": 1.5,
        "reversi.ggf": 1.6, "pairing.trf": 1.6, "pairing.toml": 1.2, "sudoku.file": 1.2}

#: ``found`` of a result whose target was stopped early (its ``failing`` is then the
#: input to continue from, with ``--start``).
STOPPED = -1

#: A child whose current input has used this many CPU seconds past the input's hard
#: limit (:func:`benchmarks.fuzz.engine.hard_limit`) is killed: its timer could not stop
#: it (a loop in C code, a thread the signal does not reach).
KILL_GRACE = 20.0
#: ... or whose input has taken this many times that in wall-clock time (an input that
#: waits for ever uses no CPU; the machine may be shared, so the margin is wide).
WALL = 6.0


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system, all threads) of process ``pid`` so far (Linux
    ``/proc``); 0 when it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _child(conn: Connection, shared: Any, name: str, inputs: int, seed: int, memory: int,
           budget: float | None, start: int) -> None:
    """One target's run in its own process: ``shared`` holds the index of the input
    running, the process CPU when it began and the number of seeds; new failures and
    the final stats go through ``conn``."""
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    shared[2] = seed_count(TARGETS[name])

    def at(i: int) -> None:
        shared[1] = time.process_time()
        shared[3] = time.monotonic()
        shared[0] = i

    with tempfile.TemporaryDirectory(prefix=f"fuzz-{name}-") as tmp:
        stats = run_target(TARGETS[name], inputs, seed, Path(tmp), budget=budget,
                           start=start, at=at, found=lambda st: conn.send(("found", st)))
        shared[0] = -1  # past the inputs: the replay below is not timed per input
        found, failing = replay_findings(name, Path(tmp))
    conn.send(("done", (stats, found, failing)))
    conn.close()


@dataclass
class _Job:
    name: str
    start: int = 0
    stats: RunStats | None = None  # what the finished (or killed) earlier children found
    proc: Any = None
    conn: Connection | None = None
    shared: Any = None
    latest: RunStats | None = None  # the running child's stats as last sent
    cpu_at_kill: float = 0.0


def _merge(a: RunStats | None, b: RunStats) -> RunStats:
    if a is None:
        return b
    out = RunStats(a.target, a.inputs + b.inputs, a.refused + b.refused,
                   a.cpu_seconds + b.cpu_seconds, a.wall_seconds + b.wall_seconds,
                   dict(a.failures))
    for key, f in b.failures.items():
        old = out.failures.get(key)
        if old is None:
            out.failures[key] = f
        else:
            old.count += f.count
            if len(f.data) < len(old.data):
                old.data, old.what = f.data, f.what
    return out


def run_jobs(names: list[str], inputs: int, seed: int, jobs: int, memory: int,
             budget: float | None, report: Callable[[tuple[RunStats, int, int]], None]
             | None = None, grace: float = KILL_GRACE, progress_every: float = 0.0,
             start: int = 0) -> list[tuple[RunStats, int, int]]:
    """Run the targets ``names``, ``jobs`` processes at a time (one target per process,
    forked, so all run at once up to ``jobs`` whatever each costs). A child whose input
    outlives its hard limit by ``grace`` CPU seconds is killed; its input is rebuilt from
    the seed and recorded as a failure, and a new child goes on from the next input.
    Every ``progress_every`` seconds (0: never) the input each running target is on goes
    to stderr (how far a run stopped early got)."""
    ctx = multiprocessing.get_context("fork")
    queue = [_Job(n, start) for n in names]
    running: list[_Job] = []
    results: list[tuple[RunStats, int, int]] = []

    def launch(job: _Job) -> None:
        parent, child = ctx.Pipe(duplex=False)
        # input, its CPU start, seeds, its wall-clock start
        job.shared = ctx.RawArray("d", [-1.0, 0.0, 1.0, time.monotonic()])
        job.proc = ctx.Process(target=_child, args=(child, job.shared, job.name, inputs,
                                                    seed, memory, budget, job.start),
                               name=f"fuzz-{job.name}", daemon=True)
        job.proc.start()
        child.close()
        job.conn, job.latest = parent, None
        running.append(job)

    def finish(job: _Job, result: tuple[RunStats, int, int]) -> None:
        stats, found, failing = result
        result = (_merge(job.stats, stats), found, failing)
        running.remove(job)
        results.append(result)
        if report is not None:
            report(result)

    shown = time.monotonic()
    try:
        while queue or running:
            while queue and len(running) < jobs:
                launch(queue.pop(0))
            if progress_every and time.monotonic() - shown > progress_every:
                shown = time.monotonic()
                print("progress: " + ", ".join(f"{j.name} {max(0, int(j.shared[0]))}"
                                               for j in running), file=sys.stderr, flush=True)
            ready = mp_connection.wait([j.conn for j in running if j.conn is not None], 1.0)
            for job in list(running):
                assert job.conn is not None
                if job.conn in ready:
                    try:
                        kind, payload = job.conn.recv()
                    except EOFError:  # died without a word (a crash, the memory ceiling...)
                        kind, payload = "died", None
                    if kind == "found":
                        job.latest = payload
                        continue
                    if kind == "done":
                        job.proc.join()
                        finish(job, payload)
                        continue
                else:
                    kind = ""
                index = int(job.shared[0])
                tgt = TARGETS[job.name]
                cpu = _cpu_of(job.proc.pid)
                hard = hard_limit(tgt.seconds, index >= job.shared[2]) + grace
                over = index >= 0 and (cpu - job.shared[1] > hard  # CPU: a loop in C
                                       or time.monotonic() - job.shared[3] > WALL * hard)  # waits
                if not over and kind != "died" and (job.proc.is_alive() or job.conn.poll()):
                    continue  # running, or its last message not read yet
                job.proc.kill()
                job.proc.join()
                data = next(inputs_of(tgt, seed, index))[1] if index >= 0 else b""
                done_here = max(0, index - job.start + 1)
                lost = RunStats(job.name, inputs=done_here, cpu_seconds=cpu)
                if job.latest is not None:
                    lost = _merge(job.latest, RunStats(job.name, inputs=done_here
                                                       - job.latest.inputs))
                    lost.cpu_seconds = cpu
                why = (f"killed: its input ran past the hard limit + {grace:.0f} CPU s (or "
                       f"{WALL:g} times that in wall time)" if over
                       else f"process died (exit {job.proc.exitcode})")
                lost.add("killed" if over else "died", f"{why} at input {index}", data)
                job.stats = _merge(job.stats, lost)
                running.remove(job)
                if index < 0 or index + 1 >= inputs:
                    results.append((job.stats, 0, 0))
                    if report is not None:
                        report(results[-1])
                else:
                    job.start = index + 1
                    launch(job)
    except KeyboardInterrupt:  # stopped early (Ctrl-C, or SIGTERM: see main)
        for job in running:
            index = int(job.shared[0])
            cpu = _cpu_of(job.proc.pid)
            job.proc.kill()
            job.proc.join()
            done_here = max(0, index - job.start)  # the inputs before the one running
            part = RunStats(job.name, inputs=done_here, cpu_seconds=cpu)
            if job.latest is not None:
                part = _merge(job.latest, RunStats(job.name, inputs=done_here
                                                   - job.latest.inputs))
                part.cpu_seconds = cpu
            results.append((_merge(job.stats, part), STOPPED, job.start + done_here))
    results.sort(key=lambda r: names.index(r[0].target))
    return results


def save_failure(folder: Path, target: str, failure: Failure) -> Path:
    """Write ``failure``'s whole input to ``folder`` as ``TARGET-DIGEST.bin`` (the digest
    of the bytes: the same input is saved once) and its description beside it as
    ``.txt``; return the ``.bin`` path."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{target}-{hashlib.sha256(failure.data).hexdigest()[:12]}"
    (folder / f"{stem}.txt").write_text(f"{target}\n{failure.key}\n{failure.what}\n",
                                        encoding="utf-8")
    path = folder / f"{stem}.bin"
    path.write_bytes(failure.data)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzz",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000,
                    help="inputs per target (with --start S: inputs S to N-1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--targets", default="",
                    help="only targets whose name contains this (or one of these, comma-separated)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes (one target each)")
    ap.add_argument("--memory", type=float, default=4.0,
                    help="address-space ceiling per process, GiB (0: none)")
    ap.add_argument("--budget", type=float, default=None,
                    help="CPU seconds per target: stop early (the table shows the inputs run)")
    ap.add_argument("--start", type=int, default=0,
                    help="begin at this input of each target's stream (to continue a run "
                         "stopped early: its progress lines say where each target was)")
    ap.add_argument("--show", action="store_true", help="print each failure and its input")
    ap.add_argument("--save", type=Path, default=None, metavar="DIR",
                    help="write each failure's whole (shortest) input to DIR as "
                         "TARGET-DIGEST.bin, with its description in TARGET-DIGEST.txt")
    ap.add_argument("--progress", type=float, default=60.0,
                    help="print each running target's input number every S seconds (0: no)")
    args = ap.parse_args(argv)
    names = [n for n in TARGETS if any(t in n for t in args.targets.split(","))]
    if not names:
        ap.error(f"no target matches {args.targets!r}; targets: {', '.join(TARGETS)}")
    w0, c0 = time.perf_counter(), os.times()

    def report(done: tuple[RunStats, int, int]) -> None:
        stats, found, failing = done
        print(f"done {stats.target}: {stats.inputs:,} inputs, {len(stats.failures)} new "
              f"failures, {found - failing}/{found} corpus fixed, "
              f"{stats.cpu_seconds:.0f} CPU s, {stats.inputs / max(stats.cpu_seconds, 1e-9):.0f}"
              f" inputs/CPU s", file=sys.stderr, flush=True)
        for f in stats.failures.values():  # now, so a run stopped early keeps them
            print(f"  {f.key}: {f.what} input {f.data[:200]!r}", file=sys.stderr,
                  flush=True)
            if args.save is not None:
                print(f"  saved {save_failure(args.save, stats.target, f)}", file=sys.stderr,
                      flush=True)

    order = sorted(names, key=lambda n: -COST.get(n, 1.0))  # the slowest start first
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill PID: a table too
    results = run_jobs(order, args.inputs, args.seed, args.jobs, int(args.memory * 2**30),
                       args.budget, report, progress_every=args.progress, start=args.start)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    results.sort(key=lambda r: names.index(r[0].target))
    c1 = os.times()
    cpu = (c1.user + c1.system + c1.children_user + c1.children_system
           - c0.user - c0.system - c0.children_user - c0.children_system)
    head = ["target", "inputs", "found", "fixed", "remaining", "refused %", "CPU s"]
    rows, remaining, stopped = [], 0, []
    for stats, found, failing in results:
        new = len(stats.failures)
        early = found == STOPPED
        if early:  # stopped early: the corpus was not replayed
            stopped.append(f"--targets {stats.target} --start {failing}")
            found = failing = 0
        rem = new + failing
        remaining += rem
        rows.append([stats.target, f"{stats.inputs:,}{' *' if early else ''}",
                     str(found + new), str(found - failing), str(rem),
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
    not_run = [n for n in names if n not in {r[0].target for r in results}]
    if stopped or not_run:
        print("stopped early; to continue: " + "; ".join(stopped)
              + (f"; --targets {','.join(not_run)}" if not_run else ""))
    for stats, _, _ in results:
        for f in stats.failures.values():
            print(f"FAIL {stats.target}: {f.key} x{f.count}: {f.what}", file=sys.stderr)
            if args.show:
                print(f"     input {f.data[:300]!r}{' ...' if len(f.data) > 300 else ''}",
                      file=sys.stderr)
    return 1 if remaining else 0


if __name__ == "__main__":
    sys.exit(main())
