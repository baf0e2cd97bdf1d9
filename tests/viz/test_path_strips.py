"""The distribution panels of a row's path (`viz.path_strips`) and the fit-to-width tree."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from sklearn.datasets import load_breast_cancer

from appkit.why import path_nodes, row_story
from ternary import TernaryTreeClassifier
from viz.path_strips import PathNode, path_histograms, path_strips_figure
from viz.tree_diagram import tree_dot


def _step(values, classes, x=0.5, theta=0.5, delta=0.1, reach=1.0):
    return PathNode(
        3, "radius", theta, delta, np.asarray(values, float), np.asarray(classes), x, reach
    )


@settings(max_examples=60, deadline=None)
@given(
    hs.lists(hs.floats(-1e6, 1e6), min_size=1, max_size=80),
    hs.floats(-1e6, 1e6),
    hs.integers(1, 30),
)
def test_histogram_counts_every_row_once_and_spans_the_row(values, x, bins):
    classes = np.arange(len(values)) % 3
    edges, counts = path_histograms(_step(values, classes, x=x), 3, bins=bins)
    assert counts.sum() == len(values)
    assert counts.sum(axis=1).tolist() == np.bincount(classes, minlength=3).tolist()
    assert edges[0] <= min(min(values), x) and edges[-1] >= max(max(values), x)


def test_panel_marks_theta_zone_and_row():
    step = _step([0.1, 0.2, 0.45, 0.55, 0.8, 0.9], [0, 0, 0, 1, 1, 1], x=0.52, reach=0.4)
    fig = path_strips_figure(
        [step, _step([1.0, 2.0], [0, 1], x=1.5, theta=1.5, delta=0.0)], ["a", "b"]
    )
    zones = [s for s in fig.layout.shapes if s.type == "rect"]
    assert [(z.x0, z.x1) for z in zones] == [pytest.approx((0.4, 0.6))]  # δ = 0: no band
    lines = sorted(s.x0 for s in fig.layout.shapes if s.type == "line")
    assert lines == [0.5, 1.5]
    marks = [t for t in fig.data if t.name == "this row"]
    assert [m.x[0] for m in marks] == [0.52, 1.5]
    bars = [t for t in fig.data if t.type == "bar"]
    assert sum(int(np.sum(b.y)) for b in bars) == 8
    titles = [a.text for a in fig.layout.annotations]
    assert titles[0].startswith("node 3: radius") and "40 % of the row" in titles[0]


def test_no_steps_says_why():
    with pytest.raises(ValueError, match="single leaf"):
        path_strips_figure([], ["a"])


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    names = [f"f{i}" for i in range(X.shape[1])]
    return X, y, names


def test_path_nodes_hold_each_nodes_training_rows(cancer):
    X, y, names = cancer
    model = TernaryTreeClassifier(max_depth=3, delta_method="margin", random_state=0).fit(X, y)
    story = row_story(model, X[5], names)
    steps = path_nodes(model, X, y, X[5], story.path, names)
    tree = model.tree_
    assert [s.node for s in steps] == [
        n for n in tree.preorder() if n in story.path and not tree.is_leaf[n]
    ]
    for s in steps:
        assert s.values.size == tree.n_node_samples[s.node]
        assert s.x == pytest.approx(X[5, tree.feature[s.node]])
        assert s.feature == names[tree.feature[s.node]]


def test_shallow_tree_too_wide_for_the_page_is_drawn_left_to_right(cancer):
    # the Figs. 3/4 preset: depth 2, hard middle, nine leaves drew 1,135 px wide top to bottom
    X, y, names = cancer
    model = TernaryTreeClassifier(
        max_depth=2, delta_method="margin", routing="hard_middle", random_state=42
    ).fit(X, np.array(["malignant", "benign"])[y])
    assert "rankdir=TB" in tree_dot(model)  # unchanged without a width: the paper's layout
    assert "rankdir=TB" in tree_dot(model, max_width_px=2000)
    assert "rankdir=LR" in tree_dot(model, max_width_px=900)
    small = TernaryTreeClassifier(max_depth=1, delta_method="margin").fit(X, y)
    assert "rankdir=TB" in tree_dot(small, max_width_px=900)
