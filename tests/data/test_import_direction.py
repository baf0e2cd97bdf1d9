"""ternary.data's modules import one way (issue 28): no circle, none closed inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import ternary.data

FOLDER = Path(ternary.data.__file__).parent


def _imports() -> dict[str, set[str]]:
    """Module -> the package modules it imports (relative imports, anywhere in the file)."""
    out: dict[str, set[str]] = {}
    for path in FOLDER.glob("*.py"):
        tree = ast.parse(path.read_text())
        out[path.stem] = {
            node.module.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        }
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for nxt in sorted(graph.get(node, ())):
            found = visit(nxt, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return None


def test_the_data_modules_import_one_way_counting_imports_inside_functions():
    graph = _imports()
    assert "_preprocess" not in graph["_clean"]  # the circle issue 28 named
    assert _cycle(graph) is None, _cycle(graph)


def test_the_cycle_finder_finds_a_circle():
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
