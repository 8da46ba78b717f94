"""parallel_map: inline, local processes, and a real Dask scheduler + worker on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gameopt.core import Progress, parallel_map
from gameopt.errors import InvalidInputError, SolverError
from tests.core import parallel_jobs as jobs

# The directory that holds the ``tests`` package: the Dask worker imports
# ``tests.core.parallel_jobs`` from there to unpickle the jobs' functions.
ROOT = Path(__file__).resolve().parents[2]


class Recorder:
    """A progress callback that keeps every report."""

    def __init__(self) -> None:
        self.reports: list[Progress] = []

    def __call__(self, progress: Progress, /) -> None:
        self.reports.append(progress)


def check_reports(reports: list[Progress], total: int) -> None:
    assert [p.done for p in reports] == list(range(total + 1))
    assert all(p.total == total and p.task == "parallel_map" for p in reports)
    assert sorted(p.info["job"] for p in reports[1:]) == list(range(total))


# --- inline -------------------------------------------------------------------------------

def test_inline_runs_in_this_process_in_order() -> None:
    rec = Recorder()
    assert parallel_map(jobs.square, range(6), workers=1, progress=rec) == [0, 1, 4, 9, 16, 25]
    assert parallel_map(jobs.pid_of, range(3), workers=1) == [os.getpid()] * 3
    check_reports(rec.reports, 6)
    assert [p.info.get("job") for p in rec.reports] == [None, 0, 1, 2, 3, 4, 5]


def test_inline_accepts_lambdas_and_generators() -> None:
    assert parallel_map(lambda s: s.upper(), (c for c in "ab"), workers=1) == ["A", "B"]


def test_empty_jobs() -> None:
    rec = Recorder()
    assert parallel_map(jobs.square, [], progress=rec) == []
    assert [p.done for p in rec.reports] == [0]


def test_single_job_runs_inline() -> None:
    assert parallel_map(jobs.pid_of, [None]) == [os.getpid()]


def test_job_exception_names_the_index_and_chains_inline() -> None:
    with pytest.raises(SolverError, match=r"job index 3 of 5 failed: ValueError: bad job value 3"
                       ) as info:
        parallel_map(jobs.fail_on_three, range(5), workers=1)
    assert isinstance(info.value.__cause__, ValueError)


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_bad_workers(workers: object) -> None:
    with pytest.raises(InvalidInputError, match=r"workers must be a positive integer, got"):
        parallel_map(jobs.square, [1], workers=workers)  # type: ignore[arg-type]


# --- local processes ----------------------------------------------------------------------

def test_processes_keep_job_order_and_report_progress() -> None:
    # The first job sleeps longest, so jobs finish out of order; results must not.
    work = [(0.6, 0), (0.0, 1), (0.0, 2), (0.2, 3)]
    rec = Recorder()
    assert parallel_map(jobs.sleep_then_echo, work, workers=2, progress=rec) == [0, 1, 2, 3]
    check_reports(rec.reports, 4)
    assert rec.reports[-1].info["job"] == 0  # the slow job finished last


def test_results_are_handed_over_as_jobs_finish() -> None:
    # on_result sees each (index, result) once, in finishing order, before that job's
    # progress report: the slow first job comes last.
    work = [(0.6, 10), (0.0, 11), (0.0, 12), (0.2, 13)]
    seen: list[tuple[int, int]] = []
    order: list[object] = []

    def keep(i: int, r: int) -> None:
        seen.append((i, r))
        order.append(("result", i))

    def report(p: Progress) -> None:
        order.append(("progress", p.info.get("job")))

    assert parallel_map(jobs.sleep_then_echo, work, workers=2, on_result=keep,
                        progress=report) == [10, 11, 12, 13]
    assert sorted(seen) == [(0, 10), (1, 11), (2, 12), (3, 13)]
    assert seen[-1] == (0, 10)
    assert order[1::2] == [("result", i) for i, _ in seen]
    assert order[2::2] == [("progress", i) for i, _ in seen]
    inline: list[tuple[int, int]] = []
    assert parallel_map(jobs.square, range(4), workers=1,
                        on_result=lambda i, r: inline.append((i, r))) == [0, 1, 4, 9]
    assert inline == [(0, 0), (1, 1), (2, 4), (3, 9)]


@pytest.mark.parametrize("workers", [1, 2])
def test_an_on_result_error_stops_the_map(workers: int) -> None:
    seen: list[int] = []

    def keep(i: int, r: int) -> None:
        seen.append(i)
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        parallel_map(jobs.square, range(5), workers=workers, on_result=keep)
    assert len(seen) == 1


def test_processes_run_outside_this_process() -> None:
    pids = parallel_map(jobs.pid_of, range(4), workers=2)
    assert os.getpid() not in pids
    assert 1 <= len(set(pids)) <= 2


def test_processes_job_exception() -> None:
    with pytest.raises(SolverError, match=r"job index 3 of 6 failed in a local worker process: "
                       r"ValueError: bad job value 3") as info:
        parallel_map(jobs.fail_on_three, range(6), workers=2)
    assert isinstance(info.value.__cause__, ValueError)


# --- scheduler address --------------------------------------------------------------------

@pytest.mark.parametrize("address", ["127.0.0.1:8786", "tcp://127.0.0.1", "tcp://:8786",
                                     "tcp://host:0", "tcp://host:99999", "inproc://x",
                                     "tcp://host:87a6", ""])
def test_malformed_scheduler_address(address: str) -> None:
    with pytest.raises(InvalidInputError, match=r"scheduler address .* is not of the form "
                       r"tcp://HOST:PORT"):
        parallel_map(jobs.square, [1], scheduler=address)


def test_workers_with_scheduler_is_refused() -> None:
    with pytest.raises(InvalidInputError, match=r"workers=2 has no meaning with scheduler="):
        parallel_map(jobs.square, [1], scheduler="tcp://127.0.0.1:8786", workers=2)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_scheduler() -> None:
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    start = time.monotonic()
    with pytest.raises(SolverError, match=rf"cannot reach the Dask scheduler at {address} "
                       r"within 1 s"):
        parallel_map(jobs.square, [1], scheduler=address, connect_timeout=1.0)
    assert time.monotonic() - start < 15


# --- a real Dask cluster ------------------------------------------------------------------

def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    # A new session, so teardown can stop the process and the children it starts (the
    # worker's nanny starts the worker) by this process group id.
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", *args], stdout=out,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Dask scheduler and one single-threaded worker on 127.0.0.1, stopped at teardown."""
    distributed = pytest.importorskip("distributed")
    logs = tmp_path_factory.mktemp("dask")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = dict(os.environ)
    # The worker unpickles the jobs' function by module name: let it import the tests.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    procs = []
    try:
        procs.append(_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                             "--port", str(port), "--no-dashboard"], env,
                            logs / "scheduler.log"))
        procs.append(_start(["distributed.cli.dask_worker", address, "--nthreads", "1",
                             "--nworkers", "1", "--no-dashboard"], env, logs / "worker.log"))
        # Wait until the scheduler answers and the worker has registered.
        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)
        yield address
    except Exception as exc:  # pragma: no cover - diagnostics for a cluster that won't start
        text = "\n".join(p.read_text(errors="replace")[-2000:] for p in logs.glob("*.log"))
        raise RuntimeError(f"Dask test cluster did not start: {exc}\n{text}") from exc
    finally:
        for proc in reversed(procs):
            _stop(proc)


def test_dask_runs_jobs_on_the_worker(dask_cluster: str) -> None:
    import distributed

    rec = Recorder()
    pids = parallel_map(jobs.pid_of, range(4), scheduler=dask_cluster, progress=rec)
    with distributed.Client(dask_cluster, timeout=30, set_as_default=False) as client:
        worker_pids = set(client.run(os.getpid).values())
    assert len(worker_pids) == 1
    assert set(pids) == worker_pids
    assert os.getpid() not in pids
    check_reports(rec.reports, 4)


def test_dask_keeps_job_order(dask_cluster: str) -> None:
    seen: list[tuple[int, int]] = []
    assert parallel_map(jobs.square, range(10), scheduler=dask_cluster,
                        on_result=lambda i, r: seen.append((i, r))) == [
        x * x for x in range(10)]
    assert sorted(seen) == [(x, x * x) for x in range(10)]
    work = [(0.3, 0), (0.0, 1), (0.1, 2)]
    assert parallel_map(jobs.sleep_then_echo, work, scheduler=dask_cluster) == [0, 1, 2]


def test_dask_job_exception(dask_cluster: str) -> None:
    with pytest.raises(SolverError, match=r"job index 3 of 5 failed on the Dask cluster at "
                       r"tcp://127\.0\.0\.1:\d+: ValueError: bad job value 3") as info:
        parallel_map(jobs.fail_on_three, range(5), scheduler=dask_cluster)
    assert isinstance(info.value.__cause__, ValueError)
