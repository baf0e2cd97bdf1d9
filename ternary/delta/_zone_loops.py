"""The compiled loops of the quality-plateau, gain-ratio and class-overlap passes.

Plain Python that `ternary.delta.kernels` compiles with numba (and its tests also run
uncompiled); each loop works over every node's rows sorted as `NodeRows` sorts them.
See `ternary.delta.kernels.zone_deltas_compiled` for what they compute and why the
floats are those of the node-by-node code.
"""

from __future__ import annotations

import numpy as np


def _sort_pairs(pair_rows, pair_nodes, feature, X, start, count, rows_out, values_out):
    """Each node's rows as `NodeRows` orders them: grouped by node, then sorted by value.

    The pairs are grouped by a stable counting sort (a node's rows keep their given,
    ascending order), then each node's segment is sorted stably by its feature's value,
    cast to float64 as `NodeRows.from_arrays` casts it. Fills ``start``/``count`` (per
    node) and ``rows_out``/``values_out`` (per pair, segment by segment).
    """
    n_nodes = start.shape[0]
    n_pairs = pair_nodes.shape[0]
    for node in range(n_nodes):
        count[node] = 0
    for i in range(n_pairs):
        count[pair_nodes[i]] += 1
    total = 0
    for node in range(n_nodes):
        start[node] = total
        total += count[node]
    fill = start.copy()
    order = np.empty(n_pairs, dtype=np.intp)
    for i in range(n_pairs):
        order[fill[pair_nodes[i]]] = i
        fill[pair_nodes[i]] += 1
    for node in range(n_nodes):
        m = count[node]
        if m == 0:
            continue
        f = feature[node]
        s = start[node]
        values = np.empty(m)
        for j in range(m):
            values[j] = np.float64(X[pair_rows[order[s + j]], f])
        by_value = np.argsort(values, kind="mergesort")
        for j in range(m):
            rows_out[s + j] = pair_rows[order[s + by_value[j]]]
            values_out[s + j] = values[by_value[j]]


def _plateau_candidates(
    first, start, count, rows, values, y, w, n_classes, min_samples_leaf,
    cand_thr, cand_left, cand_node, node_total, node_first, node_n,
):  # fmt: skip
    """`quality_curve`'s candidates of nodes ``first, first+1, ...`` while they fit.

    For each node: the running weighted class counts over its sorted rows (a running
    sum per class in row order, as ``np.cumsum`` forms it), a candidate after every row
    whose value differs from the next one and that leaves ``min_samples_leaf`` rows on
    each side, its threshold ``a/2 + b/2`` and the left counts there; the node's total
    counts. Stops before a node whose candidates might overflow the buffers and returns
    the first node not filled (``n_nodes`` when done); ``node_first``/``node_n`` say
    where each filled node's candidates are.
    """
    n_nodes = start.shape[0]
    capacity = cand_thr.shape[0]
    cum = np.zeros(n_classes)
    c = 0
    node = first
    while node < n_nodes:
        m = count[node]
        if m >= 2 and c + m - 1 > capacity:
            break
        node_first[node] = c
        node_n[node] = 0
        for k in range(n_classes):
            cum[k] = 0.0
        if m < 2:
            node += 1
            continue
        s = start[node]
        for j in range(m):
            cum[y[rows[s + j]]] += w[rows[s + j]]
            n_left = j + 1
            if (
                j < m - 1
                and values[s + j] != values[s + j + 1]
                and n_left >= min_samples_leaf
                and m - n_left >= min_samples_leaf
            ):
                cand_thr[c] = values[s + j] / 2.0 + values[s + j + 1] / 2.0
                for k in range(n_classes):
                    cand_left[c, k] = cum[k]
                cand_node[c] = node
                c += 1
        for k in range(n_classes):
            node_total[node, k] = cum[k]
        node_n[node] = c - node_first[node]
        node += 1
    return node


def _plateau_reduce(
    first, stop, node_first, node_n, cand_thr, quality, threshold, epsilon,
    start, count, values, max_delta_fraction, out,
):  # fmt: skip
    """`delta_quality_plateau` of nodes ``first..stop-1``, clamped as `node_delta` does.

    Q(θ*) at the first candidate nearest θ*; the plateau's ends are the smallest and
    largest candidates with ``Q ≥ (1−ε)·Q(θ*)``; 0 with fewer than two candidates or
    ``Q(θ*) ≤ 0``.
    """
    for node in range(first, stop):
        out[node] = 0.0
        n_cand = node_n[node]
        if n_cand < 2:
            continue
        c0 = node_first[node]
        t = threshold[node]
        best = c0
        best_distance = abs(cand_thr[c0] - t)
        for c in range(c0 + 1, c0 + n_cand):
            distance = abs(cand_thr[c] - t)
            if distance < best_distance:
                best = c
                best_distance = distance
        q_star = quality[best]
        if q_star <= 0:
            continue
        bar = (1.0 - epsilon) * q_star
        low = np.inf
        high = -np.inf
        for c in range(c0, c0 + n_cand):
            if quality[c] >= bar:
                low = min(low, cand_thr[c])
                high = max(high, cand_thr[c])
        raw = (high - low) / 2.0
        m = count[node]
        cap = max_delta_fraction * (values[start[node] + m - 1] - values[start[node]])
        out[node] = min(max(raw, 0.0), cap)


def _overlap_all(start, count, rows, values, y, n_classes, q_low, q_high, max_delta_fraction, out):
    """`delta_class_overlap` of every node, clamped as `node_delta` does.

    Each present class's values (ascending, as the node's sorted rows give them) get
    the band ``[P_q, P_(1−q)]`` by numpy's linear percentile, step for step: virtual
    index ``(n−1)·q``, its floor, ``a + (b−a)·γ`` below γ = 0.5 and ``b − (b−a)·(1−γ)``
    from there, the last value at or past the end; one row gives ``[v, v]``. δ is half
    the widest positive overlap over all pairs of present classes.
    """
    n_in = np.zeros(n_classes, dtype=np.intp)
    offset = np.zeros(n_classes, dtype=np.intp)
    fill = np.zeros(n_classes, dtype=np.intp)
    lows = np.empty(n_classes)
    highs = np.empty(n_classes)
    for node in range(start.shape[0]):
        out[node] = 0.0
        m = count[node]
        if m < 2:
            continue
        s = start[node]
        for k in range(n_classes):
            n_in[k] = 0
        for j in range(m):
            n_in[y[rows[s + j]]] += 1
        total = 0
        for k in range(n_classes):
            offset[k] = total
            fill[k] = total
            total += n_in[k]
        grouped = np.empty(m)
        for j in range(m):
            k = y[rows[s + j]]
            grouped[fill[k]] = values[s + j]
            fill[k] += 1
        n_present = 0
        for k in range(n_classes):
            n = n_in[k]
            if n == 0:
                continue
            o = offset[k]
            for side in range(2):
                band = grouped[o]
                if n >= 2:
                    virtual = np.float64(n - 1) * (q_low if side == 0 else q_high)
                    if virtual >= n - 1:
                        band = grouped[o + n - 1]
                    elif virtual >= 0:
                        below = np.floor(virtual)
                        gamma = virtual - below
                        a = grouped[o + np.intp(below)]
                        b = grouped[o + np.intp(below) + 1]
                        diff = b - a
                        band = b - diff * (1.0 - gamma) if gamma >= 0.5 else a + diff * gamma
                if side == 0:
                    lows[n_present] = band
                else:
                    highs[n_present] = band
            n_present += 1
        if n_present < 2:
            continue
        widest = -np.inf
        for i in range(n_present):
            for j in range(n_present):
                if i != j:
                    width = min(highs[i], highs[j]) - max(lows[i], lows[j])
                    if width > widest:
                        widest = width
        if widest <= 0:
            continue
        cap = max_delta_fraction * (values[s + m - 1] - values[s])
        out[node] = min(max(widest / 2.0, 0.0), cap)


def _threshold_counts(start, count, rows, values, y, w, threshold, left, total, value_range):
    """Each node's weighted class counts left of θ* and in all, and its value range.

    Summed per class in the node's sorted order (as ``np.bincount`` sums them); nodes
    with fewer than two rows keep zeros.
    """
    n_classes = left.shape[1]
    for node in range(start.shape[0]):
        for k in range(n_classes):
            left[node, k] = 0.0
            total[node, k] = 0.0
        value_range[node] = 0.0
        m = count[node]
        if m < 2:
            continue
        s = start[node]
        t = threshold[node]
        for j in range(m):
            r = rows[s + j]
            if values[s + j] <= t:
                left[node, y[r]] += w[r]
            total[node, y[r]] += w[r]
        value_range[node] = values[s + m - 1] - values[s]


def _gini_qualities(left, total, node_of, out):
    """Gini Q of each candidate (fewer than 8 classes), as `split_qualities` forms it.

    Candidate ``c`` has left counts ``left[c]`` in node ``node_of[c]`` with counts
    ``total[node_of[c]]``. numpy's sums over fewer than 8 classes run left to right from
    0, so these loops give its floats: the weights, ``1 − Σ p²`` of the node and of each
    side (0 for an empty side), then ``imp(node) − (w_L·imp(L) + w_R·imp(R)) / W``.
    """
    n_classes = left.shape[1]
    for c in range(left.shape[0]):
        t = node_of[c]
        w_total = 0.0
        w_left = 0.0
        w_right = 0.0
        for k in range(n_classes):
            w_total += total[t, k]
            w_left += left[c, k]
            w_right += total[t, k] - left[c, k]
        if w_total == 0:
            out[c] = np.nan  # numpy's 0/0
            continue
        s_node = 0.0
        s_left = 0.0
        s_right = 0.0
        for k in range(n_classes):
            p = total[t, k] / w_total
            s_node += p * p
            if w_left > 0:
                p = left[c, k] / w_left
                s_left += p * p
            if w_right > 0:
                p = (total[t, k] - left[c, k]) / w_right
                s_right += p * p
        imp_left = 1.0 - s_left if w_left > 0 else 0.0
        imp_right = 1.0 - s_right if w_right > 0 else 0.0
        out[c] = (1.0 - s_node) - (w_left * imp_left + w_right * imp_right) / w_total


def _margin_sorted(XT, y, w, by_f, f, threshold, n_classes, max_fraction, scale):
    """Margin's final δ of a node from its rows sorted on ``f``; see `margin_delta_sorted`.

    `ternary.delta.margin_support` and `ternary.delta.node_delta` step by step: the
    same sums in the same order, and Python's ``min``/``max`` (first of equals kept).
    """
    n = by_f.shape[0]
    if n < 2:
        return 0.0
    s = 0  # rows with value ≤ θ: searchsorted(values, θ, side="right")
    while s < n and XT[f, by_f[s]] <= threshold:
        s += 1
    raw = 0.0
    if 0 < s < n:
        left = np.zeros(n_classes)
        right = np.zeros(n_classes)
        for i in range(s):
            left[y[by_f[i]]] += w[by_f[i]]
        for i in range(s, n):
            right[y[by_f[i]]] += w[by_f[i]]
        c_left = np.argmax(left)
        c_right = np.argmax(right)
        raw = threshold - np.float64(XT[f, by_f[s - 1]])
        other = np.float64(XT[f, by_f[s]]) - threshold
        if other < raw:
            raw = other  # the half-gap
        if c_left != c_right:
            found = False
            for i in range(s, n):  # the first left-majority row right of θ
                if y[by_f[i]] == c_left:
                    raw = np.float64(XT[f, by_f[i]]) - threshold
                    found = True
                    break
            for i in range(s - 1, -1, -1):  # the last right-majority row left of θ
                if y[by_f[i]] == c_right:
                    distance = threshold - np.float64(XT[f, by_f[i]])
                    if not found or distance < raw:
                        raw = distance
                    break
    if 0.0 > raw:
        raw = 0.0
    cap = max_fraction * (np.float64(XT[f, by_f[n - 1]]) - np.float64(XT[f, by_f[0]]))
    if cap < raw:
        raw = cap
    return raw * scale
