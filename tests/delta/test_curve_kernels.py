"""The compiled quality-plateau, gain-ratio and class-overlap passes equal node_delta exactly."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryTreeClassifier
from ternary.delta import DeltaParams, NodeRows, node_delta, split_deltas
from ternary.delta.kernels import (
    CURVE_METHODS,
    node_delta_compiled,
    node_delta_sorted,
    tree_zone_deltas,
    zone_deltas_compiled,
    zone_kernels_available,
)
from ternary.tree import LEAF, iter_node_rows, split_row_pairs

needs_numba = pytest.mark.skipif(not zone_kernels_available(), reason="numba unavailable")


def _data(seed, n, n_classes, ties, weighting):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    X = rng.normal(size=(n, 4)) + 0.8 * y[:, None] * rng.normal(size=4)
    if ties == "rounded":
        X = np.round(X, 1)
    elif ties == "levels":  # a few values per column, like counts or one-hot codes
        X = np.floor(X)
    X[:, 3] = 1.5  # a constant column
    if weighting == "none":
        w = np.ones(n)
    elif weighting == "counts":  # zeros included: such rows are absent
        w = rng.integers(0, 3, n).astype(float)
    else:
        w = rng.random(n) * 3.0  # sums that depend on their order
    w[:n_classes] = 1.0
    return X.astype(np.float32), y, w


def _tree(X, y, w, depth, min_samples_leaf):
    clf = TernaryTreeClassifier(
        delta_method="none", max_depth=depth, min_samples_leaf=min_samples_leaf, random_state=0
    )
    return clf.fit(X, y, sample_weight=w).tree_


def _node_by_node(tree, X, y, w, n_classes, params):
    want = np.zeros(tree.node_count)
    for node, rows in iter_node_rows(tree, X):
        if tree.children_left[node] != LEAF:
            f = tree.feature[node]
            node_rows = NodeRows.from_arrays(
                X[rows, f], y[rows], w[rows], tree.threshold[node], n_classes
            )
            want[node] = node_delta(node_rows, params)
    return want


@needs_numba
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(12, 160),
    n_classes=st.integers(2, 10),
    ties=st.sampled_from(["none", "rounded", "levels"]),
    weighting=st.sampled_from(["none", "counts", "real"]),
    depth=st.sampled_from([1, 3, 6, None]),
    tree_leaf=st.integers(1, 4),
    method=st.sampled_from(CURVE_METHODS),
    criterion=st.sampled_from(["gini", "entropy"]),
    epsilon=st.sampled_from([0.0, 0.01, 0.05, 0.3, 1.0]),
    alpha=st.floats(0.01, 1.0),
    q=st.sampled_from([0.0, 0.1, 0.25, 0.37, 0.5]),
    delta_leaf=st.integers(1, 6),
    cap=st.sampled_from([0.05, 0.25, 1.0]),
    scale=st.sampled_from([0.5, 1.0, 2.5]),
)
def test_compiled_zone_passes_equal_node_delta_bit_for_bit(
    seed, n, n_classes, ties, weighting, depth, tree_leaf, method, criterion, epsilon, alpha,
    q, delta_leaf, cap, scale,
):  # fmt: skip
    X, y, w = _data(seed, n, n_classes, ties, weighting)
    tree = _tree(X, y, w, depth, tree_leaf)
    params = DeltaParams(
        method=method, criterion=criterion, epsilon=epsilon, alpha=alpha, q=q,
        min_samples_leaf=delta_leaf, max_delta_fraction=cap, delta_scale=scale,
    )  # fmt: skip
    want = _node_by_node(tree, X, y, w, n_classes, params)
    got = tree_zone_deltas(tree, X, y, w, n_classes, params)
    np.testing.assert_array_equal(got, want)
    pair_rows, pair_nodes = split_row_pairs(tree, X, np.flatnonzero(w > 0))
    args = (pair_rows, pair_nodes, tree.node_count, tree.feature, tree.threshold, X, y, w)
    uncompiled = zone_deltas_compiled(*args, n_classes, params, compiled=False)
    np.testing.assert_array_equal(uncompiled, want)


@needs_numba
@pytest.mark.parametrize("method", CURVE_METHODS)
def test_a_fit_takes_the_compiled_pass_and_numpy_answers_without_it(method):
    X, y, w = _data(3, 300, 3, "rounded", "real")
    params = DeltaParams(method=method, max_delta_fraction=0.5, q=0.2, epsilon=0.1)
    tree = _tree(X, y, w, None, 1)
    want = _node_by_node(tree, X, y, w, 3, params)
    assert (want > 0).sum() >= 3  # real zones, not zeros equal by accident
    # float32 rows: the compiled pass answers; float64 rows: it declines, node by node serves
    np.testing.assert_array_equal(tree_zone_deltas(tree, X, y, w, 3, params), want)
    assert tree_zone_deltas(tree, X.astype(np.float64), y, w, 3, params) is None
    for rows in (X, X.astype(np.float64)):
        got = split_deltas(tree, rows, y, w, 3, params, np.random.RandomState(0))
        np.testing.assert_array_equal(got, want)


def test_a_method_without_a_compiled_pass_is_refused_by_name():
    X, y, w = _data(0, 40, 2, "none", "none")
    empty = np.zeros(0, dtype=np.intp)
    with pytest.raises(ValueError, match="No compiled pass for delta_method 'margin'"):
        zone_deltas_compiled(
            empty, empty, 1, empty, np.zeros(1), X, y, w, 2, DeltaParams(method="margin")
        )


def test_small_candidate_buffers_give_the_same_zones(monkeypatch):
    # the plateau pass fills its buffer node by node and starts again: rounds must not matter
    from ternary.delta import kernels

    X, y, w = _data(5, 150, 4, "rounded", "real")
    tree = _tree(X, y, w, 5, 1)
    params = DeltaParams(method="quality_plateau", epsilon=0.2, max_delta_fraction=1.0)
    want = _node_by_node(tree, X, y, w, 4, params)
    monkeypatch.setattr(kernels, "_CANDIDATE_BUFFER", 8)
    pair_rows, pair_nodes = split_row_pairs(tree, X, np.flatnonzero(w > 0))
    args = (pair_rows, pair_nodes, tree.node_count, tree.feature, tree.threshold, X, y, w)
    np.testing.assert_array_equal(zone_deltas_compiled(*args, 4, params, compiled=False), want)
    assert (want > 0).any()


@needs_numba
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(0, 40),
    n_classes=st.integers(2, 9),
    ties=st.sampled_from(["none", "rounded", "levels"]),
    weighting=st.sampled_from(["none", "counts", "real"]),
    method=st.sampled_from([*CURVE_METHODS, "margin"]),
    criterion=st.sampled_from(["gini", "entropy"]),
    at=st.floats(0.0, 1.0),
    epsilon=st.sampled_from([0.0, 0.05, 0.5]),
    q=st.sampled_from([0.0, 0.1, 0.5]),
    scale=st.sampled_from([0.5, 1.0]),
)
def test_one_node_compiled_equals_node_delta(
    seed, n, n_classes, ties, weighting, method, criterion, at, epsilon, q, scale
):
    # the hard-middle growth's call: one node's rows, any threshold between their values
    X, y, w = _data(seed, max(n, n_classes), n_classes, ties, weighting)
    X, y, w = X[:n], y[:n], w[:n]
    column = X[:, 0]
    threshold = float(np.quantile(column, at)) if n else 0.0
    params = DeltaParams(
        method=method, criterion=criterion, epsilon=epsilon, q=q, alpha=0.3,
        min_samples_leaf=2, max_delta_fraction=0.4, delta_scale=scale,
    )  # fmt: skip
    rows = NodeRows.from_arrays(column, y, w, threshold, n_classes)
    want = node_delta(rows, params)
    got = node_delta_compiled(column, y, w, threshold, n_classes, params)
    assert got == want
    # the same from the rows as NodeRows sorts them (a grower that keeps them sorted)
    lean = node_delta_sorted(rows.values, rows.y, rows.w, threshold, n_classes, params)
    assert lean == (want if method != "margin" else None)
    as64 = column.astype(np.float64)
    assert node_delta_compiled(as64, y, w, threshold, n_classes, params) is None
