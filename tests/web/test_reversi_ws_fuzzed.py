"""The Othello page's WebSocket on a message the fuzzing (benchmarks/fuzz, target
``web.reversi-ws``) found: JSON nested too deeply raised RecursionError out of
``json.loads`` (only ValueError was caught), which ended the socket."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gameopt.web.app import create_app
from gameopt.web.reversi_page import Refused, decode_message


def test_deep_nesting_is_refused_as_not_json() -> None:
    with pytest.raises(Refused, match="not JSON") as info:
        decode_message('{"op": "graph", "moves": ' + "[" * 5_000 + "}")
    assert info.value.field == "op" and info.value.status == 400


def test_the_socket_answers_deep_nesting_with_an_error_and_stays_open(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client, \
            client.websocket_connect("/reversi/ws") as ws:
        ws.send_text('{"op": "graph", "moves": ' + "[" * 5_000 + "}")
        assert ws.receive_json() == {"type": "error", "status": 400, "field": "op",
                                     "message": "request: not JSON"}
        ws.send_text("[]")
        assert ws.receive_json()["field"] == "op"
