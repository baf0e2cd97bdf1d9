"""scikit-learn's estimator suite for RiskControlledClassifier, and its sample weights."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from ternary import TernaryTreeClassifier
from ternary.selective import RiskControlledClassifier

ESTIMATORS = [
    RiskControlledClassifier(TernaryTreeClassifier(max_depth=3, random_state=0), random_state=0),
    RiskControlledClassifier(LogisticRegression(), target_risk=0.2, random_state=0),
]


def expected_failed_checks(estimator):
    """Checks that cannot hold by design, each with the reason."""
    reason = (
        "the rows are split at random into a fitting and a calibration part, so a "
        "duplicated row and a row of weight 2 fall into the parts differently"
    )
    return {
        "check_sample_weight_equivalence_on_dense_data": reason,
        "check_sample_weight_equivalence_on_sparse_data": reason,
    }


@pytest.mark.slow
@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def data():
    return make_classification(600, n_features=5, random_state=0)


def test_sample_weight_reaches_the_estimators_fit(data):
    X, y = data
    weights = np.where(y == 1, 5.0, 0.2)
    plain = RiskControlledClassifier(
        TernaryTreeClassifier(max_depth=3, random_state=0), random_state=0
    ).fit(X, y)
    weighted = RiskControlledClassifier(
        TernaryTreeClassifier(max_depth=3, random_state=0), random_state=0
    ).fit(X, y, sample_weight=weights)
    # the same split (same seed, same stratification); only the tree's weights differ
    fit_rows = len(X) - round(0.3 * len(X))
    assert weighted.estimator_.tree_.weighted_n_node_samples[0] != pytest.approx(fit_rows)
    assert plain.estimator_.tree_.weighted_n_node_samples[0] == pytest.approx(fit_rows)
    # weighting class 1 up makes the tree call more rows class 1
    assert (weighted.predict(X) == 1).mean() > (plain.predict(X) == 1).mean()


def test_sample_weight_for_an_estimator_without_one_is_refused(data):
    X, y = data
    rc = RiskControlledClassifier(KNeighborsClassifier(), random_state=0)
    with pytest.raises(ValueError, match="does not accept one"):
        rc.fit(X, y, sample_weight=np.ones(len(y)))


def test_feature_names_and_count(data):
    X, y = data
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    rc = RiskControlledClassifier(
        TernaryTreeClassifier(max_depth=3, random_state=0), random_state=0
    ).fit(frame, y)
    assert rc.n_features_in_ == 5
    assert list(rc.feature_names_in_) == list(frame.columns)
    with pytest.raises(ValueError, match="features"):
        rc.predict_verdict(X[:, :3])
