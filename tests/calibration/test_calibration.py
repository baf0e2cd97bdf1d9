"""The zones' scale: which scale flags a share, and the bayes scale's one fit fewer."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_moons

from ternary import TernaryTreeClassifier
from ternary.metrics import scale_for_share


@settings(max_examples=80, deadline=None)
@given(
    distances=st.lists(
        st.one_of(st.sampled_from([0.0, 0.5, 1.0, np.inf]), st.floats(0, 5)),
        min_size=1,
        max_size=40,
    ),
    share=st.floats(0, 1),
)
def test_scale_for_share_flags_the_reachable_count_nearest_the_share(distances, share):
    d = np.array(distances)
    scale = scale_for_share(d, share, 1.0, max_scale=10.0)
    k = round(share * d.size)
    # tied rows go together: the counts a scale can flag, the one nearest k (smaller on a tie)
    reachable = sorted({int(np.sum(d < v)) for v in d} | {d.size})
    target = min(reachable, key=lambda c: (abs(c - k), c))
    if scale < 10.0:
        assert np.sum(d < scale) == target
    else:
        assert np.sum(d < scale) <= target


def test_scale_for_share_is_a_refit_that_flags_that_share():
    X, y = make_moons(400, noise=0.3, random_state=0)
    clf = TernaryTreeClassifier(max_depth=4, random_state=0).fit(X, y)
    distance = clf.boundary_distance(X)
    scale = scale_for_share(distance, 0.2, clf.delta_scale_)
    refit = TernaryTreeClassifier(max_depth=4, delta_scale=scale, random_state=0).fit(X, y)
    flagged = 1 - refit.predict_verdict(X)
    np.testing.assert_array_equal(flagged, distance < scale / clf.delta_scale_)
    assert 0.15 <= flagged.mean() <= 0.25


@pytest.mark.parametrize("routing", ["probabilistic", "deferred"])
@pytest.mark.parametrize("method", ["margin", "node_bootstrap"])
def test_a_bayes_fit_is_a_fit_at_its_scale(method, routing):
    # the bayes fit takes its in-sample probe's tree; it must be the tree a fit at
    # delta_scale_ grows, bit for bit
    X, y = make_moons(300, noise=0.35, random_state=1)
    params = dict(delta_method=method, routing=routing, graft="all", random_state=3)
    bayes = TernaryTreeClassifier(delta_scale="bayes", **params).fit(X, y)
    plain = TernaryTreeClassifier(delta_scale=bayes.delta_scale_, **params).fit(X, y)
    assert 0 < bayes.delta_scale_ != 1.0
    for name in ("threshold", "delta", "value", "children_left", "grafted"):
        np.testing.assert_array_equal(getattr(bayes.tree_, name), getattr(plain.tree_, name))
    np.testing.assert_array_equal(bayes.predict_proba(X), plain.predict_proba(X))
    np.testing.assert_array_equal(bayes.boundary_distance(X), plain.boundary_distance(X))
    np.testing.assert_array_equal(bayes.feature_importances_, plain.feature_importances_)
