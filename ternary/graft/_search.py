"""Decision tree grafting (Webb 1997, C4.5+), on a fitted binary `TernaryTree`.

Grafting adds splits and leaves to a grown (and possibly pruned) tree. For
every leaf ``l`` it climbs from ``l``'s parent to the root and, at each
ancestor ``n``, looks at cuts that ``n`` could have made on a continuous
attribute inside ``l``'s region. A cut whose region would be labelled with a
class ``k`` with a clearly better Laplace accuracy estimate than ``l`` itself
becomes a new split above ``l``, with a new leaf of class ``k`` on one side
and ``l`` on the other. Evidence therefore comes from *outside* the leaf
(non-local), which is why grafting complements pruning.

Algorithm (the issue's reading of Webb's Appendix A)
----------------------------------------------------
Notation: ``cases(n)`` is the training rows reaching ``n``, or those reaching
``n``'s parent when ``n`` has none. ``c`` is the majority class of
``cases(l)``. ``lowerlim(l, a)``/``upperlim(l, a)`` are the tightest bounds
on attribute ``a`` that ``l``'s ancestors impose (``−∞``/``+∞`` when none):
``l`` holds exactly the points with ``lowerlim < x_a ≤ upperlim`` on every
``a``. ``Laplace(X, k) = (count of k in X + 1) / (|X| + 2)`` (`laplace`);
``prob(x, n, p) = P(Bin(n, p) ≥ x)`` (`binomial_tail`).

1. For every attribute ``a``, over all ancestors ``n`` of ``l``, all values
   ``v`` of ``a`` among ``cases(n)`` and all classes ``k``, keep the
   ``(n, v, k)`` with the highest Laplace of its region, separately for

   * a "≤" cut, ``lowerlim(l,a) < v < min{x_a : x ∈ cases(l), class c}``,
     region ``{x ∈ cases(n) : lowerlim(l,a) < x_a ≤ v}``;
   * a ">" cut, ``max{x_a : x ∈ cases(l), class c} ≤ v < upperlim(l,a)``,
     region ``{x ∈ cases(n) : v < x_a ≤ upperlim(l,a)}``.

   So there are at most two candidate tuples per attribute, and a cut never
   moves a training row that ``l`` classifies correctly.
2. Drop tuples with Laplace ``≤ Laplace(cases(l), c)`` and those with
   ``prob(P, T, Laplace(cases(l), c)) ≥ alpha``, ``T``/``P`` the region's size
   and its count of class ``k``.
3. Sort by Laplace, highest first; delete trailing tuples of class ``c``
   (they would change no prediction).
4. In that order, replace ``l`` by a split on ``a`` at ``v`` whose "≤" (or
   ">") branch is a new leaf of class ``k`` and whose other branch is ``l``.
   With ``mode="one"`` only the best tuple left after step 2 is used (then
   step 3 still deletes it when its class is ``c``), as Webb's "One" variant.

Readings and choices pinned here
--------------------------------
* **Region on one attribute only.** A candidate region is restricted to
  ``l``'s hyper-rectangle on the cut attribute ``a`` only; on every other
  attribute it spans all of ``cases(n)``. This is the paper's definition and
  the source of grafting's non-local evidence.
* **Cut values** are observed values ``v`` of ``a`` (the paper's
  ``v = value(a, x)``), not midpoints as in Weka's J48graft; the new split
  tests ``x_a ≤ v``. A ">" candidate whose region is empty is skipped (it has
  no evidence and the binomial test could never accept it). Every cut lies
  strictly inside ``(lowerlim(l,a), upperlim(l,a))``, so every new partition
  has positive volume on both sides, as the paper requires.
* **Strict bounds.** "≤" cuts need ``v < min`` of the class-``c`` values
  (Weka notes the appendix's ``≤`` there is a typo: ``v = min`` would move a
  correctly classified row); ">" cuts allow ``v = max``.
* **Ties in Laplace** are broken deterministically: the larger region weight
  ``T`` (more evidence) wins, then the ancestor nearest ``l`` (the paper's
  example picks the parent when parent and root give the same region), then
  the smaller class code. When sorting the tuples of one leaf (step 3), ties
  in Laplace go to the larger ``T``, then the smaller attribute index, then
  "≤" before ">".
* **Nesting.** Step 4 makes the grafts of one leaf a chain: the first
  (best) split replaces ``l`` in its parent, the next replaces ``l`` below
  the first, and so on. Each tuple's evidence was computed for ``l``'s whole
  region, independently of the others; after nesting, a later graft acts only
  on the part of its region that earlier grafts did not take. A tuple of
  class ``c`` kept in the middle of the list therefore shields its region
  from later, weaker grafts.
* **Empty leaves** (no training row with positive weight) use their
  parent's rows for ``cases(l)``, ``c`` and the min/max class-``c`` values,
  per the definition; a leaf whose parent is empty too is left alone.
* **Weights.** Rows with zero weight are ignored everywhere. The other
  weights are rescaled to average 1, so with unit weights all counts are
  plain counts (and ``prob`` is the exact binomial tail); with
  ``class_weight`` or ``sample_weight`` the counts are weighted, ``c`` is the
  weighted majority (the class the tree predicts at ``l`` when it was grown
  with the same weights), and `binomial_tail` uses the continuous
  (regularised incomplete beta) extension for fractional counts.
* **Only binary trees.** Every attribute is treated as continuous (all
  features here are numeric); hard-middle trees are rejected, since their
  middle branches change the training partition the evidence is drawn from.

What the returned tree holds
----------------------------
New nodes are appended at the end of the arrays (``grafted`` is True exactly
on them). A new split's ``children_left`` is its "≤" branch and
``children_right`` its ">" branch. A grafted leaf's ``value`` is the class
distribution of its evidence region (so `predict_proba` stays meaningful;
its majority is ``k``), its ``n_node_samples`` the training rows that reach
it in the new tree (possibly 0). A grafted split's ``value`` is the
distribution of the training rows reaching it (``l``'s value when there are
none) and its δ comes from the tree's δ method (``delta_params``), computed
on the evidence ancestor's rows with ``lowerlim(l,a) < x_a ≤ upperlim(l,a)``
and θ = ``v`` (δ = 0 with ``delta_method="none"`` or no ``delta_params``).
The original leaf keeps its ``value`` and impurity, so predictions outside
every new region are unchanged; its sample counts are updated to the rows
that still reach it, so counts add up along every path.

One discrepancy with the paper: in its worked example (§3) the graft
``B ≤ 3`` on the leaf ``A ≤ 2`` (9 of 9 rows of class o against a leaf
Laplace of 5/6) is said to pass the binomial test at 0.05, but
``P(Bin(9, 5/6) ≥ 9) = (5/6)^9 ≈ 0.194``. We follow the test as stated; at
``alpha=0.05`` that graft is rejected (it is accepted from ``alpha ≈ 0.2``).
The example's other two grafts (``(5/7)^10 ≈ 0.035`` and
``(5/7)^9 ≈ 0.048``) pass, as the paper says.

References
----------
G. I. Webb (1997). Decision Tree Grafting. IJCAI-97, pp. 846–850.

Examples
--------
>>> import numpy as np
>>> from ternary import TernaryTreeClassifier
>>> rng = np.random.RandomState(0)
>>> X = rng.uniform(size=(300, 2))
>>> y = (X[:, 0] + 0.3 * rng.normal(size=300) > 0.5).astype(int)
>>> clf = TernaryTreeClassifier(delta_method="none", max_depth=3, graft="all",
...                             random_state=0).fit(X, y)
>>> list(clf.graft_report_.columns[:4])
['leaf', 'ancestor', 'feature', 'feature_name']
>>> bool(clf.tree_.grafted.sum() == 2 * len(clf.graft_report_))
True
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import special, stats
from sklearn.utils.validation import check_random_state

from ternary._tree import LEAF, TernaryTree, TreeBuilder, iter_node_rows
from ternary.delta import DeltaParams, NodeRows, node_delta

__all__ = ["GRAFT_REPORT_COLUMNS", "binomial_tail", "graft_tree", "laplace", "leaf_bounds"]

#: Columns of the graft report, in order (one row per graft).
GRAFT_REPORT_COLUMNS = (
    "leaf",
    "ancestor",
    "feature",
    "feature_name",
    "cut",
    "side",
    "class",
    "laplace_cut",
    "laplace_leaf",
    "p_value",
    "new_split",
    "new_leaf",
    "n_region",
    "n_class",
)

_LE, _GT = 0, 1  # side codes
_SIDE_NAME = ("<=", ">")


# --------------------------------------------------------------------------- building blocks


def laplace(count_k: ArrayLike, total: ArrayLike) -> float | np.ndarray:
    """Laplace accuracy estimate ``(count_k + 1) / (total + 2)`` (Niblett & Bratko 1986).

    The binary form Webb uses: the estimate that a region labelled with class
    ``k`` classifies a new case correctly, given ``count_k`` of its ``total``
    training cases are of class ``k``.

    Parameters
    ----------
    count_k, total : float or array-like, ``0 ≤ count_k ≤ total``

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> laplace(9, 9)  # 10/11
    0.9090909090909091
    """
    count_k = np.asarray(count_k, dtype=np.float64)
    total = np.asarray(total, dtype=np.float64)
    out = (count_k + 1.0) / (total + 2.0)
    return float(out) if out.ndim == 0 else out


def binomial_tail(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> float | np.ndarray:
    """``P(Bin(n, p) ≥ x)``: Webb's ``prob(x, n, p)``.

    For whole ``x`` and ``n`` this is ``scipy.stats.binom.sf(x − 1, n, p)``.
    Fractional counts (weighted rows) use its continuous extension, the
    regularised incomplete beta ``I_p(x, n − x + 1)``, which agrees with the
    binomial tail at every whole ``x``. ``x ≤ 0`` gives 1.

    Parameters
    ----------
    x, n : float or array-like, ``x ≤ n``
    p : float or array-like in [0, 1]

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(binomial_tail(9, 9, 5 / 6), 4)  # (5/6)**9
    0.1938
    """
    x, n, p = np.broadcast_arrays(
        np.asarray(x, dtype=np.float64),
        np.asarray(n, dtype=np.float64),
        np.asarray(p, dtype=np.float64),
    )
    out = np.ones(x.shape)
    positive = x > 0
    whole = positive & (x == np.round(x)) & (n == np.round(n))
    if whole.any():
        out[whole] = stats.binom.sf(x[whole] - 1, n[whole], p[whole])
    frac = positive & ~whole
    if frac.any():
        out[frac] = special.betainc(x[frac], np.maximum(n[frac] - x[frac], 0.0) + 1.0, p[frac])
    return float(out) if out.ndim == 0 else out


def leaf_bounds(
    tree: TernaryTree, leaf: int, n_features: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``lowerlim(leaf, a)`` and ``upperlim(leaf, a)`` for every attribute ``a``.

    The tightest bounds the ancestors of ``leaf`` impose: a left branch
    (``x_a ≤ θ``) caps ``upperlim`` at θ, a right branch raises ``lowerlim``
    to θ. The node holds the points with ``lowerlim < x_a ≤ upperlim``.

    Parameters
    ----------
    tree : TernaryTree, a binary tree (no middle children on the path)
    leaf : int, any node id (usually a leaf)
    n_features : int, optional; defaults to one more than the largest split feature

    Returns
    -------
    lowerlim, upperlim : ndarray of shape (n_features,), ``−inf``/``+inf`` where unbounded
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


def _node_bounds(tree: TernaryTree, n_features: int):
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


def _empty_report() -> pd.DataFrame:
    dtypes = dict.fromkeys(GRAFT_REPORT_COLUMNS, "float64")
    dtypes.update(dict.fromkeys(("leaf", "ancestor", "feature", "class"), "int64"))
    dtypes.update(dict.fromkeys(("new_split", "new_leaf"), "int64"))
    dtypes.update(dict.fromkeys(("feature_name", "side"), "object"))
    return pd.DataFrame({name: pd.Series(dtype=dtypes[name]) for name in GRAFT_REPORT_COLUMNS})


# --------------------------------------------------------------------------- candidate search


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


class _Best:
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

    def offer(self, leaves, a, side, found, ancestor, depth):
        """Keep each candidate ``found = (lap, total, k, counts, v)`` better than the best."""
        lap, total, k, counts, v = found
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


def _search_node(best, node, depth, rows, data, leaves, facts, features):
    """Offer every leaf below ``node`` its best "≤" and ">" cut at this ancestor.

    The node's rows are sorted once per attribute and turned into cumulative
    class counts. For "≤" cuts, leaves whose region starts at the same row
    (same attribute, same ``lowerlim``) share one running maximum over the
    candidate cuts, which grow the region upwards; for ">" cuts, leaves with
    the same ``upperlim`` share one running maximum over cuts moving
    downwards. All such segments of all attributes are evaluated in one
    vectorised pass, so each leaf costs O(1) after O(rows · attributes ·
    classes) work per ancestor. Only the attributes in ``features`` are searched.
    ``leaves`` are positions in ``facts`` (a `_Leaves`).
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
    sorted_rows = (m, cum, run_end, vals, features)
    column = np.broadcast_to(np.arange(F), (n_leaves, F))  # position in ``features``
    leaf_of = np.broadcast_to(leaves[:, None], (n_leaves, F))

    # "≤": candidate rows p in [j0, j1) ending a run; region rows j0..p
    ok = j1 > j0
    if ok.any():
        segments = (leaf_of[ok], column[ok], j0[ok], j1[ok] - 1 - j0[ok])
        _offer_segments(best, _LE, node, depth, segments, sorted_rows)
    # ">": candidate rows p in [jl, jh − 2] ending a run; region rows p+1..jh−1 (non-empty)
    ok = jh - 1 > jl
    if ok.any():
        segments = (leaf_of[ok], column[ok], jh[ok], jh[ok] - 2 - jl[ok])
        _offer_segments(best, _GT, node, depth, segments, sorted_rows)


def _offer_segments(best, side, node, depth, segments, sorted_rows):
    """Evaluate the candidate segments of one side and offer each leaf its best cut.

    ``segments`` is ``(leaves, column, anchor, last)``: ``anchor`` is the fixed end
    of each (leaf, attribute) region (its first row for "≤", one past its last row
    for ">"); ``last`` is the number of candidates minus one, counted from the
    anchor outwards; ``column`` indexes ``features``. ``sorted_rows`` is
    ``(m, cum, run_end, vals, features)`` from `_search_node`.
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
    if side == _LE:
        p = base + r
        region = cum[p + 1, a] - cum[base, a]
    else:
        p = base - 2 - r
        region = cum[base, a] - cum[p + 1, a]
    valid = run_end[p, a]
    lap, total, k, arg = _segmented_best(region, segment, valid)
    b = arg[start[pair_group] + last]
    keep = valid[b]
    if not keep.all():
        leaves, column, b = leaves[keep], column[keep], b[keep]
    found = (lap[b], total[b], k[b], region[b], vals[p[b], a[b]])
    best.offer(leaves, features[column], side, found, node, depth)


# --------------------------------------------------------------------------- the graft


def _feature_indices(continuous_features, n_features):
    if continuous_features is None:
        return np.arange(n_features)
    sel = np.asarray(continuous_features)
    if sel.dtype == bool:
        if sel.shape != (n_features,):
            raise ValueError(
                f"continuous_features as a mask needs {n_features} entries; got shape {sel.shape}."
            )
        return np.flatnonzero(sel)
    sel = np.unique(sel.astype(np.intp).ravel())
    if sel.size and (sel[0] < 0 or sel[-1] >= n_features):
        raise ValueError(f"continuous_features indices must lie in 0..{n_features - 1}.")
    return sel


def _check_inputs(tree, X, y, mode, alpha, sample_weight):
    if not isinstance(mode, str) or mode not in ("none", "one", "all"):
        raise ValueError(f"mode={mode!r} is not supported; choose one of 'none', 'one', 'all'.")
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha (graft_alpha) must be a number in [0, 1]; got {alpha!r}.")
    if np.any(tree.children_middle != LEAF):
        raise ValueError(
            "graft_tree needs a binary tree: this one has middle (hard_middle) branches, which "
            "change the training partition the graft evidence is drawn from."
        )
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D; got shape {X.shape}.")
    y = np.asarray(y, dtype=np.intp)
    if y.shape != (X.shape[0],):
        raise ValueError(
            f"y_codes must have one class code per row of X ({X.shape[0]}); got shape {y.shape}."
        )
    if y.size and (y.min() < 0 or y.max() >= tree.n_classes):
        raise ValueError(f"y_codes must be class codes in 0..{tree.n_classes - 1}.")
    split = ~tree.is_leaf
    if split.any() and tree.feature[split].max() >= X.shape[1]:
        raise ValueError(
            f"the tree splits on feature {tree.feature[split].max()} but X has "
            f"{X.shape[1]} columns."
        )
    w = (
        np.ones(X.shape[0])
        if sample_weight is None
        else np.asarray(sample_weight, dtype=np.float64)
    )
    if w.shape != (X.shape[0],) or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must be finite, non-negative, one weight per row of X.")
    return X, y, w


def graft_tree(
    tree: TernaryTree,
    X: ArrayLike,
    y_codes: ArrayLike,
    mode: str = "all",
    alpha: float = 0.05,
    sample_weight: ArrayLike | None = None,
    delta_params: DeltaParams | None = None,
    random_state: int | np.random.RandomState | None = None,
    feature_names: Sequence[str] | None = None,
    *,
    continuous_features: ArrayLike | None = None,
) -> tuple[TernaryTree, pd.DataFrame]:
    """Graft new splits and leaves onto a fitted binary tree (Webb 1997, C4.5+).

    See the module docstring for the algorithm and every reading of the paper.
    The work follows its four steps: find every leaf's best cuts (`_find_cuts`),
    keep the significantly better ones (`_significant`), order and trim them per
    leaf (`_ordered_cuts`), and graft them (`_graft_leaf`).

    Parameters
    ----------
    tree : TernaryTree
        A binary tree (probabilistic or deferred routing); it is not modified.
    X : array-like of shape (n_samples, n_features)
        The training matrix the tree was grown on (float32 in the estimator).
    y_codes : array-like of int, shape (n_samples,)
        Class codes ``0..n_classes−1``.
    mode : {"all", "one", "none"}, default="all"
        "all" grafts every accepted cut per leaf, "one" at most the best one,
        "none" returns a copy.
    alpha : float in [0, 1], default=0.05
        Significance level of the binomial test; ``alpha=0`` grafts nothing.
    sample_weight : array-like of shape (n_samples,), optional
        The effective training weights; zero-weight rows are ignored.
    delta_params : ternary.delta.DeltaParams, optional
        How the new splits' δ is computed; None gives δ = 0.
    random_state : int, RandomState or None
        For δ methods that resample (node_bootstrap).
    feature_names : sequence of str, optional
        Used in the report; defaults to ``x0, x1, …``.
    continuous_features : array-like of bool (n_features,) or of int, optional
        The attributes grafting may cut on (Webb grafts on continuous attributes
        only); default all of them. Pass a mask to leave out, say, one-hot
        columns made from nominal attributes.

    Returns
    -------
    new_tree : TernaryTree
        A new tree, ``grafted`` True exactly on the added nodes.
    report : pandas.DataFrame
        One row per graft, columns `GRAFT_REPORT_COLUMNS`: the original
        ``leaf``, the evidence ``ancestor``, ``feature`` (index),
        ``feature_name``, ``cut`` (v), ``side`` ("<=" or ">"), ``class``
        (code k), ``laplace_cut``, ``laplace_leaf``, ``p_value``, the ids of
        ``new_split`` and ``new_leaf``, and the evidence region's weighted
        size ``n_region`` (T) and class-k count ``n_class`` (P). Rows come in
        leaf preorder, and within a leaf in grafting order (best first).
    """
    X, y, w = _check_inputs(tree, X, y_codes, mode, alpha, sample_weight)
    features = _feature_indices(continuous_features, X.shape[1])
    if mode == "none" or tree.node_count < 2 or not np.any(w > 0) or features.size == 0:
        return tree.copy(), _empty_report()
    data = _Cases.of(tree, X, y, w, "gini" if delta_params is None else delta_params.criterion)
    leaves = _leaf_facts(tree, data)
    if leaves is None:
        return tree.copy(), _empty_report()
    best = _find_cuts(tree, data, leaves, features)
    p_value, accepted = _significant(best, leaves.laplace, alpha)
    rng, builder, records = check_random_state(random_state), TreeBuilder(tree.n_classes, tree), []
    for i in np.flatnonzero(accepted.any(axis=(1, 2))):
        cuts = _ordered_cuts(best, i, accepted[i], mode, leaves)
        if cuts:
            records += _graft_leaf(builder, data, leaves, best, p_value, i, cuts, delta_params, rng)
    if not records:
        return tree.copy(), _empty_report()
    names = [f"x{a}" for a in range(X.shape[1])] if feature_names is None else feature_names
    for r in records:
        r["feature_name"] = str(names[r["feature"]])
    report = pd.DataFrame.from_records(records, columns=list(GRAFT_REPORT_COLUMNS))
    return builder.build(), report.astype(_empty_report().dtypes.to_dict())


@dataclass
class _Cases:
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
class _Leaves:
    """Per graftable leaf: id, class ``c``, its Laplace, bounds and class-c value range."""

    ids: list
    cls: np.ndarray
    laplace: np.ndarray
    low: np.ndarray
    up: np.ndarray
    min_c: np.ndarray
    max_c: np.ndarray


def _leaf_facts(tree, data):
    """The `_Leaves` of every leaf that has an ancestor and cases; None if none does."""
    K, F = data.n_classes, data.X.shape[1]
    bounds_low, bounds_up = _node_bounds(tree, F)
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
    return _Leaves(ids=ids, **{key: np.array(value) for key, value in facts.items()})


def _find_cuts(tree, data, leaves, features):
    """Step 1: every leaf's best "≤" and ">" tuple per attribute, over all its ancestors."""
    below = {}  # the leaves (positions in ``leaves``) each ancestor serves
    for i, leaf in enumerate(leaves.ids):
        node = int(data.parent[leaf])
        while node != LEAF:
            below.setdefault(node, []).append(i)
            node = int(data.parent[node])
    depth = tree.node_depth()
    best = _Best(len(leaves.ids), data.X.shape[1], data.n_classes)
    for node in tree.preorder():
        if node not in below:
            continue
        rows = data.cases(node)
        if rows.size:
            leaf_idx = np.array(below[node], dtype=np.intp)
            _search_node(best, node, int(depth[node]), rows, data, leaf_idx, leaves, features)
    return best


def _significant(best, leaf_laplace, alpha):
    """Step 2: every tuple's binomial p-value, and which tuples pass.

    A tuple passes when its Laplace beats its leaf's and its p-value is below ``alpha``.
    """
    p_value = np.ones_like(best.lap)
    found = best.lap > leaf_laplace[:, None, None]
    leaf_lap = np.broadcast_to(leaf_laplace[:, None, None], found.shape)
    p_value[found] = binomial_tail(best.pos[found], best.total[found], leaf_lap[found])
    return p_value, found & (p_value < alpha)


def _ordered_cuts(best, i, passed, mode, leaves):
    """Step 3: leaf ``i``'s accepted ``(attribute, side)`` tuples in grafting order.

    Highest Laplace first (ties: larger region, smaller attribute, "≤" first); with
    ``mode="one"`` only the first; trailing tuples of the leaf's own class dropped.
    """
    a_idx, s_idx = np.nonzero(passed)
    key = sorted(
        zip(-best.lap[i, a_idx, s_idx], -best.total[i, a_idx, s_idx], a_idx, s_idx, strict=True)
    )
    cuts = [(int(a), int(s)) for _, _, a, s in key]
    if mode == "one":
        cuts = cuts[:1]
    while cuts and best.k[i][cuts[-1]] == leaves.cls[i]:
        cuts.pop()  # they would change no prediction
    return cuts


def _graft_leaf(builder, data, leaves, best, p_value, i, cuts, delta_params, rng):
    """Step 4: chain leaf ``i``'s cuts above it, best first; one report record per graft."""
    leaf = leaves.ids[i]
    remaining = data.reached[leaf]
    slot = builder.slot_of(leaf)
    records = []
    for a, s in cuts:
        anc, v = int(best.ancestor[i, a, s]), float(best.v[i, a, s])
        delta = 0.0
        if delta_params is not None and delta_params.method != "none":
            # δ from the evidence ancestor's rows inside the leaf's range on the cut attribute
            evidence = data.cases(anc)
            xa = data.X[evidence, a]
            inside = (xa > leaves.low[i, a]) & (xa <= leaves.up[i, a])
            node_rows = NodeRows.from_arrays(
                xa[inside], data.y[evidence[inside]], data.w[evidence[inside]], v, data.n_classes
            )
            delta = node_delta(node_rows, delta_params, rng)
        x_rem = data.X[remaining, a]
        to_graft = x_rem <= v if s == _LE else x_rem > v
        split_id, new_leaf, slot = _add_graft(
            builder, data, slot, leaf, (a, v, s, delta), remaining, to_graft, best.counts[i, a, s]
        )
        remaining = remaining[~to_graft]
        records.append(
            {
                "leaf": int(leaf),
                "ancestor": anc,
                "feature": a,
                "cut": v,
                "side": _SIDE_NAME[s],
                "class": int(best.k[i, a, s]),
                "laplace_cut": float(best.lap[i, a, s]),
                "laplace_leaf": float(leaves.laplace[i]),
                "p_value": float(p_value[i, a, s]),
                "new_split": split_id,
                "new_leaf": new_leaf,
                "n_region": float(best.total[i, a, s]),
                "n_class": float(best.pos[i, a, s]),
            }
        )
    builder.set_samples(leaf, remaining.size, float(data.w[remaining].sum()))
    return records


def _add_graft(builder, data, slot, leaf, cut, split_rows, to_graft, graft_value):
    """Put a split in ``slot``, with a new leaf and ``leaf`` below it.

    ``cut`` is ``(feature, value, side, δ)``; the split tests ``x[feature] ≤ value``.
    ``split_rows`` reach the split, and those marked ``to_graft`` the new leaf.
    The new leaf takes the "≤" branch for a "≤" cut and the ">" branch otherwise.
    Returns the split's id, the new leaf's id and the slot now holding ``leaf``.
    """
    feature, cut, side, delta = cut
    y, w, graft_rows = data.y, data.w, split_rows[to_graft]
    split_counts = np.bincount(y[split_rows], weights=w[split_rows], minlength=data.n_classes)
    if split_counts.sum() <= 0:
        split_counts = builder.value_of(leaf)
    graft_counts = np.asarray(graft_value, dtype=np.float64)
    ids = [
        builder.add_node(
            counts,
            value=counts / counts.sum(),
            n_node_samples=rows.size,
            weighted_n_node_samples=float(w[rows].sum()),
            criterion=data.criterion,
            grafted=True,
        )
        for counts, rows in ((graft_counts, graft_rows), (split_counts, split_rows))
    ]
    new_leaf, split = ids  # the leaf first: node ids as grafting has always numbered them
    builder.set_split(split, feature, cut, delta)
    up, name = slot
    builder.set_child(up, name, split)
    le, gt = (new_leaf, leaf) if side == _LE else (leaf, new_leaf)
    builder.set_child(split, "children_left", le)
    builder.set_child(split, "children_right", gt)
    return split, new_leaf, (split, "children_right" if side == _LE else "children_left")
