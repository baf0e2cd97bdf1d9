"""Reading the repository's imports with `ast`, for the architecture tests.

Every ``import`` and ``from ... import`` statement counts, at any depth of the file
(a function-level import is an import too), and so does a string load through
``importlib.import_module("...")`` or ``__import__("...")``. ``from package import name``
counts as an import of ``package.name`` when that is a module of the repository, else of
``package``; relative imports are resolved against the file's package.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO

#: Where code lives, relative to the repository root.
CODE_ROOTS = ("ternary", "appkit", "viz", "app_pages", "app.py", "tests", "benchmarks", "docs")
CODE_ROOTS += ("examples",)


@dataclass(frozen=True)
class Import:
    """One imported module, as written in one file."""

    path: Path  #: the importing file
    line: int
    module: str  #: the dotted name imported
    module_level: bool  #: at the top level of the file, outside ``if TYPE_CHECKING:``
    type_checking: bool = False  #: under ``if TYPE_CHECKING:`` (never runs)


def python_files(*roots: str) -> list[Path]:
    """The ``.py`` files under ``roots`` (folders or files, relative to the repository)."""
    files = []
    for root in roots:
        path = REPO / root
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
    return sorted(files)


def module_name(path: Path) -> str:
    """The dotted name of a repository file: ``ternary/tree/__init__.py`` is ``ternary.tree``."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_module(dotted: str) -> bool:
    base = REPO.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _resolve(path: Path, name: str, level: int, module: str | None) -> str:
    if not level:
        return module or ""
    package = name.split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _string_load(node: ast.Call) -> str | None:
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def imports_of(path: Path, name: str | None = None) -> list[Import]:
    """Every module ``path`` imports, with its line and whether it runs at import time.

    ``name`` is the file's dotted module name, for relative imports (default: read from
    its place in the repository).
    """
    name = module_name(path) if name is None else name
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Import] = []

    def visit(node: ast.AST, module_level: bool, checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            level, tc = module_level, checking
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                level = False
            if _is_type_checking(child):
                level, tc = False, True
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(Import(path, child.lineno, alias.name, level, tc))
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(path, name, child.level, child.module)
                for alias in child.names:
                    dotted = f"{base}.{alias.name}" if base else alias.name
                    target = dotted if _is_module(dotted) else base
                    found.append(Import(path, child.lineno, target, level, tc))
            elif isinstance(child, ast.Call):
                loaded = _string_load(child)
                if loaded is not None:
                    found.append(Import(path, child.lineno, loaded, level, tc))
            visit(child, level, tc)

    visit(tree, True, False)
    return found


def is_private(module: str) -> bool:
    """True for a ``ternary`` module with a private segment (``ternary._x``, ``ternary.a._b``)."""
    parts = module.split(".")
    return parts[0] == "ternary" and any(p.startswith("_") for p in parts[1:])


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = walk(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = walk(start)
            if cycle:
                return cycle
    return None
