"""The strongest zone-free rankings measured (issue 30): Laplace-smoothed CART and forest.

Chow's rule ranks CART's rows by the raw frequency of the predicted class in their
leaf, which rates a pure leaf of one row as sure as a pure leaf of a thousand. The
C4.4 correction (Provost & Domingos 2003) smooths each leaf to ``(n_c + 1) / (n + K)``;
with the row's smallest ``|x − θ| / std`` on its path breaking the remaining ties
(rows of one leaf), it is the baseline a confidence of ours has to beat. For forests,
the mean over the trees of the Laplace-smoothed leaves.
"""

from __future__ import annotations

import numpy as np

__all__ = ["laplace_cart_confidence", "laplace_forest_confidence"]

_STEPS = 2.0**30


def _leaf_laplace(tree, X, weighted: bool) -> np.ndarray:
    """Each row's Laplace-smoothed leaf distribution in one fitted scikit-learn tree."""
    value = tree.tree_.value[:, 0, :]
    sums = value.sum(axis=1, keepdims=True)
    share = value / np.where(sums > 0, sums, 1.0)
    rows = tree.tree_.weighted_n_node_samples if weighted else tree.tree_.n_node_samples
    n = np.asarray(rows, dtype=np.float64)[:, None]
    smooth = (share * n + 1.0) / (n + value.shape[1])
    return smooth[tree.apply(X)]


def _smallest_gap(cart, X, scale) -> np.ndarray:
    """The smallest ``|x_f − θ| / scale[f]`` over the splits on each row's path, capped at
    10 (as `TernaryTreeClassifier`'s smoothed ranking: farther says nothing more)."""
    path = cart.decision_path(X).tocsr()
    row = np.repeat(np.arange(X.shape[0]), np.diff(path.indptr))
    node = path.indices
    split = cart.tree_.children_left[node] != -1
    row, node = row[split], node[split]
    f = cart.tree_.feature[node]
    gap = np.abs(X[row, f].astype(np.float64) - cart.tree_.threshold[node]) / scale[f]
    best = np.full(X.shape[0], 10.0)
    np.minimum.at(best, row, gap)
    return best


def laplace_cart_confidence(cart, X, scale) -> tuple[np.ndarray, np.ndarray]:
    """Rank CART's predictions by Laplace-smoothed leaves, the scaled gap breaking ties.

    The score of a row is ``(n_c + 1) / (n + K)`` of its leaf for the predicted class c,
    binned to steps of 2⁻³⁰, plus ``g / (1 + g)`` of a step for its smallest scaled gap
    ``g = |x_f − θ| / scale[f]`` over the splits on its path (capped at 10): rows are
    ordered by the smoothed probability, and rows of one leaf by how far they lie from
    every threshold.

    Parameters
    ----------
    cart : sklearn.tree.DecisionTreeClassifier
        Fitted (without sample weights, or ``n`` counts rows, not weight).
    X : array-like of shape (n_samples, n_features)
        The rows to score.
    scale : array-like of shape (n_features,)
        A scale per feature, the training rows' standard deviations; zeros count as 1.

    Returns
    -------
    y_pred : ndarray of shape (n_samples,)
        CART's prediction (the smoothing keeps each leaf's argmax).
    confidence : ndarray of shape (n_samples,)
        The scores, in [0, 1): higher, more likely right.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0, 0, 1, 1])
    >>> cart = DecisionTreeClassifier(max_depth=1).fit(X, y)
    >>> pred, conf = laplace_cart_confidence(cart, X, X.std(axis=0))
    >>> pred.tolist(), np.round(conf, 4).tolist()
    ([0, 0, 1, 1], [0.75, 0.75, 0.75, 0.75])
    """
    X = np.asarray(X, dtype=np.float32)
    scale = np.asarray(scale, dtype=np.float64)
    scale = np.where(scale > 0, scale, 1.0)
    smooth = _leaf_laplace(cart, X, weighted=False)
    code = np.argmax(smooth, axis=1)
    p = smooth[np.arange(X.shape[0]), code]
    gap = _smallest_gap(cart, X, scale)
    tie = np.minimum(gap / (1.0 + gap), 1.0 - 2.0**-20)
    return cart.classes_[code], (np.floor(p * (_STEPS - 1)) + tie) / _STEPS


def laplace_forest_confidence(forest, X) -> tuple[np.ndarray, np.ndarray]:
    """Rank a random forest's predictions by its trees' Laplace-smoothed leaves, averaged.

    Each tree's leaf becomes ``(n_c + 1) / (n + K)`` with ``n_c`` counted over its
    bootstrap sample (repeated rows count as often as drawn); the forest averages them,
    predicts the largest and scores the row by it.

    Parameters
    ----------
    forest : sklearn.ensemble.RandomForestClassifier
        Fitted, on one output.
    X : array-like of shape (n_samples, n_features)
        The rows to score.

    Returns
    -------
    y_pred : ndarray of shape (n_samples,)
        The class of the largest mean smoothed probability.
    confidence : ndarray of shape (n_samples,)
        That mean probability, in (0, 1].
    """
    X = np.asarray(X, dtype=np.float32)
    mean = np.zeros((X.shape[0], forest.n_classes_))
    for tree in forest.estimators_:
        # a tree knows the classes of its bootstrap only when they are all there
        smooth = _leaf_laplace(tree, X, weighted=True)
        mean[:, : smooth.shape[1]] += smooth
    mean /= len(forest.estimators_)
    code = np.argmax(mean, axis=1)
    return forest.classes_[code], mean[np.arange(X.shape[0]), code]
