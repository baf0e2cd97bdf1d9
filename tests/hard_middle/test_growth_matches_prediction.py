"""A hard-middle tree routes its training rows at predict time as it grew on them.

The growth splits a node's rows three ways (``x ≤ θ−δ`` left, ``x > θ+δ`` right, the
rest to the middle child); prediction and `ternary.tree.iter_node_rows` compare the same
float32 values with the same float64 bounds. Both must compare in float64: a bound
rounded to float32 sends a row lying exactly on ``float32(θ−δ)`` left while growing and
into the zone at predict time. Values on a coarse grid make bounds land on data values.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ternary import TernaryTreeClassifier
from ternary.tree import iter_node_rows


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**16),
    st.sampled_from(["margin", "quality_plateau", "gain_ratio", "class_overlap"]),
    st.sampled_from([0.1, 0.25, 1 / 3]),
)
def test_every_node_holds_the_training_rows_prediction_sends_it(seed, method, step):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 160))
    X = (rng.integers(0, 12, size=(n, 3)) * step).astype(np.float32)
    y = ((X[:, 0] + X[:, 1] > 6 * step) ^ (rng.random(n) < 0.25)).astype(int)
    clf = TernaryTreeClassifier(routing="hard_middle", delta_method=method, random_state=0)
    clf.fit(X, y)
    tree = clf.tree_
    in_middle = np.zeros(n, dtype=bool)
    for node, rows in iter_node_rows(tree, X, routing="hard_middle"):
        assert rows.size == tree.n_node_samples[node], node
        middle = tree.children_middle[node]
        if middle >= 0:
            left, right = tree.children_left[node], tree.children_right[node]
            # the middle child's rows are the node's rows in neither outer child
            in_middle[rows] |= ~np.isin(rows, _rows_of(tree, X, (left, right)))
    # a training row is flagged at predict time exactly when it grew into a middle child
    np.testing.assert_array_equal(clf.predict_verdict(X) == 0, in_middle)


def _rows_of(tree, X, nodes):
    return np.concatenate(
        [rows for node, rows in iter_node_rows(tree, X, routing="hard_middle") if node in nodes]
    )
