"""The registry of δ methods, and the two ways the estimator asks it for δ.

`DELTA_METHODS` (the vocabulary of ``delta_method``) is read off the registry, so a
method exists in exactly one place: its module, whose `DeltaMethod` is listed here.
"""

from __future__ import annotations

import numpy as np

from ternary.delta import _class_overlap, _gain_ratio, _margin, _node_bootstrap, _quality_plateau
from ternary.delta._base import DeltaMethod, DeltaParams, NodeRows
from ternary.stopping import check as check_stop
from ternary.tree import LEAF, TernaryTree, iter_node_rows

__all__ = ["DELTA_METHODS", "REGISTRY", "compute_raw_delta", "node_delta", "split_deltas"]


def _no_zone(rows, params, random_state) -> float:
    return 0.0


def _no_zones(tree, X, y_codes, weights, n_classes, params) -> np.ndarray:
    return np.zeros(tree.node_count)


#: Every δ method by its ``delta_method`` name, in the order the paper lists them.
REGISTRY: dict[str, DeltaMethod] = {
    method.name: method
    for method in (
        _margin.METHOD,
        _node_bootstrap.METHOD,
        _quality_plateau.METHOD,
        _gain_ratio.METHOD,
        _class_overlap.METHOD,
        DeltaMethod("none", _no_zone, every_split=_no_zones),
    )
}
#: The names ``delta_method`` accepts, in the registry's order ("none": CART, no zones).
DELTA_METHODS = tuple(REGISTRY)


def compute_raw_delta(rows: NodeRows, params: DeltaParams, random_state=None) -> float:
    """Compute a node's raw δ with ``params.method``, before the clamp and the scale.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    params : DeltaParams
        The method and its parameters.
    random_state : int, RandomState or None, default=None
        The stream of a method that draws (node_bootstrap); the others ignore it.

    Returns
    -------
    float
        The raw δ ≥ 0, in the feature's units; 0 when fewer than two rows reach the node.

    Raises
    ------
    ValueError
        If ``params.method`` is not one of `DELTA_METHODS`.
    """
    method = REGISTRY.get(params.method)
    if method is None:
        raise ValueError(f"Unknown delta_method {params.method!r}.")
    if rows.n < 2:
        return 0.0
    return method.raw_delta(rows, params, random_state)


def node_delta(rows: NodeRows, params: DeltaParams, random_state=None) -> float:
    """Compute a node's final δ: the raw δ clamped to the feature-range cap, then scaled.

    ``δ = min(max(raw, 0), max_delta_fraction · (max c − min c)) · delta_scale``.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    params : DeltaParams
        The method, its parameters, the cap and the scale.
    random_state : int, RandomState or None, default=None
        The stream of a method that draws (node_bootstrap); the others ignore it.

    Returns
    -------
    float
        The node's δ ≥ 0, in the feature's units.

    Examples
    --------
    The margin's raw δ is 2.0 here, above the cap of 0.25 · 7:

    >>> import numpy as np
    >>> from ternary.delta import DeltaParams, NodeRows, compute_raw_delta, node_delta
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> compute_raw_delta(rows, DeltaParams(method="margin"))
    2.0
    >>> node_delta(rows, DeltaParams(method="margin", delta_scale=0.5))
    0.875
    """
    raw = compute_raw_delta(rows, params, random_state)
    cap = params.max_delta_fraction * rows.value_range
    return float(min(max(raw, 0.0), cap) * params.delta_scale)


def split_deltas(
    tree: TernaryTree,
    X: np.ndarray,
    y_codes: np.ndarray,
    weights: np.ndarray,
    n_classes: int,
    params: DeltaParams,
    random_state: np.random.RandomState,
) -> np.ndarray:
    """Compute every split's δ of a binary tree, on CART's training partition (``x ≤ θ`` left).

    A method with a whole-tree pass (`DeltaMethod.every_split`) answers at once (unless
    the pass answers None: no numba); the others are asked node by node in preorder,
    drawing from ``random_state`` in that order (node_bootstrap), so a fresh fit and
    `ternary.rezone` draw alike.

    Parameters
    ----------
    tree : TernaryTree
        A binary tree (no middle children), its thresholds those CART chose.
    X : ndarray of shape (n_samples, n_features)
        The training rows.
    y_codes : ndarray of int, shape (n_samples,)
        Their classes encoded in ``[0, n_classes)``.
    weights : ndarray of float, shape (n_samples,)
        Their weights; rows of weight 0 are left out.
    n_classes : int
        The number of classes.
    params : DeltaParams
        The method, its parameters and the cap, with ``delta_scale=1`` (as the estimator
        passes it, multiplying the result by its scale afterwards): the whole-tree
        passes return δ at scale 1 whatever ``params.delta_scale``, while the node-by-node
        path applies it.
    random_state : numpy.random.RandomState
        The stream node_bootstrap draws from, node by node in preorder.

    Returns
    -------
    ndarray of float64, shape (node_count,)
        Each node's clamped δ, in its feature's units; 0 at leaves.
    """
    method = REGISTRY[params.method]
    if method.every_split is not None:
        every = method.every_split(tree, X, y_codes, weights, n_classes, params)
        if every is not None:
            return every
    delta = np.zeros(tree.node_count)
    for node, rows in iter_node_rows(tree, X):
        if tree.children_left[node] == LEAF:
            continue
        check_stop()  # per split node: node_bootstrap scans B bootstraps here
        f = tree.feature[node]
        node_rows = NodeRows.from_arrays(
            X[rows, f], y_codes[rows], weights[rows], tree.threshold[node], n_classes
        )
        delta[node] = node_delta(node_rows, params, random_state)
    return delta
