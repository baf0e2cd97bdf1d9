"""Fits stop at their next check when a stop check answers True (`ternary.stopping`, issue 39).

Each test counts the work done after the stop was asked for (nodes grown, δ computed,
forest members, fold tasks), never seconds: the bound is one step of the loop that checks.
"""

import threading

import numpy as np
import pytest
from joblib import parallel_backend
from sklearn.datasets import make_classification

from ternary import TernaryForestClassifier, TernaryTreeClassifier
from ternary.experiment import run_cv
from ternary.stopping import Feed, Stopped, check, current, stop_when


@pytest.fixture(scope="module")
def data():
    return make_classification(600, n_features=6, n_informative=4, random_state=0)


class Checks:
    """A stop check that counts its calls and answers True from call ``stop_at`` on."""

    def __init__(self, stop_at=None):
        self.calls, self.stop_at = 0, stop_at

    def __call__(self):
        self.calls += 1
        return self.stop_at is not None and self.calls >= self.stop_at


@pytest.fixture
def tree_fits(monkeypatch):
    """Count `TernaryTreeClassifier.fit` calls (a forest's members are such trees)."""
    fit, calls = TernaryTreeClassifier.fit, []

    def counted(self, *args, **kwargs):
        calls.append(1)
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(TernaryTreeClassifier, "fit", counted)
    return calls


def _split_nodes(tree):
    return int((tree.children_left >= 0).sum())


def test_the_hard_middle_growth_checks_once_per_node_and_stops_there(data):
    X, y = data
    params = dict(routing="hard_middle", max_depth=None, random_state=0)
    every = Checks()
    with stop_when(every):
        grown = TernaryTreeClassifier(**params).fit(X, y)
    # one check as the fit starts, one per node taken from the growth's stack (every
    # split node and the children it pushed)
    assert _split_nodes(grown.tree_) + 1 <= every.calls <= grown.tree_.node_count + 1
    assert _split_nodes(grown.tree_) > 10  # a long growth to cut short

    stop = Checks(stop_at=5)
    with pytest.raises(Stopped), stop_when(stop):
        TernaryTreeClassifier(**params).fit(X, y)
    assert stop.calls == 5  # no node after the one whose check said stop


def test_the_node_by_node_delta_pass_checks_once_per_split_and_stops_there(data):
    X, y = data
    params = dict(delta_method="node_bootstrap", n_bootstraps=20, max_depth=8, random_state=0)
    every = Checks()
    with stop_when(every):
        grown = TernaryTreeClassifier(**params).fit(X, y)
    # the fit's start, after scikit-learn's growth, and one per split node's δ
    assert every.calls == 2 + _split_nodes(grown.tree_)
    assert _split_nodes(grown.tree_) > 20

    stop = Checks(stop_at=6)  # the 4th split node's δ
    with pytest.raises(Stopped), stop_when(stop):
        TernaryTreeClassifier(**params).fit(X, y)
    assert stop.calls == 6


def test_a_forest_stops_at_the_next_member(data, tree_fits):
    X, y = data
    stop = threading.Event()
    forest = TernaryForestClassifier(n_estimators=50, max_depth=4, random_state=0)

    def should_stop():
        if len(tree_fits) == 3:
            stop.set()
        return stop.is_set()

    with pytest.raises(Stopped), stop_when(should_stop):
        forest.fit(X, y)
    assert len(tree_fits) == 3  # of 50: the third member's own first check stopped it
    assert not hasattr(forest, "estimators_")


def test_a_forest_on_two_threads_stops_within_the_members_handed_out(data, tree_fits):
    X, y = data
    forest = TernaryForestClassifier(n_estimators=100, max_depth=4, n_jobs=2, random_state=0)
    with parallel_backend("threading"), pytest.raises(Stopped):
        with stop_when(lambda: len(tree_fits) >= 3):
            forest.fit(X, y)
    # joblib hands tasks out ahead of its workers (2 x n_jobs by default, in batches that
    # grow to at most that many): the members grown after the stop are those handed out
    assert 3 <= len(tree_fits) <= 3 + 2 * 2 * 2
    assert not hasattr(forest, "estimators_")


def test_cross_validation_stops_at_the_next_fold_task(data, tree_fits):
    X, y = data
    combos = [{"delta_method": "margin"}, {"delta_method": "margin", "routing": "hard_middle"}]
    run_cv(X, y, combos=combos, cv=5, max_depth=4, n_jobs=1)
    every_task = len(tree_fits)
    tree_fits.clear()
    stop = threading.Event()
    fits_at_stop = []

    def progress(done, total, text):
        if not stop.is_set():
            stop.set()
            fits_at_stop.append(len(tree_fits))

    with pytest.raises(Stopped), stop_when(stop.is_set):
        run_cv(X, y, combos=combos, cv=5, max_depth=4, n_jobs=1, progress=progress)
    assert every_task >= 10  # 5 folds x 2 combinations
    # the first row's task was the last: no tree was fitted after the stop
    assert len(tree_fits) == fits_at_stop[0] < every_task


def test_a_feed_ends_on_a_stop_and_says_so_in_the_calling_thread():
    with stop_when(Checks(stop_at=3)):
        feed = Feed(range(10))
    assert list(feed) == [0, 1]
    with pytest.raises(Stopped):
        feed.raise_if_stopped()
    whole = Feed(range(3))  # no check installed where it was made
    assert list(whole) == [0, 1, 2]
    whole.raise_if_stopped()


def test_no_check_installed_changes_nothing(data):
    X, y = data
    assert current() is None
    check()  # nothing installed: no stop
    plain = TernaryTreeClassifier(routing="hard_middle", max_depth=5, random_state=0).fit(X, y)
    with stop_when(lambda: False):
        checked = TernaryTreeClassifier(routing="hard_middle", max_depth=5, random_state=0)
        checked.fit(X, y)
    assert np.array_equal(plain.tree_.threshold, checked.tree_.threshold)
    assert np.array_equal(plain.predict_proba(X), checked.predict_proba(X))
    with stop_when(None):
        assert current() is None


def test_nested_checks_both_stop_and_each_block_restores_the_outer_one():
    outer, inner = threading.Event(), threading.Event()
    with stop_when(outer.is_set):
        with stop_when(inner.is_set):
            check()
            inner.set()
            with pytest.raises(Stopped):
                check()
            inner.clear()
            outer.set()
            with pytest.raises(Stopped):
                check()
        assert current() == outer.is_set
    assert current() is None


def test_a_stop_is_not_swallowed_by_except_exception():
    def work():
        try:
            check()
        except Exception:  # noqa: BLE001 - the pattern a stop must pass through
            return "swallowed"
        return "done"

    with stop_when(lambda: True), pytest.raises(Stopped):
        work()


def test_the_check_is_this_threads_own():
    seen = {}
    with stop_when(lambda: True):
        worker = threading.Thread(target=lambda: seen.update(check=current()))
        worker.start()
        worker.join()
    assert seen == {"check": None}  # another session's thread fits on, unstopped
