"""numpydoc's validator over the public API (ES01, SA01 and EX01 optional).

Every class of every module in the API reference, its public methods and properties
defined in ternary, and every public function are validated, and every one must pass.
"""

import ast
import importlib
import inspect

import pytest

from tests.conftest import REPO

validate = pytest.importorskip("numpydoc.validate").validate

OPTIONAL = {"ES01", "SA01", "EX01"}


def _api_modules():
    tree = ast.parse((REPO / "docs" / "conf.py").read_text())
    return next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "API_MODULES"
    )


def public_objects():
    """Qualified names of every documented class, method, property and function."""
    names = []
    for module_name in _api_modules():
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                names.append(f"{module_name}.{name}")
                for attr, member in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    if inspect.isfunction(member) or isinstance(member, property):
                        names.append(f"{module_name}.{name}.{attr}")
            elif inspect.isfunction(obj):
                names.append(f"{module_name}.{name}")
    return names


def failures(name):
    return [(code, text) for code, text in validate(name)["errors"] if code not in OPTIONAL]


def test_the_public_api_is_covered():
    names = public_objects()
    assert "ternary.TernaryTreeClassifier.fit" in names
    assert "ternary.selective.RiskControlledClassifier" in names
    assert len(names) > 150


def test_numpydoc_validation():
    failing = {name: errors for name in public_objects() if (errors := failures(name))}
    report = "\n".join(f"{n}: " + "; ".join(f"{c} {t}" for c, t in e) for n, e in failing.items())
    assert not failing, f"docstrings failing numpydoc's validation:\n{report}"
