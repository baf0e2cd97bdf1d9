"""No Python file over 800 lines and no function over 100 lines of code, anywhere in the repository.

Tests and benchmarks included (the developers' guide). A function's size is the number
of its lines that hold code: a line counts when a token other than a comment lies on it,
and a docstring (the string that opens a module, class or function body) does not count,
nor do blank lines and comments. Lines run from the ``def`` to the function's last line
(decorators not counted), nested functions included in the one around them and checked
on their own as well.

Why code lines, not the span ``end_lineno − lineno + 1`` nor cyclomatic complexity (issue
39): the span counted the docstring, so explaining a function cost the same as growing it,
and a commit trimmed a docstring only to pass the limit while 16 functions sat at 90-100
lines. Complexity measures branching, not reading: the repository's tests assert in long
straight lines (``assert`` and ``if`` count as branches), so a complexity limit that lets
today's tests through (44) would say nothing about the library, whose kernels sit at
20-31 by nature (one loop per class over sorted rows). The code-line count keeps the
guide's rule and its number: the longest function holds 93 code lines today, so the limit
still binds, and what a reader has to hold in mind is what it counts.
"""

import ast
import io
import tokenize

from tests.architecture.imports import CODE_ROOTS, python_files
from tests.conftest import REPO

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 100

_NOT_CODE = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENDMARKER,
}
_BODIES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _code_lines(source: str, tree: ast.AST) -> set[int]:
    """The line numbers that hold code: a token other than a comment, outside a docstring."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    for node in ast.walk(tree):
        if isinstance(node, _BODIES) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.difference_update(range(first.lineno, first.end_lineno + 1))
    return lines


def function_sizes(source: str) -> list[tuple[str, int, int]]:
    """``(name, line of its def, code lines)`` of every function in ``source``, nested ones too."""
    tree = ast.parse(source)
    code = _code_lines(source, tree)
    return [
        (node.name, node.lineno, len(code.intersection(range(node.lineno, node.end_lineno + 1))))
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def _long_functions(path):
    for name, line, size in function_sizes(path.read_text(encoding="utf-8")):
        if size > MAX_FUNCTION_LINES:
            yield f"{path.relative_to(REPO)}:{line} {name}() has {size} lines of code"


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


def test_no_function_is_over_100_lines_of_code():
    too_long = [line for path in python_files(*CODE_ROOTS) for line in _long_functions(path)]
    assert too_long == []


# ---------------------------------------------------------------- the rule on small functions
def _size(source: str, name: str = "f") -> int:
    return {n: size for n, _, size in function_sizes(source)}[name]


def test_docstrings_comments_and_blank_lines_do_not_count():
    doc = "\n".join(f"    line {i} of the docstring" for i in range(150))
    source = (
        "@decorator\n"
        "def f(a,\n"
        "      b):\n"
        f'    """Summary.\n{doc}\n    """\n'
        "    # a comment\n"
        "\n"
        "    x = a  # a comment after code\n"
        "    return x + b\n"
    )
    # the def (two lines: its signature wraps) and two statements; not the decorator
    assert _size(source) == 4


def test_strings_that_are_not_docstrings_count_line_by_line():
    source = 'def f():\n    x = 1\n    q = """\n        SELECT 1\n    """\n    return q\n'
    assert _size(source) == 6
    # a string after the first statement is not a docstring
    source = 'def f():\n    x = 1\n    """not a\n    docstring"""\n'
    assert _size(source) == 4


def test_a_nested_function_counts_in_its_parent_and_alone():
    source = (
        "def outer():\n"
        "    def inner():\n"
        '        """Its docstring\n        on two lines."""\n'
        "        return 1\n"
        "    return inner\n"
    )
    assert _size(source, "inner") == 2
    assert _size(source, "outer") == 4


def test_a_function_one_code_line_over_the_limit_is_reported(tmp_path, monkeypatch):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    at_limit = f'def f():\n    """Doc."""\n{body}'
    over = f"def f():\n{body}    return 0\n"
    assert _size(at_limit) == MAX_FUNCTION_LINES
    assert _size(over) == MAX_FUNCTION_LINES + 1
    monkeypatch.setattr("tests.architecture.test_limits.REPO", tmp_path)
    (tmp_path / "ok.py").write_text(at_limit, encoding="utf-8")
    (tmp_path / "long.py").write_text(over, encoding="utf-8")
    assert list(_long_functions(tmp_path / "ok.py")) == []
    assert list(_long_functions(tmp_path / "long.py")) == ["long.py:1 f() has 101 lines of code"]
