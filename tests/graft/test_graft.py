"""Tests for `ternary.graft` (Webb 1997, C4.5+ grafting).

The worked example of the paper's section 3 is rebuilt as data plus the
C4.5 tree the paper prints; its numbers (Laplace 0.625, 0.909, 0.833, 0.714,
0.917) are the paper's. The invariants are checked on fixed cases and with
hypothesis, against a brute-force reference written from the algorithm's
definition (loops over ancestors, values and classes; no sorting tricks).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ternary import TernaryTree, TernaryTreeClassifier
from ternary.delta import DeltaParams
from ternary.graft import GRAFT_REPORT_COLUMNS, binomial_tail, graft_tree, laplace, leaf_bounds
from ternary.tree import LEAF, iter_node_rows, traverse

SPEC_COLUMNS = [
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
]


# --------------------------------------------------------------------------- helpers


def tree_from_data(children_left, children_right, feature, threshold, X, y, n_classes):
    """A TernaryTree with the given structure, its node statistics taken from (X, y)."""
    n = len(children_left)
    skeleton = TernaryTree(
        children_left=children_left,
        children_right=children_right,
        feature=feature,
        threshold=threshold,
        value=np.ones((n, n_classes)),
        n_node_samples=np.zeros(n),
        impurity=np.zeros(n),
    )
    counts = np.zeros((n, n_classes))
    n_rows = np.zeros(n, dtype=int)
    for node, idx in iter_node_rows(skeleton, X):
        counts[node] = np.bincount(y[idx], minlength=n_classes)
        n_rows[node] = idx.size
    return TernaryTree(
        children_left=children_left,
        children_right=children_right,
        feature=feature,
        threshold=threshold,
        value=counts,
        n_node_samples=n_rows,
        impurity=np.zeros(n),
    )


def leaf_of_rows(tree, X):
    """The leaf each row of X reaches with hard (x ≤ θ) routing."""
    out = np.full(X.shape[0], -1)
    for node, idx in iter_node_rows(tree, X):
        if tree.children_left[node] == LEAF:
            out[idx] = node
    return out


def snapshot(tree):
    return {name: getattr(tree, name).copy() for name in TernaryTree._ARRAYS}


def hard_predict(tree, X):
    return np.argmax(traverse(tree, X, "probabilistic")[0], axis=1)


# --------------------------------------------------------------------------- building blocks


def test_laplace_is_the_binary_laplace_estimate():
    assert laplace(4, 4) == pytest.approx(5 / 6)
    assert laplace(0, 0) == 0.5
    assert laplace(9, 14) == pytest.approx(10 / 16)
    np.testing.assert_allclose(laplace(np.array([1, 2]), np.array([3, 2])), [2 / 5, 3 / 4])


@pytest.mark.parametrize(
    "x,n,p",
    [
        (0, 5, 0.3),
        (1, 1, 0.5),
        (3, 10, 0.2),
        (9, 9, 5 / 6),
        (10, 10, 5 / 7),
        (7, 12, 0.9),
        (13, 12, 0.5),
    ],
)
def test_binomial_tail_matches_the_sum_of_binomial_terms(x, n, p):
    direct = sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(max(x, 0), n + 1))
    assert binomial_tail(x, n, p) == pytest.approx(direct, abs=1e-12)


def test_binomial_tail_for_fractional_counts_lies_between_its_whole_neighbours():
    lo, mid, hi = (
        binomial_tail(3, 10, 0.4),
        binomial_tail(3.5, 10.0, 0.4),
        binomial_tail(4, 10, 0.4),
    )
    assert hi < mid < lo
    # the continuous extension agrees with scipy at whole counts
    assert binomial_tail(4.0, 10.0, 0.4) == pytest.approx(stats.binom.sf(3, 10, 0.4))
    np.testing.assert_allclose(
        binomial_tail(np.array([2, 5]), np.array([6, 5]), 0.5), [stats.binom.sf(1, 6, 0.5), 0.5**5]
    )


# --------------------------------------------------------------------------- the paper's example

CIRCLE, STAR, DOT = 0, 1, 2  # the paper's classes o, * and ·


def webb_example():
    """Data of the shape of Webb's Figure 1 and the C4.5 tree the paper prints.

    A > 7 : o (10) | A ≤ 7: A ≤ 2 : * (4) | A > 2: B ≤ 5 : * (5/1) | B > 5 : · (11).
    Coordinates are ours; the class counts in every region the paper quotes
    are the paper's.
    """
    rows = [
        (8 + 0.25 * i, b, CIRCLE) for i, b in enumerate([1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3])
    ]
    rows += [(8, 9, CIRCLE)]
    rows += [(1, 6, STAR), (1, 7, STAR), (2, 8, STAR), (2, 9, STAR)]
    rows += [(6, 4, STAR), (6.5, 4.5, STAR), (7, 5, STAR), (7, 5, STAR), (4, 3.5, DOT)]
    rows += [
        (a, b, DOT)
        for a, b in zip(
            [2.5, 3, 3, 3.5, 4, 4, 4.5, 5, 5, 6, 6.5],
            [6, 6.5, 7, 7.5, 8, 8.5, 6, 7, 8, 7, 8],
            strict=True,
        )
    ]
    data = np.array(rows)
    X, y = data[:, :2].astype(np.float32), data[:, 2].astype(int)
    # nodes: 0 A≤7 | 1 A≤2 | 2 leaf A>7 | 3 leaf A≤2 | 4 B≤5 | 5 leaf B≤5 | 6 leaf B>5
    tree = tree_from_data(
        [1, 3, -1, -1, 5, -1, -1],
        [2, 4, -1, -1, 6, -1, -1],
        [0, 0, -2, -2, 1, -2, -2],
        [7, 2, -2, -2, 5, -2, -2],
        X,
        y,
        3,
    )
    return X, y, tree


def test_webb_example_tree_has_the_papers_leaf_counts():
    X, y, tree = webb_example()
    counts = tree.value * tree.n_node_samples[:, None]
    np.testing.assert_allclose(counts[2], [10, 0, 0])  # A > 7: o (10.0)
    np.testing.assert_allclose(counts[3], [0, 4, 0])  # A ≤ 2: * (4.0)
    np.testing.assert_allclose(counts[5], [0, 4, 1])  # B ≤ 5: * (5.0/1.0)
    np.testing.assert_allclose(counts[6], [0, 0, 11])  # B > 5: · (11.0)
    # "A cut at 5 results in a partition containing 1 ·, 4 * and 9 o ... 0.625"
    region = X[:, 1] <= 5
    assert np.bincount(y[region], minlength=3).tolist() == [9, 4, 1]
    assert laplace(9, region.sum()) == pytest.approx(0.625)


def test_webb_example_grafts_at_alpha_005():
    X, y, tree = webb_example()
    new, report = graft_tree(tree, X, y, mode="all", alpha=0.05)
    # Only the leaf B ≤ 5 (Laplace 5/7 = 0.714) is grafted, best cut first:
    # A ≤ 5 at its parent (10 ·, 0.917), then B ≤ 3 at the root (9 o, 0.909).
    assert report["leaf"].tolist() == [5, 5]
    first, second = report.iloc[0], report.iloc[1]
    assert (first["ancestor"], first["feature"], first["cut"], first["side"], first["class"]) == (
        4,
        0,
        5.0,
        "<=",
        DOT,
    )
    assert first["laplace_cut"] == pytest.approx(11 / 12)
    assert round(first["laplace_cut"], 3) == 0.917
    assert (
        second["ancestor"],
        second["feature"],
        second["cut"],
        second["side"],
        second["class"],
    ) == (0, 1, 3.0, "<=", CIRCLE)
    assert round(second["laplace_cut"], 3) == 0.909
    assert round(first["laplace_leaf"], 3) == 0.714
    # "less than 0.05": P(Bin(10, 5/7) ≥ 10) and P(Bin(9, 5/7) ≥ 9)
    assert first["p_value"] == pytest.approx((5 / 7) ** 10)
    assert second["p_value"] == pytest.approx((5 / 7) ** 9)
    assert second["p_value"] < 0.05
    # structure: B≤5's slot now holds  A ≤ 5 → · | (B ≤ 3 → o | original leaf 5)
    s1, s2 = int(first["new_split"]), int(second["new_split"])
    assert new.children_left[4] == s1
    assert new.children_left[s1] == first["new_leaf"] and new.children_right[s1] == s2
    assert new.children_left[s2] == second["new_leaf"] and new.children_right[s2] == 5
    assert np.argmax(new.value[first["new_leaf"]]) == DOT
    assert np.argmax(new.value[second["new_leaf"]]) == CIRCLE
    # the misclassified · at (4, 3.5) is now right; nothing else changes on the training set
    before, after = hard_predict(tree, X), hard_predict(new, X)
    assert (after != before).sum() == 1 and after[y == DOT].tolist().count(DOT) == 12


def test_webb_example_first_leaf_fails_the_stated_binomial_test():
    # The paper accepts B ≤ 3 for the leaf A ≤ 2 (9 o vs Laplace 5/6 = 0.833) "at 0.05",
    # but (5/6)^9 ≈ 0.194; as the test is stated, it needs alpha above that.
    X, y, tree = webb_example()
    _, report = graft_tree(tree, X, y, mode="all", alpha=0.25)
    assert report["leaf"].tolist() == [3, 5, 5]
    row = report.iloc[0]
    assert (row["ancestor"], row["feature"], row["cut"], row["side"], row["class"]) == (
        0,
        1,
        3.0,
        "<=",
        CIRCLE,
    )
    assert round(row["laplace_leaf"], 3) == 0.833
    assert round(row["laplace_cut"], 3) == 0.909
    assert row["p_value"] == pytest.approx((5 / 6) ** 9)
    assert 0.19 < row["p_value"] < 0.2


def test_webb_example_predictions_in_the_new_partitions():
    X, y, tree = webb_example()
    new, _ = graft_tree(tree, X, y, mode="all", alpha=0.25)
    query = np.array(
        [
            [1.5, 2.0],  # below the * leaf A ≤ 2, near the o cases: o
            [3.5, 4.0],  # 2 < A ≤ 5, B ≤ 5: ·
            [6.5, 2.0],  # A > 5, B ≤ 3: o
            [6.5, 4.5],  # the * cases' own corner: still *
            [1.5, 7.0],
        ],
        dtype=np.float32,
    )
    assert hard_predict(tree, query).tolist() == [STAR, STAR, STAR, STAR, STAR]
    assert hard_predict(new, query).tolist() == [CIRCLE, DOT, CIRCLE, STAR, STAR]


def test_webb_example_one_keeps_only_the_best_graft():
    X, y, tree = webb_example()
    _, report = graft_tree(tree, X, y, mode="one", alpha=0.25)
    assert report["leaf"].tolist() == [3, 5]
    assert report.loc[report["leaf"] == 5, "feature"].item() == 0  # A ≤ 5 (0.917) beats B ≤ 3


# --------------------------------------------------------------------------- reference


def reference_grafts(tree, X, y, mode, alpha, features=None):
    """Steps 1–3 straight from the definitions, by brute force (unit weights)."""
    K, F = tree.n_classes, X.shape[1]
    X = X.astype(np.float64)
    parent = tree.parents()
    depth = tree.node_depth()
    reached = dict(iter_node_rows(tree, X))

    def cases(node):
        rows = reached[node]
        return rows if rows.size or parent[node] == LEAF else reached[parent[node]]

    out = []
    for leaf in tree.preorder():
        if tree.children_left[leaf] != LEAF or parent[leaf] == LEAF:
            continue
        rows_l = cases(leaf)
        if rows_l.size == 0:
            continue
        counts = np.bincount(y[rows_l], minlength=K)
        c = int(np.argmax(counts))
        lap_leaf = (counts[c] + 1) / (rows_l.size + 2)
        lo, hi = leaf_bounds(tree, leaf, F)
        ancestors, node = [], parent[leaf]
        while node != LEAF:
            ancestors.append(int(node))
            node = parent[node]
        tuples = []
        for a in range(F) if features is None else features:
            xc = X[rows_l[y[rows_l] == c], a]
            for side in ("<=", ">"):
                best = None
                for anc in ancestors:
                    rows = cases(anc)
                    xa = X[rows, a]
                    for v in np.unique(xa):
                        if side == "<=":
                            if not (lo[a] < v < min(xc.min(), hi[a])):
                                continue
                            region = rows[(xa > lo[a]) & (xa <= v)]
                        else:
                            if not (v >= xc.max() and lo[a] < v < hi[a]):
                                continue
                            region = rows[(xa > v) & (xa <= hi[a])]
                        if region.size == 0:
                            continue
                        cnt = np.bincount(y[region], minlength=K)
                        for k in range(K):
                            lap = (cnt[k] + 1) / (region.size + 2)
                            key = (lap, region.size, depth[anc], -k)
                            if best is None or key > best[0]:
                                best = (
                                    key,
                                    dict(
                                        leaf=leaf,
                                        ancestor=anc,
                                        feature=a,
                                        cut=float(v),
                                        side=side,
                                        klass=k,
                                        laplace=lap,
                                        T=region.size,
                                        P=int(cnt[k]),
                                    ),
                                )
                if best is None:
                    continue
                t = best[1]
                if t["laplace"] > lap_leaf and stats.binom.sf(t["P"] - 1, t["T"], lap_leaf) < alpha:
                    tuples.append(t)
        tuples.sort(key=lambda t: (-t["laplace"], -t["T"], t["feature"], t["side"] != "<="))
        if mode == "one":
            tuples = tuples[:1]
        while tuples and tuples[-1]["klass"] == c:
            tuples.pop()
        out.extend(tuples)
    return out


def check_against_reference(tree, X, y, mode, alpha, features=None):
    _, report = graft_tree(tree, X, y, mode=mode, alpha=alpha, continuous_features=features)
    expected = reference_grafts(tree, X, y, mode, alpha, features)
    got = list(
        zip(
            report["leaf"],
            report["ancestor"],
            report["feature"],
            report["cut"],
            report["side"],
            report["class"],
            strict=True,
        )
    )
    want = [
        (t["leaf"], t["ancestor"], t["feature"], t["cut"], t["side"], t["klass"]) for t in expected
    ]
    assert got == want
    np.testing.assert_allclose(report["laplace_cut"], [t["laplace"] for t in expected])
    np.testing.assert_allclose(report["n_region"], [t["T"] for t in expected])


def test_reference_agrees_on_the_webb_example():
    X, y, tree = webb_example()
    for mode in ("all", "one"):
        for alpha in (0.05, 0.25, 1.0):
            check_against_reference(tree, X, y, mode, alpha)


# --------------------------------------------------------------------------- invariants


def check_invariants(tree, X, y, mode, alpha, sample_weight=None):
    """Every invariant the issue lists, for one (tree, data, mode, alpha)."""
    before = snapshot(tree)
    X_before, y_before = X.copy(), y.copy()
    new, report = graft_tree(tree, X, y, mode=mode, alpha=alpha, sample_weight=sample_weight)
    again, report_again = graft_tree(
        tree, X, y, mode=mode, alpha=alpha, sample_weight=sample_weight
    )

    # inputs untouched
    for name, arr in before.items():
        np.testing.assert_array_equal(getattr(tree, name), arr, err_msg=name)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    # deterministic
    pd.testing.assert_frame_equal(report, report_again)
    for name in TernaryTree._ARRAYS:
        np.testing.assert_array_equal(getattr(new, name), getattr(again, name), err_msg=name)

    assert list(report.columns[: len(SPEC_COLUMNS)]) == SPEC_COLUMNS
    n0 = tree.node_count
    # grafted flags exactly on the appended nodes, two per graft; value rows sum to 1
    assert new.node_count == n0 + 2 * len(report)
    assert not new.grafted[:n0].any() and new.grafted[n0:].all()
    np.testing.assert_allclose(new.value.sum(axis=1), 1.0)
    assert sorted(report["new_split"].tolist() + report["new_leaf"].tolist()) == list(
        range(n0, new.node_count)
    )
    # original nodes keep their tests and class distributions
    for name in ("feature", "threshold", "value", "delta"):
        np.testing.assert_array_equal(getattr(new, name)[:n0], before[name])
    # sample counts add up along every split of the new tree
    for node in new.preorder():
        if new.children_left[node] != LEAF:
            kids = [new.children_left[node], new.children_right[node]]
            assert new.n_node_samples[node] == sum(new.n_node_samples[k] for k in kids)
    # each report row: the split tests the cut and routes to the new leaf of class k
    for _, row in report.iterrows():
        s, g = int(row["new_split"]), int(row["new_leaf"])
        assert new.feature[s] == row["feature"] and new.threshold[s] == row["cut"]
        branch = new.children_left[s] if row["side"] == "<=" else new.children_right[s]
        assert branch == g and new.children_left[g] == LEAF
        assert np.argmax(new.value[g]) == row["class"]
        lo, hi = leaf_bounds(tree, int(row["leaf"]), X.shape[1])
        assert lo[row["feature"]] < row["cut"] < hi[row["feature"]]  # strictly inside the leaf
        assert row["laplace_cut"] > row["laplace_leaf"] and row["p_value"] < alpha
    # "one" grafts at most once per leaf
    if mode == "one":
        assert report["leaf"].is_unique
    # a row the original leaf classified correctly keeps its prediction, so resubstitution
    # accuracy never drops (with δ = 0 both trees route like CART)
    p_old, p_new = hard_predict(tree, X), hard_predict(new, X)
    w = np.ones(len(y)) if sample_weight is None else sample_weight
    moved = p_old != p_new
    assert not np.any(moved & (p_old == y) & (w > 0))
    assert np.sum(w * (p_new == y)) >= np.sum(w * (p_old == y)) - 1e-9
    # outside every new region probabilities are unchanged; inside, the first graft whose
    # region holds the point (in grafting order) decides its class
    rng = np.random.RandomState(0)
    span = X.max(axis=0) - X.min(axis=0) + 1.0
    query = np.vstack(
        [
            X,
            (X.min(axis=0) - 0.5 + rng.uniform(size=(200, X.shape[1])) * (span + 1.0)).astype(
                X.dtype
            ),
        ]
    )
    proba_old, proba_new = (
        traverse(tree, query, "probabilistic")[0],
        traverse(new, query, "probabilistic")[0],
    )
    leaf = leaf_of_rows(tree, query)
    by_leaf = {lf: grp for lf, grp in report.groupby("leaf", sort=False)}
    for i in range(query.shape[0]):
        grafts = by_leaf.get(leaf[i])
        decided = None
        if grafts is not None:
            for _, row in grafts.iterrows():
                x = query[i, row["feature"]]
                if (x <= row["cut"]) if row["side"] == "<=" else (x > row["cut"]):
                    decided = row
                    break
        if decided is None:
            np.testing.assert_array_equal(proba_new[i], proba_old[i])
        else:
            np.testing.assert_array_equal(proba_new[i], new.value[int(decided["new_leaf"])])
    return new, report


def fitted_tree(X, y, **params):
    clf = TernaryTreeClassifier(delta_method="none", random_state=0, **params).fit(X, y)
    return clf.tree_, np.unique(y, return_inverse=True)[1]


@pytest.fixture(scope="module")
def noisy_data():
    rng = np.random.RandomState(3)
    X = rng.uniform(0, 10, size=(400, 3)).astype(np.float32)
    y = ((X[:, 0] + X[:, 1] > 10) ^ (rng.uniform(size=400) < 0.15)).astype(int)
    return X, y


@pytest.mark.parametrize("mode", ["all", "one"])
@pytest.mark.parametrize("max_depth", [None, 3])
def test_invariants_on_noisy_data(noisy_data, mode, max_depth):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=max_depth)
    new, report = check_invariants(tree, X, codes, mode, 0.05)
    assert len(report) > 0  # the case is not vacuous
    check_against_reference(tree, X, codes, mode, 0.05)


def test_continuous_features_limits_the_cut_attributes(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=None)
    _, report = graft_tree(
        tree, X, codes, mode="all", alpha=0.05, continuous_features=[False, True, False]
    )
    assert len(report) > 0 and set(report["feature"]) == {1}
    check_against_reference(tree, X, codes, "all", 0.05, features=[1])
    check_against_reference(tree, X, codes, "all", 0.05, features=[0, 2])
    empty, none = graft_tree(tree, X, codes, continuous_features=np.zeros(3, dtype=bool))
    assert none.empty and empty.node_count == tree.node_count
    with pytest.raises(ValueError, match="continuous_features"):
        graft_tree(tree, X, codes, continuous_features=[True, False])


def test_one_never_grafts_more_than_all(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=None)
    _, rep_all = graft_tree(tree, X, codes, mode="all", alpha=0.05)
    _, rep_one = graft_tree(tree, X, codes, mode="one", alpha=0.05)
    per_all, per_one = rep_all["leaf"].value_counts(), rep_one["leaf"].value_counts()
    assert (per_one <= 1).all() and len(rep_one) < len(rep_all)
    assert set(per_one.index) <= set(per_all.index)


def test_alpha_zero_grafts_nothing(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=None)
    new, report = graft_tree(tree, X, codes, mode="all", alpha=0.0)
    assert report.empty and list(report.columns) == list(GRAFT_REPORT_COLUMNS)
    assert new is not tree and new.node_count == tree.node_count and not new.grafted.any()


def test_mode_none_returns_a_copy(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=3)
    new, report = graft_tree(tree, X, codes, mode="none", alpha=0.5)
    assert report.empty and new is not tree
    np.testing.assert_array_equal(new.children_left, tree.children_left)


def test_pure_leaves_covering_their_region_get_nothing():
    # two pure leaves split on x0; on each attribute the class-c rows reach the extreme
    # values of the ancestor's rows inside the leaf, so no cut can be placed at all
    g0, g1 = np.meshgrid(np.arange(10.0), np.arange(5.0))
    X = np.c_[g0.ravel(), g1.ravel()].astype(np.float32)
    y = (X[:, 0] > 4.5).astype(int)
    tree = tree_from_data([1, -1, -1], [2, -1, -1], [0, -2, -2], [4.5, -2, -2], X, y, 2)
    new, report = graft_tree(tree, X, y, mode="all", alpha=1.0)
    assert report.empty and new.node_count == 3


def test_empty_leaf_draws_on_its_parents_rows():
    # root x0 ≤ 4.5 | x0 ≤ 20 → leaf (5 rows of class 1) | x0 > 20 → empty leaf
    X = np.array(
        [[i, 1.0 + 0.4 * i] for i in range(20)] + [[5 + i, 10 + i] for i in range(5)],
        dtype=np.float32,
    )
    X[:20, 0] = np.linspace(0, 4, 20)
    y = np.array([0] * 20 + [1] * 5)
    tree = tree_from_data(
        [1, -1, 3, -1, -1], [2, -1, 4, -1, -1], [0, -2, 0, -2, -2], [4.5, -2, 20, -2, -2], X, y, 2
    )
    assert tree.n_node_samples[4] == 0
    new, report = graft_tree(tree, X, y, mode="all", alpha=0.05)
    rows = report[report["leaf"] == 4]
    assert len(rows) == 1
    row = rows.iloc[0]
    # cases(leaf 4) = its parent's 5 class-1 rows: Laplace 6/7; the root's 20 class-0 rows
    # below x1 = min(class-1 x1) give 21/22 with p = (6/7)^20 < 0.05
    assert (row["ancestor"], row["feature"], row["side"], row["class"]) == (0, 1, "<=", 0)
    assert row["cut"] == pytest.approx(X[:20, 1].max())
    assert row["laplace_leaf"] == pytest.approx(6 / 7)
    assert row["laplace_cut"] == pytest.approx(21 / 22)
    assert row["p_value"] == pytest.approx((6 / 7) ** 20)
    assert new.n_node_samples[int(row["new_leaf"])] == 0
    check_invariants(tree, X, y, "all", 0.05)


def test_weights_zero_rows_are_ignored(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=4)
    w = np.ones(len(y))
    w[::7] = 0.0
    _, with_zero = graft_tree(tree, X, codes, mode="all", alpha=0.1, sample_weight=w)
    keep = w > 0
    _, dropped = graft_tree(tree, X[keep], codes[keep], mode="all", alpha=0.1)
    pd.testing.assert_frame_equal(
        with_zero.drop(columns=["new_split", "new_leaf"]),
        dropped.drop(columns=["new_split", "new_leaf"]),
    )


def test_uniform_weights_change_nothing(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=4)
    _, plain = graft_tree(tree, X, codes, mode="all", alpha=0.1)
    _, scaled = graft_tree(
        tree, X, codes, mode="all", alpha=0.1, sample_weight=np.full(len(y), 3.5)
    )
    pd.testing.assert_frame_equal(plain, scaled)


def test_grafted_split_gets_a_delta_from_the_trees_method(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=None)
    params = DeltaParams(method="quality_plateau", epsilon=0.5)
    new, report = graft_tree(
        tree, X, codes, mode="all", alpha=0.05, delta_params=params, random_state=0
    )
    deltas = new.delta[report["new_split"].to_numpy()]
    assert np.all(deltas >= 0) and np.any(deltas > 0)
    assert np.all(new.delta[report["new_leaf"].to_numpy()] == 0)
    none, _ = graft_tree(
        tree, X, codes, mode="all", alpha=0.05, delta_params=DeltaParams(method="none")
    )
    assert np.all(none.delta == 0)


def test_rejects_bad_arguments(noisy_data):
    X, y = noisy_data
    tree, codes = fitted_tree(X, y, max_depth=2)
    with pytest.raises(ValueError, match="mode"):
        graft_tree(tree, X, codes, mode="some")
    with pytest.raises(ValueError, match="alpha"):
        graft_tree(tree, X, codes, alpha=1.5)
    with pytest.raises(ValueError, match="y_codes"):
        graft_tree(tree, X, codes[:-1])
    middle = (
        TernaryTreeClassifier(
            delta_method="margin", routing="hard_middle", max_depth=2, random_state=0
        )
        .fit(X, y)
        .tree_
    )
    if np.any(middle.children_middle != LEAF):
        with pytest.raises(ValueError, match="middle"):
            graft_tree(middle, X, codes)


# --------------------------------------------------------------------------- hypothesis


@st.composite
def datasets(draw):
    seed = draw(st.integers(0, 2**31 - 1))
    n = draw(st.integers(8, 70))
    n_features = draw(st.integers(1, 3))
    n_classes = draw(st.integers(2, 3))
    grid = draw(st.booleans())
    rng = np.random.RandomState(seed)
    if grid:  # few distinct values: many ties
        X = rng.randint(0, 6, size=(n, n_features)).astype(np.float32)
    else:
        X = rng.normal(size=(n, n_features)).astype(np.float32)
    score = X @ rng.normal(size=n_features) + rng.normal(scale=0.7, size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    return X, y


@settings(max_examples=40, deadline=None)
@given(
    data=datasets(),
    mode=st.sampled_from(["all", "one"]),
    alpha=st.sampled_from([0.05, 0.3, 0.9]),
    max_depth=st.sampled_from([None, 1, 2, 4]),
    min_samples_leaf=st.integers(1, 4),
)
def test_property_invariants_and_reference(data, mode, alpha, max_depth, min_samples_leaf):
    X, y = data
    tree, codes = fitted_tree(X, y, max_depth=max_depth, min_samples_leaf=min_samples_leaf)
    check_invariants(tree, X, codes, mode, alpha)
    check_against_reference(tree, X, codes, mode, alpha)


@settings(max_examples=30, deadline=None)
@given(data=datasets(), alpha=st.sampled_from([0.05, 0.5]))
def test_property_one_at_most_once_and_never_more_than_all(data, alpha):
    X, y = data
    tree, codes = fitted_tree(X, y, max_depth=None)
    _, rep_all = graft_tree(tree, X, codes, mode="all", alpha=alpha)
    _, rep_one = graft_tree(tree, X, codes, mode="one", alpha=alpha)
    assert rep_one["leaf"].is_unique
    # "one" keeps a leaf's best tuple unless it has the leaf's own class; "all" then may
    # still graft weaker tuples of other classes below it
    first = rep_all.groupby("leaf", sort=False).head(1).set_index("leaf")
    own_class = np.argmax(tree.value[first.index.to_numpy()], axis=1)
    first = first[first["class"].to_numpy() != own_class]
    assert set(rep_one["leaf"]) == set(first.index)
    assert len(rep_one) <= len(rep_all)
    pd.testing.assert_frame_equal(
        rep_one.set_index("leaf")[["ancestor", "feature", "cut", "side", "class"]],
        first[["ancestor", "feature", "cut", "side", "class"]],
    )


@settings(max_examples=30, deadline=None)
@given(data=datasets(), alpha=st.sampled_from([0.05, 0.5]))
def test_property_alpha_zero_grafts_nothing(data, alpha):
    X, y = data
    tree, codes = fitted_tree(X, y, max_depth=None)
    new, report = graft_tree(tree, X, codes, mode="all", alpha=0.0)
    assert report.empty and new.node_count == tree.node_count
    # with "all", a larger alpha never leaves a grafted leaf ungrafted: it only adds tuples,
    # and a tuple of another class than the leaf's is never trailing-deleted (with "one"
    # this fails: the new best tuple may have the leaf's own class)
    _, small = graft_tree(tree, X, codes, mode="all", alpha=alpha / 10)
    _, large = graft_tree(tree, X, codes, mode="all", alpha=alpha)
    assert set(small["leaf"]) <= set(large["leaf"])
    assert len(small) <= len(large)


@settings(max_examples=30, deadline=None)
@given(data=datasets(), seed=st.integers(0, 1000))
def test_property_weighted_invariants(data, seed):
    X, y = data
    w = np.random.RandomState(seed).choice([0.0, 0.5, 1.0, 2.5], size=len(y))
    if w.sum() == 0:
        w[0] = 1.0
    clf = TernaryTreeClassifier(delta_method="none", max_depth=None, random_state=0)
    clf.fit(X, y, sample_weight=w)
    codes = np.searchsorted(clf.classes_, y)
    check_invariants(clf.tree_, X, codes, "all", 0.3, sample_weight=w)


# --------------------------------------------------------------------------- estimator


def test_estimator_grafts_and_reports(noisy_data):
    X, y = noisy_data
    clf = TernaryTreeClassifier(delta_method="none", graft="all", max_depth=None, random_state=0)
    clf.fit(X, y)
    report = clf.graft_report_
    assert isinstance(report, pd.DataFrame) and len(report) > 0
    assert set(SPEC_COLUMNS) <= set(report.columns)
    assert clf.tree_.grafted.sum() == 2 * len(report)
    plain = TernaryTreeClassifier(delta_method="none", graft="none", max_depth=None, random_state=0)
    plain.fit(X, y)
    assert plain.graft_report_ is None
    assert clf.tree_.node_count == plain.tree_.node_count + 2 * len(report)
    # resubstitution accuracy never drops
    assert clf.score(X, y) >= plain.score(X, y)


def test_estimator_reports_feature_names():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.uniform(size=(300, 2)), columns=["height", "width"])
    y = ((X["height"] + 0.3 * rng.normal(size=300)) > 0.5).astype(int)
    clf = TernaryTreeClassifier(delta_method="none", graft="all", max_depth=None, random_state=0)
    clf.fit(X, y)
    assert len(clf.graft_report_) > 0
    names = np.array(["height", "width"])[clf.graft_report_["feature"].to_numpy()]
    assert clf.graft_report_["feature_name"].tolist() == names.tolist()


def test_estimator_rejects_hard_middle_with_graft(noisy_data):
    X, y = noisy_data
    clf = TernaryTreeClassifier(routing="hard_middle", graft="all")
    with pytest.raises(ValueError, match="hard_middle") as info:
        clf.fit(X, y)
    assert "partition" in str(info.value)


def test_estimator_prunes_before_grafting(noisy_data):
    X, y = noisy_data
    kw = dict(delta_method="none", graft="all", max_depth=None, random_state=0)
    full = TernaryTreeClassifier(ccp_alpha=0.0, **kw).fit(X, y)
    pruned = TernaryTreeClassifier(ccp_alpha=0.01, **kw).fit(X, y)
    original = lambda clf: int((~clf.tree_.grafted).sum())  # noqa: E731
    assert original(pruned) < original(full)
    # grafts hang from leaves of the pruned tree
    ungrafted = TernaryTreeClassifier(ccp_alpha=0.01, **{**kw, "graft": "none"}).fit(X, y)
    assert original(pruned) == ungrafted.tree_.node_count
    assert set(pruned.graft_report_["leaf"]) <= set(np.flatnonzero(ungrafted.tree_.is_leaf))


def test_estimator_with_delta_and_class_weight_still_predicts(noisy_data):
    X, y = noisy_data
    clf = TernaryTreeClassifier(
        delta_method="margin", graft="one", max_depth=5, class_weight="balanced", random_state=0
    ).fit(X, y)
    proba, verdict = clf.predict_proba_verdict(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(np.unique(verdict)) <= {0, 1}
    assert clf.graft_report_["leaf"].is_unique
