"""Compiled steps of the hard-middle growth: rows sorted once, split search, three-way partition.

The hard-middle growth (``routing="hard_middle"``) grows its own tree node by node.
Searching a node's best split with `ternary.tree.best_split` sorts every feature of the
node's rows again; here each feature is sorted once, at the root (`presort`), and every
split hands its children their rows already sorted: walking a node's sorted row list
and keeping the rows of one child keeps them sorted (a stable partition), so no node
below the root sorts again (`partition`). A node's search then scans the sorted lists
(`best_split_sorted`): the same scan as `ternary.tree.best_split` over the same rows in
the same order, hence the same floats and the same split.

Orders are exact, not just sorted: rows of equal value stay in ascending row order,
which is what a stable sort of the node's rows (taken in ascending row order) gives,
so a child's list equals the list a fresh stable sort of its rows would give. Only rows
of positive weight are in the sorted lists (zero-weight rows place no threshold); a
node's full row list (ascending, zero weights included) is kept beside them.

`partition` also returns each child's weighted class counts, summed in ascending row
order as ``numpy.bincount`` sums them. The zone is ``low < x ≤ high``: the caller passes
``high = θ+δ`` for the paper's closed zone, the double below it for an open one, and
the comparisons are made in float64 (the float32 value widened, exactly, against the
float64 bounds), as prediction and scikit-learn's trees compare: a training row then
routes in the growth exactly as it routes at predict time.

numba is optional: `kernels_available` says whether the compiled kernels loaded
(`ternary.compiled.warm_up` pays for them at start-up); each function takes
``compiled=False`` to run the same plain-Python source uncompiled, and
`partition_numpy` is the partition in numpy, the reference the compiled one is tested
against.
"""

from __future__ import annotations

import math

import numpy as np

from ternary import _jit

__all__ = [
    "best_split_sorted",
    "kernels_available",
    "partition",
    "partition_numpy",
    "presort",
]

FEATURE_THRESHOLD = 1e-7  # scikit-learn's: values closer than this are one value
_EPSILON = float(np.finfo(np.float64).eps)


def _presort_rows(XT, rows, order):
    """``order[f]`` ← ``rows`` sorted stably by ``XT[f, rows]`` (float32 comparisons)."""
    m = rows.shape[0]
    column = np.empty(m, dtype=np.float32)
    for f in range(XT.shape[0]):
        for i in range(m):
            column[i] = XT[f, rows[i]]
        idx = np.argsort(column, kind="mergesort")
        for i in range(m):
            order[f, i] = rows[idx[i]]


@_jit.helper
def _class_totals(y, w, rows, n_classes):
    """The node's weighted class counts and weight, summed over ``rows`` in their order."""
    total = np.zeros(n_classes)
    w_node = 0.0
    for i in range(rows.shape[0]):
        r = rows[i]
        total[y[r]] += w[r]
        w_node += w[r]
    return total, w_node


@_jit.helper
def _impurity(counts, weight, gini):
    """scikit-learn's Gini or entropy of weighted class ``counts``, in its order of operations."""
    impurity = 0.0
    if gini:
        sq = 0.0
        for k in range(counts.shape[0]):
            sq += counts[k] * counts[k]
        return 1.0 - sq / (weight * weight)
    for k in range(counts.shape[0]):
        c = counts[k]
        if c > 0.0:
            c /= weight
            impurity -= c * math.log(c)
    return impurity


@_jit.helper
def _next_candidate(v, p):
    """From position ``p``, past the run of values equal to ``v[p]`` (within 1e-7).

    Returns ``(p_prev, p)``: the last position of the run and the first one after it
    (``v.shape[0]`` when the run ends the feature).
    """
    m = v.shape[0]
    while p + 1 < m and v[p + 1] <= v[p] + FEATURE_THRESHOLD:
        p += 1
    return p, p + 1


@_jit.helper
def _move_left(y, w, order_f, total, w_node, left, w_left, pos, p):
    """The left sums of the rows before ``p``, moved from those before ``pos``.

    Forward from ``pos``, or back from the node's end (as scikit-learn's ``reverse_reset``
    does), whichever is shorter; ``left`` is updated in place and ``w_left`` returned.
    """
    m = order_f.shape[0]
    if p - pos <= m - p:
        for q in range(pos, p):
            r = order_f[q]
            left[y[r]] += w[r]
            w_left += w[r]
        return w_left
    for k in range(left.shape[0]):
        left[k] = total[k]
    w_left = w_node
    for q in range(m - 1, p - 1, -1):
        r = order_f[q]
        left[y[r]] -= w[r]
        w_left -= w[r]
    return w_left


@_jit.helper
def _scan_feature(
    v, y, w, order_f, total, w_node, left, right, gini, min_leaf, min_weight, best, out
):
    """The best proxy along one feature's sorted values ``v``, if better than ``best``.

    Candidates lie between runs of equal values; the first strictly better proxy
    ``−w_R·imp_R − w_L·imp_L`` wins and its midpoint threshold goes to ``out[0]``.
    ``left`` and ``right`` are scratch space for the two sides' class sums. Returns the
    best proxy seen: ``best`` itself when no candidate beats it.
    """
    m = v.shape[0]
    for k in range(total.shape[0]):
        left[k] = 0.0
    w_left = 0.0
    pos = 0
    p = 0
    while p < m:
        p_prev, p = _next_candidate(v, p)
        if p >= m:
            break
        if p < min_leaf or m - p < min_leaf:
            continue
        w_left = _move_left(y, w, order_f, total, w_node, left, w_left, pos, p)
        pos = p
        w_right = w_node - w_left
        if w_left < min_weight or w_right < min_weight:
            continue
        for k in range(total.shape[0]):
            right[k] = total[k] - left[k]
        proxy = -w_right * _impurity(right, w_right, gini) - w_left * _impurity(left, w_left, gini)
        if proxy > best:
            best = proxy
            out[0] = v[p_prev] / 2.0 + v[p] / 2.0
    return best


def _split_sorted(XT, y, w, rows, order, n_classes, gini, min_samples_leaf, min_weight_leaf, out):
    """Best ``(feature, θ)`` over the presorted rows, feature -1 when none; θ in ``out[0]``.

    ``best_split``'s scan (`ternary.tree._split`) with the sort taken from ``order``:
    class totals summed over ``rows`` (ascending; zero weights add 0.0), candidates and
    moves over ``order[f]`` (the positive-weight rows sorted by feature ``f``), one
    feature at a time (`_scan_feature`).
    """
    n_features, m = order.shape
    total, w_node = _class_totals(y, w, rows, n_classes)
    out[0] = 0.0
    if w_node < 2.0 * min_weight_leaf or _impurity(total, w_node, gini) <= _EPSILON:
        return -1
    v = np.empty(m)
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    best = -np.inf
    best_feature = -1
    for f in range(n_features):
        for i in range(m):
            v[i] = XT[f, order[f, i]]  # float32 held as float64, exactly
        if v[m - 1] <= v[0] + FEATURE_THRESHOLD:
            continue  # constant
        proxy = _scan_feature(
            v,
            y,
            w,
            order[f],
            total,
            w_node,
            left,
            right,
            gini,
            min_samples_leaf,
            min_weight_leaf,
            best,
            out,
        )
        if proxy > best:
            best = proxy
            best_feature = f
    return best_feature


def _partition_rows(
    XT, y, w, rows, order, f, low, high, fill_order, label, out_rows, out_order, sizes, counts
):
    """Three-way partition of a node's rows and sorted lists; see `partition`."""
    for c in range(3):
        sizes[c] = 0
        sizes[3 + c] = 0
    for c in range(counts.shape[0]):
        for k in range(counts.shape[1]):
            counts[c, k] = 0.0
    for i in range(rows.shape[0]):
        r = rows[i]
        x = XT[f, r]
        c = 0 if x <= low else (1 if x > high else 2)
        label[r] = c
        sizes[c] += 1
        if w[r] > 0.0:
            sizes[3 + c] += 1
        counts[c, y[r]] += w[r]
    start = np.empty(3, dtype=np.intp)
    start[0] = 0
    start[1] = sizes[0]
    start[2] = sizes[0] + sizes[1]
    for i in range(rows.shape[0]):
        r = rows[i]
        c = label[r]
        out_rows[start[c]] = r
        start[c] += 1
    if not fill_order:
        return
    for g in range(order.shape[0]):
        start[0] = 0
        start[1] = sizes[3]
        start[2] = sizes[3] + sizes[4]
        for i in range(order.shape[1]):
            r = order[g, i]
            c = label[r]
            out_order[g, start[c]] = r
            start[c] += 1


_SIGNATURES = {
    "presort": "void(float32[:, ::1], intp[::1], intp[:, ::1])",  # XT: (n_features, n)
    "split": (
        "intp(float32[:, ::1], intp[::1], float64[::1], intp[::1], intp[:, :], intp, boolean,"
        " intp, float64, float64[::1])"
    ),
    "partition": (
        "void(float32[:, ::1], intp[::1], float64[::1], intp[::1], intp[:, :], intp, float64,"
        " float64, boolean, int8[::1], intp[::1], intp[:, ::1], intp[::1], float64[:, ::1])"
    ),
}
_PYTHON = {
    "presort": _presort_rows,
    "split": _split_sorted,
    "partition": _partition_rows,
}


_jit.register("growth", _SIGNATURES, _PYTHON)


def _compiled() -> dict | None:
    return _jit.kernels("growth")


def kernels_available() -> bool:
    """Whether the compiled growth kernels loaded (numba importable, kernels compiled).

    Returns
    -------
    bool
        True when `presort`, `best_split_sorted` and `partition` run compiled.
    """
    return _compiled() is not None


def _kernel(name: str, compiled: bool):
    if not compiled:
        return _PYTHON[name]
    kernels = _compiled()
    return None if kernels is None else kernels[name]


def presort(XT: np.ndarray, rows: np.ndarray, *, compiled: bool = True) -> np.ndarray:
    """Each feature's rows sorted stably by value: the root's sorted lists.

    Parameters
    ----------
    XT : ndarray of float32, shape (n_features, n_samples), C-contiguous
        All training rows, transposed (a feature's values side by side).
    rows : ndarray of intp, shape (m,)
        The rows to sort, ascending (the positive-weight rows).
    compiled : bool, default=True
        False runs the plain-Python source uncompiled (slow; for tests).

    Returns
    -------
    ndarray of intp, shape (n_features, m)
        Row ``f`` holds ``rows`` ordered by ``XT[f, rows]``, ties in ascending row order.
        Without numba, numpy's stable sort gives the same lists.
    """
    rows = np.ascontiguousarray(rows, dtype=np.intp)
    kernel = _kernel("presort", compiled)
    if kernel is None:
        return np.ascontiguousarray(rows[np.argsort(XT[:, rows], axis=1, kind="stable")])
    order = np.empty((XT.shape[0], rows.shape[0]), dtype=np.intp)
    kernel(XT, rows, order)
    return order


def best_split_sorted(
    XT: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rows: np.ndarray,
    order: np.ndarray,
    n_classes: int,
    criterion: str,
    min_samples_leaf: int,
    min_weight_leaf: float,
    *,
    compiled: bool = True,
):
    """`ternary.tree.best_split` of a node whose rows come sorted (`presort`, `partition`).

    Parameters
    ----------
    XT : ndarray of float32, shape (n_features, n_samples), C-contiguous
        All training rows, transposed (the node's are picked by ``rows`` and ``order``).
    y : ndarray of intp, shape (n_samples,)
        Encoded classes in ``[0, n_classes)``.
    w : ndarray of float64, shape (n_samples,)
        Sample weights.
    rows : ndarray of intp
        The node's rows, ascending (zero-weight rows may be included: they add nothing).
    order : ndarray of intp, shape (n_features, m)
        The node's positive-weight rows sorted by each feature.
    n_classes : int
        The number of classes.
    criterion : {"gini", "entropy", "log_loss"}
        The impurity.
    min_samples_leaf : int
        The fewest positive-weight rows on either side.
    min_weight_leaf : float
        The minimum weight of a child, as scikit-learn's splitter receives it.
    compiled : bool, default=True
        False runs the plain-Python source uncompiled (slow; for tests).

    Returns
    -------
    tuple of (int, float) or None
        The split, equal to ``best_split(XT[:, r].T, y[r], w[r], ...)`` with ``r`` the node's
        positive-weight rows ascending; None if the rows allow no split, or without numba
        (``compiled=True``): then the caller keeps its own search.
    """
    kernel = _kernel("split", compiled)
    if kernel is None or order.shape[1] < 2:
        return None
    out = np.zeros(1)
    feature = kernel(
        XT,
        y,
        w,
        rows,
        order,
        int(n_classes),
        criterion == "gini",
        int(min_samples_leaf),
        float(min_weight_leaf),
        out,
    )
    if feature < 0:
        return None
    return int(feature), float(out[0])


def partition(
    XT: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rows: np.ndarray,
    order: np.ndarray,
    feature: int,
    low: float,
    high: float,
    n_classes: int,
    *,
    fill_order: bool = True,
    label: np.ndarray | None = None,
    compiled: bool = True,
):
    """Split a node's rows three ways: ``x ≤ low`` left, ``x > high`` right, the rest middle.

    With ``low == high == θ`` it is CART's two-way split (the middle stays empty); with
    ``low = θ−δ``, ``high = θ+δ`` the hard-middle one. The float32 values are compared
    with the float64 bounds in float64, as prediction compares them.

    Parameters
    ----------
    XT : ndarray of float32, shape (n_features, n_samples), C-contiguous
        All training rows, transposed (a feature's values side by side).
    y : ndarray of intp, shape (n_samples,)
        Encoded classes.
    w : ndarray of float64, shape (n_samples,)
        Sample weights.
    rows : ndarray of intp
        The node's rows, ascending, zero-weight rows included.
    order : ndarray of intp, shape (n_features, m)
        The node's positive-weight rows sorted by each feature.
    feature : int
        The split feature.
    low, high : float
        The bounds (``low ≤ high``).
    n_classes : int
        The number of classes.
    fill_order : bool, default=True
        False skips the children's sorted lists (children that will not be split).
    label : ndarray of int8, shape (n_samples,), optional
        Scratch space, reused between calls to save an allocation.
    compiled : bool, default=True
        False runs the plain-Python source uncompiled (slow; for tests).

    Returns
    -------
    child_rows : list of 3 ndarrays of intp
        Left, right and middle rows, each ascending.
    child_order : list of 3 ndarrays of intp, shape (n_features, m_c), or None
        Each child's sorted lists (views); None when not ``fill_order``.
    counts : ndarray of float64, shape (3, n_classes)
        Each child's weighted class counts, summed in ascending row order (the sums
        ``numpy.bincount`` gives).
    Without numba (``compiled=True``) `partition_numpy` answers.
    """
    kernel = _kernel("partition", compiled)
    low64, high64 = np.float64(low), np.float64(high)
    if kernel is None:
        return partition_numpy(XT, y, w, rows, order, feature, low, high, n_classes, fill_order)
    if label is None:
        label = np.empty(XT.shape[1], dtype=np.int8)
    out_rows = np.empty(rows.shape[0], dtype=np.intp)
    out_order = np.empty(order.shape if fill_order else (0, 0), dtype=np.intp)
    sizes = np.empty(6, dtype=np.intp)
    counts = np.empty((3, int(n_classes)))
    kernel(
        XT,
        y,
        w,
        rows,
        order,
        int(feature),
        low64,
        high64,
        fill_order,
        label,
        out_rows,
        out_order,
        sizes,
        counts,
    )
    a, b = int(sizes[0]), int(sizes[0] + sizes[1])
    child_rows = [out_rows[:a], out_rows[a:b], out_rows[b:]]
    child_order = None
    if fill_order:
        a, b = int(sizes[3]), int(sizes[3] + sizes[4])
        child_order = [out_order[:, :a], out_order[:, a:b], out_order[:, b:]]
    return child_rows, child_order, counts


def partition_numpy(
    XT: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    rows: np.ndarray,
    order: np.ndarray,
    feature: int,
    low: float,
    high: float,
    n_classes: int,
    fill_order: bool = True,
):
    """`partition` in numpy: boolean masks, fancy indexing and ``bincount``.

    Parameters
    ----------
    XT, y, w, rows, order, feature, low, high, n_classes, fill_order
        As for `partition`.

    Returns
    -------
    child_rows, child_order, counts
        As for `partition`, equal to it element for element.
    """
    x = XT[feature, rows]
    go_left, go_right = x <= np.float64(low), x > np.float64(high)
    child_rows = [rows[go_left], rows[go_right], rows[~(go_left | go_right)]]
    counts = np.array(
        [np.bincount(y[r], weights=w[r], minlength=n_classes) for r in child_rows],
        dtype=np.float64,
    ).reshape(3, n_classes)
    child_order = None
    if fill_order:
        x = XT[feature, order]  # each sorted list's values on the split feature
        left, right = x <= np.float64(low), x > np.float64(high)
        middle = ~(left | right)
        child_order = [
            np.ascontiguousarray(order[side].reshape(order.shape[0], -1))
            for side in (left, right, middle)
        ]
    return child_rows, child_order, counts
