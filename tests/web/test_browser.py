"""End to end in a real browser: a director runs a 12-player, 5-round event through the
pages while a second browser watches the public page (Chromium set-up in
:mod:`tests.web.browser`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gameopt.pairing import Tournament
from tests.web.browser import (  # skips this module without Chromium
    By,
    Select,
    WebDriverException,
    WebDriverWait,
    make_driver,
)

PLAYERS = [("Ana Costa", "POR", 1850, "Lisbon"), ("Ben Okafor", "GBR", 1820, "Leeds"),
           ("Chen Wei", "CHN", 1990, "Beijing"), ("Dana Novak", "CZE", 1700, "Brno"),
           ("Emil Berg", "SWE", 1640, "Malmo"), ("Fumi Sato", "JPN", 2050, "Tokyo"),
           ("Gita Rao", "IND", 1580, "Pune"), ("Hugo Lenz", "GER", 1760, "Bonn"),
           ("Ines Mota", "POR", 1690, "Porto"), ("Jan de Vries", "NED", 1880, "Delft"),
           ("Kofi Mensah", "GHA", 1530, "Accra"), ("Lea Martin", "FRA", 1910, "Paris")]


def discs(k: int, table: int) -> tuple[int, int]:
    black = 24 + (table * 7 + k * 5) % 17
    return black, 64 - black - (table + k) % 3


def click(driver: Any, element: Any) -> None:
    """Click ``element`` and wait for the next page to replace this one."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()

    def replaced(d: Any) -> bool:
        try:
            page.is_enabled()
            return False
        except WebDriverException:  # stale, or chromium's "node ... not in the document"
            return True

    WebDriverWait(driver, 30).until(replaced)
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def submit(driver: Any, form_id: str) -> None:
    click(driver, driver.find_element(By.CSS_SELECTOR, f"#{form_id} button"))


def wait_text(driver: Any, text: str, seconds: float = 20) -> None:
    """Wait until the page shows ``text`` (the page may reload meanwhile)."""
    def shown(d: Any) -> bool:
        try:
            return text in d.find_element(By.TAG_NAME, "body").text
        except WebDriverException:  # the page was being replaced
            return False

    WebDriverWait(driver, seconds).until(shown)


def flash(driver: Any) -> str:
    return str(driver.find_element(By.ID, "flash").text)


def test_a_whole_event_through_the_pages(server: tuple[str, Path], tmp_path: Path,
                                         shots: Callable[[Any, str], None]) -> None:
    base, data = server
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("name,id,country,rating,club\n" + "".join(
        f"{n},{i},{c},{r},{club}\n" for i, (n, c, r, club) in enumerate(PLAYERS, start=1)))
    director = make_driver(downloads)
    public = make_driver(downloads, size=(390, 844))  # a phone
    try:
        # create the tournament
        director.get(base + "/desk/")
        form = director.find_element(By.ID, "new-form")
        for name, value in (("slug", "e2e"), ("name", "Selenium Open"), ("rounds", "5"),
                            ("country", "FRA")):
            form.find_element(By.NAME, name).send_keys(value)
        Select(form.find_element(By.NAME, "preset")).select_by_value("papp")
        shots(director, "01-desk-new-tournament")
        submit(director, "new-form")
        assert "created e2e" in flash(director)

        # CSV upload, a forbidden pair
        director.find_element(By.ID, "csv-file").send_keys(str(csv_file))
        submit(director, "csv-form")
        assert "registered 12 players from players.csv" in flash(director)
        form = director.find_element(By.ID, "forbid-form")
        Select(form.find_element(By.NAME, "a")).select_by_value("6")
        Select(form.find_element(By.NAME, "b")).select_by_value("3")
        submit(director, "forbid-form")
        assert "Fumi Sato and Chen Wei will not be paired" in flash(director)
        shots(director, "02-desk-players")

        public.get(base + "/public/e2e")
        assert "not started" in public.find_element(By.TAG_NAME, "body").text

        for k in range(1, 6):
            if k == 2:  # a late entry, with a bye's worth of score
                form = director.find_element(By.ID, "add-form")
                form.find_element(By.NAME, "name").send_keys("Max Late")
                form.find_element(By.NAME, "country").send_keys("ITA")
                form.find_element(By.NAME, "rating").send_keys("1600")
                score = form.find_element(By.NAME, "score")
                score.clear()
                score.send_keys("1")
                submit(director, "add-form")
                assert "registered Max Late (id 13) from round 2" in flash(director)
            if k == 3:  # a withdrawal
                form = director.find_element(By.ID, "withdraw-form")
                Select(form.find_element(By.NAME, "player")).select_by_value("11")
                submit(director, "withdraw-form")
                assert "Kofi Mensah withdrawn from round 3" in flash(director)
            click(director, director.find_element(By.ID, "pair-button"))
            assert f"round {k} paired (exact" in flash(director)
            totals = director.find_element(By.ID, "totals").text
            assert "rematch" in totals and "float" in totals
            if k == 1:
                shots(director, "03-round1-paired-why-and-totals")
            if k == 3:  # a swap by hand: the store's warnings first, then saved
                form = director.find_element(By.ID, "change-form")
                a = Select(form.find_element(By.NAME, "a")).first_selected_option.text
                b = Select(form.find_element(By.NAME, "b")).first_selected_option.text
                submit(director, "change-form")
                assert f"Round 3: swap {a} / {b}?" in director.find_element(
                    By.TAG_NAME, "h1").text
                shots(director, "13-round3-swap-confirm")
                click(director, director.find_element(By.ID, "confirm-button"))
                assert "round 3: swap" in flash(director) and "saved" in flash(director)
            wait_text(public, f"Round {k}")  # the public page reloads by itself
            if k == 1:
                shots(public, "04-public-round1-phone")
            for field in director.find_elements(By.CSS_SELECTOR,
                                                "#results-form input[name^='b']"):
                table = int(field.get_attribute("name")[1:])
                b, w = discs(k, table)
                field.send_keys(str(b))
                director.find_element(By.NAME, f"w{table}").send_keys(str(w))
            if k == 1:
                shots(director, "05-round1-results-typed")
            click(director, director.find_element(By.ID, "save-results"))
            assert "to come" in flash(director) and ", 0 to come" in flash(director)
            if k == 1:  # correct one result
                form = director.find_element(By.ID, "correct-form")
                Select(form.find_element(By.NAME, "table")).select_by_index(0)
                form.find_element(By.NAME, "black").send_keys("20")
                form.find_element(By.NAME, "white").send_keys("44")
                click(director, form.find_element(By.ID, "correct-button"))
                assert "round 1 table 1 corrected to 20-44" in flash(director)
                shots(director, "06-round1-corrected")
            director.get(base + "/desk/e2e")

        b, w = discs(5, 1)
        wait_text(public, f"{b}–{w}")  # the last results reached the public page
        shots(public, "12-public-final-phone")
        director.get(base + "/desk/e2e/standings")
        assert "after round 5" in director.find_element(By.TAG_NAME, "h1").text
        shots(director, "07-standings")
        director.get(base + "/desk/e2e/crosstable")
        shots(director, "08-crosstable")
        director.get(base + "/desk/e2e/player?id=13")
        body = director.find_element(By.TAG_NAME, "body").text
        assert "late entry from round 2" in body and "not entered yet" in body
        shots(director, "09-player-history")
        director.get(base + "/desk/e2e/round/5/print/pairings")
        director.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        assert not director.find_element(By.CSS_SELECTOR, ".toolbar").is_displayed()
        shots(director, "10-print-pairings-round5")
        director.get(base + "/desk/e2e/round/5/print/slips")
        shots(director, "11-print-result-slips-round5")
        director.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

        director.get(base + "/desk/e2e")
        director.find_element(By.ID, "export-elo").click()
        elo = downloads / "e2e.elo"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and (
                not elo.exists() or not elo.stat().st_size
                or any(downloads.glob("*.crdownload"))):
            time.sleep(0.1)
        text = elo.read_text(encoding="utf-8")
        assert text.startswith("%%Tournament: Selenium Open")
        assert sum(line[:1].isdigit() for line in text.splitlines()) >= 5 * 5
    finally:
        director.quit()
        public.quit()

    with Tournament.open(data / "e2e.sqlite") as t:
        assert t.last_round == 5
        assert all(t.missing_results(k) == () for k in range(1, 6))
        games = t.games()
        assert all({g.black, g.white} != {"3", "6"} for g in games)
        assert not any("11" in g.players() for g in games if g.round_no >= 3)
        assert any("13" in g.players() for g in games if g.round_no == 2)
        assert (games[0].black_discs, games[0].white_discs) == (20, 44)
        assert len(t.standings()) == 13
        assert t.rounds()[2].method == "exact+manual"
