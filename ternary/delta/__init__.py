"""The five ways to compute a node's uncertainty half-width δ (Smits 2026, §3.3).

Every method sees only the training rows that reach the node: their values on
the node's split feature ``c`` (sorted), their class codes, their weights, and
the threshold θ* CART chose. Each returns a raw, non-negative δ; `node_delta`
then clamps it to ``[0, max_delta_fraction · (max c − min c)]`` and multiplies
by ``delta_scale`` (in that order).

Readings of the paper pinned here (its extracted formulas are partly garbled):

* Split quality is CART's impurity decrease
  ``Q(θ) = imp(parent) − (w_L/W · imp(L) + w_R/W · imp(R))`` with weighted class
  counts, Gini or entropy (bits). Candidate thresholds are midpoints between
  consecutive distinct sorted values (computed as ``a/2 + b/2`` like
  scikit-learn), restricted to those leaving ``min_samples_leaf`` rows on each
  side, so the candidates are exactly the splits CART could have made.
* quality_plateau: θlo/θhi are the smallest/largest candidates with
  ``Q(θ) ≥ (1−ε)·Q(θ*)`` (not necessarily contiguous); δ = (θhi − θlo)/2, and
  0 when Q(θ*) ≤ 0 or there are fewer than 2 candidates.
* class_overlap: per class present, the band ``[P_q, P_(1−q)]`` of its values
  (numpy's linear percentile, unweighted), ``[min, max]`` with fewer than two
  rows; δ = half the widest positive overlap over all class pairs.
* gain_ratio: GR = Q(θ*)/H_split(θ*), H_split the binary entropy (bits) of the
  weighted left/right proportions; δ = α·range(c)/(1+GR), or α·range(c) when
  H_split = 0.
* node_bootstrap: B resamples (with replacement, size n) of the node's rows;
  for each, CART's best threshold on the same feature; δ = population std of
  the thresholds. δ = 0 when n < 10 or fewer than two resamples had a split
  with positive quality. A resample is a count vector over the already sorted
  column, so nothing is re-sorted.
* margin: c_L, c_R = majority classes (weighted counts; plain counts without
  sample weights) of the rows ≤ θ and > θ. If c_L = c_R, δ is the half-gap
  ``min(θ − max(left), min(right) − θ)``; otherwise the distance from θ to the
  nearest c_L row right of θ or nearest c_R row left of θ, whichever is
  closer; with no such rows, the half-gap again.

Rows with zero weight are treated as absent everywhere, so a zero weight and
a removed row give the same δ.

The zone is half-open, ``θ−δ < x ≤ θ+δ`` (the routing rule the issue pins:
``x ≤ θ−δ`` is decided left). Margin's δ is a distance to a training value, so a
zone edge can sit exactly on data: when the nearest cross-class row lies right
of θ, at ``θ+δ``, that row (and every row tied with it) is inside the zone and
flagged; when it lies left of θ, at ``θ−δ``, it is decided. On data with many
tied values (counts, one-hot columns) this choice moves whole groups of rows;
the paper's published flag rates on such sets (e.g. cnae-9) suggest its code
used a closed zone, which this library does not copy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "DeltaParams",
    "NodeRows",
    "bootstrap_thresholds",
    "class_bands",
    "compute_raw_delta",
    "delta_class_overlap",
    "delta_gain_ratio",
    "delta_margin",
    "delta_node_bootstrap",
    "delta_quality_plateau",
    "gain_ratio_parts",
    "impurity",
    "margin_deltas",
    "margin_support",
    "node_delta",
    "plateau_bounds",
    "quality_curve",
    "resolve_n_bootstraps",
    "widest_overlap",
]

#: Bootstrap draws are processed in chunks of at most this many (resample, value,
#: class) cells, so that a 1,000,000-row root node stays within a few hundred MB.
_BOOTSTRAP_CHUNK_CELLS = 4_000_000


@dataclass(frozen=True)
class NodeRows:
    """The training rows reaching one node, sorted on the split feature.

    Attributes
    ----------
    values : ndarray of float64, sorted ascending
    y : ndarray of int, class codes in ``range(n_classes)``
    w : ndarray of float64, positive weights
    threshold : float, the split threshold θ*
    n_classes : int
    """

    values: np.ndarray
    y: np.ndarray
    w: np.ndarray
    threshold: float
    n_classes: int

    @classmethod
    def from_arrays(cls, column, y, w, threshold, n_classes) -> NodeRows:
        """Drop zero-weight rows and sort (stably) by the column."""
        column = np.asarray(column, dtype=np.float64)
        y = np.asarray(y, dtype=np.intp)
        w = np.asarray(w, dtype=np.float64)
        keep = w > 0
        if not keep.all():
            column, y, w = column[keep], y[keep], w[keep]
        order = np.argsort(column, kind="stable")
        return cls(column[order], y[order], w[order], float(threshold), int(n_classes))

    @property
    def n(self) -> int:
        return self.values.shape[0]

    @property
    def split_index(self) -> int:
        """Number of rows with value ≤ θ (the left child's rows)."""
        return int(np.searchsorted(self.values, self.threshold, side="right"))

    @property
    def value_range(self) -> float:
        return float(self.values[-1] - self.values[0]) if self.n else 0.0


@dataclass(frozen=True)
class DeltaParams:
    """Everything a δ method needs besides the node's rows."""

    method: str = "margin"
    criterion: str = "gini"
    epsilon: float = 0.05
    alpha: float = 0.10
    q: float = 0.10
    n_bootstraps: int = 20
    min_samples_leaf: int = 1
    max_delta_fraction: float = 0.25
    delta_scale: float = 1.0


def resolve_n_bootstraps(n_bootstraps, n_train: int) -> int:
    """The paper's B: 20 below 2,000 training rows, 15 below 10,000, else 10."""
    if isinstance(n_bootstraps, str) and n_bootstraps == "auto":
        if n_train < 2000:
            return 20
        if n_train < 10000:
            return 15
        return 10
    return int(n_bootstraps)


# --------------------------------------------------------------------------- impurity


def impurity(counts: np.ndarray, criterion: str) -> np.ndarray:
    """Gini or entropy (bits) of weighted class counts along the last axis (0 for empty)."""
    total = counts.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / total[..., None]
        if criterion == "gini":
            imp = 1.0 - np.sum(p * p, axis=-1)
        else:  # entropy / log_loss, in bits like scikit-learn
            logp = np.where(p > 0, np.log2(np.where(p > 0, p, 1.0)), 0.0)
            imp = -np.sum(p * logp, axis=-1)
    return np.where(total > 0, imp, 0.0)


def _quality(left: np.ndarray, total: np.ndarray, criterion: str) -> np.ndarray:
    """Q for left class counts ``left`` (..., K) given the node's totals (K,)."""
    right = total - left
    w_total = total.sum()
    w_left = left.sum(axis=-1)
    w_right = right.sum(axis=-1)
    parent = impurity(total, criterion)
    return (
        parent
        - (w_left * impurity(left, criterion) + w_right * impurity(right, criterion)) / w_total
    )


def _split_proxy(left: np.ndarray, total: np.ndarray, criterion: str) -> np.ndarray:
    """A score with the same argmax over splits as Q, cheaper to evaluate.

    Q = imp(parent) − children's weighted impurity / W, and the children's term
    reduces to ``−Σ L²/w_L − Σ R²/w_R`` (Gini, up to constants) or
    ``w_L log w_L − Σ L log L + (same for R)`` (entropy), as scikit-learn's
    splitter uses too. ``left`` is (..., G, K); ``total`` is (..., K).
    """
    right = total[..., None, :] - left
    w_left = left.sum(axis=-1)
    w_right = right.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "gini":
            return (
                np.einsum("...k,...k->...", left, left) / w_left
                + np.einsum("...k,...k->...", right, right) / w_right
            )
        return (
            _xlogx(left).sum(axis=-1)
            + _xlogx(right).sum(axis=-1)
            - _xlogx(w_left)
            - _xlogx(w_right)
        )


def _xlogx(x):
    positive = x > 0
    return np.where(positive, x * np.log(np.where(positive, x, 1.0)), 0.0)


def _midpoint(a, b):
    # scikit-learn's formula; it avoids overflow and matches its thresholds bit for bit
    return a / 2.0 + b / 2.0


def quality_curve(rows: NodeRows, criterion: str = "gini", min_samples_leaf: int = 1):
    """Q(θ) over every candidate threshold of the node's column.

    Returns
    -------
    thresholds : ndarray, ascending candidate thresholds
    quality : ndarray, Q at each candidate
    left_fraction : ndarray, weighted share of the node's rows going left
    """
    v, n = rows.values, rows.n
    if n < 2:
        empty = np.empty(0)
        return empty, empty, empty
    pos = np.flatnonzero(v[:-1] != v[1:])  # split after row pos: left = rows[:pos+1]
    n_left = pos + 1
    pos = pos[(n_left >= min_samples_leaf) & (n - n_left >= min_samples_leaf)]
    if pos.size == 0:
        empty = np.empty(0)
        return empty, empty, empty
    K = rows.n_classes
    left = np.empty((pos.size, K))
    total = np.empty(K)
    for k in range(K):
        cum = np.cumsum(np.where(rows.y == k, rows.w, 0.0))
        left[:, k] = cum[pos]
        total[k] = cum[-1]
    quality = _quality(left, total, criterion)
    left_fraction = left.sum(axis=1) / total.sum()
    return _midpoint(v[pos], v[pos + 1]), quality, left_fraction


def _split_at_threshold(rows: NodeRows):
    """Weighted left/total class counts of the split at θ*."""
    s = rows.split_index
    K = rows.n_classes
    left = np.bincount(rows.y[:s], weights=rows.w[:s], minlength=K)
    total = np.bincount(rows.y, weights=rows.w, minlength=K)
    return left, total


# --------------------------------------------------------------------------- methods


def plateau_bounds(thresholds, quality, threshold, epsilon=0.05):
    """Q(θ*) and the plateau ``[θlo, θhi]`` of a quality curve.

    Q(θ*) is read at the candidate nearest θ*; θlo/θhi are the smallest/largest
    candidates with ``Q ≥ (1−ε)·Q(θ*)``. Returns ``(q_star, theta_lo, theta_hi)``:
    NaN without candidates, and ``None`` bounds when Q(θ*) ≤ 0.
    """
    if thresholds.size == 0:
        return float("nan"), None, None
    q_star = float(quality[np.argmin(np.abs(thresholds - threshold))])
    if q_star <= 0:
        return q_star, None, None
    on_plateau = thresholds[quality >= (1.0 - epsilon) * q_star]
    return q_star, float(on_plateau.min()), float(on_plateau.max())


def delta_quality_plateau(
    rows: NodeRows, criterion="gini", epsilon=0.05, min_samples_leaf=1
) -> float:
    """Half the span of candidate thresholds whose Q is within (1−ε) of Q(θ*)."""
    thresholds, quality, _ = quality_curve(rows, criterion, min_samples_leaf)
    if thresholds.size < 2:
        return 0.0
    _, low, high = plateau_bounds(thresholds, quality, rows.threshold, epsilon)
    return 0.0 if low is None else (high - low) / 2.0


def class_bands(rows: NodeRows, q=0.10):
    """Each present class's band ``[P_q, P_(1−q)]`` of the node's column.

    Returns ``(classes, lows, highs)``; a class with a single row has the
    degenerate band ``[v, v]``.
    """
    classes, lows, highs = [], [], []
    for k in np.unique(rows.y):
        vals = rows.values[rows.y == k]
        if vals.size >= 2:
            lo, hi = np.percentile(vals, [100.0 * q, 100.0 * (1.0 - q)])
        else:
            lo, hi = vals.min(), vals.max()
        classes.append(int(k))
        lows.append(float(lo))
        highs.append(float(hi))
    return np.array(classes, dtype=np.intp), np.array(lows), np.array(highs)


def widest_overlap(rows: NodeRows, q=0.10):
    """The pair of classes whose percentile bands overlap most, and that overlap.

    Returns ``(pair, low, high)``: ``pair`` the two class codes (smaller first) and
    ``[low, high]`` their common band, or ``(None, None, None)`` when fewer than two
    classes are present or no two bands overlap by a positive width.
    """
    classes, lows, highs = class_bands(rows, q)
    if classes.size < 2:
        return None, None, None
    low = np.maximum(lows[:, None], lows[None, :])
    high = np.minimum(highs[:, None], highs[None, :])
    width = high - low
    np.fill_diagonal(width, -np.inf)
    i, j = np.unravel_index(int(np.argmax(width)), width.shape)
    if width[i, j] <= 0:
        return None, None, None
    pair = (int(classes[min(i, j)]), int(classes[max(i, j)]))
    return pair, float(low[i, j]), float(high[i, j])


def delta_class_overlap(rows: NodeRows, q=0.10) -> float:
    """Half the widest positive overlap between two classes' percentile bands."""
    pair, low, high = widest_overlap(rows, q)
    return 0.0 if pair is None else (high - low) / 2.0


def gain_ratio_parts(rows: NodeRows, criterion="gini") -> dict:
    """The pieces of the gain ratio at θ*: Q, H_split (bits), GR and the left share.

    ``gain_ratio`` is NaN when H_split = 0 (every row on one side).
    """
    left, total = _split_at_threshold(rows)
    frac = float(left.sum() / total.sum()) if total.sum() > 0 else 0.0
    h_split = (
        0.0
        if frac <= 0.0 or frac >= 1.0
        else float(-(frac * np.log2(frac) + (1.0 - frac) * np.log2(1.0 - frac)))
    )
    gain = float(_quality(left, total, criterion))
    return {
        "quality": gain,
        "h_split": h_split,
        "gain_ratio": gain / h_split if h_split > 0 else float("nan"),
        "left_fraction": frac,
    }


def delta_gain_ratio(rows: NodeRows, criterion="gini", alpha=0.10) -> float:
    """α·range(c)/(1 + GR): a clear (high gain-ratio) split gets a narrow zone."""
    parts = gain_ratio_parts(rows, criterion)
    if parts["h_split"] <= 0.0:
        return float(alpha * rows.value_range)
    return float(alpha * rows.value_range / (1.0 + parts["gain_ratio"]))


def bootstrap_thresholds(
    rows: NodeRows,
    criterion="gini",
    n_bootstraps=20,
    random_state=None,
    min_samples_leaf=1,
    *,
    compiled: bool = True,
) -> np.ndarray:
    """CART's best threshold on this column for each of B bootstrap resamples.

    Resamples without a split of positive quality contribute nothing, so the
    result may be shorter than B. Draws use ``random_state`` (a
    ``numpy.random.RandomState`` or a seed): resample ``i`` is the ``i``-th block of
    ``n`` draws of ``randint(0, n)`` from that stream, in chunks that do not change
    the stream. A resample is a count vector over the already sorted column (one
    sort serves all B), and its best split comes from one left-to-right cumulative
    scan: with numba, the compiled `ternary._blend.bootstrap_best` (``compiled=True``,
    the default), else the same scan as numpy array operations over all resamples
    of a chunk at once. Both give the same thresholds (equal proxy scores aside,
    where rounding may pick another of the tied best splits).
    """
    rng = (
        random_state
        if isinstance(random_state, np.random.RandomState)
        else np.random.RandomState(random_state)
    )
    n, K = rows.n, rows.n_classes
    if n < 2 or n_bootstraps < 1:
        return np.empty(0)
    # distinct values and each sorted row's group
    starts = np.concatenate(([True], rows.values[1:] != rows.values[:-1]))
    group = np.cumsum(starts) - 1
    G = int(group[-1]) + 1
    group_values = rows.values[starts]
    if G < 2:
        return np.empty(0)
    chunk = max(1, min(n_bootstraps, _BOOTSTRAP_CHUNK_CELLS // max(1, n * K)))
    found = []
    done = 0
    while done < n_bootstraps:
        b = min(chunk, n_bootstraps - done)
        draws = rng.randint(0, n, size=(b, n))
        done += b
        result = None
        if compiled:
            from ternary._blend import bootstrap_best

            result = bootstrap_best(draws, group, rows.y, rows.w, G, K, min_samples_leaf, criterion)
        if result is None:
            result = _bootstrap_best_numpy(rows, draws, group, G, criterion, min_samples_leaf)
        best, next_present, left, total = result
        for i in range(b):
            g = best[i]
            if g < 0 or _quality(left[i], total[i], criterion) <= 0:
                continue
            found.append(_midpoint(group_values[g], group_values[next_present[i]]))
    return np.asarray(found, dtype=np.float64)


def _bootstrap_best_numpy(rows, draws, group, G, criterion, min_samples_leaf):
    """Each resample's best split position, all resamples at once in numpy arrays.

    Returns ``(best, next_present, left_at_best, total)`` like the compiled kernel:
    ``best == -1`` where a resample allows no split.
    """
    b, n = draws.shape
    K = rows.n_classes
    offsets = (np.arange(b) * G)[:, None]
    gkey = (offsets + group[draws]).ravel()
    counts = np.bincount(gkey, minlength=b * G).reshape(b, G)
    cw = np.bincount(
        gkey * K + rows.y[draws].ravel(), weights=rows.w[draws].ravel(), minlength=b * G * K
    ).reshape(b, G, K)
    left = np.cumsum(cw, axis=1)
    total = left[:, -1, :]
    n_left = np.cumsum(counts, axis=1)
    present = counts > 0
    # smallest present group strictly after each group
    idx = np.where(present, np.arange(G)[None, :], G)
    next_present = np.minimum.accumulate(idx[:, ::-1], axis=1)[:, ::-1]
    next_present = np.concatenate([next_present[:, 1:], np.full((b, 1), G)], axis=1)
    valid = (
        present
        & (next_present < G)
        & (n_left >= min_samples_leaf)
        & (n - n_left >= min_samples_leaf)
    )
    score = np.where(valid, _split_proxy(left, total, criterion), -np.inf)
    best = np.argmax(score, axis=1)
    at = np.arange(b)
    ok = valid[at, best]
    return np.where(ok, best, -1), next_present[at, best], left[at, best], total


def delta_node_bootstrap(
    rows: NodeRows, criterion="gini", n_bootstraps=20, random_state=None, min_samples_leaf=1
) -> float:
    """Population std of the bootstrap thresholds: how unstable θ* is."""
    if rows.n < 10:
        return 0.0
    thresholds = bootstrap_thresholds(rows, criterion, n_bootstraps, random_state, min_samples_leaf)
    if thresholds.size < 2:
        return 0.0
    return float(np.std(thresholds))


def margin_support(rows: NodeRows) -> dict:
    """The rows that define the margin δ at this node, for explanation.

    Returns a dict with the majority classes ``class_left``/``class_right``,
    the half-gap ``gap``, the nearest cross-class values ``nearest_left_class_right_of``
    (first c_L row right of θ) and ``nearest_right_class_left_of`` (last c_R row
    left of θ), None where absent, and the resulting ``delta``.
    """
    s, K, v, t = rows.split_index, rows.n_classes, rows.values, rows.threshold
    if s == 0 or s == rows.n:
        return {
            "class_left": None,
            "class_right": None,
            "gap": 0.0,
            "nearest_left_class_right_of": None,
            "nearest_right_class_left_of": None,
            "delta": 0.0,
        }
    c_left = int(np.argmax(np.bincount(rows.y[:s], weights=rows.w[:s], minlength=K)))
    c_right = int(np.argmax(np.bincount(rows.y[s:], weights=rows.w[s:], minlength=K)))
    gap = float(min(t - v[s - 1], v[s] - t))
    a = b = None
    if c_left != c_right:
        right_of = v[s:][rows.y[s:] == c_left]
        left_of = v[:s][rows.y[:s] == c_right]
        a = float(right_of[0]) if right_of.size else None
        b = float(left_of[-1]) if left_of.size else None
    distances = [
        d
        for d in ((a - t) if a is not None else None, (t - b) if b is not None else None)
        if d is not None
    ]
    delta = float(min(distances)) if distances else gap
    return {
        "class_left": c_left,
        "class_right": c_right,
        "gap": gap,
        "nearest_left_class_right_of": a,
        "nearest_right_class_left_of": b,
        "delta": delta,
    }


def delta_margin(rows: NodeRows) -> float:
    """Distance from θ* to the nearest cross-class row (the node's support vector)."""
    return margin_support(rows)["delta"]


def margin_deltas(
    pair_rows: np.ndarray,
    pair_nodes: np.ndarray,
    n_nodes: int,
    feature: np.ndarray,
    threshold: np.ndarray,
    X: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    max_delta_fraction: float,
) -> np.ndarray:
    """Every split's margin δ of a binary tree at once, clamped as `node_delta` clamps it.

    The same numbers as calling ``node_delta(NodeRows.from_arrays(...), margin)`` node
    by node, bit for bit, but from one pass over all (row, split node) pairs of the
    training partition (`ternary._tree.split_row_pairs`, given only the rows of
    positive weight, as `NodeRows` keeps only those): the pairs are sorted by node and
    then by the node's feature value (stably, so a node's rows keep the order
    `NodeRows` gives them), and each node's majority classes, gap and nearest
    cross-class rows are read off its sorted segment. A deep tree's thousands of nodes
    otherwise cost a Python call each. Nodes without pairs (leaves) get 0.
    """
    out = np.zeros(n_nodes)
    if not pair_rows.size:
        return out
    R, N = pair_rows, pair_nodes
    V = X[R, feature[N]].astype(np.float64)
    order = np.lexsort((V, N))
    R, N, V = R[order], N[order], V[order]
    Y, W = y[R].astype(np.intp), w[R].astype(np.float64)
    T = threshold[N]
    left = V <= T
    count = np.bincount(N, minlength=n_nodes)
    n_left = np.bincount(N[left], minlength=n_nodes)
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    nodes = np.flatnonzero((count >= 2) & (n_left > 0) & (n_left < count))
    if not nodes.size:
        return out
    # weighted class counts of each node's two sides, summed in the segment's order
    side_counts = np.bincount(
        (N * 2 + ~left) * n_classes + Y, weights=W, minlength=n_nodes * 2 * n_classes
    ).reshape(n_nodes, 2, n_classes)
    c_left = np.argmax(side_counts[:, 0], axis=1)
    c_right = np.argmax(side_counts[:, 1], axis=1)
    t = threshold[nodes]
    s = start[nodes] + n_left[nodes]
    gap = np.minimum(t - V[s - 1], V[s] - t)
    # first row right of θ of the left majority class, last row left of θ of the right one
    nearest_a = np.full(n_nodes, np.nan)
    hit = np.flatnonzero(~left & (Y == c_left[N]))
    first_nodes, first = np.unique(N[hit], return_index=True)
    nearest_a[first_nodes] = V[hit[first]] - threshold[first_nodes]
    nearest_b = np.full(n_nodes, np.nan)
    hit = np.flatnonzero(left & (Y == c_right[N]))[::-1]
    last_nodes, last = np.unique(N[hit], return_index=True)
    nearest_b[last_nodes] = threshold[last_nodes] - V[hit[last]]
    a, b = nearest_a[nodes], nearest_b[nodes]
    cross = c_left[nodes] != c_right[nodes]
    a = np.where(cross, a, np.nan)
    b = np.where(cross, b, np.nan)
    raw = np.where(np.isnan(a), b, np.where(np.isnan(b), a, np.minimum(a, b)))
    raw = np.where(np.isnan(raw), gap, raw)
    value_range = V[start[nodes] + count[nodes] - 1] - V[start[nodes]]
    out[nodes] = np.minimum(np.maximum(raw, 0.0), max_delta_fraction * value_range)
    return out


# --------------------------------------------------------------------------- dispatch


def compute_raw_delta(rows: NodeRows, params: DeltaParams, random_state=None) -> float:
    """δ of ``params.method`` before clamping and scaling."""
    method = params.method
    if method == "none" or rows.n < 2:
        return 0.0
    if method == "margin":
        return delta_margin(rows)
    if method == "quality_plateau":
        return delta_quality_plateau(
            rows, params.criterion, params.epsilon, params.min_samples_leaf
        )
    if method == "class_overlap":
        return delta_class_overlap(rows, params.q)
    if method == "gain_ratio":
        return delta_gain_ratio(rows, params.criterion, params.alpha)
    if method == "node_bootstrap":
        return delta_node_bootstrap(
            rows, params.criterion, params.n_bootstraps, random_state, params.min_samples_leaf
        )
    raise ValueError(f"Unknown delta_method {method!r}.")


def node_delta(rows: NodeRows, params: DeltaParams, random_state=None) -> float:
    """The node's final δ: raw δ clamped to the feature-range cap, then scaled."""
    raw = compute_raw_delta(rows, params, random_state)
    cap = params.max_delta_fraction * rows.value_range
    return float(min(max(raw, 0.0), cap) * params.delta_scale)
