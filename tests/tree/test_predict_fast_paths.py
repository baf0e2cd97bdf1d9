"""The prediction fast paths of issue 41 against a brute-force oracle, and no per-call
work over the whole tree.

The oracle routes one row at a time by recursion over the tree, straight from the
routing's definition (`ternary.tree.traverse`); the fast paths (the compiled route
kernels, the hard-middle kernel, scikit-learn's compiled router without numba) must
give the same verdicts and leaves exactly and the same blend to rounding.
"""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from ternary import TernaryTreeClassifier
from ternary.compiled import without
from ternary.tree import LEAF, TernaryTree, kernels, traverse
from ternary.tree.kernels import kernel_available

_THRESHOLDS = [-1.0, -0.25, 0.0, 0.5, 1.0]
_DELTAS = [0.0, 0.25, 0.5, 1.0]


def oracle(tree, x, routing):
    """``(proba, decided)`` of one row, by recursion from the definitions."""
    top_closed = tree.zone_edges == "closed"

    def in_zone(node, v):
        t, d = tree.threshold[node], tree.delta[node]
        return d > 0 and t - d < v and (v < t + d or (top_closed and v == t + d))

    if routing == "hard_middle":
        node, decided = 0, True
        while tree.children_left[node] != LEAF:
            v, t, d = float(x[tree.feature[node]]), tree.threshold[node], tree.delta[node]
            if d > 0 and tree.children_middle[node] != LEAF:
                if v <= t - d:
                    node = tree.children_left[node]
                elif in_zone(node, v):
                    node, decided = tree.children_middle[node], False
                else:
                    node = tree.children_right[node]
            else:
                node = tree.children_left[node] if v <= t else tree.children_right[node]
        return tree.value[node].copy(), decided

    met = []

    def blend(node, weight, hard):
        if tree.children_left[node] == LEAF:
            return weight * tree.value[node]
        v, t, d = float(x[tree.feature[node]]), tree.threshold[node], tree.delta[node]
        zone = in_zone(node, v)
        if zone and weight > 0:
            met.append(node)
        if d <= 0 or hard:
            w_left = 1.0 if v <= t else 0.0
        else:
            w_left = min(max((t + d - v) / (2 * d), 0.0), 1.0)
        now_hard = hard or (routing == "deferred" and zone)
        out = np.zeros(tree.n_classes)
        for child, w in (
            (tree.children_left[node], w_left),
            (tree.children_right[node], 1 - w_left),
        ):
            if w > 0:
                out += blend(child, weight * w, now_hard)
        return out

    proba = blend(0, 1.0, False)
    # decided: no zone on CART's path
    node, decided = 0, True
    while tree.children_left[node] != LEAF:
        v = float(x[tree.feature[node]])
        decided &= not in_zone(node, v)
        node = tree.children_left[node] if v <= tree.threshold[node] else tree.children_right[node]
    return proba / proba.sum(), decided


@st.composite
def trees(draw, three_way):
    n_features = draw(st.integers(1, 3))
    cols = {k: [] for k in ("left", "right", "middle", "feature", "threshold", "delta")}

    def new_node():
        for key, blank in zip(cols, (LEAF, LEAF, LEAF, -2, -2.0, 0.0), strict=True):
            cols[key].append(blank)
        return len(cols["left"]) - 1

    def grow(node, depth):
        if depth == 5 or not draw(st.booleans()):
            return
        cols["feature"][node] = draw(st.integers(0, n_features - 1))
        cols["threshold"][node] = draw(st.sampled_from(_THRESHOLDS))
        cols["delta"][node] = draw(st.sampled_from(_DELTAS))
        slots = ["left", "right"] + (["middle"] if three_way and draw(st.booleans()) else [])
        for slot in slots:
            cols[slot][node] = new_node()
            grow(cols[slot][node], depth + 1)

    grow(new_node(), 0)
    n = len(cols["left"])
    value = draw(
        st.lists(st.lists(st.integers(0, 5), min_size=3, max_size=3), min_size=n, max_size=n)
    )
    tree = TernaryTree(
        children_left=cols["left"],
        children_right=cols["right"],
        children_middle=cols["middle"],
        feature=cols["feature"],
        threshold=cols["threshold"],
        delta=cols["delta"],
        value=value,
        n_node_samples=np.ones(n),
        impurity=np.zeros(n),
    )
    tree.zone_edges = draw(st.sampled_from(["open", "closed"]))
    return tree, n_features


def _rows(seed, n_features):
    rng = np.random.RandomState(seed)
    edges = sorted({t + s * d for t in _THRESHOLDS for d in _DELTAS for s in (-1, 0, 1)})
    X = rng.choice(
        edges + list(rng.uniform(-2.5, 2.5, 8)), size=(43, n_features)
    )  # 5 groups of 8 and 3 rows
    return X.astype(np.float32)


def _check(tree, X, routing):
    expected = [oracle(tree, x, routing) for x in X]
    want_p = np.array([p for p, _ in expected])
    want_v = np.array([d for _, d in expected], dtype=np.int8)
    for compiled in (True, False):  # the numba kernels, then scikit-learn's router
        with without() if not compiled else _nothing():
            proba, verdict = traverse(tree, X, routing)
            only_verdict = traverse(tree, X, routing, proba=False)
        np.testing.assert_array_equal(verdict, want_v)
        np.testing.assert_array_equal(only_verdict[1], want_v)
        assert only_verdict[0] is None
        if routing == "hard_middle":
            np.testing.assert_array_equal(proba, want_p)
        else:
            np.testing.assert_allclose(proba, want_p, rtol=0, atol=1e-12)


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@settings(max_examples=60, deadline=None)
@given(drawn=trees(three_way=False), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("routing", ["probabilistic", "deferred"])
def test_binary_fast_paths_equal_the_oracle(routing, drawn, seed):
    tree, n_features = drawn
    _check(tree, _rows(seed, n_features), routing)


@settings(max_examples=60, deadline=None)
@given(drawn=trees(three_way=True), seed=st.integers(0, 2**16))
def test_hard_middle_fast_paths_equal_the_oracle(drawn, seed):
    tree, n_features = drawn
    _check(tree, _rows(seed, n_features), "hard_middle")


def _fail(*args, **kwargs):
    raise AssertionError("work over the whole tree on a prediction call")


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_predicting_does_no_work_over_the_whole_tree(routing, monkeypatch):
    X, y = make_classification(2000, 8, n_informative=5, n_classes=3, random_state=1)
    clf = TernaryTreeClassifier(routing=routing, max_depth=None, random_state=0).fit(X, y)
    first = clf.predict_proba(X[:50]), clf.predict_verdict(X[:50]), clf.get_depth()
    # after the first call nothing may walk the node arrays in Python or rebuild a router
    for name in ("_preorder", "_node_depth", "_through_middle"):
        monkeypatch.setattr(TernaryTree, name, _fail, raising=False)
    monkeypatch.setattr("ternary.tree._routing.compiled_router", _fail)
    for i in range(5):
        row = X[i : i + 1]
        np.testing.assert_array_equal(clf.predict_proba(row), first[0][i : i + 1])
        np.testing.assert_array_equal(clf.predict_verdict(row), first[1][i : i + 1])
        assert clf.get_depth() == first[2]


def test_the_structure_cache_follows_replaced_arrays_and_is_never_saved():
    tree = TernaryTree(
        children_left=[1, -1, -1],
        children_right=[2, -1, -1],
        feature=[0, -2, -2],
        threshold=[0.5, -2, -2],
        delta=[0.1, 0, 0],
        value=[[3, 1], [3, 0], [0, 1]],
        n_node_samples=[4, 3, 1],
        impurity=[0.375, 0, 0],
    )
    assert tree.max_depth == 1 and tree.preorder() == [0, 1, 2]
    # a stump made a leaf by assigning new arrays: the cached depth goes with the old ones
    tree.children_left = np.array([-1, -1, -1])
    tree.children_right = np.array([-1, -1, -1])
    assert tree.max_depth == 0 and tree.preorder() == [0]
    assert "_structure_cache" not in pickle.loads(pickle.dumps(tree)).__dict__
    # the copies handed out are the caller's own
    depth = tree.node_depth()
    depth[0] = 7
    assert tree.node_depth()[0] == 0


def test_a_saved_model_loads_validates_and_predicts_the_same(tmp_path):
    sio = pytest.importorskip("skops.io")
    from ternary.pipeline import load_model

    X, y = make_classification(500, 5, random_state=2)
    for routing in ("probabilistic", "hard_middle"):
        clf = TernaryTreeClassifier(routing=routing, max_depth=6, random_state=0).fit(X, y)
        before = clf.predict_proba(X), clf.predict_verdict(X), clf.get_depth()
        path = tmp_path / f"{routing}.skops"
        sio.dump(clf, path)
        loaded = load_model(str(path))
        assert "_structure_cache" not in vars(loaded.tree_)
        np.testing.assert_array_equal(loaded.predict_proba(X), before[0])
        np.testing.assert_array_equal(loaded.predict_verdict(X), before[1])
        assert loaded.get_depth() == before[2]


def gap_oracle(tree, x, three_way, scale):
    """The smallest ``|x − θ| / scale`` on the row's path, capped at 10, by hand."""
    node, gap = 0, 10.0
    while tree.children_left[node] != LEAF:
        f, t, d = tree.feature[node], tree.threshold[node], tree.delta[node]
        v = float(x[f])
        gap = min(gap, abs(v - t) / scale[f])
        if three_way and tree.children_middle[node] != LEAF:
            if v <= t - d:
                node = tree.children_left[node]
            elif v > t + d:
                node = tree.children_right[node]
            else:
                node = tree.children_middle[node]
        else:
            node = tree.children_left[node] if v <= t else tree.children_right[node]
    return gap


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
@settings(max_examples=60, deadline=None)
@given(drawn=trees(three_way=True), seed=st.integers(0, 2**16))
def test_compiled_path_gaps_equal_the_oracle(drawn, seed):
    tree, n_features = drawn
    X = _rows(seed, n_features)
    scale = np.random.RandomState(seed).uniform(0.1, 3.0, n_features)
    for routing in ("probabilistic", "hard_middle"):
        want = [gap_oracle(tree, x, routing == "hard_middle", scale) for x in X]
        got = kernels.path_gaps(tree, X, routing, scale, 10.0)
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_confidence_is_the_same_with_and_without_the_kernels(routing):
    X, y = make_classification(1500, 6, n_informative=4, n_classes=3, random_state=5)
    clf = TernaryTreeClassifier(routing=routing, max_depth=7, random_state=0).fit(X, y)
    compiled = clf.predict_confidence(X)
    with without():
        np.testing.assert_array_equal(clf.predict_confidence(X), compiled)


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
@settings(max_examples=40, deadline=None)
@given(drawn=trees(three_way=False), seed=st.integers(0, 2**16))
@pytest.mark.parametrize("routing", ["probabilistic", "deferred"])
def test_a_paired_blend_is_each_blend_alone(routing, drawn, seed):
    tree, n_features = drawn
    X = _rows(seed, n_features)
    second = np.random.RandomState(seed).dirichlet(np.ones(tree.n_classes), tree.node_count)
    proba, other, verdict = kernels.predict_paired(tree, X, routing, second)
    alone = TernaryTree.__new__(TernaryTree)
    alone.__dict__.update(tree.__dict__, value=np.ascontiguousarray(second))
    np.testing.assert_array_equal(proba, traverse(tree, X, routing)[0])
    np.testing.assert_array_equal(verdict, traverse(tree, X, routing)[1])
    np.testing.assert_array_equal(other, traverse(alone, X, routing)[0])


@pytest.mark.skipif(not kernel_available(), reason="numba is not installed")
@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_laplace_confidence_walks_the_tree_once(routing, monkeypatch):
    X, y = make_classification(1500, 6, n_informative=4, n_classes=3, random_state=6)
    clf = TernaryTreeClassifier(routing=routing, max_depth=7, random_state=0).fit(X, y)
    expected = clf.predict_confidence(X)
    # the second walk with the Laplace values went through traverse; the paired pass does not
    monkeypatch.setattr("ternary._confidence.traverse", _fail)
    np.testing.assert_array_equal(clf.predict_confidence(X), expected)
