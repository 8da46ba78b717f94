"""The director's desk through its routes: each form, its checks, and stale saves."""

from __future__ import annotations

import re
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gameopt.pairing import Tournament
from gameopt.web import create_app
from tests.web.conftest import Desk, text

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _file(desk: Desk, slug: str = "open") -> Path:
    return desk.data_dir / f"{slug}.sqlite"


def _open(desk: Desk, slug: str = "open") -> Tournament:
    return Tournament.open(_file(desk, slug))


def _sheet(t: Tournament, k: int) -> dict[int, tuple[int, int]]:
    return {g.table: (40, 24) for g in t.games(k) if not g.is_bye}


def test_pages_of_an_empty_server(desk: Desk) -> None:
    assert desk.get("/").status_code == 200
    r = desk.get("/desk/")
    assert r.status_code == 200 and "New tournament" in text(r)
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    assert desk.get("/static/style.css").status_code == 200
    assert "@media print" in desk.get("/static/style.css").text


def test_create_with_preset_and_overrides(desk: Desk) -> None:
    r = desk.create("slim-open", preset="slim", overrides="p_und = [0, 100, 400]")
    assert r.status_code == 200 and r.url.path == "/desk/slim-open"
    text = (desk.data_dir / "slim-open.penalties.toml").read_text()
    assert 'preset = "slim"' in text and "p_und" in text
    with _open(desk, "slim-open") as t:
        assert t.info.name == "Test Open" and t.info.rounds == 5
    assert "Test Open" in desk.get("/desk/").text


def test_create_refuses_bad_input_and_changes_nothing(desk: Desk) -> None:
    r = desk.create("open", overrides="p_nonsense = 3")
    assert r.status_code == 400
    assert "penalty overrides: unknown key 'p_nonsense'" in text(r)
    assert 'id="error-new"' in text(r)
    r = desk.create("open", rounds="five")
    assert r.status_code == 400 and "number of rounds 'five' is not an integer" in text(r)
    r = desk.create("open", name="   ")
    assert r.status_code == 400 and "tournament name is empty" in text(r)
    assert list(desk.data_dir.iterdir()) == []
    assert desk.create("open").status_code == 200
    r = desk.create("open")
    assert r.status_code == 400 and "file exists; not overwriting it" in text(r)


def test_register_by_form_and_csv(desk: Desk) -> None:
    desk.create()
    r = desk.post("/desk/open/players", {"form": "add", "name": "Ann Lee", "country": "GBR",
                                         "rating": "1712", "club": "Leeds"})
    assert r.status_code == 200 and "registered Ann Lee (id 1)" in text(r)
    r = desk.upload_players(text="name,country,rating,club\nBo,NED,1500,Delft\nCy,,,\n")
    assert r.status_code == 200 and "registered 2 players" in text(r)
    with _open(desk) as t:
        assert [(p.id, p.name, p.country) for p in t.players()] == [
            ("1", "Ann Lee", "GBR"), ("2", "Bo", "NED"), ("3", "Cy", None)]
    page = desk.get("/desk/open").text
    assert "Leeds" in page and "Delft" in page


def test_bad_csv_registers_nobody(desk: Desk) -> None:
    desk.create()
    before = _file(desk).read_bytes()
    r = desk.upload_players(text="name,id,rating\nA,1,1500\nB,2,strong\n", name="p.csv")
    assert r.status_code == 400
    assert "p.csv:3: rating 'strong' is not a number" in text(r) and 'id="error-csv"' in text(r)
    r = desk.upload_players(text="name,id\nA,1\nB,1\n")
    assert r.status_code == 400 and "player id 1 already taken" in text(r)
    r = desk.upload_players(text="A\n", name="p.bin")
    r = desk.post("/desk/open/players/csv", {"form": "csv"},
                  files={"file": ("p.csv", b"name\n\xff\xfe", "text/csv")})
    assert r.status_code == 400 and "p.csv: not UTF-8 text" in text(r)
    with _open(desk) as t:
        assert [p.name for p in t.players()] == ["A"]
    assert before != _file(desk).read_bytes()  # only the one good upload


def test_register_form_errors_are_shown_next_to_the_form(desk: Desk) -> None:
    desk.create()
    r = desk.post("/desk/open/players", {"form": "add", "name": "X", "rating": "high"})
    assert r.status_code == 400
    assert re.search(r'id="error-add">new player: rating &#39;high&#39; is not a number',
                     r.text)
    assert re.search(r'name="rating"[^>]*></label><p class="error" role="alert" '
                     r'id="error-add">', r.text)  # next to the field
    assert 'value="X"' in text(r)  # what was typed is kept


def test_pair_round_shows_tables_why_and_totals(event: Desk) -> None:
    page = event.get("/desk/open/round/1").text
    assert page.count('<tr id="table-') == 6
    assert "Why this pairing" in page and "cost " in page
    assert 'id="totals"' in page and "rematches" in page
    with _open(event) as t:
        assert t.last_round == 1 and len(t.games(1)) == 6


def test_pair_refuses_missing_results_and_a_stale_form(event: Desk) -> None:
    r = event.pair(expect=2)
    assert r.status_code == 400 and "round 1: no result yet at table" in text(r)
    assert 'id="error-pair"' in text(r)
    r = event.pair(expect=1)
    assert r.status_code == 409 and "round 1 was paired meanwhile" in text(r)
    r = event.pair(expect=2, method="magic")
    assert r.status_code == 409 or r.status_code == 400


def test_a_round_past_the_planned_ones_needs_the_extra_round_box(desk: Desk) -> None:
    desk.create(rounds="1")
    desk.upload_players()
    assert desk.pair().status_code in (200, 303)
    with _open(desk) as t:
        sheet = _sheet(t, 1)
    desk.results("open", 1, sheet)
    page = desk.get("/desk/open").text
    assert 'name="extra_round"' in page and "the event has 1 planned" in page
    r = desk.pair(expect=2)
    assert r.status_code == 400
    assert "round 2: the event has 1 planned round; pair an extra round" in text(r)
    with _open(desk) as t:
        assert t.last_round == 1
    r = desk.post("/desk/open/pair", {"form": "pair", "expect": "2", "method": "exact",
                                      "extra_round": "on"})
    assert r.status_code in (200, 303)
    with _open(desk) as t:
        assert t.last_round == 2


def test_results_checks_and_all_or_nothing(event: Desk) -> None:
    before = _file(event).read_bytes()
    for sheet, message in [({1: (65, 0)}, "round 1 table 1: black discs 65 not in 0..64"),
                           ({1: (40, 30)}, "round 1 table 1: discs 40-30 add up to 70 > 64"),
                           ({1: (40, 24), 2: (-1, 3)}, "round 1 table 2: black discs -1 not "
                                                        "in 0..64")]:
        r = event.results("open", 1, sheet)
        assert r.status_code == 400 and message in text(r)
    r = event.post("/desk/open/round/1/results", {"form": "results", "etag":
                                                  event.etag("open", 1), "b1": "4x",
                                                  "w1": "3"})
    assert r.status_code == 400 and "round 1 table 1: black discs '4x' is not an " \
                                    "integer" in text(r)
    r = event.post("/desk/open/round/1/results", {"form": "results", "etag":
                                                  event.etag("open", 1), "b1": "40"})
    assert r.status_code == 400 and "round 1 table 1: give both disc counts" in text(r)
    assert _file(event).read_bytes() == before
    r = event.results("open", 1, {1: (40, 24), 2: (32, 32)})
    assert r.status_code == 200 and "2 results entered, 4 to come" in text(r)


def test_correct_a_result_shows_the_standings_change(event: Desk) -> None:
    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
        g = t.games(1)[0]
    r = event.post("/desk/open/round/1/correct", {"form": "correct", "etag":
                                                  event.etag("open", 1),
                                                  "table": "1@40-24", "black": "10",
                                                  "white": "54"})
    assert r.status_code == 200 and "round 1 table 1 corrected to 10-54; standings:" in text(r)
    with _open(event) as t:
        assert t.games(1)[0].white_discs == 54 and t.games(1)[0].black == g.black
    # a correction made from a page that showed the old result is refused
    r = event.post("/desk/open/round/1/correct", {"form": "correct", "etag":
                                                  event.etag("open", 1),
                                                  "table": "1@40-24", "black": "33",
                                                  "white": "31"})
    assert r.status_code == 409 and "the result was changed meanwhile (now 10-54)" in text(r)
    with _open(event) as t:
        assert t.games(1)[0].white_discs == 54


def test_stale_results_for_a_re_paired_round_are_refused(event: Desk) -> None:
    stale = event.etag("open", 1)
    with _open(event) as t:
        first = t.games(1)[0]
    r = event.post("/desk/open/round/1/delete", {"form": "delete", "etag": stale})
    assert r.status_code == 200 and "round 1 deleted" in text(r)
    event.post("/desk/open/forbid", {"form": "forbid", "a": first.black, "b": first.white})
    assert event.pair(expect=1).status_code == 200
    assert event.etag("open", 1) != stale
    before = _file(event).read_bytes()
    r = event.results("open", 1, {1: (40, 24)}, etag=stale)
    assert r.status_code == 409
    assert "round 1 was re-paired or changed since this page was loaded; nothing saved" in text(r)
    assert _file(event).read_bytes() == before
    with _open(event) as t:
        assert t.missing_results(1) == (1, 2, 3, 4, 5, 6)


def test_two_directors_entering_the_same_table(event: Desk) -> None:
    etag = event.etag("open", 1)
    assert event.results("open", 1, {3: (40, 24)}, etag=etag).status_code == 200
    r = event.results("open", 1, {3: (20, 44)}, etag=etag)
    assert r.status_code == 400 and "round 1 table 3: result already entered" in text(r)
    with _open(event) as t:
        assert t.games(1)[2].black_discs == 40


def test_swap_is_previewed_then_confirmed(event: Desk) -> None:
    with _open(event) as t:
        g1, g2 = t.games(1)[:2]
    etag = event.etag("open", 1)
    before = _file(event).read_bytes()
    form = {"form": "change", "etag": etag, "action": "swap", "a": g1.black, "b": g1.white}
    r = event.post("/desk/open/round/1/change", form)
    assert r.status_code == 200 and 'id="confirm-button"' in text(r)
    assert re.search(r'<td class="num">1</td>\s*<td>● Player \d+ – ○ Player \d+</td>',
                     text(r))
    assert _file(event).read_bytes() == before  # nothing saved yet
    r = event.post("/desk/open/round/1/change", {**form, "confirm": "yes"})
    assert r.status_code == 200 and f"swap {g1.black} / {g1.white} saved" in text(r)
    with _open(event) as t:
        g = t.games(1)[0]
        assert (g.black, g.white) == (g1.white, g1.black)
        assert t.rounds()[0].method.endswith("+manual")
    # the old etag no longer matches
    r = event.post("/desk/open/round/1/change", {**form, "confirm": "yes"})
    assert r.status_code == 409


def test_swap_preview_shows_the_store_warnings(event: Desk) -> None:
    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
    event.pair(expect=2)
    with _open(event) as t:
        x, y = t.games(2)[0].black, t.games(2)[0].white
        z = next(g.opponent(x) for g in t.games(1) if x in g.players())
    assert z != y  # the engine avoids the rematch; the swap below makes it
    before = _file(event).read_bytes()
    r = event.post("/desk/open/round/2/change", {"form": "change",
                                                 "etag": event.etag("open", 2),
                                                 "action": "swap", "a": y, "b": z})
    assert r.status_code == 200
    assert f"round 2 table 1: {x} and {z} already met in round 1" in text(r)
    assert _file(event).read_bytes() == before
    r = event.post("/desk/open/round/2/change", {"form": "change",
                                                 "etag": event.etag("open", 2),
                                                 "action": "swap", "a": x, "b": x})
    assert r.status_code == 400 and f"round 2: swapping {x} with itself" in text(r)


def test_late_entry_withdrawal_forbidden_pair(event: Desk) -> None:
    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
    r = event.post("/desk/open/players", {"form": "add", "name": "Late Comer", "id": "99",
                                          "joined_round": "2", "score": "1"})
    assert r.status_code == 200 and "registered Late Comer (id 99) from round 2" in text(r)
    r = event.post("/desk/open/players", {"form": "add", "name": "Too Much", "id": "98",
                                          "joined_round": "2", "score": "3"})
    assert r.status_code == 400 and "more than 2" in text(r)
    r = event.post("/desk/open/withdraw", {"form": "withdraw", "player": "5",
                                           "from_round": "2"})
    assert r.status_code == 200 and "Player 5 withdrawn from round 2" in text(r)
    r = event.post("/desk/open/withdraw", {"form": "withdraw", "player": "5"})
    assert r.status_code == 400 and "already withdrawn" in text(r)
    r = event.post("/desk/open/forbid", {"form": "forbid", "a": "1", "b": "2"})
    assert r.status_code == 200 and "will not be paired" in text(r)
    r = event.post("/desk/open/forbid", {"form": "forbid", "a": "1", "b": "1"})
    assert r.status_code == 400 and "forbidden pair: 1 twice" in text(r)
    assert event.pair(expect=2).status_code == 200
    with _open(event) as t:
        seated = {p for g in t.games(2) for p in g.players()}
        assert "99" in seated and "5" not in seated
        assert all({g.black, g.white} != {"1", "2"} for g in t.games(2))
    r = event.post("/desk/open/allow", {"form": "allow", "a": "1", "b": "2"})
    assert r.status_code == 200 and "forbidden pair removed" in text(r)


def test_standings_crosstable_history_print_pages(event: Desk) -> None:
    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
    for url, needle in [("/desk/open/standings", "Brightwell"),
                        ("/desk/open/standings?after=0", "after round 0"),
                        ("/desk/open/crosstable", "R1"),
                        ("/desk/open/player?id=1", "Score before"),
                        ("/desk/open/round/1/print/pairings", "Round 1 — pairings"),
                        ("/desk/open/round/1/print/slips", "Signatures"),
                        ("/desk/open/standings/print", "Standings after round 1")]:
        r = event.get(url)
        assert r.status_code == 200, url
        assert needle in text(r), url
    assert event.get("/desk/open/standings?after=7").status_code == 400
    assert event.get("/desk/open/player?id=nobody").status_code == 404
    assert event.get("/desk/open/round/2").status_code == 404
    assert event.get("/desk/open/round/1/print/nothing").status_code == 404
    cells = re.findall(r'<td class="cell">([^<]*)</td>', event.get("/desk/open/crosstable").text)
    assert len(cells) == 12 and all(re.fullmatch(r"[BW]\d+ [+-]\d+", c) for c in cells)


def test_exports_and_import_round_trip(event: Desk) -> None:
    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
    r = event.get("/desk/open/export/elo")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="open.elo"'
    assert r.text.startswith("%%Tournament: Test Open")
    for kind in ("trf", "standings.csv", "pairing.csv"):
        assert event.get(f"/desk/open/export/{kind}").status_code == 200
    assert event.get("/desk/open/export/exe").status_code == 404
    r = event.post("/desk/import", {"slug": "copy"},
                   files={"file": ("open.elo", r.content, "text/plain")})
    assert r.status_code == 200 and "imported open.elo as copy" in text(r)
    with _open(event, "copy") as c, _open(event) as t:
        assert [(g.black, g.white, g.black_discs) for g in c.games()] == [
            (g.black, g.white, g.black_discs) for g in t.games()]
    r = event.post("/desk/import", {"slug": "bad"},
                   files={"file": ("x.elo", b"%%Tournament: X\n1 (70)>(0) 2 B\n", "text/plain")})
    assert r.status_code == 400 and "x.elo" in text(r)
    assert not (event.data_dir / "bad.sqlite").exists()


def test_public_page_and_its_version(event: Desk) -> None:
    r = event.get("/public/open")
    assert r.status_code == 200 and "Round 1" in text(r) and 'name="viewport"' in text(r)
    assert "40–24" not in r.text
    s = event.get("/public/open/state")
    assert s.status_code == 200 and s.json()["version"]
    etag = s.headers["etag"]
    assert event.get("/public/open/state", headers={"If-None-Match": etag}).status_code == 304
    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
    assert "40–24" in event.get("/public/open").text  # not the page cached before
    s2 = event.get("/public/open/state", headers={"If-None-Match": etag})
    assert s2.status_code == 200 and s2.headers["etag"] != etag
    assert event.get("/public/nope/state").status_code == 404


def test_the_cli_and_the_desk_share_the_file(event: Desk) -> None:
    from gameopt.cli.main import main

    path = str(_file(event))
    with _open(event) as t:
        sheet = _sheet(t, 1)
    for table, (b, w) in sheet.items():
        assert main(["pair", "result", path, "1", "--table", str(table), str(b),
                     str(w)]) == 0
    assert main(["pair", "pair", path, "--params",
                 str(event.data_dir / "open.penalties.toml")]) == 0
    page = event.get("/desk/open/round/2")
    assert page.status_code == 200 and page.text.count('<tr id="table-') == 6


def test_two_sessions_at_once_one_save_wins(data_dir: Path) -> None:
    app = create_app(data_dir)
    with TestClient(app) as c1, TestClient(app) as c2:
        a, b = Desk(c1, data_dir), Desk(c2, data_dir)
        a.get("/desk/")
        b.get("/desk/")
        a.create()
        a.upload_players()
        a.pair()
        with _open(a) as t:
            sheet = _sheet(t, 1)
        etag = a.etag("open", 1)
        b.etag("open", 1)
        gate = threading.Barrier(2)

        def enter(desk: Desk, discs: tuple[int, int]) -> int:
            gate.wait()
            return int(desk.results("open", 1, {1: discs}, etag=etag).status_code)

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(enter, (a, b), ((40, 24), (10, 54))))
        assert codes == [200, 400]
        with _open(a) as t:
            assert (t.games(1)[0].black_discs, t.games(1)[0].white_discs) in [(40, 24),
                                                                              (10, 54)]
        a.results("open", 1, {n: v for n, v in sheet.items() if n != 1})

        def pair(desk: Desk) -> int:
            gate.wait()
            return int(desk.pair(expect=2).status_code)

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(pair, (a, b)))
        assert codes[0] == 200 and codes[1] in (400, 409)
        with _open(a) as t:
            assert t.last_round == 2 and len(t.games(2)) == 6


def test_penalties_can_be_changed_between_rounds(event: Desk) -> None:
    path = event.data_dir / "open.penalties.toml"
    before = path.read_text()
    r = event.post("/desk/open/penalties", {"form": "penalties",
                                            "penalties": 'preset = "slim"\np_rank = "x"'})
    assert r.status_code == 400 and "penalty overrides: p_rank" in text(r)
    assert 'id="error-penalties"' in r.text and path.read_text() == before
    r = event.post("/desk/open/penalties", {"form": "penalties",
                                            "penalties": 'preset = "slim"\np_rank = 3\n'})
    assert r.status_code == 200 and "penalties saved" in text(r)
    assert path.read_text() == 'preset = "slim"\np_rank = 3\n'
    assert 'p_rank = 3' in text(event.get("/desk/open"))


def test_pairing_slots_full_answers_503(event: Desk, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import threading as th

    from gameopt.web import desk as desk_module

    with _open(event) as t:
        event.results("open", 1, _sheet(t, 1))
    busy = th.BoundedSemaphore(1)
    busy.acquire()
    monkeypatch.setattr(desk_module, "_PAIRING_SLOTS", busy)
    r = event.pair(expect=2)
    assert r.status_code == 503 and r.headers["retry-after"] == "5"
    with _open(event) as t:
        assert t.last_round == 1
    busy.release()
    assert event.pair(expect=2).status_code == 200


def test_forfeits_entered_on_the_results_page_and_shown_everywhere(event: Desk) -> None:
    with _open(event) as t:
        games = [g for g in t.games(1) if not g.is_bye]
    one, two, three = games[0], games[1], games[2]
    etag = event.etag("open", 1)
    page = event.get("/desk/open/round/1").text
    assert f'name="f{one.table}"' in page and "both absent" in page
    before = _file(event).read_bytes()
    # a forfeit with discs, and an unknown choice, are refused; nothing saved
    for extra, message in [({f"b{one.table}": "40", f"w{one.table}": "24"},
                            f"round 1 table {one.table}: a forfeit has no discs"),
                           ({}, "")]:
        form = {"form": "results", "etag": etag, f"f{one.table}": "white", **extra}
        if not extra:
            form[f"f{one.table}"] = "nobody"
            message = f"round 1 table {one.table}: forfeit 'nobody': choose black, white"
        r = event.post("/desk/open/round/1/results", form)
        assert r.status_code == 400 and message in text(r)
    assert _file(event).read_bytes() == before
    r = event.post("/desk/open/round/1/results", {
        "form": "results", "etag": etag, f"f{one.table}": "white", f"f{two.table}": "both",
        f"b{three.table}": "40", f"w{three.table}": "24"})
    assert r.status_code == 200 and "1 results entered, 2 forfeits, 3 to come" in text(r)
    with _open(event) as t:
        g1, g2 = (next(g for g in t.games(1) if g.table == x.table) for x in (one, two))
        assert g1.forfeit and g1.score_of(one.black) == 2 and g1.score_of(one.white) == 0
        assert g2.forfeit and g2.score_of(two.black) == g2.score_of(two.white) == 0
    page = event.get("/desk/open/round/1").text
    row1 = page.split(f'<tr id="table-{one.table}">')[1].split("</tr>")[0]
    row2 = page.split(f'<tr id="table-{two.table}">')[1].split("</tr>")[0]
    assert "+:− forfeit" in row1 and "−:− forfeit" in row2
    assert "+:− forfeit" in event.get("/desk/open/round/1/print/pairings").text
    assert "−:− forfeit" in event.get("/public/open").text
    cross = event.get("/desk/open/crosstable").text
    assert "+F" in cross and "−F" in cross
    hist = event.get(f"/desk/open/player?id={one.white}").text
    assert "lost by forfeit" in hist
    # a forfeit is corrected to a played game with the correction form
    r = event.post("/desk/open/round/1/correct", {
        "form": "correct", "etag": event.etag("open", 1), "table": f"{one.table}@FB",
        "black": "30", "white": "34"})
    assert r.status_code == 200 and f"table {one.table} corrected to 30-34" in text(r)
    with _open(event) as t:
        assert not next(g for g in t.games(1) if g.table == one.table).forfeit


def test_unpair_the_last_round_only_while_it_has_no_result(event: Desk) -> None:
    page = event.get("/desk/open/round/1").text
    assert 'id="unpair-button"' in page and 'data-confirm="Unpair round 1?' in page
    with _open(event) as t:
        table = next(g.table for g in t.games(1) if not g.is_bye)
    assert event.results("open", 1, {table: (40, 24)}).status_code == 200
    page = event.get("/desk/open/round/1").text
    assert 'id="unpair-button"' not in page
    before = _file(event).read_bytes()
    r = event.post("/desk/open/round/1/delete", {"form": "delete",
                                                 "etag": event.etag("open", 1)})
    assert r.status_code == 400
    assert f"round 1: results already entered at table {table}" in text(r)
    assert _file(event).read_bytes() == before
    with _open(event) as t:
        assert t.last_round == 1


def test_new_events_pair_with_the_tuned_defaults_and_store_them(desk: Desk) -> None:
    from gameopt.pairing import PenaltyParams, pair_round

    r = desk.post("/desk/new", {"slug": "open", "name": "Open", "rounds": "5",
                                "overrides": ""})  # no preset chosen: the form's default
    assert r.status_code == 200
    assert 'option value="tuned" selected' in desk.get("/desk/").text
    assert (desk.data_dir / "open.penalties.toml").read_text() == 'preset = "tuned"\n'
    with _open(desk) as t:
        assert t.penalties == PenaltyParams()
    desk.create("old", preset="papp", overrides="p_bye2 = 7")
    with _open(desk, "old") as t:
        assert t.penalties == PenaltyParams.papp(p_bye2=7)
    r = desk.create("bad", preset="fide")
    assert r.status_code == 400 and "penalty preset 'fide': choose tuned, papp or slim" in \
        text(r)
    # Without its penalty file the desk pairs with the stored weights and shows them.
    (desk.data_dir / "old.penalties.toml").unlink()
    assert desk.upload_players("old").status_code == 200
    page = desk.get("/desk/old").text
    assert "p_bye2 = 7" in page and "p_colalt = 0" in page  # PAPP's, with the override
    with _open(desk, "old") as t:
        expected = pair_round(t.round_input(), PenaltyParams.papp(p_bye2=7))
    assert desk.pair("old").status_code == 200
    with _open(desk, "old") as t:
        assert [(g.black, g.white) for g in t.games(1)] == \
            [(x.black, x.white) for x in expected.tables]
