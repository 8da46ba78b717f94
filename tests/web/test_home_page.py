"""The home page: one line per system, and the tournaments as before."""

from __future__ import annotations

import re

from tests.web.conftest import Desk, text


def test_the_home_page_links_the_five_systems(desk: Desk) -> None:
    r = desk.get("/")
    assert r.status_code == 200
    systems = re.search(r'<ul class="systems" id="systems">(.*?)</ul>', r.text, re.S)
    assert systems
    links = re.findall(r'<li><a href="([^"]+)">([^<]+)</a> — ([^<]+)</li>', systems.group(1))
    assert [(href, name) for href, name, _ in links] == [
        ("/reversi", "Othello"), ("/sudoku", "Sudoku"), ("/go", "Go MSP"),
        ("/deck", "Deck builder"), ("/desk/", "Tournament pairing")]
    assert all(len(line) > 40 for _, _, line in links)
    assert "No tournament yet" in text(r)


def test_the_home_page_keeps_the_tournament_list(event: Desk) -> None:
    r = event.get("/")
    assert '<a href="/public/open">Test Open</a> — 12 players, round 1 of 5' in text(r)


def test_every_page_links_the_systems_in_its_header(desk: Desk) -> None:
    for url in ("/", "/sudoku", "/go", "/desk/"):
        nav = re.search(r"<nav>(.*?)</nav>", desk.get(url).text, re.S)
        assert nav
        for href in ("/reversi", "/sudoku", "/go", "/deck", "/desk/"):
            assert f'href="{href}"' in nav.group(1), (url, href)
