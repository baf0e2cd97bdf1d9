"""Selective classification: risk–coverage curves and a risk-controlled classifier.

A selective classifier answers on the rows it is most confident about and
abstains on the rest. Given a confidence score per row (higher = more likely
correct), the functions here describe every operating point at once.

Conventions (the same in every function)
----------------------------------------
* Rows are accepted in order of decreasing ``confidence``. Accepting the top
  ``k`` rows gives **coverage** ``k/n``; the grid is ``k = 1, …, n``.
* **Selective risk** at coverage ``k/n`` is the error rate among the accepted
  rows, ``E_k / k``, where ``E_k`` is the number of errors (``y_pred ≠ y_true``)
  among them. **Generalized risk** (Traub et al., NeurIPS 2024) is the joint
  probability of being accepted and wrong, ``E_k / n``.
* **Ties** in ``confidence`` carry no order, so every value is the expectation
  over a uniformly random order inside each tie group: a group of ``m`` rows with
  ``e`` errors contributes ``j·e/m`` expected errors when ``j`` of its rows are
  accepted. ``E_k`` is therefore linear in ``k`` across a group (the generalized
  risk is a straight line there), and the selective risk is ``E_k / k`` with that
  expected count, which is exactly the expected selective risk since ``k`` is
  fixed. The value does not depend on how the rows are ordered in the input.
* **AURC** (Geifman, Uziel & El-Yaniv, ICLR 2019) is the mean selective risk over
  the grid, ``(1/n) Σ_k E_k/k``. **E-AURC** = AURC − AURC*, with the optimal
  ``AURC* = r + (1−r)·ln(1−r)`` for the overall error rate ``r`` (the paper's
  closed form, a continuous approximation: on very small samples the finite-n
  optimum lies slightly below it, so E-AURC can be slightly negative).
  **AUGRC** (Traub et al.) is the mean generalized risk over the same grid,
  ``(1/n) Σ_k E_k/n`` (a right Riemann sum of ∫ GR(c) dc; the trapezoid rule
  with GR(0) = 0 would differ by ``r/(2n)``).
* Between grid points, `risk_at_coverage` accepts a fraction of the next row:
  at coverage ``c`` the expected error count ``E(cn)`` is the linear
  interpolation of ``E_k`` (with ``E_0 = 0``) and the risk is ``E(cn)/(cn)``.
  This is continuous, equals the curve on the grid, and below ``1/n`` equals the
  risk at ``1/n``.
* `coverage_at_risk` returns the largest grid coverage ``k/n`` whose selective
  risk is ≤ ``risk``, and 0.0 when there is none.

`RiskControlledClassifier` turns any probabilistic classifier into a selective
one whose selective risk is at most a target with a stated probability.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy.stats import beta
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import train_test_split
from sklearn.utils import get_tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_is_fitted,
    column_or_1d,
    has_fit_parameter,
    validate_data,
)

__all__ = [
    "RiskControlledClassifier",
    "aurc",
    "augrc",
    "binomial_upper_bound",
    "coverage_at_risk",
    "e_aurc",
    "optimal_aurc",
    "risk_at_coverage",
    "risk_coverage_curve",
    "sgr_threshold",
]


# --------------------------------------------------------------------------- curves


def _expected_errors(y_true, y_pred, confidence) -> np.ndarray:
    """``E_k`` for k = 1..n: expected errors among the top k rows, ties averaged."""
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    confidence = np.asarray(confidence, dtype=np.float64)
    if y_true.ndim != 1 or y_pred.shape != y_true.shape or confidence.shape != y_true.shape:
        raise ValueError(
            "y_true, y_pred and confidence must be 1-D arrays of the same length; got shapes "
            f"{y_true.shape}, {y_pred.shape} and {confidence.shape}."
        )
    if y_true.size == 0:
        raise ValueError("Selective metrics need at least one row; the arrays are empty.")
    if np.isnan(confidence).any():
        raise ValueError(
            "confidence contains NaN, which has no place in a ranking; replace it (for example "
            "by -inf to accept such rows last) before computing the curve."
        )
    return tie_averaged_errors((y_true != y_pred).astype(np.float64), confidence)


def tie_averaged_errors(wrong: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """``E_k`` for k = 1..n: the errors among the ``k`` most confident rows, ties averaged.

    Rows of equal confidence are taken in a uniformly random order, in expectation: the
    ``j``-th row taken from a tie group of size ``m`` holding ``e`` errors adds ``e/m``.
    The one tie-averaged error curve of the package (the Chow baseline's ``ties="mean"``
    reads it too).

    Parameters
    ----------
    wrong : ndarray of float, 1 where a row is misclassified
    confidence : ndarray of float, the same length, higher taken first

    Returns
    -------
    ndarray of float of shape (n,)
    """
    order = np.argsort(-confidence, kind="stable")
    return _tie_groups(wrong, confidence, order)[0]


def _tie_groups(wrong, confidence, order):
    """``E_k`` from the most-confident-first order, and each row's (group start, size)."""
    conf_sorted = confidence[order]
    wrong_sorted = wrong[order]
    n = wrong.size
    # tie groups of the sorted scores: start index, size and error count of each
    starts = np.flatnonzero(np.concatenate(([True], conf_sorted[1:] != conf_sorted[:-1])))
    sizes = np.diff(np.append(starts, n))
    group_errors = np.add.reduceat(wrong_sorted, starts)
    errors_before = np.concatenate(([0.0], np.cumsum(group_errors)[:-1]))
    group = np.repeat(np.arange(starts.size), sizes)
    k = np.arange(1, n + 1)
    errors = errors_before[group] + (k - starts[group]) * (group_errors / sizes)[group]
    return errors, starts[group], sizes[group]


def tie_averaged_ranking(wrong: np.ndarray, confidence: np.ndarray):
    """`tie_averaged_errors` and the least-confident-first order, from one sort.

    The order is ``np.argsort(confidence, kind="stable")``: ascending confidence, tied
    rows in row order (Chow's reject rule flags in that order). It is read off the one
    stable sort by decreasing confidence that the error curve needs: the tie groups in
    reverse, each keeping its rows' order.

    Parameters
    ----------
    wrong : ndarray of float, shape (n,)
        1 where a row is misclassified, else 0.
    confidence : ndarray of float, shape (n,)
        Higher is taken first; no NaN.

    Returns
    -------
    errors : ndarray of float, shape (n,)
        ``tie_averaged_errors(wrong, confidence)``, the same floats.
    least_confident_first : ndarray of int, shape (n,)
        The row indices in ascending confidence, ties in row order.

    Examples
    --------
    >>> errors, order = tie_averaged_ranking(
    ...     np.array([1.0, 0.0, 0.0]), np.array([0.5, 0.9, 0.5])
    ... )
    >>> errors.tolist(), order.tolist()
    ([0.0, 0.5, 1.0], [0, 2, 1])
    """
    wrong = np.asarray(wrong, dtype=np.float64)
    confidence = np.asarray(confidence, dtype=np.float64)
    if np.isnan(confidence).any():
        raise ValueError("confidence contains NaN, which has no place in a ranking.")
    n = wrong.size
    order = np.argsort(-confidence, kind="stable")
    errors, start, size = _tie_groups(wrong, confidence, order)
    # the row at position p of the descending order, in a group starting at s of size m,
    # sits at n - (s + m) + (p - s) of the ascending one
    least_confident_first = np.empty(n, dtype=np.intp)
    least_confident_first[n - 2 * start - size + np.arange(n)] = order
    return errors, least_confident_first


def risk_coverage_curve(y_true, y_pred, confidence) -> tuple[np.ndarray, np.ndarray]:
    """Selective risk at every coverage ``k/n``, ``k = 1..n``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (any comparable type).
    confidence : array-like of float, shape (n,)
        Higher means more likely correct; ties are averaged over random orders.

    Returns
    -------
    coverage : ndarray of shape (n,)
        The coverages ``k/n``, ascending.
    risk : ndarray of shape (n,)
        The (expected) error rate among the top ``k`` rows.

    Examples
    --------
    >>> cov, risk = risk_coverage_curve([0, 1, 1, 0], [0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6])
    >>> risk.tolist()
    [0.0, 0.0, 0.3333333333333333, 0.5]
    """
    errors = _expected_errors(y_true, y_pred, confidence)
    k = np.arange(1, errors.size + 1)
    return k / errors.size, errors / k


def aurc(y_true, y_pred, confidence) -> float:
    """Area under the risk–coverage curve: the mean selective risk over ``k/n``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (any comparable type).
    confidence : array-like of float, shape (n,)
        Higher means more likely correct; ties are averaged over random orders.

    Returns
    -------
    float
        AURC (Geifman, Uziel & El-Yaniv 2019); lower is better.

    Examples
    --------
    >>> aurc([0, 1, 1, 0], [0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6])
    0.20833333333333331
    """
    return float(np.mean(risk_coverage_curve(y_true, y_pred, confidence)[1]))


def optimal_aurc(error_rate: float) -> float:
    """AURC* = r + (1−r)·ln(1−r), the AURC of a perfect ranking at error rate ``r``.

    Parameters
    ----------
    error_rate : float in [0, 1]
        The overall error rate ``r``.

    Returns
    -------
    float
        The closed form of Geifman, Uziel & El-Yaniv (2019); 1.0 at ``r = 1``.
    """
    r = float(error_rate)
    return r + (1.0 - r) * math.log1p(-r) if r < 1.0 else 1.0


def e_aurc(y_true, y_pred, confidence) -> float:
    """Excess AURC: `aurc` minus the optimal AURC* at the same overall error rate.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (any comparable type).
    confidence : array-like of float, shape (n,)
        Higher means more likely correct; ties are averaged over random orders.

    Returns
    -------
    float
        ``aurc - optimal_aurc(r)``; 0 for a perfect ranking (slightly negative possible
        on very small samples, see the module's conventions).
    """
    error_rate = float(np.mean(np.asarray(y_true) != np.asarray(y_pred)))
    return aurc(y_true, y_pred, confidence) - optimal_aurc(error_rate)


def augrc(y_true, y_pred, confidence) -> float:
    """Area under the generalized risk–coverage curve (mean of ``E_k/n`` over the grid).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (any comparable type).
    confidence : array-like of float, shape (n,)
        Higher means more likely correct; ties are averaged over random orders.

    Returns
    -------
    float
        AUGRC (Traub et al. 2024); lower is better.
    """
    errors = _expected_errors(y_true, y_pred, confidence)
    return float(np.mean(errors) / errors.size)


def risk_at_coverage(y_true, y_pred, confidence, coverage: float) -> float:
    """Selective risk at ``coverage`` in (0, 1], interpolated between grid points.

    Between ``k/n`` and ``(k+1)/n`` the expected error count is interpolated
    linearly (a fraction of the next row is accepted); the risk is that count over
    ``coverage·n``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (any comparable type).
    confidence : array-like of float, shape (n,)
        Higher means more likely correct; ties are averaged over random orders.
    coverage : float in (0, 1]
        The share of rows accepted.

    Returns
    -------
    float
        The expected error rate among the accepted rows.
    """
    coverage = float(coverage)
    if not 0.0 < coverage <= 1.0:
        raise ValueError(f"coverage must lie in (0, 1]; got {coverage}.")
    errors = _expected_errors(y_true, y_pred, confidence)
    n = errors.size
    accepted = coverage * n
    count = np.interp(accepted, np.arange(n + 1), np.concatenate(([0.0], errors)))
    return float(count / accepted)


def coverage_at_risk(y_true, y_pred, confidence, risk: float) -> float:
    """The largest coverage ``k/n`` whose selective risk is ≤ ``risk``; 0.0 if none.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (any comparable type).
    confidence : array-like of float, shape (n,)
        Higher means more likely correct; ties are averaged over random orders.
    risk : float
        The largest selective risk allowed.

    Returns
    -------
    float
        A grid coverage ``k/n``, or 0.0.
    """
    coverage, curve = risk_coverage_curve(y_true, y_pred, confidence)
    ok = np.flatnonzero(curve <= float(risk))
    return float(coverage[ok[-1]]) if ok.size else 0.0


# --------------------------------------------------------------------------- SGR


def binomial_upper_bound(errors: int, n: int, delta: float) -> float:
    """Clopper–Pearson upper bound on an error rate from ``errors`` of ``n``.

    The ``b`` solving ``P(Binomial(n, b) ≤ errors) = delta``: with probability at
    least ``1 − delta`` the true rate is below it. 1.0 when ``errors == n`` or ``n == 0``.

    Parameters
    ----------
    errors : int
        Errors observed.
    n : int
        Rows observed.
    delta : float in (0, 1)
        The probability that the bound fails.

    Returns
    -------
    float
        The upper bound, in [0, 1].
    """
    if n <= 0 or errors >= n:
        return 1.0
    return float(beta.ppf(1.0 - delta, errors + 1, n - errors))


def sgr_threshold(scores, correct, target_risk: float, confidence: float):
    """Selection with guaranteed risk (Geifman & El-Yaniv, NeurIPS 2017, Algorithm 1).

    How the algorithm is read here: sort the ``m`` calibration scores ascending;
    binary search over their positions for ``⌈log2 m⌉`` steps. At each step the
    candidate threshold θ is the score at the middle position ``z = ⌈(lo+hi)/2⌉``;
    the rows with score ≥ θ are accepted, and their empirical selective risk gives
    the Clopper–Pearson upper bound ``b*`` at level ``δ/⌈log2 m⌉`` with
    ``δ = 1 − confidence``. If ``b* < target_risk`` the search moves to lower
    thresholds (more coverage, ``hi = z``), else to higher ones (``lo = z``). By
    the union bound all the tested bounds hold together with probability ≥ 1 − δ,
    so the lowest tested threshold whose bound is below the target is returned
    (the paper returns the last one; any tested one keeps the guarantee).

    Parameters
    ----------
    scores : array-like of float, shape (m,)
        The calibration rows' confidence scores.
    correct : array-like of bool, shape (m,)
        Whether each calibration row was classified correctly.
    target_risk : float in (0, 1)
        The selective risk to stay below.
    confidence : float in (0, 1)
        The probability 1 − δ of the guarantee.

    Returns
    -------
    threshold : float
        Accept rows with score ≥ threshold; ``inf`` when no tested threshold meets the
        target.
    bound : float
        The risk bound of that threshold (1.0 when none).
    """
    scores = np.asarray(scores, dtype=np.float64)
    wrong = ~np.asarray(correct, dtype=bool)
    m = scores.size
    if m == 0:
        return math.inf, 1.0
    order = np.argsort(scores, kind="stable")
    s, w = scores[order], wrong[order]
    # rows accepted by θ = s[z] are those from the first row tied with s[z] onwards
    first = np.searchsorted(s, s, side="left")
    errors_from = np.concatenate((np.cumsum(w[::-1])[::-1], [0]))
    steps = max(1, math.ceil(math.log2(m)))
    delta_step = (1.0 - confidence) / steps
    lo, hi = 0, m - 1
    best = (math.inf, 1.0)
    for _ in range(steps):
        z = math.ceil((lo + hi) / 2)
        start = int(first[z])
        bound = binomial_upper_bound(int(errors_from[start]), m - start, delta_step)
        if bound < target_risk:
            if s[z] < best[0]:
                best = (float(s[z]), bound)
            hi = z
        else:
            lo = z
    return best


# --------------------------------------------------------------------------- classifier


def _num_samples(X) -> int:
    shape = getattr(X, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else len(X)


def _as_table(X):
    """``X`` as given when it is a table or an array, else as a numpy array; never 1-D."""
    if not hasattr(X, "shape") and not isinstance(X, (list, tuple)):
        X = np.asarray(X)
    if not hasattr(X, "iloc") and np.ndim(X) == 1:
        raise ValueError(
            "Expected a 2D array of rows, got a 1D array instead. Reshape your data with "
            "array.reshape(-1, 1) for a single feature or array.reshape(1, -1) for one row."
        )
    return X


class RiskControlledClassifier(ClassifierMixin, BaseEstimator):
    """A selective classifier whose selective risk is at most ``target_risk``.

    ``fit`` splits the data (stratified): a clone of ``estimator`` learns on one
    part; on the held-out calibration part (``calibration_size`` of the rows) a
    confidence threshold is chosen with `sgr_threshold`, the binomial-bound
    method of Geifman & El-Yaniv (NeurIPS 2017). With probability at least
    ``confidence`` over the draw of the calibration rows, the rows accepted by
    the threshold (``predict_verdict == 1``) have a true selective risk of at most
    ``target_risk``, for any scoring function, assuming new rows come from the
    same distribution as the calibration rows.

    Scores are ``estimator.predict_confidence(X)`` when the estimator has it
    (for example `ternary.TernaryTreeClassifier`), else the maximum of
    ``predict_proba(X)``. ``X`` is passed to the estimator as given (a DataFrame stays
    one, so a pipeline with its own preprocessing works).

    Parameters
    ----------
    estimator : classifier
        Any classifier with ``predict_proba``; it is cloned, never fitted in place.
    target_risk : float in (0, 1), default=0.05
        The selective risk the accepted rows must stay below.
    confidence : float in (0, 1), default=0.9
        Probability that the guarantee holds (1 − δ).
    calibration_size : float in (0, 1) or int, default=0.3
        Share (or number) of rows held out to choose the threshold.
    random_state : int, RandomState or None, default=None
        Seeds the train/calibration split only.

    Attributes
    ----------
    estimator_ : estimator
        The fitted clone.
    classes_ : ndarray of shape (n_classes,)
        The estimator's classes.
    n_features_in_ : int
        The number of features seen in ``fit``.
    feature_names_in_ : ndarray of str
        The column names seen in ``fit``, when ``X`` was a DataFrame with string columns.
    threshold_ : float
        Rows with score ≥ ``threshold_`` are accepted; ``inf`` when no threshold met the
        target (then every row is flagged and ``fit`` warned).
    risk_bound_ : float
        The upper confidence bound on the accepted rows' risk.
    coverage_ : float
        The share of calibration rows accepted.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(2000, random_state=0)
    >>> rc = RiskControlledClassifier(LogisticRegression(), target_risk=0.05, random_state=0)
    >>> rc = rc.fit(X, y)
    >>> bool(0.0 < rc.coverage_ <= 1.0)
    True
    """

    def __init__(
        self,
        estimator,
        *,
        target_risk=0.05,
        confidence=0.9,
        calibration_size=0.3,
        random_state=None,
    ):
        self.estimator = estimator
        self.target_risk = target_risk
        self.confidence = confidence
        self.calibration_size = calibration_size
        self.random_state = random_state

    def _check_params(self):
        for name in ("target_risk", "confidence"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and 0.0 < value < 1.0):
                raise ValueError(
                    f"{name} must be a number strictly between 0 and 1; got {value!r}."
                )

    def fit(self, X, y, sample_weight=None):
        """Fit the estimator on one part of the data and calibrate on the rest.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The training rows, passed to the estimator as given.
        y : array-like of shape (n_samples,)
            The class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Row weights for the estimator's own fit (its part of the split); the
            estimator must accept ``sample_weight``. The calibration counts rows: the
            guarantee is about the share of accepted rows that are wrong.

        Returns
        -------
        RiskControlledClassifier
            The fitted estimator itself.
        """
        self._check_params()
        X = _as_table(X)
        validate_data(self, X, y, skip_check_array=True)
        y = column_or_1d(np.asarray(y), warn=True)
        check_classification_targets(y)
        if _num_samples(X) != len(y):
            raise ValueError(
                f"X has {_num_samples(X)} rows but y has {len(y)}; give one label per row."
            )
        arrays = [X, y]
        if sample_weight is not None:
            if not has_fit_parameter(self.estimator, "sample_weight"):
                raise ValueError(
                    f"sample_weight was given, but {type(self.estimator).__name__}.fit does "
                    "not accept one; drop the weights or choose an estimator that takes them."
                )
            arrays.append(np.asarray(sample_weight, dtype=np.float64))
        try:
            parts = train_test_split(
                *arrays,
                test_size=self.calibration_size,
                stratify=y,
                random_state=self.random_state,
            )
        except ValueError as err:
            raise ValueError(
                "Could not split the rows into a stratified fitting and calibration part "
                f"({err}). Every class needs at least two rows, and calibration_size must leave "
                "rows on both sides; give more data or change calibration_size."
            ) from err
        X_fit, X_cal, y_fit, y_cal = parts[:4]
        weights = {} if sample_weight is None else {"sample_weight": parts[4]}
        self.estimator_ = clone(self.estimator).fit(X_fit, y_fit, **weights)
        self.classes_ = self.estimator_.classes_
        scores = self._scores(X_cal)
        correct = self.estimator_.predict(X_cal) == y_cal
        self.threshold_, self.risk_bound_ = sgr_threshold(
            scores, correct, self.target_risk, self.confidence
        )
        self.coverage_ = float(np.mean(scores >= self.threshold_))
        if not math.isfinite(self.threshold_):
            self.coverage_ = 0.0
            warnings.warn(
                f"No confidence threshold keeps the selective risk below {self.target_risk} "
                f"with probability {self.confidence} on the {len(y_cal)} calibration rows, so "
                "every row is flagged (predict_verdict is 0 everywhere). Raise target_risk, "
                "lower confidence, or give more calibration data.",
                UserWarning,
                stacklevel=2,
            )
        return self

    def _scores(self, X) -> np.ndarray:
        if hasattr(self.estimator_, "predict_confidence"):
            return np.asarray(self.estimator_.predict_confidence(X), dtype=np.float64)
        return np.max(self.estimator_.predict_proba(X), axis=1)

    def _checked(self, X):
        check_is_fitted(self, "estimator_")
        X = _as_table(X)
        validate_data(self, X, reset=False, skip_check_array=True)
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator).input_tags
        tags.input_tags.sparse = inner.sparse  # X goes to the estimator as given
        tags.input_tags.allow_nan = inner.allow_nan
        return tags

    def predict(self, X) -> np.ndarray:
        """The estimator's class for every row, accepted or not.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to classify, as the estimator takes them.

        Returns
        -------
        ndarray of shape (n_samples,)
            The estimator's prediction.
        """
        X = self._checked(X)
        return self.estimator_.predict(X)

    def predict_proba(self, X) -> np.ndarray:
        """The estimator's class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to classify, as the estimator takes them.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The estimator's probabilities, in the order of ``classes_``.
        """
        X = self._checked(X)
        return self.estimator_.predict_proba(X)

    def predict_verdict(self, X) -> np.ndarray:
        """The verdict per row: 1 = accepted (score ≥ ``threshold_``), 0 = flagged.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The rows to classify, as the estimator takes them.

        Returns
        -------
        ndarray of shape (n_samples,), int8
            1 where the row is accepted, 0 where it is flagged.
        """
        X = self._checked(X)
        if not math.isfinite(self.threshold_):
            return np.zeros(_num_samples(X), dtype=np.int8)
        return (self._scores(X) >= self.threshold_).astype(np.int8)
