"""Grafting's search (Webb 1997, steps 1 and 2): each leaf's best cut per attribute and side.

For every leaf, over all its ancestors, the best "≤" and ">" cut on every attribute
inside the leaf's region (`find_cuts`), evaluated for all leaves below an ancestor in
one vectorised pass (`search_node`). The reading of the paper behind every rule here is
in the user guide (docs/user_guide/grafting_reading.rst).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ternary.graft._statistics import laplace
from ternary.tree import LEAF, TernaryTree, iter_node_rows

__all__ = [
    "Best",
    "Candidates",
    "Cases",
    "Leaves",
    "find_cuts",
    "leaf_bounds",
    "leaf_facts",
    "node_bounds",
    "search_node",
]

LE, GT = 0, 1  # side codes
SIDE_NAME = ("<=", ">")


class Candidates(NamedTuple):
    """Candidate cuts, one per (leaf, attribute) offered: their region's numbers."""

    laplace: np.ndarray  #: Laplace of the region under its majority class
    total: np.ndarray  #: the region's weighted size T
    k: np.ndarray  #: the region's majority class
    counts: np.ndarray  #: the region's class counts
    cut: np.ndarray  #: the cut value v


class Segments(NamedTuple):
    """Runs of candidate regions that share one fixed end (one leaf and attribute each)."""

    leaves: np.ndarray  #: positions in `Leaves`
    column: np.ndarray  #: index into the searched features
    anchor: np.ndarray  #: the fixed end: first row for "≤", one past the last for ">"
    last: np.ndarray  #: number of candidates minus one, counted from the anchor outwards


class SortedRows(NamedTuple):
    """An ancestor's rows sorted on every searched attribute, with cumulative counts."""

    m: int  #: number of rows
    cum: np.ndarray  #: ``cum[p, a]``: class counts of the p lowest rows on attribute a
    run_end: np.ndarray  #: True on the last row of a run of equal values
    vals: np.ndarray  #: each column ascending
    features: np.ndarray  #: the searched attributes


def leaf_bounds(
    tree: TernaryTree, leaf: int, n_features: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``lowerlim(leaf, a)`` and ``upperlim(leaf, a)`` for every attribute ``a``.

    The tightest bounds the ancestors of ``leaf`` impose: a left branch
    (``x_a ≤ θ``) caps ``upperlim`` at θ, a right branch raises ``lowerlim``
    to θ. The node holds the points with ``lowerlim < x_a ≤ upperlim``.

    Parameters
    ----------
    tree : TernaryTree
        A binary tree (no middle children on the path).
    leaf : int
        Any node id (usually a leaf).
    n_features : int, optional
        Defaults to one more than the largest split feature.

    Returns
    -------
    lowerlim : ndarray of shape (n_features,)
        The lower bounds, ``−inf`` where unbounded.
    upperlim : ndarray of shape (n_features,)
        The upper bounds, ``+inf`` where unbounded.
    """
    if n_features is None:
        n_features = int(max(tree.feature.max(), -1)) + 1
    parent = tree.parents()
    lower = np.full(n_features, -np.inf)
    upper = np.full(n_features, np.inf)
    node = int(leaf)
    while parent[node] != LEAF:
        up = int(parent[node])
        a, t = int(tree.feature[up]), float(tree.threshold[up])
        if tree.children_left[up] == node:
            upper[a] = min(upper[a], t)
        elif tree.children_right[up] == node:
            lower[a] = max(lower[a], t)
        else:
            raise ValueError(
                f"node {node} is a middle child; bounds are defined for binary trees only."
            )
        node = up
    return lower, upper


def node_bounds(tree: TernaryTree, n_features: int):
    """`leaf_bounds` of every reachable node at once, in one walk from the root."""
    low = np.full((tree.node_count, n_features), -np.inf)
    up = np.full((tree.node_count, n_features), np.inf)
    for node in tree.preorder():
        left, right = tree.children_left[node], tree.children_right[node]
        if left == LEAF:
            continue
        a, t = tree.feature[node], tree.threshold[node]
        for child in (left, right):
            low[child], up[child] = low[node], up[node]
        up[left, a] = min(up[node, a], t)
        low[right, a] = max(low[node, a], t)
    return low, up


def _segmented_best(region_counts, segment, valid):
    """Best Laplace over every prefix of each segment of candidate regions.

    ``region_counts[r]`` are the class counts of candidate ``r``; candidates of
    one segment are contiguous and ordered so that a later one has a larger
    region. Returns per candidate its Laplace, size and majority class, and for
    every position the index of the best valid candidate from its segment's
    start up to it (the later, i.e. larger, one on ties), or an invalid one
    when the prefix holds no valid candidate.
    """
    total = region_counts.sum(axis=1)
    k = region_counts.argmax(axis=1)  # lowest code on ties
    pos = region_counts[np.arange(k.size), k]
    lap = (pos + 1.0) / (total + 2.0)  # in (0, 1)
    # Offsetting segment s by 2s makes one running maximum restart at every
    # segment; invalid candidates sit below every valid one of their segment.
    # Equal Laplace values stay equal after the offset, so ties are exact.
    keyed = np.where(valid, lap, -0.5) + 2.0 * segment
    record = np.maximum.accumulate(keyed)
    best = np.maximum.accumulate(np.where(keyed >= record, np.arange(lap.size), 0))
    return lap, total, k, best


class Best:
    """The best tuple per (leaf, attribute, side) found so far."""

    def __init__(self, n_leaves, n_features, n_classes):
        shape = (n_leaves, n_features, 2)
        self.lap = np.full(shape, -np.inf)
        self.total = np.zeros(shape)
        self.k = np.full(shape, -1, dtype=np.intp)
        self.counts = np.zeros(shape + (n_classes,))
        self.v = np.full(shape, np.nan)
        self.ancestor = np.full(shape, -1, dtype=np.intp)
        self.depth = np.full(shape, -1, dtype=np.intp)
        self._pos = None

    @property
    def pos(self):
        """Weighted count of the chosen class in each best region (kept until an offer)."""
        if self._pos is None:
            k = np.maximum(self.k, 0)[..., None]
            self._pos = np.take_along_axis(self.counts, k, axis=-1)[..., 0]
        return self._pos

    def offer(self, leaves, a, side, found: Candidates, ancestor, depth):
        """Keep each candidate in ``found`` that is better than the best so far."""
        lap, total, k, counts, v = found.laplace, found.total, found.k, found.counts, found.cut
        self._pos = None
        old_lap = self.lap[leaves, a, side]
        old_total = self.total[leaves, a, side]
        better = (lap > old_lap) | (
            (lap == old_lap)
            & ((total > old_total) | ((total == old_total) & (depth > self.depth[leaves, a, side])))
        )
        if not better.any():
            return
        idx = (leaves[better], a[better], side)
        self.lap[idx] = lap[better]
        self.total[idx] = total[better]
        self.k[idx] = k[better]
        self.counts[idx] = counts[better]
        self.v[idx] = v[better]
        self.ancestor[idx] = ancestor
        self.depth[idx] = depth


def search_node(best, node, depth, rows, data, leaves, facts, features, climb=None):
    """Offer every leaf below ``node`` its best "≤" and ">" cut at this ancestor.

    The node's rows are sorted once per attribute and turned into cumulative
    class counts. For "≤" cuts, leaves whose region starts at the same row
    (same attribute, same ``lowerlim``) share one running maximum over the
    candidate cuts, which grow the region upwards; for ">" cuts, leaves with
    the same ``upperlim`` share one running maximum over cuts moving
    downwards. All such segments of all attributes are evaluated in one
    vectorised pass, so each leaf costs O(1) after O(rows · attributes ·
    classes) work per ancestor. Only the attributes in ``features`` are searched.
    ``leaves`` are positions in ``facts`` (a `Leaves`). ``climb``, when given, is
    told every candidate this ancestor offers (`ternary.graft.graft_trace`).
    """
    X, y, w, K = data.X, data.y, data.ws, data.n_classes
    low, up, min_c, max_c = facts.low, facts.up, facts.min_c, facts.max_c
    m, F = rows.size, features.size
    Xn = X[np.ix_(rows, features)]
    order = np.argsort(Xn, axis=0, kind="stable")
    vals = np.take_along_axis(Xn, order, axis=0)  # (m, F), each column ascending
    run_end = np.ones((m, F), dtype=bool)  # last row of a run of equal values
    run_end[:-1] = vals[1:] != vals[:-1]
    onehot = np.zeros((m, K))
    onehot[np.arange(m), y[rows]] = w[rows]
    cum = np.zeros((m + 1, F, K))  # cum[p, a]: class counts of the p lowest rows on a
    cum[1:] = np.cumsum(onehot[order], axis=0)

    n_leaves = leaves.size
    j0 = np.empty((n_leaves, F), dtype=np.intp)  # first row with x_a > lowerlim
    j1 = np.empty_like(j0)  # first row with x_a ≥ min(min_c, upperlim)
    jh = np.empty_like(j0)  # first row with x_a > upperlim
    jl = np.empty_like(j0)  # first row with x_a ≥ max_c and x_a > lowerlim
    for j, a in enumerate(features):
        col = vals[:, j]
        lo, hi = low[leaves, a], up[leaves, a]
        j0[:, j] = np.searchsorted(col, lo, side="right")
        j1[:, j] = np.searchsorted(col, np.minimum(min_c[leaves, a], hi), side="left")
        jh[:, j] = np.searchsorted(col, hi, side="right")
        jl[:, j] = np.maximum(np.searchsorted(col, max_c[leaves, a], side="left"), j0[:, j])
    sorted_rows = SortedRows(m, cum, run_end, vals, features)
    column = np.broadcast_to(np.arange(F), (n_leaves, F))  # position in ``features``
    leaf_of = np.broadcast_to(leaves[:, None], (n_leaves, F))

    # "≤": candidate rows p in [j0, j1) ending a run; region rows j0..p
    ok = j1 > j0
    if ok.any():
        segments = Segments(leaf_of[ok], column[ok], j0[ok], j1[ok] - 1 - j0[ok])
        _offer_segments(best, LE, node, depth, segments, sorted_rows, climb)
    # ">": candidate rows p in [jl, jh − 2] ending a run; region rows p+1..jh−1 (non-empty)
    ok = jh - 1 > jl
    if ok.any():
        segments = Segments(leaf_of[ok], column[ok], jh[ok], jh[ok] - 2 - jl[ok])
        _offer_segments(best, GT, node, depth, segments, sorted_rows, climb)


def _offer_segments(
    best, side, node, depth, segments: Segments, sorted_rows: SortedRows, climb=None
):
    """Evaluate the candidate segments of one side and offer each leaf its best cut.

    ``climb.add`` (when given) sees every candidate cut of every (leaf, attribute)
    before the offer: the same numbers the offer is made from.
    """
    leaves, column, anchor, last = segments
    m, cum, run_end, vals, features = sorted_rows
    key = column * (m + 1) + anchor
    groups, pair_group = np.unique(key, return_inverse=True)
    length = np.zeros(groups.size, dtype=np.intp)
    np.maximum.at(length, pair_group, last + 1)
    start = np.concatenate(([0], np.cumsum(length)[:-1]))
    segment = np.repeat(np.arange(groups.size), length)
    r = np.arange(segment.size) - start[segment]
    a = groups[segment] // (m + 1)
    base = groups[segment] % (m + 1)
    if side == LE:
        p = base + r
        region = cum[p + 1, a] - cum[base, a]
    else:
        p = base - 2 - r
        region = cum[base, a] - cum[p + 1, a]
    valid = run_end[p, a]
    lap, total, k, arg = _segmented_best(region, segment, valid)
    b = arg[start[pair_group] + last]
    keep = valid[b]
    if climb is not None:
        scanned = Candidates(lap, total, k, region, vals[p, a])
        climb.add(side, node, leaves, features[column], start[pair_group], last, b, valid, scanned)
    if not keep.all():
        leaves, column, b = leaves[keep], column[keep], b[keep]
    found = Candidates(lap[b], total[b], k[b], region[b], vals[p[b], a[b]])
    best.offer(leaves, features[column], side, found, node, depth)


@dataclass
class Cases:
    """The training rows as grafting sees them: which rows reach which node.

    ``ws`` are the weights rescaled to average 1 over the rows of positive weight
    (so unit weights give plain counts); ``w`` are the weights as given.
    """

    X: np.ndarray
    y: np.ndarray
    w: np.ndarray
    ws: np.ndarray
    reached: dict
    parent: np.ndarray
    n_classes: int
    criterion: str  # of the impurity stored at new nodes

    @classmethod
    def of(cls, tree, X, y, w, criterion):
        keep = np.flatnonzero(w > 0)
        ws = np.zeros_like(w)
        ws[keep] = w[keep] * (keep.size / w[keep].sum())
        reached = {node: keep[idx] for node, idx in iter_node_rows(tree, X[keep])}
        return cls(X, y, w, ws, reached, tree.parents(), tree.n_classes, criterion)

    def cases(self, node):
        """``cases(n)``: the rows reaching ``node``, or its parent's when it has none."""
        rows = self.reached[node]
        if rows.size == 0 and self.parent[node] != LEAF:
            rows = self.reached[int(self.parent[node])]
        return rows


@dataclass
class Leaves:
    """Per graftable leaf: id, class ``c``, its Laplace, bounds and class-c value range."""

    ids: list
    cls: np.ndarray
    laplace: np.ndarray
    low: np.ndarray
    up: np.ndarray
    min_c: np.ndarray
    max_c: np.ndarray


def leaf_facts(tree, data):
    """The `Leaves` of every leaf that has an ancestor and cases; None if none does."""
    K, F = data.n_classes, data.X.shape[1]
    bounds_low, bounds_up = node_bounds(tree, F)
    facts = {key: [] for key in ("ids", "cls", "laplace", "low", "up", "min_c", "max_c")}
    for leaf in tree.preorder():
        if tree.children_left[leaf] != LEAF or data.parent[leaf] == LEAF:
            continue  # a lone root has no ancestor to draw evidence from
        rows = data.cases(leaf)
        if rows.size == 0:
            continue
        counts = np.bincount(data.y[rows], weights=data.ws[rows], minlength=K)
        c = int(np.argmax(counts))
        xc = data.X[rows[data.y[rows] == c]]
        for key, value in (
            ("ids", leaf),
            ("cls", c),
            ("laplace", laplace(counts[c], counts.sum())),
            ("low", bounds_low[leaf]),
            ("up", bounds_up[leaf]),
            ("min_c", xc.min(axis=0)),
            ("max_c", xc.max(axis=0)),
        ):
            facts[key].append(value)
    if not facts["ids"]:
        return None
    ids = facts.pop("ids")
    return Leaves(ids=ids, **{key: np.array(value) for key, value in facts.items()})


def find_cuts(tree, data, leaves, features, climb=None):
    """Step 1: every leaf's best "≤" and ">" tuple per attribute, over all its ancestors.

    ``climb`` (optional) is passed on to `search_node`.
    """
    below = {}  # the leaves (positions in ``leaves``) each ancestor serves
    for i, leaf in enumerate(leaves.ids):
        node = int(data.parent[leaf])
        while node != LEAF:
            below.setdefault(node, []).append(i)
            node = int(data.parent[node])
    depth = tree.node_depth()
    best = Best(len(leaves.ids), data.X.shape[1], data.n_classes)
    for node in tree.preorder():
        if node not in below:
            continue
        rows = data.cases(node)
        if rows.size:
            leaf_idx = np.array(below[node], dtype=np.intp)
            search_node(best, node, int(depth[node]), rows, data, leaf_idx, leaves, features, climb)
    return best
