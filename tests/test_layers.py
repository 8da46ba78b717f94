"""The dependency direction of STYLE.md, convention 1, checked on the package source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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


# Front ends (cli/, a future web/ or server/, and the scripts of benchmarks/) call each
# system's public API only: no private module (``gameopt.reversi._bitboard``) and no private
# name (``from gameopt.go import _dp_kernel``, ``from gameopt.x.y import _helper``). A front
# end's own private modules (``gameopt.cli._x`` from ``cli``) are its business.
ROOT = PKG.parents[1]


def is_private(dotted: str) -> bool:
    """A part after ``gameopt`` starts with ``_`` (dunders such as ``__version__`` excepted)."""
    return any(p.startswith("_") and not p.endswith("__") for p in dotted.split(".")[1:])


def imported_names(source: str, pkgpath: list[str]) -> list[tuple[int, str]]:
    """Every module or name an import statement binds, as a dotted path from ``gameopt``:
    ``from gameopt.go import _dp_kernel`` gives ``gameopt.go._dp_kernel``. Relative imports
    are resolved against ``pkgpath`` (the importing module's package)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkgpath[: len(pkgpath) - node.level + 1]
                                + ([node.module] if node.module else []))
            out += [(node.lineno, f"{base}.{a.name}") for a in node.names if a.name != "*"]
    return out


def private_attributes(source: str, pkgpath: list[str]) -> list[tuple[int, str]]:
    """``x._name`` where ``x`` is bound by an import from gameopt (``import gameopt.reversi
    as r; r._bitboard``, ``from gameopt.go import Board; Board(9)._cells``), as
    (line, dotted path of the import + ``._name``)."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bound[a.asname or a.name.split(".")[0]] = a.name if a.asname else \
                    a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            names = [a for a in node.names if a.name != "*"]
            for (_, dotted), a in zip(imported_names(ast.unparse(node), pkgpath), names,
                                      strict=True):
                bound[a.asname or a.name] = dotted

    def path(node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return bound.get(node.id)
        if isinstance(node, ast.Attribute):
            base = path(node.value)
            return None if base is None else f"{base}.{node.attr}"
        if isinstance(node, ast.Call | ast.Subscript):
            base = path(node.func if isinstance(node, ast.Call) else node.value)
            return None if base is None else base + ("()" if isinstance(node, ast.Call) else "[]")
        return None

    return [(node.lineno, dotted) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.endswith("__") and (dotted := path(node)) is not None]


def private_import_violations(source: str, name: str, front: str,
                              pkgpath: list[str]) -> list[str]:
    """``name:line: front imports private X`` for each private gameopt import (or attribute
    of an imported gameopt name) in ``source``."""
    bad = []
    for lineno, dotted in imported_names(source, pkgpath) + private_attributes(source, pkgpath):
        parts = dotted.split(".")
        if parts[0] != "gameopt" or not is_private(dotted):
            continue
        if front != "benchmarks" and len(parts) > 1 and parts[1] == front:
            continue  # the front end's own modules
        bad.append(f"{name}:{lineno}: {front} imports private {dotted}")
    return bad


def front_end_files() -> list[tuple[str, Path, list[str]]]:
    """(front end, file, package path) for every module of a front end and every benchmark."""
    out = []
    for front in sorted(FRONTS):
        where = PKG / front
        files = sorted(where.rglob("*.py")) if where.is_dir() else \
            [p for p in [PKG / f"{front}.py"] if p.is_file()]
        out += [(front, f, ["gameopt", *f.relative_to(PKG).parts[:-1]]) for f in files]
    out += [("benchmarks", f, []) for f in sorted((ROOT / "benchmarks").rglob("*.py"))]
    return out


def front_end_violations() -> list[str]:
    bad = []
    for front, f, pkgpath in front_end_files():
        bad += private_import_violations(f.read_text(encoding="utf-8"),
                                         str(f.relative_to(ROOT)), front, pkgpath)
    return bad


def test_front_ends_import_public_names_only() -> None:
    files = front_end_files()
    assert any(front == "cli" for front, _, _ in files)  # the files are found
    assert any(front == "benchmarks" for front, _, _ in files)
    assert front_end_violations() == []


@pytest.mark.parametrize(("source", "front", "pkgpath", "found"), [
    ("import gameopt.reversi._bitboard as bb", "cli", ["gameopt", "cli"],
     ["gameopt.reversi._bitboard"]),
    ("from gameopt.reversi._bitboard import perft", "cli", ["gameopt", "cli"],
     ["gameopt.reversi._bitboard.perft"]),
    ("from gameopt.go import _dp_kernel", "benchmarks", [], ["gameopt.go._dp_kernel"]),
    ("from gameopt.deck.build import (\n    build_deck,\n    _cpsat_start,\n)", "web",
     ["gameopt", "web"], ["gameopt.deck.build._cpsat_start"]),
    ("from ..reversi import _eval", "cli", ["gameopt", "cli"], ["gameopt.reversi._eval"]),
    ("from .._version import v", "web", ["gameopt", "web"], ["gameopt._version.v"]),
    ("from gameopt.cli._table import t\nfrom ._x import y", "cli", ["gameopt", "cli"], []),
    ("from gameopt.cli._table import t", "benchmarks", [], ["gameopt.cli._table.t"]),
    ("import gameopt.reversi as r\nr._bitboard.perft(1)", "cli", ["gameopt", "cli"],
     ["gameopt.reversi._bitboard"]),
    ("import gameopt.go\ngameopt.go._dp_kernel.run()", "benchmarks", [],
     ["gameopt.go._dp_kernel"]),
    ("from gameopt.go import Board\nBoard(9).copy()._cells", "web", ["gameopt", "web"],
     ["gameopt.go.Board().copy()._cells"]),
    ("from gameopt.reversi import Board\nimport argparse\nself._x, argparse._Action\n"
     "Board.start().hash()", "cli", ["gameopt", "cli"], []),
    ("from gameopt import __version__\nfrom gameopt.reversi import perft, Board\n"
     "import numpy._core\nfrom gameopt.core import *", "cli", ["gameopt", "cli"], []),
])
def test_private_import_rule_catches_each_form(source: str, front: str, pkgpath: list[str],
                                               found: list[str]) -> None:
    bad = private_import_violations(source, "x.py", front, pkgpath)
    assert [b.rsplit(" ", 1)[1] for b in bad] == found
