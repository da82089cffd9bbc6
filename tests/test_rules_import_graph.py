"""The rules modules that hold the actions' shared machinery import each other in one direction only.

Issue 13 ("Offers that carry their command"): remove the import cycle among `ailments`, `attacks`, `conditions`,
`damage`, `manifest`, `stance`, `tactics` and `turns`. Every import counts, wherever it stands: at module level,
under `TYPE_CHECKING`, or inside a function (an import moved into a function to dodge a cycle is still the cycle).
"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "vtt" / "rules"
PACKAGE = "vtt.rules"
LAYERED = frozenset({"ailments", "attacks", "conditions", "damage", "manifest", "stance", "tactics", "turns"})

Graph = dict[str, set[str]]


def imported_modules(tree: ast.AST, modules: set[str]) -> set[str]:
    """The rules modules an AST imports anywhere in it (`from vtt.rules import x`, `from vtt.rules.x import y`,
    `import vtt.rules.x`)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            if node.module == PACKAGE:
                found.update(a.name for a in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[2] for a in node.names if a.name.startswith(PACKAGE + "."))
    return found & modules


def import_graph(source: dict[str, str]) -> Graph:
    modules = set(source)
    return {name: imported_modules(ast.parse(text), modules) - {name} for name, text in source.items()}


def rules_graph() -> Graph:
    return import_graph({p.stem: p.read_text(encoding="utf-8") for p in RULES.glob("*.py")})


def cycle_through(graph: Graph, start: str) -> list[str] | None:
    """A shortest import path from `start` back to itself (start first and last), or None."""
    paths: dict[str, list[str]] = {start: [start]}
    frontier = [start]
    while frontier:
        nxt: list[str] = []
        for m in frontier:
            for dep in sorted(graph.get(m, ())):
                if dep == start:
                    return [*paths[m], start]
                if dep not in paths:
                    paths[dep] = [*paths[m], dep]
                    nxt.append(dep)
        frontier = nxt
    return None


def cycles_through(graph: Graph, modules: frozenset[str]) -> list[list[str]]:
    return [c for m in sorted(modules) if (c := cycle_through(graph, m)) is not None]


def test_the_graph_sees_every_kind_of_import() -> None:
    """The check itself: module-level, `TYPE_CHECKING` and function-local imports all make arrows, so a cycle
    dodged by a function-local import is found."""
    graph = import_graph(
        {
            "a": "from vtt.rules.b import x\n",
            "b": "def f() -> None:\n    from vtt.rules import c\n",
            "c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import vtt.rules.a\n",
            "d": "from vtt.rules import a\nfrom vtt.rules.dice import roll\n",
        }
    )
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_through(graph, "a") == ["a", "b", "c", "a"]
    assert cycle_through(graph, "d") is None


def test_the_layered_modules_exist() -> None:
    """A renamed module would otherwise drop out of the check unnoticed."""
    assert set(rules_graph()) >= LAYERED


def test_no_import_cycle_through_the_shared_rules_modules() -> None:
    """Issue 13: no chain of imports among the rules modules leads from one of the layered modules back to
    itself."""
    cycles = cycles_through(rules_graph(), LAYERED)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)
