"""The install and contributor docs say what the project really does (issue 31, item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

REPO = Path(__file__).resolve().parents[2]


def test_install_rst_lists_every_extra_of_pyproject():
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    text = (REPO / "docs" / "install.rst").read_text(encoding="utf-8")
    listed = set(re.findall(r"^``([a-z]+)``\s", text, flags=re.MULTILINE))
    assert set(extras) <= listed, sorted(set(extras) - listed)


def test_contributing_installs_the_docs_extra_editable():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    installs = re.findall(r"pip install (?:-e )?\"?\.\[[a-z,]+\]\"?", text)
    assert installs and all(i.startswith("pip install -e ") for i in installs), installs


def test_the_docs_say_where_the_reproduction_writes():
    text = (REPO / "docs" / "user_guide" / "experiments.rst").read_text(encoding="utf-8")
    script = (REPO / "benchmarks" / "reproduce_paper.py").read_text(encoding="utf-8")
    assert "benchmarks/results/reproduce_paper.md" in text
    assert "reproduce_paper{suffix}.md" in script and "BENCHMARKS" not in script.split("def ")[0]
    assert "writes the tables beside the\npaper's into BENCHMARKS.md" not in text
