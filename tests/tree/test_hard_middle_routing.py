"""Hard-middle routing of hand-built trees: a split with δ > 0 but no middle child.

The hard-middle growth gives every split with δ > 0 a middle child, but a tree built by
hand (or from scikit-learn's, with deltas added) may lack one. Such a split routes like
CART (``x ≤ θ``) and flags nothing, in the reference walk, the compiled router and the
training partition alike (the exporters' `TreePlan.zoned` reads it the same way).
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary.tree import LEAF, TernaryTree, iter_node_rows, traverse, walk, zone_distance

# thresholds and half-widths whose sums are exact in float32, so rows sit on zone edges
_THRESHOLDS = [-1.0, -0.25, 0.0, 0.5, 1.0]
_DELTAS = [0.0, 0.25, 0.5, 1.0]


def stump_without_middle():
    """θ = 0.5, δ = 0.1, no middle child: leaf 1 on the left, leaf 2 on the right."""
    return TernaryTree(
        children_left=[1, -1, -1],
        children_right=[2, -1, -1],
        feature=[0, -2, -2],
        threshold=[0.5, -2, -2],
        delta=[0.1, 0, 0],
        value=[[3, 1], [1, 0], [0, 1]],
        n_node_samples=[4, 3, 1],
        impurity=[0.375, 0, 0],
    )


def test_a_zone_without_a_middle_child_routes_like_cart():
    tree = stump_without_middle()
    X = np.array([[0.0], [0.45], [0.5], [0.55], [1.0]])
    for rows in (X, X.astype(np.float32)):  # the numpy walk, then the compiled router
        proba, verdict = traverse(tree, rows, "hard_middle")
        np.testing.assert_array_equal(proba, [[1, 0], [1, 0], [1, 0], [0, 1], [0, 1]])
        np.testing.assert_array_equal(verdict, [1, 1, 1, 1, 1])
        # no zone to meet, at any scale
        np.testing.assert_array_equal(zone_distance(tree, rows, "hard_middle"), np.inf)
        by_scale = zone_distance(tree, rows, "hard_middle", base_delta=tree.delta, scale=1.0)
        np.testing.assert_array_equal(by_scale, np.inf)


@st.composite
def hand_built_trees(draw):
    """A random three-way tree; any split may lack its middle child, whatever its δ."""
    n_features = draw(st.integers(1, 3))
    left, right, middle, feature, threshold, delta = [], [], [], [], [], []

    def new_node():
        for column, blank in (
            (left, LEAF),
            (right, LEAF),
            (middle, LEAF),
            (feature, -2),
            (threshold, -2.0),
            (delta, 0.0),
        ):
            column.append(blank)
        return len(left) - 1

    def grow(node, depth):
        if depth == 4 or not draw(st.booleans()):
            return
        feature[node] = draw(st.integers(0, n_features - 1))
        threshold[node] = draw(st.sampled_from(_THRESHOLDS))
        delta[node] = draw(st.sampled_from(_DELTAS))
        slots = [left, right] + ([middle] if draw(st.booleans()) else [])
        for slot in slots:
            slot[node] = new_node()
            grow(slot[node], depth + 1)

    grow(new_node(), 0)
    leaves = np.flatnonzero(np.asarray(left) == LEAF)
    # one class per leaf, so a row's probabilities name the leaf it reached
    value = np.full((len(left), leaves.size), 1.0)
    value[leaves] = np.eye(leaves.size)
    tree = TernaryTree(
        children_left=left,
        children_right=right,
        children_middle=middle,
        feature=feature,
        threshold=threshold,
        delta=delta,
        value=value,
        n_node_samples=np.ones(len(left)),
        impurity=np.zeros(len(left)),
    )
    return tree, n_features


@settings(max_examples=40, deadline=None)
@given(drawn=hand_built_trees(), seed=st.integers(0, 2**16))
def test_walk_and_compiled_router_reach_the_same_leaves(drawn, seed):
    tree, n_features = drawn
    rng = np.random.RandomState(seed)
    edges = sorted({t + s * d for t in _THRESHOLDS for d in _DELTAS for s in (-1, 0, 1)})
    X = rng.choice(edges + list(rng.uniform(-2.5, 2.5, 8)), size=(64, n_features))
    X = X.astype(np.float32)
    fast_proba, fast_verdict = traverse(tree, X, "hard_middle")  # the compiled router
    ref_proba, ref_verdict = walk(tree, X, "hard_middle")  # the numpy walk
    np.testing.assert_array_equal(fast_verdict, ref_verdict)
    np.testing.assert_array_equal(fast_proba, ref_proba)
    # each row reached one leaf, the one the training partition puts it in
    leaves = np.flatnonzero(tree.is_leaf)
    reached = leaves[ref_proba.argmax(axis=1)]
    np.testing.assert_array_equal(ref_proba.max(axis=1), 1.0)
    partition = np.full(X.shape[0], -1)
    for node, rows in iter_node_rows(tree, X, "hard_middle"):
        if tree.is_leaf[node]:
            partition[rows] = node
    np.testing.assert_array_equal(reached, partition)
    # and a row is flagged exactly when its leaf lies below a middle branch
    np.testing.assert_array_equal(ref_verdict, ~tree.reached_through_middle()[reached])
    # the distance to the zones is measured on that path, at the zones that can flag a row
    distance = zone_distance(tree, X, "hard_middle", base_delta=tree.delta, scale=1.0)
    assert not ref_verdict[distance < 1.0].any()
    assert (distance[ref_verdict == 0] <= 1.0).all()
