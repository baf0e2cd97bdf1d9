"""Chow's (1970) reject rule on CART: the baseline every δ method is measured against."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ternary.experiment._combos import ArrayLike
from ternary.selective import optimal_aurc, tie_averaged_errors, tie_averaged_ranking


def _label_predictions(proba: np.ndarray, y_true: np.ndarray, classes) -> np.ndarray:
    proba = np.asarray(proba, dtype=np.float64)
    if classes is None:
        k = proba.shape[1]
        if np.issubdtype(y_true.dtype, np.integer) and np.all((y_true >= 0) & (y_true < k)):
            classes = np.arange(k)
        else:
            classes = np.unique(y_true)
            if classes.shape[0] != k:
                raise ValueError(
                    f"proba has {k} columns but y_true has {classes.shape[0]} distinct labels; "
                    "pass classes= (the estimator's classes_) to say which column is which label."
                )
    classes = np.asarray(classes)
    if classes.shape[0] != proba.shape[1]:
        raise ValueError(
            f"classes has {classes.shape[0]} labels but proba has {proba.shape[1]} columns."
        )
    return classes[np.argmax(proba, axis=1)]


def _chow_scores(
    correct: np.ndarray, confidence: np.ndarray, counts: np.ndarray, ties: str
) -> np.ndarray:
    """Decided accuracy after flagging ``counts[j]`` least confident rows, for every j."""
    n = correct.shape[0]
    order = np.argsort(confidence, kind="stable")
    ordered = correct[order].astype(np.float64)
    # correct rows among ordered[k:], for every k
    tail = np.concatenate([np.cumsum(ordered[::-1])[::-1], [0.0]])
    counts = np.asarray(counts, dtype=np.intp)
    kept = n - counts
    if ties == "row_order":
        kept_correct = tail[counts]
    elif ties == "mean":
        # the cut falls inside a group of equal confidence: flag a uniformly random
        # subset of that group, in expectation, so the result does not depend on row order;
        # the kept rows are the most confident ones: the selective module's error curve
        expected_errors = tie_averaged_errors(1.0 - correct.astype(np.float64), confidence)
        kept_correct = np.where(kept > 0, kept - expected_errors[np.maximum(kept, 1) - 1], 0.0)
    else:
        raise ValueError(f"ties must be 'row_order' or 'mean'; got {ties!r}.")
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(kept > 0, kept_correct / np.maximum(kept, 1), np.nan)


def _check_proba(y_true, proba):
    y_true = np.asarray(y_true)
    proba = np.asarray(proba, dtype=np.float64)
    if proba.ndim != 2 or proba.shape[0] != y_true.shape[0]:
        raise ValueError(
            f"proba must have shape (n_samples, n_classes) with n_samples = "
            f"{y_true.shape[0]}; got {proba.shape}."
        )
    return y_true, proba


def chow_decided_accuracy(
    y_true: ArrayLike,
    proba: ArrayLike,
    n_flagged: int,
    classes: ArrayLike | None = None,
    ties: str = "row_order",
) -> float:
    """Decided accuracy of a classifier that flags its ``n_flagged`` least confident rows.

    Chow's (1970) reject rule: the rows with the lowest maximum class
    probability are flagged, the rest are scored. A depth-4 CART has at most
    16 distinct leaf probabilities, so the cut usually falls inside a group of
    rows with equal confidence, and which of them are flagged is then
    arbitrary: the flagged set is ambiguous. ``ties="row_order"`` (the
    default) flags them in row order (a stable sort): deterministic, but if the
    rows are sorted by class (many ARFF files are, and test folds keep file
    order) it is biased. ``ties="mean"`` gives the expected decided accuracy
    when the tied rows to flag are drawn at random, which does not depend on
    row order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels.
    proba : array-like of shape (n_samples, n_classes)
        The classifier's class probabilities; a row's confidence is its largest one.
    n_flagged : int
        How many rows to flag, from 0 to ``n_samples``.
    classes : array-like of shape (n_classes,), optional
        Label of each proba column (an estimator's ``classes_``). By default
        ``0 … n_classes−1`` for integer labels in that range, else the sorted
        distinct labels of ``y_true``.
    ties : {"row_order", "mean"}, default="row_order"
        How rows of equal confidence at the cut are flagged: in row order, or the
        expectation over a random choice among them.

    Returns
    -------
    float
        The accuracy on the rows not flagged; NaN when every row is flagged.

    Raises
    ------
    ValueError
        For a ``proba`` of the wrong shape, ``n_flagged`` outside ``0 … n_samples``,
        labels that do not match the columns, or an unknown ``ties``.

    Examples
    --------
    >>> chow_decided_accuracy([0, 1, 1], [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]], 1)
    1.0
    >>> chow_decided_accuracy([0, 1], [[0.6, 0.4], [0.6, 0.4]], 1, ties="mean")
    0.5
    """
    y_true, proba = _check_proba(y_true, proba)
    n = y_true.shape[0]
    if not 0 <= n_flagged <= n:
        raise ValueError(f"n_flagged must be between 0 and {n}; got {n_flagged}.")
    correct = _label_predictions(proba, y_true, classes) == y_true
    return float(_chow_scores(correct, proba.max(axis=1), np.array([int(n_flagged)]), ties)[0])


class ChowReference:
    """One fold's CART ranking, sorted once: Chow's rule at any count, and its AURCs.

    What `run_cv` asks of each fold's CART for every combination (Chow's decided
    accuracy at the combination's flag count, both tie rules) and once per fold
    (accuracy, AURC, E-AURC), from one stable sort of the test rows' confidence
    (`ternary.selective.tie_averaged_ranking`) instead of one or two per call. Every
    number equals its function's: `chow_decided_accuracy`, `ternary.selective.aurc`
    and `ternary.selective.e_aurc` on the same rows, bit for bit.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels of the test rows (at least one).
    proba : array-like of shape (n_samples, n_classes)
        CART's class probabilities for them.
    classes : array-like of shape (n_classes,), optional
        The label of each proba column, as in `chow_decided_accuracy`.
    confidence : array-like of shape (n_samples,), optional
        Another ranking of the same predictions (``argmax`` of ``proba``), e.g. CART
        with Laplace-smoothed leaves (`laplace_cart_confidence`); default the largest
        class probability, Chow's rule.

    Attributes
    ----------
    accuracy : float
        CART's accuracy on all rows.
    aurc : float
        ``aurc(y_true, y_pred, max proba)`` (or ``confidence``).
    e_aurc : float
        ``e_aurc(y_true, y_pred, max proba)`` (or ``confidence``).

    Examples
    --------
    >>> ref = ChowReference([0, 1, 1], [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]])
    >>> ref.decided_accuracy(1), ref.accuracy
    (1.0, 0.6666666666666666)
    """

    def __init__(
        self,
        y_true: ArrayLike,
        proba: ArrayLike,
        classes: ArrayLike | None = None,
        confidence: ArrayLike | None = None,
    ):
        y_true, proba = _check_proba(y_true, proba)
        if confidence is None:
            score = proba.max(axis=1)
        else:
            score = np.asarray(confidence, dtype=np.float64)
            if score.shape != y_true.shape:
                raise ValueError(
                    f"confidence must have one score per row ({y_true.shape[0]}); "
                    f"got shape {score.shape}."
                )
        n = y_true.shape[0]
        if n == 0:
            raise ValueError("ChowReference needs at least one row.")
        y_pred = _label_predictions(proba, y_true, classes)
        correct = y_pred == y_true
        errors, least_first = tie_averaged_ranking((y_true != y_pred).astype(np.float64), score)
        ordered = correct[least_first].astype(np.float64)
        # correct rows among the ordered[k:], for every k, as _chow_scores sums them
        self._tail = np.concatenate([np.cumsum(ordered[::-1])[::-1], [0.0]])
        self._errors = errors
        self._n = n
        self.accuracy = float(np.mean(y_pred == y_true))
        self.aurc = float(np.mean(errors / np.arange(1, n + 1)))
        self.e_aurc = self.aurc - optimal_aurc(float(np.mean(y_true != y_pred)))

    def decided_accuracy(self, n_flagged: int, ties: str = "row_order") -> float:
        """Give Chow's decided accuracy with ``n_flagged`` rows flagged.

        Parameters
        ----------
        n_flagged : int
            How many of the least confident rows to flag (0 … n_samples).
        ties : {"row_order", "mean"}, default="row_order"
            How the tied rows at the cut are chosen (see `chow_decided_accuracy`).

        Returns
        -------
        float
            ``chow_decided_accuracy(y_true, proba, n_flagged, classes, ties)``; NaN when
            every row is flagged.
        """
        if not 0 <= n_flagged <= self._n:
            raise ValueError(f"n_flagged must be between 0 and {self._n}; got {n_flagged}.")
        counts = np.array([int(n_flagged)], dtype=np.intp)
        kept = self._n - counts
        if ties == "row_order":
            kept_correct = self._tail[counts]
        elif ties == "mean":
            errors = self._errors
            kept_correct = np.where(kept > 0, kept - errors[np.maximum(kept, 1) - 1], 0.0)
        else:
            raise ValueError(f"ties must be 'row_order' or 'mean'; got {ties!r}.")
        with np.errstate(invalid="ignore", divide="ignore"):
            return float(np.where(kept > 0, kept_correct / np.maximum(kept, 1), np.nan)[0])


def _default_rates() -> np.ndarray:
    return np.round(np.arange(0.0, 0.9001, 0.01), 2)


def chow_curve(
    y_true: ArrayLike,
    proba: ArrayLike,
    rates: ArrayLike | None = None,
    classes: ArrayLike | None = None,
    ties: str = "row_order",
) -> pd.DataFrame:
    """Compute a classifier's accuracy–coverage curve under Chow's reject rule.

    For each rate r the ``round(r · n)`` least confident rows are flagged and the
    accuracy on the others is reported (see `chow_decided_accuracy` for ties).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels.
    proba : array-like of shape (n_samples, n_classes)
        The classifier's (CART's, in the paper) class probabilities.
    rates : array-like of float, optional
        Rates to flag, each in [0, 1]; default 0, 0.01, …, 0.90.
    classes : array-like of shape (n_classes,), optional
        The label of each proba column, as for `chow_decided_accuracy`.
    ties : {"row_order", "mean"}, default="row_order"
        How rows of equal confidence at the cut are flagged, as for
        `chow_decided_accuracy`.

    Returns
    -------
    pandas.DataFrame
        One row per rate, with columns ``uncertain_rate`` (the fraction actually
        flagged, ``round(r · n) / n``) and ``decided_accuracy`` (NaN where every
        row is flagged).

    Raises
    ------
    ValueError
        For a rate outside [0, 1] or NaN, no rows, or what
        `chow_decided_accuracy` refuses.

    Examples
    --------
    >>> chow_curve([0, 1, 1, 0], [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.7, 0.3]], [0, 0.25])
       uncertain_rate  decided_accuracy
    0            0.00              0.75
    1            0.25              1.00
    """
    y_true, proba = _check_proba(y_true, proba)
    rates = _default_rates() if rates is None else np.asarray(rates, dtype=np.float64).ravel()
    if np.any(np.isnan(rates)) or np.any((rates < 0) | (rates > 1)):
        raise ValueError("rates must lie in [0, 1].")
    n = y_true.shape[0]
    if n == 0:
        raise ValueError("chow_curve needs at least one row.")
    correct = _label_predictions(proba, y_true, classes) == y_true
    counts = np.rint(rates * n).astype(np.intp)
    accuracy = _chow_scores(correct, proba.max(axis=1), counts, ties)
    return pd.DataFrame({"uncertain_rate": counts / n, "decided_accuracy": accuracy})
