"""A pool of warm worker processes for deck requests, with a bounded queue.

Each worker is a ``spawn``-ed process (safe beside the server's threads) that attaches to
the server's :class:`~gameopt.deck.DeckCatalogue` in shared memory (one copy of the score
matrix for all), runs one small request per method it is asked to warm (so the numba
kernels are loaded before the pool says it is ready), then serves requests one at a time
over its pipe.

Admission: a request that finds every worker busy waits in a queue of at most ``queue``
requests; one more is refused at once with :class:`PoolFull` (the API answers 503 with a
``Retry-After``) rather than letting latency grow. A request cancelled while it waits (its
client went away) leaves the queue and never reaches a worker. A request cancelled while
it runs raises its worker's stop flag, which the search polls (between restarts, and
inside the kernels): the worker returns its best deck so far, skips the explanation, and
is free again within one check of the flag; a running explanation is let finish.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures as cf
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from gameopt.errors import InvalidInputError, SolverError

__all__ = ["DeckWorkers", "PoolFull"]


class PoolFull(Exception):
    """Every worker is busy and the queue is full; ``retry_after`` is a hint in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"busy: every worker is taken and the queue is full; retry in "
                         f"{retry_after} s")
        self.retry_after = retry_after


def _worker_main(conn: Connection, handle: Any, flags: Any, index: int,
                 warm: Sequence[str]) -> None:
    """The loop of one worker process (module level: a spawned process imports it)."""
    from gameopt.core.stop import StopFlag
    from gameopt.web.api_deck import DeckCatalogue, Rules, serve_request

    catalogue = DeckCatalogue.attach(handle)
    flag = StopFlag()
    flag.array = np.frombuffer(flags, dtype=np.uint8)[index:index + 1]
    scored = [pid for pid in catalogue.pool.ids][:64]
    for method in warm:  # kernels loaded (or compiled) before the pool reports ready
        catalogue.recommend(scored, Rules(size=8, cost_cap=10**6), method, explain=True)
    conn.send(("ready", os.getpid()))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            break
        if request is None:
            break
        try:
            answer = serve_request(catalogue, request, stop=flag)
        except Exception as exc:  # noqa: BLE001 - a bug must not take the worker down
            answer = {"error": "SolverError", "message": f"{type(exc).__name__}: {exc}"}
        conn.send(answer)
    catalogue.close()


@dataclass
class _Worker:
    index: int
    process: Any
    conn: Connection
    pid: int = 0


@dataclass
class _Stats:
    done: int = 0
    cancelled_waiting: int = 0
    stopped_running: int = 0
    refused: int = 0
    restarted: int = 0
    last_stopped: str | None = None  # why the last search stopped for a gone client
    seconds: collections.deque[float] = field(
        default_factory=lambda: collections.deque(maxlen=64))


_Waiter = tuple[asyncio.AbstractEventLoop, "asyncio.Future[_Worker]"]


class DeckWorkers:
    """Warm worker processes over a shared catalogue, with a bounded admission queue.

    Parameters
    ----------
    handle : CatalogueHandle
        From :meth:`gameopt.deck.DeckCatalogue.share`.
    workers : int
        Processes (default 2).
    queue : int
        Requests that may wait for a worker; one more gets :class:`PoolFull`.
    warm : sequence of str
        Methods each worker runs once before it is ready.
    start_timeout : float
        Seconds to wait for every worker to be ready.
    """

    def __init__(self, handle: Any, *, workers: int = 2, queue: int = 8,
                 warm: Sequence[str] = ("vds",), start_timeout: float = 300.0) -> None:
        if not 1 <= workers <= 64:
            raise InvalidInputError(f"workers: {workers} outside 1..64")
        if not 0 <= queue <= 10_000:
            raise InvalidInputError(f"queue: {queue} outside 0..10000")
        self.handle, self.size, self.queue = handle, workers, queue
        self.warm, self.start_timeout = tuple(warm), start_timeout
        self._ctx = multiprocessing.get_context("spawn")
        self._flags = self._ctx.RawArray("B", workers)
        self._flag_view = np.frombuffer(self._flags, dtype=np.uint8)
        self._lock = threading.Lock()
        self._free: collections.deque[_Worker] = collections.deque()
        self._waiters: collections.deque[_Waiter] = collections.deque()
        self._workers: list[_Worker] = []
        self._threads = cf.ThreadPoolExecutor(max_workers=workers,
                                              thread_name_prefix="deck-worker-pipe")
        self.stats = _Stats()
        self.ready = False
        self._closed = False

    # ------------------------------------------------------------------ life cycle

    def _spawn(self, index: int) -> _Worker:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker_main, name=f"gameopt-deck-worker-{index}",
                                 args=(child, self.handle, self._flags, index, self.warm),
                                 daemon=True)
        proc.start()
        child.close()
        return _Worker(index, proc, parent)

    def _await_ready(self, w: _Worker, deadline: float) -> None:
        if not w.conn.poll(max(0.0, deadline - time.monotonic())):
            raise SolverError(f"deck worker {w.index} not ready within "
                              f"{self.start_timeout:g} s")
        try:
            tag, pid = w.conn.recv()
        except (EOFError, OSError):
            raise SolverError(f"deck worker {w.index} died while starting (exit code "
                              f"{w.process.exitcode})") from None
        w.pid = pid

    def start(self) -> DeckWorkers:
        """Start every worker and wait until each has warmed its kernels."""
        deadline = time.monotonic() + self.start_timeout
        self._workers = [self._spawn(i) for i in range(self.size)]
        try:
            for w in self._workers:
                self._await_ready(w, deadline)
        except BaseException:
            self.close()
            raise
        self._free.extend(self._workers)
        self.ready = True
        return self

    def close(self) -> None:
        """Stop the workers (each finishes nothing more: its stop flag is raised)."""
        if self._closed:
            return
        self._closed, self.ready = True, False
        self._flag_view[:] = 1
        for w in self._workers:
            try:
                w.conn.send(None)
            except (OSError, ValueError):
                pass
        for w in self._workers:
            w.process.join(timeout=5)
            if w.process.is_alive():
                w.process.terminate()
                w.process.join(timeout=5)
            w.conn.close()
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            waiters, self._waiters = list(self._waiters), collections.deque()
        for loop, fut in waiters:
            loop.call_soon_threadsafe(_fail, fut, SolverError("deck workers closed"))

    def __enter__(self) -> DeckWorkers:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ admission

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"ready": self.ready, "workers": self.size, "free": len(self._free),
                    "waiting": len(self._waiters), "queue": self.queue,
                    "done": self.stats.done, "refused": self.stats.refused,
                    "cancelled_waiting": self.stats.cancelled_waiting,
                    "stopped_running": self.stats.stopped_running,
                    "restarted": self.stats.restarted}

    def retry_after(self) -> int:
        """Seconds after which a refused request may find room (at least 1)."""
        times = list(self.stats.seconds) or [0.1]
        per = float(np.median(times))
        return max(1, math.ceil(per * (len(self._waiters) + 1) / self.size))

    async def _acquire(self, admitted: bool) -> _Worker:
        if self._closed:
            raise SolverError("deck workers closed")
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._free and not self._waiters:
                return self._free.popleft()
            if not admitted and len(self._waiters) >= self.queue:
                self.stats.refused += 1
                raise PoolFull(self.retry_after())
            fut: asyncio.Future[_Worker] = loop.create_future()
            entry = (loop, fut)
            self._waiters.append(entry)
        try:
            return await fut
        except asyncio.CancelledError:
            with self._lock:
                if entry in self._waiters:  # still queued: it never reaches a worker
                    self._waiters.remove(entry)
                    self.stats.cancelled_waiting += 1
                    raise
            # handed a worker just as it was cancelled: give it back
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                self._release(fut.result())
            raise

    def _release(self, w: _Worker) -> None:
        self._flag_view[w.index] = 0
        with self._lock:
            while self._waiters:
                loop, fut = self._waiters.popleft()
                if not fut.done():
                    loop.call_soon_threadsafe(_hand, fut, w, self)
                    return
            self._free.append(w)

    def _recv(self, w: _Worker) -> Any:
        try:
            return w.conn.recv()
        except (EOFError, OSError):
            return None

    async def run(self, request: dict[str, Any], *, admitted: bool = False
                  ) -> dict[str, Any]:
        """Run one request on a worker: ``serve_request``'s answer.

        ``admitted``: the request belongs to a batch already let in (it waits for a
        worker without counting against the queue). Raises :class:`PoolFull`, or
        :class:`SolverError` when the worker died (it is restarted).
        """
        w = await self._acquire(admitted)
        t0 = time.perf_counter()
        try:
            w.conn.send(request)
        except (OSError, ValueError):
            self._replace(w)
            raise SolverError(f"deck worker {w.index} is gone; restarted") from None
        # the answer is read in a thread; its future completes there even if this
        # request's event loop is gone by then, so the worker is always handed back
        reply = self._threads.submit(self._recv, w)
        try:
            answer = await asyncio.shield(asyncio.wrap_future(reply))
        except asyncio.CancelledError:
            # the client went away: stop the search; free the worker once it answers
            self._flag_view[w.index] = 1
            with self._lock:
                self.stats.stopped_running += 1
            reply.add_done_callback(lambda f: self._stopped(w, f))
            raise
        with self._lock:
            self.stats.done += 1
            self.stats.seconds.append(time.perf_counter() - t0)
        self._finish(w, answer)
        if answer is None:
            raise SolverError(f"deck worker {w.index} died during a request; restarted")
        return answer

    def _stopped(self, w: _Worker, reply: cf.Future[Any]) -> None:
        answer = None if reply.cancelled() else reply.result()
        if isinstance(answer, dict):
            self.stats.last_stopped = answer.get("stop")
        self._finish(w, answer)

    def _finish(self, w: _Worker, answer: Any) -> None:
        if answer is None or not w.process.is_alive():
            self._replace(w)
        else:
            self._release(w)

    def _replace(self, w: _Worker) -> None:
        """Start a new process in place of a dead worker (in a thread: it warms up)."""
        if self._closed:
            return
        self.stats.restarted += 1

        def restart() -> None:
            w.conn.close()
            fresh = self._spawn(w.index)
            try:
                self._await_ready(fresh, time.monotonic() + self.start_timeout)
            except SolverError:
                return
            self._workers[w.index] = fresh
            self._release(fresh)

        threading.Thread(target=restart, daemon=True).start()


def _hand(fut: asyncio.Future[_Worker], w: _Worker, pool: DeckWorkers) -> None:
    if fut.done():  # cancelled meanwhile: pass the worker on
        pool._release(w)
    else:
        fut.set_result(w)


def _fail(fut: asyncio.Future[Any], exc: BaseException) -> None:
    if not fut.done():
        fut.set_exception(exc)
