"""Long work of the system pages (solves, searches, builds) off the event loop.

One :class:`Jobs` per application holds a bounded pool of threads. Every job

* takes a slot or is refused at once with 503 and ``Retry-After`` (a full pool never
  queues work nobody will wait for);
* runs with a :class:`~gameopt.core.StopFlag` that the library polls between chunks of
  work, so the page's time budget (a :class:`~gameopt.core.Limit` the page builds) and a
  client that goes away both stop it;
* either answers once (:meth:`Jobs.run`) or streams its progress as server-sent events
  (:meth:`Jobs.stream`): ``event: progress`` lines while it runs, then one ``event: done``
  (the page's JSON) or ``event: error`` (a one-line message). When the client
  disconnects, Starlette cancels the stream and the flag is set.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.exceptions import HTTPException
from starlette.responses import StreamingResponse

from gameopt.core import StopFlag
from gameopt.core.progress import Progress
from gameopt.errors import GameoptError

__all__ = ["Jobs", "DEFAULT_JOBS"]

#: Jobs running at once per server (the machine's cores are shared with the desk).
DEFAULT_JOBS = 2
T = TypeVar("T")


class Jobs:
    """A bounded pool of page jobs; ``running`` says how many hold a slot now."""

    def __init__(self, slots: int = DEFAULT_JOBS) -> None:
        self.slots = slots
        self._pool = ThreadPoolExecutor(max_workers=slots, thread_name_prefix="gameopt-page")
        self._lock = threading.Lock()
        self.running = 0
        #: Why each finished job stopped (the library's status), newest last; for tests
        #: and the log, at most 50 kept.
        self.finished: list[str] = []

    def _take(self) -> None:
        with self._lock:
            if self.running >= self.slots:
                raise HTTPException(503, f"the server is busy ({self.slots} searches "
                                         "running); try again in a few seconds",
                                    headers={"Retry-After": "5"})
            self.running += 1

    def _give(self, status: str) -> None:
        with self._lock:
            self.running -= 1
            self.finished = [*self.finished[-49:], status]

    async def run(self, work: Callable[[StopFlag], T]) -> T:
        """``work(stop)`` in the pool; the flag is set if this request is cancelled."""
        self._take()
        stop = StopFlag()
        future = self._pool.submit(work, stop)
        status = "done"
        try:
            return await asyncio.wrap_future(future)
        except BaseException:
            status = "stopped"
            stop.set()
            raise
        finally:
            if future.done():
                self._give(status)
            else:  # cancelled: the slot is free once the thread has seen the flag
                future.add_done_callback(lambda _: self._give(status))

    def stream(self, work: Callable[[StopFlag, Callable[[Progress], None]], dict[str, Any]],
               progress_event: Callable[[Progress], dict[str, Any]]) -> StreamingResponse:
        """A ``text/event-stream`` response that runs ``work(stop, report)`` in the pool.

        ``report`` forwards a library :class:`Progress` to the client as
        ``progress_event(progress)``; ``work``'s dict is the ``done`` event. A
        :class:`~gameopt.errors.GameoptError` becomes an ``error`` event with its message.
        """
        self._take()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        stop = StopFlag()

        def report(p: Progress) -> None:
            if not stop.is_set():
                loop.call_soon_threadsafe(queue.put_nowait, ("progress",
                                                                progress_event(p)))

        def job() -> None:
            try:
                out: tuple[str, Any] = ("done", work(stop, report))
            except GameoptError as e:
                out = ("error", {"message": str(e)})
            except Exception as e:  # a bug: said in one line, never a traceback page
                out = ("error", {"message": f"internal error: {type(e).__name__}"})
            # the slot comes back when the work ends, whatever becomes of the response
            self._give("stopped" if stop.is_set() else out[0])
            loop.call_soon_threadsafe(queue.put_nowait, out)

        # submitted now, not when the response starts: a client gone before the first
        # byte cannot leave a slot taken (the work then ends at its time budget)
        self._pool.submit(job)
        return StreamingResponse(self._events(queue, stop), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    @staticmethod
    async def _events(queue: asyncio.Queue[tuple[str, Any]], stop: StopFlag
                      ) -> AsyncIterator[str]:
        """The queue's events as SSE text until the last one; the flag is set when the
        stream ends, early (the client went away) or not."""
        try:
            while True:
                kind, data = await queue.get()
                yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"
                if kind != "progress":
                    break
        finally:
            stop.set()
