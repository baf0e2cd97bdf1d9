"""How far a row lies from the zones on its path, in units of δ (`zone_distance`)."""

from __future__ import annotations

import numpy as np

from ternary.tree._structure import LEAF, TernaryTree

__all__ = ["zone_distance"]


def zone_distance(
    tree: TernaryTree,
    X: np.ndarray,
    routing: str,
    base_delta: np.ndarray | None = None,
    scale: float = 1.0,
) -> np.ndarray:
    """Measure each row's distance to the zones on its path, in units of δ.

    It is the smallest ``|x_f − θ| / δ`` over the split nodes on the row's path.
    The path is CART's (``x ≤ θ`` left) for the binary routings and the three-way one
    for hard_middle; nodes with δ = 0 are skipped (and, for hard_middle, splits without a
    middle child, which route like CART), so a row meeting none gets ``inf``.
    With ``base_delta`` (each node's δ before the scale, so ``δ = base_delta·scale``),
    each node's distance is instead the float ``s`` at which the zone of scale
    ``scale·s`` flips for the row, found by bisection on the very comparisons the
    traversal makes (``x > θ−δ``, and ``x ≤ θ+δ`` or, with the tree's open
    ``zone_edges``, ``x < θ+δ``): at a closed end (right of θ in a closed zone) it is
    the smallest ``s`` whose zone holds ``x``, at an open end the largest whose zone does
    not. So a refit at scale ``scale·s`` flags a row exactly when its distance is below
    ``s``, or (closed zones only) equal to ``s`` with the row right of θ at that node.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows, float32 as the estimators route them (compared in float64).
        The tree's ``zone_edges`` decides whether a zone holds its upper end.
    routing : {"probabilistic", "deferred", "hard_middle"}
        The routing, which decides the path: CART's for the binary routings, the three-way
        one for "hard_middle".
    base_delta : ndarray of shape (node_count,), optional
        Each node's δ before the scale, in its feature's units. None (the default) to
        measure ``|x_f − θ| / δ`` with the tree's own δ.
    scale : float, default=1.0
        The scale the tree's δ were fitted with, ``δ = base_delta·scale``; used with
        ``base_delta`` only. A scale of 0 leaves no zone, so every distance is ``inf``.

    Returns
    -------
    ndarray of float64, shape (n_samples,)
        Each row's distance in [0, inf]: in units of the node's δ, or (with
        ``base_delta``) the factor by which ``scale`` must be multiplied for a zone on the
        path to flag the row; ``inf`` when its path meets no zone.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.tree import TernaryTree, zone_distance
    >>> tree = TernaryTree(
    ...     children_left=[1, -1, -1],
    ...     children_right=[2, -1, -1],
    ...     feature=[0, -2, -2],
    ...     threshold=[0.5, -2, -2],
    ...     delta=[0.25, 0, 0],
    ...     value=[[3, 1], [1, 0], [0, 1]],
    ...     n_node_samples=[4, 3, 1],
    ...     impurity=[0.375, 0, 0],
    ... )
    >>> zone_distance(tree, np.array([[0.0], [0.5], [1.0]]), "probabilistic").tolist()
    [2.0, 0.0, 2.0]
    """
    n = X.shape[0]
    tops = tree.zone_tops()
    best = np.full(n, np.inf)
    node = np.zeros(n, dtype=np.intp)
    rows = np.flatnonzero(tree.children_left[node] != LEAF)
    while rows.size:
        at = node[rows]
        x = X[rows, tree.feature[at]].astype(np.float64)
        theta, delta = tree.threshold[at], tree.delta[at]
        # a hard-middle split without a middle child (hand-built trees only) routes like
        # CART at every scale: it has no zone to meet
        three_way = tree.children_middle[at] != LEAF if routing == "hard_middle" else True
        if base_delta is None:
            zoned = (delta > 0) & three_way
            with np.errstate(divide="ignore"):
                d = np.abs(x - theta) / np.where(zoned, delta, 1.0)
        else:
            zoned = (base_delta[at] > 0) & (scale > 0) & three_way
            d = np.full(rows.size, np.inf)
            d[zoned] = _flip_scale(
                x[zoned], theta[zoned], base_delta[at][zoned], scale, tree.open_edges
            )
        best[rows] = np.minimum(best[rows], np.where(zoned, d, np.inf))
        if routing == "hard_middle":
            middle = tree.children_middle[at]
            lo, top = np.where(middle != LEAF, theta - delta, theta), tops[at]
            step = np.where(x <= lo, tree.children_left[at], middle)
            step = np.where(x > np.where(middle != LEAF, top, theta), tree.children_right[at], step)
        else:
            step = np.where(x <= theta, tree.children_left[at], tree.children_right[at])
        node[rows] = step
        rows = rows[tree.children_left[step] != LEAF]
    return best


def _flip_scale(x, theta, base, scale, open_edges=False):
    """The float where the zone ``θ ± base·(scale·s)`` starts to hold ``x`` (see above)."""
    top = np.finfo(np.float64).max

    def inside(s):
        half = base * (scale * s)
        high = theta + half
        return (x > theta - half) & ((x < high) if open_edges else (x <= high))

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
    closed_end = (x > theta) & (not open_edges)
    flip = np.where(closed_end, hi_bits.view(np.float64), lo_bits.view(np.float64))
    return np.where(never, np.inf, flip)
