"""What every δ method is given: the node's rows (`NodeRows`) and the parameters.

`DeltaMethod` is the one shape of a method in the registry (`ternary.delta._registry`):
its name, the raw δ of one node, and optionally a pass that computes every split of a
binary tree at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ternary.tree import midpoint, split_quality

__all__ = [
    "DeltaMethod",
    "DeltaParams",
    "NodeRows",
    "quality_curve",
    "resolve_n_bootstraps",
    "split_counts_at_threshold",
]


@dataclass(frozen=True)
class NodeRows:
    """The training rows reaching one node, sorted on the split feature.

    What every δ method sees of a node. Build one with `from_arrays`, which drops the
    rows of zero weight and sorts; the constructor takes the arrays as they are.

    Parameters
    ----------
    values : ndarray of float64, shape (n,)
        The rows' values on the node's split feature, sorted ascending.
    y : ndarray of int, shape (n,)
        Their class codes in ``range(n_classes)``.
    w : ndarray of float64, shape (n,)
        Their sample weights, all positive.
    threshold : float
        The split threshold θ* CART chose, in the feature's units.
    n_classes : int
        The number of classes of the tree (some may be absent at the node).

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import NodeRows
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> rows.values.tolist(), rows.y.tolist()
    ([1.0, 2.0, 4.0, 6.0, 7.0, 8.0], [0, 1, 0, 1, 0, 1])
    >>> rows.n, rows.split_index, rows.value_range
    (6, 3, 7.0)
    """

    values: np.ndarray
    y: np.ndarray
    w: np.ndarray
    threshold: float
    n_classes: int

    @classmethod
    def from_arrays(cls, column, y, w, threshold, n_classes) -> NodeRows:
        """Build the `NodeRows` of a node: drop the zero-weight rows and sort by the column.

        Parameters
        ----------
        column : array-like of float, shape (n_rows,)
            The values of the rows reaching the node on its split feature.
        y : array-like of int, shape (n_rows,)
            Their class codes in ``range(n_classes)``.
        w : array-like of float, shape (n_rows,)
            Their sample weights; rows of weight 0 are dropped.
        threshold : float
            The node's threshold θ*.
        n_classes : int
            The number of classes of the tree.

        Returns
        -------
        NodeRows
            The rows of positive weight, sorted stably on ``column``.
        """
        column = np.asarray(column, dtype=np.float64)
        y = np.asarray(y, dtype=np.intp)
        w = np.asarray(w, dtype=np.float64)
        keep = w > 0
        if not keep.all():
            column, y, w = column[keep], y[keep], w[keep]
        order = np.argsort(column, kind="stable")
        return cls(column[order], y[order], w[order], float(threshold), int(n_classes))

    @property
    def n(self) -> int:
        """The number of rows reaching the node (of positive weight, via `from_arrays`)."""
        return self.values.shape[0]

    @property
    def split_index(self) -> int:
        """Number of rows with value ≤ θ (the left child's rows)."""
        return int(np.searchsorted(self.values, self.threshold, side="right"))

    @property
    def value_range(self) -> float:
        """The range ``max c − min c`` of the node's values (0 without rows)."""
        return float(self.values[-1] - self.values[0]) if self.n else 0.0


@dataclass(frozen=True)
class DeltaParams:
    """Everything a δ method needs besides the node's rows.

    The estimator builds one from its own parameters of the same names, once
    ``n_bootstraps="auto"`` and the scale are resolved to numbers.

    Parameters
    ----------
    method : str, default="margin"
        The δ method, one of `DELTA_METHODS`.
    criterion : {"gini", "entropy"}, default="gini"
        The impurity of Q (scikit-learn's "log_loss" is "entropy").
    epsilon : float, default=0.05
        The tolerance ε of quality_plateau: thresholds with ``Q ≥ (1−ε)·Q(θ*)`` are on
        the plateau.
    alpha : float, default=0.10
        The scale α of gain_ratio, a fraction of the node's value range.
    q : float, default=0.10
        The percentile of class_overlap: a class's band is ``[P_q, P_(1−q)]``.
    n_bootstraps : int, default=20
        The number of resamples B of node_bootstrap.
    min_samples_leaf : int, default=1
        The fewest rows a candidate split leaves on each side.
    max_delta_fraction : float, default=0.25
        The cap on δ as a fraction of the node's value range.
    delta_scale : float, default=1.0
        The factor applied to every δ after the cap.
    """

    method: str = "margin"
    criterion: str = "gini"
    epsilon: float = 0.05
    alpha: float = 0.10
    q: float = 0.10
    n_bootstraps: int = 20
    min_samples_leaf: int = 1
    max_delta_fraction: float = 0.25
    delta_scale: float = 1.0


def resolve_n_bootstraps(n_bootstraps, n_train: int) -> int:
    """The paper's B: 20 below 2,000 training rows, 15 below 10,000, else 10.

    Parameters
    ----------
    n_bootstraps : "auto" or int
        The estimator's parameter.
    n_train : int
        The number of training rows.

    Returns
    -------
    int
        B: ``n_bootstraps`` itself, or the paper's rule for ``"auto"``.
    """
    if isinstance(n_bootstraps, str) and n_bootstraps == "auto":
        if n_train < 2000:
            return 20
        if n_train < 10000:
            return 15
        return 10
    return int(n_bootstraps)


def quality_curve(rows: NodeRows, criterion: str = "gini", min_samples_leaf: int = 1):
    """Compute Q(θ) at every candidate threshold of the node's column.

    Candidates are the midpoints ``a/2 + b/2`` of consecutive distinct values that leave
    at least ``min_samples_leaf`` rows on each side; Q is CART's impurity decrease with
    weighted class counts (`ternary.tree.split_quality`). Values are distinct when they
    differ at all: unlike scikit-learn's splitter, which never cuts between consecutive
    values at most 1e-7 apart (its ``FEATURE_THRESHOLD``; float32 values below 1 in
    magnitude can be), this curve has a candidate there too.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        The impurity of Q.
    min_samples_leaf : int, default=1
        Candidates must leave this many rows on each side.

    Returns
    -------
    thresholds : ndarray of float64, shape (n_candidates,)
        The candidate thresholds, ascending, in the feature's units.
    quality : ndarray of float64, shape (n_candidates,)
        Q at each candidate.
    left_fraction : ndarray of float64, shape (n_candidates,)
        The weighted share of the node's rows going left at each candidate.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import NodeRows, quality_curve
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> thresholds, quality, left_fraction = quality_curve(rows)
    >>> thresholds.tolist()
    [1.5, 3.0, 5.0, 6.5, 7.5]
    >>> quality.round(3).tolist()
    [0.1, 0.0, 0.056, 0.0, 0.1]
    """
    v, n = rows.values, rows.n
    if n < 2:
        empty = np.empty(0)
        return empty, empty, empty
    pos = np.flatnonzero(v[:-1] != v[1:])  # split after row pos: left = rows[:pos+1]
    n_left = pos + 1
    pos = pos[(n_left >= min_samples_leaf) & (n - n_left >= min_samples_leaf)]
    if pos.size == 0:
        empty = np.empty(0)
        return empty, empty, empty
    K = rows.n_classes
    left = np.empty((pos.size, K))
    total = np.empty(K)
    for k in range(K):
        cum = np.cumsum(np.where(rows.y == k, rows.w, 0.0))
        left[:, k] = cum[pos]
        total[k] = cum[-1]
    quality = split_quality(left, total, criterion)
    left_fraction = left.sum(axis=1) / total.sum()
    return midpoint(v[pos], v[pos + 1]), quality, left_fraction


def split_counts_at_threshold(rows: NodeRows):
    """Weighted left/total class counts of the split at θ*."""
    s = rows.split_index
    K = rows.n_classes
    left = np.bincount(rows.y[:s], weights=rows.w[:s], minlength=K)
    total = np.bincount(rows.y, weights=rows.w, minlength=K)
    return left, total


@dataclass(frozen=True)
class DeltaMethod:
    """One δ method as the registry holds it.

    Parameters
    ----------
    name : str
        The method's ``delta_method`` value, e.g. "margin".
    raw_delta : callable
        ``raw_delta(rows, params, random_state) -> float``: the δ of one node (`NodeRows`,
        `DeltaParams`, a RandomState or seed) before the clamp and the scale, ≥ 0.
    every_split : callable or None, default=None
        ``every_split(tree, X, y_codes, weights, n_classes, params) -> ndarray or None``:
        every split's final δ of a binary tree at once, equal to `node_delta` node by
        node (the clamp, then ``params.delta_scale``); only for methods that draw no
        random numbers, so the stream of the others is left alone. None (the attribute,
        or the pass's answer when its compiled kernels are unavailable): the estimator
        asks node by node.
    """

    name: str
    raw_delta: Callable
    every_split: Callable | None = None
