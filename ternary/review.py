"""Which rows to review: the least confident under a budget, or those a risk target leaves out.

A ternary tree's zone verdict says where a split is close, not which rows are most likely
wrong: at the same flag share every δ method's verdict loses to ranking the rows by a
confidence (BENCHMARKS.md, "Zone edges": on 50 CC18 tables at depth 4 the default margin
verdict's decided accuracy was 0.7374 against 0.7459 for CART's Laplace-leaf ranking
flagging as many rows, 4/7/39). So the rows to review are named from the ranking:

* a **review budget**, a share of the rows a person can check: `flag_least_confident`
  flags the ``review_count`` least confident rows, named by `review_rule`;
* a **risk target**: `~ternary.selective.RiskControlledClassifier` learns on part of the
  labelled rows and picks a confidence threshold on the rest, with a guarantee on the
  accepted rows' error rate; `flag_below_threshold` flags the rows below it.

The app's Your data page and ``ternary predict --review-share`` both use these functions.

>>> from ternary.review import flag_least_confident, review_rule
>>> flag_least_confident([0.9, 0.3, 0.6, 0.1], 0.5), review_rule(0.5)
(array([False,  True, False,  True]), 'least confident 50 %')
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["flag_below_threshold", "flag_least_confident", "review_count", "review_rule"]


def _review_scores(confidence) -> np.ndarray:
    scores = np.asarray(confidence, dtype=np.float64)
    if scores.ndim != 1:
        raise ValueError(f"confidence must be one score per row (1-D); got shape {scores.shape}.")
    if np.isnan(scores).any():
        raise ValueError(
            f"confidence holds {int(np.isnan(scores).sum())} NaN value(s); every row needs a "
            "score to be ranked (score the rows with predict_confidence)."
        )
    return scores


def review_count(n_rows: int, share: float) -> int:
    """The rows a review budget of ``share`` allows among ``n_rows``: ``⌊share·n_rows⌋``.

    ``share·n_rows`` is rounded to 9 decimals before the floor, so a budget of 0.29 on 100
    rows is 29 rows (binary floating point makes the product 28.999…).

    Parameters
    ----------
    n_rows : int
        The rows to choose from.
    share : float in [0, 1]
        The share of rows that can be reviewed.

    Returns
    -------
    int
        The number of rows to flag, never more than the budget.
    """
    share = float(share)
    if not 0.0 <= share <= 1.0:
        raise ValueError(
            f"The review share must lie between 0 and 1 (0.1 = review a tenth of the rows); "
            f"got {share}."
        )
    return int(math.floor(round(share * int(n_rows), 9)))


def flag_least_confident(confidence, share: float) -> np.ndarray:
    """Flag the least confident rows that a review budget allows (True = review the row).

    The ``review_count(n, share)`` rows of lowest ``confidence`` are flagged (the budget is
    never exceeded). Rows tied at the cut are taken in row order: the earlier row is
    flagged first, so the list does not change between runs. Every flagged row's
    confidence is ≤ every unflagged row's. At equal flag share this ranking is a better
    list of rows to review than a tree's zone verdict (BENCHMARKS.md, "Zone edges").

    Parameters
    ----------
    confidence : array-like of float, shape (n,)
        Higher means more likely correct, e.g. ``predict_confidence``.
    share : float in [0, 1]
        The share of rows that can be reviewed.

    Returns
    -------
    ndarray of bool, shape (n,)
        True for the rows to review.

    See Also
    --------
    flag_below_threshold : Flag by a risk target's threshold instead of a budget.

    Examples
    --------
    >>> flag_least_confident([0.9, 0.2, 0.5, 0.2, 0.7], 0.4)
    array([False,  True, False,  True, False])
    >>> flag_least_confident([0.5, 0.5, 0.5], 0.5)  # one row; ties go in row order
    array([ True, False, False])
    """
    scores = _review_scores(confidence)
    k = review_count(scores.size, share)
    flags = np.zeros(scores.size, dtype=bool)
    flags[np.argsort(scores, kind="stable")[:k]] = True
    return flags


def flag_below_threshold(confidence, threshold: float) -> np.ndarray:
    """Flag the rows a risk target leaves out: ``confidence < threshold`` (True = review).

    ``threshold`` is the ``threshold_`` of a fitted
    `~ternary.selective.RiskControlledClassifier`, so the rows not flagged are the ones its
    guarantee covers; ``inf`` (no threshold met the target) flags every row. The
    confidences must come from the same scoring as the classifier's (``predict_confidence``
    of its ``estimator_``, else the largest class probability).

    Parameters
    ----------
    confidence : array-like of float, shape (n,)
        Higher means more likely correct.
    threshold : float
        Rows scoring at least this are accepted.

    Returns
    -------
    ndarray of bool, shape (n,)
        True for the rows to review.

    See Also
    --------
    flag_least_confident : Flag by a share of rows instead of a risk target.

    Examples
    --------
    >>> flag_below_threshold([0.9, 0.2, 0.5], 0.5)
    array([False,  True, False])
    """
    return _review_scores(confidence) < float(threshold)


def review_rule(share: float) -> str:
    """The name of the least-confident rule at ``share``, as the app and the CLI write it.

    Parameters
    ----------
    share : float in [0, 1]
        The review budget.

    Returns
    -------
    str
        For example ``'least confident 10 %'``.

    Examples
    --------
    >>> review_rule(0.1), review_rule(0.125)
    ('least confident 10 %', 'least confident 12.5 %')
    """
    review_count(0, share)  # the same check as the flags
    return f"least confident {100 * float(share):.6g} %"
