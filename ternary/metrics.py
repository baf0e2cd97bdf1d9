"""Evaluation metrics of the ternary protocol (Smits 2026, section 3.5 and 4).

A ternary tree always predicts a class; its verdict says whether the prediction
was decided (verdict 1, no uncertainty zone traversed) or boundary-uncertain
(verdict 0). The metrics below score the decided rows separately.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import f1_score

from ternary._calibration import bayes_error_bound, scale_for_share

__all__ = [
    "bayes_error_bound",
    "decided_accuracy",
    "decided_f1",
    "efficiency",
    "scale_for_share",
    "ub_ratio",
    "uncertain_rate",
]


def _decided_mask(y_true, y_pred, verdict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels.
    y_pred : array-like of shape (n_samples,)
        The predicted labels.
    verdict : array-like of shape (n_samples,)
        1 for a decided row, 0 for a boundary-uncertain one.

    Returns
    -------
    float
        The share of decided rows predicted correctly.

    Examples
    --------

    >>> decided_accuracy([0, 1, 1], [0, 0, 1], [1, 0, 1])
    1.0
    """
    y_true, y_pred, decided = _decided_mask(y_true, y_pred, verdict)
    if not decided.any():
        return float("nan")
    return float(np.mean(y_true[decided] == y_pred[decided]))


def uncertain_rate(verdict: ArrayLike) -> float:
    """Fraction of rows flagged boundary-uncertain (verdict 0); NaN for no rows.

    Parameters
    ----------
    verdict : array-like of shape (n_samples,)
        1 for a decided row, 0 for a boundary-uncertain one.

    Returns
    -------
    float
        The share of rows with verdict 0.
    """
    verdict = np.asarray(verdict)
    if verdict.size == 0:
        return float("nan")
    return float(np.mean(verdict == 0))


def decided_f1(
    y_true: ArrayLike, y_pred: ArrayLike, verdict: ArrayLike, average: str = "macro"
) -> float:
    """F1 score on the decided rows (macro-averaged by default); NaN when none.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true labels.
    y_pred : array-like of shape (n_samples,)
        The predicted labels.
    verdict : array-like of shape (n_samples,)
        1 for a decided row, 0 for a boundary-uncertain one.
    average : str, default="macro"
        As in `sklearn.metrics.f1_score`.

    Returns
    -------
    float
        The F1 score of the decided rows.
    """
    y_true, y_pred, decided = _decided_mask(y_true, y_pred, verdict)
    if not decided.any():
        return float("nan")
    return float(f1_score(y_true[decided], y_pred[decided], average=average, zero_division=0))


def efficiency(decided_acc: float, baseline_acc: float, uncertain_rate: float) -> float:
    """Efficiency η = (decided accuracy − baseline accuracy) / uncertain rate.

    The decided-accuracy gain bought per unit of boundary-uncertain rate; NaN
    when nothing is flagged (rate 0), where the gain is undefined.

    Parameters
    ----------
    decided_acc : float
        The method's decided accuracy.
    baseline_acc : float
        The baseline's accuracy on all rows (the paper: CART's).
    uncertain_rate : float
        The method's share of boundary-uncertain rows.

    Returns
    -------
    float
        The accuracy gain η per unit of flagging rate; NaN for a rate of 0 or NaN.

    Examples
    --------
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

    Parameters
    ----------
    uncertain_rate : float
        The share of boundary-uncertain rows.
    bayes_error : float or None
        The dataset's Bayes error, when known.

    Returns
    -------
    float
        The ratio U/B.
    """
    if bayes_error is None or not bayes_error or np.isnan(bayes_error):
        return float("nan")
    return float(uncertain_rate / bayes_error)
