"""The viz package as a whole: import boundary, purity, shared colours."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
from sklearn.datasets import make_moons

import viz
from ternary import TernaryTreeClassifier
from ternary.explain import explain_node

REPO = Path(__file__).resolve().parents[2]


def test_importing_viz_does_not_import_streamlit():
    code = (
        "import sys, viz\n"
        "top = ('streamlit', 'pages')\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in top)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_viz_sources_never_import_streamlit():
    for path in (REPO / "viz").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import streamlit" not in text and "from streamlit" not in text, path.name
        assert ".show(" not in text and "write_html" not in text and "write_image" not in text, (
            path.name
        )


def test_builders_are_pure_and_return_new_figures():
    X, y = make_moons(200, noise=0.3, random_state=0)
    X_before, y_before = X.copy(), y.copy()
    model = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, y)
    tree_before = {name: getattr(model.tree_, name).copy() for name in model.tree_._ARRAYS}
    grid = viz.RegionGrid.around(X, 30)
    proba, verdict = model.predict_proba_verdict(grid.points)
    answers = (proba.copy(), verdict.copy())
    drawing = dict(classes=model.classes_, proba=proba, verdict=verdict, scores=(0.9, 0.1))
    a = viz.decision_regions_figure(X, y, grid, **drawing)
    b = viz.decision_regions_figure(X, y, grid, **drawing)
    assert isinstance(a, go.Figure) and a is not b
    assert a.to_json() == b.to_json()  # deterministic
    np.testing.assert_array_equal(proba, answers[0])  # the answers are not written to
    np.testing.assert_array_equal(verdict, answers[1])
    dot = viz.tree_dot(model)
    # one box per node plus the legend, one edge per child: the whole tree, nothing else
    tree = model.tree_
    assert dot.startswith("digraph TernaryTree {") and dot.endswith("}\n")
    assert len(re.findall(r"^  \d+ \[label=<", dot, flags=re.M)) == tree.node_count
    assert len(re.findall(r"^  \d+ -> \d+ ", dot, flags=re.M)) == tree.node_count - 1
    assert f"δ = {viz.format_number(tree.delta[0])}" in dot
    assert dot == viz.tree_dot(viz.ShadowTree.from_estimator(model))  # the model is read once
    fig = viz.node_inspector_figure(explain_node(model, X, y, 0))
    assert isinstance(fig, go.Figure)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    for name, arr in tree_before.items():
        np.testing.assert_array_equal(getattr(model.tree_, name), arr)


def test_class_colours_are_the_same_in_every_figure():
    X, y = make_moons(200, noise=0.3, random_state=0)
    model = TernaryTreeClassifier(delta_method="margin", max_depth=2, random_state=0).fit(X, y)
    grid = viz.RegionGrid.around(X, 20)
    proba, verdict = model.predict_proba_verdict(grid.points)
    regions = viz.decision_regions_figure(
        X, y, grid, classes=model.classes_, proba=proba, verdict=verdict, scores=(1.0, 0.0)
    )
    point_colours = [
        t.marker.color for t in regions.data if t.type == "scatter" and t.mode == "markers"
    ]
    assert point_colours == [viz.class_color(0), viz.class_color(1)]
    inspector = viz.node_inspector_figure(explain_node(model, X, y, 0), method="margin")
    strip = [t.marker.color for t in inspector.data if t.name.startswith("class ")]
    assert strip == point_colours
    assert viz.class_color(0) in viz.tree_dot(model)
    assert len(set(viz.CLASS_COLORS)) == len(viz.CLASS_COLORS)
