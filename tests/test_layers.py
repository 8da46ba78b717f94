"""The dependency direction of STYLE.md, convention 1, checked on the package source."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "gameopt"
BASE = {"errors", "_version", "_numba_cache", "__init__", "py"}
CORE = {"core"}
ENGINES = {"localsearch", "gametree", "ip"}
SYSTEMS = {"deck", "reversi", "pairing", "go", "sudoku"}
FRONTS = {"cli", "server", "web", "__main__"}


def allowed(src: str, dst: str) -> bool:
    if src == dst or dst in BASE:
        return True
    if dst in FRONTS:
        return False  # nothing imports a front end
    if src in FRONTS or src == "__init__":
        return True
    if src in CORE:
        return False
    if src in ENGINES:
        return dst in CORE
    if src in SYSTEMS:
        return dst in CORE or dst in ENGINES
    return False  # an unknown top-level module must be placed in a layer first


def imports_of(path: Path) -> list[tuple[int, str]]:
    rel = path.relative_to(PKG)
    pkgpath = ["gameopt", *rel.parts[:-1]]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkgpath[: len(pkgpath) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
                out += [(node.lineno, mod if node.module else f"{mod}.{a.name}")
                        for a in node.names]
            elif node.module == "gameopt":
                out += [(node.lineno, f"gameopt.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, node.module or ""))
    return out


def violations() -> list[str]:
    bad = []
    for f in sorted(PKG.rglob("*.py")):
        src = f.relative_to(PKG).parts[0].removesuffix(".py")
        for lineno, mod in imports_of(f):
            parts = mod.split(".")
            if parts[0] != "gameopt":
                continue
            dst = parts[1] if len(parts) > 1 else "__init__"
            if not allowed(src, dst):
                bad.append(f"{f.relative_to(PKG)}:{lineno}: {src} imports {dst}")
    return bad


def test_import_direction() -> None:
    assert violations() == []


def test_rule_catches_a_bad_import() -> None:
    assert not allowed("core", "sudoku")
    assert not allowed("localsearch", "sudoku")
    assert not allowed("sudoku", "reversi")
    assert not allowed("sudoku", "cli")
    assert allowed("sudoku", "localsearch") and allowed("cli", "sudoku")


def test_every_top_level_module_has_a_layer() -> None:
    tops = {p.name.removesuffix(".py") for p in PKG.iterdir()
            if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())}
    assert tops <= BASE | CORE | ENGINES | SYSTEMS | FRONTS | {"py"}, tops


# python-chess's rule inside the Othello package: the protocol add-ons that talk to other
# programs are used by the match runner and front ends, never by the game state, files,
# book or search, directly or through another module.
REVERSI_ADDONS = {"external", "nboard"}
REVERSI_USERS = {"match", "play"}  # may use the add-ons (play through match)


def reversi_graph() -> dict[str, set[str]]:
    """Module of ``gameopt/reversi`` -> the modules of that package it imports."""
    graph: dict[str, set[str]] = {}
    for f in sorted((PKG / "reversi").glob("*.py")):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level == 1:
                    mod = "gameopt.reversi" + ("." + mod if mod else "")
                if mod == "gameopt.reversi":
                    deps |= {a.name for a in node.names}
                elif mod.startswith("gameopt.reversi."):
                    deps.add(mod.split(".")[2])
            elif isinstance(node, ast.Import):
                deps |= {a.name.split(".")[2] for a in node.names
                         if a.name.startswith("gameopt.reversi.")}
        graph[f.stem] = deps
    return graph


def addon_violations(graph: dict[str, set[str]]) -> list[str]:
    """Modules outside the add-ons and their users that reach an add-on."""
    bad = []
    for start in sorted(set(graph) - REVERSI_ADDONS - REVERSI_USERS):
        seen, todo = set(), [start]
        while todo:
            for dep in graph.get(todo.pop(), set()) - seen:
                seen.add(dep)
                todo.append(dep)
        if seen & REVERSI_ADDONS:
            bad.append(f"reversi.{start} reaches {sorted(seen & REVERSI_ADDONS)}")
    return bad


def test_reversi_core_does_not_import_its_add_ons() -> None:
    graph = reversi_graph()
    assert "external" in graph["match"] and "board" in graph["search"]  # the graph is read
    assert addon_violations(graph) == []


def test_add_on_rule_catches_an_indirect_import() -> None:
    graph = {"board": {"_bitboard"}, "book": {"search"}, "search": {"nboard"}, "nboard": set(),
             "match": {"external"}, "external": {"board"}}
    assert addon_violations(graph) == ["reversi.book reaches ['nboard']",
                                       "reversi.search reaches ['nboard']"]
