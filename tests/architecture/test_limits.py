"""No Python file over 800 lines and no function over 100, anywhere in the repository.

Tests and benchmarks included (the developers' guide). A function's length is
``end_lineno − lineno + 1`` of its ``def`` (decorators not counted), nested ones apart.
"""

import ast

from tests.architecture.imports import CODE_ROOTS, python_files
from tests.conftest import REPO

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 100


def _long_functions(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                yield f"{path.relative_to(REPO)}:{node.lineno} {node.name}() has {length} lines"


def test_the_scan_covers_the_whole_code_base():
    files = {str(p.relative_to(REPO)) for p in python_files(*CODE_ROOTS)}
    assert {"app.py", "ternary/__init__.py", "tests/conftest.py"} <= files
    assert any(f.startswith("benchmarks/") for f in files)
    assert any(f.startswith("appkit/") for f in files) and any(f.startswith("viz/") for f in files)


def test_no_file_is_over_800_lines():
    lines = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in python_files(*CODE_ROOTS)}
    too_long = [
        f"{path.relative_to(REPO)} has {n} lines" for path, n in lines.items() if n > MAX_FILE_LINES
    ]
    assert too_long == []


def test_no_function_is_over_100_lines():
    too_long = [line for path in python_files(*CODE_ROOTS) for line in _long_functions(path)]
    assert too_long == []
