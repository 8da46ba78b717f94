"""Fixtures of the web tests: an app over a temporary data directory, a client that
carries the CSRF token, and a small tournament."""

from __future__ import annotations

import html
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from gameopt.web import create_app

PLAYERS_CSV = "name,id,country,rating,club\n" + "".join(
    f"Player {i},{i},{'FRA' if i % 2 else 'JPN'},{1400 + 10 * i},Club {i % 3}\n"
    for i in range(1, 13))


def text(response: Any) -> str:
    """The page's text with HTML entities decoded (what a reader sees)."""
    return html.unescape(response.text)


class Desk:
    """A test client that knows the CSRF token and posts forms like the pages do."""

    def __init__(self, client: TestClient, data_dir: Path) -> None:
        self.client, self.data_dir = client, data_dir
        self.csrf = ""

    def get(self, url: str, **kw: Any) -> Any:
        r = self.client.get(url, **kw)
        token = self.client.cookies.get("gameopt_csrf")
        if token:
            self.csrf = token
        return r

    def post(self, url: str, data: dict[str, str] | None = None, csrf: str | None = None,
             **kw: Any) -> Any:
        if not self.csrf:
            self.get("/desk/")
        form = {"csrf": self.csrf if csrf is None else csrf, **(data or {})}
        return self.client.post(url, data=form, follow_redirects=kw.pop("follow", True), **kw)

    def etag(self, slug: str, k: int) -> str:
        page = self.get(f"/desk/{slug}/round/{k}").text
        m = re.search(r'name="etag" value="([^"]+)"', page)
        assert m, page
        return m.group(1)

    def create(self, slug: str = "open", **fields: str) -> Any:
        data = {"slug": slug, "name": "Test Open", "rounds": "5", "preset": "tuned",
                "overrides": "", **fields}  # the form's default preset
        return self.post("/desk/new", data)

    def upload_players(self, slug: str = "open", text: str = PLAYERS_CSV,
                       name: str = "players.csv") -> Any:
        return self.post(f"/desk/{slug}/players/csv", {"form": "csv"},
                         files={"file": (name, text.encode(), "text/csv")})

    def pair(self, slug: str = "open", expect: int = 1, method: str = "exact") -> Any:
        return self.post(f"/desk/{slug}/pair", {"form": "pair", "expect": str(expect),
                                                 "method": method})

    def results(self, slug: str, k: int, sheet: dict[int, tuple[int, int]],
                etag: str | None = None) -> Any:
        data = {"form": "results", "etag": etag or self.etag(slug, k)}
        for table, (b, w) in sheet.items():
            data[f"b{table}"], data[f"w{table}"] = str(b), str(w)
        return self.post(f"/desk/{slug}/round/{k}/results", data)


def make_client(data_dir: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(data_dir, **kw), base_url="http://testserver")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data_dir: Path, *args: str, env: dict[str, str] | None = None
                 ) -> tuple[subprocess.Popen[str], str, float]:
    """``gameopt serve`` in a subprocess; returns it, its URL and the seconds until the
    first page answered."""
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gameopt.cli.main", "serve", "--port", str(port),
         "--data-dir", str(data_dir), *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}/"
    deadline = t0 + 20
    while time.perf_counter() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return proc, url, time.perf_counter() - t0
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    out = proc.communicate()[0]
    raise AssertionError(f"gameopt serve did not start: {out}")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    d.mkdir()
    return d


@pytest.fixture
def desk(data_dir: Path) -> Iterator[Desk]:
    with make_client(data_dir) as client:
        d = Desk(client, data_dir)
        d.get("/desk/")
        yield d


@pytest.fixture
def event(desk: Desk) -> Desk:
    """``open``: 12 players registered, round 1 paired."""
    assert desk.create().status_code == 200
    assert desk.upload_players().status_code == 200
    r = desk.pair()
    assert r.status_code == 200 and "round 1 paired (exact, total cost" in text(r)
    return desk


#: Where browser tests save screenshots (``$GAMEOPT_ARTEFACTS``, default ``tests/artefacts/``).
ARTEFACTS = Path(os.environ.get("GAMEOPT_ARTEFACTS")
                 or Path(__file__).resolve().parents[1] / "artefacts") / "browser"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    data = tmp_path / "data"
    data.mkdir()
    proc, url, _ = start_server(data)
    try:
        yield url.rstrip("/"), data
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


@pytest.fixture
def shots() -> Callable[[Any, str], None]:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)

    def shot(driver: Any, name: str) -> None:
        height = driver.execute_script("return document.body.scrollHeight")
        width = driver.get_window_size()["width"]
        driver.set_window_size(width, min(max(height + 140, 600), 4000))
        driver.save_screenshot(str(ARTEFACTS / f"{name}.png"))

    return shot
