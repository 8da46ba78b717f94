"""CSRF, the director's token, path traversal, escaping, upload limits, ``gameopt serve``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gameopt.cli.serve import is_loopback
from gameopt.errors import InvalidInputError
from gameopt.pairing import Tournament
from gameopt.web import create_app
from tests.web.conftest import Desk, TestClient, free_port, make_client, start_server, text

EVIL = "<script>alert('x')</script>"


def test_post_without_or_with_a_wrong_csrf_token_is_refused(event: Desk) -> None:
    path = event.data_dir / "open.sqlite"
    before = path.read_bytes()
    for token in ("", "forged-token-forged-token"):
        r = event.post("/desk/open/players", {"form": "add", "name": "Eve"}, csrf=token)
        assert r.status_code == 403 and "CSRF check failed" in text(r)
    r = event.client.post("/desk/open/players", data={"name": "Eve"})
    assert r.status_code == 403
    r = event.post("/desk/new", {"slug": "x", "name": "X"}, csrf="nope")
    assert r.status_code == 403
    assert path.read_bytes() == before
    assert not (event.data_dir / "x.sqlite").exists()


def test_cookies_are_http_only_and_same_site(data_dir: Path) -> None:
    with make_client(data_dir) as c:
        cookie = c.get("/desk/").headers["set-cookie"]
    assert "gameopt_csrf=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie


def test_token_locks_the_desk_but_not_the_public_pages(data_dir: Path) -> None:
    Tournament.create(data_dir / "open.sqlite", "Open").close()
    with make_client(data_dir, token="s3cret-token") as c:
        d = Desk(c, data_dir)
        r = c.get("/desk/", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/login?next=/desk/"
        assert c.get("/desk/open/export/elo", follow_redirects=False).status_code == 303
        assert c.get("/public/open").status_code == 200
        assert c.get("/public/open/state").status_code == 200
        assert c.get("/").status_code == 200
        assert c.get("/static/style.css").status_code == 200
        d.get("/login")
        r = d.post("/desk/open/players", {"name": "Eve"})
        assert r.status_code == 401
        r = d.post("/login", {"token": "wrong-token", "next": "/desk/open"})
        assert r.status_code == 403 and "wrong token" in text(r)
        assert c.get("/desk/", follow_redirects=False).status_code == 303
        r = d.post("/login", {"token": "s3cret-token", "next": "/desk/open"})
        assert r.status_code == 200 and r.url.path == "/desk/open"
        assert "s3cret-token" not in c.cookies.get("gameopt_auth", "")
        r = d.post("/desk/open/players", {"form": "add", "name": "Ann"})
        assert r.status_code == 200 and "registered Ann" in text(r)
        d.post("/logout")
        assert c.get("/desk/", follow_redirects=False).status_code == 303


def test_login_never_sends_the_browser_to_another_site(data_dir: Path) -> None:
    with make_client(data_dir, token="s3cret-token") as c:
        d = Desk(c, data_dir)
        d.get("/login")
        for nxt in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
            r = d.post("/login", {"token": "s3cret-token", "next": nxt}, follow=False)
            assert r.status_code == 303 and r.headers["location"] == "/desk/"


@pytest.mark.parametrize("url", [
    "/desk/..%2F..%2Fetc%2Fpasswd", "/desk/%2e%2e", "/desk/.hidden", "/desk/a%00b",
    "/public/..%2Fopen", "/desk/open.sqlite", "/desk/" + "a" * 65, "/public/../open/state",
    "/desk/nothing", "/desk/nothing/round/1", "/desk/open/round/9",
])
def test_no_path_leaves_the_data_directory(event: Desk, url: str) -> None:
    assert event.get(url).status_code == 404


def test_file_names_from_forms_stay_in_the_data_directory(event: Desk) -> None:
    outside = event.data_dir.parent
    before = sorted(p.name for p in outside.iterdir())
    for slug in ("../escape", "/tmp/escape", "a/b", ".x", "x.sqlite", ""):
        r = event.create(slug)
        assert r.status_code == 400, slug
        assert "1 to 64 letters, digits" in text(r)
        elo = event.get("/desk/open/export/elo").content
        r = event.post("/desk/import", {"slug": slug},
                       files={"file": ("../../x.elo", elo, "text/plain")})
        assert r.status_code == 400
    assert sorted(p.name for p in outside.iterdir()) == before
    assert sorted(p.name for p in event.data_dir.iterdir()) == [
        "open.clubs.json", "open.penalties.toml", "open.sqlite"]


def test_every_page_escapes_user_text(desk: Desk) -> None:
    desk.create("evil", name=EVIL)
    desk.post("/desk/evil/players", {"form": "add", "name": EVIL, "id": "<b>x",
                                     "club": EVIL, "country": "FRA"})
    desk.upload_players("evil")
    desk.pair("evil")
    urls = ["/", "/desk/", "/desk/evil", "/desk/evil/round/1", "/desk/evil/standings",
            "/desk/evil/crosstable", "/desk/evil/player?id=%3Cb%3Ex",
            "/desk/evil/round/1/print/pairings", "/desk/evil/round/1/print/slips",
            "/desk/evil/standings/print", "/public/evil"]
    for url in urls:
        r = desk.get(url)
        assert r.status_code == 200, url
        assert "<script>alert" not in r.text and "<b>x" not in r.text, url
        assert "&lt;script&gt;alert(" in r.text, url
    r = desk.post("/desk/evil/withdraw", {"form": "withdraw", "player": EVIL,
                                          "from_round": "1"})
    assert r.status_code == 400 and "<script>alert" not in r.text


def test_uploads_over_the_limit_are_refused(data_dir: Path) -> None:
    with make_client(data_dir, max_upload=4096) as c:
        d = Desk(c, data_dir)
        d.create()
        before = (data_dir / "open.sqlite").read_bytes()
        big = "name\n" + "".join(f"Player number {i}\n" for i in range(1000))
        r = d.upload_players(text=big)
        assert r.status_code == 413 and "upload too large" in r.text
        assert (data_dir / "open.sqlite").read_bytes() == before
        assert d.upload_players(text="name\nA\nB\n").status_code == 200


def test_body_limit_counts_streamed_bytes(data_dir: Path) -> None:
    with make_client(data_dir, max_upload=2048) as c:
        def chunks():  # type: ignore[no-untyped-def]
            for _ in range(10):
                yield b"x" * 1000
        r = c.post("/desk/new", content=chunks(),
                   headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 413


def test_create_app_checks_its_arguments(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no such directory"):
        create_app(tmp_path / "missing")
    with pytest.raises(InvalidInputError, match="at least 8 characters"):
        create_app(tmp_path, token="short")
    with pytest.raises(InvalidInputError, match="at least 1024 bytes"):
        create_app(tmp_path, max_upload=10)


def test_loopback_hosts() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert not is_loopback("example.org")


def test_serve_starts_and_prints_its_url(data_dir: Path) -> None:
    # how fast it starts is measured by benchmarks/bench_web_desk.py, not asserted here
    proc, url, _ = start_server(data_dir)
    try:
        assert url.startswith("http://127.0.0.1:")
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0]
    assert f"gameopt serve: {url}" in out


def test_serve_on_another_host_generates_a_token(data_dir: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gameopt.cli.main", "serve", "--host", "0.0.0.0", "--port",
         str(port), "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={k: v for k, v in os.environ.items() if k != "GAMEOPT_TOKEN"})
    try:
        assert proc.stdout is not None
        proc.stdout.readline()
        line = proc.stdout.readline()
        token = re.fullmatch(r"director's token: (\S+)\n", line)
        assert token, line
        url = f"http://127.0.0.1:{port}/desk/"
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1)
                break
            except urllib.error.HTTPError as e:  # the redirect to /login is followed
                raise AssertionError(e) from None
            except OSError:
                time.sleep(0.05)
        with urllib.request.urlopen(url, timeout=2) as r:
            assert r.url.endswith("/login?next=/desk/")
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_serve_refuses_bad_options(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gameopt.cli.main import main

    assert main(["serve", "--data-dir", str(data_dir / "nope")]) == 2
    assert "--data-dir" in capsys.readouterr().err
    assert main(["serve", "--data-dir", str(data_dir), "--token", "short"]) == 2
    assert main(["serve", "--data-dir", str(data_dir), "--port", "70000"]) == 2


def test_app_from_the_environment(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gameopt.web.app import create_app_from_env

    monkeypatch.setenv("GAMEOPT_DATA_DIR", str(data_dir))
    monkeypatch.setenv("GAMEOPT_TOKEN", "from-the-env")
    Tournament.create(data_dir / "open.sqlite", "Open").close()
    with TestClient(create_app_from_env()) as c:
        assert c.get("/desk/", follow_redirects=False).status_code == 303
        assert c.get("/public/open").status_code == 200
