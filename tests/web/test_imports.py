"""The web front end reaches the pairing system through one module only, and each system
page imports its own system only."""

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


def test_only_the_adapter_imports_the_pairing_package() -> None:
    found = {f.name: system_imports(f) for f in sorted(WEB.glob("*.py"))}
    assert found["_pairing.py"], "the adapter imports the pairing names"
    assert {name: mods for name, mods in found.items() if name != "_pairing.py"
            and any(m.startswith("gameopt.pairing") for m in mods)} == {}
    assert all(m == "gameopt.pairing" or m.startswith("gameopt.pairing.")
               for m in found["_pairing.py"])


def test_each_system_page_imports_its_own_system_only() -> None:
    pages = {"sudoku_page.py": "sudoku", "go_page.py": "go", "deck_page.py": "deck"}
    for name, system in pages.items():
        mods = system_imports(WEB / name)
        assert mods and {m.split(".")[1] for m in mods} == {system}, (name, mods)


def test_nothing_is_fetched_from_elsewhere() -> None:
    for f in list((WEB / "templates").rglob("*.html")) + list((WEB / "static").iterdir()):
        text = f.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, f
