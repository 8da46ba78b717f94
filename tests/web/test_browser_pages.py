"""End to end in Chromium: the Sudoku, Go MSP and Deck pages and the home page (set-up in
:mod:`tests.web.browser`). Screenshots go to ``tests/artefacts/browser/pages-*.png``:

* ``pages-01-home``: the home page, one line per system;
* ``pages-02-sudoku-running`` / ``pages-03-sudoku-solved``: McCaffrey's puzzle by evolution,
  the live plot while it runs, then the verified grid and the final plot;
* ``pages-04-go-msp19``: MSP(19) = 277 with its 84 dominating empty points;
* ``pages-05-go-check``: the downloaded SGF uploaded back to the board check;
* ``pages-06-deck``: a deck with a must-include piece and a leader, its explanation and chart.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameopt.go.sgf import board_from_sgf
from gameopt.sudoku import Puzzle, solution_problems
from gameopt.sudoku.examples import ARTICLE_PUZZLE
from tests.web.browser import (  # skips this module without Chromium
    By,
    Select,
    WebDriverException,
    WebDriverWait,
    make_driver,
)
from tests.web.test_browser import click, submit, wait_text
from tests.web.test_sudoku_page import NO_SOLUTION

#: Records the most points the live plot showed (the run may end between two polls).
WATCH_PLOT = """
window.__livePoints = 0;
new MutationObserver(function () {
  var svg = document.getElementById('live-svg');
  if (svg) { window.__livePoints = Math.max(window.__livePoints,
                                             Number(svg.getAttribute('data-points'))); }
}).observe(document.getElementById('live-plot'), {childList: true, subtree: true});
"""


def body(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").text)


def wait_file(path: Path, downloads: Path, seconds: float = 15) -> bytes:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size and not any(downloads.glob("*.crdownload")):
            return path.read_bytes()
        time.sleep(0.1)
    raise AssertionError(f"{path.name} was not downloaded")


def test_sudoku_go_and_deck_pages(server: tuple[str, Path], tmp_path: Path,
                                  shots: Callable[[Any, str], None]) -> None:
    base, _ = server
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = make_driver(downloads)
    try:
        driver.get(base + "/")
        systems = driver.find_element(By.ID, "systems").text
        for name in ("Othello", "Sudoku", "Go MSP", "Deck builder", "Tournament pairing"):
            assert name in systems
        shots(driver, "pages-01-home")

        # Sudoku: the article's puzzle by evolution, the plot updating as it runs
        click(driver, driver.find_element(By.LINK_TEXT, "Sudoku"))
        assert driver.find_element(By.ID, "puzzle").get_attribute("value") == ARTICLE_PUZZLE
        Select(driver.find_element(By.ID, "method")).select_by_value("evolution")
        for name, value in (("seed", "0"), ("seconds", "60")):  # seed 0: three restarts
            field = driver.find_element(By.NAME, name)
            field.clear()
            field.send_keys(value)
        driver.execute_script(WATCH_PLOT)
        driver.find_element(By.ID, "solve-button").click()
        try:
            WebDriverWait(driver, 30, poll_frequency=0.05).until(
                lambda d: d.execute_script("return window.__livePoints") >= 5)
            shots(driver, "pages-02-sudoku-running")
        except WebDriverException:
            pass  # finished between two polls: the count below says how far the plot went
        WebDriverWait(driver, 90).until(lambda d: d.find_elements(By.ID, "verified"))
        assert driver.execute_script("return window.__livePoints") >= 5
        assert "solved" in driver.find_element(By.ID, "status").text
        assert "the only one" in driver.find_element(By.ID, "unique").text
        assert driver.find_elements(By.CSS_SELECTOR, "#plot svg path.line")
        cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#grid td")]
        import numpy as np

        grid = np.array([int(v) for v in cells], dtype=np.int8)
        assert solution_problems(Puzzle.from_string(ARTICLE_PUZZLE), grid) == []
        shots(driver, "pages-03-sudoku-solved")

        # a puzzle without solution runs until its budget, unless stopped
        puzzle = driver.find_element(By.ID, "puzzle")
        puzzle.clear()
        puzzle.send_keys(NO_SOLUTION)
        driver.execute_script(WATCH_PLOT)
        driver.find_element(By.ID, "solve-button").click()
        WebDriverWait(driver, 30, poll_frequency=0.05).until(
            lambda d: d.execute_script("return window.__livePoints") >= 2)
        driver.find_element(By.ID, "stop-button").click()
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.ID, "live-status").text == "stopped at your request")
        assert not driver.find_element(By.ID, "stop-button").is_displayed()

        # Go: MSP(19), its SGF downloaded and checked back
        click(driver, driver.find_element(By.LINK_TEXT, "Go MSP"))
        size = driver.find_element(By.ID, "size")
        size.clear()
        size.send_keys("19")
        submit(driver, "msp-form")
        assert driver.find_element(By.ID, "msp-value").text == "MSP(19) = 277"
        assert driver.find_element(By.ID, "gamma").text.startswith("84")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#msp-board rect.m")) == 84
        shots(driver, "pages-04-go-msp19")
        driver.find_element(By.ID, "download-sgf").click()
        sgf = downloads / "msp-19.sgf"
        board = board_from_sgf(wait_file(sgf, downloads))
        assert board.string_count() == 277 and board.is_legal_position()
        driver.find_element(By.ID, "sgf-file").send_keys(str(sgf))
        submit(driver, "check-form")
        assert driver.find_element(By.ID, "check-strings").text == "277 strings"
        assert "legal position" in driver.find_element(By.ID, "check-result").text
        shots(driver, "pages-05-go-check")

        # Deck: a must-include piece and a leader on the synthetic data
        click(driver, driver.find_element(By.LINK_TEXT, "Deck"))
        form = driver.find_element(By.ID, "rules-form")
        owned = [o.get_attribute("value") for o in
                 form.find_elements(By.CSS_SELECTOR, "#must option")[:12]]
        Select(form.find_element(By.NAME, "attribute")).select_by_value("dragon")
        Select(form.find_element(By.ID, "must")).select_by_value(owned[0])
        Select(form.find_element(By.ID, "leader")).select_by_value(owned[10])
        submit(driver, "rules-form")
        wait_text(driver, "Why this deck", 120)
        explanation = driver.find_element(By.ID, "explanation").text
        assert "Rule must-include (" in explanation
        assert "The leader" in explanation
        rows = driver.find_elements(By.CSS_SELECTOR, "#deck-table tbody tr")
        assert len(rows) == 16
        assert rows[0].get_attribute("class") == "leader"
        must = driver.find_elements(By.CSS_SELECTOR, "#deck-table tr.must td:first-child")
        assert [td.text for td in must] == [owned[0]]
        assert re.search(r"Score -?\d", driver.find_element(By.ID, "deck-summary").text)
        shots(driver, "pages-06-deck")
    finally:
        driver.quit()
