"""The δ registry: one entry per method, and the whole-tree pass equal to node-by-node δ."""

import dataclasses

import numpy as np
import pytest
from sklearn.datasets import make_classification

from ternary import DELTA_METHODS, TernaryTreeClassifier
from ternary.delta import (
    REGISTRY,
    DeltaParams,
    NodeRows,
    compute_raw_delta,
    node_delta,
    split_deltas,
)
from ternary.tree import LEAF, iter_node_rows


def test_the_vocabulary_is_the_registry():
    assert (
        DELTA_METHODS
        == tuple(REGISTRY)
        == (
            "margin",
            "node_bootstrap",
            "quality_plateau",
            "gain_ratio",
            "class_overlap",
            "none",
        )
    )
    assert all(REGISTRY[name].name == name for name in REGISTRY)
    # only methods that draw no random numbers may answer for the whole tree at once
    assert {m for m, entry in REGISTRY.items() if entry.every_split} == {
        "margin",
        "quality_plateau",
        "gain_ratio",
        "class_overlap",
        "none",
    }


def test_an_unknown_method_is_refused_by_name():
    rows = NodeRows.from_arrays([0.0, 1.0, 2.0], [0, 1, 1], [1.0, 1.0, 1.0], 0.5, 2)
    with pytest.raises(ValueError, match="Unknown delta_method 'magin'"):
        compute_raw_delta(rows, DeltaParams(method="magin"))


@pytest.mark.parametrize("scale", [1.0, 2.0])
@pytest.mark.parametrize("method", DELTA_METHODS)
def test_split_deltas_equals_node_delta_at_every_split(method, scale):
    X, y = make_classification(400, 5, n_informative=3, n_classes=3, random_state=2)
    X = np.round(X, 1).astype(np.float32)  # ties, as count data has
    weights = np.random.RandomState(0).randint(0, 3, y.size).astype(float)
    tree = TernaryTreeClassifier(delta_method="none", max_depth=5, random_state=0)
    tree = tree.fit(X, y, sample_weight=weights).tree_
    params = DeltaParams(method=method, n_bootstraps=8, max_delta_fraction=0.2, delta_scale=scale)
    got = split_deltas(tree, X, y, weights, 3, params, np.random.RandomState(7))
    # the whole-tree pass and the node-by-node path apply the scale alike: 2 doubles δ
    unscaled = dataclasses.replace(params, delta_scale=1.0)
    once = split_deltas(tree, X, y, weights, 3, unscaled, np.random.RandomState(7))
    np.testing.assert_array_equal(got, once * scale)
    rng = np.random.RandomState(7)
    want = np.zeros(tree.node_count)
    for node, rows in iter_node_rows(tree, X):
        if tree.children_left[node] != LEAF:
            f = tree.feature[node]
            node_rows = NodeRows.from_arrays(
                X[rows, f], y[rows], weights[rows], tree.threshold[node], 3
            )
            want[node] = node_delta(node_rows, params, rng)
    np.testing.assert_array_equal(got, want)
    assert (got > 0).any() == (method != "none")
