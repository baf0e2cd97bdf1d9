"""Each δ method on a small example computed by hand (Smits 2026, §3.3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.delta import (
    DeltaParams,
    NodeRows,
    bootstrap_thresholds,
    class_bands,
    delta_class_overlap,
    delta_gain_ratio,
    delta_margin,
    delta_node_bootstrap,
    delta_quality_plateau,
    margin_support,
    node_delta,
    quality_curve,
    resolve_n_bootstraps,
)


def rows(values, y, threshold, w=None, n_classes=2):
    values = np.asarray(values, dtype=float)
    w = np.ones(values.size) if w is None else w
    return NodeRows.from_arrays(values, np.asarray(y), w, threshold, n_classes)


# values 1..6, classes 0,0,0,1,1,1: Gini Q at 1.5..5.5 is 0.1, 0.25, 0.5, 0.25, 0.1
STEP = rows([1, 2, 3, 4, 5, 6], [0, 0, 0, 1, 1, 1], 3.5)


def test_quality_curve_matches_hand_computed_gini_gains():
    thresholds, quality, left_fraction = quality_curve(STEP, "gini")
    np.testing.assert_allclose(thresholds, [1.5, 2.5, 3.5, 4.5, 5.5])
    np.testing.assert_allclose(quality, [0.1, 0.25, 0.5, 0.25, 0.1])
    np.testing.assert_allclose(left_fraction, np.arange(1, 6) / 6)


def test_quality_curve_respects_min_samples_leaf():
    thresholds, _, _ = quality_curve(STEP, "gini", min_samples_leaf=2)
    np.testing.assert_allclose(thresholds, [2.5, 3.5, 4.5])


def test_quality_curve_entropy_in_bits():
    _, quality, _ = quality_curve(STEP, "entropy")
    assert quality[2] == pytest.approx(1.0)  # a perfect split of a 50/50 node gains one bit


@pytest.mark.parametrize("epsilon, expected", [(0.05, 0.0), (0.5, 1.0), (0.85, 2.0)])
def test_quality_plateau(epsilon, expected):
    # ε=0.5 keeps Q ≥ 0.25: θ ∈ {2.5, 3.5, 4.5}; ε=0.85 keeps everything: θ ∈ [1.5, 5.5]
    assert delta_quality_plateau(STEP, "gini", epsilon) == pytest.approx(expected)


def test_quality_plateau_zero_without_gain_or_candidates():
    pure = rows([1, 2, 3], [1, 1, 1], 1.5)
    assert delta_quality_plateau(pure, "gini", 0.5) == 0.0
    two = rows([1, 2], [0, 1], 1.5)  # a single candidate threshold
    assert delta_quality_plateau(two, "gini", 0.5) == 0.0


def test_clamp_then_scale():
    params = DeltaParams(method="quality_plateau", epsilon=0.85, max_delta_fraction=0.25)
    # raw 2.0 is clamped to 0.25 * (6 - 1) = 1.25
    assert node_delta(STEP, params) == pytest.approx(1.25)
    scaled = DeltaParams(
        method="quality_plateau", epsilon=0.85, max_delta_fraction=0.25, delta_scale=2.0
    )
    assert node_delta(STEP, scaled) == pytest.approx(2.5)
    unclamped = DeltaParams(method="quality_plateau", epsilon=0.85, max_delta_fraction=1.0)
    assert node_delta(STEP, unclamped) == pytest.approx(2.0)


def test_class_overlap_hand_computed():
    # class 0 in 0..4, class 1 in 2..6; P10/P90 = 0.4/3.6 and 2.4/5.6; overlap 1.2
    r = rows([0, 1, 2, 3, 4, 2, 3, 4, 5, 6], [0] * 5 + [1] * 5, 3.0)
    classes, lows, highs = class_bands(r, 0.10)
    np.testing.assert_array_equal(classes, [0, 1])
    np.testing.assert_allclose(lows, [0.4, 2.4])
    np.testing.assert_allclose(highs, [3.6, 5.6])
    assert delta_class_overlap(r, 0.10) == pytest.approx(0.6)
    # q=0.25 bands [1, 3] and [3, 5] only touch: no positive overlap
    assert delta_class_overlap(r, 0.25) == pytest.approx(0.0)


def test_class_overlap_single_row_class_uses_its_value_and_widest_pair_wins():
    r = rows([0, 1, 2, 3, 1.5, 10, 11, 12], [0, 0, 0, 0, 1, 2, 2, 2], 5.0, n_classes=3)
    # class 1 has one row: band [1.5, 1.5]; class 0's P10..P90 = [0.3, 2.7] contains it
    # (zero width), class 2 overlaps nobody: δ = 0
    assert delta_class_overlap(r, 0.10) == 0.0
    r2 = rows([0, 1, 2, 3, 1, 2, 10], [0, 0, 0, 0, 1, 1, 2], 5.0, n_classes=3)
    # class 0 [0.3, 2.7], class 1 [1.1, 1.9]: overlap 0.8 → δ 0.4
    assert delta_class_overlap(r2, 0.10) == pytest.approx(0.4)


def test_gain_ratio_balanced_split():
    r = rows([1, 2, 3, 4], [0, 0, 1, 1], 2.5)
    # Gini gain 0.5, H_split 1 bit: GR 0.5, δ = 0.1·3/1.5
    assert delta_gain_ratio(r, "gini", 0.10) == pytest.approx(0.2)
    # entropy gain 1 bit: GR 1, δ = 0.3/2
    assert delta_gain_ratio(r, "entropy", 0.10) == pytest.approx(0.15)


def test_gain_ratio_unbalanced_split():
    r = rows([1, 2, 3, 4], [0, 1, 1, 1], 1.5)
    h_split = -(0.25 * np.log2(0.25) + 0.75 * np.log2(0.75))
    gr = 0.375 / h_split
    assert delta_gain_ratio(r, "gini", 0.10) == pytest.approx(0.3 / (1 + gr))


def test_gain_ratio_degenerate_split_uses_full_alpha_range():
    r = rows([1, 2, 3, 4], [0, 1, 0, 1], 10.0)  # everything goes left: H_split = 0
    assert delta_gain_ratio(r, "gini", 0.10) == pytest.approx(0.3)


def test_margin_nearest_cross_class_rows():
    r = rows([0, 1, 2, 3, 4, 5, 6, 7], [0, 0, 1, 0, 1, 1, 0, 1], 3.5)
    support = margin_support(r)
    assert (support["class_left"], support["class_right"]) == (0, 1)
    assert support["nearest_left_class_right_of"] == 6.0  # 2.5 right of θ
    assert support["nearest_right_class_left_of"] == 2.0  # 1.5 left of θ
    assert delta_margin(r) == pytest.approx(1.5)


def test_margin_clean_split_falls_back_to_half_gap():
    r = rows([0, 1, 3, 6, 7], [0, 0, 0, 1, 1], 3.5)
    assert delta_margin(r) == pytest.approx(0.5)  # min(3.5 - 3, 6 - 3.5)


def test_margin_same_majority_both_sides_uses_half_gap():
    r = rows([0, 1, 2, 3, 4, 5], [0, 0, 0, 0, 0, 1], 2.5)
    assert delta_margin(r) == pytest.approx(0.5)


def test_margin_majority_uses_weights():
    # by count the left majority is 0; a weight of 5 on the class-1 row flips it
    r = rows([0, 1, 2, 5, 6], [0, 0, 1, 1, 1], 3.5, w=np.array([1, 1, 5, 1, 1.0]))
    assert margin_support(r)["class_left"] == 1


def test_zero_weight_rows_are_absent():
    with_zero = rows([0, 1, 2, 3, 9], [0, 0, 1, 1, 0], 1.5, w=np.array([1, 1, 1, 1, 0.0]))
    without = rows([0, 1, 2, 3], [0, 0, 1, 1], 1.5)
    for method in ("margin", "quality_plateau", "gain_ratio", "class_overlap"):
        params = DeltaParams(method=method, epsilon=0.5)
        assert node_delta(with_zero, params) == node_delta(without, params)


def _naive_bootstrap(r, n_bootstraps, seed, criterion="gini"):
    """Resample explicitly and brute-force CART's best threshold on each resample."""
    rng = np.random.RandomState(seed)
    draws = rng.randint(0, r.n, size=(n_bootstraps, r.n))
    found = []
    for d in draws:
        v, y = r.values[d], r.y[d]
        distinct = np.unique(v)
        best, best_q = None, 0.0
        for a, b in zip(distinct[:-1], distinct[1:], strict=True):
            t = a / 2 + b / 2
            left = y[v <= t]
            right = y[v > t]

            def impurity(z):
                p = np.bincount(z, minlength=r.n_classes) / z.size
                if criterion == "gini":
                    return 1 - np.sum(p**2)
                p = p[p > 0]
                return -np.sum(p * np.log2(p))

            q = impurity(y) - (left.size * impurity(left) + right.size * impurity(right)) / y.size
            if q > best_q + 1e-15:
                best, best_q = t, q
        if best is not None:
            found.append(best)
    return np.array(found)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bootstrap_thresholds_match_explicit_resampling(criterion, seed, compiled):
    rng = np.random.RandomState(seed)
    values = np.round(rng.normal(size=60), 1)  # ties on purpose
    y = (values + rng.normal(scale=0.7, size=60) > 0).astype(int) + (values > 1.2)
    r = rows(values, y, 0.0, n_classes=3)
    fast = bootstrap_thresholds(r, criterion, 20, np.random.RandomState(7), compiled=compiled)
    slow = _naive_bootstrap(r, 20, 7, criterion)
    np.testing.assert_allclose(fast, slow)
    assert delta_node_bootstrap(r, criterion, 20, np.random.RandomState(7)) == pytest.approx(
        np.std(slow)
    )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 80),
    st.integers(2, 4),
    st.integers(1, 5),
    st.sampled_from(["gini", "entropy"]),
    st.booleans(),
    st.integers(0, 2**31 - 1),
)
def test_compiled_and_numpy_bootstrap_scans_agree(n, n_classes, leaf, criterion, weighted, seed):
    # the numba scan and the numpy array scan see the same draws (same seed): same thresholds
    rng = np.random.RandomState(seed)
    values = np.round(rng.normal(size=n), 1)
    y = rng.randint(0, n_classes, size=n)
    w = rng.uniform(0.5, 2.0, size=n) if weighted else None
    r = rows(values, y, 0.0, w=w, n_classes=n_classes)
    compiled, numpy_ = (
        bootstrap_thresholds(r, criterion, 9, np.random.RandomState(seed), leaf, compiled=flag)
        for flag in (True, False)
    )
    np.testing.assert_array_equal(compiled, numpy_)


def test_bootstrap_is_deterministic_and_small_nodes_get_zero():
    r = rows(np.arange(20.0), [0] * 10 + [1] * 10, 9.5)
    a = delta_node_bootstrap(r, "gini", 20, np.random.RandomState(3))
    b = delta_node_bootstrap(r, "gini", 20, np.random.RandomState(3))
    assert a == b and a > 0  # thresholds move with which boundary rows are drawn
    assert delta_node_bootstrap(rows(np.arange(9.0), [0] * 4 + [1] * 5, 3.5), "gini", 20, 0) == 0.0


def test_bootstrap_of_a_pure_node_finds_no_split():
    r = rows(np.arange(30.0), [1] * 30, 10.5)
    assert bootstrap_thresholds(r, "gini", 20, np.random.RandomState(0)).size == 0
    assert delta_node_bootstrap(r, "gini", 20, np.random.RandomState(0)) == 0.0


def test_bootstrap_chunks_agree_with_one_draw():
    r = rows(np.linspace(0, 1, 50), [0] * 20 + [1] * 30, 0.4)
    whole = bootstrap_thresholds(r, "gini", 12, np.random.RandomState(5))
    # one resample per chunk: the draws come out of the generator in the same order
    chunked = bootstrap_thresholds(r, "gini", 12, np.random.RandomState(5), chunk_cells=1)
    assert whole.size == 12
    np.testing.assert_allclose(np.sort(whole), np.sort(chunked))


@pytest.mark.parametrize(
    "n, expected", [(100, 20), (1999, 20), (2000, 15), (9999, 15), (10000, 10)]
)
def test_auto_bootstraps(n, expected):
    assert resolve_n_bootstraps("auto", n) == expected
    assert resolve_n_bootstraps(7, n) == 7


def test_node_bootstrap_tree_is_the_same_with_and_without_numba():
    # the compiled scan keeps the draws and the statistic: every δ of a fitted tree is equal
    from sklearn.datasets import make_classification

    from ternary import TernaryTreeClassifier
    from ternary.compiled import without

    X, y = make_classification(1500, 6, n_informative=4, n_classes=3, random_state=0)
    params = dict(delta_method="node_bootstrap", n_bootstraps=20, max_depth=4, random_state=3)
    compiled = TernaryTreeClassifier(**params).fit(X, y).tree_.delta
    with without("blend"):
        numpy_only = TernaryTreeClassifier(**params).fit(X, y).tree_.delta
    np.testing.assert_array_equal(compiled, numpy_only)
    assert (compiled > 0).sum() >= 3


# ------------------------------------------------------------ vectorised margin over a tree


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(2, 120),
    n_classes=st.integers(2, 4),
    levels=st.integers(2, 12),
    zero_share=st.sampled_from([0.0, 0.0, 0.2]),
    fraction=st.sampled_from([0.25, 0.05, 1.0]),
)
def test_margin_deltas_equal_the_node_by_node_margin(
    seed, n, n_classes, levels, zero_share, fraction
):
    # a CART grown on coarse (tie-heavy) values and uneven weights, some of them zero;
    # every split's vectorised δ must equal node_delta on that node's NodeRows, bit for bit
    from sklearn.tree import DecisionTreeClassifier

    from ternary.delta import DeltaParams, NodeRows, margin_deltas, node_delta
    from ternary.tree import iter_node_rows, split_row_pairs

    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(n, 3)).astype(np.float32) / np.float32(levels)
    y = rng.integers(0, n_classes, size=n)
    w = rng.uniform(0.2, 3.0, size=n)
    w[rng.random(n) < zero_share] = 0.0
    if w.sum() == 0:
        w[0] = 1.0
    cart = DecisionTreeClassifier(random_state=seed).fit(X, y, sample_weight=w)
    t = cart.tree_

    class Tree:  # the arrays iter_node_rows and split_row_pairs read
        children_left, children_right = t.children_left, t.children_right
        children_middle = np.full(t.node_count, -1)
        feature, threshold, delta = t.feature, t.threshold, np.zeros(t.node_count)

    pair_rows, pair_nodes = split_row_pairs(Tree, X, np.flatnonzero(w > 0))
    got = margin_deltas(
        pair_rows, pair_nodes, t.node_count, t.feature, t.threshold, X, y, w, n_classes, fraction
    )

    params = DeltaParams(method="margin", max_delta_fraction=fraction)
    want = np.zeros(t.node_count)
    for node, rows in iter_node_rows(Tree, X):
        if t.children_left[node] == -1:
            continue
        f = t.feature[node]
        node_rows = NodeRows.from_arrays(X[rows, f], y[rows], w[rows], t.threshold[node], n_classes)
        want[node] = node_delta(node_rows, params)
    np.testing.assert_array_equal(got, want)
    assert got[t.children_left == -1].sum() == 0
