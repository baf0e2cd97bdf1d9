"""ternary.review: which rows a review budget or a risk target flags."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from ternary import TernaryTreeClassifier
from ternary.review import flag_below_threshold, flag_least_confident, review_count, review_rule
from ternary.selective import RiskControlledClassifier


def test_the_least_confident_rows_are_flagged():
    conf = [0.9, 0.2, 0.5, 0.1, 0.7, 0.3]
    assert np.flatnonzero(flag_least_confident(conf, 0.5)).tolist() == [1, 3, 5]
    assert np.flatnonzero(flag_least_confident(conf, 0.34)).tolist() == [1, 3]  # 2.04 -> 2


def test_ties_at_the_cut_go_in_row_order():
    conf = [0.4, 0.2, 0.4, 0.4, 0.9]
    # 0.2 first, then two of the three 0.4s: the earlier rows 0 and 2
    assert np.flatnonzero(flag_least_confident(conf, 0.6)).tolist() == [0, 1, 2]


def test_the_budget_is_never_exceeded_and_products_are_read_as_meant():
    assert review_count(5, 0.1) == 0  # half a row is not a row
    assert review_count(100, 0.29) == 29  # 0.29 * 100 is 28.999... in binary
    assert review_count(10, 1.0) == 10
    assert flag_least_confident([0.1] * 9, 0.1).sum() == 0
    assert flag_least_confident([0.3, 0.1], 1.0).all()


def test_bad_input_says_what_is_wrong():
    with pytest.raises(ValueError, match="between 0 and 1"):
        flag_least_confident([0.1, 0.2], 10)
    with pytest.raises(ValueError, match="NaN"):
        flag_least_confident([0.1, np.nan], 0.5)
    with pytest.raises(ValueError, match="1-D"):
        flag_least_confident([[0.1, 0.2]], 0.5)


def test_rule_names():
    assert review_rule(0.1) == "least confident 10 %"
    assert review_rule(0.07) == "least confident 7 %"
    assert review_rule(0.125) == "least confident 12.5 %"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 1.0]), max_size=60),
    st.floats(0.0, 1.0),
)
def test_property_count_and_order(conf, share):
    flags = flag_least_confident(conf, share)
    scores = np.asarray(conf, dtype=np.float64)
    assert flags.sum() == math.floor(round(share * len(conf), 9))
    assert flags.sum() <= share * len(conf) + 1e-9
    if flags.any() and (~flags).any():
        assert scores[flags].max() <= scores[~flags].min()
    # ties at the cut: every flagged row of the cut value comes before every unflagged one
    if flags.any() and (~flags).any():
        cut = scores[flags].max()
        tied = np.flatnonzero(scores == cut)
        assert (np.diff(flags[tied].astype(int)) <= 0).all()


def test_below_threshold_matches_the_risk_controlled_verdict():
    X, y = make_classification(1500, n_features=6, flip_y=0.02, class_sep=1.5, random_state=1)
    rc = RiskControlledClassifier(
        TernaryTreeClassifier(max_depth=4, random_state=0), target_risk=0.15, random_state=0
    ).fit(X, y)
    conf = rc.estimator_.predict_confidence(X)
    flags = flag_below_threshold(conf, rc.threshold_)
    assert np.array_equal(flags, rc.predict_verdict(X) == 0)
    assert 0 < flags.sum() < len(y)
    assert flag_below_threshold([0.9, 0.1], math.inf).all()
    assert np.flatnonzero(flag_below_threshold([0.3, 0.5, 0.7], 0.5)).tolist() == [0]
