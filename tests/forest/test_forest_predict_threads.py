"""A forest predicts on ``n_jobs`` threads, every answer bit-equal to the one-thread sum
(issue 41 item 4).

The oracle is the sum a forest took before: each member's ``predict_proba_verdict`` of all
the rows, added into the forest's columns tree after tree.
"""

import threading

import numpy as np
import pytest
from sklearn.datasets import make_classification

from ternary import TernaryForestClassifier
from ternary.tree import traverse


def _oracle(forest, X):
    proba = np.zeros((X.shape[0], forest.n_classes_))
    decided = np.zeros(X.shape[0])
    for tree in forest.estimators_:
        p, verdict = tree.predict_proba_verdict(X)
        proba[:, np.searchsorted(forest.classes_, tree.classes_)] += p
        decided += verdict
    n = len(forest.estimators_)
    return proba / n, decided / n


@pytest.fixture(scope="module")
def fitted():
    X, y = make_classification(900, 6, n_informative=4, n_classes=3, random_state=4)
    forests = {
        (routing, confidence): TernaryForestClassifier(
            n_estimators=7,
            max_depth=6,
            routing=routing,
            confidence=confidence,
            random_state=0,
        ).fit(X, y)
        for routing in ("probabilistic", "deferred")
        for confidence in ("paper", "laplace")
    }
    return forests, X


@pytest.mark.parametrize("routing", ["probabilistic", "deferred"])
@pytest.mark.parametrize("confidence", ["paper", "laplace"])
def test_threads_give_the_one_thread_sums_bit_for_bit(fitted, routing, confidence, monkeypatch):
    forests, X = fitted
    forest = forests[routing, confidence]
    proba, share = _oracle(forest, X)
    forest.set_params(n_jobs=1)
    one = forest.predict_proba(X), forest.predict_verdict(X), forest.predict_confidence(X)
    np.testing.assert_array_equal(one[0], proba)
    np.testing.assert_array_equal(one[1], forest._verdict(share))
    # blocks of 64 rows: 15 blocks shared by the threads
    monkeypatch.setattr("ternary._confidence._FOREST_BLOCK", 64, raising=False)
    for n_jobs in (2, 3, -1):
        forest.set_params(n_jobs=n_jobs)
        np.testing.assert_array_equal(forest.predict_proba(X), one[0])
        np.testing.assert_array_equal(forest.predict_verdict(X), one[1])
        np.testing.assert_array_equal(forest.predict_confidence(X), one[2])
        np.testing.assert_array_equal(forest.decided_fraction(X), share)
    forest.set_params(n_jobs=None)


def test_n_jobs_two_walks_the_trees_on_two_threads(fitted, monkeypatch):
    forests, X = fitted
    forest = forests["probabilistic", "paper"]
    seen = []
    barrier = threading.Barrier(2, timeout=10)

    def meet(*args, **kwargs):
        # each thread's first walk waits for the other's: both must be running at once
        if threading.get_ident() not in seen:
            seen.append(threading.get_ident())
            barrier.wait()
        return traverse(*args, **kwargs)

    monkeypatch.setattr("ternary._confidence.traverse", meet)
    monkeypatch.setattr("ternary._confidence._FOREST_BLOCK", 32, raising=False)
    forest.set_params(n_jobs=2)
    try:
        forest.predict_proba(X)
    finally:
        forest.set_params(n_jobs=None)
    assert len(seen) == 2
