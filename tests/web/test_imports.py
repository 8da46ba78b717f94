"""The web front end reaches the pairing system through one module only."""

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


#: The one module through which the web front end reaches each system.
ADAPTERS = {"_pairing.py": "gameopt.pairing", "api_deck.py": "gameopt.deck"}


def test_only_the_adapter_imports_the_pairing_package() -> None:
    found = {f.name: system_imports(f) for f in sorted(WEB.glob("*.py"))}
    for adapter, system in ADAPTERS.items():
        assert found[adapter], f"the adapter {adapter} imports the {system} names"
        assert all(m == system or m.startswith(system + ".") for m in found[adapter])
    assert {name: mods for name, mods in found.items() if mods and name not in ADAPTERS} == {}


def test_nothing_is_fetched_from_elsewhere() -> None:
    for f in list((WEB / "templates").rglob("*.html")) + list((WEB / "static").iterdir()):
        text = f.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, f
