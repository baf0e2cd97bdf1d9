"""margin: the distance from θ to the nearest cross-class row (Smits 2026, §3.3).

Reading pinned here: c_L, c_R = majority classes (weighted counts; plain counts without
sample weights) of the rows ≤ θ and > θ. If c_L = c_R, δ is the half-gap
``min(θ − max(left), min(right) − θ)``; otherwise the distance from θ to the nearest
c_L row right of θ or nearest c_R row left of θ, whichever is closer; with no such
rows, the half-gap again.

Two forms side by side, equal bit for bit: `margin_support` (and `delta_margin`) for
one node, which `ternary.explain` shows, and `margin_deltas` for every split of a
binary tree in one vectorised pass; the estimator uses its compiled twin
(`ternary.delta.kernels`, numba, bit-equal) when numba is installed, this pass otherwise.

Margin's δ is a distance to a training value, so a zone edge can sit exactly on data:
when the nearest cross-class row lies right of θ, at ``θ+δ``, that row (and every row
tied with it) is inside the paper's half-open zone ``θ−δ < x ≤ θ+δ`` and flagged
(``zone_edges="closed"``), although the blend sends it wholly right; the default open
zone leaves it decided. When it lies left of θ, at ``θ−δ``, it is decided either way.
On data with many tied values (counts, one-hot columns) this choice moves whole groups of
rows (BENCHMARKS.md, "Zone edges"); the paper's published flag rates on such sets (e.g.
cnae-9) suggest its code used a zone closed at both ends, which this library does not
copy.
"""

from __future__ import annotations

import numpy as np

from ternary.delta._base import DeltaMethod, NodeRows
from ternary.delta.kernels import margin_deltas_compiled
from ternary.tree import split_row_pairs

__all__ = ["METHOD", "delta_margin", "margin_deltas", "margin_support"]


def margin_support(rows: NodeRows) -> dict:
    """Find the rows that define the margin δ at a node, for explanation.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature, with the
        node's threshold θ*.

    Returns
    -------
    dict
        ``class_left`` and ``class_right``: the majority classes c_L and c_R (weighted
        counts) of the rows ≤ θ* and > θ*; ``gap``: the half-gap
        ``min(θ* − max(left), min(right) − θ*)``; ``nearest_left_class_right_of``: the
        value of the first c_L row right of θ*, and ``nearest_right_class_left_of``: the
        value of the last c_R row left of θ* (both None when c_L = c_R or no such row
        exists); ``delta``: the raw δ, the smaller distance from θ* to those two values,
        else the half-gap. When every row lies on one side of θ*, the classes and values
        are None and ``gap`` and ``delta`` are 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import NodeRows, margin_support
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> support = margin_support(rows)
    >>> support["nearest_left_class_right_of"], support["nearest_right_class_left_of"]
    (7.0, 2.0)
    >>> support["gap"], support["delta"]
    (1.0, 2.0)
    """
    s, K, v, t = rows.split_index, rows.n_classes, rows.values, rows.threshold
    if s == 0 or s == rows.n:
        return {
            "class_left": None,
            "class_right": None,
            "gap": 0.0,
            "nearest_left_class_right_of": None,
            "nearest_right_class_left_of": None,
            "delta": 0.0,
        }
    c_left = int(np.argmax(np.bincount(rows.y[:s], weights=rows.w[:s], minlength=K)))
    c_right = int(np.argmax(np.bincount(rows.y[s:], weights=rows.w[s:], minlength=K)))
    gap = float(min(t - v[s - 1], v[s] - t))
    a = b = None
    if c_left != c_right:
        right_of = v[s:][rows.y[s:] == c_left]
        left_of = v[:s][rows.y[:s] == c_right]
        a = float(right_of[0]) if right_of.size else None
        b = float(left_of[-1]) if left_of.size else None
    distances = [
        d
        for d in ((a - t) if a is not None else None, (t - b) if b is not None else None)
        if d is not None
    ]
    delta = float(min(distances)) if distances else gap
    return {
        "class_left": c_left,
        "class_right": c_right,
        "gap": gap,
        "nearest_left_class_right_of": a,
        "nearest_right_class_left_of": b,
        "delta": delta,
    }


def delta_margin(rows: NodeRows) -> float:
    """Distance from θ* to the nearest cross-class row (the node's support vector).

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.

    Returns
    -------
    float
        The raw δ (before the clamp and the scale), ≥ 0.
    """
    return margin_support(rows)["delta"]


def margin_deltas(
    pair_rows: np.ndarray,
    pair_nodes: np.ndarray,
    n_nodes: int,
    feature: np.ndarray,
    threshold: np.ndarray,
    X: np.ndarray,
    y_codes: np.ndarray,
    weights: np.ndarray,
    n_classes: int,
    max_delta_fraction: float,
) -> np.ndarray:
    """Compute every split's margin δ of a binary tree at once, clamped as `node_delta` does.

    The same numbers as calling ``node_delta(NodeRows.from_arrays(...), margin)`` node
    by node (`margin_support` above), bit for bit, but from one pass over all (row, split
    node) pairs of the training partition (`ternary.tree.split_row_pairs`, given only the
    rows of positive weight, as `NodeRows` keeps only those): the pairs are sorted by
    node and then by the node's feature value (stably, so a node's rows keep the order
    `NodeRows` gives them), and each node's majority classes, gap and nearest
    cross-class rows are read off its sorted segment. A deep tree's thousands of nodes
    otherwise cost a Python call each. Nodes without pairs (leaves) get 0.

    Parameters
    ----------
    pair_rows, pair_nodes : ndarray of int, shape (n_pairs,)
        The (row, split node) pairs of the training partition, as `split_row_pairs`
        returns them for the rows of positive weight.
    n_nodes : int
        The tree's node count, the length of the result.
    feature : ndarray of int, shape (n_nodes,)
        The feature each node splits on (``tree.feature``).
    threshold : ndarray of float, shape (n_nodes,)
        Each node's threshold θ* (``tree.threshold``).
    X : ndarray of shape (n_samples, n_features)
        The training rows.
    y_codes : ndarray of int, shape (n_samples,)
        Their classes encoded in ``[0, n_classes)``.
    weights : ndarray of float, shape (n_samples,)
        Their weights, which pick each side's majority class.
    n_classes : int
        The number of classes.
    max_delta_fraction : float
        The cap on δ as a fraction of the node's value range on its feature.

    Returns
    -------
    ndarray of float64, shape (n_nodes,)
        Each node's clamped δ (scale 1), in its feature's units; 0 at leaves and at
        splits whose rows all fall on one side.
    """
    out = np.zeros(n_nodes)
    if not pair_rows.size:
        return out
    rows, nodes_of = pair_rows, pair_nodes
    values = X[rows, feature[nodes_of]].astype(np.float64)
    order = np.lexsort((values, nodes_of))
    rows, nodes_of, values = rows[order], nodes_of[order], values[order]
    codes, row_weights = y_codes[rows].astype(np.intp), weights[rows].astype(np.float64)
    left = values <= threshold[nodes_of]
    count = np.bincount(nodes_of, minlength=n_nodes)
    n_left = np.bincount(nodes_of[left], minlength=n_nodes)
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    nodes = np.flatnonzero((count >= 2) & (n_left > 0) & (n_left < count))
    if not nodes.size:
        return out
    # weighted class counts of each node's two sides, summed in the segment's order
    side_counts = np.bincount(
        (nodes_of * 2 + ~left) * n_classes + codes,
        weights=row_weights,
        minlength=n_nodes * 2 * n_classes,
    ).reshape(n_nodes, 2, n_classes)
    class_left = np.argmax(side_counts[:, 0], axis=1)
    class_right = np.argmax(side_counts[:, 1], axis=1)
    theta = threshold[nodes]
    split_at = start[nodes] + n_left[nodes]
    gap = np.minimum(theta - values[split_at - 1], values[split_at] - theta)
    # first row right of θ of the left majority class, last row left of θ of the right one
    to_right_row = np.full(n_nodes, np.nan)
    hit = np.flatnonzero(~left & (codes == class_left[nodes_of]))
    first_nodes, first = np.unique(nodes_of[hit], return_index=True)
    to_right_row[first_nodes] = values[hit[first]] - threshold[first_nodes]
    to_left_row = np.full(n_nodes, np.nan)
    hit = np.flatnonzero(left & (codes == class_right[nodes_of]))[::-1]
    last_nodes, last = np.unique(nodes_of[hit], return_index=True)
    to_left_row[last_nodes] = threshold[last_nodes] - values[hit[last]]
    cross = class_left[nodes] != class_right[nodes]
    right_distance = np.where(cross, to_right_row[nodes], np.nan)
    left_distance = np.where(cross, to_left_row[nodes], np.nan)
    raw = np.where(
        np.isnan(right_distance),
        left_distance,
        np.where(
            np.isnan(left_distance), right_distance, np.minimum(right_distance, left_distance)
        ),
    )
    raw = np.where(np.isnan(raw), gap, raw)
    value_range = values[start[nodes] + count[nodes] - 1] - values[start[nodes]]
    out[nodes] = np.minimum(np.maximum(raw, 0.0), max_delta_fraction * value_range)
    return out


def _every_split(tree, X, y_codes, weights, n_classes, params) -> np.ndarray:
    # margin draws no random numbers, so one vectorised pass leaves the stream alone
    pair_rows, pair_nodes = split_row_pairs(tree, X, np.flatnonzero(weights > 0))
    args = (
        pair_rows,
        pair_nodes,
        tree.node_count,
        tree.feature,
        tree.threshold,
        X,
        y_codes,
        weights,
        n_classes,
        params.max_delta_fraction,
    )
    # the compiled twin (bit-equal, tested) when numba is there; else the numpy pass above
    compiled = margin_deltas_compiled(*args)
    clamped = compiled if compiled is not None else margin_deltas(*args)
    # the same product node_delta forms with the scale last
    return clamped * params.delta_scale


METHOD = DeltaMethod(
    "margin", lambda rows, params, random_state: delta_margin(rows), every_split=_every_split
)
