"""The CLI's progress display: tqdm bars on a terminal, nothing otherwise."""

from __future__ import annotations

import io

from gameopt.cli.common import TerminalProgress, progress_for
from gameopt.core import Progress


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_display_unless_a_terminal() -> None:
    assert progress_for(False, io.StringIO()) is None
    assert progress_for(True, _Tty()) is None
    assert isinstance(progress_for(False, _Tty()), TerminalProgress)


def test_bars_show_task_count_best_and_info() -> None:
    out = _Tty()
    with TerminalProgress(out) as show:
        show(Progress("bnb", 0, total=10))
        show(Progress("bnb", 4, total=10, best=12.5, info={"nodes": 800}))
        show(Progress("restarts", 3, best=1.0))
        text = out.getvalue()
        assert "bnb" in text and "4/10" in text and "best=12.5" in text
        assert "nodes=800" in text and "restarts" in text
