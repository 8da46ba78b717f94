"""The web front end reaches each system through one module only: an adapter
(``_pairing.py``, ``_reversi.py``) or the system's page (``sudoku_page.py``, ...), and that
module imports its own system only."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "src" / "gameopt" / "web"


def system_imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return [m for m in out if m.startswith("gameopt.") and m.split(".")[1] not in
            {"web", "errors", "core"}]


#: The one module through which the web front end reaches each system (an adapter or the
#: system's page), and the system it reaches.
ADAPTERS = {"_pairing.py": "pairing", "_reversi.py": "reversi", "sudoku_page.py": "sudoku",
            "go_page.py": "go", "deck_page.py": "deck", "api_deck.py": "deck"}


def test_only_the_adapters_import_the_systems() -> None:
    found = {f.name: system_imports(f) for f in sorted(WEB.glob("*.py"))}
    assert {name: mods for name, mods in found.items() if mods and name not in ADAPTERS} == {}
    for name, system in ADAPTERS.items():
        assert found[name], f"{name} imports the {system} names"
        assert {m.split(".")[1] for m in found[name]} == {system}, (name, found[name])


def test_nothing_is_fetched_from_elsewhere() -> None:
    for f in list((WEB / "templates").rglob("*.html")) + list((WEB / "static").iterdir()):
        text = f.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, f
