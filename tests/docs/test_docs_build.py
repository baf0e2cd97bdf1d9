"""The documentation builds with warnings as errors: API reference, user guide, gallery.

The site is built from copies of docs/ and examples/ in tmp_path, so the checkout stays
clean; every gallery script runs (sphinx-gallery aborts on an example's error).
"""

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytest.importorskip("sphinx")
pytest.importorskip("numpydoc")
pytest.importorskip("sphinx_gallery")
pytest.importorskip("pydata_sphinx_theme")
pytest.importorskip("matplotlib")

GENERATED = ("_build", "auto_examples", "generated", "sg_execution_times.rst")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(REPO / "docs", root / "docs", ignore=shutil.ignore_patterns(*GENERATED))
    shutil.copytree(REPO / "examples", root / "examples")
    env = {**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"}
    out = root / "html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(root / "docs"),
            str(out),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    return out


@pytest.mark.slow
def test_every_public_name_has_an_api_page(site):
    import ast
    import importlib

    tree = ast.parse((REPO / "docs" / "conf.py").read_text())
    modules = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "API_MODULES"
    )
    assert {"ternary", "ternary.selective", "ternary.data", "ternary.experiment"} <= set(modules)
    for module_name in modules:
        module = importlib.import_module(module_name)
        page = (site / "api" / f"{module_name}.html").read_text()
        for name in module.__all__:
            assert (site / "api" / "generated" / f"{module_name}.{name}.html").is_file(), name
            assert f"{module_name}.{name}.html" in page, name


@pytest.mark.slow
def test_gallery_has_its_examples_with_figures(site):
    scripts = sorted(p.stem for p in (REPO / "examples").glob("plot_*.py"))
    assert len(scripts) >= 8
    for stem in scripts:
        page = (site / "auto_examples" / f"{stem}.html").read_text()
        assert "sphx-glr-single-img" in page or "sphx-glr-multi-img" in page, stem


@pytest.mark.slow
def test_fig1_reproduces_the_papers_numbers(site):
    page = (site / "auto_examples" / "plot_fig1_two_moons.html").read_text()
    assert "flagged: 46.4%" in page and "decided accuracy: 0.948" in page


@pytest.mark.slow
def test_fig3_fig4_match_the_papers_trees(site):
    page = (site / "auto_examples" / "plot_fig3_fig4_breast_cancer.html").read_text()
    assert "worst radius &lt;= 16.795, delta = 0.1750" in page
    # Fig. 3's middle subtree (a five-way tie, to the lowest feature index) and Fig. 4's right
    assert "mean texture &lt;=   17.720  delta 2.8050  n = 10" in page
    assert "mean texture &lt;=   16.110  delta 0.1700  n = 190" in page


@pytest.mark.slow
def test_user_guide_pages_and_grafting_reading(site):
    for page in (
        "zones",
        "routings",
        "grafting",
        "grafting_reading",
        "selective",
        "forests",
        "data",
        "pipeline",
        "experiments",
        "app",
    ):
        assert (site / "user_guide" / f"{page}.html").is_file(), page


@pytest.mark.slow
def test_formulas_are_mathml_made_at_build_time(site):
    # no script and no CDN: the formulas read offline (docs/_mathml.py)
    pytest.importorskip("latex2mathml")
    page = (site / "user_guide" / "zones.html").read_text()
    assert page.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">') >= 2
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in page
    assert "\\theta" not in page and "\\delta" not in page  # no TeX left to typeset
    assert "mathjax" not in page.lower()
