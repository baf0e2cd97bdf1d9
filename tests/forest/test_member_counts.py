"""Members fitted on drawn rows weighted by their counts are the members on repeated rows.

`ternary._forest._counts_serve` lets a member fit on the distinct rows of its bootstrap
sample with the draw counts as weights (as scikit-learn's forests do) where that gives
the same tree; every array of every member, and the forest's outputs, must then equal
the fit on the repeated rows bit for bit.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ternary._forest as forest_module
from ternary import TernaryForestClassifier

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


def _fit(X, y, counts_as_weights, **params):
    original = forest_module._COUNTS_AS_WEIGHTS
    forest_module._COUNTS_AS_WEIGHTS = counts_as_weights
    try:
        return TernaryForestClassifier(n_estimators=4, random_state=0, **params).fit(X, y)
    finally:
        forest_module._COUNTS_AS_WEIGHTS = original


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
    weighted = _fit(X, y, True, **params)
    repeated = _fit(X, y, False, **params)
    assert forest_module._counts_serve(weighted.estimators_[0], None)
    for a, b in zip(weighted.estimators_, repeated.estimators_, strict=True):
        for name in ARRAYS:
            assert np.array_equal(getattr(a.tree_, name), getattr(b.tree_, name)), name
        assert np.array_equal(a.feature_importances_, b.feature_importances_)
    proba_a, verdict_a = weighted.predict_proba_verdict(X)
    proba_b, verdict_b = repeated.predict_proba_verdict(X)
    assert np.array_equal(proba_a, proba_b)
    assert np.array_equal(verdict_a, verdict_b)


@pytest.mark.parametrize(
    "params",
    [
        dict(delta_method="class_overlap"),
        dict(delta_method="node_bootstrap"),
        dict(min_samples_leaf=2),
        dict(min_samples_split=4),
        dict(delta_scale="bayes"),
    ],
)
def test_row_counting_settings_keep_the_repeated_rows(params):
    forest = TernaryForestClassifier(n_estimators=2, random_state=0, **params)
    member = forest._member_template()
    assert not forest_module._counts_serve(member, None)


def test_weighted_rows_keep_the_repeated_rows():
    member = TernaryForestClassifier()._member_template()
    assert forest_module._counts_serve(member, None)
    assert not forest_module._counts_serve(member, np.ones(3))
