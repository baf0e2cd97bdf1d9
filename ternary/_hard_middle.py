"""The hard-middle builder: a three-way tree whose zones train their own subtrees.

With ``routing="hard_middle"`` the rows inside a split's zone ``θ−δ < x ≤ θ+δ`` go to a
middle child grown on them, so the zones change the training partition and the tree
cannot come from scikit-learn's builder. With open ``zone_edges`` (the estimator's
default) the zone is ``θ−δ < x < θ+δ``: a training row at θ+δ goes right, in the growth
as at predict time, so the middle subtree is grown on exactly the rows it will flag.

As in scikit-learn's ``sklearn/tree`` (a builder configured by the estimator, a splitter
it asks), `HardMiddleBuilder` holds the growth's parameters, and the estimator makes one
from its own and calls `HardMiddleBuilder.build`. There is one growth: each feature is
sorted once, at the root, and every child is handed its rows already sorted
(`ternary.tree.growth`); the δ method gets a node's rows as its `NodeRows` without
sorting, and one call splits a node's rows three ways and counts each child's classes.
A node's split is CART's split search on the rows that reach it: the compiled scan over
the sorted rows (`ternary.tree.growth.best_split_sorted`) when every feature is searched
with whole-row leaf and split sizes; the same scan over the node's rows sorted again
(`ternary.tree.best_split`) where only that kernel compiled; else (a random
``max_features`` subset, a fractional size, or no numba) a depth-1 scikit-learn CART on
the node's rows. Each node draws its stump seed from the one stream wherever a stump or
a later draw could read it, so the δ draws that follow do not shift. Without numba the
sorting and partitioning run in numpy, with the same results.

This one growth replaces the node-by-node growth that re-sorted every node's rows (with
the node scan or the stump), which it equals bit for bit;
``tests/tree/test_growth.py`` holds the compiled growth equal to the growth without its
kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from ternary.delta import REGISTRY, DeltaParams, NodeRows, node_delta
from ternary.delta.kernels import margin_delta_sorted, node_delta_sorted
from ternary.stopping import check as check_stop
from ternary.tree import (
    LEAF,
    UNDEFINED,
    TernaryTree,
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

__all__ = ["HardMiddleBuilder"]

_SEED_MAX = int(np.iinfo(np.int32).max)  # each node's stump seed is drawn below it
_SLOTS = ("children_left", "children_right", "children_middle")


@dataclass(frozen=True)
class HardMiddleBuilder:
    """The growth of a hard-middle tree: left ≤ θ−δ, right > θ+δ, a middle subtree between.

    Parameters
    ----------
    n_classes : int
        The number of classes (the rows' codes are ``0 … n_classes-1``).
    delta : DeltaParams
        The δ method and its parameters, with the scale already applied.
    criterion : {"gini", "entropy", "log_loss"}
        CART's split criterion.
    max_depth : int or None
        The deepest a split may lie; None grows until the leaves are pure.
    min_samples_split, min_samples_leaf : int or float
        As in scikit-learn (a float is a fraction, handled by the stump).
    min_weight_fraction_leaf : float
        As in scikit-learn: the least share of the total weight in each child.
    max_features : int, float, str or None
        As in scikit-learn; None searches every feature (the compiled scan can).
    min_samples_middle : int
        A middle child with fewer training rows stays a leaf.
    zone_edges : {"open", "closed"}
        Whether a zone holds its upper end θ+δ (the middle child gets such a row).
    private_stream : bool
        True when the ``rng`` given to `build` serves this growth alone (the estimator's
        integer ``random_state``): the stump seeds are then drawn only where a later
        draw or a stump reads them; False draws every one, as a shared stream needs.
    """

    n_classes: int
    delta: DeltaParams
    criterion: str
    max_depth: int | None
    min_samples_split: int | float
    min_samples_leaf: int | float
    min_weight_fraction_leaf: float
    max_features: int | float | str | None
    min_samples_middle: int
    zone_edges: str
    private_stream: bool

    @property
    def compiled_search(self) -> bool:
        """Whether a compiled scan can stand in for the depth-1 CART.

        It searches every feature (``max_features=None``) with integer
        ``min_samples_leaf`` and ``min_samples_split``; a random feature subset or a
        fractional size keeps the scikit-learn stump. The scan breaks an exact tie
        between features by the lowest feature index, as the paper's reference code
        does, where scikit-learn keeps the one its random feature order visits first;
        anywhere else the two give the same split.
        """
        sizes = (self.min_samples_leaf, self.min_samples_split)
        return self.max_features is None and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in sizes
        )

    def build(self, X, y_enc, weights, rng) -> TernaryTree:
        """Grow the tree on the training rows.

        Parameters
        ----------
        X : ndarray of float32, shape (n_samples, n_features)
            The training rows (validated; other dtypes are cast to float32).
        y_enc : ndarray of int, shape (n_samples,)
            The class codes.
        weights : ndarray of float64, shape (n_samples,)
            The effective row weights (zero-weight rows count as absent).
        rng : RandomState
            One stream: each node's stump seed, then its δ draws.

        Returns
        -------
        TernaryTree
            Node ids in preorder.
        """
        K = self.n_classes
        min_weight_leaf = self.min_weight_fraction_leaf * weights.sum()
        # the kernels read a feature's values side by side (X transposed, a new array) and
        # take C-ordered, writable arrays (a read-only memmap is copied)
        XT = np.ascontiguousarray(np.asarray(X, dtype=np.float32).T)
        y, w = (
            a if a.flags.writeable else a.copy()
            for a in (
                np.ascontiguousarray(y_enc, dtype=np.intp),
                np.ascontiguousarray(weights, dtype=np.float64),
            )
        )
        nodes = _Nodes(K)
        rows = np.arange(XT.shape[1], dtype=np.intp)
        nodes.add(np.bincount(y, weights=w, minlength=K), rows.size, float(w.sum()))
        stack: list[tuple[int, np.ndarray, np.ndarray | None, int]] = [
            (0, rows, presort(XT, np.flatnonzero(w > 0)), 0)
        ]
        label = np.empty(XT.shape[1], dtype=np.int8)
        # whole weights add up exactly in any order: a child's weight is then its class
        # counts' sum, the same float as numpy's pairwise sum of its rows' weights
        whole = bool(np.all(w == np.floor(w))) and float(w.sum()) < 2.0**52
        # the scan over the sorted rows, where it compiled
        compiled = self.compiled_search and kernels_available()
        # the stump seeds are drawn only where a stump, a later draw or the caller's
        # stream sees them
        draws = (
            not compiled or REGISTRY[self.delta.method].every_split is None
        ) or not self.private_stream
        while stack:
            check_stop()  # per node, as `ternary.stopping` promises
            node, rows, order, depth = stack.pop()
            seed = rng.randint(_SEED_MAX) if draws else 0
            split = self._split(
                XT, y, w, rows, order, depth, min_weight_leaf, nodes, node, seed, compiled
            )
            if split is None:
                continue
            f, t = split
            assert order is not None  # only children past the depth limit go without one
            d = _sorted_delta(XT, y, w, order[f], f, t, K, self.delta, rng)
            low, high = (t, t) if d <= 0.0 else (t - d, zone_top(t + d, self.zone_edges))
            # children below the depth limit split: they need their sorted lists
            fill = self.max_depth is None or depth + 1 < self.max_depth
            child_rows, child_order, counts = partition(
                XT, y, w, rows, order, f, low, high, K, fill_order=fill, label=label
            )
            weight = (
                counts.sum(axis=1).tolist() if whole else [float(w[r].sum()) for r in child_rows]
            )
            if (
                min(child_rows[0].size, child_rows[1].size) < self.min_samples_leaf
                or min(weight[0], weight[1]) < min_weight_leaf
            ):
                continue  # the node stays a leaf
            nodes.feature[node], nodes.threshold[node] = int(f), float(t)
            nodes.delta[node] = float(d)
            pending: list[tuple[int, np.ndarray, np.ndarray | None, int]] = []
            for c, slot in enumerate(_SLOTS):
                if c == 2 and not d > 0.0:
                    break
                r = child_rows[c]
                # a child without weight (no rows, or zero-weight rows only, which count
                # as absent) predicts like its parent, as an empty middle zone always did
                value = counts[c] if weight[c] > 0 else nodes.counts[node]
                child = nodes.add(value, r.size, weight[c])
                nodes.children[slot][node] = child
                if c < 2 or r.size >= self.min_samples_middle:
                    below = None if child_order is None else child_order[c]
                    pending.append((child, r, below, depth + 1))
            # preorder ids: children created now, grown left-first
            stack.extend(reversed(pending))
        return nodes.tree(self.delta.criterion)

    def _split(self, XT, y, w, rows, order, depth, min_weight_leaf, nodes, node, seed, compiled):
        """CART's ``(feature, θ)`` on a node's rows, or None where CART would stop.

        The compiled scan leaves its check for a node of one class to the search, which
        finds such a node's impurity 0 and returns None as the check would.
        """
        if self.max_depth is not None and depth >= self.max_depth:
            return None
        m = order.shape[1]  # the rows of positive weight: zero-weight rows place no θ
        if m < self.min_samples_split or m < 2 * self.min_samples_leaf:
            return None
        positive = rows if m == rows.size else rows[w[rows] > 0]
        node_weight = nodes.weight[node] if m == rows.size else w[positive].sum()
        # scikit-learn's splitter receives min_weight_fraction_leaf · (the stump's weight sum)
        min_weight_fraction = min(0.5, min_weight_leaf / node_weight)
        if compiled:
            return best_split_sorted(
                XT,
                y,
                w,
                rows,
                order,
                self.n_classes,
                self.criterion,
                self.min_samples_leaf,
                min_weight_fraction * node_weight,
            )
        if np.unique(y[positive]).size < 2:
            return None
        rows_X = np.ascontiguousarray(XT[:, positive].T)
        if self.compiled_search and split_kernel_available():
            # the growth's kernels did not compile but the node scan did: the same
            # search, over the node's rows sorted again
            return best_split(
                rows_X,
                y[positive],
                w[positive],
                self.n_classes,
                self.criterion,
                self.min_samples_leaf,
                min_weight_fraction * node_weight,
            )
        stump = DecisionTreeClassifier(
            criterion=self.criterion,
            max_depth=1,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction,
            max_features=self.max_features,
            random_state=seed,
        )
        # the rows are validated float32 already: skip scikit-learn's per-call input
        # checks, which cost as much as the split search on a small node
        stump.fit(
            rows_X,
            y[positive],
            sample_weight=w[positive],
            check_input=False,
        )
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
        self.children: dict[str, list[int]] = {slot: [] for slot in _SLOTS}

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
