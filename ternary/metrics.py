"""Evaluation metrics of the ternary protocol (Smits 2026, section 3.5 and 4).

A ternary tree always predicts a class; its verdict says whether the prediction
was decided (verdict 1, no uncertainty zone traversed) or boundary-uncertain
(verdict 0). The metrics below score the decided rows separately.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import f1_score

__all__ = [
    "bayes_error_bound",
    "decided_accuracy",
    "decided_f1",
    "efficiency",
    "ub_ratio",
    "uncertain_rate",
]


def _decided_mask(y_true, y_pred, verdict):
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    verdict = np.asarray(verdict)
    if not (y_true.shape[0] == y_pred.shape[0] == verdict.shape[0]):
        raise ValueError(
            f"y_true, y_pred and verdict must have the same length; got "
            f"{y_true.shape[0]}, {y_pred.shape[0]} and {verdict.shape[0]}."
        )
    return y_true, y_pred, verdict == 1


def decided_accuracy(y_true: ArrayLike, y_pred: ArrayLike, verdict: ArrayLike) -> float:
    """Accuracy on the decided rows (verdict 1); NaN when no row is decided.

    >>> decided_accuracy([0, 1, 1], [0, 0, 1], [1, 0, 1])
    1.0
    """
    y_true, y_pred, decided = _decided_mask(y_true, y_pred, verdict)
    if not decided.any():
        return float("nan")
    return float(np.mean(y_true[decided] == y_pred[decided]))


def uncertain_rate(verdict: ArrayLike) -> float:
    """Fraction of rows flagged boundary-uncertain (verdict 0); NaN for no rows."""
    verdict = np.asarray(verdict)
    if verdict.size == 0:
        return float("nan")
    return float(np.mean(verdict == 0))


def decided_f1(
    y_true: ArrayLike, y_pred: ArrayLike, verdict: ArrayLike, average: str = "macro"
) -> float:
    """F1 score on the decided rows (macro-averaged by default); NaN when none."""
    y_true, y_pred, decided = _decided_mask(y_true, y_pred, verdict)
    if not decided.any():
        return float("nan")
    return float(f1_score(y_true[decided], y_pred[decided], average=average, zero_division=0))


def efficiency(decided_acc: float, baseline_acc: float, uncertain_rate: float) -> float:
    """Efficiency η = (decided accuracy − baseline accuracy) / uncertain rate.

    The decided-accuracy gain bought per unit of boundary-uncertain rate; NaN
    when nothing is flagged (rate 0), where the gain is undefined.

    >>> round(efficiency(0.80, 0.75, 0.5), 3)
    0.1
    """
    if not uncertain_rate or np.isnan(uncertain_rate):
        return float("nan")
    return float((decided_acc - baseline_acc) / uncertain_rate)


def ub_ratio(uncertain_rate: float, bayes_error: float | None) -> float:
    """U/B ratio: uncertain rate divided by the dataset's Bayes error.

    Near 1 the method flags about as many rows as are theoretically ambiguous;
    far above 1 it over-flags. NaN when the Bayes error is unknown or zero.
    """
    if bayes_error is None or not bayes_error or np.isnan(bayes_error):
        return float("nan")
    return float(uncertain_rate / bayes_error)


def _folds(y: np.ndarray, seed: int, n_splits: int = 5):
    """Shuffled stratified folds (plain k-fold when a class has one row); None below 4 rows."""
    from sklearn.model_selection import KFold, StratifiedKFold

    y = np.asarray(y)
    if y.shape[0] < 4:
        return None
    smallest = np.unique(y, return_counts=True)[1].min()
    if smallest >= 2:
        return StratifiedKFold(min(n_splits, smallest), shuffle=True, random_state=seed)
    return KFold(min(n_splits, y.shape[0]), shuffle=True, random_state=seed)


def bayes_error_bound(
    X: ArrayLike,
    y: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    random_state: int = 0,
) -> float:
    """Estimate the Bayes error from data: the Cover–Hart bound on a 1-NN error.

    Cover & Hart (1967) bound the asymptotic nearest-neighbour error ``R_NN`` of ``C``
    classes by ``R* ≤ R_NN ≤ R*·(2 − C/(C−1)·R*)``. Solving the right inequality for
    ``R*`` gives the lower bound used here as the estimate,
    ``R* ≥ (C−1)/C · (1 − sqrt(1 − C/(C−1)·R_NN))`` (the square root's argument
    clipped at 0), with ``R_NN`` the 5-fold cross-validated error of a 1-NN classifier
    on standardised features (scaled within each fold), weighted by ``sample_weight``.

    Reading: the bound is asymptotic, so on small samples the cross-validated 1-NN
    error is inflated and the estimate with it; and Euclidean distance sees only what
    standardised features show (a class difference that lives in the variance, like
    Breiman's ringnorm, is mostly invisible to it).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
    random_state : int, default=0
        Seeds the shuffled folds.

    Returns
    -------
    float in [0, (C−1)/C]; 0 for one class or fewer than 4 rows.

    Examples
    --------
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(400, 2))
    >>> y = (X[:, 0] + rng.normal(size=400) > 0).astype(int)  # about 25 % Bayes error
    >>> 0.1 < bayes_error_bound(X, y) < 0.35
    True
    """
    from sklearn.model_selection import cross_val_predict
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    w = np.ones(y.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    C = np.unique(y).size
    folds = _folds(y, random_state)
    if C < 2 or folds is None:
        return 0.0
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=1))
    wrong = cross_val_predict(knn, X, y, cv=folds) != y
    r_nn = float(np.sum(w * wrong) / np.sum(w))
    ratio = C / (C - 1)
    return float((1.0 / ratio) * (1.0 - np.sqrt(max(1.0 - ratio * r_nn, 0.0))))
