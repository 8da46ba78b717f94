"""The pool of page jobs: a full pool answers 503 at once, a cancelled request stops its
work, and the slot comes back."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from starlette.exceptions import HTTPException

from gameopt.core import StopFlag
from gameopt.web.page_jobs import Jobs


def test_a_full_pool_refuses_with_503_and_retry_after() -> None:
    jobs = Jobs(slots=1)
    started = threading.Event()

    def wait_for_stop(stop: StopFlag) -> str:
        started.set()
        while not stop.is_set():
            time.sleep(0.01)
        return "stopped"

    async def main() -> None:
        first = asyncio.ensure_future(jobs.run(wait_for_stop))
        while not started.is_set():
            await asyncio.sleep(0.01)
        assert jobs.running == 1
        with pytest.raises(HTTPException) as refused:
            await jobs.run(lambda stop: "never")
        assert refused.value.status_code == 503
        assert refused.value.headers == {"Retry-After": "5"}
        first.cancel()  # the client went away: the flag is set, the thread ends
        with pytest.raises(asyncio.CancelledError):
            await first
        for _ in range(200):
            if not jobs.running:
                break
            await asyncio.sleep(0.01)
        assert jobs.running == 0 and jobs.finished == ["stopped"]
        assert await jobs.run(lambda stop: 7) == 7
        assert jobs.finished == ["stopped", "done"]

    asyncio.run(main())
