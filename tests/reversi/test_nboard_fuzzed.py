"""NBoard status lines carry no raw Python exception text (issue: 'list index out of
range', 'invalid literal for int()' reached the GUI)."""

from __future__ import annotations

import logging

import pytest

from gameopt.reversi.nboard import NBoardEngine


class _BrokenBook:
    def choose(self, board: object) -> None:
        raise IndexError("list index out of range")


def test_a_search_failure_is_a_readable_status(caplog: pytest.LogCaptureFixture) -> None:
    out: list[str] = []
    engine = NBoardEngine(out.append, book=_BrokenBook())  # type: ignore[arg-type]
    engine.handle("nboard 2")
    with caplog.at_level(logging.ERROR):
        engine.handle("go")
        engine.wait_search()
    assert out[-1] == "status error: search failed (internal error, IndexError)"
    assert not any("list index" in line for line in out)
    assert "list index out of range" in caplog.text  # the details go to the log


@pytest.mark.parametrize("line", ["set depth ٣", "hint ２", "set depth 99999999999999999999",
                                  "move z9/x/y", "set game (;GM[Othello]BO[8 x];)"])
def test_odd_arguments_get_protocol_status_lines(line: str) -> None:
    out: list[str] = []
    engine = NBoardEngine(out.append)
    engine.handle(line)
    engine.stop_search()
    assert out and all(o.startswith("status error: ") for o in out)
    assert not any("Error" in o or "literal" in o or "index out" in o for o in out)
