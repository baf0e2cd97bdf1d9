"""Routing, blending and verdicts on hand-built trees (Smits 2026, §3.4–3.5)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.tree import TernaryTree, TreeBuilder, iter_node_rows, traverse

A, B, C, M = [1.0, 0.0], [0.0, 1.0], [0.2, 0.8], [0.5, 0.5]


def two_level_tree(middle=False):
    """root: x0 at θ=0, δ=1 → leaf A | node 2: x0 at θ=0.5, δ=0.25 → leaves B | C.

    With ``middle``, each split also has a middle leaf M.
    """
    if not middle:
        return TernaryTree(
            children_left=[1, -1, 3, -1, -1],
            children_right=[2, -1, 4, -1, -1],
            feature=[0, -2, 0, -2, -2],
            threshold=[0.0, -2, 0.5, -2, -2],
            delta=[1.0, 0, 0.25, 0, 0],
            value=[M, A, M, B, C],
            n_node_samples=[10, 4, 6, 3, 3],
            impurity=np.zeros(5),
        )
    return TernaryTree(
        children_left=[1, -1, 3, -1, -1, -1, -1],
        children_right=[2, -1, 4, -1, -1, -1, -1],
        children_middle=[6, -1, 5, -1, -1, -1, -1],
        feature=[0, -2, 0, -2, -2, -2, -2],
        threshold=[0.0, -2, 0.5, -2, -2, -2, -2],
        delta=[1.0, 0, 0.25, 0, 0, 0, 0],
        value=[M, A, M, B, C, M, M],
        n_node_samples=[10, 4, 6, 3, 3, 1, 1],
        impurity=np.zeros(7),
    )


def test_probabilistic_blends_recursively():
    X = np.array([[0.5], [-1.0], [-0.5], [2.0], [0.8]])
    proba, verdict = traverse(two_level_tree(), X, "probabilistic")
    # x=0.5: root w_L=(1-0.5)/2=0.25; node 2 zone (0.25, 0.75]: w_L=0.5
    np.testing.assert_allclose(
        proba[0], 0.25 * np.array(A) + 0.75 * (0.5 * np.array(B) + 0.5 * np.array(C))
    )
    np.testing.assert_allclose(proba[1], A)  # x ≤ θ−δ: decided left
    # x=-0.5: root w_L = 0.75, right part at node 2: x ≤ 0.25 → B
    np.testing.assert_allclose(proba[2], 0.75 * np.array(A) + 0.25 * np.array(B))
    np.testing.assert_allclose(proba[3], C)  # beyond every zone
    # x=0.8: root w_L = 0.1; node 2: x > 0.75 → C
    np.testing.assert_allclose(proba[4], 0.1 * np.array(A) + 0.9 * np.array(C))
    np.testing.assert_array_equal(verdict, [0, 1, 0, 1, 0])
    assert verdict.dtype == np.int8


def test_deferred_routes_hard_below_the_first_zone():
    X = np.array([[0.5], [0.6], [-1.0], [0.7]])
    proba, verdict = traverse(two_level_tree(), X, "deferred")
    # x=0.5 blends at the root, then node 2 routes x ≤ 0.5 hard to B
    np.testing.assert_allclose(proba[0], 0.25 * np.array(A) + 0.75 * np.array(B))
    # x=0.6: root w_L = 0.2, node 2 hard: 0.6 > 0.5 → C
    np.testing.assert_allclose(proba[1], 0.2 * np.array(A) + 0.8 * np.array(C))
    np.testing.assert_allclose(proba[2], A)
    np.testing.assert_array_equal(verdict, [0, 0, 1, 0])
    # the probabilistic routing would have blended x=0.6 again at node 2
    p_prob, _ = traverse(two_level_tree(), X, "probabilistic")
    assert not np.allclose(p_prob[1], proba[1])


def test_zone_boundaries_are_half_open():
    # zone at the root is (−1, 1]: x = −1 is decided left, x = 1 is in the zone with w_L = 0
    X = np.array([[-1.0], [1.0]])
    proba, verdict = traverse(two_level_tree(), X, "probabilistic")
    np.testing.assert_allclose(proba[0], A)
    np.testing.assert_array_equal(verdict, [1, 0])
    np.testing.assert_allclose(proba[1], C)  # all weight right; node 2: 1 > 0.75 → C


def test_hard_middle_takes_exactly_one_branch():
    X = np.array([[0.5], [-2.0], [1.5], [0.0], [-1.0]])
    proba, verdict = traverse(two_level_tree(middle=True), X, "hard_middle")
    np.testing.assert_allclose(proba[0], M)  # root zone → middle leaf 6
    np.testing.assert_allclose(proba[1], A)
    np.testing.assert_allclose(proba[2], C)  # right, then node 2: 1.5 > 0.75 → C
    np.testing.assert_allclose(proba[4], A)  # x = θ−δ is decided left
    np.testing.assert_array_equal(verdict, [0, 1, 1, 0, 1])


def test_structure_helpers():
    tree = two_level_tree(middle=True)
    np.testing.assert_array_equal(tree.node_depth(), [0, 1, 1, 2, 2, 2, 1])
    np.testing.assert_array_equal(tree.parents(), [-1, 0, 0, 2, 2, 2, 0])
    np.testing.assert_array_equal(
        tree.reached_through_middle(), [False, False, False, False, False, True, True]
    )
    assert tree.n_leaves == 5 and tree.max_depth == 2
    assert tree.preorder() == [0, 1, 2, 3, 4, 5, 6]
    copy = tree.copy()
    copy.delta[0] = 9.0
    assert tree.delta[0] == 1.0


def test_iter_node_rows_partitions_like_training():
    X = np.array([[-2.0], [0.5], [0.3], [1.5], [0.9]])
    tree = two_level_tree(middle=True)
    got = {node: sorted(rows.tolist()) for node, rows in iter_node_rows(tree, X, "hard_middle")}
    assert got[1] == [0]  # ≤ −1
    assert got[6] == [1, 2, 4]  # (−1, 1]
    assert got[2] == [3]  # > 1
    binary = {node: sorted(rows.tolist()) for node, rows in iter_node_rows(two_level_tree(), X)}
    assert binary[1] == [0] and binary[2] == [1, 2, 3, 4]
    assert binary[3] == [1, 2] and binary[4] == [3, 4]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 80), keep=st.floats(0.3, 1.0))
def test_split_row_pairs_are_iter_node_rows_at_every_split(seed, n, keep):
    # the vectorised walk yields exactly the rows iter_node_rows gives each split node,
    # in the same (ascending) order, for any ascending subset of rows routed
    from sklearn.tree import DecisionTreeClassifier

    from ternary.tree import split_row_pairs

    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=(n, 2)).astype(np.float32)
    y = rng.integers(0, 3, size=n)
    t = DecisionTreeClassifier(random_state=seed).fit(X, y).tree_
    tree = TernaryTree(
        children_left=t.children_left,
        children_right=t.children_right,
        feature=t.feature,
        threshold=t.threshold,
        value=t.value[:, 0, :],
        n_node_samples=t.n_node_samples,
        impurity=t.impurity,
    )
    subset = np.flatnonzero(rng.random(n) < keep)
    pair_rows, pair_nodes = split_row_pairs(tree, X, subset)
    want = {
        node: subset[rows].tolist()
        for node, rows in iter_node_rows(tree, X[subset])
        if tree.children_left[node] != -1 and rows.size
    }
    got = {int(node): pair_rows[pair_nodes == node].tolist() for node in np.unique(pair_nodes)}
    assert got == want


def test_value_rows_are_normalised():
    tree = TernaryTree(
        children_left=[-1],
        children_right=[-1],
        feature=[-2],
        threshold=[-2.0],
        value=[[3.0, 1.0]],
        n_node_samples=[4],
        impurity=[0.375],
    )
    np.testing.assert_allclose(tree.value, [[0.75, 0.25]])


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_empty_input(routing):
    proba, verdict = traverse(two_level_tree(middle=True), np.empty((0, 1)), routing)
    assert proba.shape == (0, 2) and verdict.shape == (0,)


# ------------------------------------------------------------------ fast path = reference walk

from ternary import TernaryTreeClassifier  # noqa: E402
from ternary.tree import compiled_router, walk  # noqa: E402


def test_compiled_routers_are_available():
    # without them every prediction silently takes the slower numpy walk
    for middle, routing in ((False, "probabilistic"), (True, "hard_middle")):
        assert compiled_router(two_level_tree(middle), 1, routing) is not None


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    depth=st.sampled_from([1, 3, 4, None]),
    method=st.sampled_from(["margin", "quality_plateau", "class_overlap", "gain_ratio"]),
    routing=st.sampled_from(["probabilistic", "deferred", "hard_middle"]),
    scale=st.floats(0.0, 3.0),
)
def test_compiled_fast_path_equals_the_reference_walk(seed, depth, method, routing, scale):
    rng = np.random.RandomState(seed)
    X = np.round(rng.normal(size=(150, 3)), 2)
    y = (X[:, 0] + X[:, 1] ** 2 + rng.normal(scale=0.5, size=150) > 0.5).astype(int)
    clf = TernaryTreeClassifier(
        delta_method=method, routing=routing, max_depth=depth, delta_scale=scale, random_state=0
    ).fit(X, y)
    grid = rng.normal(size=(400, 3)).astype(np.float32)
    grid[:150] = X[:150]  # training values sit exactly on zone edges and thresholds
    proba, verdict = traverse(clf.tree_, grid, routing)
    ref_proba, ref_verdict = walk(clf.tree_, grid, routing)
    np.testing.assert_array_equal(verdict, ref_verdict)
    np.testing.assert_allclose(proba, ref_proba, atol=1e-12)
    only_verdict = traverse(clf.tree_, grid, routing, proba=False)[1]
    np.testing.assert_array_equal(only_verdict, verdict)


def test_copy_is_bit_exact():
    tree = two_level_tree()
    tree.value[0] = [1 / 3, 2 / 3]
    copy = tree.copy()
    for name in TernaryTree._ARRAYS:
        np.testing.assert_array_equal(getattr(copy, name), getattr(tree, name))
        assert getattr(copy, name) is not getattr(tree, name)


@pytest.mark.parametrize(
    "middle, routing", [(False, "probabilistic"), (False, "deferred"), (True, "hard_middle")]
)
def test_hand_built_trees_agree_on_the_compiled_path(middle, routing):
    # float32 input takes the compiled router, float64 the numpy walk
    X = np.array([[0.5], [-1.0], [-0.5], [2.0], [0.75], [1.0], [0.25], [-2.0], [0.0]])
    tree = two_level_tree(middle)
    fast_proba, fast_verdict = traverse(tree, X.astype(np.float32), routing)
    ref_proba, ref_verdict = walk(tree, X, routing)
    np.testing.assert_array_equal(fast_verdict, ref_verdict)
    np.testing.assert_allclose(fast_proba, ref_proba, atol=1e-12)


def test_builder_grows_a_tree_that_routes_like_the_hand_built_one():
    b = TreeBuilder(2)
    counts = {"root": [5, 5], "A": [4, 0], "mid": [1, 5], "B": [0, 3], "C": [0.6, 2.4]}
    ids = {}
    for name, c in counts.items():
        ids[name] = b.add_node(
            c, n_node_samples=int(sum(c)), weighted_n_node_samples=sum(c), criterion="gini"
        )
    b.set_split(ids["root"], 0, 0.0, 1.0)
    b.set_split(ids["mid"], 0, 0.5, 0.25)
    b.set_child(ids["root"], "children_left", ids["A"])
    b.set_child(ids["root"], "children_right", ids["mid"])
    b.set_child(ids["mid"], "children_left", ids["B"])
    b.set_child(ids["mid"], "children_right", ids["C"])
    assert b.slot_of(ids["C"]) == (ids["mid"], "children_right")
    tree = b.build()
    np.testing.assert_allclose(tree.value.sum(axis=1), 1.0)
    np.testing.assert_allclose(tree.impurity[ids["A"]], 0.0)
    np.testing.assert_allclose(tree.impurity[ids["root"]], 0.5)
    X = np.linspace(-2, 2, 41)[:, None]
    # the reference tree holds the same splits, with the builder's node ids
    ref = two_level_tree()
    for routing in ("probabilistic", "deferred"):
        np.testing.assert_allclose(traverse(tree, X, routing)[0], traverse(ref, X, routing)[0])
    np.testing.assert_array_equal(traverse(tree, X, "deferred")[1], traverse(ref, X, "deferred")[1])


def test_builder_extending_a_tree_keeps_its_nodes_bit_for_bit():
    ref = two_level_tree()
    ref.value[3] = [1 / 3, 2 / 3]  # a row whose renormalisation would not be exact
    b = TreeBuilder(2, ref)
    leaf = b.add_node(
        [1.0, 2.0], n_node_samples=3, weighted_n_node_samples=3.0, criterion="entropy", grafted=True
    )
    with pytest.raises(ValueError, match="root"):
        b.slot_of(0)
    up, slot = b.slot_of(4)
    b.set_child(up, slot, leaf)
    tree = b.build()
    np.testing.assert_array_equal(tree.value[:5], ref.value)
    assert tree.children_right[2] == leaf == 5 and tree.grafted.tolist() == [False] * 5 + [True]
    np.testing.assert_allclose(
        tree.impurity[leaf], -(1 / 3) * np.log2(1 / 3) - (2 / 3) * np.log2(2 / 3)
    )
