"""The hard-middle growth: a three-way tree whose zones train their own subtrees.

With ``routing="hard_middle"`` the rows inside a split's zone ``θ−δ < x ≤ θ+δ`` go to a
middle child grown on them, so the zones change the training partition and the tree
cannot come from scikit-learn's builder. It is grown node by node here, each node's
split chosen by CART's split search on the rows that reach it (one compiled call,
`ternary.tree.best_split`, or a depth-1 CART without numba; the same seeds drawn in the
same order either way), its δ by the estimator's δ method.
"""

from __future__ import annotations

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from ternary.delta import NodeRows, node_delta
from ternary.tree import TernaryTree, TreeBuilder, best_split, split_kernel_available

__all__ = ["grow_hard_middle"]


def grow_hard_middle(estimator, X, y_enc, weights, params, rng) -> TernaryTree:
    """Grow a three-way tree: left ≤ θ−δ, right > θ+δ, a middle subtree between.

    Parameters
    ----------
    estimator : TernaryTreeClassifier
        Its growth parameters are read (max_depth, min_samples_split, min_samples_leaf,
        min_weight_fraction_leaf, max_features, criterion, min_samples_middle) and its
        ``n_classes_``.
    X : ndarray of float32, y_enc : class codes, weights : effective row weights
    params : DeltaParams, with the scale already applied
    rng : RandomState, one stream: each node's stump seed, then its δ draws

    Returns
    -------
    TernaryTree, node ids in preorder
    """
    builder = TreeBuilder(estimator.n_classes_)
    min_weight_leaf = estimator.min_weight_fraction_leaf * weights.sum()

    def add(rows, value_rows):
        counts = np.bincount(y_enc[value_rows], weights=weights[value_rows], minlength=K)
        return builder.add_node(
            counts,
            n_node_samples=rows.size,
            weighted_n_node_samples=float(weights[rows].sum()),
            criterion=params.criterion,
        )

    K = estimator.n_classes_
    root = np.arange(X.shape[0])
    stack = [(add(root, root), root, 0)]
    while stack:
        node, rows, depth = stack.pop()
        split = _best_split(estimator, X, y_enc, weights, rows, depth, rng, min_weight_leaf)
        if split is None:
            continue
        f, t = split
        d = node_delta(
            NodeRows.from_arrays(X[rows, f], y_enc[rows], weights[rows], t, K), params, rng
        )
        parts = _three_way(estimator, X[rows, f], rows, t, d, weights, min_weight_leaf)
        if parts is None:
            continue  # the node stays a leaf
        builder.set_split(node, f, t, d)
        pending = []
        for slot, child_rows, grow in parts:
            # an empty middle zone predicts like its parent
            value_rows = rows if slot == "children_middle" and not child_rows.size else child_rows
            child = add(child_rows, value_rows)
            builder.set_child(node, slot, child)
            if grow:
                pending.append((child, child_rows, depth + 1))
        # preorder ids: children created now, grown left-first
        stack.extend(reversed(pending))
    return builder.build()


def _three_way(estimator, x, rows, t, d, weights, min_weight_leaf):
    """``(slot, rows, grow)`` per child of a hard-middle split, or None if too small.

    With δ = 0 the split is CART's two-way one; otherwise the middle zone
    ``θ−δ < x ≤ θ+δ`` gets its own child, grown only when it holds at least
    ``min_samples_middle`` rows.
    """
    if d <= 0.0:
        go_left, go_right = x <= t, x > t
    else:
        go_left, go_right = x <= t - d, x > t + d
    left_rows, right_rows = rows[go_left], rows[go_right]
    if (
        min(left_rows.size, right_rows.size) < estimator.min_samples_leaf
        or min(weights[left_rows].sum(), weights[right_rows].sum()) < min_weight_leaf
    ):
        return None
    parts = [("children_left", left_rows, True), ("children_right", right_rows, True)]
    if d > 0.0:
        middle_rows = rows[~(go_left | go_right)]
        parts.append(
            ("children_middle", middle_rows, middle_rows.size >= estimator.min_samples_middle)
        )
    return parts


def _compiled_search(estimator) -> bool:
    """Whether `ternary.tree.best_split` can stand in for the depth-1 CART.

    It searches every feature (``max_features=None``) with integer ``min_samples_leaf``
    and ``min_samples_split``; a random feature subset or a fractional size keeps the
    scikit-learn stump.
    """
    sizes = (estimator.min_samples_leaf, estimator.min_samples_split)
    return estimator.max_features is None and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in sizes
    )


def _best_split(estimator, X, y_enc, weights, rows, depth, rng, min_weight_leaf):
    """CART's (feature, θ) on these rows, or None where CART would stop.

    The compiled `ternary.tree.best_split` when numba is there (the same search as the
    depth-1 CART, but an exact tie between features goes to the lowest feature index,
    as in the paper's reference code, where scikit-learn keeps the one its random
    feature order visits first); else the stump. The stump's seed is drawn either way,
    so the δ draws that follow from the same stream do not shift.
    """
    seed = rng.randint(np.iinfo(np.int32).max)  # drawn first, so node seeds never shift
    if estimator.max_depth is not None and depth >= estimator.max_depth:
        return None
    # zero-weight rows are absent rows: they must not place thresholds
    rows = rows[weights[rows] > 0]
    if rows.size < estimator.min_samples_split or rows.size < 2 * estimator.min_samples_leaf:
        return None
    if np.unique(y_enc[rows]).size < 2:
        return None
    node_weight = weights[rows].sum()
    # scikit-learn's splitter receives min_weight_fraction_leaf · (the stump's weight sum)
    min_weight_fraction = min(0.5, min_weight_leaf / node_weight)
    if _compiled_search(estimator):
        split = best_split(
            X[rows],
            y_enc[rows],
            weights[rows],
            estimator.n_classes_,
            estimator.criterion,
            estimator.min_samples_leaf,
            min_weight_fraction * node_weight,
        )
        if split is not None or split_kernel_available():
            return split
    stump = DecisionTreeClassifier(
        criterion=estimator.criterion,
        max_depth=1,
        min_samples_split=estimator.min_samples_split,
        min_samples_leaf=estimator.min_samples_leaf,
        min_weight_fraction_leaf=min_weight_fraction,
        max_features=estimator.max_features,
        random_state=seed,
    )
    # the rows are validated float32 already: skip scikit-learn's per-call input checks,
    # which cost as much as the split search on a small node
    stump.fit(X[rows], y_enc[rows], sample_weight=weights[rows], check_input=False)
    if stump.tree_.node_count < 3:
        return None
    return int(stump.tree_.feature[0]), float(stump.tree_.threshold[0])
