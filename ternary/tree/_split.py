"""CART's best split of one node over all features, by the growth's compiled scan.

The hard-middle routing grows its own three-way tree, so it cannot use
scikit-learn's builder; each node needs CART's best ``(feature, θ)`` on its rows.
Asking a depth-1 `~sklearn.tree.DecisionTreeClassifier` for it costs a full
estimator call per node (parameter and input validation, target encoding, a random
state), which on the small nodes of a live page costs more than the search itself.
`best_split` runs the same search as scikit-learn's ``BestSplitter`` with the Gini
or entropy criterion in two numba calls (a stable sort of the node's rows by each
feature, then the scan over sorted rows that the hard-middle growth uses,
`ternary.tree.growth`):

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

import numpy as np

from ternary import _jit
from ternary.tree import growth

__all__ = ["best_split", "split_kernel_available"]


# The split search is the growth's scan over sorted rows (`ternary.tree.growth`): one
# source serves the presorted growth and this node-by-node search. It is registered as
# a family of its own so that either can be switched off alone (`ternary.compiled.without`).
_jit.register(
    "split",
    {name: growth._SIGNATURES[name] for name in ("presort", "split")},
    {"presort": growth._presort_rows, "split": growth._split_sorted},
)


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
    return _jit.available("split")


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
    if compiled:
        kernels = _jit.kernels("split")
        if kernels is None:
            return None
        presort, scan = kernels["presort"], kernels["split"]
    else:
        presort, scan = growth._presort_rows, growth._split_sorted
    # the node's rows sorted stably by each feature, then the growth's scan over them
    XT = np.ascontiguousarray(X.T)
    rows = np.arange(X.shape[0], dtype=np.intp)
    order = np.empty(XT.shape, dtype=np.intp)
    presort(XT, rows, order)
    out = np.zeros(1)
    feature = scan(
        XT,
        np.ascontiguousarray(y, dtype=np.intp),
        np.ascontiguousarray(w, dtype=np.float64),
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
