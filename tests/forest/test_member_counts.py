"""Each member is the tree fitted on its bootstrap rows, repeats and all, bit for bit.

The forest fits a member on the distinct rows of its sample with the draw counts as
weights (as scikit-learn's forests do) where that gives the same tree, and on the
repeated rows otherwise; either way every array of every member must equal
``TernaryTreeClassifier(**member.get_params()).fit(X[rows], y[rows])`` for the rows
``estimators_samples_`` lists, which is what the forest's documentation promises.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryForestClassifier, TernaryTreeClassifier

ARRAYS = (
    "children_left",
    "children_right",
    "feature",
    "threshold",
    "delta",
    "value",
    "impurity",
    "n_node_samples",
    "weighted_n_node_samples",
)


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 100_000),
    st.sampled_from(["margin", "gain_ratio", "quality_plateau", "none"]),
    st.sampled_from(["probabilistic", "deferred"]),
    st.sampled_from([3, None]),
    st.sampled_from(["sqrt", None]),
    st.sampled_from([0.0, 0.01]),
    st.booleans(),
)
def test_counts_as_weights_give_the_same_members(
    seed, method, routing, depth, max_features, ccp_alpha, rounded
):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(160, 4))
    if rounded:
        X = np.round(X, 1)  # tied values inside a sample
    y = (X[:, 0] + X[:, 1] + rng.normal(scale=0.8, size=160) > 0).astype(int)
    params = dict(
        delta_method=method,
        routing=routing,
        max_depth=depth,
        max_features=max_features,
        ccp_alpha=ccp_alpha,
    )
    _assert_members_are_lone_trees(X, y, params)


def _assert_members_are_lone_trees(X, y, params):
    forest = TernaryForestClassifier(n_estimators=4, random_state=0, **params).fit(X, y)
    for member, rows in zip(forest.estimators_, forest.estimators_samples_, strict=True):
        lone = TernaryTreeClassifier(**member.get_params()).fit(X[rows], y[rows])
        for name in ARRAYS:
            assert np.array_equal(getattr(member.tree_, name), getattr(lone.tree_, name)), name
        assert np.array_equal(member.feature_importances_, lone.feature_importances_)
        proba, verdict = member.predict_proba_verdict(X)
        lone_proba, lone_verdict = lone.predict_proba_verdict(X)
        assert np.array_equal(proba, lone_proba)
        assert np.array_equal(verdict, lone_verdict)


@pytest.mark.parametrize(
    "params",
    [
        dict(delta_method="class_overlap"),
        dict(delta_method="node_bootstrap", n_bootstraps=5),
        dict(min_samples_leaf=2),
        dict(min_samples_split=4),
    ],
)
def test_row_counting_settings_give_the_lone_trees_too(params):
    """Settings that count rows (so the forest repeats them) keep the same promise."""
    rng = np.random.default_rng(3)
    X = np.round(rng.normal(size=(120, 3)), 1)
    y = (X[:, 0] + rng.normal(scale=0.8, size=120) > 0).astype(int)
    _assert_members_are_lone_trees(X, y, dict(max_depth=4, **params))
