"""Routing, blending and verdicts (Smits 2026, §3.4–3.5): the one place that predicts.

`traverse` routes every row through a `TernaryTree` under one of the three routings.
Its fast paths (the compiled kernels of `ternary.tree.kernels`, scikit-learn's compiled
walk through the zones, the dense numpy blend) are each tested equal to the reference
numpy walk `walk`, which serves every routing and any tree.
"""

from __future__ import annotations

import numpy as np

from ternary.tree._structure import LEAF, UNDEFINED, TernaryTree
from ternary.tree.kernels import MAX_DENSE_LEAVES, blend_into, predict_binary, predict_middle

__all__ = ["blend_dense", "blend_uncertain", "compiled_router", "traverse", "walk"]


def traverse(tree: TernaryTree, X: np.ndarray, routing: str, *, proba: bool = True):
    """Route every row of ``X`` through ``tree``.

    The compiled fast paths serve float32 input (the estimators cast every row to float32);
    any other dtype takes the reference numpy walk, `walk`, which gives the same result.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows to route, float32 for the fast paths; thresholds and zone edges are
        compared with their float64 values.
    routing : {"probabilistic", "deferred", "hard_middle"}
        The zone is ``θ−δ < x ≤ θ+δ`` for a tree with closed ``zone_edges`` (the paper's)
        and ``θ−δ < x < θ+δ`` for open ones; "right of the zone" is ``x > θ+δ`` or
        ``x ≥ θ+δ`` accordingly.

        * probabilistic: at a node, ``x ≤ θ−δ`` goes left, right of the zone right,
          and a row inside the zone goes both ways with ``w_L = (θ+δ−x)/(2δ)``,
          ``w_R = 1 − w_L``, recursively; leaf distributions are blended by the
          product of weights along each path. At ``x = θ+δ`` ``w_L = 0``, so the
          probabilities do not depend on ``zone_edges``; the verdict does.
        * deferred: the same zone test, but once a row has entered a zone both
          subtrees below it are followed with hard CART routing (``x ≤ θ``). With open
          edges a row at ``θ+δ`` has not entered the zone (its blend there is one-sided),
          so zones below can still blend it.
        * hard_middle: ``x ≤ θ−δ`` left, right of the zone right, otherwise the
          middle child; exactly one leaf per row. A split without a middle child
          (possible only in a tree built by hand: the growth gives every split with
          δ > 0 one) routes like CART, ``x ≤ θ``, and flags no row.
    proba : bool, default=True
        False to compute the verdicts alone, which is cheaper.

    Returns
    -------
    proba : ndarray of shape (n_samples, n_classes) or None
        The blended class probabilities, each row summing to 1; None when
        ``proba=False``.
    verdict : ndarray of int8, shape (n_samples,)
        1 where the row is decided, 0 where it is boundary-uncertain (it entered an
        uncertainty zone at some node it reached).
    """
    if X.dtype == np.float32:
        # numba, when installed: one compiled pass that routes (and blends, or takes the
        # middle branches), nothing computed over the whole tree per call
        if routing == "hard_middle":
            middle = predict_middle(tree, X)
            if middle is not None:
                leaf, verdict = middle
                return (tree.value[leaf] if proba else None), verdict
        else:
            fast = predict_binary(tree, X, routing, proba=proba)
            if fast is not None:
                return fast
        router = compiled_router(tree, X.shape[1], routing)
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
                blend_uncertain(tree, X, uncertain, routing, blended)
            return blended, decided.astype(np.int8)
    return walk(tree, X, routing)


#: Rows per block of the dense numpy blend (its temporary arrays are nodes × rows).
_ROW_CHUNK = 65_536


def _walk_proba(tree, X, routing):
    return walk(tree, X, routing)[0]


def blend_uncertain(tree, X, rows, routing, out, *, compiled=True):
    """Blend the probabilities of some rows into an output array, in place.

    The numba kernel serves when it is available; numba is imported here on the first
    blend, not with the package. Without it (or with ``compiled=False``) the dense numpy
    blend serves trees of at most ``MAX_DENSE_LEAVES`` leaves and the sparse walk bigger
    ones.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        All the rows; only ``X[rows]`` is read.
    rows : ndarray of int
        The indices of the rows to blend (those that met a zone, typically).
    routing : {"probabilistic", "deferred"}
        A binary-tree routing (see `traverse`).
    out : ndarray of float64, shape (n_samples, n_classes)
        Receives the blended probabilities in ``out[rows]``; other rows are left as
        they are.
    compiled : bool, default=True
        False to skip the numba kernel and blend in numpy.
    """
    if compiled:
        if blend_into(tree, X, rows, routing, out):
            return
    blend = blend_dense if tree.n_leaves <= MAX_DENSE_LEAVES else _walk_proba
    out[rows] = blend(tree, X[rows], routing)


def blend_dense(tree: TernaryTree, X: np.ndarray, routing: str) -> np.ndarray:
    """Blend the probabilities of binary-tree routings, all rows at once.

    A leaf's weight is the product of the branch weights along its path:
    ``w_L = clip((θ+δ−x)/(2δ), 0, 1)`` or ``1 − w_L`` (probabilistic); with deferred
    routing the factors after the first zone on the path are CART's hard 0/1. Splits with
    δ = 0, or a δ so small that ``0.5/δ`` overflows, route like CART (``x ≤ θ``). The
    work is nodes × rows, so this serves small trees.

    Parameters
    ----------
    tree : TernaryTree
        A fitted tree without middle children.
    X : ndarray of shape (n_samples, n_features)
        The rows to blend.
    routing : {"probabilistic", "deferred"}
        The routing (see `traverse`).

    Returns
    -------
    ndarray of float64, shape (n_samples, n_classes)
        The blended class probabilities, each row summing to 1.
    """
    internal = np.flatnonzero(tree.children_left != LEAF)
    column = {int(node): j for j, node in enumerate(internal)}
    t = tree.threshold[internal]
    d = tree.delta[internal]
    lo, hi = t - d, t + d
    out = np.zeros((X.shape[0], tree.n_classes))
    lo_, hi_, t_ = lo[:, None], hi[:, None], t[:, None]
    top_ = tree.zone_tops()[internal][:, None]
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
        in_zone = (G > lo_) & (G <= top_) if routing == "deferred" else None
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
                    assert in_zone is not None  # computed for deferred routing
                    if entered is not None:
                        factor = np.where(entered, hard, soft)
                    now_entered = in_zone[j] if entered is None else entered | in_zone[j]
                stack.append((child, factor.copy() if w is None else w * factor, now_entered))
    return out / out.sum(axis=1, keepdims=True)


def compiled_router(tree: TernaryTree, n_features: int, routing: str):
    """A scikit-learn ``Tree`` that routes through the zones in its compiled loop.

    Every split with δ > 0 becomes two binary tests: ``x ≤ θ−δ`` (left child) and,
    on its right branch, ``x ≤ b`` (zone) against the right child, ``b`` the zone's
    `zone_top` (θ+δ when closed, the double below it when open). The zone
    branch ends in a marker leaf for the binary routings (ids ≥ ``node_count``:
    that row is boundary-uncertain) and goes to the middle child for hard-middle
    trees. Splits with δ = 0 keep ``x ≤ θ``. The tree is built through the
    pickling state of scikit-learn's compiled tree; None when that private layout
    is not available (another scikit-learn version), and callers walk in numpy.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    n_features : int
        The number of features of the rows it will route.
    routing : {"probabilistic", "deferred", "hard_middle"}
        The routing; "hard_middle" sends the zone to the middle child.

    Returns
    -------
    tuple of (sklearn.tree._tree.Tree, int) or None
        The compiled tree, whose ``apply`` gives each row's leaf, and the node count of
        ``tree`` (leaf ids at or above it are the markers of boundary-uncertain rows);
        None when scikit-learn's layout is not the one expected.
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
        nodes["threshold"][second] = tree.zone_tops()[zk]
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


_TEMPLATE: list = []


def _node_template():
    """The dtype of scikit-learn's compiled tree nodes, read off a fitted stump once."""
    if not _TEMPLATE:
        from sklearn.tree import DecisionTreeClassifier

        stump = DecisionTreeClassifier(max_depth=1).fit([[0.0], [1.0]], [0, 1])
        _TEMPLATE.append(stump.tree_.__getstate__()["nodes"].dtype)
    return _TEMPLATE[0]


def walk(tree: TernaryTree, X: np.ndarray, routing: str):
    """Route every row through a tree: the reference walk in numpy, every routing, any tree.

    Each node routes the rows that reach it as `traverse` describes; a row in a zone
    goes both ways with its path weight split (binary routings) or to the middle child
    (hard_middle; a split without one routes like CART). The fast paths of `traverse`
    are tested equal to it.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows to route.
    routing : {"probabilistic", "deferred", "hard_middle"}
        The routing (see `traverse`).

    Returns
    -------
    proba : ndarray of float64, shape (n_samples, n_classes)
        The blended class probabilities, each row summing to 1.
    verdict : ndarray of int8, shape (n_samples,)
        1 where the row is decided, 0 where it entered an uncertainty zone.

    Examples
    --------
    A stump at θ = 0.5 with δ = 0.1: a row at 0.55 is in the zone, three quarters of the
    way from its left edge, so it goes left with weight 0.25.

    >>> import numpy as np
    >>> from ternary.tree import TernaryTree, walk
    >>> tree = TernaryTree(
    ...     children_left=[1, -1, -1],
    ...     children_right=[2, -1, -1],
    ...     feature=[0, -2, -2],
    ...     threshold=[0.5, -2, -2],
    ...     delta=[0.1, 0, 0],
    ...     value=[[3, 1], [1, 0], [0, 1]],
    ...     n_node_samples=[4, 3, 1],
    ...     impurity=[0.375, 0, 0],
    ... )
    >>> proba, verdict = walk(tree, np.array([[0.0], [0.55], [1.0]]), "probabilistic")
    >>> proba.round(2).tolist(), verdict.tolist()
    ([[1.0, 0.0], [0.25, 0.75], [0.0, 1.0]], [1, 0, 1])
    """
    n = X.shape[0]
    proba = np.zeros((n, tree.n_classes))
    uncertain = np.zeros(n, dtype=bool)
    left_of, right_of, middle_of = tree.children_left, tree.children_right, tree.children_middle
    feature, threshold, delta, value = tree.feature, tree.threshold, tree.delta, tree.value
    middle = routing == "hard_middle"
    deferred = routing == "deferred"
    tops = tree.zone_tops()
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
        # no zone, or a hard-middle split without a middle child (only hand-built trees
        # have one): route like CART, as the compiled router and the exporters do
        if d <= 0.0 or (middle and middle_of[node] == LEAF):
            go_left = x <= t
            for child, go in ((right, ~go_left), (left, go_left)):  # left pops first
                sub_w = None if w is None else w[go]
                stack.append((child, idx[go], sub_w, None if hard is None else hard[go]))
            continue
        lo, top = t - d, tops[node]
        if middle:
            go_left = x <= lo
            go_right = x > top
            in_zone = ~(go_left | go_right)
            uncertain[idx[in_zone]] = True
            stack.append((middle_of[node], idx[in_zone], None, None))
            stack.append((right, idx[go_right], None, None))
            stack.append((left, idx[go_left], None, None))
            continue
        in_zone = _blend_split(stack, (left, right), idx, x, (t, d, top), w, hard, deferred)
        uncertain[idx[in_zone]] = True
    # guard against float drift so rows sum to exactly 1 within rounding
    proba /= proba.sum(axis=1, keepdims=True)
    return proba, (~uncertain).astype(np.int8)


def _blend_split(stack, children, idx, x, split, w, hard, deferred):
    """Push a zoned split's children for `walk`'s binary routings; return the zone rows.

    ``split`` is ``(θ, δ, b)``, ``b`` the zone's `zone_top`. Rows inside
    ``θ−δ < x ≤ b`` (the zone, closed or open) go both ways with ``w_L = (θ+δ−x)/(2δ)`` unless
    ``hard`` marks them as past their first zone (deferred), where they route like CART.
    Each child gets the rows that reach it with positive weight, right pushed first.
    """
    left, right = children
    t, d, top = split
    lo, hi = t - d, t + d
    in_zone = (x > lo) & (x <= top)
    if hard is not None:
        # rows already past their first zone route like CART
        hard_left = hard & (x <= t)
        in_zone &= ~hard
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
        if sub_hard is not None and not sub_hard.any():
            sub_hard = None
        stack.append((child, idx[reach], None if all_one else sub_w, sub_hard))
    return in_zone
