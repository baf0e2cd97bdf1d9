"""The hard-middle tree grown with the compiled split search is scikit-learn's, ties aside.

The compiled search (`ternary.tree.best_split`) breaks an exact tie between features
by the lowest index, the scikit-learn stump by its random feature order; anywhere else
the two growths must build the same tree. The growth asks the compiled search with
``max_features=None`` and keeps the stump for any other value, so ``max_features`` equal
to the number of features (every feature searched, by the stump) is the reference.
Grow both, walk them together, and at the first node whose split differs require the
two splits to tie exactly on that node's rows.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

from ternary import TernaryTreeClassifier
from ternary.tree import best_split, iter_node_rows, split_kernel_available

pytestmark = pytest.mark.skipif(not split_kernel_available(), reason="numba unavailable")


def _fit(X, y, w, compiled, **params):
    every_feature = None if compiled else X.shape[1]
    clf = TernaryTreeClassifier(
        routing="hard_middle", random_state=0, max_features=every_feature, **params
    )
    return clf.fit(X, y, sample_weight=w)


def _proxy(X, y, w, rows, f, t):
    go_left = X[rows, f] <= t
    total = 0.0
    for side in (go_left, ~go_left):
        counts = np.bincount(y[rows][side], weights=w[rows][side], minlength=y.max() + 1)
        weight = counts.sum()
        total -= weight * (1.0 - np.sum((counts / weight) ** 2))
    return total


def _first_difference(a, b):
    for node in range(min(a.node_count, b.node_count)):
        if a.feature[node] != b.feature[node] or a.threshold[node] != b.threshold[node]:
            return node
    return None


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 100_000),
    st.integers(1, 4),
    st.booleans(),
    st.sampled_from(["margin", "quality_plateau", "class_overlap", "none"]),
    st.sampled_from([3, None]),
)
def test_growths_differ_only_at_exact_ties(seed, n_features, weighted, method, depth):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(150, n_features)), 1).astype(np.float32)
    y = (X[:, 0] + rng.normal(scale=0.7, size=150) > 0).astype(int)
    w = rng.integers(0, 3, size=150).astype(float) if weighted else np.ones(150)
    w[:2], y[:2] = 1.0, [0, 1]
    params = dict(delta_method=method, max_depth=depth)
    ours = _fit(X, y, w, True, **params).tree_
    stump = _fit(X, y, w, False, **params).tree_
    node = _first_difference(ours, stump)
    if node is None:
        assert ours.node_count == stump.node_count
        assert np.array_equal(ours.delta, stump.delta)
        assert np.array_equal(ours.children_middle, stump.children_middle)
        return
    assert n_features > 1, "one feature cannot tie with another"
    rows = next(r for n, r in iter_node_rows(stump, X, "hard_middle") if n == node)
    rows = rows[w[rows] > 0]
    # the compiled search's choice on this node, and scikit-learn's (any seed: both maxima)
    ours_f, ours_t = best_split(X[rows], y[rows], w[rows], 2, "gini", 1, 0.0)
    cart = DecisionTreeClassifier(max_depth=1, random_state=seed).fit(
        X[rows], y[rows], sample_weight=w[rows]
    )
    cart_f, cart_t = int(cart.tree_.feature[0]), float(cart.tree_.threshold[0])
    if stump.feature[node] >= 0:
        cart_f, cart_t = int(stump.feature[node]), float(stump.threshold[node])
        if ours.feature[node] >= 0:
            assert ours.feature[node] < stump.feature[node], "the tie goes to the lowest index"
    a = _proxy(X, y, w, rows, ours_f, ours_t)
    b = _proxy(X, y, w, rows, cart_f, cart_t)
    assert a == pytest.approx(b, rel=1e-12, abs=1e-12)
