"""Run independent jobs in parallel: inline, on local processes, or on a Dask cluster.

:func:`parallel_map` is the one entry point. Restarts of a metaheuristic, games of a
match, puzzles of a benchmark set: each job is ``fn(job)`` with no shared state, and the
results come back in job order whatever order they finish in.

The function and the jobs must pickle (module-level functions, plain data), since they
travel to other processes. Seeds belong in the jobs (see :func:`gameopt.core.spawn_seeds`),
so job ``i`` computes the same thing whichever worker runs it.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from gameopt.core.progress import Progress, ProgressCallback
from gameopt.errors import InvalidInputError, SolverError

__all__ = ["parallel_map", "default_workers"]

J = TypeVar("J")
R = TypeVar("R")

_TASK = "parallel_map"
# tcp://host:port, host a DNS name, a dotted IPv4 address or a bracketed IPv6 address.
_ADDRESS = re.compile(r"^tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
                      r":(?P<port>[0-9]{1,5})$")


def default_workers() -> int:
    """Number of CPUs this process may use (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


def parallel_map(fn: Callable[[J], R], jobs: Iterable[J], *, scheduler: str | None = None,
                 workers: int | None = None, progress: ProgressCallback | None = None,
                 on_result: Callable[[int, R], None] | None = None,
                 connect_timeout: float = 10.0) -> list[R]:
    """Return ``[fn(job) for job in jobs]``, computed in parallel, in job order.

    Parameters
    ----------
    fn : callable
        Called once per job. It must pickle by reference (a module-level function) unless
        it runs inline.
    jobs : iterable
        The jobs; each must pickle unless run inline.
    scheduler : str or None
        ``None``: local processes. ``"tcp://HOST:PORT"``: the Dask distributed scheduler at
        that address; its workers run the jobs (they must be able to import ``fn``'s module).
    workers : int or None
        Local processes to use (default: the CPUs this process may use, at most one per
        job). When this comes to 1 the jobs run inline, one after the other in this
        process, with no pool: the deterministic path for tests and debugging. Must be
        ``None`` with a ``scheduler``, whose cluster decides.
    progress : ProgressCallback or None
        Called with ``Progress(task="parallel_map", done, total, info={"job": i})`` each time
        job ``i`` finishes (in finishing order), after one first report with ``done=0``.
    on_result : callable or None
        Called in this process as ``on_result(i, result)`` each time job ``i`` finishes, in
        finishing order, before its progress report: a caller that keeps results as they
        come (a match writing each game) loses none of the finished ones when the map is
        stopped. An exception it raises stops the map as a failing job does, unwrapped.
    connect_timeout : float
        Seconds to wait for the Dask scheduler to answer.

    Returns
    -------
    list
        ``fn(job)`` for each job, in the order of ``jobs``.

    Raises
    ------
    InvalidInputError
        If ``workers`` is not a positive integer, is given with a ``scheduler``, or if the
        scheduler address is not of the form ``tcp://HOST:PORT``.
    SolverError
        If the scheduler cannot be reached within ``connect_timeout``, or if a job raised:
        the message names the job index and the original exception, which is chained as
        ``__cause__``. Job exceptions are always wrapped, whatever their type, so callers
        catch one thing; the first failure seen stops the map and cancels the jobs not yet
        started (local jobs already running are let finish).

    Notes
    -----
    Local processes use the ``spawn`` start method on every platform: a fresh interpreter
    per worker, safe with the threads that numba, OR-Tools and Dask start (``fork`` after
    threads can deadlock). The price is a start-up of the order of a second per worker, and
    a script that calls this at top level needs an ``if __name__ == "__main__":`` guard.
    """
    items = list(jobs)
    if scheduler is not None:
        if workers is not None:
            raise InvalidInputError(
                f"parallel_map: workers={workers!r} has no meaning with scheduler={scheduler!r} "
                "(the cluster's workers run the jobs)")
        address = _check_address(scheduler)
        return _map_dask(fn, items, address, progress, on_result, connect_timeout)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise InvalidInputError(
            f"parallel_map: workers must be a positive integer, got {workers!r}")
    count = min(workers if workers is not None else default_workers(), max(1, len(items)))
    if count == 1:
        return _map_inline(fn, items, progress, on_result)
    return _map_processes(fn, items, count, progress, on_result)


def _check_address(scheduler: str) -> str:
    match = _ADDRESS.match(scheduler) if isinstance(scheduler, str) else None
    if match is None or not 1 <= int(match["port"]) <= 65535:
        raise InvalidInputError(
            f"parallel_map: scheduler address {scheduler!r} is not of the form tcp://HOST:PORT")
    return scheduler


def _report(progress: ProgressCallback | None, done: int, total: int, job: int | None) -> None:
    if progress is not None:
        info: dict[str, object] = {} if job is None else {"job": job}
        progress(Progress(task=_TASK, done=done, total=total, info=info))


def _job_failed(index: int, total: int, exc: BaseException, where: str) -> SolverError:
    return SolverError(f"parallel_map: job index {index} of {total} failed{where}: "
                       f"{type(exc).__name__}: {exc}")


def _map_inline(fn: Callable[[J], R], items: Sequence[J], progress: ProgressCallback | None,
                on_result: Callable[[int, R], None] | None) -> list[R]:
    total = len(items)
    _report(progress, 0, total, None)
    results: list[R] = []
    for i, job in enumerate(items):
        try:
            results.append(fn(job))
        except Exception as exc:
            raise _job_failed(i, total, exc, "") from exc
        if on_result is not None:
            on_result(i, results[-1])
        _report(progress, i + 1, total, i)
    return results


def _map_processes(fn: Callable[[J], R], items: Sequence[J], count: int,
                   progress: ProgressCallback | None,
                   on_result: Callable[[int, R], None] | None) -> list[R]:
    total = len(items)
    _report(progress, 0, total, None)
    results: list[Any] = [None] * total
    context = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=count, mp_context=context)
    try:
        index = {pool.submit(fn, job): i for i, job in enumerate(items)}
        for done, future in enumerate(cf.as_completed(index), start=1):
            i = index[future]
            exc = future.exception()
            if exc is not None:
                raise _job_failed(i, total, exc, " in a local worker process") from exc
            results[i] = future.result()
            if on_result is not None:
                on_result(i, results[i])
            _report(progress, done, total, i)
    finally:
        # On success every future is done; on failure drop what has not started.
        pool.shutdown(wait=True, cancel_futures=True)
    return results


def _map_dask(fn: Callable[[J], R], items: Sequence[J], address: str,
              progress: ProgressCallback | None, on_result: Callable[[int, R], None] | None,
              connect_timeout: float) -> list[R]:
    import distributed  # heavy import (tornado, dask): only when a cluster is asked for

    try:
        client = distributed.Client(address, timeout=connect_timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise SolverError(f"parallel_map: cannot reach the Dask scheduler at {address} "
                          f"within {connect_timeout:g} s ({type(exc).__name__})") from exc
    try:
        total = len(items)
        _report(progress, 0, total, None)
        if not items:
            return []
        futures = client.map(fn, items, pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        finished = distributed.as_completed(futures, loop=client.loop)
        for done, future in enumerate(finished, start=1):
            i = index[future.key]
            if future.status != "finished":  # "error" (or "cancelled" by someone else)
                error = future.exception()
                client.cancel(futures)
                raise _job_failed(i, total, error, f" on the Dask cluster at {address}") from error
            if on_result is not None:
                on_result(i, future.result())
            _report(progress, done, total, i)
        return list(client.gather(futures))
    finally:
        client.close()
