"""Walks of the training partition: which training rows reach which node.

`iter_node_rows` yields each node's rows (CART's two-way partition for the binary
routings, the three-way one of hard-middle trees); `split_row_pairs` is its vectorised
twin for the binary routings; `impurity_importances` sums the impurity decreases over
that partition.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ternary.tree._criterion import impurity
from ternary.tree._structure import LEAF, TernaryTree

__all__ = ["impurity_importances", "iter_node_rows", "split_row_pairs", "stored_importances"]


def iter_node_rows(
    tree: TernaryTree, X: np.ndarray, routing: str = "probabilistic"
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield the rows of the training partition that reach each node.

    Binary routings partition like CART (``x ≤ θ`` left); hard-middle trees
    partition three ways (``x ≤ θ−δ``, right of the zone, the rest to the middle; the
    zone holds θ+δ or not as the tree's ``zone_edges`` says).
    Nodes come in preorder; only the rows of pending siblings are kept alive.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows to partition (the training rows, typically).
    routing : {"probabilistic", "deferred", "hard_middle"}, default="probabilistic"
        The routing; only "hard_middle" changes the partition (three ways at splits with
        a middle child).

    Yields
    ------
    node : int
        A node id, every reachable node once, parents first.
    rows : ndarray of intp
        The indices into ``X`` of the rows reaching it, ascending.
    """
    stack = [(0, np.arange(X.shape[0]))]
    middle = routing == "hard_middle"
    tops = tree.zone_tops() if middle else None
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
            assert tops is not None
            go_left, go_right = x <= t - d, x > tops[node]
            stack.append((m, idx[~(go_left | go_right)]))
        else:
            go_left = x <= t
            go_right = ~go_left
        stack.append((tree.children_right[node], idx[go_right]))
        stack.append((left, idx[go_left]))


def split_row_pairs(
    tree: TernaryTree, X: np.ndarray, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """List every ``(row, split node)`` pair of CART's training partition (``x ≤ θ`` left).

    The vectorised twin of `iter_node_rows` for the binary routings: the rows go down
    the tree level by level, and each split node they pass through is recorded, so a
    computation over all nodes needs no Python call per node. Within one node the
    rows keep their ascending order (a node's pairs all come from one level, and each
    level keeps the order of the one above), as `iter_node_rows` gives them.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree; its children_left/right, feature and threshold are read.
    X : ndarray of shape (n_samples, n_features)
        The rows to partition (the training rows, typically).
    rows : ndarray of int, optional
        The rows to route, ascending; default all of them.

    Returns
    -------
    pair_rows : ndarray of intp
        The row of each pair, an index into ``X``.
    pair_nodes : ndarray of intp
        The split node the row passes through, one entry per pair; leaves are not listed.
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

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The training rows.
    y_codes : ndarray of int, shape (n_samples,)
        Their classes encoded in ``[0, n_classes)``.
    sample_weight : ndarray of float, shape (n_samples,)
        Their weights.
    criterion : {"gini", "entropy", "log_loss"}
        The impurity (see `impurity`).
    routing : {"probabilistic", "deferred", "hard_middle"}
        The routing, which decides the partition (see `iter_node_rows`).
    n_features : int
        The length of the result.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        The importance of each feature, summing to 1 (all zeros for a tree whose splits
        decrease no impurity).
    """
    K, n_nodes = tree.n_classes, tree.node_count
    # every node's class counts at once: a node's pairs come in ascending row order, so
    # each bin adds its weights in the order a bincount of the node's rows adds them
    pair_rows, pair_nodes = _node_row_pairs(tree, X, routing)
    counts = np.bincount(
        pair_nodes * K + np.asarray(y_codes, dtype=np.intp)[pair_rows],
        weights=np.asarray(sample_weight, dtype=np.float64)[pair_rows],
        minlength=n_nodes * K,
    ).reshape(n_nodes, K)
    W = counts.sum(axis=1)
    weighted_impurity = W * impurity(counts, criterion)
    split = np.flatnonzero(~tree.is_leaf)
    # the children's sum in the order left, right, middle (an absent middle adds 0.0)
    children = np.zeros(split.size)
    for slot in (tree.children_left, tree.children_right, tree.children_middle):
        child = slot[split]
        children = children + np.where(child != LEAF, weighted_impurity[child], 0.0)
    decrease = weighted_impurity[split] - children
    # added node by node in id order, as the loop over split nodes added them
    importances: np.ndarray = np.bincount(
        tree.feature[split], weights=decrease, minlength=n_features
    ).astype(np.float64)  # a leaf-only tree's bincount is integer
    if W[0] > 0:
        importances /= W[0]
    total = importances.sum()
    if total > 0:
        importances /= total
    return importances


def _node_row_pairs(tree: TernaryTree, X: np.ndarray, routing: str):
    """Every ``(row, node)`` pair of the training partition, leaves included.

    The rows go down level by level with `iter_node_rows`'s comparisons (three ways at
    a hard-middle tree's splits with a middle child, else ``x ≤ θ``), keeping their
    ascending order within each node.
    """
    rows = np.arange(X.shape[0])
    node = np.zeros(rows.size, dtype=np.intp)
    middle = routing == "hard_middle"
    tops = tree.zone_tops() if middle else None
    pair_rows, pair_nodes = [], []
    while rows.size:
        pair_rows.append(rows)
        pair_nodes.append(node)
        split = tree.children_left[node] != LEAF
        rows, node = rows[split], node[split]
        if not rows.size:
            break
        x = X[rows, tree.feature[node]]
        t = tree.threshold[node]
        go = np.where(x <= t, tree.children_left[node], tree.children_right[node])
        if middle:
            assert tops is not None
            m = tree.children_middle[node]
            d = tree.delta[node]
            three = m != LEAF
            go = np.where(
                three,
                np.where(
                    x <= t - d,
                    tree.children_left[node],
                    np.where(x > tops[node], tree.children_right[node], m),
                ),
                go,
            )
        node = go
    return np.concatenate(pair_rows), np.concatenate(pair_nodes)


def stored_importances(tree: TernaryTree, n_features: int) -> np.ndarray:
    """Compute scikit-learn's impurity importances from an ungrafted CART's stored arrays.

    The same sum as `impurity_importances` (each split's ``W_n·i(n) − Σ_c W_c·i(c)``,
    divided by the root weight, then normalised to 1), but over the impurities and
    weights CART stored while growing, which are exact for its own partition. Only left
    and right children are read, so it serves binary trees.

    Parameters
    ----------
    tree : TernaryTree
        A binary tree whose ``impurity`` and ``weighted_n_node_samples`` are those CART
        stored (not grafted).
    n_features : int
        The length of the result.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        The importance of each feature, summing to 1 (all zeros for a single leaf).
    """
    W, imp = tree.weighted_n_node_samples, tree.impurity
    split = np.flatnonzero(~tree.is_leaf)
    left, right = tree.children_left[split], tree.children_right[split]
    decrease = W[split] * imp[split] - W[left] * imp[left] - W[right] * imp[right]
    importances: np.ndarray = np.bincount(
        tree.feature[split], weights=decrease, minlength=n_features
    ).astype(np.float64)  # a leaf-only tree's bincount is integer
    if W[0] > 0:
        importances = importances / W[0]
    total = importances.sum()
    return importances / total if total > 0 else importances
