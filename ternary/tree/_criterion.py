"""Split criteria: impurity of class counts and the quality of a split (CART's)."""

from __future__ import annotations

import numpy as np

__all__ = ["impurity", "midpoint", "split_proxy", "split_qualities", "split_quality"]


def impurity(counts: np.ndarray, criterion: str) -> np.ndarray:
    """Gini or entropy (bits) of weighted class counts along the last axis (0 for empty)."""
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
    """Q for left class counts ``left`` (..., K) given the node's totals (K,)."""
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
    """A score with the same argmax over splits as Q, cheaper to evaluate.

    Q = imp(parent) − children's weighted impurity / W, and the children's term
    reduces to ``−Σ L²/w_L − Σ R²/w_R`` (Gini, up to constants) or
    ``w_L log w_L − Σ L log L + (same for R)`` (entropy), as scikit-learn's
    splitter uses too. ``left`` is (..., G, K); ``total`` is (..., K).
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
    # scikit-learn's formula; it avoids overflow and matches its thresholds bit for bit
    return a / 2.0 + b / 2.0
