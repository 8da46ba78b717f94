"""The Othello page's routes with the test client: the page, the game API, the GGF file,
and every search over the WebSocket (lines, answers, caps, stop, a client that leaves)."""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gameopt.core import Limit, StopFlag
from gameopt.errors import InvalidInputError
from gameopt.reversi import Board, search, solve
from gameopt.reversi.board import parse_moves
from gameopt.reversi.book import DEFAULT, open_book
from gameopt.reversi.files import parse_ggf
from gameopt.web.reversi_page import ReversiLimits, Turns, routes
from tests.web.conftest import make_client, text

OPENING = "f5d6c3d3c4f4f6f3e6e7"
MUST_PASS = "OX" + "-" * 62 + "X"  # black (X) to move has no move; white has c1


@pytest.fixture
def client(data_dir: Path) -> Iterator[TestClient]:
    with make_client(data_dir) as c:
        c.get("/reversi")
        yield c


def post(client: TestClient, path: str, body: dict[str, Any], csrf: str | None = None) -> Any:
    token = client.cookies.get("gameopt_csrf") if csrf is None else csrf
    return client.post(path, json=body, headers={"X-CSRF-Token": token or ""})


def ask(ws: Any, request: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Send one request; the lines before the answer, and the answer."""
    ws.send_json(request)
    lines = []
    while True:
        m = ws.receive_json()
        if m["type"] in ("result", "error"):
            return lines, m
        lines.append(m)


def board_after(moves: str, start: Board | None = None) -> Board:
    b = start or Board.start()
    for m in parse_moves(moves, b):
        b = b.play(m)
    return b


def endgame(empties: int, seed: int = 5) -> str:
    """A move list from the start down to ``empties`` empty squares (a fixed pseudo-random
    game: the first legal move after rotating the list by ``seed``)."""
    b, out, k = Board.start(), [], seed
    while b.empties > empties:
        legal = b.legal_moves()
        m = legal[k % len(legal)]
        k = k * 7 + 3
        out.append(str(m))
        b = b.play(m)
    return "".join(out)


# ---------------------------------------------------------------------------- pages
def test_page_draws_the_start_and_loads_its_script(client: TestClient) -> None:
    r = client.get("/reversi")
    assert r.status_code == 200
    assert 'id="board"' in r.text and "/static/reversi.js" in r.text
    assert "&#34;legal&#34;: [&#34;d3&#34;, &#34;c4&#34;, &#34;f5&#34;, &#34;e6&#34;]" in r.text
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    assert client.get("/static/reversi.js").status_code == 200


def test_page_opens_a_game_from_the_address(client: TestClient) -> None:
    r = client.get("/reversi", params={"moves": "f5d6"})
    assert r.status_code == 200 and "&#34;moves&#34;: [&#34;f5&#34;, &#34;d6&#34;]" in r.text
    bad = client.get("/reversi", params={"moves": "f5a1"})
    assert bad.status_code == 400
    assert "moves: ply 2: a1 is illegal for white" in text(bad)


def test_state_lists_the_legal_moves_and_whose_turn(client: TestClient) -> None:
    r = post(client, "/reversi/api/state", {"moves": "f5 d6"})
    assert r.status_code == 200
    s = r.json()
    b = board_after("f5d6")
    assert s["legal"] == [str(m) for m in b.legal_moves()]
    assert s["side"] == "X" and s["sides"] == "XOX" and s["status"] == "black to move"
    assert s["board"] == str(b)[:64] and (s["black"], s["white"]) == b.discs()


def test_a_side_without_a_move_passes_by_itself(client: TestClient) -> None:
    s = post(client, "/reversi/api/state", {"start": MUST_PASS, "moves": ""}).json()
    assert s["moves"] == ["PS"] and s["side"] == "O" and s["legal"] == ["c1"]
    assert s["notice"] == "black has no legal move and passes"
    # and the pass is implied in a move list that goes on
    s = post(client, "/reversi/api/state", {"start": MUST_PASS, "moves": "c1"}).json()
    assert s["moves"] == ["PS", "c1"] and s["over"]
    assert s["result"] == -64  # the empty squares go to the winner
    assert s["status"] == "white wins by 64 (0-3): game over"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"moves": "f5a1"}, "moves", "moves: ply 2: a1 is illegal for white"),
    ({"moves": "f5zz"}, "moves", "moves: ply 2: 'zz' is not a move"),
    ({"start": "X" * 30}, "start", "start position: 30 characters, expected 64 squares"),
    ({"start": "Q" * 64 + "X"}, "start", "start position: unknown character 'Q' at square a1"),
    ({"moves": 5}, "moves", "moves: expected text, got int"),
])
def test_bad_games_get_400_naming_the_field(client: TestClient, body: dict[str, Any],
                                            field: str, message: str) -> None:
    r = post(client, "/reversi/api/state", body)
    assert r.status_code == 400
    assert r.json()["field"] == field and r.json()["error"].startswith(message)


def test_the_game_api_checks_the_csrf_token(client: TestClient) -> None:
    r = post(client, "/reversi/api/state", {"moves": "f5"}, csrf="forged-token-123456789")
    assert r.status_code == 403 and "CSRF" in r.json()["error"]
    r = client.post("/reversi/api/state", content=b"{}")
    assert r.status_code == 403


def test_load_reads_ggf_boards_and_move_lists(client: TestClient) -> None:
    ggf = "(;GM[Othello]PB[a]PW[b]BO[8 " + " ".join(
        ["--------"] * 3 + ["---O*---", "---*O---"] + ["--------"] * 3) + " *]B[F5]W[D6];)"
    s = post(client, "/reversi/api/load", {"text": ggf}).json()
    assert s["format"] == "GGF" and s["moves"] == ["f5", "d6"]
    s = post(client, "/reversi/api/load", {"text": str(board_after("f5d6c3"))}).json()
    assert s["format"] == "board" and s["moves"] == [] and s["side"] == "O"
    assert s["board"] == str(board_after("f5d6c3"))[:64]
    s = post(client, "/reversi/api/load", {"text": " f5 d6 c3 "}).json()
    assert s["format"] == "move list" and s["moves"] == ["f5", "d6", "c3"]


@pytest.mark.parametrize(("pasted", "message"), [
    ("", "pasted game: empty"),
    ("f5d6zz", "pasted move list: ply 3: 'zz' is not a move"),
    ("f5f5", "pasted move list: ply 2: f5 is illegal for white"),
    ("(;GM[Othello]B[F5];)", "pasted GGF: game 1 (line 1): no BO[...] start position"),
    ("(;GM[Othello]BO[8 " + "-" * 64 + " *]B[F5]", "pasted GGF: game 1 (line 1): line 1: "
     "expected a property or ';)', found the end"),
    ("X" * 64 + "Z", "pasted board: side to move 'Z' is not X or O"),
])
def test_malformed_pasted_games_get_400(client: TestClient, pasted: str, message: str) -> None:
    r = post(client, "/reversi/api/load", {"text": pasted})
    assert r.status_code == 400, r.text
    assert r.json()["field"] == "text" and r.json()["error"].startswith(message), r.json()


def test_save_as_ggf_reads_back_to_the_same_game(client: TestClient) -> None:
    r = client.get("/reversi/game.ggf", params={"moves": OPENING, "black": "you",
                                                "white": "gameopt depth 1",
                                                "evals": ",".join(["0.5"] * 10)})
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="gameopt-othello.ggf"'
    (game,) = parse_ggf(r.text)
    assert [str(m) for m in game.moves] == [str(m) for m in parse_moves(OPENING)]
    assert game.tags["PB"] == "you" and game.tags["PW"] == "gameopt depth 1"
    assert game.evals == (0.5,) * 10
    bad = client.get("/reversi/game.ggf", params={"moves": "f5", "evals": "1,2"})
    assert bad.status_code == 400 and "evals: 2 values for 1 moves" in text(bad)


def test_a_finished_game_is_saved_with_its_result(client: TestClient) -> None:
    r = client.get("/reversi/game.ggf", params={"start": MUST_PASS, "moves": "PS c1"})
    (game,) = parse_ggf(r.text)
    assert game.tags["RE"] == "-64" and game.result == -64


# ---------------------------------------------------------------------------- searches
def test_hint_values_every_move_by_a_search_below_it(client: TestClient) -> None:
    b = board_after(OPENING)
    with client.websocket_connect("/reversi/ws") as ws:
        lines, answer = ask(ws, {"op": "hint", "moves": OPENING, "depth": 4, "top": 3})
    assert answer["type"] == "result" and not answer["stopped"]
    assert sorted(x["move"] for x in lines) == sorted(str(m) for m in b.legal_moves())
    assert [x["done"] for x in lines] == list(range(1, len(lines) + 1))
    for x in lines:
        r = search(b.play(parse_moves(x["move"], b)[0]), Limit(depth=3))
        assert x["score"] == -r.score and x["depth"] == 4
    best = sorted(lines, key=lambda x: -x["score"])[:3]
    assert [m["move"] for m in answer["moves"]] == [x["move"] for x in best]


def test_analyse_streams_one_line_per_depth(client: TestClient) -> None:
    b = board_after(OPENING)
    with client.websocket_connect("/reversi/ws") as ws:
        lines, answer = ask(ws, {"op": "analyse", "moves": OPENING, "depth": 5})
    assert [x["type"] for x in lines] == ["search"] * 5
    assert [x["depth"] for x in lines] == [1, 2, 3, 4, 5]
    assert all(x["nodes"] > 0 and x["nps"] >= 0 and x["pv"].startswith(x["move"])
               for x in lines)
    r = search(b, Limit(depth=5))
    assert (answer["best"]["move"], answer["best"]["score"]) == (str(r.move), r.score)
    assert answer["best"]["pv"] == r.pv_string() and not answer["stopped"]


def test_the_engine_replies_at_its_level(client: TestClient) -> None:
    b = board_after(OPENING)
    with client.websocket_connect("/reversi/ws") as ws:
        lines, answer = ask(ws, {"op": "reply", "moves": OPENING, "depth": 3, "book": False})
        assert answer["move"] == str(search(b, Limit(depth=3)).move)
        assert [x["depth"] for x in lines] == [1, 2, 3]
        _, timed = ask(ws, {"op": "reply", "moves": OPENING, "time": 0.2, "book": False})
        assert parse_moves(timed["move"], b) and not timed["stopped"]


def test_the_engine_replies_from_the_shipped_book_while_it_can(client: TestClient) -> None:
    book = open_book(DEFAULT)
    b = board_after("f5")
    values = book.lookup(b)
    best = max(values, key=lambda m: (values[m], -m.square))
    with client.websocket_connect("/reversi/ws") as ws:
        lines, answer = ask(ws, {"op": "reply", "moves": "f5", "depth": 6})
        assert not lines and answer["book"] and answer["nodes"] == 0
        assert (answer["move"], answer["score"]) == (str(best), values[best])
        assert answer["note"] == f"book move ({values[best]:+.2f}; the book values " \
                                 f"{len(values)} moves here)"
        # variety: any book move within that many discs of the best, drawn at random
        good = {m for m, v in values.items() if v >= values[best] - 8}
        assert len(good) >= 2
        drawn = set()
        for _ in range(16):
            _, varied = ask(ws, {"op": "reply", "moves": "f5", "time": 0.1, "variety": 8})
            m = parse_moves(varied["move"], b)[0]
            assert varied["book"] and m in good
            drawn.add(m)
        assert len(drawn) >= 2  # (all 16 alike by chance: at most 2**-15)
        # off: the engine searches
        lines, searched = ask(ws, {"op": "reply", "moves": "f5", "depth": 3, "book": False})
        assert "book" not in searched and [x["depth"] for x in lines] == [1, 2, 3]
        assert searched["move"] == str(search(b, Limit(depth=3)).move)
        # out of the book (20 moves in; the book's last positions come after 11): a search
        deep = endgame(40)
        assert not book.lookup(board_after(deep))
        _, out = ask(ws, {"op": "reply", "moves": deep, "depth": 2})
        assert "book" not in out and out["nodes"] > 0


def test_solve_gives_the_exact_score_with_progress(client: TestClient) -> None:
    moves = endgame(12)
    b = board_after(moves)
    with client.websocket_connect("/reversi/ws") as ws:
        lines, answer = ask(ws, {"op": "solve", "moves": moves})
    exact = solve(b)
    assert answer["exact"] and answer["score"] == exact.score and answer["empties"] == 12
    assert lines and all(x["type"] == "solve" and 1 <= x["done"] <= x["total"] for x in lines)


def test_graph_values_every_position_for_black(client: TestClient) -> None:
    moves = endgame(8, seed=2)
    with client.websocket_connect("/reversi/ws") as ws:
        lines, answer = ask(ws, {"op": "graph", "moves": moves, "depth": 2})
    n = len(parse_moves(moves))
    assert [x["ply"] for x in lines] == list(range(n + 1)) == [p["ply"] for p in answer["points"]]
    b = board_after(moves)
    last = answer["points"][-1]
    r = search(b, Limit(depth=2))
    assert last["black"] == (r.score if b.side == "X" else -r.score)
    assert last["exact"] == r.exact


@pytest.mark.parametrize(("request_", "status", "field", "message"), [
    ({"op": "hint", "moves": "f5a1"}, 400, "moves", "moves: ply 2: a1 is illegal for white"),
    ({"op": "hint", "start": "X" * 64}, 400, "start", "start position: the side to move"),
    ({"op": "hint", "depth": 0}, 400, "depth", "depth 0: expected 1..20"),
    ({"op": "analyse", "depth": 99}, 400, "depth", "depth 99: expected 1..20 (this server's cap"),
    ({"op": "hint", "depth": "deep"}, 400, "depth", "depth 'deep': not a whole number"),
    ({"op": "hint", "depth": 2.5}, 400, "depth", "depth 2.5: not a whole number"),
    ({"op": "reply", "time": -1}, 400, "time", "time -1: expected 0.05..60 seconds"),
    ({"op": "reply", "time": "nan"}, 400, "time", "time 'nan': expected 0.05..60"),
    ({"op": "reply", "time": 3600}, 400, "time", "time 3600: expected 0.05..60 seconds"),
    ({"op": "explode"}, 400, "op", "op 'explode': expected one of reply, hint"),
    ({"op": "reply", "book": "yes"}, 400, "book", "book 'yes': expected true or false"),
    ({"op": "reply", "variety": -1}, 400, "variety", "variety -1: expected 0..8 discs"),
    ({"op": "reply", "variety": "lots"}, 400, "variety", "variety 'lots': not a number"),
    ({"op": "reply", "variety": True}, 400, "variety", "variety True: expected 0..8 discs"),
    ({"op": "reply", "variety": 10**400}, 400, "variety", "variety 10000000000000000000000000"),
    ({"op": "reply", "time": 10**400}, 400, "time", "time 1000000000000000000000000000000"),
    ({"op": "hint", "depth": "\u00b2"}, 400, "depth", "depth '\u00b2': not a whole number"),
    ({"op": "reply", "book": "x" * 3000}, 400, "book", "book 'xxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ({"op": "solve"}, 400, "moves", "exact solve of 60 empty squares: this server solves at "
                                    "most 24"),
    ({"op": "hint", "start": MUST_PASS, "moves": "PS c1"}, 400, "moves",
     "the game is over: nothing to search"),
    ({"op": "graph", "depth": 12}, 400, "depth", "depth 12: the evaluation graph searches "
                                                 "at most 8"),
])
def test_bad_search_requests_get_a_one_line_4xx(client: TestClient, request_: dict[str, Any],
                                                status: int, field: str, message: str) -> None:
    with client.websocket_connect("/reversi/ws") as ws:
        _, answer = ask(ws, request_)
        assert answer["type"] == "error" and answer["status"] == status
        assert answer["field"] == field and answer["message"].startswith(message), answer
        assert "\n" not in answer["message"] and len(answer["message"]) <= 200
        ws.send_text("not json")
        assert ws.receive_json()["message"] == "request: not JSON"
        _, ok = ask(ws, {"op": "hint", "moves": OPENING, "depth": 1})  # the socket still works
        assert ok["type"] == "result"
    assert client.get("/reversi/api/status").json()["running"] == 0


def wait_idle(client: TestClient, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        s = client.get("/reversi/api/status").json()
        if s["running"] == 0 and s["waiting"] == 0 or time.monotonic() > deadline:
            return s
        time.sleep(0.05)


def test_stop_ends_an_analysis_with_its_best_so_far(client: TestClient) -> None:
    with client.websocket_connect("/reversi/ws") as ws:
        ws.send_json({"op": "analyse", "moves": "f5", "depth": 20})
        first = ws.receive_json()
        assert first["type"] == "search" and first["depth"] == 1
        _, busy = ask(ws, {"op": "hint", "moves": "f5"})
        assert busy["status"] == 429 and "already running" in busy["message"]
        ws.send_json({"op": "stop"})
        while (m := ws.receive_json())["type"] == "search":
            pass
        assert m["type"] == "result" and m["stopped"] and m["why"] == "stop"
        assert m["best"]["depth"] >= 1
    assert wait_idle(client)["stopped_stop"] == 1


def test_a_client_that_leaves_stops_its_search(client: TestClient) -> None:
    with client.websocket_connect("/reversi/ws") as ws:
        ws.send_json({"op": "analyse", "moves": "f5", "depth": 20})
        assert ws.receive_json()["type"] == "search"
        assert client.get("/reversi/api/status").json()["running"] == 1
    s = wait_idle(client)
    assert s["running"] == 0 and s["stopped_disconnect"] == 1 and s["finished"] == 1


@pytest.fixture
def small() -> Iterator[TestClient]:
    """The routes alone, with one search at a time and none waiting."""
    app = Starlette(routes=routes(ReversiLimits(searches=1, waiting=0)))
    with TestClient(app) as c:
        yield c


def test_over_the_concurrency_cap_a_search_gets_503(small: TestClient) -> None:
    with small.websocket_connect("/reversi/ws") as a, \
            small.websocket_connect("/reversi/ws") as b:
        a.send_json({"op": "analyse", "moves": "f5", "depth": 20})
        assert a.receive_json()["type"] == "search"
        _, refused = ask(b, {"op": "hint", "moves": "f5", "depth": 2})
        assert refused["status"] == 503 and "the server is busy: 1 searches in progress" in \
            refused["message"]
        a.send_json({"op": "stop"})
        while a.receive_json()["type"] != "result":
            pass
        _, ok = ask(b, {"op": "hint", "moves": "f5", "depth": 2})
        assert ok["type"] == "result"
    assert small.get("/reversi/api/status").json()["refused"] == 1


def test_another_sites_page_cannot_open_the_socket(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as e, client.websocket_connect(
            "/reversi/ws", headers={"origin": "http://evil.example"}):
        pass
    assert e.value.code == 1008
    with client.websocket_connect("/reversi/ws", headers={"origin": "http://testserver"}) as ws:
        assert ask(ws, {"op": "hint", "moves": OPENING, "depth": 1})[1]["type"] == "result"


def test_the_pool_is_sized_from_the_environment() -> None:
    limits = ReversiLimits.from_env({"GAMEOPT_REVERSI_SEARCHES": "4",
                                     "GAMEOPT_REVERSI_WAITING": "0"})
    assert (limits.searches, limits.waiting) == (4, 0)
    assert ReversiLimits.from_env({}) == ReversiLimits()
    with pytest.raises(InvalidInputError, match=r"\$GAMEOPT_REVERSI_SEARCHES 'many': "
                                                r"expected a whole number 1..64"):
        ReversiLimits.from_env({"GAMEOPT_REVERSI_SEARCHES": "many"})
    with pytest.raises(InvalidInputError, match=r"\$GAMEOPT_REVERSI_SEARCHES 0"):
        ReversiLimits.from_env({"GAMEOPT_REVERSI_SEARCHES": "0"})


def test_turns_go_in_arrival_order_and_a_stopped_job_leaves_the_queue() -> None:
    turns = Turns(1)
    order: list[str] = []
    flags = {name: StopFlag() for name in "BCD"}

    def job(name: str) -> None:
        with turns.take(flags[name]):
            order.append(name)

    def queued(n: int) -> None:
        deadline = time.monotonic() + 10
        while len(turns.queue) < n and time.monotonic() < deadline:
            time.sleep(0.005)
        assert len(turns.queue) == n

    threads = {name: threading.Thread(target=job, args=(name,)) for name in "BCD"}
    with turns.take(StopFlag()):
        for k, name in enumerate("BCD", 1):
            threads[name].start()
            queued(k)
        flags["D"].set()  # D gives up waiting and runs at once, without a turn
        threads["D"].join(10)
        assert order == ["D"] and list(turns.queue) != [] and turns.held == 1
    for name in "BC":
        threads[name].join(10)
    assert order == ["D", "B", "C"] and turns.held == 0 and turns.free == 1


def test_an_oversized_request_gets_413(client: TestClient) -> None:
    with client.websocket_connect("/reversi/ws") as ws:
        _, answer = ask(ws, {"op": "hint", "moves": "f5" * 60_000})
        assert answer["status"] == 413 and answer["message"] == \
            "request: 120,024 characters, at most 100,000"


def test_with_a_token_the_socket_wants_the_directors_login(data_dir: Path) -> None:
    with make_client(data_dir, token="secret-token-1") as c:
        with pytest.raises(WebSocketDisconnect) as e, c.websocket_connect("/reversi/ws"):
            pass
        assert e.value.code == 1008
        c.get("/login")
        c.post("/login", data={"token": "secret-token-1", "next": "/reversi",
                               "csrf": c.cookies.get("gameopt_csrf", "")})
        with c.websocket_connect("/reversi/ws") as ws:
            assert ask(ws, {"op": "hint", "moves": OPENING, "depth": 1})[1]["type"] == "result"


def test_stop_during_the_engines_reply_plays_its_best_move_so_far(client: TestClient) -> None:
    with client.websocket_connect("/reversi/ws") as ws:
        ws.send_json({"op": "reply", "moves": "f5", "depth": 20, "book": False})
        assert ws.receive_json()["type"] == "search"
        ws.send_json({"op": "stop"})
        while (m := ws.receive_json())["type"] == "search":
            pass
    assert m["type"] == "result" and m["stopped"] and m["why"] == "stop"
    assert board_after("f5").is_legal(parse_moves(m["move"], board_after("f5"))[0])
