"""The compiled blend gives the numpy blend's probabilities, and numba stays optional."""

import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import make_classification

from ternary import TernaryTreeClassifier
from ternary.compiled import warm_up, without
from ternary.tree import blend_dense, blend_uncertain, traverse, walk
from ternary.tree import kernels as _blend

numba_missing = not _blend.kernel_available()


def walk_proba(tree, X, routing):
    return walk(tree, X, routing)[0]


def _data(n=3000, seed=0):
    X, y = make_classification(
        n, 6, n_informative=4, n_redundant=0, n_classes=3, flip_y=0.1, random_state=seed
    )
    return X, y


def _fitted(method, routing, depth, seed=0):
    X, y = _data(seed=seed)
    clf = TernaryTreeClassifier(
        delta_method=method, routing=routing, max_depth=depth, delta_scale=2.0, random_state=0
    )
    return clf.fit(X, y), X


CASES = [
    ("class_overlap", "probabilistic", 4),
    ("quality_plateau", "deferred", 4),
    ("gain_ratio", "probabilistic", 9),  # more than 64 leaves: the per-row walk kernel
    ("class_overlap", "deferred", 9),
]


@pytest.mark.skipif(numba_missing, reason="numba is not installed; the numpy path is tested")
@pytest.mark.parametrize("method, routing, depth", CASES)
@pytest.mark.parametrize("order", ["C", "F"])
def test_compiled_blend_equals_the_numpy_blend(method, routing, depth, order):
    clf, X = _fitted(method, routing, depth)
    tree = clf.tree_
    X32 = np.asarray(X, dtype=np.float32, order=order)
    rows = np.arange(0, X32.shape[0], 2)
    compiled = np.full((X32.shape[0], tree.n_classes), -1.0)
    assert _blend.blend_into(tree, X32, rows, routing, compiled)
    numpy_blend = blend_dense if tree.n_leaves <= _blend.MAX_DENSE_LEAVES else walk_proba
    reference = numpy_blend(tree, X32[rows], routing)
    np.testing.assert_allclose(compiled[rows], reference, rtol=0, atol=1e-12)
    assert (compiled[1::2] == -1.0).all()  # rows not asked for are left alone
    # the two kernels agree with each other too, on any tree size
    other = np.zeros_like(compiled)
    arrays = (tree.children_left, tree.children_right, tree.feature, tree.threshold)
    arrays += (tree.delta, tree.value, routing == "deferred", tree.open_edges, 1, other)
    _blend._kernels()["walk"](X32, rows, np.zeros(rows.size, dtype=np.intp), *arrays)
    np.testing.assert_allclose(other[rows], reference, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method, routing, depth", CASES)
def test_predictions_equal_todays_numpy_predictions(method, routing, depth):
    clf, X = _fitted(method, routing, depth, seed=1)
    X_new, _ = _data(2000, seed=5)
    proba, verdict = clf.predict_proba_verdict(X_new)
    assert 0.05 < 1 - verdict.mean()  # the blend is exercised
    # today's outputs: the reference walk in numpy, and the dense numpy blend via traverse
    walk_proba, walk_verdict = walk(clf.tree_, X_new.astype(np.float32), routing)
    np.testing.assert_allclose(proba, walk_proba, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(verdict, walk_verdict)
    with without("blend"):  # as if numba were not installed
        np.testing.assert_allclose(clf.predict_proba(X_new), proba, rtol=0, atol=1e-12)


def test_uncompiled_kernels_agree_with_numpy_on_a_small_tree():
    # the kernels' Python source, run by the interpreter: the logic without numba
    for routing in ("probabilistic", "deferred"):
        clf, X = _fitted("class_overlap", routing, 3)
        tree = clf.tree_
        X32 = X[:60].astype(np.float32)
        rows = np.arange(60)
        reference = blend_dense(tree, X32, routing)
        arrays = (tree.children_left, tree.children_right, tree.feature, tree.threshold)
        arrays += (tree.delta, tree.value, routing == "deferred", tree.open_edges, 1)
        walk = np.zeros((60, tree.n_classes))
        _blend._blend_rows(X32, rows, np.zeros(60, dtype=np.intp), *arrays, walk)
        dense = np.zeros((60, tree.n_classes))
        _blend._blend_rows_dense(X32, rows, np.array(tree.preorder()), *arrays, dense)
        np.testing.assert_allclose(walk, reference, rtol=0, atol=1e-12)
        np.testing.assert_allclose(dense, reference, rtol=0, atol=1e-12)


@pytest.mark.parametrize("routing", ["probabilistic", "deferred"])
@pytest.mark.parametrize("edges", ["open", "closed"])
def test_a_blend_started_at_the_first_zone_equals_one_from_the_root(routing, edges):
    # uncompiled: the route kernel's first zones, then the blend from them and from the root
    clf, X = _fitted("quality_plateau", routing, 9)
    tree = clf.tree_
    tree.zone_edges = edges
    X32 = X[:300].astype(np.float32)
    arrays = (tree.children_left, tree.children_right, tree.feature, tree.threshold)
    arrays += (tree.delta, tree.value)
    out = np.zeros((300, tree.n_classes))
    verdict = np.zeros(300, dtype=np.int8)
    uncertain, first = np.zeros(300, dtype=np.intp), np.zeros(300, dtype=np.intp)
    count = _blend._route_rows(X32, *arrays, tree.open_edges, out, verdict, uncertain, first)
    assert count > 30
    rows, starts = uncertain[:count], first[:count]
    assert (starts > 0).any() and (tree.delta[starts] > 0).all()
    flags = (routing == "deferred", tree.open_edges, 1)
    from_zone, from_root = np.zeros_like(out), np.zeros_like(out)
    _blend._blend_rows(X32, rows, starts, *arrays, *flags, from_zone)
    _blend._blend_rows(X32, rows, np.zeros(count, dtype=np.intp), *arrays, *flags, from_root)
    np.testing.assert_array_equal(from_zone, from_root)
    np.testing.assert_array_equal(verdict, walk(tree, X32, routing)[1])


def test_numpy_fallback_is_used_when_asked():
    clf, X = _fitted("quality_plateau", "probabilistic", 4)
    X32 = X.astype(np.float32)
    rows = np.arange(X32.shape[0])
    out_numpy = np.zeros((X32.shape[0], clf.tree_.n_classes))
    blend_uncertain(clf.tree_, X32, rows, "probabilistic", out_numpy, compiled=False)
    np.testing.assert_allclose(out_numpy, blend_dense(clf.tree_, X32, "probabilistic"))
    np.testing.assert_allclose(out_numpy.sum(axis=1), 1.0)
    proba, _ = traverse(clf.tree_, X32, "probabilistic")
    np.testing.assert_allclose(proba, out_numpy, rtol=0, atol=1e-12)


def test_import_ternary_does_not_import_numba():
    code = (
        "import sys, ternary, ternary.selective, ternary.tree.kernels; "
        "assert 'numba' not in sys.modules, 'numba imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.skipif(numba_missing, reason="numba is not installed")
def test_warm_up_reports_the_kernel_and_other_dtypes_fall_back():
    assert warm_up() is True
    clf, X = _fitted("class_overlap", "probabilistic", 3)
    out = np.full((X.shape[0], clf.tree_.n_classes), -1.0)
    # float64 rows are outside the compiled signature: nothing written, numpy answers
    assert not _blend.blend_into(clf.tree_, X, np.arange(5), "probabilistic", out)
    assert (out == -1.0).all() and _blend.kernel_available()
    np.testing.assert_allclose(traverse(clf.tree_, X, "probabilistic")[0].sum(axis=1), 1.0)
