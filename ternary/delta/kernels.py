"""Zones of every split of a grown binary tree in one compiled pass (numba, optional).

`margin_deltas_compiled` is the compiled twin of the vectorised margin δ
(`margin_deltas`): the same (row, split node) pairs of the training partition, the
same order (pairs grouped by node in their given order, then sorted stably by the
node's feature value, as ``np.lexsort((V, N))`` orders them), and the same
operations in the same order, so the same floats: weighted class counts of each
side summed in the segment's order, majority classes by first maximum, the half
gap, the nearest cross-class rows, the clamp to ``max_delta_fraction`` of the
node's value range. Where the numpy version sorts all pairs of the tree at once,
this one sorts each node's few rows, without the temporary arrays of a lexsort over
the whole partition: a forest member pays it once per tree.

`zone_deltas_compiled` (over a tree: `tree_zone_deltas`) does the same for
quality_plateau, gain_ratio and class_overlap, whose δ the estimator otherwise asks
node by node: each node's rows sorted as `NodeRows` sorts them, then compiled loops
over the sorted rows (running class counts and candidate thresholds, the counts at θ*,
numpy's linear percentile step for step, the plateau and the widest overlap), equal to
`node_delta` bit for bit. The Gini split quality Q is a compiled loop too, summing
the classes in numpy's order; the entropy Q and the split entropy stay numpy ufuncs on
all candidates of the tree at once, as numpy's ``log2`` may be a SIMD routine that a
compiled loop need not match. With the kernels of one node, `node_delta_compiled`
serves a tree grown node by node.

numba is imported on first use, never by ``import ternary``; without it the
functions return None and the caller keeps numpy (or asks node by node).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ternary import _jit
from ternary.delta._zone_loops import (
    _gini_qualities,
    _margin_sorted,
    _overlap_all,
    _plateau_candidates,
    _plateau_reduce,
    _sort_pairs,
    _threshold_counts,
)
from ternary.tree import split_qualities, split_row_pairs

__all__ = [
    "CURVE_METHODS",
    "margin_delta_sorted",
    "margin_deltas_compiled",
    "node_delta_compiled",
    "node_delta_sorted",
    "tree_zone_deltas",
    "zone_deltas_compiled",
    "zone_kernels_available",
]


def _margin_all(
    pair_rows, pair_nodes, feature, threshold, X, y, w, n_classes, max_delta_fraction, out
):
    """Write each split node's clamped margin δ into ``out`` (zeros elsewhere).

    Plain Python that numba compiles; a test runs it uncompiled too.
    """
    n_nodes = out.shape[0]
    for node in range(n_nodes):
        out[node] = 0.0
    # a stable counting sort of the pairs by node: each node's pairs keep their order
    count = np.zeros(n_nodes, dtype=np.intp)
    for i in range(pair_nodes.shape[0]):
        count[pair_nodes[i]] += 1
    start = np.zeros(n_nodes, dtype=np.intp)
    total = 0
    for node in range(n_nodes):
        start[node] = total
        total += count[node]
    fill = start.copy()
    order = np.empty(pair_nodes.shape[0], dtype=np.intp)
    for i in range(pair_nodes.shape[0]):
        order[fill[pair_nodes[i]]] = i
        fill[pair_nodes[i]] += 1
    side = np.zeros((2, n_classes))
    for node in range(n_nodes):
        m = count[node]
        if m < 2:
            continue
        f = feature[node]
        t = threshold[node]
        idx = order[start[node] : start[node] + m]
        values = np.empty(m)
        for j in range(m):
            values[j] = np.float64(X[pair_rows[idx[j]], f])
        by_value = np.argsort(values, kind="mergesort")
        rows = np.empty(m, dtype=np.intp)
        v = np.empty(m)
        for j in range(m):
            rows[j] = pair_rows[idx[by_value[j]]]
            v[j] = values[by_value[j]]
        n_left = 0
        for j in range(m):
            if v[j] <= t:
                n_left += 1
        if n_left == 0 or n_left == m:
            continue
        for k in range(n_classes):
            side[0, k] = 0.0
            side[1, k] = 0.0
        for j in range(m):
            r = rows[j]
            side[0 if v[j] <= t else 1, y[r]] += w[r]
        c_left = 0
        c_right = 0
        for k in range(1, n_classes):
            if side[0, k] > side[0, c_left]:
                c_left = k
            if side[1, k] > side[1, c_right]:
                c_right = k
        # rows <= θ come first in the sorted segment: [0, n_left) left, the rest right
        gap = min(t - v[n_left - 1], v[n_left] - t)
        raw = gap
        if c_left != c_right:
            a = np.nan
            for j in range(m):
                if v[j] > t and y[rows[j]] == c_left:
                    a = v[j] - t
                    break
            b = np.nan
            for j in range(m - 1, -1, -1):
                if v[j] <= t and y[rows[j]] == c_right:
                    b = t - v[j]
                    break
            if np.isnan(a):
                raw = b
            elif np.isnan(b):
                raw = a
            else:
                raw = min(a, b)
            if np.isnan(raw):
                raw = gap
        cap = max_delta_fraction * (v[m - 1] - v[0])
        out[node] = min(max(raw, 0.0), cap)


_SIGNATURES = {
    "margin": "void(intp[::1], intp[::1], intp[::1], float64[::1], float32[:, :], intp[::1], "
    "float64[::1], intp, float64, float64[::1])",
    "sort_pairs": "void(intp[::1], intp[::1], intp[::1], float32[:, :], intp[::1], intp[::1], "
    "intp[::1], float64[::1])",
    "plateau_candidates": "intp(intp, intp[::1], intp[::1], intp[::1], float64[::1], intp[::1], "
    "float64[::1], intp, intp, float64[::1], float64[:, ::1], intp[::1], float64[:, ::1], "
    "intp[::1], intp[::1])",
    "plateau_reduce": "void(intp, intp, intp[::1], intp[::1], float64[::1], float64[::1], "
    "float64[::1], float64, intp[::1], intp[::1], float64[::1], float64, float64[::1])",
    "overlap": "void(intp[::1], intp[::1], intp[::1], float64[::1], intp[::1], intp, float64, "
    "float64, float64, float64[::1])",
    "threshold_counts": "void(intp[::1], intp[::1], intp[::1], float64[::1], intp[::1], "
    "float64[::1], float64[::1], float64[:, ::1], float64[:, ::1], float64[::1])",
    "gini_qualities": "void(float64[:, ::1], float64[:, ::1], intp[::1], float64[::1])",
    "margin_sorted": (
        "float64(float32[:, ::1], intp[::1], float64[::1], intp[::1], intp, float64, intp,"
        " float64, float64)"
    ),
}
_FUNCTIONS = {
    "margin": _margin_all,
    "sort_pairs": _sort_pairs,
    "plateau_candidates": _plateau_candidates,
    "plateau_reduce": _plateau_reduce,
    "overlap": _overlap_all,
    "threshold_counts": _threshold_counts,
    "gini_qualities": _gini_qualities,
    "margin_sorted": _margin_sorted,
}


_jit.register("zones", _SIGNATURES, _FUNCTIONS)


def _kernels():
    return _jit.kernels("zones")


def zone_kernels_available() -> bool:
    """True when numba is importable and the zone kernels compiled."""
    return _kernels() is not None


def margin_deltas_compiled(
    pair_rows: np.ndarray,
    pair_nodes: np.ndarray,
    n_nodes: int,
    feature: np.ndarray,
    threshold: np.ndarray,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    max_delta_fraction: float,
    *,
    compiled: bool = True,
):
    """Every split's clamped margin δ, as `margin_deltas` computes it, or None.

    The arguments are `margin_deltas`' (``X`` float32). None when numba is
    unavailable or the inputs fall outside the compiled signature (``compiled=True``);
    ``compiled=False`` runs the same code uncompiled, for tests.
    """
    out = np.zeros(int(n_nodes))
    args = (
        np.ascontiguousarray(pair_rows, dtype=np.intp),
        np.ascontiguousarray(pair_nodes, dtype=np.intp),
        np.ascontiguousarray(feature, dtype=np.intp),
        np.ascontiguousarray(threshold, dtype=np.float64),
        X,
        np.ascontiguousarray(y, dtype=np.intp),
        np.ascontiguousarray(w, dtype=np.float64),
        int(n_classes),
        float(max_delta_fraction),
        out,
    )
    if not compiled:
        _margin_all(*args)
        return out
    if X.dtype != np.float32:
        return None
    kernels = _kernels()
    if kernels is None:
        return None
    try:
        kernels["margin"](*args)
    except TypeError:  # input types the signature does not cover: numpy answers
        return None
    return out


#: The δ methods of `zone_deltas_compiled`: their δ reads the node's sorted rows only.
CURVE_METHODS = ("quality_plateau", "gain_ratio", "class_overlap")
#: Candidate thresholds held at once by the quality-plateau pass (more nodes, more rounds).
_CANDIDATE_BUFFER = 1 << 16


def _class_sums(a):
    # numpy's sum over the last axis of fewer than 8 classes adds them left to right
    total = a[:, 0].copy()
    for k in range(1, a.shape[1]):
        total += a[:, k]
    return 0.0 + total


def _impurities(counts, criterion):
    total = _class_sums(counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / total[:, None]
        if criterion == "gini":
            imp = 1.0 - _class_sums(p * p)
        else:
            logp = np.where(p > 0, np.log2(np.where(p > 0, p, 1.0)), 0.0)
            imp = -_class_sums(p * logp)
    return np.where(total > 0, imp, 0.0)


def _qualities(run, left, total, node_of, criterion):
    """`ternary.tree.split_qualities(left, total[node_of], criterion)` to the bit, faster.

    Gini below 8 classes: the compiled loop (`_gini_qualities`). Entropy below 8
    classes: the same numpy ufuncs on the same arrays, with numpy's reduction over the
    classes (a left-to-right sum there, then ``0.0 +``) replaced by column additions
    that repeat it exactly, numpy's slow part over a short axis; numpy's own ``log2``
    is kept. From 8 classes on, numpy's pairwise sum: `split_qualities` itself.
    """
    if left.shape[1] >= 8 or left.shape[0] == 0:
        return split_qualities(left, total[node_of], criterion)
    if criterion == "gini":
        out = np.empty(left.shape[0])
        run["gini_qualities"](np.ascontiguousarray(left), total, node_of, out)
        return out
    total = total[node_of]
    right = total - left
    children = _class_sums(left) * _impurities(left, criterion) + _class_sums(right) * _impurities(
        right, criterion
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        return _impurities(total, criterion) - children / _class_sums(total)


def _plateau_pass(run, start, count, rows, values, y, w, threshold, n_classes, params):
    # candidates of as many nodes as fit in the buffer, their Q at once, then the plateaus
    n_nodes = start.shape[0]
    out = np.zeros(n_nodes)
    # enough for the largest node; more nodes per round up to the buffer size
    capacity = max(min(_CANDIDATE_BUFFER, rows.shape[0]), int(count.max(initial=0)))
    cand_thr = np.empty(capacity)
    cand_left = np.empty((capacity, n_classes))
    cand_node = np.zeros(capacity, dtype=np.intp)
    node_total = np.zeros((n_nodes, n_classes))
    node_first = np.zeros(n_nodes, dtype=np.intp)
    node_n = np.zeros(n_nodes, dtype=np.intp)
    first = 0
    while first < n_nodes:
        stop = int(
            run["plateau_candidates"](
                first, start, count, rows, values, y, w, n_classes,
                int(params.min_samples_leaf), cand_thr, cand_left, cand_node,
                node_total, node_first, node_n,
            )
        )  # fmt: skip
        n_cand = int(node_first[stop - 1] + node_n[stop - 1])
        # Q of every candidate of these nodes: quality_curve's floats (see _qualities)
        quality = np.ascontiguousarray(
            _qualities(run, cand_left[:n_cand], node_total, cand_node[:n_cand], params.criterion),
            dtype=np.float64,
        )
        run["plateau_reduce"](
            first, stop, node_first, node_n, cand_thr, quality, threshold,
            float(params.epsilon), start, count, values,
            float(params.max_delta_fraction), out,
        )  # fmt: skip
        first = stop
    return out


def _gain_ratio_pass(run, start, count, rows, values, y, w, threshold, n_classes, params):
    # the counts at θ* in the kernel; the gain ratio by numpy, as gain_ratio_parts forms it
    n_nodes = start.shape[0]
    left = np.zeros((n_nodes, n_classes))
    total = np.zeros((n_nodes, n_classes))
    value_range = np.zeros(n_nodes)
    run["threshold_counts"](start, count, rows, values, y, w, threshold, left, total, value_range)
    out = np.zeros(n_nodes)
    nodes = np.flatnonzero(count >= 2)
    if not nodes.size:
        return out
    left, total, span = left[nodes], total[nodes], value_range[nodes]
    w_left, w_total = left.sum(axis=1), total.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(w_total > 0, w_left / w_total, 0.0)
        inside = (frac > 0.0) & (frac < 1.0)
        f = frac[inside]
        h_split = np.zeros(nodes.size)
        h_split[inside] = -(f * np.log2(f) + (1.0 - f) * np.log2(1.0 - f))
        gain = _qualities(run, left, total, np.arange(nodes.size), params.criterion)
        spread = params.alpha * span
        raw = np.where(h_split > 0.0, spread / (1.0 + gain / h_split), spread)
    out[nodes] = np.minimum(np.maximum(raw, 0.0), params.max_delta_fraction * span)
    return out


def _overlap_pass(run, start, count, rows, values, y, w, threshold, n_classes, params):
    out = np.zeros(start.shape[0])
    # np.percentile's quantiles: the percentages [100q, 100(1-q)] divided by 100
    q_low = (100.0 * params.q) / 100.0
    q_high = (100.0 * (1.0 - params.q)) / 100.0
    run["overlap"](
        start, count, rows, values, y, n_classes, q_low, q_high,
        float(params.max_delta_fraction), out,
    )  # fmt: skip
    return out


_PASSES = {
    "quality_plateau": _plateau_pass,
    "gain_ratio": _gain_ratio_pass,
    "class_overlap": _overlap_pass,
}


def zone_deltas_compiled(
    pair_rows: np.ndarray,
    pair_nodes: np.ndarray,
    n_nodes: int,
    feature: np.ndarray,
    threshold: np.ndarray,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    params,
    *,
    compiled: bool = True,
) -> np.ndarray | None:
    """Every split's final δ for quality_plateau, gain_ratio or class_overlap, or None.

    The same numbers, bit for bit, as `ternary.delta.node_delta` asked node by node on
    ``NodeRows.from_arrays`` of each split's rows (tested with hypothesis): each node's
    rows are sorted as `NodeRows` sorts them, and the compiled loops over them form the
    same sums in the same order (running class counts, candidate midpoints ``a/2 + b/2``,
    counts at θ*, numpy's linear percentile step for step, Gini Q with the classes summed
    in numpy's order). Entropy Q and the split entropy are left to numpy's ufuncs, called
    once for all candidates of the tree, as numpy's ``log2`` may be a SIMD routine that
    a compiled loop need not repeat to the last bit; from 8 classes on, numpy's pairwise
    sum over the classes too.

    Parameters
    ----------
    pair_rows, pair_nodes : ndarray of int
        Every (row, split node) pair of the training partition over the rows of positive
        weight (`ternary.tree.split_row_pairs`), each node's rows ascending.
    n_nodes : int
        The tree's node count; nodes without pairs (leaves) get 0.
    feature, threshold : ndarray
        Each node's split feature and θ*.
    X : ndarray of float32, shape (n_samples, n_features)
        The training rows.
    y : ndarray of int
        Class codes in ``range(n_classes)``.
    w : ndarray of float64
        Row weights (positive for every row in ``pair_rows``).
    n_classes : int
        The number of classes.
    params : DeltaParams
        ``method`` (one of `CURVE_METHODS`), ``criterion``, ``epsilon``, ``alpha``,
        ``q``, ``min_samples_leaf``, ``max_delta_fraction`` and ``delta_scale``.
    compiled : bool, default=True
        False runs the same loops uncompiled (for tests).

    Returns
    -------
    ndarray of shape (n_nodes,) or None
        Each node's δ, clamped and scaled as `node_delta` does; None when numba is
        unavailable, ``X`` is not float32 or the inputs fall outside the compiled
        signatures (``compiled=True`` only).
    """
    if params.method not in _PASSES:
        raise ValueError(f"No compiled pass for delta_method {params.method!r}.")
    if compiled and X.dtype != np.float32:
        return None
    run: Any = _kernels() if compiled else _FUNCTIONS
    if run is None:
        return None
    n_pairs = np.asarray(pair_rows).shape[0]
    start = np.zeros(int(n_nodes), dtype=np.intp)
    count = np.zeros(int(n_nodes), dtype=np.intp)
    rows = np.empty(n_pairs, dtype=np.intp)
    values = np.empty(n_pairs)
    y = np.ascontiguousarray(y, dtype=np.intp)
    w = np.ascontiguousarray(w, dtype=np.float64)
    threshold = np.ascontiguousarray(threshold, dtype=np.float64)
    try:
        run["sort_pairs"](
            np.ascontiguousarray(pair_rows, dtype=np.intp),
            np.ascontiguousarray(pair_nodes, dtype=np.intp),
            np.ascontiguousarray(feature, dtype=np.intp),
            X, start, count, rows, values,
        )  # fmt: skip
        out = _PASSES[params.method](
            run, start, count, rows, values, y, w, threshold, int(n_classes), params
        )
    except TypeError:  # input types the signatures do not cover: node by node answers
        if not compiled:
            raise
        return None
    # the same product node_delta forms with the scale last
    return out * params.delta_scale


def tree_zone_deltas(tree, X, y_codes, weights, n_classes, params) -> np.ndarray | None:
    """`zone_deltas_compiled` over a grown binary tree's training partition, or None.

    Parameters
    ----------
    tree : TernaryTree
        A binary tree (its children, feature and threshold are read).
    X : ndarray of float32, shape (n_samples, n_features)
        The training rows.
    y_codes : ndarray of int
        Class codes in ``range(n_classes)``.
    weights : ndarray of float64
        Row weights; rows of weight 0 are absent, as in `NodeRows`.
    n_classes : int
        The number of classes.
    params : DeltaParams
        The δ parameters; ``method`` one of `CURVE_METHODS`.

    Returns
    -------
    ndarray of shape (tree.node_count,) or None
        Every split's δ as `node_delta` gives it; None where the compiled pass cannot
        run, so the caller asks node by node.
    """
    if X.dtype != np.float32 or _kernels() is None:
        return None
    pair_rows, pair_nodes = split_row_pairs(tree, X, np.flatnonzero(weights > 0))
    return zone_deltas_compiled(
        pair_rows, pair_nodes, tree.node_count, tree.feature, tree.threshold,
        X, y_codes, weights, n_classes, params,
    )  # fmt: skip


def node_delta_compiled(column, y, w, threshold: float, n_classes: int, params) -> float | None:
    """One node's final δ from the compiled passes, or None where they cannot answer.

    For a tree grown node by node (the hard-middle growth): the δ that
    ``node_delta(NodeRows.from_arrays(column, y, w, threshold, n_classes), params)``
    gives, bit for bit, for margin and the `CURVE_METHODS`.

    Parameters
    ----------
    column : ndarray of float32, shape (m,)
        The node's rows' values on its split feature, in row order.
    y : ndarray of int, shape (m,)
        Their class codes in ``range(n_classes)``.
    w : ndarray of float64, shape (m,)
        Their weights; rows of weight 0 are absent.
    threshold : float
        The split threshold θ*.
    n_classes : int
        The number of classes.
    params : DeltaParams
        The δ parameters.

    Returns
    -------
    float or None
        The clamped, scaled δ; None for node_bootstrap and "none", without numba, or
        when ``column`` is not float32.
    """
    column = np.asarray(column)
    if params.method not in (*CURVE_METHODS, "margin") or column.dtype != np.float32:
        return None
    w = np.ascontiguousarray(w, dtype=np.float64)
    rows = np.flatnonzero(w > 0)
    nodes = np.zeros(rows.size, dtype=np.intp)
    feature = np.zeros(1, dtype=np.intp)
    theta = np.array([threshold], dtype=np.float64)
    X = column.reshape(-1, 1)
    if params.method == "margin":
        out = margin_deltas_compiled(
            rows, nodes, 1, feature, theta, X, y, w, n_classes, params.max_delta_fraction
        )
        return None if out is None else float(out[0] * params.delta_scale)
    out = zone_deltas_compiled(rows, nodes, 1, feature, theta, X, y, w, n_classes, params)
    return None if out is None else float(out[0])


def node_delta_sorted(values, y, w, threshold: float, n_classes: int, params) -> float | None:
    """One node's final δ from rows already sorted as `NodeRows` holds them, or None.

    The lean form of `node_delta_compiled` for a grower that keeps each node's rows
    sorted: no sort and no partition, only the pass's loops on the one node.

    Parameters
    ----------
    values : ndarray of float64, shape (m,)
        The node's values on its split feature, ascending, tied rows in row order (as
        ``NodeRows.from_arrays`` sorts them), rows of weight 0 left out.
    y : ndarray of int, shape (m,)
        Their class codes, in the same order.
    w : ndarray of float64, shape (m,)
        Their weights, all positive, in the same order.
    threshold : float
        The split threshold θ*.
    n_classes : int
        The number of classes.
    params : DeltaParams
        The δ parameters; ``method`` one of `CURVE_METHODS`.

    Returns
    -------
    float or None
        ``node_delta(NodeRows(values, y, w, threshold, n_classes), params)``, bit for bit;
        None for another method or without numba.
    """
    if params.method not in _PASSES:
        return None
    run = _kernels()
    if run is None:
        return None
    m = int(np.shape(values)[0])
    args = (
        np.zeros(1, dtype=np.intp),
        np.array([m], dtype=np.intp),
        np.arange(m, dtype=np.intp),
        np.ascontiguousarray(values, dtype=np.float64),
        np.ascontiguousarray(y, dtype=np.intp),
        np.ascontiguousarray(w, dtype=np.float64),
        np.array([threshold], dtype=np.float64),
    )
    try:
        out = _PASSES[params.method](run, *args, int(n_classes), params)
    except TypeError:  # input types the signatures do not cover
        return None
    return float(out[0] * params.delta_scale)


def margin_delta_sorted(
    XT: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    by_feature: np.ndarray,
    feature: int,
    threshold: float,
    n_classes: int,
    max_delta_fraction: float,
    delta_scale: float,
    *,
    compiled: bool = True,
) -> float | None:
    """The margin δ of a node whose rows come sorted on the split feature.

    The hard-middle growth keeps each node's rows sorted (`ternary.tree.growth`); this
    reads the margin δ from them in one compiled call, with no sort and no partition.

    Parameters
    ----------
    XT : ndarray of float32, shape (n_features, n_samples), C-contiguous
        All training rows, transposed.
    y : ndarray of intp, shape (n_samples,)
        Encoded classes.
    w : ndarray of float64, shape (n_samples,)
        Sample weights.
    by_feature : ndarray of intp
        The node's positive-weight rows sorted on ``feature`` (a row of the lists of
        `ternary.tree.growth.presort` or `ternary.tree.growth.partition`).
    feature : int
        The split feature.
    threshold : float
        The split threshold θ.
    n_classes : int
        The number of classes.
    max_delta_fraction, delta_scale : float
        The clamp and the scale of `ternary.delta.node_delta`.
    compiled : bool, default=True
        False runs the plain-Python source uncompiled (slow; for tests).

    Returns
    -------
    float or None
        ``node_delta(NodeRows(...), params)`` for ``params.method == "margin"``, bit for
        bit; None without numba (``compiled=True``).
    """
    if compiled:
        kernels = _kernels()
        if kernels is None:
            return None
        kernel = kernels["margin_sorted"]
    else:
        kernel = _margin_sorted
    return float(
        kernel(
            XT,
            y,
            w,
            np.ascontiguousarray(by_feature),
            int(feature),
            float(threshold),
            int(n_classes),
            float(max_delta_fraction),
            float(delta_scale),
        )
    )
