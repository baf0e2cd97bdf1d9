"""Shared helpers of the rules and export tests: fitted models and rows on the edges.

The library casts rows to float32 before comparing them with float64 thresholds and zone
edges, so the rows that tell an exact export from a nearly exact one sit on θ, θ−δ and θ+δ,
one double ulp either side, on the float32 values around them and on the midpoints between
those float32 values (where rounding ties to even).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from ternary import DELTA_METHODS, TernaryTreeClassifier


def data(n: int = 2_000, seed: int = 0, n_features: int = 4, n_classes: int = 3):
    """A noisy three-class problem (clean trees would meet few zones)."""
    X, y = make_classification(
        n,
        n_features=n_features,
        n_informative=3,
        n_redundant=0,
        n_classes=n_classes,
        flip_y=0.05,
        class_sep=0.8,
        random_state=seed,
    )
    return X, y


def _neighbours(value: float) -> list[float]:
    """``value``, its double neighbours, nearby float32 values and their midpoints."""
    out = [value]
    for step in (-np.inf, np.inf):
        v = value
        for _ in range(2):
            v = float(np.nextafter(v, step))
            out.append(v)
    f = np.float32(value)
    for g in (f, np.nextafter(f, np.float32(-np.inf)), np.nextafter(f, np.float32(np.inf))):
        g = float(g)
        out.append(g)
        for h in (np.nextafter(np.float32(g), np.float32(np.inf)),):
            mid = (g + float(h)) / 2.0
            out += [mid, float(np.nextafter(mid, -np.inf)), float(np.nextafter(mid, np.inf))]
    return out


def edge_rows(trees, X: np.ndarray, seed: int = 0) -> np.ndarray:
    """Rows of ``X`` with one feature moved onto a split's θ, θ±δ or their neighbours."""
    rng = np.random.default_rng(seed)
    rows = []
    for tree in trees:
        t = tree.tree_
        for node in np.flatnonzero(t.children_left != -1):
            theta, delta, f = float(t.threshold[node]), float(t.delta[node]), t.feature[node]
            for point in {theta, theta - delta, theta + delta}:
                for value in _neighbours(point):
                    row = X[rng.integers(X.shape[0])].copy()
                    row[f] = value
                    rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(-1, X.shape[1])


def scoring_rows(trees, X: np.ndarray, n: int = 10_000, seed: int = 0) -> np.ndarray:
    """At least ``n`` rows: the edge rows first, then fresh rows around the data."""
    edges = edge_rows(trees, X, seed)
    rng = np.random.default_rng(seed + 1)
    extra = max(n - edges.shape[0], 0)
    fresh = X[rng.integers(X.shape[0], size=extra)] + rng.normal(0, 0.3, (extra, X.shape[1]))
    return np.vstack([edges, fresh])


@st.composite
def fitted(draw):
    """A small tree on coarse random data: any δ method, routing, graft mode and depth."""
    n = draw(st.integers(20, 160))
    n_features = draw(st.integers(1, 3))
    n_classes = draw(st.integers(2, 3))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    # coarse values make ties, repeated thresholds and zones on data points likely
    X = np.round(rng.normal(size=(n, n_features)) * draw(st.sampled_from([1.0, 4.0])), 1)
    y = (X[:, 0] + rng.normal(0, 0.7, n) > 0).astype(int) + (n_classes == 3) * (X[:, -1] > 1)
    if np.unique(y).size < 2:
        y[: n // 2] = 1 - y[: n // 2]
    routing = draw(st.sampled_from(["probabilistic", "deferred", "hard_middle"]))
    graft = draw(st.sampled_from(["none", "all"])) if routing != "hard_middle" else "none"
    clf = TernaryTreeClassifier(
        delta_method=draw(st.sampled_from(DELTA_METHODS)),
        routing=routing,
        graft=graft,
        max_depth=draw(st.integers(1, 5)),
        delta_scale=draw(st.sampled_from([1.0, 3.0])),
        min_samples_middle=2,
        random_state=seed,
        # both readings of the zone's upper end: the rules and exports follow each
        zone_edges=draw(st.sampled_from(["open", "closed"])),
    ).fit(X, y)
    return clf, X, y, rng
