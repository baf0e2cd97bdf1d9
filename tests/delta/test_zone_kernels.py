"""The compiled margin pass equals the vectorised numpy one bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from ternary import TernaryTreeClassifier
from ternary.delta import margin_deltas
from ternary.delta.kernels import margin_deltas_compiled, zone_kernels_available
from ternary.tree import split_row_pairs

needs_numba = pytest.mark.skipif(not zone_kernels_available(), reason="numba unavailable")


def _case(seed, n_classes, rounded, weighted, depth):
    X, y = make_classification(
        400, 5, n_informative=3, n_redundant=0, n_classes=n_classes, random_state=seed
    )
    if rounded:
        X = np.round(X, 1)  # ties: rows with equal values must keep their order
    X = X.astype(np.float32)
    rng = np.random.default_rng(seed)
    w = rng.integers(0, 3, size=y.size).astype(float) if weighted else np.ones(y.size)
    w[:n_classes] = 1.0
    y[:n_classes] = np.arange(n_classes)
    clf = TernaryTreeClassifier(delta_method="none", max_depth=depth, random_state=seed)
    tree = clf.fit(X, y, sample_weight=w).tree_
    pair_rows, pair_nodes = split_row_pairs(tree, X, np.flatnonzero(w > 0))
    return (pair_rows, pair_nodes, tree.node_count, tree.feature, tree.threshold, X, y, w)


@needs_numba
@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(2, 4),
    st.booleans(),
    st.booleans(),
    st.integers(1, 9),
    st.sampled_from([0.05, 0.25, 1.0]),
)
def test_compiled_margin_equals_numpy_bit_for_bit(seed, n_classes, rounded, weighted, depth, cap):
    args = (*_case(seed, n_classes, rounded, weighted, depth), n_classes, cap)
    expected = margin_deltas(*args)
    assert np.array_equal(margin_deltas_compiled(*args), expected)
    assert np.array_equal(margin_deltas_compiled(*args, compiled=False), expected)
    assert (expected > 0).any() or depth == 0


def test_float64_rows_are_left_to_numpy():
    args = _case(0, 2, False, False, 3)
    X64 = args[5].astype(np.float64)
    assert margin_deltas_compiled(*args[:5], X64, *args[6:], 2, 0.25) is None
