"""Figs. 3/4's 50/50 leaves read malignant, as the paper prints them (issue 32, item 4).

The paper's trees were fitted on scikit-learn's codes (0 malignant, 1 benign) and a tie
goes to the first class; the presets load "breast cancer (paper)", whose labels keep that
order ("0 malignant", "1 benign"), so ``predict`` and the drawing agree with the paper and
with each other. The plain "breast cancer" dataset keeps its names and its order.
"""

from __future__ import annotations

import numpy as np
import pytest

from appkit import links
from ternary import TernaryTreeClassifier
from ternary.data import load_builtin
from tests.app.helpers import assert_clean, open_link
from viz.labels import node_label_items


def _preset(prefix):
    return next(p for p in links.PRESETS if p[0].startswith(prefix))


def _fit(dataset, params):
    ds = load_builtin(dataset)
    model = TernaryTreeClassifier(
        delta_method=params["delta_method"],
        routing=params.get("routing", "probabilistic"),
        max_depth=int(params["max_depth"]),
        random_state=int(params["seed"]),
        zone_edges=params["zone_edges"],
    ).fit(ds.X, ds.y)
    return ds, model


def _tied_leaves(model):
    tree = model.tree_
    return [
        i
        for i in range(tree.node_count)
        if tree.children_left[i] < 0 and np.allclose(tree.value[i].ravel(), 0.5)
    ]


def test_fig3_tied_leaves_read_malignant_in_the_drawing_and_in_predict():
    _, _, params = _preset("Paper Fig. 3")
    ds, model = _fit(params["dataset"], params)
    assert list(model.classes_) == ["0 malignant", "1 benign"]
    tied = _tied_leaves(model)
    assert sorted(int(model.tree_.n_node_samples[i]) for i in tied) == [6, 8]
    for node in tied:
        items = dict(node_label_items(model, node))
        assert items["class"] == "Class: 0 malignant"
        assert items["confidence"] == "conf = 0.50, tie → first class"
    # rows that end in a tied leaf (probabilities exactly 1/2 each) are predicted malignant
    proba = model.predict_proba(ds.X)
    at_tie = np.flatnonzero(np.all(proba == 0.5, axis=1))
    assert at_tie.size >= 1
    assert set(model.predict(ds.X.iloc[at_tie])) == {"0 malignant"}


def test_a_leaf_without_a_tie_says_nothing_of_ties():
    _, _, params = _preset("Paper Fig. 3")
    _, model = _fit(params["dataset"], params)
    leaves = [i for i in range(model.tree_.node_count) if model.tree_.children_left[i] < 0]
    plain = [i for i in leaves if i not in _tied_leaves(model)]
    assert plain and all("tie" not in dict(node_label_items(model, i))["confidence"] for i in plain)


@pytest.mark.parametrize("prefix", ["Paper Fig. 3", "Paper Fig. 4"])
def test_presets_load_the_paper_order_and_the_plain_dataset_keeps_its_names(prefix):
    _, _, params = _preset(prefix)
    assert params["dataset"] == "breast cancer (paper)"
    paper, plain = load_builtin("breast cancer (paper)"), load_builtin("breast cancer")
    assert plain.class_names == ["benign", "malignant"]
    np.testing.assert_array_equal(paper.X.to_numpy(), plain.X.to_numpy())
    # the same rows: each label is the plain one with scikit-learn's code in front
    assert [s.split(" ", 1)[1] for s in paper.y] == list(plain.y)
    # on the plain names the tie goes to benign, the first sorted name: the old drawing
    _, model = _fit("breast cancer", params)
    assert {model.classes_[np.argmax(model.tree_.value[i])] for i in _tied_leaves(model)} <= {
        "benign"
    }


def test_fig3_page_draws_the_tied_leaves_malignant():
    label, page, params = _preset("Paper Fig. 3")
    at = open_link(params, page)
    assert_clean(at)
    spec = "\n".join(chart.proto.spec for chart in at.get("graphviz_chart"))
    for n in (8, 6):
        line = next(x for x in spec.splitlines() if f"n = {n}>" in x or f"n = {n}<" in x)
        assert "Class: 0 malignant" in line and "tie → first class" in line, line
    assert "read malignant, as in the paper" in links.PRESET_SOURCES[label]
