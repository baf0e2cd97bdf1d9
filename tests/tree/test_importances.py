"""Impurity importances from one pass over the partition equal the node-by-node sum.

`ternary.tree.impurity_importances` counts every node's classes in one ``bincount``
over all (row, node) pairs of the training partition; the reference here walks
`ternary.tree.iter_node_rows` node by node, as the function did before, and the two
must agree bit for bit, for hard-middle trees (middle children, empty ones too) and for
grafted binary trees.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryTreeClassifier
from ternary.tree import LEAF, impurity, impurity_importances, iter_node_rows


def _node_by_node(tree, X, y, w, criterion, routing, n_features):
    K = tree.n_classes
    W = np.zeros(tree.node_count)
    weighted_impurity = np.zeros(tree.node_count)
    for node, rows in iter_node_rows(tree, X, routing):
        counts = np.bincount(y[rows], weights=w[rows], minlength=K)
        W[node] = counts.sum()
        weighted_impurity[node] = W[node] * float(impurity(counts, criterion))
    importances = np.zeros(n_features)
    for node in np.flatnonzero(tree.children_left != LEAF).tolist():
        decrease = weighted_impurity[node] - sum(weighted_impurity[c] for c in tree.children(node))
        importances[tree.feature[node]] += decrease
    if W[0] > 0:
        importances /= W[0]
    total = importances.sum()
    return importances / total if total > 0 else importances


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**31),
    st.sampled_from(["hard_middle", "probabilistic"]),
    st.sampled_from(["gini", "entropy"]),
    st.booleans(),
)
def test_one_pass_equals_the_node_by_node_sum(seed, routing, criterion, fractional):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(30, 200))
    X = np.round(rng.normal(size=(n, 3)), 1).astype(np.float32)
    y = (X[:, 0] + rng.normal(scale=0.8, size=n) > 0).astype(int) + (X[:, 1] > 1)
    w = rng.random(n) + 0.05 if fractional else rng.integers(0, 3, size=n).astype(float)
    w[:3] = 1.0
    y[:3] = [0, 1, 2]
    graft = "none" if routing == "hard_middle" else "all"
    clf = TernaryTreeClassifier(
        routing=routing, criterion=criterion, graft=graft, random_state=0, max_depth=6
    ).fit(X, y, sample_weight=w)
    y_codes = np.searchsorted(clf.classes_, y)
    got = impurity_importances(clf.tree_, X, y_codes, w, criterion, routing, 3)
    expected = _node_by_node(clf.tree_, X, y_codes, w, criterion, routing, 3)
    np.testing.assert_array_equal(got, expected)  # bit for bit
    np.testing.assert_array_equal(clf.feature_importances_, expected)


def test_a_tree_that_is_one_leaf_has_zero_importances():
    X = np.arange(12, dtype=np.float32).reshape(6, 2)
    clf = TernaryTreeClassifier(routing="hard_middle").fit(X, np.zeros(6, dtype=int))
    assert clf.tree_.node_count == 1
    got = impurity_importances(
        clf.tree_, X, np.zeros(6, dtype=int), np.ones(6), "gini", "hard_middle", 2
    )
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [0.0, 0.0])
