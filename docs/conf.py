"""Sphinx configuration: numpydoc docstrings, an autosummary API reference generated from
each public module's ``__all__``, and a sphinx-gallery of the scripts in ``examples/``.

Build with ``sphinx-build -W -b html docs docs/_build/html`` (warnings are errors).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the checkout's ternary, installed or not
sys.path.insert(0, str(DOCS))  # _gallery_order

import ternary  # noqa: E402

project = "ternary"
author = "the ternary developers"
copyright = "2026, the ternary developers"  # noqa: A001 - Sphinx's name
version = release = ternary.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]
# Maths: MathML written at build time (docs/_mathml.py, with latex2mathml from the docs
# extra) reads offline and needs no script; without latex2mathml, MathJax typesets the TeX
# in the reader's browser, fetched from its CDN (offline, the formulas stay raw TeX).
try:
    import latex2mathml  # noqa: F401
except ImportError:
    extensions.append("sphinx.ext.mathjax")
else:
    extensions.append("_mathml")
    html_math_renderer = "mathml"

templates_path = ["_templates"]
exclude_patterns = ["_build", "**/_build", "Thumbs.db", ".DS_Store"]
default_role = "py:obj"  # `name` in a docstring links to it when Sphinx knows it
# no network at build time: intersphinx links stay off unless an inventory is cached
intersphinx_mapping: dict = {}

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False  # the class template lists the methods
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "pydata_sphinx_theme"
html_title = f"ternary {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
}
html_show_sourcelink = False

# the gallery: every examples/plot_*.py runs at build time and its figures are kept
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "_gallery_order.ExampleOrder",
    "image_scrapers": ("matplotlib",),
    "reference_url": {},
    "abort_on_example_error": True,
    "show_memory": False,
}

# --- the API reference: one page per public module, listing its whole __all__ ---------
API_MODULES = {
    "ternary": "Estimators, export and parameters",
    "ternary.selective": "Selective prediction: rankings, risk-coverage curves, risk control",
    "ternary.review": "Which rows to review: a budget or a risk target",
    "ternary.metrics": "Metrics of a ternary verdict",
    "ternary.explain": "Why a row is (or is not) flagged",
    "ternary.diagnose": "Degenerate fits said in words, and the majority-class floor",
    "ternary.rules": "Rules extracted from a fitted tree",
    "ternary.pipeline": "Preprocessing and a ternary estimator in one object",
    "ternary.delta": "The five δ methods",
    "ternary.graft": "Decision tree grafting (Webb 1997)",
    "ternary.tree": "The tree structure and its traversal",
    "ternary.data": "Datasets: built-in generators and tolerant loaders",
    "ternary.experiment": "The paper's cross-validation protocol and its tables",
    "ternary.codegen": "Exact float32 boundaries and tree plans for the exporters",
    "ternary.compiled": "The compiled kernels, warmed ahead of use",
    "ternary.stopping": "Stopping long fits from outside: a stop check the fit loops call",
    "ternary.cli": "The ``ternary`` command",
}


def _present(module: str) -> bool:
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def _write_api_pages() -> None:
    import importlib

    api = DOCS / "api"
    api.mkdir(exist_ok=True)
    modules = [m for m in API_MODULES if _present(m)]
    for name in modules:
        module = importlib.import_module(name)
        title = f"``{name}``: {API_MODULES[name]}"
        lines = [
            title,
            "=" * len(title),
            "",
            f".. automodule:: {name}",
            "   :no-members:",
            "   :no-index:",
            "",
            f".. currentmodule:: {name}",
            "",
            ".. autosummary::",
            "   :toctree: generated/",
            "   :template: entry.rst",
            "",
        ]
        lines += [f"   {entry}" for entry in sorted(module.__all__, key=str.lower)]
        text = "\n".join(lines) + "\n"
        page = api / f"{name}.rst"
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
    index = ["API reference", "=============", "", ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   {name}" for name in modules]
    text = "\n".join(index) + "\n"
    if not (api / "index.rst").exists() or (api / "index.rst").read_text() != text:
        (api / "index.rst").write_text(text)


_write_api_pages()
os.environ.setdefault("TERNARY_DOCS_BUILD", "1")


def _skip_foreign(app, what, name, obj, skip, options):
    """Document a class's own members only: what scikit-learn defines, its docs describe."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and callable(obj) and module and not module.startswith("ternary"):
        return True
    return skip


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign)
