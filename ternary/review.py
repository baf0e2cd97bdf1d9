"""Which rows to review: the least confident under a budget, or those a risk target leaves out.

A ternary tree's zone verdict says where a split is close, not which rows are most likely
wrong: at the same flag share every δ method's verdict loses to ranking the rows by a
confidence (BENCHMARKS.md, "Zone edges": on 50 CC18 tables at depth 4 the default margin
verdict's decided accuracy was 0.7374 against 0.7459 for CART's Laplace-leaf ranking
flagging as many rows, 4/7/39). So the rows to review are named from the ranking:

* a **review budget**, a share of the rows a person can check: `flag_least_confident`
  flags the ``review_count`` least confident rows of one file, named by `review_rule`
  (`quota_rule` when the share is a quota of the file being scored);
* a **review rule per row**: `review_threshold` turns a budget into a confidence threshold,
  learned from the model's confidences on the training rows, and `with_review_rule` stores
  it in the model (``review_threshold_``, ``review_share_``). `flag_below_threshold` then
  flags a row by its own confidence alone: the same row gets the same flag whatever else
  is in its file. A confidence is a function of the row, so the share of new rows below
  the threshold is about the share of training rows below it where new rows are like
  them. (Learned on the model's own scale: a tree's confidence takes few values, and a
  threshold learned from other models, such as the folds' of a cross-validation, can fall
  anywhere among them: on credit-g it flagged 0 to 45 % of new rows at a 10 % budget.);
* a **risk target**: `~ternary.selective.RiskControlledClassifier` learns on part of the
  labelled rows and picks a confidence threshold on the rest, with a guarantee on the
  accepted rows' error rate; `flag_below_threshold` flags the rows below it.

The app's Your data page, `ternary.pipeline.score` and ``ternary predict`` use these
functions: a stored threshold by default, a per-file quota with ``--review-share``.

>>> from ternary.review import flag_least_confident, review_rule
>>> flag_least_confident([0.9, 0.3, 0.6, 0.1], 0.5), review_rule(0.5)
(array([False,  True, False,  True]), 'least confident 50 %')
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "flag_below_threshold",
    "flag_least_confident",
    "quota_rule",
    "review_count",
    "review_rule",
    "review_threshold",
    "stored_review_rule",
    "threshold_rule",
    "with_review_rule",
]


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


def quota_rule(share: float) -> str:
    """The name of a per-file quota at ``share``: `review_rule` of the file being scored.

    Parameters
    ----------
    share : float in [0, 1]
        The share of the file's rows flagged.

    Returns
    -------
    str
        For example ``'least confident 10 % of this file (quota)'``.

    Examples
    --------
    >>> quota_rule(0.1)
    'least confident 10 % of this file (quota)'
    """
    return f"{review_rule(share)} of this file (quota)"


def review_threshold(confidence, share: float) -> float:
    """The confidence threshold that flags ``share`` of the rows ``confidence`` scores.

    Learned once from the model's confidences on the training rows, it turns a review
    budget into a rule for one row: a row is flagged when its confidence is below the threshold
    (`flag_below_threshold`), whatever else is in its file. With ``k = review_count(n,
    share)``, the threshold lies halfway between the k-th and the (k+1)-th lowest
    confidence, so exactly the ``k`` least confident rows are below it; where those two are
    tied it is their value, and fewer rows are below it (the budget is never exceeded).
    A share of 0 gives ``-inf`` (no row flagged), a share that takes every row ``inf``.

    Parameters
    ----------
    confidence : array-like of float, shape (n,)
        The rows' confidences (higher: more likely correct), out of fold.
    share : float in [0, 1]
        The review budget.

    Returns
    -------
    float
        Rows whose confidence is below it are flagged.

    Examples
    --------
    >>> review_threshold([0.9, 0.2, 0.5, 0.3, 0.7], 0.4)
    0.4
    >>> review_threshold([0.5, 0.5, 0.5, 0.9], 0.5)  # tied at the cut: none below
    0.5
    """
    scores = np.sort(_review_scores(confidence))
    k = review_count(scores.size, share)
    if k == 0:
        return -math.inf
    if k >= scores.size:
        return math.inf
    low, high = float(scores[k - 1]), float(scores[k])
    middle = low + (high - low) / 2
    return middle if low < middle else high


def threshold_rule(threshold: float, share: float) -> str:
    """The name of a learned review threshold, as the app and the CLI write it.

    Parameters
    ----------
    threshold : float
        The confidence threshold (`review_threshold`).
    share : float in [0, 1]
        The budget it was learned at.

    Returns
    -------
    str
        For example ``'confidence below 0.4312 (10 % of training rows)'``.

    Examples
    --------
    >>> threshold_rule(0.43121, 0.1)
    'confidence below 0.4312 (10 % of training rows)'
    """
    review_count(0, share)
    return f"confidence below {float(threshold):.4g} ({100 * float(share):.6g} % of training rows)"


def with_review_rule(model, threshold: float, share: float):
    """A shallow copy of ``model`` that carries a review threshold (``model`` is unchanged).

    The copy gets ``review_threshold_`` and ``review_share_``; `ternary.pipeline.score`
    and ``ternary predict`` flag its rows by that threshold by default, and a skops file
    of the copy keeps both.

    Parameters
    ----------
    model : fitted estimator or pipeline
        Shared steps are not copied (the copy is shallow).
    threshold : float
        From `review_threshold` on the model's confidences on the training rows.
    share : float in [0, 1]
        The budget it was learned at.

    Returns
    -------
    object
        The copy.

    Examples
    --------
    >>> class Model: ...
    >>> rule = stored_review_rule(with_review_rule(Model(), 0.4, 0.1))
    >>> rule, stored_review_rule(Model())
    ((0.4, 0.1), None)
    """
    import copy

    review_count(0, share)
    out = copy.copy(model)
    out.review_threshold_ = float(threshold)
    out.review_share_ = float(share)
    return out


def stored_review_rule(model) -> tuple[float, float] | None:
    """``(threshold, share)`` stored by `with_review_rule`, or None for a model without one.

    Parameters
    ----------
    model : object
        A model, possibly loaded from a file.

    Returns
    -------
    tuple of float or None
        The threshold and the budget it was learned at.
    """
    threshold = getattr(model, "review_threshold_", None)
    share = getattr(model, "review_share_", None)
    if threshold is None or share is None:
        return None
    return float(threshold), float(share)
