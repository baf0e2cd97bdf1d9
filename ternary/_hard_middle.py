"""The hard-middle growth: a three-way tree whose zones train their own subtrees.

With ``routing="hard_middle"`` the rows inside a split's zone ``θ−δ < x ≤ θ+δ`` go to a
middle child grown on them, so the zones change the training partition and the tree
cannot come from scikit-learn's builder. With open ``zone_edges`` (the estimator's
default) the zone is ``θ−δ < x < θ+δ``: a training row at θ+δ goes right, in the growth
as at predict time, so the middle subtree is grown on exactly the rows it will flag.
It is grown node by node here, each node's split chosen by CART's split search on the
rows that reach it (one compiled call, `ternary.tree.best_split`, or a depth-1 CART
without numba; the same seeds drawn in the same order either way), its δ by the
estimator's δ method.

With numba the growth sorts each feature once, at the root, and hands every child its
rows already sorted (`ternary.tree.growth`): the split search scans them, the δ method
gets them as its `NodeRows` without sorting, and one compiled call splits a node's
rows three ways and counts each child's classes. The nodes, seeds, δ draws and floats
are those of the node-by-node growth with `ternary.tree.best_split` (which sorts the
node's rows itself); without numba that growth runs, with the stump.
"""

from __future__ import annotations

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from ternary.delta import REGISTRY, NodeRows, node_delta
from ternary.delta.kernels import margin_delta_sorted, node_delta_sorted
from ternary.tree import (
    LEAF,
    UNDEFINED,
    TernaryTree,
    TreeBuilder,
    best_split,
    impurity,
    split_kernel_available,
    zone_top,
)
from ternary.tree.growth import (
    best_split_sorted,
    kernels_available,
    partition,
    presort,
)

__all__ = ["grow_hard_middle"]

_SEED_MAX = int(np.iinfo(np.int32).max)  # each node's stump seed is drawn below it


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
    if _compiled_search(estimator) and X.dtype == np.float32 and kernels_available():
        return _grow_sorted(estimator, X, y_enc, weights, params, rng)
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
            # a child without weight (no rows, or zero-weight rows only, which count as
            # absent) predicts like its parent, as an empty middle zone always did
            value_rows = child_rows if weights[child_rows].sum() > 0 else rows
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
    # in float64, as prediction compares (a Python float would round the bounds to float32);
    # the middle is the zone prediction flags, so it holds θ+δ only with closed zone_edges
    low, high = (
        (np.float64(t), np.float64(t))
        if d <= 0.0
        else (np.float64(t - d), zone_top(np.float64(t + d), estimator.zone_edges))
    )
    go_left, go_right = x <= low, x > high
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
    seed = rng.randint(_SEED_MAX)  # drawn first, so node seeds never shift
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


class _Nodes:
    """The per-node lists of a growing tree, in preorder; `tree` makes the `TernaryTree`."""

    def __init__(self, n_classes: int) -> None:
        self.n_classes = n_classes
        self.counts: list[np.ndarray] = []
        self.n_rows: list[int] = []
        self.weight: list[float] = []
        self.feature: list[int] = []
        self.threshold: list[float] = []
        self.delta: list[float] = []
        self.children: dict[str, list[int]] = {
            "children_left": [],
            "children_right": [],
            "children_middle": [],
        }

    def add(self, counts: np.ndarray, n_rows: int, weight: float) -> int:
        self.counts.append(counts)
        self.n_rows.append(n_rows)
        self.weight.append(weight)
        self.feature.append(UNDEFINED)
        self.threshold.append(float(UNDEFINED))
        self.delta.append(0.0)
        for slot in self.children.values():
            slot.append(LEAF)
        return len(self.n_rows) - 1

    def tree(self, criterion: str) -> TernaryTree:
        # the impurities of all nodes at once: the same floats as one node at a time
        value = np.array(self.counts, dtype=np.float64).reshape(-1, self.n_classes)
        return TernaryTree(
            **{slot: np.array(ids) for slot, ids in self.children.items()},
            feature=np.array(self.feature),
            threshold=np.array(self.threshold),
            delta=np.array(self.delta),
            value=value,
            n_node_samples=np.array(self.n_rows),
            weighted_n_node_samples=np.array(self.weight),
            impurity=impurity(value, criterion),
            grafted=np.zeros(len(self.n_rows), dtype=bool),
        )


def _grow_sorted(estimator, X, y_enc, weights, params, rng) -> TernaryTree:
    """`grow_hard_middle` over rows sorted once (`ternary.tree.growth`): the same tree."""
    K = estimator.n_classes_
    min_weight_leaf = estimator.min_weight_fraction_leaf * weights.sum()
    # the kernels read a feature's values side by side (X transposed, a new array) and
    # take C-ordered, writable arrays (a read-only memmap is copied)
    XT = np.ascontiguousarray(X.T)
    y, w = (
        a if a.flags.writeable else a.copy()
        for a in (
            np.ascontiguousarray(y_enc, dtype=np.intp),
            np.ascontiguousarray(weights, dtype=np.float64),
        )
    )
    max_depth = estimator.max_depth
    nodes = _Nodes(K)
    rows = np.arange(XT.shape[1], dtype=np.intp)
    nodes.add(np.bincount(y, weights=w, minlength=K), rows.size, float(w.sum()))
    stack: list[tuple[int, np.ndarray, np.ndarray | None, int]] = [
        (0, rows, presort(XT, np.flatnonzero(w > 0)), 0)
    ]
    label = np.empty(XT.shape[1], dtype=np.int8)
    # whole weights add up exactly in any order: a child's weight is then its class counts'
    # sum, the same float as numpy's pairwise sum of its rows' weights
    whole = bool(np.all(w == np.floor(w))) and float(w.sum()) < 2.0**52
    # the stump seeds are drawn only where a later draw or the caller's stream sees them
    draws = REGISTRY[params.method].every_split is None or not isinstance(
        estimator.random_state, (int, np.integer)
    )
    while stack:
        node, rows, order, depth = stack.pop()
        if draws:
            rng.randint(_SEED_MAX)  # the stump's seed, drawn as `_best_split` draws it
        split = _sorted_split(estimator, XT, y, w, rows, order, depth, min_weight_leaf, nodes, node)
        if split is None:
            continue
        f, t = split
        assert order is not None  # only children past the depth limit go without one
        d = _sorted_delta(XT, y, w, order[f], f, t, K, params, rng)
        low, high = (t, t) if d <= 0.0 else (t - d, zone_top(t + d, estimator.zone_edges))
        fill = max_depth is None or depth + 1 < max_depth  # children below the limit split
        child_rows, child_order, counts = partition(
            XT, y, w, rows, order, f, low, high, K, fill_order=fill, label=label
        )
        weight = counts.sum(axis=1).tolist() if whole else [float(w[r].sum()) for r in child_rows]
        if (
            min(child_rows[0].size, child_rows[1].size) < estimator.min_samples_leaf
            or min(weight[0], weight[1]) < min_weight_leaf
        ):
            continue  # the node stays a leaf
        nodes.feature[node], nodes.threshold[node], nodes.delta[node] = int(f), float(t), float(d)
        pending: list[tuple[int, np.ndarray, np.ndarray | None, int]] = []
        for c, slot in enumerate(("children_left", "children_right", "children_middle")):
            if c == 2 and not d > 0.0:
                break
            r = child_rows[c]
            # a child without weight (no rows, or zero-weight rows only, which count as
            # absent) predicts like its parent
            value = counts[c] if weight[c] > 0 else nodes.counts[node]
            child = nodes.add(value, r.size, weight[c])
            nodes.children[slot][node] = child
            if c < 2 or r.size >= estimator.min_samples_middle:
                pending.append(
                    (child, r, None if child_order is None else child_order[c], depth + 1)
                )
        stack.extend(reversed(pending))  # preorder ids: children created now, grown left-first
    return nodes.tree(params.criterion)


def _sorted_delta(XT, y, w, by_f, f, t, K, params, rng) -> float:
    """The node's δ from its rows sorted on ``f`` (``by_f``): `node_delta`'s value.

    Margin in one compiled call (`ternary.delta.kernels.margin_delta_sorted`), the curve
    methods (quality plateau, gain ratio, class overlap) from
    `ternary.delta.kernels.node_delta_sorted` on the rows as `NodeRows` holds them (they
    are sorted already: no sort, no partition), node_bootstrap and any fallback by
    `node_delta` on the sorted rows as its `NodeRows`. Every path gives `node_delta`'s
    value bit for bit.
    """
    if params.method == "margin":
        d = margin_delta_sorted(
            XT, y, w, by_f, f, t, K, params.max_delta_fraction, params.delta_scale
        )
        if d is not None:
            return d
    values, y_f, w_f = XT[f, by_f].astype(np.float64), y[by_f], w[by_f]
    if params.method != "margin":
        d = node_delta_sorted(values, y_f, w_f, t, K, params)
        if d is not None:
            return d
    return node_delta(NodeRows(values, y_f, w_f, t, K), params, rng)


def _sorted_split(estimator, XT, y, w, rows, order, depth, min_weight_leaf, nodes, node):
    """`_best_split` for a node with sorted rows: the same checks and split.

    Its check for a node of one class is left to the search, which finds such a node's
    impurity 0 and returns None as the check would.
    """
    if estimator.max_depth is not None and depth >= estimator.max_depth:
        return None
    m = order.shape[1]  # the rows of positive weight
    if m < estimator.min_samples_split or m < 2 * estimator.min_samples_leaf:
        return None
    node_weight = nodes.weight[node] if m == rows.size else w[rows[w[rows] > 0]].sum()
    # scikit-learn's splitter receives min_weight_fraction_leaf · (the stump's weight sum)
    min_weight_fraction = min(0.5, min_weight_leaf / node_weight)
    return best_split_sorted(
        XT,
        y,
        w,
        rows,
        order,
        estimator.n_classes_,
        estimator.criterion,
        estimator.min_samples_leaf,
        min_weight_fraction * node_weight,
    )
