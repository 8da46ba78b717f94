"""The Sudoku page through its routes: solve three ways, the evolution stream (and a client
that goes away during it), generate, the next logical step, and bad puzzles."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any

import numpy as np
import pytest

from gameopt.sudoku import Puzzle, solution_problems
from gameopt.sudoku.examples import ARTICLE_PUZZLE
from gameopt.web import create_app
from tests.web.conftest import Desk, text

#: Row 1 holds 1..8, and 9 stands lower in column 9: r1c9 has no candidate left, yet no
#: value repeats in a unit (a contradiction only a solver finds).
NO_SOLUTION = "12345678." + "........9" + "." * 63


def _grid_values(page: str) -> list[str]:
    table = re.search(r'<table class="sudoku[^>]*>(.*?)</table>', page, re.S)
    assert table, page
    return re.findall(r"<td[^>]*>([^<]*)</td>", table.group(1))


def _solve(desk: Desk, puzzle: str = ARTICLE_PUZZLE, **fields: str) -> Any:
    return desk.post("/sudoku/solve", {"puzzle": puzzle, "method": "exact", "seconds": "10",
                                       **fields})


def test_the_page_offers_the_article_puzzle(desk: Desk) -> None:
    r = desk.get("/sudoku")
    assert r.status_code == 200
    assert ARTICLE_PUZZLE in r.text and 'id="solve-form"' in r.text
    assert '<script src="/static/pages.js"' in r.text


@pytest.mark.parametrize("method", ["exact", "cpsat", "evolution"])
def test_each_method_shows_a_verified_grid(desk: Desk, method: str) -> None:
    r = _solve(desk, method=method, seed="1")
    assert r.status_code == 200, text(r)
    values = _grid_values(r.text)
    assert len(values) == 81 and all(values)
    puzzle = Puzzle.from_string(ARTICLE_PUZZLE)
    assert solution_problems(puzzle, np.array([int(v) for v in values], np.int8)) == []
    assert 'id="verified"' in r.text
    assert "This solution is the only one" in text(r)
    if method == "evolution":  # the plot of the recorded progress, no JavaScript needed
        assert 'id="plot"' in r.text and 'class="line"' in r.text


def test_a_puzzle_with_no_solution_is_said_so(desk: Desk) -> None:
    r = _solve(desk, NO_SOLUTION)
    assert r.status_code == 200
    assert "no solution" in text(r) and "givens contradict each other" in text(r)
    assert 'id="verified"' not in r.text


@pytest.mark.parametrize(("puzzle", "fields", "message"), [
    ("11" + "." * 79, {}, "puzzle: value 1 given twice in row 1: r1c1 and r1c2"),
    ("123", {}, "puzzle: 3 cells is not a square grid"),
    ("", {}, "puzzle: empty"),
    ("x" * 81, {}, "puzzle"),
    (ARTICLE_PUZZLE, {"method": "dlx"}, "method: 'dlx' is not one of"),
    (ARTICLE_PUZZLE, {"seconds": "soon"}, "seconds: 'soon' is not a number"),
    (ARTICLE_PUZZLE, {"seconds": "1e9"}, "seconds: 1e9 is outside 0..60"),
    (ARTICLE_PUZZLE, {"seed": "-3"}, "seed"),
    ("." * 625, {"method": "exact"}, "the exact solver here takes grids up to 16x16"),
])
def test_bad_input_is_a_400_naming_the_field(desk: Desk, puzzle: str, fields: dict[str, str],
                                             message: str) -> None:
    r = _solve(desk, puzzle, **fields)
    assert r.status_code == 400
    errors = re.findall(r'<p class="error" role="alert" id="error-(\w+)">([^<]*)</p>', r.text)
    assert len(errors) == 1, errors
    assert message in text(r)
    assert puzzle in r.text  # the form is shown again with what was typed


def test_the_form_needs_its_csrf_token(desk: Desk) -> None:
    r = desk.post("/sudoku/solve", {"puzzle": ARTICLE_PUZZLE, "method": "exact"}, csrf="x" * 30)
    assert r.status_code == 403


def _events(body: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_the_evolution_streams_its_progress_then_the_result(desk: Desk) -> None:
    r = desk.post("/sudoku/solve/stream", {"puzzle": ARTICLE_PUZZLE, "method": "evolution",
                                           "seed": "0", "seconds": "30", "article": "on"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = _events(r.text)
    kinds = [k for k, _ in events]
    assert kinds[-1] == "done" and set(kinds[:-1]) == {"progress"} and len(kinds) > 3
    epochs = [d["epochs"] for k, d in events if k == "progress"]
    assert epochs == sorted(epochs)
    best = [d["best"] for k, d in events if k == "progress"]
    assert best == sorted(best, reverse=True)  # the best so far never rises
    done = events[-1][1]
    assert done["status"] == "solved"
    assert 'id="plot"' in done["html"] and 'id="verified"' in done["html"]


def test_a_bad_puzzle_on_the_stream_is_a_400(desk: Desk) -> None:
    r = desk.post("/sudoku/solve/stream", {"puzzle": "11" + "." * 79, "method": "evolution"})
    assert r.status_code == 400 and "given twice in row 1" in text(r)


def test_an_unsolved_evolution_says_so(desk: Desk) -> None:
    r = desk.post("/sudoku/solve/stream", {"puzzle": NO_SOLUTION, "method": "evolution",
                                           "seconds": "0.5", "article": "on"})
    done = _events(r.text)[-1][1]
    assert done["status"] == "unsolved" and "Stopped (time)" in done["html"]


def _starlette(app: Any) -> Any:
    while not hasattr(app, "state"):
        app = app.app
    return app


def _stream_scope(seconds: int) -> tuple[dict[str, Any], bytes]:
    """A POST to the evolution stream of :data:`NO_SOLUTION`, with its CSRF cookie."""
    token = "t" * 32
    body = (f"csrf={token}&method=evolution&seconds={seconds}&article=on&"
            f"puzzle={NO_SOLUTION}").encode()
    scope = {"type": "http", "method": "POST", "path": "/sudoku/solve/stream",
             "raw_path": b"/sudoku/solve/stream", "query_string": b"", "root_path": "",
             "http_version": "1.1", "scheme": "http", "server": ("testserver", 80),
             "client": ("127.0.0.1", 5000),
             "headers": [(b"content-type", b"application/x-www-form-urlencoded"),
                         (b"content-length", str(len(body)).encode()),
                         (b"cookie", f"gameopt_csrf={token}".encode())]}
    return scope, body


def test_a_client_that_goes_away_stops_its_search(data_dir: Any) -> None:
    """The puzzle has no solution, so only the stop flag can end the 60 s run early."""
    app = create_app(data_dir)
    jobs = _starlette(app).state.page_jobs
    scope, body = _stream_scope(60)
    sent: list[dict[str, Any]] = []

    async def main() -> float:
        first_event = asyncio.Event()
        requests = 0

        async def receive() -> dict[str, Any]:
            nonlocal requests
            requests += 1
            if requests == 1:
                return {"type": "http.request", "body": body, "more_body": False}
            await first_event.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)
            if b"event: progress" in message.get("body", b""):
                first_event.set()

        await asyncio.wait_for(app(scope, receive, send), 30)
        t0 = time.monotonic()
        while jobs.running and time.monotonic() - t0 < 20:
            await asyncio.sleep(0.05)
        return time.monotonic() - t0

    asyncio.run(main())
    assert sent[0]["status"] == 200
    assert jobs.running == 0 and jobs.finished == ["stopped"]
    assert not any(b"event: done" in m.get("body", b"") for m in sent)


def test_generate_each_size(desk: Desk) -> None:
    for box in (2, 3):
        r = desk.post("/sudoku/generate", {"box": str(box), "seed": "5"})
        assert r.status_code == 200
        side = box * box
        assert f"Generated a {side}x{side} puzzle" in text(r) and "unique" in text(r)
        textarea = re.search(r'<textarea name="puzzle"[^>]*>([^<]*)</textarea>', r.text)
        assert textarea
        puzzle = Puzzle.from_string(textarea.group(1))
        assert puzzle.box == box
        assert _solve(desk, textarea.group(1)).status_code == 200


def test_generate_refuses_bad_sizes(desk: Desk) -> None:
    r = desk.post("/sudoku/generate", {"box": "9"})
    assert r.status_code == 400 and "box" in text(r) and 'id="error-generate"' in r.text
    r = desk.post("/sudoku/generate", {"box": "3", "givens": "2"})
    assert r.status_code == 400 and "givens" in text(r)
    r = desk.post("/sudoku/generate", {"box": "5", "givens": "100"})
    assert r.status_code == 400 and "givens: 100 is too few for 25x25" in text(r)


def test_the_next_step_stops_at_16x16(desk: Desk) -> None:
    r = desk.post("/sudoku/hint", {"puzzle": "." * 625})
    assert r.status_code == 400
    assert "the next logical step is offered up to 16x16" in text(r)


def test_the_next_logical_step_places_a_value(desk: Desk) -> None:
    r = desk.post("/sudoku/hint", {"puzzle": ARTICLE_PUZZLE})
    assert r.status_code == 200
    assert "Next step: r5c5 = 8: hidden single in box 5" in text(r)
    textarea = re.search(r'<textarea name="puzzle"[^>]*>([^<]*)</textarea>', r.text)
    assert textarea
    after = Puzzle.from_string(textarea.group(1))
    assert after.givens == Puzzle.from_string(ARTICLE_PUZZLE).givens + 1
    assert int(after.cells[4 * 9 + 4]) == 8
    assert 'class="given placed"' in r.text


def test_the_next_step_of_a_puzzle_without_one_solution_is_a_400(desk: Desk) -> None:
    r = desk.post("/sudoku/hint", {"puzzle": "." * 81})
    assert r.status_code == 400 and 'class="error"' in r.text


def test_a_busy_server_answers_503_with_retry_after(desk: Desk) -> None:
    jobs = _starlette(desk.client.app).state.page_jobs
    jobs.slots = 0  # every slot taken
    for url in ("/sudoku/solve", "/sudoku/solve/stream"):
        r = _solve(desk) if url.endswith("solve") else desk.post(url, {
            "puzzle": ARTICLE_PUZZLE, "method": "evolution"})
        assert r.status_code == 503, url
        assert r.headers["retry-after"] == "5" and "the server is busy" in text(r)


def test_disconnected_clients_free_their_slots_on_the_real_server(
        server: tuple[str, Any]) -> None:
    """Under uvicorn: two streams fill the pool (a third gets 503); once their clients hang
    up, a new solve gets a slot at once, not after the streams' 60 s budget."""
    import http.client
    import urllib.parse

    base, _ = server
    port = int(base.rsplit(":", 1)[1])

    def request(method: str, path: str, body: str = "", headers: dict[str, str] | None = None
                ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(method, path, body, headers or {})
        return conn, conn.getresponse()

    conn, r = request("GET", "/sudoku")
    r.read()
    conn.close()
    token = re.search(r"gameopt_csrf=([^;]+)", r.getheader("set-cookie") or "")
    assert token
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Cookie": f"gameopt_csrf={token.group(1)}"}
    form = {"csrf": token.group(1), "puzzle": NO_SOLUTION, "seconds": "60", "article": "on"}
    streams = []
    for _ in range(2):
        conn, r = request("POST", "/sudoku/solve/stream", urllib.parse.urlencode(
            {**form, "method": "evolution"}), headers)
        assert r.status == 200 and r.fp.readline()  # the first event's chunk
        streams.append(conn)
    conn, r = request("POST", "/sudoku/solve/stream", urllib.parse.urlencode(
        {**form, "method": "evolution"}), headers)
    assert r.status == 503 and r.getheader("Retry-After") == "5"
    r.read()
    conn.close()
    for conn in streams:
        conn.close()
    t0 = time.monotonic()
    status = 0
    while time.monotonic() - t0 < 20:
        conn, r = request("POST", "/sudoku/solve", urllib.parse.urlencode(
            {**form, "method": "exact"}), headers)
        r.read()
        conn.close()
        status = r.status
        if status != 503:
            break
        time.sleep(0.1)
    assert status == 200


def test_a_client_gone_before_the_first_byte_leaves_no_slot_taken(data_dir: Any) -> None:
    """The response never starts (sending fails), so no stream can stop the work: it
    ends at its 1 s budget and gives its slot back."""
    app = create_app(data_dir)
    jobs = _starlette(app).state.page_jobs
    scope, body = _stream_scope(1)

    async def main() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            raise OSError("connection reset by peer")

        with pytest.raises(Exception, match="connection reset|unhandled errors"):
            await asyncio.wait_for(app(scope, receive, send), 30)
        t0 = time.monotonic()
        while jobs.running and time.monotonic() - t0 < 20:
            await asyncio.sleep(0.05)

    asyncio.run(main())
    assert jobs.running == 0 and jobs.finished == ["done"]
