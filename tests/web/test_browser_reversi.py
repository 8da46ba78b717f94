"""End to end in Chromium: a whole Othello game against level 1 played by clicking, with
one undo and one hint (the engine's first reply from the opening book, and a search with
the book off); the game saved as GGF and its evaluation graph; an analysis
started and stopped; an endgame solved exactly (set-up in :mod:`tests.web.browser`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameopt.reversi.board import Board, parse_moves
from gameopt.reversi.files import parse_ggf
from tests.web.browser import By, Select, WebDriverException, WebDriverWait, make_driver

#: The first kernel load of a fresh numba cache compiles for a minute or two.
FIRST_WAIT = 400


def attr(driver: Any, name: str) -> str:
    return str(driver.find_element(By.ID, "board").get_attribute(name))


def ply(driver: Any) -> int:
    return int(attr(driver, "data-ply"))


def wait_turn(driver: Any, seconds: float = 60) -> str:
    """Wait until the person is to move or the game is over; which one."""
    def ready(d: Any) -> str | bool:
        try:
            turn = attr(d, "data-turn")
        except WebDriverException:
            return False
        return turn if turn in ("you", "over") else False

    return str(WebDriverWait(driver, seconds, poll_frequency=0.05).until(ready))


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def wait_for(driver: Any, element_id: str, part: str, seconds: float = 60) -> str:
    def shown(d: Any) -> str | bool:
        try:
            t = text_of(d, element_id)
        except WebDriverException:
            return False
        return t if part in t else False

    return str(WebDriverWait(driver, seconds, poll_frequency=0.05).until(shown))


def click_square(driver: Any, square: str) -> None:
    before = ply(driver)
    driver.find_element(By.CSS_SELECTOR, f"#board rect[data-square='{square}']").click()
    WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: ply(d) > before)


def legal_squares(driver: Any) -> list[str]:
    return [e.get_attribute("data-square")
            for e in driver.find_elements(By.CSS_SELECTOR, "#board rect.legal")]


def test_a_whole_game_against_level_1(server: tuple[str, Path], tmp_path: Path,
                                      shots: Callable[[Any, str], None]) -> None:
    base, _ = server
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = make_driver(downloads)
    try:
        driver.get(base + "/reversi")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#board circle[data-disc]")) == 4
        assert sorted(legal_squares(driver)) == ["c4", "d3", "e6", "f5"]
        Select(driver.find_element(By.ID, "level")).select_by_value("depth:1")
        shots(driver, "reversi-01-start")

        undone = hinted = False
        waits = 0
        while wait_turn(driver, FIRST_WAIT if waits < 2 else 60) == "you":
            waits += 1
            squares = legal_squares(driver)
            assert squares, text_of(driver, "status")
            if waits == 2:  # the engine's first reply: from the shipped opening book
                note = text_of(driver, "engine-note")
                assert note.startswith("engine played ") and "book move" in note, note
                shots(driver, "reversi-01b-book-reply")
            click_square(driver, squares[len(squares) // 2])
            if not undone and ply(driver) >= 6:
                wait_turn(driver)
                before = ply(driver)
                driver.find_element(By.ID, "undo").click()
                WebDriverWait(driver, 30).until(lambda d, n=before: ply(d) < n)
                assert before - ply(driver) == 2  # my move and the engine's reply
                undone = True
                shots(driver, "reversi-02-after-undo")
            if not hinted and ply(driver) >= 20 and wait_turn(driver) == "you":
                depth = driver.find_element(By.ID, "depth")
                depth.clear()
                depth.send_keys("6")
                driver.find_element(By.ID, "hint").click()
                state = wait_for(driver, "search-state", "moves valued;", 120)
                rows = driver.find_elements(By.CSS_SELECTOR, "#hint-table tbody tr")
                assert len(rows) == int(state.split("moves valued")[0].split("/")[-1])
                assert driver.find_elements(By.CSS_SELECTOR, "#board text.hint-score")
                shots(driver, "reversi-03-hint")
                best = state.split("hint: ")[1].split(" ")[0]
                click_square(driver, best)  # take the advice
                hinted = True
        assert undone and hinted
        status = text_of(driver, "status")
        assert "game over" in status, status
        shots(driver, "reversi-04-game-over")
        moves = text_of(driver, "moves").split()

        # the evaluation graph over the game
        depth = driver.find_element(By.ID, "depth")
        depth.clear()
        depth.send_keys("3")
        driver.find_element(By.ID, "graph-button").click()
        wait_for(driver, "search-state", "positions at depth 3", 120)
        points = driver.find_elements(By.CSS_SELECTOR, "#graph circle.graph-point")
        assert len(points) == len(moves) + 1
        shots(driver, "reversi-05-evaluation-graph")

        # save as GGF: the same moves, the result, an evaluation per move
        driver.find_element(By.ID, "save-ggf").click()
        ggf = downloads / "gameopt-othello.ggf"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (not ggf.exists() or not ggf.stat().st_size
                                               or any(downloads.glob("*.crdownload"))):
            time.sleep(0.1)
        (game,) = parse_ggf(ggf.read_text(encoding="utf-8"))
        assert [str(m) for m in game.moves] == moves
        assert game.final_board().is_game_over() and game.tags["PB"] == "you"
        assert game.tags["PW"] == "gameopt depth 1" and None not in game.evals

        # an analysis, stopped
        driver.find_element(By.ID, "paste").send_keys("f5d6c3d3c4f4f6f3e6e7")
        driver.find_element(By.ID, "load").click()
        WebDriverWait(driver, 30).until(lambda d: ply(d) == 10)
        Select(driver.find_element(By.ID, "human")).select_by_value("")
        driver.find_element(By.ID, "analyse").click()
        WebDriverWait(driver, 120, poll_frequency=0.05).until(lambda d: len(
            d.find_elements(By.CSS_SELECTOR, "#search-table tbody tr")) >= 6)
        shots(driver, "reversi-06-analysis-running")
        driver.find_element(By.ID, "stop").click()
        state = wait_for(driver, "search-state", "(stopped: stop)", 60)
        assert state.startswith("analysis: depth ")
        assert driver.find_element(By.ID, "stop").get_attribute("disabled") is not None
        shots(driver, "reversi-07-analysis-stopped")

        # an endgame solved exactly
        board = Board.start()
        line = "f5d6c3d3c4f4f6f3e6e7"
        for m in parse_moves(line):
            board = board.play(m)
        k = 0
        while board.empties > 14:  # a fixed walk to 14 empties
            legal = board.legal_moves()
            board = board.play(legal[k % len(legal)])
            k = 3 * k + 1
        paste = driver.find_element(By.ID, "paste")
        paste.clear()
        paste.send_keys(str(board))
        driver.find_element(By.ID, "load").click()
        wait_for(driver, "notice", "loaded a board", 30)
        driver.find_element(By.ID, "solve").click()
        result = wait_for(driver, "solve-progress", "exact:", 120)
        assert "perfect play" in result
        shots(driver, "reversi-08-endgame-solved")

        # a bad paste: the message, nothing else changes
        paste.clear()
        paste.send_keys("f5f5")
        driver.find_element(By.ID, "load").click()
        assert "pasted move list: ply 2: f5 is illegal for white" in wait_for(
            driver, "load-error", "illegal", 30)
        assert driver.find_element(By.ID, "error").get_attribute("hidden") is not None

        # a new game with the book off: the engine's first reply is a depth-1 search
        Select(driver.find_element(By.ID, "human")).select_by_value("X")
        Select(driver.find_element(By.ID, "book")).select_by_value("off")
        driver.find_element(By.ID, "new-game").click()
        WebDriverWait(driver, 30).until(lambda d: ply(d) == 0)
        click_square(driver, legal_squares(driver)[0])
        assert wait_turn(driver) == "you"
        note = text_of(driver, "engine-note")
        assert "at depth 1" in note and "book" not in note, note
    except Exception:
        shots(driver, "reversi-failure")  # what the page showed when it went wrong
        raise
    finally:
        driver.quit()
