"""ternary.metrics on hand-computed cases, and the Bayes error bound on generated data."""

import math

import numpy as np
import pytest
from sklearn.datasets import make_classification

from ternary.metrics import (
    bayes_error_bound,
    decided_accuracy,
    decided_f1,
    efficiency,
    ub_ratio,
    uncertain_rate,
)


def test_decided_accuracy_counts_only_decided_rows():
    y_true = [0, 1, 1, 0, 1]
    y_pred = [0, 0, 1, 1, 1]
    verdict = np.array([1, 0, 1, 0, 1], dtype=np.int8)
    assert decided_accuracy(y_true, y_pred, verdict) == 1.0
    assert decided_accuracy(y_true, y_pred, [1, 1, 1, 1, 1]) == pytest.approx(0.6)


def test_nothing_decided_gives_nan():
    assert math.isnan(decided_accuracy([0, 1], [0, 1], [0, 0]))
    assert math.isnan(decided_f1([0, 1], [0, 1], [0, 0]))


def test_uncertain_rate():
    assert uncertain_rate([1, 0, 0, 1]) == 0.5
    assert uncertain_rate(np.ones(7, dtype=np.int8)) == 0.0
    assert math.isnan(uncertain_rate([]))


def test_decided_f1_macro_on_decided_rows():
    y_true = ["a", "a", "b", "b", "b"]
    y_pred = ["a", "b", "b", "a", "b"]
    verdict = [1, 1, 1, 0, 1]
    # decided: a→a, a→b, b→b, b→b; F1(a) = 2/3, F1(b) = 0.8
    assert decided_f1(y_true, y_pred, verdict) == pytest.approx((2 / 3 + 0.8) / 2)


def test_efficiency_and_ub_ratio():
    assert efficiency(0.80, 0.74, 0.30) == pytest.approx(0.2)
    assert efficiency(0.70, 0.74, 0.40) == pytest.approx(-0.1)
    assert math.isnan(efficiency(0.8, 0.7, 0.0))
    assert ub_ratio(0.046, 0.023) == pytest.approx(2.0)
    assert math.isnan(ub_ratio(0.1, None))


def test_length_mismatch_is_an_error():
    with pytest.raises(ValueError, match="same length"):
        decided_accuracy([0, 1], [0], [1, 1])


def test_bayes_error_bound_is_cover_hart_on_the_cv_1nn_error():
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = make_classification(600, 5, n_informative=3, n_classes=3, random_state=0)
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(1))
    folds = StratifiedKFold(5, shuffle=True, random_state=4)  # shuffled, stratified, seeded
    r_nn = np.mean(cross_val_predict(knn, X, y, cv=folds) != y)
    expected = (2 / 3) * (1 - np.sqrt(1 - 1.5 * r_nn))
    assert bayes_error_bound(X, y, random_state=4) == pytest.approx(expected, rel=1e-12)
    rng = np.random.RandomState(0)
    y = rng.randint(0, 2, 2000)
    X = rng.normal(size=(2000, 2))
    X[:, 0] += np.where(y == 1, 1.0, -1.0)  # Bayes error Φ(−1) = 0.159
    assert 0.6 * 0.159 < bayes_error_bound(X, y) < 1.4 * 0.159
    noise = np.random.RandomState(99).randint(0, 2, 400)  # labels unrelated to X: R_NN ≈ ½
    assert 0.25 < bayes_error_bound(X[:400], noise) <= 0.5  # (C−1)/C caps it
    assert bayes_error_bound(X[:50], np.zeros(50)) == 0.0
