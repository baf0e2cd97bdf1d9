"""CART's best split of one node over all features, in one compiled call.

The hard-middle routing grows its own three-way tree, so it cannot use
scikit-learn's builder; each node needs CART's best ``(feature, θ)`` on its rows.
Asking a depth-1 `~sklearn.tree.DecisionTreeClassifier` for it costs a full
estimator call per node (parameter and input validation, target encoding, a random
state), which on the small nodes of a live page costs more than the search itself.
`best_split` runs the same search as scikit-learn's ``BestSplitter`` with the Gini
or entropy criterion in one numba call:

* rows sorted by the feature; a candidate between sorted rows ``p−1`` and ``p``
  wherever ``x[p] > x[p−1] + 1e-7`` (scikit-learn's ``FEATURE_THRESHOLD``), a
  feature with ``max − min ≤ 1e-7`` skipped as constant;
* ``min_samples_leaf`` and the minimum leaf weight checked on both sides;
* the class sums moved left the way scikit-learn's criterion moves them (forward
  from the last position, or back from the node's end, whichever is shorter), so the
  weighted sums and hence the proxy ``−w_R·imp_R − w_L·imp_L`` are the same floats;
* the first strictly better proxy wins along a feature's sorted candidates, and the
  threshold is scikit-learn's midpoint ``x[p−1]/2 + x[p]/2``.

One rule differs on purpose: scikit-learn visits the features in a random order (a
permutation drawn from the stump's ``random_state``), so of two features with
exactly equal best proxies it keeps the one drawn first. Here the features are
visited in index order, so **an exact tie between features goes to the lowest
feature index**, as the paper's reference code does. A tie needs equal proxies to
the last bit (common only in small nodes that several features separate equally
well); otherwise the split is scikit-learn's. Two more differences can reach the
last bit of a weighted sum, never an integer count: scikit-learn's sort is not
stable, this one is, so with non-integer sample weights the sums of rows with equal
values may be added in another order.

numba is optional: without it (or when the inputs fall outside the compiled
signature, or for ``max_features`` other than None) the caller keeps the
scikit-learn stump.
"""

from __future__ import annotations

import math

import numpy as np

from ternary import _jit

__all__ = ["best_split", "split_kernel_available"]

FEATURE_THRESHOLD = 1e-7  # scikit-learn's: values closer than this are one value
_EPSILON = float(np.finfo(np.float64).eps)


def _best_split_rows(X, y, w, n_classes, gini, min_samples_leaf, min_weight_leaf, out):
    """Best ``(feature, θ)`` of the rows ``X`` (float32), or feature -1 when none.

    Written in plain Python so that numba can compile it and a test can run it
    uncompiled. ``out[0]`` receives θ.
    """
    m, n_features = X.shape
    total = np.zeros(n_classes)
    w_node = 0.0
    for i in range(m):
        total[y[i]] += w[i]
        w_node += w[i]
    out[0] = 0.0
    node_impurity = 0.0
    if gini:
        sq = 0.0
        for k in range(n_classes):
            sq += total[k] * total[k]
        node_impurity = 1.0 - sq / (w_node * w_node)
    else:
        for k in range(n_classes):
            c = total[k]
            if c > 0.0:
                c /= w_node
                node_impurity -= c * math.log(c)
    if w_node < 2.0 * min_weight_leaf or node_impurity <= _EPSILON:
        return -1
    left = np.empty(n_classes)
    right = np.empty(n_classes)
    column = np.empty(m, dtype=np.float32)
    best = -np.inf
    best_feature = -1
    for f in range(n_features):
        for i in range(m):
            column[i] = X[i, f]
        order = np.argsort(column, kind="mergesort")
        # float32 values held as float64, exactly: every sum below is in double, as in C
        v = column[order].astype(np.float64)
        if v[m - 1] <= v[0] + FEATURE_THRESHOLD:
            continue  # constant
        for k in range(n_classes):
            left[k] = 0.0
        w_left = 0.0
        pos = 0
        p = 0
        while p < m:
            while p + 1 < m and v[p + 1] <= v[p] + FEATURE_THRESHOLD:
                p += 1
            p_prev = p
            p += 1
            if p >= m:
                break
            if p < min_samples_leaf or m - p < min_samples_leaf:
                continue
            if p - pos <= m - p:
                for q in range(pos, p):
                    r = order[q]
                    left[y[r]] += w[r]
                    w_left += w[r]
            else:  # from the node's end back, as scikit-learn's reverse_reset does
                for k in range(n_classes):
                    left[k] = total[k]
                w_left = w_node
                for q in range(m - 1, p - 1, -1):
                    r = order[q]
                    left[y[r]] -= w[r]
                    w_left -= w[r]
            pos = p
            w_right = w_node - w_left
            if w_left < min_weight_leaf or w_right < min_weight_leaf:
                continue
            for k in range(n_classes):
                right[k] = total[k] - left[k]
            # scikit-learn's children impurities, in its order of operations
            imp_left = 0.0
            imp_right = 0.0
            if gini:
                sq_left = 0.0
                sq_right = 0.0
                for k in range(n_classes):
                    sq_left += left[k] * left[k]
                    sq_right += right[k] * right[k]
                imp_left = 1.0 - sq_left / (w_left * w_left)
                imp_right = 1.0 - sq_right / (w_right * w_right)
            else:
                for k in range(n_classes):
                    c = left[k]
                    if c > 0.0:
                        c /= w_left
                        imp_left -= c * math.log(c)
                    c = right[k]
                    if c > 0.0:
                        c /= w_right
                        imp_right -= c * math.log(c)
            proxy = -w_right * imp_right - w_left * imp_left
            if proxy > best:
                best = proxy
                best_feature = f
                out[0] = v[p_prev] / 2.0 + v[p] / 2.0
    return best_feature


_SIGNATURE = (
    "intp(float32[:, :], intp[::1], float64[::1], intp, boolean, intp, float64, float64[::1])"
)


_jit.register("split", {"best_split": _SIGNATURE}, {"best_split": _best_split_rows})


def _kernel():
    kernels = _jit.kernels("split")
    return None if kernels is None else kernels["best_split"]


def split_kernel_available() -> bool:
    """Tell whether `best_split`'s compiled kernel is available.

    The first call compiles the kernel (or loads it from numba's cache);
    `ternary.compiled.warm_up` compiles it with every other kernel family.

    Returns
    -------
    bool
        True when numba is importable and the split kernel compiled; False when
        `best_split` with ``compiled=True`` always returns None.
    """
    return _kernel() is not None


def best_split(
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    criterion: str,
    min_samples_leaf: int,
    min_weight_leaf: float,
    *,
    compiled: bool = True,
):
    """Find CART's best ``(feature, θ)`` on a node's rows, or None if it allows no split.

    Parameters
    ----------
    X : ndarray of float32, shape (n_rows, n_features)
        The node's rows, all of positive weight.
    y : ndarray of int, shape (n_rows,)
        Encoded classes in ``[0, n_classes)``.
    w : ndarray of float64, shape (n_rows,)
        Sample weights.
    n_classes : int
        The number of classes, K.
    criterion : {"gini", "entropy", "log_loss"}
        The impurity; "entropy" and "log_loss" are the same criterion.
    min_samples_leaf : int
        The fewest rows either child may hold.
    min_weight_leaf : float
        The minimum weight of a child, as scikit-learn's splitter receives it.
    compiled : bool, default=True
        False runs the same function uncompiled (for tests; slow).

    Returns
    -------
    tuple of (int, float) or None
        The feature index and the threshold θ (``x ≤ θ`` goes left) of the best split;
        None when no split is allowed (a pure node, too few rows or too little weight, or
        every feature constant), when ``X`` is not a 2-d float32 array of at least two
        rows, and also when numba is unavailable (``compiled=True``): the caller then
        keeps its scikit-learn path. Use `split_kernel_available` to tell them apart.
    """
    X = np.asarray(X)
    if X.dtype != np.float32 or X.ndim != 2 or X.shape[0] < 2:
        return None
    args = (
        X,
        np.ascontiguousarray(y, dtype=np.intp),
        np.ascontiguousarray(w, dtype=np.float64),
        int(n_classes),
        criterion == "gini",
        int(min_samples_leaf),
        float(min_weight_leaf),
        np.zeros(1),
    )
    if compiled:
        kernel = _kernel()
        if kernel is None:
            return None
        feature = kernel(*args)
    else:
        feature = _best_split_rows(*args)
    if feature < 0:
        return None
    return int(feature), float(args[-1][0])
