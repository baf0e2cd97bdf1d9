"""The hard-middle builder is configured with explicit parameters and grows one way.

`TernaryTreeClassifier` makes a frozen `HardMiddleBuilder` from its own parameters; the
builder grows over rows sorted once whatever the split search, so the stump search
(a random ``max_features`` subset) gives the same tree with the compiled kernels and
with their numpy stand-ins.
"""

import dataclasses

import numpy as np
import pytest
from sklearn.utils import check_random_state

from ternary import TernaryTreeClassifier
from ternary.compiled import without


def _data(seed=2, n=240):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 4)), 1).astype(np.float32)
    y = (X[:, 0] - X[:, 1] * X[:, 3] + rng.normal(scale=0.5, size=n) > 0).astype(int)
    y[rng.random(n) < 0.15] = 2
    return X, y


def _arrays(tree):
    return {name: getattr(tree, name) for name in tree._ARRAYS}


def test_the_estimator_configures_a_frozen_builder():
    X, y = _data()
    clf = TernaryTreeClassifier(
        routing="hard_middle",
        delta_method="quality_plateau",
        max_depth=5,
        min_samples_leaf=2,
        min_samples_middle=7,
        zone_edges="closed",
        criterion="entropy",
        random_state=3,
    ).fit(X, y)
    builder = clf._hard_middle_builder()
    assert (builder.max_depth, builder.min_samples_leaf, builder.min_samples_middle) == (5, 2, 7)
    assert (builder.zone_edges, builder.criterion, builder.n_classes) == ("closed", "entropy", 3)
    assert builder.delta.method == "quality_plateau" and builder.delta.criterion == "entropy"
    assert builder.private_stream and builder.compiled_search
    with pytest.raises(dataclasses.FrozenInstanceError):
        builder.max_depth = 2  # type: ignore[misc]
    # the builder alone grows the estimator's tree
    _, _, y_enc, weights = clf._prepare(X, y, None)
    grown = builder.build(X, y_enc, weights, check_random_state(3))
    for name, array in _arrays(clf.tree_).items():
        np.testing.assert_array_equal(_arrays(grown)[name], array, err_msg=name)
    assert (clf.tree_.children_middle >= 0).any()


@pytest.mark.parametrize("method", ["margin", "node_bootstrap", "class_overlap"])
def test_the_stump_search_grows_the_same_tree_with_or_without_numba(method):
    X, y = _data()
    w = np.random.default_rng(0).integers(0, 3, size=len(y)).astype(float)
    params = dict(
        routing="hard_middle", delta_method=method, max_features=2, max_depth=6, random_state=0
    )
    fast = TernaryTreeClassifier(**params).fit(X, y, sample_weight=w)
    assert not fast._hard_middle_builder().compiled_search
    with without():  # as if numba were not installed: numpy sorts and partitions
        slow = TernaryTreeClassifier(**params).fit(X, y, sample_weight=w)
    assert fast.tree_.node_count == slow.tree_.node_count > 10
    for name, array in _arrays(slow.tree_).items():
        np.testing.assert_array_equal(_arrays(fast.tree_)[name], array, err_msg=name)
    assert (fast.tree_.children_middle >= 0).any()
