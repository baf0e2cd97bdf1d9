"""The confidence rankings of issue 30 and the Laplace baselines they are measured against."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from ternary import TernaryForestClassifier, TernaryTreeClassifier
from ternary.experiment import laplace_cart_confidence, laplace_forest_confidence
from ternary.tree import zone_distance

STEP = 2.0**-30

# five rows on one feature: a stump at 1.5, leaves {0, 0} and {1, 1, 1}
X5 = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
Y5 = np.array([0, 0, 1, 1, 1])


def test_laplace_cart_baseline_is_the_smoothed_leaf_with_the_gap_breaking_ties():
    cart = DecisionTreeClassifier(max_depth=1).fit(X5, Y5)
    pred, conf = laplace_cart_confidence(cart, X5, X5.std(axis=0))
    assert pred.tolist() == [0, 0, 1, 1, 1]
    # (n_c + 1) / (n + K): 3/4 on the left, 4/5 on the right, to within one 2^-30 step
    np.testing.assert_allclose(conf, [0.75, 0.75, 0.8, 0.8, 0.8], atol=STEP)
    # within a leaf, the row farther from θ = 1.5 ranks higher
    assert conf[0] > conf[1] and conf[4] > conf[3] > conf[2]
    # and the smoothed probability orders across leaves before any gap does
    assert conf[2] > conf[0]


def test_laplace_cart_baseline_ranks_a_big_pure_leaf_above_a_small_one():
    # Chow's raw frequency ties them at 1.0; Laplace puts the 1-row leaf at 2/3
    X = np.array([[0.0], [1.0], [2.0], [3.0], [10.0]])
    y = np.array([0, 0, 0, 0, 1])
    cart = DecisionTreeClassifier(max_depth=1).fit(X, y)
    assert cart.predict_proba(X).max(axis=1).tolist() == [1.0] * 5
    _, conf = laplace_cart_confidence(cart, X, X.std(axis=0))
    np.testing.assert_allclose(conf, [5 / 6] * 4 + [2 / 3], atol=STEP)


def test_laplace_forest_baseline_is_the_mean_of_the_trees_smoothed_leaves():
    rf = RandomForestClassifier(n_estimators=3, max_depth=1, bootstrap=False, random_state=0)
    rf.fit(X5, Y5)  # one feature, no bootstrap: three copies of the stump
    pred, conf = laplace_forest_confidence(rf, X5)
    assert pred.tolist() == [0, 0, 1, 1, 1]
    np.testing.assert_allclose(conf, [0.75, 0.75, 0.8, 0.8, 0.8], rtol=1e-12)


def _tree_stump(confidence):
    return TernaryTreeClassifier(max_depth=1, delta_method="none", confidence=confidence).fit(
        X5, Y5
    )


def test_laplace_tree_without_zones_equals_the_cart_baseline():
    tree = _tree_stump("laplace")
    cart = DecisionTreeClassifier(max_depth=1).fit(X5, Y5)
    _, baseline = laplace_cart_confidence(cart, X5, X5.std(axis=0))
    np.testing.assert_array_equal(tree.predict_confidence(X5), baseline)


def test_laplace_tree_blends_the_smoothed_leaves_through_the_zone():
    # margin δ on the stump: θ = 1.5, δ = 0.5, so x = 1.25 is in the zone with w_L = 0.75
    tree = TernaryTreeClassifier(max_depth=1).fit(X5, Y5)
    assert tree.tree_.threshold[0] == 1.5 and tree.tree_.delta[0] == 0.5
    conf = tree.predict_confidence(np.array([[1.25]]))
    # the predicted class is 0 (raw blend 0.75 · 1 + 0.25 · 0); its Laplace blend is
    # 0.75 · 3/4 + 0.25 · 1/5
    np.testing.assert_allclose(conf, [0.75 * 0.75 + 0.25 * 0.2], atol=STEP)


def test_paper_confidence_is_the_old_ranking():
    # the ranking before issue 30, written out: max blended proba, zone distance as tie
    X, y = make_classification(300, 5, n_informative=3, random_state=1)
    tree = TernaryTreeClassifier(max_depth=4, random_state=0, confidence="paper").fit(X, y)
    rows = X.astype(np.float32)
    distance = zone_distance(tree.tree_, rows, tree.routing)
    with np.errstate(invalid="ignore"):
        tie = np.where(np.isinf(distance), 1.0, distance / (1.0 + distance))
    tie = np.minimum(tie, 1.0 - 2.0**-20)
    steps = 2.0**30
    old = (np.floor(tree.predict_proba(X).max(axis=1) * (steps - 1)) + tie) / steps
    np.testing.assert_array_equal(tree.predict_confidence(X), old)


def test_default_confidence_is_laplace_and_breaks_the_paper_rankings_ties():
    X, y = make_classification(400, 6, n_informative=4, random_state=2)
    tree = TernaryTreeClassifier(max_depth=None, random_state=0).fit(X, y)
    assert tree.confidence == "laplace"
    smoothed = tree.predict_confidence(X)
    paper = tree.set_params(confidence="paper").predict_confidence(X)
    # unlimited depth: every leaf pure, so the paper's scores tie at 1 far more often
    assert np.unique(smoothed).size > np.unique(paper).size


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_laplace_confidence_is_deterministic_in_range_and_survives_pickling(routing):
    X, y = make_classification(300, 5, n_informative=3, n_classes=3, random_state=3)
    fit = lambda: TernaryTreeClassifier(max_depth=6, routing=routing, random_state=4).fit(X, y)  # noqa: E731
    a, b = fit(), fit()
    conf = a.predict_confidence(X)
    np.testing.assert_array_equal(conf, b.predict_confidence(X))
    assert np.all((conf >= 0) & (conf < 1))
    loaded = pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(loaded.predict_confidence(X), conf)


def test_laplace_confidence_survives_skops_with_no_new_type(tmp_path):
    sio = pytest.importorskip("skops.io")
    X, y = make_classification(200, 4, random_state=5)
    tree = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    path = tmp_path / "tree.skops"
    sio.dump(tree, path)
    untrusted = sio.get_untrusted_types(file=path)
    assert sorted(untrusted) == [
        "ternary._classes.TernaryTreeClassifier",
        "ternary.tree.TernaryTree",
    ]
    loaded = sio.load(path, trusted=untrusted)
    np.testing.assert_array_equal(loaded.predict_confidence(X), tree.predict_confidence(X))


def test_forest_confidence_rankings_and_their_proba():
    X, y = make_classification(300, 6, n_informative=4, random_state=6)
    forest = TernaryForestClassifier(n_estimators=5, max_depth=5, random_state=0).fit(X, y)
    assert forest.confidence == "paper"  # the forest's default stays the paper's
    paper = forest.predict_confidence(X)
    smoothed = forest.set_params(confidence="laplace").predict_confidence(X)
    proba, share = forest.predict_proba(X), forest.decided_fraction(X)
    np.testing.assert_array_equal(paper, proba.max(axis=1) + 1e-9 * share)
    assert not np.allclose(smoothed, paper)
    # smoothing only ever pulls the predicted class's mean probability off its extremes
    assert np.all((smoothed > 0) & (smoothed < 1 + 1e-8))
    # the members fit nothing for the forest's ranking
    assert {tree.confidence for tree in forest.estimators_} == {"paper"}


def test_forest_laplace_without_zones_or_bootstrap_matches_the_random_forest_baseline():
    forest = TernaryForestClassifier(
        n_estimators=3, max_depth=1, bootstrap=False, delta_method="none", confidence="laplace"
    ).fit(X5, Y5)
    rf = RandomForestClassifier(n_estimators=3, max_depth=1, bootstrap=False).fit(X5, Y5)
    _, baseline = laplace_forest_confidence(rf, X5)
    # every member decides every row: the tie term adds exactly 1e-9
    np.testing.assert_allclose(forest.predict_confidence(X5), baseline + 1e-9, rtol=1e-12)


def test_an_unknown_confidence_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="confidence"):
        TernaryTreeClassifier(confidence="smoothed").fit(X5, Y5)


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(8, 60),
    k=st.integers(2, 4),
    depth=st.sampled_from([1, 3, None]),
    seed=st.integers(0, 10_000),
)
def test_laplace_tree_without_zones_is_the_cart_baseline_on_any_data(n, k, depth, seed):
    # no zone: the blend is CART's leaf, so "laplace" must be the baseline to the last bit
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 3)), 1)  # repeated values: ties in gaps and splits
    y = rng.integers(0, k, size=n)
    tree = TernaryTreeClassifier(
        max_depth=depth, delta_method="none", random_state=0, confidence="laplace"
    ).fit(X, y)
    cart = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    pred, baseline = laplace_cart_confidence(
        cart, X, X.astype(np.float32).std(axis=0, dtype=np.float64)
    )
    np.testing.assert_array_equal(tree.predict(X), pred)
    np.testing.assert_array_equal(tree.predict_confidence(X), baseline)
