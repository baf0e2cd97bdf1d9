"""pyproject.toml: one version, requirements.txt's bounds, only ``ternary`` in the wheel."""

import ast
import re

import pytest
from packaging.requirements import Requirement

from tests.conftest import REPO

tomllib = pytest.importorskip("tomllib")


@pytest.fixture(scope="module")
def project():
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def _bounds(lines):
    """{distribution name: specifier} of requirement lines (comments, -e lines skipped)."""
    found = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if not line or line.startswith("-"):
            continue
        req = Requirement(line)
        found[req.name.lower()] = str(req.specifier)
    return found


def test_version_has_one_source(project):
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ternary.__version__"}
    tree = ast.parse((REPO / "ternary" / "__init__.py").read_text())
    versions = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(t, "id", None) == "__version__" for t in node.targets)
    ]
    assert len(versions) == 1 and re.fullmatch(r"\d+\.\d+\.\d+\S*", versions[0])


def test_runtime_bounds_match_requirements_txt(project):
    required = _bounds((REPO / "requirements.txt").read_text().splitlines())
    declared = _bounds(project["project"]["dependencies"])
    for extra in project["project"]["optional-dependencies"].values():
        declared.update({k: v for k, v in _bounds(extra).items() if k != "ternary"})
    for name, spec in required.items():
        assert declared.get(name) == spec, f"{name}: {spec} in requirements.txt"


def test_requirements_txt_installs_the_project_with_the_app():
    lines = [ln.strip() for ln in (REPO / "requirements.txt").read_text().splitlines()]
    assert "-e .[app,openml]" in lines


def test_library_dependencies_exclude_the_app(project):
    names = set(_bounds(project["project"]["dependencies"]))
    assert {"numpy", "scipy", "scikit-learn", "pandas", "joblib", "liac-arff"} <= names
    assert not names & {"streamlit", "plotly", "graphviz", "matplotlib", "tqdm", "numba"}


def _optional_packages():
    """ternary/_optional.py's OPTIONAL_PACKAGES, read from its source (a literal)."""
    tree = ast.parse((REPO / "ternary" / "_optional.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and node.target.id == "OPTIONAL_PACKAGES":
            return ast.literal_eval(node.value)
    raise AssertionError("OPTIONAL_PACKAGES not found")


def test_every_extra_named_in_messages_exists(project):
    extras = set(project["project"]["optional-dependencies"])
    assert {"app", "openml", "dask", "docs", "test", "fast", "cli"} <= extras
    packages = _optional_packages()
    optional = project["project"]["optional-dependencies"]
    assert {"tqdm", "openml", "distributed", "skops", "arff"} <= set(packages)
    for module, (dist, extra) in packages.items():
        assert extra is None or extra in extras, module
        if extra is not None:
            listed = {Requirement(r).name for r in optional[extra]}
            assert Requirement(dist).name in listed, (module, extra)


def test_only_ternary_is_packaged(project):
    from setuptools import find_packages

    found = project["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(where=str(REPO), include=found["include"])
    assert "ternary" in packages and "ternary.data" in packages
    assert all(p == "ternary" or p.startswith("ternary.") for p in packages)


def test_license_and_typed_marker_ship(project):
    assert project["project"]["license"] == "BSD-3-Clause"
    assert "the ternary developers" in (REPO / "LICENSE").read_text()
    assert (REPO / "ternary" / "py.typed").is_file()
    assert project["project"]["scripts"]["ternary"] == "ternary.cli:main"
