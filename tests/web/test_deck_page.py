"""The deck page through its routes: uploaded data, a build with a must-include piece and a
leader, the explanation, infeasible rules and bad input."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from gameopt.deck import Rules, load_data, solve, to_problem
from tests.web.conftest import Desk, text

ATTRS = ("god", "demon", "dragon")
#: 24 piece kinds of 22 characters (101/102 and 103/104 are evolved forms of one).
POOL = "id,name,character,attribute,cost,rarity\n" + "".join(
    f"{100 + i},piece{i},{min(i, i - 1 if i in (2, 4) else i)},{ATTRS[i % 3]},"
    f"{5 + (i * 7) % 11},C\n" for i in range(1, 25))
#: Pieces 101..122 owned (123 and 124 not).
COLLECTION = "id\n" + "".join(f"{100 + i}\n" for i in range(1, 23))
SCORES = "a,b,score\n" + "".join(
    f"{100 + i},{100 + j},{((i * j) % 7) - 1.5}\n"
    for i in range(1, 25) for j in range(i + 1, 25) if (i + j) % 3)


def _files(**override: str) -> dict[str, Any]:
    texts = {"pool": POOL, "collection": COLLECTION, "scores": SCORES, **override}
    return {k: (f"my-{k}.csv", v.encode(), "text/csv") for k, v in texts.items()}


@pytest.fixture
def uploaded(desk: Desk) -> tuple[Desk, str]:
    r = desk.post("/deck/data", {}, files=_files())
    assert r.status_code == 200, text(r)
    assert r.url.path == "/deck" and "loaded 24 pieces, 22 owned" in text(r)
    assert "uploaded my-pool.csv, my-collection.csv, my-scores.csv" in text(r)
    return desk, r.url.params["data"]


def _build(desk: Desk, key: str, **fields: Any) -> Any:
    form = {"data": key, "cost": "200", "attribute": "", "attribute_min": "0",
            "char_limit": "1", "method": "vds", "seconds": "5", **fields}
    return desk.post("/deck/build", form)


def _library_deck(tmp_path: Path, rules: Rules) -> float:
    for name, body in (("pool", POOL), ("collection", COLLECTION), ("scores", SCORES)):
        (tmp_path / f"{name}.csv").write_text(body)
    pool, collection, scores = load_data(tmp_path / "pool.csv", tmp_path / "collection.csv",
                                         tmp_path / "scores.csv")
    problem, _ = to_problem(pool, collection, rules, scores)
    return solve(problem, "vds", seed=0).score


def test_a_deck_with_a_must_include_piece_and_a_leader(uploaded: tuple[Desk, str],
                                                       tmp_path: Path) -> None:
    desk, key = uploaded
    r = _build(desk, key, must=["107", "111"], leader="105", attribute="dragon",
               attribute_min="4", cost="160")
    assert r.status_code == 200, text(r)
    page = text(r)
    score = float(re.search(r"<strong>Score (-?[\d.]+)</strong>", page).group(1))  # type: ignore[union-attr]
    want = _library_deck(tmp_path, Rules(cost_cap=160, attribute="dragon", attribute_min=4,
                                         must=(107, 111), leader=105))
    assert score == pytest.approx(want, abs=1e-3)
    table = re.search(r'<table class="grid" id="deck-table">(.*?)</table>', r.text, re.S)
    assert table
    rows = re.findall(r"<tr( class=\"\w+\")?><td>(\d+)</td>", table.group(1))
    ids = [int(pid) for _, pid in rows]
    assert len(ids) == 16 and ids[0] == 105 and {107, 111} <= set(ids)
    assert dict((int(pid), cls) for cls, pid in rows)[107] == ' class="must"'
    shares = [float(x) for x in re.findall(r'<td class="num share">(-?[\d.]+)</td>',
                                        table.group(1))]
    assert sum(shares) == pytest.approx(score, abs=0.01)  # leader's share + pieces' shares
    assert "The leader <strong>piece5</strong> adds" in r.text
    explanation = re.search(r'<ul id="explanation">(.*?)</ul>', page, re.S)
    assert explanation
    assert "Rule <strong>must-include</strong> (" in explanation.group(1)  # its usage: deck/explain
    assert "Rule <strong>attribute minimum</strong>" in explanation.group(1)
    assert re.search(r'<figure class="plot" id="deck-chart"><svg', r.text)
    assert r.text.count("<rect") == 16  # a bar per piece (15) and one for the leader
    # the form keeps the rules
    assert '<option value="107" selected>' in r.text and '<option value="105" selected>' in r.text


def test_infeasible_rules_get_the_reason(uploaded: tuple[Desk, str]) -> None:
    desk, key = uploaded
    r = _build(desk, key, cost="20")
    assert r.status_code == 422
    assert re.search(r'id="error-rules">rules: the cheapest 16 pieces cost \d+ &gt; cap 20',
                     r.text)
    r = _build(desk, key, attribute="god", attribute_min="12")
    assert r.status_code == 422 and "pieces with the attribute" in text(r)


@pytest.mark.parametrize(("fields", "message", "where"), [
    ({"must": ["123"]}, "must: piece 123 is not in the collection", "must"),
    ({"must": ["1x"]}, "must: '1x' is not a piece id", "must"),
    ({"leader": "124"}, "leader: piece 124 is not in the collection", "leader"),
    ({"cost": "lots"}, "cost: cost cap 'lots' is not an integer", "cost"),
    ({"cost": "-5"}, "cost", "cost"),
    ({"attribute": "angel"}, "attribute: 'angel' is not one of", "attribute"),
    ({"char_limit": "0"}, "char_limit: 0 must be at least 1", "char"),
    ({"method": "magic"}, "method: 'magic' is not one of", "rules"),
    ({"seconds": "0"}, "seconds: 0 is outside 0..60", "rules"),
])
def test_bad_rules_are_a_400_naming_the_field(uploaded: tuple[Desk, str],
                                              fields: dict[str, Any], message: str,
                                              where: str) -> None:
    desk, key = uploaded
    r = _build(desk, key, **fields)
    assert r.status_code == 400
    assert message in text(r) and f'id="error-{where}"' in r.text


def test_a_bad_upload_names_the_file_and_keeps_nothing(desk: Desk) -> None:
    r = desk.post("/deck/data", {}, files=_files(collection="id\n101\n999\n"))
    assert r.status_code == 400
    assert "my-collection.csv" in text(r) and "unknown piece id 999" in text(r)
    assert "gameopt-deck-" not in r.text  # not the temporary copy's path
    files = _files()
    del files["scores"]
    r = desk.post("/deck/data", {}, files=files)
    assert r.status_code == 400 and "scores: no file chosen" in text(r)


def test_a_forgotten_data_set(desk: Desk) -> None:
    r = desk.get("/deck?data=nothing-here")
    assert r.status_code == 404 and "set 'nothing-here' is gone" in text(r)
    r = _build(desk, "nothing-here")
    assert r.status_code == 400 and "set 'nothing-here' is gone" in text(r)


def test_the_synthetic_data_by_default(desk: Desk) -> None:
    r = desk.get("/deck")
    assert r.status_code == 200
    assert "the embedded synthetic data (seed 0)" in text(r)
    must = re.search(r'<select name="must".*?</select>', r.text, re.S)
    assert must and must.group(0).count("<option") == 2000  # the owned pieces


@pytest.mark.parametrize("method", ["tabu", "greedy", "hc"])
def test_methods_below_vds_are_not_offered_for_decks(uploaded: tuple[Desk, str],
                                                     method: str) -> None:
    desk, key = uploaded
    r = _build(desk, key, method=method, must=["103"], seconds="10")
    assert r.status_code == 400 and f"method: {method!r} is not one of" in text(r)


@pytest.mark.parametrize("method", ["vds", "exact", "bnb"])
def test_every_method_builds_a_deck(uploaded: tuple[Desk, str], method: str) -> None:
    desk, key = uploaded
    r = _build(desk, key, method=method, must=["103"], seconds="10")
    assert r.status_code == 200, text(r)
    assert f"{method} in" in text(r) and 'id="explanation"' in r.text
    if method in ("exact", "bnb"):
        assert "proven optimal" in text(r)
