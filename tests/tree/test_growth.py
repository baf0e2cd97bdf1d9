"""The hard-middle growth's compiled steps equal their references, and so does the tree.

`ternary.tree.growth` sorts each feature once and partitions sorted row lists; each
kernel is checked against numpy (stable argsort, masks and ``bincount``) and against
the plain-Python source it is compiled from, and the split search over sorted lists
against `ternary.tree.best_split` on the same rows. The growth must build the same tree
bit for bit without its kernels (numpy sorts and partitions, `ternary.tree.best_split`
searches each node's rows sorted again), as the node-by-node growth it replaced did.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryTreeClassifier
from ternary.compiled import without
from ternary.delta import DeltaParams, NodeRows, node_delta
from ternary.delta.kernels import margin_delta_sorted
from ternary.tree import best_split, growth

needs_numba = pytest.mark.skipif(not growth.kernels_available(), reason="numba unavailable")

NODES = st.tuples(
    st.integers(0, 2**31),  # seed
    st.integers(1, 90),  # rows
    st.integers(1, 4),  # features
    st.integers(2, 4),  # classes
    st.sampled_from(["ones", "integers", "fractions"]),
)


def _node(params):
    seed, n, n_features, k, weighting = params
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, n_features)), 1).astype(np.float32)  # many ties
    XT = np.ascontiguousarray(X.T)
    y = rng.integers(0, k, size=n).astype(np.intp)
    w = {
        "ones": np.ones(n),
        "integers": rng.integers(0, 3, size=n).astype(float),  # zeros too
        "fractions": rng.random(n) * (rng.random(n) > 0.2),
    }[weighting]
    rows = np.flatnonzero(rng.random(n) < 0.8).astype(np.intp)  # a node: some rows, ascending
    return rng, X, XT, y, w, rows, k


def _same(a, b):
    rows_a, order_a, counts_a = a
    rows_b, order_b, counts_b = b
    for c in range(3):
        np.testing.assert_array_equal(rows_a[c], rows_b[c])
        if order_a is None or order_b is None:
            assert order_a is None and order_b is None
        else:
            assert order_a[c].shape == order_b[c].shape
            np.testing.assert_array_equal(order_a[c], order_b[c])
    np.testing.assert_array_equal(counts_a, counts_b)  # bit for bit


@needs_numba
@settings(max_examples=80, deadline=None)
@given(NODES)
def test_presort_is_a_stable_sort_of_each_feature(params):
    _, X, XT, _, w, rows, _ = _node(params)
    positive = rows[w[rows] > 0]
    expected = positive[np.argsort(X[positive], axis=0, kind="stable").T]
    np.testing.assert_array_equal(growth.presort(XT, positive), expected)
    np.testing.assert_array_equal(growth.presort(XT, positive, compiled=False), expected)


@needs_numba
@settings(max_examples=80, deadline=None)
@given(NODES, st.sampled_from(["gini", "entropy"]), st.integers(1, 3))
def test_split_over_sorted_rows_is_best_split_of_the_node(params, criterion, min_leaf):
    _, X, XT, y, w, rows, k = _node(params)
    positive = rows[w[rows] > 0]
    order = growth.presort(XT, positive)
    expected = None
    if positive.size >= 2:
        expected = best_split(X[positive], y[positive], w[positive], k, criterion, min_leaf, 0.1)
    args = (XT, y, w, rows, order, k, criterion, min_leaf, 0.1)
    assert growth.best_split_sorted(*args) == expected
    assert growth.best_split_sorted(*args, compiled=False) == expected


@needs_numba
@settings(max_examples=80, deadline=None)
@given(NODES, st.sampled_from([0.0, 0.05, 0.1, 0.35]), st.booleans())
def test_partition_equals_numpy_masks_and_bincount(params, d, fill_order):
    rng, X, XT, y, w, rows, k = _node(params)
    positive = rows[w[rows] > 0]
    order = growth.presort(XT, positive)
    f = int(rng.integers(X.shape[1]))
    # a threshold on a data value or a midpoint, and bounds that can land on data (x.x5)
    t = float(X[rows[0], f]) + float(rng.choice([0.0, 0.05])) if rows.size else 0.0
    low, high = (t, t) if d == 0.0 else (t - d, t + d)
    args = (XT, y, w, rows, order, f, low, high, k)
    reference = growth.partition_numpy(*args, fill_order=fill_order)
    _same(growth.partition(*args, fill_order=fill_order), reference)
    _same(growth.partition(*args, fill_order=fill_order, compiled=False), reference)
    # the children's sorted lists are the stable sorts of their positive-weight rows
    if fill_order:
        for child, child_order in zip(reference[0], reference[1], strict=True):
            np.testing.assert_array_equal(
                child_order, growth.presort(XT, child[w[child] > 0], compiled=False)
            )
    # compared in float64, as prediction compares: the float32 value widened (exactly)
    # against the float64 bounds (a Python float bound would be rounded to float32)
    x = X[rows, f].astype(np.float64)
    np.testing.assert_array_equal(reference[0][0], rows[x <= low])
    np.testing.assert_array_equal(reference[0][1], rows[x > high])


@needs_numba
@settings(max_examples=80, deadline=None)
@given(NODES, st.sampled_from([0.25, 0.05, 1.0]), st.sampled_from([1.0, 0.5]))
def test_margin_over_sorted_rows_is_node_delta(params, fraction, scale):
    rng, X, XT, y, w, rows, k = _node(params)
    positive = rows[w[rows] > 0]
    order = growth.presort(XT, positive)
    f = int(rng.integers(X.shape[1]))
    by_f = order[f]
    values = XT[f, by_f].astype(np.float64)
    # thresholds between values, on a value, and outside the rows
    t = float(rng.choice(values)) + float(rng.choice([0.05, 0.0])) if by_f.size else 0.0
    for theta in (t, -9.0, 9.0):
        node = NodeRows(values, y[by_f], w[by_f], theta, k)
        margin = DeltaParams("margin", max_delta_fraction=fraction, delta_scale=scale)
        expected = node_delta(node, margin)
        args = (XT, y, w, by_f, f, theta, k, fraction, scale)
        assert margin_delta_sorted(*args) == expected
        assert margin_delta_sorted(*args, compiled=False) == expected


def test_without_numba_the_numpy_paths_answer():
    rng = np.random.default_rng(0)
    XT = np.round(rng.normal(size=(3, 40)), 1).astype(np.float32)
    y = rng.integers(0, 2, size=40).astype(np.intp)
    w = np.ones(40)
    rows = np.arange(40, dtype=np.intp)
    compiled_order = growth.presort(XT, rows)
    compiled_parts = growth.partition(XT, y, w, rows, compiled_order, 1, 0.0, 0.2, 2)
    with without("growth", "zones"):  # as if numba were not installed
        assert not growth.kernels_available()
        order = growth.presort(XT, rows)
        np.testing.assert_array_equal(order, compiled_order)
        _same(growth.partition(XT, y, w, rows, order, 1, 0.0, 0.2, 2), compiled_parts)
        assert growth.best_split_sorted(XT, y, w, rows, order, 2, "gini", 1, 0.0) is None
        assert margin_delta_sorted(XT, y, w, order[0], 0, 0.0, 2, 0.25, 1.0) is None
    assert growth.kernels_available()  # back after the block


def _tree_arrays(tree):
    return {name: getattr(tree, name) for name in tree._ARRAYS}


@needs_numba
@pytest.mark.parametrize(
    "method, depth, weighting, criterion",
    [
        ("margin", None, "ones", "gini"),
        ("node_bootstrap", 6, "integers", "gini"),
        ("quality_plateau", None, "fractions", "entropy"),
        ("class_overlap", 3, "ones", "entropy"),
        ("gain_ratio", None, "integers", "gini"),
    ],
)
def test_sorted_growth_builds_the_node_by_node_tree(method, depth, weighting, criterion):
    rng = np.random.default_rng(7)
    X = np.round(rng.normal(size=(300, 4)), 1).astype(np.float32)
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.6, size=300) > 0).astype(int)
    y[rng.random(300) < 0.2] = 2
    w = {
        "ones": None,
        "integers": rng.integers(0, 3, size=300).astype(float),
        "fractions": rng.random(300) + 0.1 * (rng.random(300) > 0.3),
    }[weighting]
    params = dict(
        routing="hard_middle",
        delta_method=method,
        max_depth=depth,
        criterion=criterion,
        min_samples_leaf=2,
        min_weight_fraction_leaf=0.01,
        random_state=0,
    )
    fast = TernaryTreeClassifier(**params).fit(X, y, sample_weight=w)
    with without("growth"):  # numpy sorts and partitions; the node scan searches
        slow = TernaryTreeClassifier(**params).fit(X, y, sample_weight=w)
    assert fast.tree_.node_count == slow.tree_.node_count > 10
    for name, array in _tree_arrays(slow.tree_).items():
        np.testing.assert_array_equal(_tree_arrays(fast.tree_)[name], array, err_msg=name)
    np.testing.assert_array_equal(fast.feature_importances_, slow.feature_importances_)
    assert (fast.tree_.children_middle >= 0).any()
