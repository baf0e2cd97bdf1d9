"""Compiled kernels (numba, loaded on first use): prediction and the bootstrap scan.

Prediction of a binary-routing tree (`predict_binary`, called by
`ternary.tree.traverse`) is one compiled pass: each row follows CART's path and
stops at the first zone it meets (then it is boundary-uncertain); decided rows take
their leaf's distribution, and only the stopped rows are blended. The blend is the
hot loop. For trees of up to 64 leaves it runs over blocks of rows node by node
(`_blend_rows_dense`, the numpy `ternary.tree.blend_dense` in compiled form); for
bigger trees, per row over the branches it reaches (`_blend_rows`, the compiled
`ternary.tree.walk`). Weights, products (root down) and the order in which leaves
are added (left subtree first) follow those numpy functions, so the probabilities
agree with them to rounding (tests hold them within 1e-12).

`bootstrap_best` is node_bootstrap's scan: each resample's best threshold in one
left-to-right pass over the sorted column (see `ternary.delta.bootstrap_thresholds`).

numba is optional. It is imported the first time a kernel is needed, never by
``import ternary``; when it is missing or cannot compile, the functions here return
False/None and the callers use numpy, silently. Each kernel has one signature
(float32 rows of any memory layout), compiled once and cached on disk
(``cache=True``, through `ternary._jit`), so later processes only load it; call
`ternary.compiled.warm_up` at start-up to pay that before the first user interaction.
"""

from __future__ import annotations

import numpy as np

from ternary import _jit

__all__ = [
    "blend_into",
    "bootstrap_best",
    "kernel_available",
    "path_gaps",
    "predict_binary",
    "predict_middle",
    "predict_paired",
]


def _blend_rows(
    X, rows, starts, left, right, feature, threshold, delta, value, deferred, open_, groups, out
):
    """Blend ``out[r] ← Σ_leaves (path weight) · value[leaf]`` for each ``r`` in ``rows``.

    Row ``rows[i]`` starts at node ``starts[i]``: the root, or the first zone on its CART
    path, found by `_route_rows`. Above that zone every branch weight is CART's 1 or 0, so
    the walk from the root reaches it with weight exactly 1, not yet past a zone, and
    adds nothing elsewhere: starting there gives the same sums, bit for bit. The value
    columns form ``groups`` equal groups (two distributions side by side), each
    normalised by its own sum, so each group's blend is the one it would get alone.

    Branch weights as in `ternary.tree.walk`, which served trees of this size before:
    inside the zone ``θ−δ < x ≤ θ+δ`` (``< θ+δ`` with ``open_``),
    ``w_L = clip((θ+δ−x)/(2δ), 0, 1)``; outside it 1 or 0; CART's hard 0/1 where δ ≤ 0
    and, with ``deferred``, below the first zone met on the path. Written in plain Python
    so that numba can compile it and a test can run it uncompiled.
    """
    n_classes = value.shape[1]
    capacity = left.shape[0] + 1
    stack_node = np.empty(capacity, dtype=np.intp)
    stack_weight = np.empty(capacity, dtype=np.float64)
    stack_entered = np.empty(capacity, dtype=np.bool_)
    for i in range(rows.shape[0]):
        r = rows[i]
        for k in range(n_classes):
            out[r, k] = 0.0
        stack_node[0] = starts[i]
        stack_weight[0] = 1.0
        stack_entered[0] = False
        top = 1
        while top > 0:
            top -= 1
            node = stack_node[top]
            w = stack_weight[top]
            entered = stack_entered[top]
            if left[node] == -1:
                for k in range(n_classes):
                    out[r, k] += w * value[node, k]
                continue
            x = np.float64(X[r, feature[node]])
            t = threshold[node]
            d = delta[node]
            hard_left = 1.0 if x <= t else 0.0
            if d <= 0.0 or (deferred and entered):
                w_left = hard_left
                now_entered = entered
            else:
                # the reference walk's formula: outside the zone 1 or 0, inside the ramp
                lo = t - d
                hi = t + d
                now_entered = lo < x and (x < hi or (x == hi and not open_))
                if now_entered:
                    w_left = min(max((hi - x) / (2.0 * d), 0.0), 1.0)
                else:
                    w_left = 1.0 if x <= lo else 0.0
                now_entered = now_entered or entered
            w_right = 1.0 - w_left
            # right pushed first so the left subtree is summed first, as the numpy walks do
            if w_right > 0.0:
                stack_node[top] = right[node]
                stack_weight[top] = w * w_right
                stack_entered[top] = now_entered
                top += 1
            if w_left > 0.0:
                stack_node[top] = left[node]
                stack_weight[top] = w * w_left
                stack_entered[top] = now_entered
                top += 1
        width = n_classes // groups
        for h in range(groups):
            total = 0.0
            for k in range(h * width, (h + 1) * width):
                total += out[r, k]
            for k in range(h * width, (h + 1) * width):
                out[r, k] /= total


def _blend_rows_dense(
    X, rows, preorder, left, right, feature, threshold, delta, value, deferred, open_, groups, out
):
    """The same blend for small trees: every node's path weight over a block of rows.

    Nodes are visited in ``preorder`` (parents first, left subtree first), each
    passing ``W[child] = W[node] · factor`` to both children for the whole block.
    Each node picks its case (hard, soft, deferred) once, so the loops over rows
    carry no data-dependent branches and compile to tight, vectorisable code.
    """
    n_classes = value.shape[1]
    block = 512
    W = np.empty((left.shape[0], block), dtype=np.float64)
    E = np.zeros((left.shape[0], block), dtype=np.bool_)
    x = np.empty(block, dtype=np.float64)
    acc = np.empty((n_classes, block), dtype=np.float64)
    for start in range(0, rows.shape[0], block):
        m = min(block, rows.shape[0] - start)
        # explicit loops, not slice assignments: they compile several times faster
        for j in range(m):
            W[0, j] = 1.0
            E[0, j] = False
            for k in range(n_classes):
                acc[k, j] = 0.0
        for p in range(preorder.shape[0]):
            node = preorder[p]
            w = W[node]
            if left[node] == -1:
                for k in range(n_classes):
                    v = value[node, k]
                    if v != 0.0:
                        for j in range(m):
                            acc[k, j] += w[j] * v
                continue
            f = feature[node]
            for j in range(m):
                x[j] = X[rows[start + j], f]
            t = threshold[node]
            d = delta[node]
            inv_two_d = 0.5 / d if d > 0.0 else 0.0
            lo = t - d
            hi = t + d
            w_l = W[left[node]]
            w_r = W[right[node]]
            entered = E[node]
            if not (d > 0.0 and np.isfinite(inv_two_d)):
                for j in range(m):
                    factor = 1.0 if x[j] <= t else 0.0
                    w_l[j] = w[j] * factor
                    w_r[j] = w[j] * (1.0 - factor)
            elif not deferred:
                for j in range(m):
                    factor = min(max((hi - x[j]) * inv_two_d, 0.0), 1.0)
                    w_l[j] = w[j] * factor
                    w_r[j] = w[j] * (1.0 - factor)
            else:
                for j in range(m):
                    soft = min(max((hi - x[j]) * inv_two_d, 0.0), 1.0)
                    factor = (1.0 if x[j] <= t else 0.0) if entered[j] else soft
                    w_l[j] = w[j] * factor
                    w_r[j] = w[j] * (1.0 - factor)
            if deferred:
                e_l = E[left[node]]
                e_r = E[right[node]]
                for j in range(m):
                    now = entered[j] or (lo < x[j] and (x[j] < hi or (x[j] == hi and not open_)))
                    e_l[j] = now
                    e_r[j] = now
        width = n_classes // groups
        for j in range(m):
            r = rows[start + j]
            for h in range(groups):
                total = 0.0
                for k in range(h * width, (h + 1) * width):
                    total += acc[k, j]
                for k in range(h * width, (h + 1) * width):
                    out[r, k] = acc[k, j] / total


def _bootstrap_best(
    draws, group, y, w, n_groups, min_samples_leaf, gini, best, nxt, left_best, total
):
    """CART's best split on one sorted column for each bootstrap resample in ``draws``.

    ``draws[i]`` holds the row positions of resample ``i``; ``group`` maps a sorted row
    to its distinct value. Per resample the class weights per value are accumulated in
    draw order (as ``numpy.bincount`` does); one scan from left to right then keeps the
    running left counts (as ``numpy.cumsum`` does) and scores every split between two
    present values by the argmax-equivalent proxy of `ternary.tree.split_proxy`:
    ``Σ L²/w_L + Σ R²/w_R`` (Gini) or ``Σ L ln L + Σ R ln R − w_L ln w_L − w_R ln w_R``.
    Writes the best value index ``best[i]`` (−1 when no split is allowed; the first of
    equal scores wins, as with ``argmax``), the next present value ``nxt[i]``, the left
    class weights there and the resample's totals.
    """
    n_classes = left_best.shape[1]
    n = draws.shape[1]
    cw = np.zeros((n_groups, n_classes), dtype=np.float64)
    counts = np.zeros(n_groups, dtype=np.intp)
    left = np.empty(n_classes, dtype=np.float64)
    for i in range(draws.shape[0]):
        for g in range(n_groups):
            counts[g] = 0
            for k in range(n_classes):
                cw[g, k] = 0.0
        for j in range(n):
            row = draws[i, j]
            cw[group[row], y[row]] += w[row]
            counts[group[row]] += 1
        for k in range(n_classes):
            total[i, k] = 0.0
            left[k] = 0.0
        for g in range(n_groups):
            for k in range(n_classes):
                total[i, k] += cw[g, k]
        n_left = 0
        prev = -1
        best[i] = -1
        best_score = -np.inf
        for g in range(n_groups):
            if counts[g] == 0:
                continue
            if prev >= 0 and n_left >= min_samples_leaf and n - n_left >= min_samples_leaf:
                w_left = 0.0
                w_right = 0.0
                a = 0.0
                b = 0.0
                for k in range(n_classes):
                    r = total[i, k] - left[k]
                    w_left += left[k]
                    w_right += r
                    if gini:
                        a += left[k] * left[k]
                        b += r * r
                    else:
                        a += left[k] * np.log(left[k]) if left[k] > 0.0 else 0.0
                        b += r * np.log(r) if r > 0.0 else 0.0
                if gini:
                    score = a / w_left + b / w_right
                else:
                    score = a + b
                    score -= w_left * np.log(w_left) if w_left > 0.0 else 0.0
                    score -= w_right * np.log(w_right) if w_right > 0.0 else 0.0
                if score > best_score:
                    best_score = score
                    best[i] = prev
                    nxt[i] = g
                    for k in range(n_classes):
                        left_best[i, k] = left[k]
            for k in range(n_classes):
                left[k] += cw[g, k]
            n_left += counts[g]
            prev = g


#: Rows the route kernels walk in lockstep: their loads are independent, so the processor
#: overlaps them instead of waiting on each level's load before the next.
_LOCKSTEP = 8


def _route_rows(
    X, left, right, feature, threshold, delta, value, open_, out, verdict, uncertain, first
):
    """CART's path for every row, noting any zone on it; returns how many met one.

    A zone is ``θ−δ < x ≤ θ+δ``, or ``θ−δ < x < θ+δ`` with ``open_``.
    Writes ``verdict`` (1 = no zone on the path), the leaf distribution of decided
    rows into ``out`` (unnormalised, like scikit-learn's), and the ids of the other
    rows into ``uncertain[:count]``, in row order, with the first zone node on each one's
    path in ``first[:count]`` (where its blend starts). Off the zone ``x ≤ θ`` is the side the
    compiled router in `ternary.tree` takes (its ``x ≤ θ−δ`` / ``x > θ+δ`` tests agree
    there). The zone test is branch-free and the walk goes on to the leaf. Rows go in
    groups of `_LOCKSTEP`, each level taking one step of every row of the group that
    has not reached its leaf: a single row's walk waits at each level on the load the
    previous level chose, while the group's loads overlap.
    """
    count = 0
    n_classes = value.shape[1]
    n = X.shape[0]
    nodes = np.zeros(_LOCKSTEP, dtype=np.intp)
    inside = np.zeros(_LOCKSTEP, dtype=np.bool_)
    zone = np.zeros(_LOCKSTEP, dtype=np.intp)
    for start in range(0, n, _LOCKSTEP):
        m = min(_LOCKSTEP, n - start)
        for g in range(m):
            nodes[g] = 0
            inside[g] = False
        moving = True
        while moving:
            moving = False
            for g in range(m):
                node = nodes[g]
                if left[node] != -1:
                    x = np.float64(X[start + g, feature[node]])
                    t = threshold[node]
                    d = delta[node]
                    hi = t + d
                    here = (d > 0.0) & (t - d < x) & ((x < hi) | ((x == hi) & (not open_)))
                    zone[g] = node if here and not inside[g] else zone[g]
                    inside[g] |= here
                    nodes[g] = left[node] if x <= t else right[node]
                    moving = True
        for g in range(m):
            r = start + g
            if inside[g]:
                verdict[r] = 0
                uncertain[count] = r
                first[count] = zone[g]
                count += 1
            else:
                verdict[r] = 1
                node = nodes[g]
                for k in range(n_classes):
                    out[r, k] = value[node, k]
    return count


def _route_middle(X, left, right, middle, feature, threshold, delta, open_, leaf, verdict):
    """The hard-middle path of every row: its leaf, and whether it took a middle branch.

    At a split with δ > 0 and a middle child, ``x ≤ θ−δ`` goes left, the zone
    ``θ−δ < x ≤ θ+δ`` (``< θ+δ`` with ``open_``) to the middle child and the rest right;
    a split without a zone or without a middle child routes like CART, ``x ≤ θ``. A row
    is decided (``verdict`` 1) unless its path takes a middle branch, which is
    `ternary.tree.TernaryTree.reached_through_middle` of its leaf (the path is unique).
    """
    for r in range(X.shape[0]):
        node = 0
        decided = 1
        while left[node] != -1:
            x = np.float64(X[r, feature[node]])
            t = threshold[node]
            d = delta[node]
            if d > 0.0 and middle[node] != -1:
                hi = t + d
                if x <= t - d:
                    node = left[node]
                elif x < hi or (x == hi and not open_):
                    node = middle[node]
                    decided = 0
                else:
                    node = right[node]
            else:
                node = left[node] if x <= t else right[node]
        leaf[r] = node
        verdict[r] = decided


def _path_gaps(X, left, right, middle, feature, threshold, delta, scale, three_way, cap, gap):
    """Each row's smallest ``|x − θ| / scale[feature]`` on its path, capped at ``cap``.

    The path is CART's (``x ≤ θ`` left) or, with ``three_way``, hard-middle's as
    `ternary._confidence.path_gaps` takes it: at a node with a middle child ``x ≤ θ−δ``
    left, ``x > θ+δ`` right, the rest to the middle child. The same float64 operations
    as that numpy walk, so the same gaps bit for bit.
    """
    for r in range(X.shape[0]):
        node = 0
        g = cap
        while left[node] != -1:
            f = feature[node]
            x = np.float64(X[r, f])
            t = threshold[node]
            g = min(g, abs(x - t) / scale[f])
            if three_way and middle[node] != -1:
                d = delta[node]
                if x <= t - d:
                    node = left[node]
                elif x > t + d:
                    node = right[node]
                else:
                    node = middle[node]
            else:
                node = left[node] if x <= t else right[node]
        gap[r] = g


#: Up to this many leaves the block kernel (work ∝ rows × nodes) beats the per-row walk
#: (work ∝ the branches each row reaches); a depth-6 tree has 64.
MAX_DENSE_LEAVES = 64


def _kernels():
    """The compiled kernels by name, or None; compiled (or loaded from cache) once."""
    return _jit.kernels("blend")


# One signature per kernel. The rows X may have any memory layout ("[:, :]", numba's "A"),
# so a C-ordered array from numpy and an F-ordered one from a DataFrame share one compiled
# body: compiling each kernel once (or loading it from the disk cache) instead of once per
# layout halves the start-up cost. The tree's own arrays are contiguous ("[::1]"), which
# lets the compiler drop their stride arithmetic from the inner loops.
_ARRAYS = "intp[::1], intp[::1], intp[::1], float64[::1], float64[::1], float64[:, ::1]"
_SIGNATURES = {
    "walk": f"void(float32[:, :], intp[::1], intp[::1], {_ARRAYS}, boolean, boolean, intp, "
    "float64[:, ::1])",
    "dense": (
        f"void(float32[:, :], intp[::1], intp[::1], {_ARRAYS}, boolean, boolean, intp, "
        "float64[:, ::1])"
    ),
    "route": f"intp(float32[:, :], {_ARRAYS}, boolean, float64[:, ::1], int8[::1], intp[::1], "
    "intp[::1])",
    "gaps": "void(float32[:, :], intp[::1], intp[::1], intp[::1], intp[::1], float64[::1], "
    "float64[::1], float64[::1], boolean, float64, float64[::1])",
    "middle": "void(float32[:, :], intp[::1], intp[::1], intp[::1], intp[::1], float64[::1], "
    "float64[::1], boolean, intp[::1], int8[::1])",
    "bootstrap": "void(intp[:, ::1], intp[::1], intp[::1], float64[::1], intp, intp, boolean, "
    "intp[::1], intp[::1], float64[:, ::1], float64[:, ::1])",
}
_FUNCTIONS = {
    "walk": _blend_rows,
    "dense": _blend_rows_dense,
    "route": _route_rows,
    "middle": _route_middle,
    "gaps": _path_gaps,
    "bootstrap": _bootstrap_best,
}


_jit.register("blend", _SIGNATURES, _FUNCTIONS)


def kernel_available() -> bool:
    """True when numba is importable and the kernels compiled (or loaded from the cache)."""
    return _kernels() is not None


def _tree_arrays(tree):
    """The node arrays the kernels read, contiguous as their signatures require."""
    names = ("children_left", "children_right", "feature", "threshold", "delta", "value")
    return tuple(np.ascontiguousarray(getattr(tree, name)) for name in names)


def blend_into(
    tree, X: np.ndarray, rows: np.ndarray, routing: str, out: np.ndarray, starts=None, value=None
) -> bool:
    """Write the blended probabilities of ``X[rows]`` into ``out[rows]``.

    Parameters
    ----------
    tree : TernaryTree with binary routing
    X : ndarray of float32, shape (n_samples, n_features), any memory layout
    rows : ndarray of int, the rows to blend
    routing : {"probabilistic", "deferred"}
    out : ndarray of float64, shape (n_samples, n_classes), C-contiguous, written in place
    starts : ndarray of intp, optional
        Where each row's blend starts: the first zone on its CART path (`_route_rows`
        finds it). Default: the root.
    value : ndarray of float64, shape (node_count, g * n_classes), optional
        Node values to blend instead of ``tree.value``: ``g`` distributions side by side,
        each blended and normalised as if alone (``out`` has as many columns).

    Returns
    -------
    bool : False (nothing written) when the kernels are unavailable or ``X`` is not float32.
    """
    kernels = _kernels()
    if kernels is None:
        return False
    arrays = _tree_arrays(tree)
    groups = 1
    if value is not None:
        groups = value.shape[1] // tree.n_classes
        arrays = (*arrays[:5], value)
    arrays = (*arrays, routing == "deferred", bool(tree.open_edges), groups, out)
    rows = np.ascontiguousarray(rows, dtype=np.intp)
    try:
        if tree.n_leaves <= MAX_DENSE_LEAVES:
            preorder = tree._preorder_array()
            kernels["dense"](X, rows, preorder, *arrays)
        else:
            if starts is None:
                starts = np.zeros(rows.shape[0], dtype=np.intp)
            kernels["walk"](X, rows, starts, *arrays)
    except TypeError:  # input types the signatures do not cover: the numpy path answers
        return False
    return True


def predict_binary(tree, X: np.ndarray, routing: str, *, proba: bool = True, value=None):
    """``(proba, verdict)`` of a binary-routing tree from the compiled kernels, or None.

    One compiled pass routes every row along CART's path and notes whether it met a
    zone; decided rows take their leaf's distribution, and only the others are blended.
    With ``proba=False`` the blend is skipped and ``proba`` is None: the verdict is the
    route pass's own. ``value`` blends other node values (see `blend_into`). None when
    numba is unavailable (the caller then uses scikit-learn's compiled walk and the
    numpy blend).
    """
    kernels = _kernels()
    if kernels is None:
        return None
    n = X.shape[0]
    arrays = _tree_arrays(tree)
    if value is not None:
        arrays = (*arrays[:5], value)
    out = np.empty((n, arrays[5].shape[1]))
    verdict = np.empty(n, dtype=np.int8)
    uncertain = np.empty(n, dtype=np.intp)
    first = np.empty(n, dtype=np.intp)
    try:
        count = kernels["route"](X, *arrays, bool(tree.open_edges), out, verdict, uncertain, first)
    except TypeError:  # input types the signatures do not cover: the numpy path answers
        return None
    if not proba:
        return None, verdict
    rows = uncertain[:count]
    if count and not blend_into(tree, X, rows, routing, out, first[:count], value):
        return None
    return out, verdict


def predict_paired(tree, X: np.ndarray, routing: str, second: np.ndarray):
    """The blend of ``tree.value`` and of ``second`` node values, from one compiled pass.

    The two distributions are routed and blended side by side, each normalised alone,
    so each equals the blend `ternary.tree.traverse` gives with those values, bit for bit.

    Returns
    -------
    tuple of (ndarray, ndarray, ndarray) or None
        ``(proba, second_proba, verdict)``; None when numba is unavailable or ``X`` is
        not float32 (the caller then blends twice).
    """
    if X.dtype != np.float32:
        return None
    if routing == "hard_middle":
        middle = predict_middle(tree, X)
        if middle is None:
            return None
        leaf, verdict = middle
        return tree.value[leaf], np.ascontiguousarray(second, dtype=np.float64)[leaf], verdict
    both = np.ascontiguousarray(np.hstack([tree.value, second]), dtype=np.float64)
    fast = predict_binary(tree, X, routing, value=both)
    if fast is None:
        return None
    out, verdict = fast
    k = tree.n_classes
    return np.ascontiguousarray(out[:, :k]), np.ascontiguousarray(out[:, k:]), verdict


def predict_middle(tree, X: np.ndarray):
    """``(leaf, verdict)`` of every row of a hard-middle tree from one compiled pass, or None.

    None when numba is unavailable or ``X`` is not float32 (the caller then uses
    scikit-learn's compiled walk).
    """
    kernels = _kernels()
    if kernels is None:
        return None
    n = X.shape[0]
    leaf = np.empty(n, dtype=np.intp)
    verdict = np.empty(n, dtype=np.int8)
    names = ("children_left", "children_right", "children_middle", "feature")
    structure = tuple(np.ascontiguousarray(getattr(tree, name)) for name in names)
    try:
        kernels["middle"](
            X,
            *structure,
            np.ascontiguousarray(tree.threshold),
            np.ascontiguousarray(tree.delta),
            bool(tree.open_edges),
            leaf,
            verdict,
        )
    except TypeError:  # input types the signatures do not cover: the numpy path answers
        return None
    return leaf, verdict


def path_gaps(tree, X: np.ndarray, routing: str, scale: np.ndarray, cap: float):
    """Each row's smallest scaled gap on its path, from the compiled kernel, or None.

    See `_path_gaps`; None when numba is unavailable or ``X`` is not float32 (the caller
    then walks in numpy).
    """
    kernels = _kernels()
    if kernels is None:
        return None
    gap = np.empty(X.shape[0])
    names = ("children_left", "children_right", "children_middle", "feature")
    structure = tuple(np.ascontiguousarray(getattr(tree, name)) for name in names)
    try:
        kernels["gaps"](
            X,
            *structure,
            np.ascontiguousarray(tree.threshold),
            np.ascontiguousarray(tree.delta),
            np.ascontiguousarray(scale, dtype=np.float64),
            routing == "hard_middle",
            float(cap),
            gap,
        )
    except TypeError:  # input types the signatures do not cover: the numpy path answers
        return None
    return gap


def bootstrap_best(
    draws, group, y, w, n_groups: int, n_classes: int, min_samples_leaf: int, criterion: str
):
    """Best split per resample by the compiled kernel (see `_bootstrap_best`), or None.

    Returns ``(best, next_present, left_at_best, total)`` with ``best == -1`` where a
    resample allows no split; None when numba is unavailable.
    """
    kernels = _kernels()
    if kernels is None:
        return None
    b = draws.shape[0]
    best = np.empty(b, dtype=np.intp)
    nxt = np.empty(b, dtype=np.intp)
    left_best = np.zeros((b, n_classes))
    total = np.zeros((b, n_classes))
    try:
        kernels["bootstrap"](
            np.ascontiguousarray(draws, dtype=np.intp),
            np.ascontiguousarray(group, dtype=np.intp),
            np.ascontiguousarray(y, dtype=np.intp),
            np.ascontiguousarray(w, dtype=np.float64),
            int(n_groups),
            int(min_samples_leaf),
            criterion == "gini",
            best,
            nxt,
            left_best,
            total,
        )
    except TypeError:  # input types the signatures do not cover: the numpy path answers
        return None
    return best, nxt, left_best, total
