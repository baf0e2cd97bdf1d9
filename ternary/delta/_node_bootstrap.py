"""node_bootstrap: how unstable CART's threshold is under resampling (Smits 2026, §3.3).

Reading pinned here: B resamples (with replacement, size n) of the node's rows; for
each, CART's best threshold on the same feature; δ = population std of the thresholds.
δ = 0 when n < 10 or fewer than two resamples had a split with positive quality. A
resample is a count vector over the already sorted column, so nothing is re-sorted.
"""

from __future__ import annotations

import numpy as np

from ternary.delta._base import DeltaMethod, NodeRows
from ternary.tree import midpoint, split_proxy, split_qualities
from ternary.tree.kernels import bootstrap_best

__all__ = ["BOOTSTRAP_CHUNK_CELLS", "METHOD", "bootstrap_thresholds", "delta_node_bootstrap"]

#: Bootstrap draws are processed in chunks of at most this many (resample, value,
#: class) cells, so that a 1,000,000-row root node stays within a few hundred MB.
BOOTSTRAP_CHUNK_CELLS = 4_000_000


def bootstrap_thresholds(
    rows: NodeRows,
    criterion="gini",
    n_bootstraps=20,
    random_state=None,
    min_samples_leaf=1,
    *,
    compiled: bool = True,
    chunk_cells: int = BOOTSTRAP_CHUNK_CELLS,
) -> np.ndarray:
    """Find CART's best threshold on the node's column for each of B bootstrap resamples.

    Resamples without a split of positive quality contribute nothing, so the
    result may be shorter than B. Draws use ``random_state`` (a
    ``numpy.random.RandomState`` or a seed): resample ``i`` is the ``i``-th block of
    ``n`` draws of ``randint(0, n)`` from that stream, in chunks that do not change
    the stream. A resample is a count vector over the already sorted column (one
    sort serves all B), and its best split comes from one left-to-right cumulative
    scan: with numba, the compiled `ternary.tree.kernels.bootstrap_best` (``compiled=True``,
    the default), else the same scan as numpy array operations over all resamples
    of a chunk at once. Both give the same thresholds (equal proxy scores aside,
    where rounding may pick another of the tied best splits). ``chunk_cells`` bounds
    the (resample, value, class) cells drawn at once; the chunks never change the stream.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        The split criterion of Q.
    n_bootstraps : int, default=20
        The number of resamples B.
    random_state : int, RandomState or None, default=None
        The stream the resamples are drawn from; a RandomState is advanced in place.
    min_samples_leaf : int, default=1
        A resample's split must leave this many drawn rows on each side.
    compiled : bool, default=True
        False to use the numpy scan even when numba is available.
    chunk_cells : int, default=BOOTSTRAP_CHUNK_CELLS
        The most (resample, value, class) cells processed at once (memory, not results).

    Returns
    -------
    ndarray of float64, shape (n_found,)
        The best threshold of each resample that had a split of positive quality, in
        draw order, in the feature's units; ``n_found ≤ B``, and empty when the node has
        fewer than two rows or two distinct values.

    Examples
    --------
    >>> import numpy as np
    >>> from ternary.delta import NodeRows, bootstrap_thresholds
    >>> rows = NodeRows.from_arrays(
    ...     [8, 1, 7, 2, 6, 4],  # the node's values on its split feature
    ...     [1, 0, 0, 1, 1, 0],  # their classes
    ...     np.ones(6),  # their weights
    ...     threshold=5.0,
    ...     n_classes=2,
    ... )
    >>> bootstrap_thresholds(rows, n_bootstraps=5, random_state=0).tolist()
    [3.5, 1.5, 1.5, 1.5, 5.0]
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
    chunk = max(1, min(n_bootstraps, chunk_cells // max(1, n * K)))
    found = []
    done = 0
    while done < n_bootstraps:
        b = min(chunk, n_bootstraps - done)
        draws = rng.randint(0, n, size=(b, n))
        done += b
        result = None
        if compiled:
            result = bootstrap_best(draws, group, rows.y, rows.w, G, K, min_samples_leaf, criterion)
        if result is None:
            result = _bootstrap_best_numpy(rows, draws, group, G, criterion, min_samples_leaf)
        best, next_present, left, total = result
        # Q of every resample's best split at once, each row split_quality's to the bit
        keep = (best >= 0) & (split_qualities(left, total, criterion) > 0)
        for i in np.flatnonzero(keep):
            found.append(midpoint(group_values[best[i]], group_values[next_present[i]]))
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
    score = np.where(valid, split_proxy(left, total, criterion), -np.inf)
    best = np.argmax(score, axis=1)
    at = np.arange(b)
    ok = valid[at, best]
    return np.where(ok, best, -1), next_present[at, best], left[at, best], total


def delta_node_bootstrap(
    rows: NodeRows, criterion="gini", n_bootstraps=20, random_state=None, min_samples_leaf=1
) -> float:
    """Population std of the bootstrap thresholds: how unstable θ* is.

    Parameters
    ----------
    rows : NodeRows
        The training rows reaching the node, sorted on its split feature.
    criterion : {"gini", "entropy", "log_loss"}, default="gini"
        The split criterion of Q.
    n_bootstraps : int, default=20
        The number of resamples B.
    random_state : int, RandomState or None, default=None
        Seeds the resamples (see `bootstrap_thresholds`).
    min_samples_leaf : int, default=1
        Candidates must leave this many rows on each side.

    Returns
    -------
    float
        The raw δ (before the clamp and the scale), ≥ 0.
    """
    if rows.n < 10:
        return 0.0
    thresholds = bootstrap_thresholds(rows, criterion, n_bootstraps, random_state, min_samples_leaf)
    if thresholds.size < 2:
        return 0.0
    return float(np.std(thresholds))


METHOD = DeltaMethod(
    "node_bootstrap",
    lambda rows, params, random_state: delta_node_bootstrap(
        rows, params.criterion, params.n_bootstraps, random_state, params.min_samples_leaf
    ),
)
