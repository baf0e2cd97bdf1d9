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

    Attributes
    ----------
    values : ndarray of float64, sorted ascending
    y : ndarray of int, class codes in ``range(n_classes)``
    w : ndarray of float64, positive weights
    threshold : float, the split threshold θ*
    n_classes : int
    """

    values: np.ndarray
    y: np.ndarray
    w: np.ndarray
    threshold: float
    n_classes: int

    @classmethod
    def from_arrays(cls, column, y, w, threshold, n_classes) -> NodeRows:
        """Drop zero-weight rows and sort (stably) by the column."""
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
        return self.values.shape[0]

    @property
    def split_index(self) -> int:
        """Number of rows with value ≤ θ (the left child's rows)."""
        return int(np.searchsorted(self.values, self.threshold, side="right"))

    @property
    def value_range(self) -> float:
        return float(self.values[-1] - self.values[0]) if self.n else 0.0


@dataclass(frozen=True)
class DeltaParams:
    """Everything a δ method needs besides the node's rows."""

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
    """Q(θ) over every candidate threshold of the node's column.

    Returns
    -------
    thresholds : ndarray, ascending candidate thresholds
    quality : ndarray, Q at each candidate
    left_fraction : ndarray, weighted share of the node's rows going left
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

    Attributes
    ----------
    name : str, the ``delta_method`` value
    raw_delta : callable ``(rows, params, random_state) -> float``
        δ of one node before the clamp and the scale.
    every_split : callable or None
        ``(tree, X, y_codes, weights, n_classes, params) -> ndarray or None`` of every
        split's clamped δ of a binary tree at once (scale 1), equal to `raw_delta` node
        by node followed by the clamp; only for methods that draw no random numbers, so
        the stream of the others is left alone. None (the attribute, or the pass's
        answer when its compiled kernels are unavailable): the estimator asks node by node.
    """

    name: str
    raw_delta: Callable
    every_split: Callable | None = None
