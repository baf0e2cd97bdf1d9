"""Split criteria: impurity of class counts and the quality of a split (CART's)."""

from __future__ import annotations

import numpy as np

__all__ = ["impurity", "midpoint", "split_proxy", "split_qualities", "split_quality"]


def impurity(counts: np.ndarray, criterion: str) -> np.ndarray:
    """Compute the Gini impurity or the entropy of weighted class counts.

    Parameters
    ----------
    counts : ndarray of shape (..., K)
        Weighted class counts along the last axis (K classes).
    criterion : {"gini", "entropy", "log_loss"}
        "gini" for ``1 − Σ p²``; "entropy" and "log_loss" both give ``−Σ p log₂ p`` (in
        bits, as scikit-learn), where ``p`` are the counts divided by their sum.

    Returns
    -------
    ndarray of shape (...)
        The impurity of each set of counts; 0 where the counts sum to 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.tree import impurity
    >>> impurity(np.array([[3.0, 1.0], [2.0, 2.0]]), "gini").tolist()
    [0.375, 0.5]
    >>> float(impurity(np.array([2.0, 2.0]), "entropy"))
    1.0
    """
    total = counts.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / total[..., None]
        if criterion == "gini":
            imp = 1.0 - np.sum(p * p, axis=-1)
        else:  # entropy / log_loss, in bits like scikit-learn
            logp = np.where(p > 0, np.log2(np.where(p > 0, p, 1.0)), 0.0)
            imp = -np.sum(p * logp, axis=-1)
    return np.where(total > 0, imp, 0.0)


def split_quality(left: np.ndarray, total: np.ndarray, criterion: str) -> np.ndarray:
    """Compute CART's split quality Q, the impurity decrease of a split.

    ``Q = imp(total) − (w_L · imp(left) + w_R · imp(right)) / W``, where ``right = total −
    left`` and ``w_L``, ``w_R``, ``W`` are the weights on the left, on the right and in
    the node.

    Parameters
    ----------
    left : ndarray of shape (..., K)
        The weighted class counts going left, for one split or many.
    total : ndarray of shape (K,)
        The weighted class counts of the node being split.
    criterion : {"gini", "entropy", "log_loss"}
        The impurity (see `impurity`).

    Returns
    -------
    ndarray of shape (...)
        Q of each split, in the impurity's units.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.tree import split_quality
    >>> float(split_quality(np.array([3.0, 0.0]), np.array([3.0, 1.0]), "gini"))
    0.375
    """
    right = total - left
    w_total = total.sum()
    w_left = left.sum(axis=-1)
    w_right = right.sum(axis=-1)
    parent = impurity(total, criterion)
    return (
        parent
        - (w_left * impurity(left, criterion) + w_right * impurity(right, criterion)) / w_total
    )


def split_qualities(left: np.ndarray, total: np.ndarray, criterion: str) -> np.ndarray:
    """`split_quality` of many splits at once, each with its own totals.

    ``left`` and ``total`` are (b, K): row ``i`` gives ``split_quality(left[i], total[i])``
    to the bit (the same element-wise operations, each row's sums over its K classes),
    as node_bootstrap checks all resamples of a chunk in one pass.

    Parameters
    ----------
    left : ndarray of shape (b, K)
        The weighted class counts left of each split.
    total : ndarray of shape (b, K)
        The weighted class counts of each split's node.
    criterion : {"gini", "entropy", "log_loss"}
        The impurity.

    Returns
    -------
    ndarray of shape (b,)
        The impurity decrease of each split (NaN for an empty node).
    """
    right = total - left
    w_total = total.sum(axis=-1)
    w_left = left.sum(axis=-1)
    w_right = right.sum(axis=-1)
    children = w_left * impurity(left, criterion) + w_right * impurity(right, criterion)
    with np.errstate(divide="ignore", invalid="ignore"):
        return impurity(total, criterion) - children / w_total


def split_proxy(left: np.ndarray, total: np.ndarray, criterion: str) -> np.ndarray:
    """Score splits with the same argmax as Q, more cheaply.

    Q = imp(parent) − children's weighted impurity / W, and the children's term
    reduces to ``−Σ L²/w_L − Σ R²/w_R`` (Gini, up to constants) or
    ``w_L log w_L − Σ L log L + (same for R)`` (entropy), as scikit-learn's
    splitter uses too. The proxy is minus that term, so it grows with Q.

    Parameters
    ----------
    left : ndarray of shape (..., G, K)
        The weighted class counts going left, for G candidate splits of each node.
    total : ndarray of shape (..., K)
        The weighted class counts of each node.
    criterion : {"gini", "entropy", "log_loss"}
        The impurity; any value but "gini" scores the entropy (in nats).

    Returns
    -------
    ndarray of shape (..., G)
        ``Σ L²/w_L + Σ R²/w_R`` (Gini; NaN where a side is empty) or
        ``Σ L log L + Σ R log R − w_L log w_L − w_R log w_R`` (entropy): higher is better,
        and only comparable between splits of one node.
    """
    right = total[..., None, :] - left
    w_left = left.sum(axis=-1)
    w_right = right.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "gini":
            return (
                np.einsum("...k,...k->...", left, left) / w_left
                + np.einsum("...k,...k->...", right, right) / w_right
            )
        return (
            _xlogx(left).sum(axis=-1)
            + _xlogx(right).sum(axis=-1)
            - _xlogx(w_left)
            - _xlogx(w_right)
        )


def _xlogx(x):
    positive = x > 0
    return np.where(positive, x * np.log(np.where(positive, x, 1.0)), 0.0)


def midpoint(a, b):
    """Place a threshold halfway between two adjacent feature values.

    It is scikit-learn's formula ``a/2 + b/2``, which cannot overflow and gives its
    thresholds bit for bit.

    Parameters
    ----------
    a, b : float or ndarray
        The values either side of the cut, in the feature's units.

    Returns
    -------
    float or ndarray
        ``a / 2.0 + b / 2.0``, element-wise.
    """
    return a / 2.0 + b / 2.0
