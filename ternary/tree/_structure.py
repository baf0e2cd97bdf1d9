"""The ternary tree structure and the one place that walks it.

`TernaryTree` keeps parallel per-node arrays in scikit-learn's layout (root 0,
``-1`` for an absent child, feature ``-2`` at a leaf), plus a middle child for
hard-middle trees, a δ per node and a ``grafted`` flag. Routing, blending and
verdicts (Smits 2026, §3.4–3.5) are implemented once, in `traverse`; the
estimator, grafting and the figures all call it. Trees not grown by CART (hard-middle
growth, grafting) are built through one `TreeBuilder`; `impurity_importances` and
`zone_distance` read a fitted tree for the estimator's importances and zone distances.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike

from ternary.delta import impurity

__all__ = [
    "LEAF",
    "UNDEFINED",
    "TernaryTree",
    "TreeBuilder",
    "impurity_importances",
    "iter_node_rows",
    "split_row_pairs",
    "traverse",
    "zone_distance",
]

LEAF = -1  #: child index marking "no child"
UNDEFINED = -2  #: feature/threshold at a leaf, as in scikit-learn


class TernaryTree:
    """Flat arrays describing a fitted ternary tree.

    Attributes
    ----------
    children_left, children_right, children_middle : ndarray of int
        Child node ids, ``-1`` where absent. Only hard-middle trees have middle
        children. A node is a leaf iff ``children_left == -1``.
    feature : ndarray of int, split feature (``-2`` at leaves)
    threshold : ndarray of float, θ (``-2`` at leaves)
    delta : ndarray of float, the uncertainty half-width δ (0 at leaves)
    value : ndarray of shape (node_count, n_classes), class distribution (rows sum to 1)
    n_node_samples : ndarray of int, training rows reaching the node
    weighted_n_node_samples : ndarray of float
    impurity : ndarray of float
    grafted : ndarray of bool, True for nodes that grafting added
    """

    _ARRAYS = (
        "children_left",
        "children_right",
        "children_middle",
        "feature",
        "threshold",
        "delta",
        "value",
        "n_node_samples",
        "weighted_n_node_samples",
        "impurity",
        "grafted",
    )

    def __init__(
        self,
        *,
        children_left: ArrayLike,
        children_right: ArrayLike,
        children_middle: ArrayLike | None = None,
        feature: ArrayLike,
        threshold: ArrayLike,
        delta: ArrayLike | None = None,
        value: ArrayLike,
        n_node_samples: ArrayLike,
        weighted_n_node_samples: ArrayLike | None = None,
        impurity: ArrayLike,
        grafted: ArrayLike | None = None,
    ) -> None:
        self.children_left = np.asarray(children_left, dtype=np.intp)
        n = self.children_left.shape[0]
        self.children_right = np.asarray(children_right, dtype=np.intp)
        self.children_middle = (
            np.full(n, LEAF, dtype=np.intp)
            if children_middle is None
            else np.asarray(children_middle, dtype=np.intp)
        )
        self.feature = np.asarray(feature, dtype=np.intp)
        self.threshold = np.asarray(threshold, dtype=np.float64)
        self.delta = np.zeros(n) if delta is None else np.asarray(delta, dtype=np.float64)
        value = np.asarray(value, dtype=np.float64)
        sums = value.sum(axis=1, keepdims=True)
        self.value = np.divide(
            value, sums, out=np.full_like(value, 1.0 / value.shape[1]), where=sums > 0
        )
        self.n_node_samples = np.asarray(n_node_samples, dtype=np.intp)
        self.weighted_n_node_samples = (
            self.n_node_samples.astype(np.float64)
            if weighted_n_node_samples is None
            else np.asarray(weighted_n_node_samples, dtype=np.float64)
        )
        self.impurity = np.asarray(impurity, dtype=np.float64)
        self.grafted = (
            np.zeros(n, dtype=bool) if grafted is None else np.asarray(grafted, dtype=bool)
        )

    # ------------------------------------------------------------------ structure
    @property
    def node_count(self) -> int:
        return int(self.children_left.shape[0])

    @property
    def n_classes(self) -> int:
        return int(self.value.shape[1])

    @property
    def is_leaf(self) -> np.ndarray:
        return self.children_left == LEAF

    @property
    def n_leaves(self) -> int:
        return int(self.is_leaf.sum())

    def preorder(self) -> list[int]:
        """Node ids reachable from the root, parents before children.

        Ids need not be in preorder themselves (grafting appends new split
        nodes above existing leaves), so walks go through this list.
        """
        order, stack = [], [0] if self.node_count else []
        while stack:
            node = stack.pop()
            order.append(node)
            stack.extend(reversed(self.children(node)))
        return order

    def node_depth(self) -> np.ndarray:
        """Depth of every node (root 0)."""
        depth = np.zeros(self.node_count, dtype=np.intp)
        for node in self.preorder():
            for child in self.children(node):
                depth[child] = depth[node] + 1
        return depth

    @property
    def max_depth(self) -> int:
        return int(self.node_depth().max()) if self.node_count else 0

    def children(self, node: int) -> list[int]:
        """Existing children of ``node``: left, right, then middle."""
        kids = (self.children_left[node], self.children_right[node], self.children_middle[node])
        return [int(k) for k in kids if k != LEAF]

    def parents(self) -> np.ndarray:
        """Parent of every node (−1 at the root)."""
        parent = np.full(self.node_count, LEAF, dtype=np.intp)
        for node in self.preorder():
            for child in self.children(node):
                parent[child] = node
        return parent

    def reached_through_middle(self) -> np.ndarray:
        """True for nodes whose path from the root takes a middle branch."""
        mask = np.zeros(self.node_count, dtype=bool)
        for node in self.preorder():
            m = self.children_middle[node]
            if m != LEAF:
                mask[m] = True
            if mask[node]:
                for child in self.children(node):
                    mask[child] = True
        return mask

    def copy(self) -> TernaryTree:
        """An independent copy, bit for bit (no renormalisation of ``value``)."""
        new = TernaryTree.__new__(TernaryTree)
        for name in self._ARRAYS:
            setattr(new, name, getattr(self, name).copy())
        return new

    def __repr__(self) -> str:
        return (
            f"TernaryTree(node_count={self.node_count}, n_leaves={self.n_leaves}, "
            f"max_depth={self.max_depth}, n_classes={self.n_classes})"
        )


def traverse(tree: TernaryTree, X: np.ndarray, routing: str, *, proba: bool = True):
    """Route every row of ``X`` through ``tree``.

    Parameters
    ----------
    tree : TernaryTree
    X : ndarray of shape (n_samples, n_features)
    routing : {"probabilistic", "deferred", "hard_middle"}
        * probabilistic: at a node, ``x ≤ θ−δ`` goes left, ``x > θ+δ`` right,
          and a row inside the zone goes both ways with ``w_L = (θ+δ−x)/(2δ)``,
          ``w_R = 1 − w_L``, recursively; leaf distributions are blended by the
          product of weights along each path.
        * deferred: the same zone test, but once a row has entered a zone both
          subtrees below it are followed with hard CART routing (``x ≤ θ``).
        * hard_middle: ``x ≤ θ−δ`` left, ``x > θ+δ`` right, otherwise the
          middle child; exactly one leaf per row.

    Returns
    -------
    proba : ndarray of shape (n_samples, n_classes), rows sum to 1; None when
        ``proba=False`` (the verdicts alone are cheaper)
    verdict : ndarray of int8, 1 = decided, 0 = boundary-uncertain (it entered
        an uncertainty zone at some node it reached)
    """
    if X.dtype == np.float32:
        if proba and routing != "hard_middle":
            from ternary._blend import predict_binary

            # numba, when installed: one compiled pass that routes and blends
            fast = predict_binary(tree, X, routing)
            if fast is not None:
                return fast
        router = _compiled_router(tree, X.shape[1], routing)
        if router is not None:
            compiled, n_original = router
            # One C-speed pass: each split first asks x ≤ θ−δ, then x ≤ θ+δ; the zone between
            # leads to a marker leaf (binary routings) or the middle child (hard_middle).
            leaf = compiled.apply(X)
            if routing == "hard_middle":
                decided = ~tree.reached_through_middle()[leaf]
                return (tree.value[leaf] if proba else None), decided.astype(np.int8)
            decided = leaf < n_original
            if not proba:
                return None, decided.astype(np.int8)
            uncertain = np.flatnonzero(~decided)
            # marker leaves (ids ≥ node_count) read a row of zeros, then get blended
            blended = np.concatenate([tree.value, np.zeros((1, tree.n_classes))])[
                np.minimum(leaf, n_original)
            ]
            if uncertain.size:
                # only rows that met a zone on their CART path need the blend
                _blend_uncertain(tree, X, uncertain, routing, blended)
            return blended, decided.astype(np.int8)
    return _walk(tree, X, routing)


#: Up to this many leaves the blend is computed densely over all rows at once (a depth-6
#: tree has 64); bigger trees use the sparse walk, whose cost follows the rows.
_MAX_PATH_LEAVES = 64
_ROW_CHUNK = 65_536


def _walk_proba(tree, X, routing):
    return _walk(tree, X, routing)[0]


def _blend_uncertain(tree, X, rows, routing, out, *, compiled=True):
    """Blend ``X[rows]`` into ``out[rows]``: the numba kernel when available, else numpy.

    numba is imported here on the first blend, not with the package; without it (or
    with ``compiled=False``) the dense numpy blend serves small trees and the sparse
    walk bigger ones.
    """
    if compiled:
        from ternary._blend import blend_into

        if blend_into(tree, X, rows, routing, out):
            return
    blend = _blend_dense if tree.n_leaves <= _MAX_PATH_LEAVES else _walk_proba
    out[rows] = blend(tree, X[rows], routing)


def _blend_dense(tree: TernaryTree, X: np.ndarray, routing: str) -> np.ndarray:
    """Blended probabilities of binary-tree routings, all rows at once.

    A leaf's weight is the product of the branch weights along its path:
    ``w_L = clip((θ+δ−x)/(2δ), 0, 1)`` or ``1 − w_L`` (probabilistic); with deferred
    routing the factors after the first zone on the path are CART's hard 0/1.
    """
    internal = np.flatnonzero(tree.children_left != LEAF)
    column = {node: j for j, node in enumerate(internal)}
    t = tree.threshold[internal]
    d = tree.delta[internal]
    lo, hi = t - d, t + d
    out = np.zeros((X.shape[0], tree.n_classes))
    lo_, hi_, t_ = lo[:, None], hi[:, None], t[:, None]
    with np.errstate(divide="ignore", over="ignore"):
        inv_two_d = np.where(d > 0, 0.5 / np.where(d > 0, d, 1.0), 0.0)
    # no zone, or one too thin to divide by: route like CART
    hard_nodes = np.flatnonzero((d <= 0) | ~np.isfinite(inv_two_d))
    inv_two_d = np.where(np.isfinite(inv_two_d), inv_two_d, 0.0)[:, None]
    for start in range(0, X.shape[0], _ROW_CHUNK):
        # one row per internal node, so every per-node vector below is contiguous
        G = np.ascontiguousarray(
            X[start : start + _ROW_CHUNK][:, tree.feature[internal]].T, dtype=np.float64
        )
        # with δ > 0, clip((θ+δ−x)/(2δ), 0, 1) is 1 left of the zone and 0 right of it
        w_left = np.subtract(hi_, G)
        w_left *= inv_two_d
        np.clip(w_left, 0.0, 1.0, out=w_left)
        if hard_nodes.size:
            w_left[hard_nodes] = G[hard_nodes] <= t_[hard_nodes]
        in_zone = (G > lo_) & (G <= hi_) if routing == "deferred" else None
        w_right = 1.0 - w_left
        deferred = routing == "deferred"
        if deferred:
            hard_left = (G <= t_).astype(np.float64)
            hard_right = 1.0 - hard_left
        block = out[start : start + G.shape[1]]
        # depth-first from the root, so siblings share their path's product
        stack = [(0, None, None)]  # (node, path weight or None for 1, rows past a zone)
        while stack:
            node, w, entered = stack.pop()
            if tree.children_left[node] == LEAF:
                for k in np.flatnonzero(tree.value[node]):
                    block[:, k] += tree.value[node, k] if w is None else w * tree.value[node, k]
                continue
            j = column[node]
            for child, soft, hard in (
                (tree.children_right[node], w_right[j], hard_right[j] if deferred else None),
                (tree.children_left[node], w_left[j], hard_left[j] if deferred else None),
            ):
                factor, now_entered = soft, None
                if deferred:
                    if entered is not None:
                        factor = np.where(entered, hard, soft)
                    now_entered = in_zone[j] if entered is None else entered | in_zone[j]
                stack.append((child, factor.copy() if w is None else w * factor, now_entered))
    return out / out.sum(axis=1, keepdims=True)


def _compiled_router(tree: TernaryTree, n_features: int, routing: str):
    """A scikit-learn ``Tree`` that routes through the zones in its compiled loop.

    Every split with δ > 0 becomes two binary tests: ``x ≤ θ−δ`` (left child) and,
    on its right branch, ``x ≤ θ+δ`` (zone) against the right child. The zone
    branch ends in a marker leaf for the binary routings (ids ≥ ``node_count``:
    that row is boundary-uncertain) and goes to the middle child for hard-middle
    trees. Splits with δ = 0 keep ``x ≤ θ``. The tree is built through the
    pickling state of scikit-learn's compiled tree; None when that private layout
    is not available (another scikit-learn version), and callers walk in numpy.

    Returns ``(compiled_tree, node_count)``.
    """
    try:
        from sklearn.tree._tree import Tree

        n = tree.node_count
        internal = tree.children_left != LEAF
        zoned = internal & (tree.delta > 0)
        middle = routing == "hard_middle"
        if middle:
            zoned &= tree.children_middle != LEAF
        zk = np.flatnonzero(zoned)
        m = zk.size
        second = n + np.arange(m)  # the "x ≤ θ+δ" test of each zoned split
        marker = n + m + np.arange(m) if not middle else None
        total = n + m + (0 if middle else m)
        nodes = np.zeros(total, dtype=_node_template())
        nodes["left_child"] = LEAF
        nodes["right_child"] = LEAF
        nodes["feature"] = UNDEFINED
        nodes["threshold"] = UNDEFINED
        nodes["n_node_samples"] = 1
        nodes["weighted_n_node_samples"] = 1.0
        nodes["left_child"][:n] = tree.children_left
        nodes["feature"][:n] = tree.feature
        right = tree.children_right.copy()
        right[zk] = second
        nodes["right_child"][:n] = right
        nodes["threshold"][:n] = np.where(zoned, tree.threshold - tree.delta, tree.threshold)
        nodes["feature"][second] = tree.feature[zk]
        nodes["threshold"][second] = tree.threshold[zk] + tree.delta[zk]
        nodes["left_child"][second] = tree.children_middle[zk] if middle else marker
        nodes["right_child"][second] = tree.children_right[zk]
        values = np.zeros((total, 1, tree.n_classes))
        values[:n, 0, :] = tree.value
        compiled = Tree(n_features, np.array([tree.n_classes], dtype=np.intp), 1)
        compiled.__setstate__(
            {
                "max_depth": 2 * tree.max_depth + 1,
                "node_count": total,
                "nodes": nodes,
                "values": values,
            }
        )
        return compiled, n
    except Exception:  # noqa: BLE001 - any layout change means: use the numpy walk
        return None


_TEMPLATE = []


def _node_template():
    """The dtype of scikit-learn's compiled tree nodes, read off a fitted stump once."""
    if not _TEMPLATE:
        from sklearn.tree import DecisionTreeClassifier

        stump = DecisionTreeClassifier(max_depth=1).fit([[0.0], [1.0]], [0, 1])
        _TEMPLATE.append(stump.tree_.__getstate__()["nodes"].dtype)
    return _TEMPLATE[0]


def _walk(tree: TernaryTree, X: np.ndarray, routing: str):
    """The reference walk in numpy: every routing, any tree."""
    n = X.shape[0]
    proba = np.zeros((n, tree.n_classes))
    uncertain = np.zeros(n, dtype=bool)
    left_of, right_of, middle_of = tree.children_left, tree.children_right, tree.children_middle
    feature, threshold, delta, value = tree.feature, tree.threshold, tree.delta, tree.value
    middle = routing == "hard_middle"
    deferred = routing == "deferred"
    # Column-major copy: each node gathers one column for a sorted subset of rows.
    Xf = np.asfortranarray(X)
    # stack entries: (node, row indices, path weights or None for all-ones,
    #                 per-row "route hard from here" flags or None)
    stack = [(0, np.arange(n), None, None)]
    while stack:
        node, idx, w, hard = stack.pop()
        if idx.size == 0:
            continue
        left = left_of[node]
        if left == LEAF:
            if w is None:
                proba[idx] += value[node]
            else:
                proba[idx] += w[:, None] * value[node]
            continue
        right = right_of[node]
        x = Xf[idx, feature[node]]
        t, d = threshold[node], delta[node]
        if d <= 0.0:
            go_left = x <= t
            go_right = ~go_left
            stack.append(
                (
                    right,
                    idx[go_right],
                    None if w is None else w[go_right],
                    None if hard is None else hard[go_right],
                )
            )
            stack.append(
                (
                    left,
                    idx[go_left],
                    None if w is None else w[go_left],
                    None if hard is None else hard[go_left],
                )
            )
            continue
        lo, hi = t - d, t + d
        if middle:
            go_left = x <= lo
            go_right = x > hi
            in_zone = ~(go_left | go_right)
            uncertain[idx[in_zone]] = True
            stack.append((middle_of[node], idx[in_zone], None, None))
            stack.append((right, idx[go_right], None, None))
            stack.append((left, idx[go_left], None, None))
            continue
        in_zone = (x > lo) & (x <= hi)
        if hard is not None:
            # rows already past their first zone route like CART
            hard_left = hard & (x <= t)
            in_zone &= ~hard
        uncertain[idx[in_zone]] = True
        w_left = (x <= lo).astype(np.float64)
        # only zone rows are divided: a tiny δ would overflow elsewhere; clip guards rounding
        w_left[in_zone] = np.clip((hi - x[in_zone]) / (2.0 * d), 0.0, 1.0)
        if hard is not None:
            w_left = np.where(hard, hard_left.astype(np.float64), w_left)
        w_right = 1.0 - w_left
        if w is not None:
            w_left = w_left * w
            w_right = w_right * w
        if deferred:
            hard_now = in_zone if hard is None else (hard | in_zone)
        for child, wc in ((right, w_right), (left, w_left)):
            reach = wc > 0.0
            if not reach.any():
                continue
            sub_w = wc[reach]
            all_one = w is None and not in_zone[reach].any()
            sub_hard = hard_now[reach] if deferred else None
            if deferred and not sub_hard.any():
                sub_hard = None
            stack.append((child, idx[reach], None if all_one else sub_w, sub_hard))
    # guard against float drift so rows sum to exactly 1 within rounding
    proba /= proba.sum(axis=1, keepdims=True)
    return proba, (~uncertain).astype(np.int8)


def iter_node_rows(
    tree: TernaryTree, X: np.ndarray, routing: str = "probabilistic"
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(node, row_indices)`` for every node, with the training partition.

    Binary routings partition like CART (``x ≤ θ`` left); hard-middle trees
    partition three ways (``x ≤ θ−δ``, ``x > θ+δ``, the rest to the middle).
    Nodes come in preorder; only the rows of pending siblings are kept alive.
    """
    stack = [(0, np.arange(X.shape[0]))]
    middle = routing == "hard_middle"
    while stack:
        node, idx = stack.pop()
        yield node, idx
        left = tree.children_left[node]
        if left == LEAF:
            continue
        x = X[idx, tree.feature[node]]
        t, d = tree.threshold[node], tree.delta[node]
        m = tree.children_middle[node]
        if middle and m != LEAF:
            go_left, go_right = x <= t - d, x > t + d
            stack.append((m, idx[~(go_left | go_right)]))
        else:
            go_left = x <= t
            go_right = ~go_left
        stack.append((tree.children_right[node], idx[go_right]))
        stack.append((left, idx[go_left]))


def split_row_pairs(
    tree: TernaryTree, X: np.ndarray, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every ``(row, split node)`` pair of CART's training partition (``x ≤ θ`` left).

    The vectorised twin of `iter_node_rows` for the binary routings: the rows go down
    the tree level by level, and each split node they pass through is recorded, so a
    computation over all nodes needs no Python call per node. Within one node the
    rows keep their ascending order (a node's pairs all come from one level, and each
    level keeps the order of the one above), as `iter_node_rows` gives them.

    Parameters
    ----------
    tree : TernaryTree (its children_left/right, feature and threshold are read)
    X : ndarray of shape (n_samples, n_features)
    rows : ndarray of int, optional
        The rows to route, ascending; default all of them.

    Returns
    -------
    pair_rows, pair_nodes : ndarray of int, one entry per pair
    """
    rows = np.arange(X.shape[0]) if rows is None else np.asarray(rows, dtype=np.intp)
    node = np.zeros(rows.size, dtype=np.intp)
    pair_rows, pair_nodes = [], []
    while rows.size:
        split = tree.children_left[node] != LEAF
        rows, node = rows[split], node[split]
        if not rows.size:
            break
        pair_rows.append(rows)
        pair_nodes.append(node)
        x = X[rows, tree.feature[node]]
        go_left = x <= tree.threshold[node]
        node = np.where(go_left, tree.children_left[node], tree.children_right[node])
    if not pair_rows:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    return np.concatenate(pair_rows), np.concatenate(pair_nodes)


class TreeBuilder:
    """Grows a `TernaryTree` node by node: the one way trees are built outside CART.

    Hard-middle growth starts empty and appends nodes in preorder; grafting starts
    from a fitted tree and appends split/leaf pairs after its nodes. Each node is
    added with its class counts (the impurity is computed from them) and linked to
    its parent with `set_child`, which also keeps the parent of every node.

    Parameters
    ----------
    n_classes : int
    tree : TernaryTree, optional
        A tree to extend. Its nodes keep their ids, and `build` gives them back their
        ``value`` rows bit for bit (the constructor would renormalise them).
    """

    _SLOTS = ("children_left", "children_right", "children_middle")

    def __init__(self, n_classes: int, tree: TernaryTree | None = None) -> None:
        self.n_classes = int(n_classes)
        if tree is None:
            self._arrays = {name: [] for name in TernaryTree._ARRAYS}
            self._parent: list[int] = []
            self._original_value = None
        else:
            self._arrays = {name: list(getattr(tree, name)) for name in TernaryTree._ARRAYS}
            self._parent = [int(p) for p in tree.parents()]
            self._original_value = tree.value

    @property
    def node_count(self) -> int:
        return len(self._arrays["children_left"])

    def add_node(
        self,
        counts: np.ndarray,
        *,
        n_node_samples: int,
        weighted_n_node_samples: float,
        criterion: str,
        value: np.ndarray | None = None,
        grafted: bool = False,
    ) -> int:
        """Append a leaf and return its id.

        ``counts`` are the weighted class counts its impurity is computed from;
        ``value`` (default: the counts) is its class distribution before the
        normalisation in `build`. `set_split` makes it a split node.
        """
        counts = np.asarray(counts, dtype=np.float64)
        node = self.node_count
        fields = {
            "children_left": LEAF,
            "children_right": LEAF,
            "children_middle": LEAF,
            "feature": UNDEFINED,
            "threshold": float(UNDEFINED),
            "delta": 0.0,
            "value": counts if value is None else np.asarray(value, dtype=np.float64),
            "n_node_samples": int(n_node_samples),
            "weighted_n_node_samples": float(weighted_n_node_samples),
            "impurity": float(impurity(counts, criterion)),
            "grafted": bool(grafted),
        }
        for name in TernaryTree._ARRAYS:
            self._arrays[name].append(fields[name])
        self._parent.append(LEAF)
        return node

    def set_split(self, node: int, feature: int, threshold: float, delta: float = 0.0) -> None:
        """Make ``node`` test ``x[feature]`` against ``threshold`` with half-width ``delta``."""
        self._arrays["feature"][node] = int(feature)
        self._arrays["threshold"][node] = float(threshold)
        self._arrays["delta"][node] = float(delta)

    def set_child(self, node: int, slot: str, child: int) -> None:
        """Hang ``child`` under ``node`` in ``slot`` (one of `_SLOTS`)."""
        if slot not in self._SLOTS:
            raise ValueError(f"slot must be one of {self._SLOTS}; got {slot!r}.")
        self._arrays[slot][node] = int(child)
        self._parent[child] = int(node)

    def slot_of(self, node: int) -> tuple[int, str]:
        """``(parent, slot)`` currently holding ``node``; the root has no slot."""
        up = self._parent[node]
        if up == LEAF:
            raise ValueError(f"node {node} is the root or detached; it sits in no slot.")
        for slot in self._SLOTS:
            if self._arrays[slot][up] == node:
                return up, slot
        raise AssertionError("parent links out of step with the child arrays")

    def value_of(self, node: int) -> np.ndarray:
        """The ``value`` row ``node`` was given (not yet normalised)."""
        return np.asarray(self._arrays["value"][node], dtype=np.float64)

    def set_samples(self, node: int, n_node_samples: int, weighted_n_node_samples: float) -> None:
        """Update the training rows counted at ``node``."""
        self._arrays["n_node_samples"][node] = int(n_node_samples)
        self._arrays["weighted_n_node_samples"][node] = float(weighted_n_node_samples)

    def build(self) -> TernaryTree:
        """The tree as flat arrays, every ``value`` row normalised to sum to 1."""
        value = np.array(self._arrays["value"], dtype=np.float64).reshape(-1, self.n_classes)
        fields = {
            name: np.array(self._arrays[name]) for name in TernaryTree._ARRAYS if name != "value"
        }
        tree = TernaryTree(value=value, **fields)
        if self._original_value is not None:
            tree.value[: self._original_value.shape[0]] = self._original_value
        return tree


def impurity_importances(
    tree: TernaryTree,
    X: np.ndarray,
    y_codes: np.ndarray,
    sample_weight: np.ndarray,
    criterion: str,
    routing: str,
    n_features: int,
) -> np.ndarray:
    """Impurity-based feature importances, normalised as in scikit-learn.

    Every split node adds ``W_n·i(n) − Σ_c W_c·i(c)`` to its feature, with ``W`` the
    weighted training rows and ``i`` the impurity of their class counts, over the
    training partition (`iter_node_rows`): CART's two-way one for the binary
    routings, grafted splits included, and the three-way one of hard-middle trees,
    middle subtrees included. Impurities are recomputed from the rows rather than
    read from ``tree.impurity``, because a grafted leaf stores the impurity of its
    evidence region and a leaf that lost rows to a graft keeps its old one. The
    sum is divided by the root weight, then normalised to sum to 1; a tree that is
    a single leaf gives a vector of zeros, as in scikit-learn.
    """
    K = tree.n_classes
    W = np.zeros(tree.node_count)
    weighted_impurity = np.zeros(tree.node_count)
    for node, rows in iter_node_rows(tree, X, routing):
        counts = np.bincount(y_codes[rows], weights=sample_weight[rows], minlength=K)
        W[node] = counts.sum()
        weighted_impurity[node] = W[node] * float(impurity(counts, criterion))
    importances = np.zeros(n_features)
    for node in np.flatnonzero(~tree.is_leaf):
        decrease = weighted_impurity[node] - sum(weighted_impurity[c] for c in tree.children(node))
        importances[tree.feature[node]] += decrease
    if W[0] > 0:
        importances /= W[0]
    total = importances.sum()
    if total > 0:
        importances /= total
    return importances


def zone_distance(
    tree: TernaryTree,
    X: np.ndarray,
    routing: str,
    base_delta: np.ndarray | None = None,
    scale: float = 1.0,
) -> np.ndarray:
    """Per row, the smallest ``|x_f − θ| / δ`` over the split nodes on its path.

    The path is CART's (``x ≤ θ`` left) for the binary routings and the three-way one
    for hard_middle; nodes with δ = 0 are skipped, so a row meeting none gets ``inf``.
    With ``base_delta`` (each node's δ before the scale, so ``δ = base_delta·scale``),
    each node's distance is instead the float ``s`` at which the zone of scale
    ``scale·s`` flips for the row, found by bisection on the very comparisons the
    traversal makes (``x > θ−δ``, ``x ≤ θ+δ``): right of θ (the zone's closed end) it
    is the smallest ``s`` whose zone holds ``x``, left of θ (open end) the largest whose
    zone does not. So a refit at scale ``scale·s`` flags a row exactly when its distance
    is below ``s``, or equal to ``s`` with the row right of θ at that node.
    """
    n = X.shape[0]
    best = np.full(n, np.inf)
    node = np.zeros(n, dtype=np.intp)
    rows = np.flatnonzero(tree.children_left[node] != LEAF)
    while rows.size:
        at = node[rows]
        x = X[rows, tree.feature[at]].astype(np.float64)
        theta, delta = tree.threshold[at], tree.delta[at]
        if base_delta is None:
            zoned = delta > 0
            with np.errstate(divide="ignore"):
                d = np.abs(x - theta) / np.where(zoned, delta, 1.0)
        else:
            zoned = (base_delta[at] > 0) & (scale > 0)
            d = np.full(rows.size, np.inf)
            d[zoned] = _flip_scale(x[zoned], theta[zoned], base_delta[at][zoned], scale)
        best[rows] = np.minimum(best[rows], np.where(zoned, d, np.inf))
        if routing == "hard_middle":
            middle = tree.children_middle[at]
            lo, hi = np.where(middle != LEAF, theta - delta, theta), theta + delta
            step = np.where(x <= lo, tree.children_left[at], middle)
            step = np.where(x > np.where(middle != LEAF, hi, theta), tree.children_right[at], step)
        else:
            step = np.where(x <= theta, tree.children_left[at], tree.children_right[at])
        node[rows] = step
        rows = rows[tree.children_left[step] != LEAF]
    return best


def _flip_scale(x, theta, base, scale):
    """The float where the zone ``θ ± base·(scale·s)`` starts to hold ``x`` (see above)."""
    top = np.finfo(np.float64).max

    def inside(s):
        half = base * (scale * s)
        return (x > theta - half) & (x <= theta + half)

    with np.errstate(over="ignore", invalid="ignore"):
        guess = np.abs(x - theta) / (base * scale)
        # the plain ratio is off by a few ulps at most: bracket it tightly, and widen the
        # bracket where it does not hold the flip (then the search takes up to 64 steps)
        lo = np.where(np.isfinite(guess), guess * (1 - 2.0**-44), 0.0)
        hi = np.where(np.isfinite(guess) & (guess > 0), guess * (1 + 2.0**-44), top)
        lo = np.where(inside(lo), 0.0, lo)  # s = 0 gives an empty zone
        hi = np.where(inside(hi), hi, top)
        never = ~inside(np.full_like(x, top))
        # non-negative doubles order like their bit patterns: bisect those
        lo_bits, hi_bits = lo.view(np.int64).copy(), hi.view(np.int64).copy()
        while True:
            open_ = hi_bits - lo_bits > 1
            if not open_.any():
                break
            mid = lo_bits + (hi_bits - lo_bits) // 2
            holds = inside(mid.view(np.float64))
            hi_bits = np.where(open_ & holds, mid, hi_bits)
            lo_bits = np.where(open_ & ~holds, mid, lo_bits)
    flip = np.where(x > theta, hi_bits.view(np.float64), lo_bits.view(np.float64))
    return np.where(never, np.inf, flip)
