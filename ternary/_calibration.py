"""Calibration of the zones' scale: the Bayes-error target and which scale flags a share.

* `bayes_error_bound`: the Cover–Hart bound on a cross-validated 1-NN error, the share of
  rows ``delta_scale="bayes"`` aims to flag;
* `bayes_scale`: the scale itself, from boundary distances out of fold and in sample
  (`share_quantile` of each at the estimate);
* `scale_for_share`: the ``delta_scale`` at which a refit flags a given share of the rows
  whose `boundary_distance` is known (the app's risk-coverage clicks call it).

`boundary_distance` makes these exact: a refit at ``delta_scale_ · s`` flags precisely
the rows whose distance is below ``s``.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone

__all__ = [
    "bayes_error_bound",
    "bayes_scale",
    "scale_for_share",
    "share_quantile",
    "shuffled_folds",
]


def shuffled_folds(y: np.ndarray, seed: int, n_splits: int = 5):
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
        The rows.
    y : array-like of shape (n_samples,)
        Their labels.
    sample_weight : array-like of shape (n_samples,), optional
        Row weights of the 1-NN error; None weighs every row 1.
    random_state : int, default=0
        Seeds the shuffled folds.

    Returns
    -------
    float
        The estimate, in [0, (C−1)/C]; 0 for one class or fewer than 4 rows.

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
    folds = shuffled_folds(y, random_state)
    if C < 2 or folds is None:
        return 0.0
    knn = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=1))
    wrong = cross_val_predict(knn, X, y, cv=folds) != y
    r_nn = float(np.sum(w * wrong) / np.sum(w))
    ratio = C / (C - 1)
    return float((1.0 / ratio) * (1.0 - np.sqrt(max(1.0 - ratio * r_nn, 0.0))))


def bayes_scale(estimator, X, y, sample_weight, weights):
    """``(Bayes error estimate, delta scale, in-sample probe)`` for ``delta_scale="bayes"``.

    The estimate is `ternary.metrics.bayes_error_bound` (Cover–Hart on a cross-validated
    1-NN error). The scale is the geometric mean of two weighted quantiles, at that
    estimate, of boundary distances at scale 1: out of fold (trees fitted on 5 training
    folds measure the held-out rows; each tree saw less data) and in sample (the tree on
    all rows measures its own rows; optimistic where δ is drawn from those very rows, as
    margin's is). The two err on opposite sides, and their mean lands the flagged share
    of fresh rows nearer the estimate than either. Hard-middle trees, whose zones
    reshape the tree, are measured with probabilistic routing.

    The probe is the estimator fitted on all rows at scale 1 (None when no scale was
    measured). For the binary routings a zone never changes the tree, and δ is computed
    at scale 1 before the scale multiplies it, so ``fit`` takes the probe's tree and
    scales its δ instead of growing the same tree a seventh time.
    """
    seed = estimator.random_state if isinstance(estimator.random_state, numbers.Integral) else 0
    keep = weights > 0
    estimate = bayes_error_bound(X[keep], y[keep], weights[keep], random_state=seed)
    folds = shuffled_folds(y[keep], seed)
    if estimate <= 0.0 or folds is None:
        return estimate, 0.0, None
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
    in_sample = clone(probe).fit(X, y, sw)
    distances = (out_of_fold, in_sample.boundary_distance(X[rows]))
    scales = [share_quantile(d, weights[rows], estimate) for d in distances]
    scales = [q for q in scales if q is not None]
    if len(scales) == 2:
        return estimate, float(np.sqrt(scales[0] * scales[1])), in_sample
    return estimate, scales[0] if scales else 1.0, in_sample


def share_quantile(distance, weights, share):
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


def scale_for_share(
    distance: ArrayLike,
    share: float,
    fitted_scale: float = 1.0,
    *,
    max_scale: float = np.inf,
) -> float:
    """The ``delta_scale`` at which a refit flags ``share`` of the rows, given their distances.

    ``distance`` is `TernaryTreeClassifier.boundary_distance` of rows under a tree fitted at
    ``fitted_scale``: a refit at ``fitted_scale · s`` flags exactly the rows with distance
    below ``s``. The target is the k = round(share · n) nearest rows; rows tied at one
    distance are flagged together, so the count is the reachable one nearest k (the
    smaller on a tie). ``s`` lies halfway between two consecutive distances, so rounding
    the result moves no row across (the result is rounded to 4 decimals where that keeps
    the same rows); beyond the largest finite distance it is ``max_scale``.

    Parameters
    ----------
    distance : array-like of shape (n_samples,)
        Each row's `boundary_distance`, in [0, inf].
    share : float in [0, 1]
        The share of rows to flag.
    fitted_scale : float, default=1.0
        The ``delta_scale_`` the distances were measured at.
    max_scale : float, default=inf
        The largest scale returned.

    Returns
    -------
    float
        The ``delta_scale`` that flags about ``share`` of the rows.

    Examples
    --------
    >>> scale_for_share([0.1, 0.2, 0.4, 0.8], 0.5)
    0.3
    """
    d = np.sort(np.asarray(distance, dtype=np.float64))
    n = len(d)
    k = int(round(float(share) * n))
    high = float(max_scale)
    if k <= 0 or n == 0:
        return 0.0
    if k >= n or not np.isfinite(d[k]):
        return high
    below = int(np.searchsorted(d, d[k], side="left"))  # rows strictly nearer than d[k]
    upto = int(np.searchsorted(d, d[k], side="right"))  # ... or tied with it
    if k - below <= upto - k:
        if below == 0:
            return 0.0
        lo, hi = d[below - 1], d[below]
    else:
        if upto >= n or not np.isfinite(d[upto]):
            return high
        lo, hi = d[upto - 1], d[upto]
    s = 0.5 * (lo + hi)
    if not lo < s:  # neighbouring floats (tiny distances): the next float above lo
        s = float(np.nextafter(lo, hi))
    scale = fitted_scale * s
    rounded = round(scale, 4)
    if fitted_scale * lo < rounded < fitted_scale * hi:
        scale = rounded  # a short number (for a slider), flagging the same rows
    return float(min(scale, high))
