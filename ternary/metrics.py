"""Evaluation metrics of the ternary protocol (Smits 2026, section 3.5 and 4).

A ternary tree always predicts a class; its verdict says whether the prediction
was decided (verdict 1, no uncertainty zone traversed) or boundary-uncertain
(verdict 0). The metrics below score the decided rows separately.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone
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


def _bayes_scale(estimator, X, y, sample_weight, weights):
    """``(Bayes error estimate, delta scale)`` for ``delta_scale="bayes"``.

    The estimate is `ternary.metrics.bayes_error_bound` (Cover–Hart on a cross-validated
    1-NN error). The scale is the geometric mean of two weighted quantiles, at that
    estimate, of boundary distances at scale 1: out of fold (trees fitted on 5 training
    folds measure the held-out rows; each tree saw less data) and in sample (the tree on
    all rows measures its own rows; optimistic where δ is drawn from those very rows, as
    margin's is). The two err on opposite sides, and their mean lands the flagged share
    of fresh rows nearer the estimate than either. Hard-middle trees, whose zones
    reshape the tree, are measured with probabilistic routing.
    """
    seed = estimator.random_state if isinstance(estimator.random_state, numbers.Integral) else 0
    keep = weights > 0
    estimate = bayes_error_bound(X[keep], y[keep], weights[keep], random_state=seed)
    folds = _folds(y[keep], seed)
    if estimate <= 0.0 or folds is None:
        return estimate, 0.0
    routing = "probabilistic" if estimator.routing == "hard_middle" else estimator.routing
    probe = clone(estimator).set_params(delta_scale=1.0, routing=routing)
    rows = np.flatnonzero(keep)
    sw = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    out_of_fold = np.empty(rows.size)
    for train, test in folds.split(X[rows], y[rows]):
        member = clone(probe).fit(
            X[rows[train]], y[rows[train]], None if sw is None else sw[rows[train]]
        )
        out_of_fold[test] = member.boundary_distance(X[rows[test]])
    in_sample = clone(probe).fit(X, y, sw).boundary_distance(X[rows])
    scales = [_quantile(d, weights[rows], estimate) for d in (out_of_fold, in_sample)]
    scales = [q for q in scales if q is not None]
    if len(scales) == 2:
        return estimate, float(np.sqrt(scales[0] * scales[1]))
    return estimate, scales[0] if scales else 1.0


def _quantile(distance, weights, share):
    """The smallest distance with at least ``share`` of the weight at or below it.

    Where that is ``inf`` (the share exceeds what any zone can flag), the scale that
    flags every row a zone can reach; None when no row can be reached.
    """
    order = np.argsort(distance, kind="stable")
    cumulative = np.cumsum(weights[order]) / weights.sum()
    value = distance[order][min(np.searchsorted(cumulative, share), distance.size - 1)]
    if np.isfinite(value):
        return float(value)
    finite = distance[np.isfinite(distance)]
    return float(np.nextafter(finite.max(), np.inf)) if finite.size else None
