"""Risk–coverage metrics against brute force, and the risk guarantee of SGR."""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from ternary.selective import (
    RiskControlledClassifier,
    augrc,
    aurc,
    binomial_upper_bound,
    coverage_at_risk,
    e_aurc,
    optimal_aurc,
    risk_at_coverage,
    risk_coverage_curve,
    sgr_threshold,
)

# ----------------------------------------------------------------- brute force references


def _orders(confidence):
    """Every order of the rows consistent with decreasing confidence (equally likely)."""
    n = len(confidence)
    for perm in itertools.permutations(range(n)):
        if all(confidence[perm[i]] >= confidence[perm[i + 1]] for i in range(n - 1)):
            yield perm


def _brute_errors(wrong, confidence):
    """Mean over every tie-consistent order of the cumulative error counts E_1..E_n."""
    runs = [np.cumsum([wrong[i] for i in perm]) for perm in _orders(confidence)]
    return np.mean(runs, axis=0), runs


def _tie_averaged_aurc(wrong, confidence):
    """AURC from each row's chance of being among the top k, in plain Python loops."""
    n = len(wrong)
    total = 0.0
    for i in range(n):
        if not wrong[i]:
            continue
        ahead = sum(1 for c in confidence if c > confidence[i])
        tied = sum(1 for c in confidence if c == confidence[i])
        for k in range(1, n + 1):
            total += min(max((k - ahead) / tied, 0.0), 1.0) / k
    return total / n


small_cases = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.1, 0.5, 0.5, 0.9]), min_size=n, max_size=n),
    )
)


def _labels(wrong):
    y_true = np.zeros(len(wrong), dtype=int)
    return y_true, np.asarray(wrong, dtype=int)


@settings(max_examples=60, deadline=None)
@given(small_cases, st.floats(0.01, 1.0))
def test_curve_and_areas_equal_the_mean_over_every_order_of_ties(case, c):
    wrong, confidence = case
    y_true, y_pred = _labels(wrong)
    expected, runs = _brute_errors(wrong, confidence)
    n = len(wrong)
    k = np.arange(1, n + 1)
    coverage, risk = risk_coverage_curve(y_true, y_pred, confidence)
    np.testing.assert_allclose(coverage, k / n)
    np.testing.assert_allclose(risk, expected / k, atol=1e-12)
    per_order_aurc = [np.mean(run / k) for run in runs]
    assert aurc(y_true, y_pred, confidence) == pytest.approx(np.mean(per_order_aurc), abs=1e-12)
    assert augrc(y_true, y_pred, confidence) == pytest.approx(
        np.mean([np.mean(run / n) for run in runs]), abs=1e-12
    )
    # a fraction of the next row: per order, the interpolated count over c·n, then the mean
    per_order = [np.interp(c * n, np.arange(n + 1), np.r_[0, run]) / (c * n) for run in runs]
    assert risk_at_coverage(y_true, y_pred, confidence, c) == pytest.approx(
        np.mean(per_order), abs=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.sampled_from([0.0, 0.2, 0.2, 0.7, 1.0])),
        min_size=1,
        max_size=40,
    )
)
def test_aurc_equals_an_independent_tie_averaged_implementation(pairs):
    wrong = [p[0] for p in pairs]
    confidence = [p[1] for p in pairs]
    y_true, y_pred = _labels(wrong)
    assert aurc(y_true, y_pred, confidence) == pytest.approx(
        _tie_averaged_aurc(wrong, confidence), abs=1e-12
    )
    # the input order of the rows does not matter
    perm = np.random.default_rng(len(pairs)).permutation(len(pairs))
    assert aurc(y_true[perm], y_pred[perm], np.asarray(confidence)[perm]) == pytest.approx(
        aurc(y_true, y_pred, confidence), abs=1e-12
    )


def test_hand_computed_values():
    y_true = np.array(["a", "b", "b", "a"])
    y_pred = np.array(["a", "b", "a", "b"])
    conf = [0.9, 0.8, 0.7, 0.6]
    _, risk = risk_coverage_curve(y_true, y_pred, conf)
    np.testing.assert_allclose(risk, [0, 0, 1 / 3, 1 / 2])
    assert aurc(y_true, y_pred, conf) == pytest.approx((1 / 3 + 1 / 2) / 4)
    assert augrc(y_true, y_pred, conf) == pytest.approx((0 + 0 + 1 + 2) / 16)
    assert risk_at_coverage(y_true, y_pred, conf, 0.625) == pytest.approx(0.5 / 2.5)
    assert coverage_at_risk(y_true, y_pred, conf, 0.0) == 0.5
    assert coverage_at_risk(y_true, y_pred, conf, 0.4) == 0.75
    assert coverage_at_risk(y_true, y_pred, conf[::-1], 0.1) == 0.0
    # all tied: the risk is the error rate at every coverage
    np.testing.assert_allclose(risk_coverage_curve(y_true, y_pred, [1, 1, 1, 1])[1], 0.5)


def test_e_aurc_of_a_perfect_ranking_is_near_zero_and_of_a_random_one_is_not():
    rng = np.random.default_rng(0)
    wrong = rng.random(5000) < 0.2
    y_true, y_pred = _labels(wrong)
    r = wrong.mean()
    assert optimal_aurc(r) == pytest.approx(r + (1 - r) * math.log(1 - r))
    assert abs(e_aurc(y_true, y_pred, (~wrong).astype(float))) < 1e-3
    assert e_aurc(y_true, y_pred, rng.random(5000)) == pytest.approx(r - optimal_aurc(r), abs=0.02)
    assert optimal_aurc(0.0) == 0.0 and optimal_aurc(1.0) == 1.0


def test_bad_inputs_are_explained():
    with pytest.raises(ValueError, match="same length"):
        aurc([0, 1], [0], [0.1, 0.2])
    with pytest.raises(ValueError, match="NaN"):
        aurc([0, 1], [0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        risk_at_coverage([0], [0], [1.0], 0.0)


# ----------------------------------------------------------------- SGR


@pytest.mark.parametrize("errors, n, delta", [(0, 50, 0.1), (3, 40, 0.01), (10, 10, 0.1)])
def test_binomial_upper_bound_solves_the_binomial_tail(errors, n, delta):
    b = binomial_upper_bound(errors, n, delta)
    if errors == n:
        assert b == 1.0
    else:
        assert binom.cdf(errors, n, b) == pytest.approx(delta, rel=1e-8)


def test_sgr_picks_the_largest_safe_coverage_it_tests():
    # 1,000 perfectly ranked rows: 100 wrong ones at the bottom
    scores = np.arange(1000.0)
    correct = scores >= 100
    threshold, bound = sgr_threshold(scores, correct, target_risk=0.05, confidence=0.9)
    assert bound < 0.05
    accepted = scores >= threshold
    # the bound is the Clopper–Pearson bound of the accepted rows at δ / ⌈log2 1000⌉
    errors = int((~correct[accepted]).sum())
    assert bound == pytest.approx(binomial_upper_bound(errors, int(accepted.sum()), 0.1 / 10))
    # it accepts some wrong rows, yet not so many that the bound would fail
    assert 0.9 < accepted.mean() < 0.95 and errors > 0
    assert sgr_threshold(scores, np.zeros(1000, bool), 0.05, 0.9) == (math.inf, 1.0)


def _two_gaussians(n, rng):
    y = rng.integers(0, 2, n)
    X = rng.normal(size=(n, 2)) + np.where(y[:, None] == 1, 1.2, -1.2) * np.array([1.0, 0.3])
    return X, y


# a calibration sample now and then allows no threshold: that split flags everything
@pytest.mark.filterwarnings("ignore:No confidence threshold")
def test_selective_risk_exceeds_the_target_no_more_often_than_allowed():
    rng = np.random.default_rng(42)
    X_test, y_test = _two_gaussians(100_000, rng)
    target, conf, trials = 0.05, 0.9, 150
    exceed, coverages = 0, []
    for trial in range(trials):
        X, y = _two_gaussians(2000, rng)
        rc = RiskControlledClassifier(
            LogisticRegression(), target_risk=target, confidence=conf, random_state=trial
        ).fit(X, y)
        accepted = rc.predict_verdict(X_test) == 1
        coverages.append(accepted.mean())
        if accepted.any():
            exceed += np.mean(rc.predict(X_test)[accepted] != y_test[accepted]) > target
    # the guarantee is not vacuous: a good share of rows is accepted
    assert np.median(coverages) > 0.5
    # H0: P(exceed) ≤ 1 − confidence; reject only on strong evidence (one-sided, level 0.001)
    assert binom.sf(exceed - 1, trials, 1 - conf) > 1e-3, exceed


def test_unreachable_target_flags_everything_with_a_warning():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 2))
    y = rng.integers(0, 2, 300)  # labels are noise: no threshold reaches 1 % risk
    rc = RiskControlledClassifier(LogisticRegression(), target_risk=0.01, random_state=0)
    with pytest.warns(UserWarning, match="every row is flagged"):
        rc.fit(X, y)
    assert rc.threshold_ == math.inf and rc.coverage_ == 0.0
    assert not rc.predict_verdict(X).any()
    assert rc.predict_verdict(X).dtype == np.int8
    assert rc.predict(X).shape == (300,)


class _ConfidenceStub(DecisionTreeClassifier):
    """A tree whose confidence is its first feature, to see that predict_confidence is used."""

    def predict_confidence(self, X):
        return np.asarray(X)[:, 0]


def test_predict_confidence_is_preferred_and_clone_works():
    rng = np.random.default_rng(3)
    X, y = _two_gaussians(2000, rng)
    rc = RiskControlledClassifier(_ConfidenceStub(max_depth=2), target_risk=0.3, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rc.fit(X, y)
    np.testing.assert_array_equal(rc.predict_verdict(X), (X[:, 0] >= rc.threshold_))
    assert set(rc.classes_) == {0, 1}
    assert rc.predict_proba(X).shape == (2000, 2)
    params = rc.get_params()
    assert params["target_risk"] == 0.3 and "estimator__max_depth" in params
    twin = clone(rc)
    assert twin.get_params()["target_risk"] == 0.3 and not hasattr(twin, "threshold_")
    with pytest.raises(ValueError, match="between 0 and 1"):
        RiskControlledClassifier(LogisticRegression(), confidence=1.5).fit(X, y)
