"""The desk's players sheet reader on inputs the fuzzing (benchmarks/fuzz, target
``web.players-csv``) found: each is one line now."""

from __future__ import annotations

import pytest

from gameopt.errors import InvalidInputError
from gameopt.web.events import parse_players_csv


def test_old_mac_line_ends_are_read_as_lines() -> None:
    # csv.Error "new-line character seen in unquoted field" (a traceback, a 500)
    entries, _ = parse_players_csv("name,id,country,rating\rAnn,1001,USA,1554\rBo,1002,"
                                   "FRA,1503\r", "p.csv")
    assert [e["name"] for e in entries] == ["Ann", "Bo"]
    assert entries[1]["rating"] == 1503.0


@pytest.mark.parametrize("text, match", [
    ('name\n"' + "x" * 200_000 + '"\n', r"p\.csv: not CSV \(field larger"),
    ("name,rating\nAnn,nan\n", r"p\.csv:2: rating 'nan' is not a number"),
    ("name,rating\nAnn,١٥٠٠\n", r"p\.csv:2: rating '١٥٠٠' is not a number"),
    ("name,rating\nAnn,1e999\n", r"p\.csv:2: rating '1e999' is not a number"),
])
def test_bad_sheets_are_one_line(text: str, match: str) -> None:
    with pytest.raises(InvalidInputError, match=match) as info:
        parse_players_csv(text, "p.csv")
    assert "\n" not in str(info.value)


def test_a_csrf_field_with_non_ascii_characters_is_a_403(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # found by the fuzzing (web.desk-forms, web.pages): hmac.compare_digest raised
    # TypeError on a non-ASCII str, a 500
    from starlette.testclient import TestClient

    from gameopt.web.app import create_app

    with TestClient(create_app(tmp_path), base_url="http://testserver") as client:
        client.cookies.set("gameopt_csrf", "token-1234")
        r = client.post("/desk/new", content="csrf=t\u00e6rt&slug=x".encode(),
                        headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 403
    assert "CSRF check failed" in r.text
