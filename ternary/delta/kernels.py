"""Zones of every split of a grown binary tree in one compiled pass (numba, optional).

`margin_deltas_compiled` is the compiled twin of the vectorised margin δ
(`margin_deltas`): the same (row, split node) pairs of the training partition, the
same order (pairs grouped by node in their given order, then sorted stably by the
node's feature value, as ``np.lexsort((V, N))`` orders them), and the same
operations in the same order, so the same floats: weighted class counts of each
side summed in the segment's order, majority classes by first maximum, the half
gap, the nearest cross-class rows, the clamp to ``max_delta_fraction`` of the
node's value range. Where the numpy version sorts all pairs of the tree at once,
this one sorts each node's few rows, without the temporary arrays of a lexsort over
the whole partition: a forest member pays it once per tree.

numba is imported on first use, never by ``import ternary``; without it the
functions return None and the caller keeps numpy.
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["margin_deltas_compiled", "zone_kernels_available"]

_LOCK = threading.Lock()
_KERNELS: dict[str, object] = {}


def _margin_all(
    pair_rows, pair_nodes, feature, threshold, X, y, w, n_classes, max_delta_fraction, out
):
    """Write each split node's clamped margin δ into ``out`` (zeros elsewhere).

    Plain Python that numba compiles; a test runs it uncompiled too.
    """
    n_nodes = out.shape[0]
    for node in range(n_nodes):
        out[node] = 0.0
    # a stable counting sort of the pairs by node: each node's pairs keep their order
    count = np.zeros(n_nodes, dtype=np.intp)
    for i in range(pair_nodes.shape[0]):
        count[pair_nodes[i]] += 1
    start = np.zeros(n_nodes, dtype=np.intp)
    total = 0
    for node in range(n_nodes):
        start[node] = total
        total += count[node]
    fill = start.copy()
    order = np.empty(pair_nodes.shape[0], dtype=np.intp)
    for i in range(pair_nodes.shape[0]):
        order[fill[pair_nodes[i]]] = i
        fill[pair_nodes[i]] += 1
    side = np.zeros((2, n_classes))
    for node in range(n_nodes):
        m = count[node]
        if m < 2:
            continue
        f = feature[node]
        t = threshold[node]
        idx = order[start[node] : start[node] + m]
        values = np.empty(m)
        for j in range(m):
            values[j] = np.float64(X[pair_rows[idx[j]], f])
        by_value = np.argsort(values, kind="mergesort")
        rows = np.empty(m, dtype=np.intp)
        v = np.empty(m)
        for j in range(m):
            rows[j] = pair_rows[idx[by_value[j]]]
            v[j] = values[by_value[j]]
        n_left = 0
        for j in range(m):
            if v[j] <= t:
                n_left += 1
        if n_left == 0 or n_left == m:
            continue
        for k in range(n_classes):
            side[0, k] = 0.0
            side[1, k] = 0.0
        for j in range(m):
            r = rows[j]
            side[0 if v[j] <= t else 1, y[r]] += w[r]
        c_left = 0
        c_right = 0
        for k in range(1, n_classes):
            if side[0, k] > side[0, c_left]:
                c_left = k
            if side[1, k] > side[1, c_right]:
                c_right = k
        # rows <= θ come first in the sorted segment: [0, n_left) left, the rest right
        gap = min(t - v[n_left - 1], v[n_left] - t)
        raw = gap
        if c_left != c_right:
            a = np.nan
            for j in range(m):
                if v[j] > t and y[rows[j]] == c_left:
                    a = v[j] - t
                    break
            b = np.nan
            for j in range(m - 1, -1, -1):
                if v[j] <= t and y[rows[j]] == c_right:
                    b = t - v[j]
                    break
            if np.isnan(a):
                raw = b
            elif np.isnan(b):
                raw = a
            else:
                raw = min(a, b)
            if np.isnan(raw):
                raw = gap
        cap = max_delta_fraction * (v[m - 1] - v[0])
        out[node] = min(max(raw, 0.0), cap)


_SIGNATURES = {
    "margin": "void(intp[::1], intp[::1], intp[::1], float64[::1], float32[:, :], intp[::1], "
    "float64[::1], intp, float64, float64[::1])",
}
_FUNCTIONS = {"margin": _margin_all}


def _compile():
    try:
        import numba
    except Exception:  # noqa: BLE001 - numba missing or broken: numpy serves
        return None
    for cache in (True, False):
        try:
            return {
                name: numba.njit(_SIGNATURES[name], cache=cache, nogil=True)(function)
                for name, function in _FUNCTIONS.items()
            }
        except Exception:  # noqa: BLE001 - e.g. no writable cache directory: retry uncached
            continue
    return None


def _kernels():
    if "zones" not in _KERNELS:
        with _LOCK:
            if "zones" not in _KERNELS:
                _KERNELS["zones"] = _compile()
    return _KERNELS["zones"]


def zone_kernels_available() -> bool:
    """True when numba is importable and the zone kernels compiled."""
    return _kernels() is not None


def margin_deltas_compiled(
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
    *,
    compiled: bool = True,
):
    """Every split's clamped margin δ, as `margin_deltas` computes it, or None.

    The arguments are `margin_deltas`' (``X`` float32). None when numba is
    unavailable or the inputs fall outside the compiled signature (``compiled=True``);
    ``compiled=False`` runs the same code uncompiled, for tests.
    """
    out = np.zeros(int(n_nodes))
    args = (
        np.ascontiguousarray(pair_rows, dtype=np.intp),
        np.ascontiguousarray(pair_nodes, dtype=np.intp),
        np.ascontiguousarray(feature, dtype=np.intp),
        np.ascontiguousarray(threshold, dtype=np.float64),
        X,
        np.ascontiguousarray(y, dtype=np.intp),
        np.ascontiguousarray(w, dtype=np.float64),
        int(n_classes),
        float(max_delta_fraction),
        out,
    )
    if not compiled:
        _margin_all(*args)
        return out
    if X.dtype != np.float32:
        return None
    kernels = _kernels()
    if kernels is None:
        return None
    try:
        kernels["margin"](*args)
    except TypeError:  # input types the signature does not cover: numpy answers
        return None
    return out
