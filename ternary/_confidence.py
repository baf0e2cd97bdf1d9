"""The confidence a tree gives each row for selective prediction (issue 30).

Two rankings, chosen by the estimators' ``confidence`` parameter; each scores the class
the paper's blend predicts (`predict_proba` never changes):

* ``"laplace"`` (the default): every leaf's class frequencies Laplace-smoothed,
  ``(n_c + 1) / (n + K)`` (the C4.4 correction of Provost & Domingos 2003), blended
  through the zones like the raw ones, the row's smallest ``|x − θ| / std(x)`` on its
  CART path breaking ties;
* ``"paper"``: the maximum blended class probability with the zone distance breaking
  ties (the ranking before issue 30; the corpus records it).

A raw leaf frequency rates a pure leaf of one row as sure as a pure leaf of a
thousand; smoothing is most of what a ranking needs to beat Chow's rule on real tables
(BENCHMARKS.md, issue 30, where a parent-shrunk m-estimate and a learned combination
fitted on leave-one-out leaf counts were measured too, and lost to this). Nothing is
fitted beyond the features' standard deviations, so ``fit`` costs one pass over ``X``.
"""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ternary.tree import TernaryTree, kernels, traverse

__all__ = [
    "laplace_value",
    "member_sums",
    "path_gaps",
    "smoothed_aggregate",
    "smoothed_confidence",
    "smoothed_outputs",
]

#: The scaled gap is capped here: beyond a few standard deviations it says nothing more.
_GAP_CAP = 10.0
_STEPS = 2.0**30


def laplace_value(tree: TernaryTree) -> np.ndarray:
    """Each node's Laplace-smoothed class distribution, ``(n_c + 1) / (n + K)``.

    ``n_c`` is the node's share of class c times its training row count (the row count
    of the sample a forest member was grown on), so sample weights change the shares
    but not the strength of the smoothing.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.

    Returns
    -------
    ndarray of shape (node_count, n_classes)
        Rows summing to 1.
    """
    n = tree.n_node_samples.astype(np.float64)[:, None]
    return (tree.value * n + 1.0) / (n + tree.n_classes)


def _with_value(tree: TernaryTree, value: np.ndarray) -> TernaryTree:
    """``tree`` with other node values, its other arrays shared (never written)."""
    new = copy.copy(tree)
    new.value = np.ascontiguousarray(value, dtype=np.float64)
    # the same child arrays, so the same preorder and depths: share them, not recompute
    cache = tree.__dict__.get("_structure_cache")
    if cache is not None:
        new.__dict__["_structure_cache"] = cache
    return new


def path_gaps(tree: TernaryTree, X: np.ndarray, routing: str, scale: np.ndarray) -> np.ndarray:
    """Each row's smallest scaled gap ``|x − θ| / scale[feature]`` on its path.

    The path is CART's (``x ≤ θ`` left) for the binary routings and the three-way one
    for hard_middle.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows (float32 as the estimators route them).
    routing : {"probabilistic", "deferred", "hard_middle"}
        The routing, which decides the path.
    scale : ndarray of shape (n_features,)
        A positive scale per feature (the training rows' standard deviations).

    Returns
    -------
    ndarray of float64, shape (n_samples,)
        The smallest scaled gap, capped at 10 (also for a one-leaf tree).
    """
    if X.dtype == np.float32:
        compiled = kernels.path_gaps(tree, X, routing, scale, _GAP_CAP)
        if compiled is not None:  # the same float64 operations, one compiled pass
            return compiled
    n = X.shape[0]
    node = np.zeros(n, dtype=np.intp)
    gap = np.full(n, _GAP_CAP)
    rows = np.flatnonzero(tree.children_left[node] != -1)
    while rows.size:
        at = node[rows]
        f = tree.feature[at]
        x = X[rows, f].astype(np.float64)
        theta = tree.threshold[at]
        gap[rows] = np.minimum(gap[rows], np.abs(x - theta) / scale[f])
        if routing == "hard_middle":
            middle, delta = tree.children_middle[at], tree.delta[at]
            three = middle != -1
            step = np.where(
                x <= np.where(three, theta - delta, theta), tree.children_left[at], middle
            )
            hi = np.where(three, theta + delta, theta)
            step = np.where(x > hi, tree.children_right[at], step)
        else:
            step = np.where(x <= theta, tree.children_left[at], tree.children_right[at])
        node[rows] = step
        rows = rows[tree.children_left[step] != -1]
    return gap


def smoothed_confidence(tree, X, routing, predicted, scale) -> np.ndarray:
    """The ``"laplace"`` score of each row.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows, float32.
    routing : str
        The tree's routing.
    predicted : ndarray of int, shape (n_samples,)
        The class code each row is predicted (the paper blend's argmax).
    scale : ndarray of shape (n_features,)
        The features' standard deviations.

    Returns
    -------
    ndarray of shape (n_samples,)
        The blended Laplace probability of the predicted class, binned to steps of
        2⁻³⁰, plus ``g/(1+g)`` of a step for the scaled gap ``g``: in [0, 1). Rows are
        ordered by the probability, and rows of one bin (the decided rows of a leaf) by
        how far they lie from every threshold on their path.
    """
    blend = traverse(_with_value(tree, laplace_value(tree)), X, routing)[0]
    p = blend[np.arange(X.shape[0]), predicted]
    return _score(p, path_gaps(tree, X, routing, scale))


#: Rows per block of a forest's prediction on threads: every tree walks one block into
#: that block's rows of the accumulators before the next block starts.
_FOREST_BLOCK = 16_384


def member_sums(members, X, n_classes, *, smoothed=False, n_jobs=1):
    """The members' blends and verdicts summed per row, row blocks on ``n_jobs`` threads.

    Each thread takes blocks of rows and walks every member over its block, in member
    order, into that block's rows of the sums (the per-thread accumulators are disjoint
    row ranges of one array), so each row's sum is added in the order a single thread
    adds it: the result is the same, bit for bit, for every ``n_jobs``. The compiled
    kernels release the GIL, so the threads run at once.

    Parameters
    ----------
    members : list of (TernaryTree, str, ndarray)
        Each member's tree, routing and the forest's column of each class it saw.
    X : ndarray of shape (n_samples, n_features)
        The rows, float32.
    n_classes : int
        The forest's class count.
    smoothed : bool, default=False
        True to sum the Laplace-smoothed blends too (from the same walk: the raw and the
        smoothed leaf values side by side, the blend being linear in them).
    n_jobs : int, default=1
        The threads (already resolved: at least 1).

    Returns
    -------
    proba : ndarray of shape (n_samples, n_classes)
        The sum of the members' blends; a class a member never saw gets 0 from it.
    smooth : ndarray of shape (n_samples, n_classes) or None
        The sum of the smoothed blends (None unless ``smoothed``).
    decided : ndarray of shape (n_samples,)
        How many members decide each row.
    """
    prepared = []
    for tree, routing, columns in members:
        walked = tree
        if smoothed:
            walked = _with_value(tree, np.hstack([tree.value, laplace_value(tree)]))
        prepared.append((walked, routing, columns, tree.n_classes))
    n = X.shape[0]
    proba = np.zeros((n, n_classes))
    smooth = np.zeros_like(proba) if smoothed else None
    decided = np.zeros(n)

    def run(start, stop):
        rows = X[start:stop]
        for tree, routing, columns, k in prepared:
            blend, verdict = traverse(tree, rows, routing)
            if smooth is None:
                proba[start:stop, columns] += blend
            else:
                proba[start:stop, columns] += blend[:, :k]
                smooth[start:stop, columns] += blend[:, k:]
            decided[start:stop] += verdict

    blocks = [(a, min(a + _FOREST_BLOCK, n)) for a in range(0, n, _FOREST_BLOCK)]
    if n_jobs <= 1 or len(blocks) <= 1:
        for start, stop in blocks:
            run(start, stop)
    else:
        with ThreadPoolExecutor(max_workers=min(n_jobs, len(blocks))) as pool:
            for done in [pool.submit(run, start, stop) for start, stop in blocks]:
                done.result()
    return proba, smooth, decided


def smoothed_outputs(tree, X, routing, scale):
    """``(proba, verdict, score)``: the blend, the verdicts and the ``"laplace"`` score.

    With numba the raw and the Laplace-smoothed leaf values are routed and blended side
    by side in one compiled pass (`ternary.tree.kernels.predict_paired`), each normalised
    alone, so ``proba`` is `ternary.tree.traverse`'s and ``score`` is
    `smoothed_confidence`'s, bit for bit; without it, two walks give the same.

    Parameters
    ----------
    tree : TernaryTree
        The fitted tree.
    X : ndarray of shape (n_samples, n_features)
        The rows, float32.
    routing : str
        The tree's routing.
    scale : ndarray of shape (n_features,)
        The features' standard deviations.

    Returns
    -------
    proba : ndarray of shape (n_samples, n_classes)
        The blended class probabilities.
    verdict : ndarray of int8, shape (n_samples,)
        1 = decided, 0 = boundary-uncertain.
    score : ndarray of shape (n_samples,)
        The ``"laplace"`` score of each row (see `smoothed_confidence`).
    """
    paired = kernels.predict_paired(tree, X, routing, laplace_value(tree))
    if paired is None:
        proba, verdict = traverse(tree, X, routing)
        predicted = np.argmax(proba, axis=1)
        return proba, verdict, smoothed_confidence(tree, X, routing, predicted, scale)
    proba, smooth, verdict = paired
    p = smooth[np.arange(X.shape[0]), np.argmax(proba, axis=1)]
    return proba, verdict, _score(p, path_gaps(tree, X, routing, scale))


def _score(p, gap):
    """The probability binned to steps of 2⁻³⁰, plus ``g/(1+g)`` of a step for the gap."""
    tie = np.minimum(gap / (1.0 + gap), 1.0 - 2.0**-20)
    return (np.floor(p * (_STEPS - 1)) + tie) / _STEPS


def smoothed_aggregate(members, X, n_classes, *, n_jobs=1):
    """A forest's mean blend, mean Laplace-smoothed blend and share of deciding trees.

    Each member is walked once, its raw and Laplace-smoothed node values side by side as one
    value array (the blend is linear in the leaf values), so the smoothed ranking costs
    one walk per tree like `predict_proba`.

    Parameters
    ----------
    members : list of (TernaryTree, str, ndarray)
        Each member's tree, routing and the forest's column of each class it saw.
    X : ndarray of shape (n_samples, n_features)
        The rows, float32.
    n_classes : int
        The forest's class count.
    n_jobs : int, default=1
        The threads walking row blocks (see `member_sums`); the result is the same for
        every value.

    Returns
    -------
    proba, smooth : ndarray of shape (n_samples, n_classes)
        The mean raw blend (the forest's `predict_proba`, to rounding) and the mean
        smoothed blend; a class a member never saw gets 0 from it.
    share : ndarray of shape (n_samples,)
        The share of members deciding each row.
    """
    proba, smooth, share = member_sums(members, X, n_classes, smoothed=True, n_jobs=n_jobs)
    n = len(members)
    return proba / n, smooth / n, share / n
