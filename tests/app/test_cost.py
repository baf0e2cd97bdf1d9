"""Cost estimates, the button above the on-arrival budget, work that stops with its run,
and capped echoes of user text (issue 22)."""

from __future__ import annotations

import threading
import time

import pytest

from appkit import cost
from appkit.guard import TEXT_LIMIT, WORD_LIMIT, capped, plain
from appkit.model import FitSpec
from ternary import stopping
from tests.app.helpers import open_link

HEAVY_LINK = {
    "dataset": "waveform",
    "n_samples": "5000",
    "model": "forest",
    "n_estimators": "100",
    "max_depth": "12",
    "delta_method": "node_bootstrap",
    "n_bootstraps": "100",
}


def _spec(features=("x1", "x2"), **params) -> FitSpec:
    return FitSpec(("waveform",), features, 0.3, 0, {"random_state": 0, **params})


def test_estimates_grow_with_the_work_and_split_cheap_from_heavy():
    light = _spec(delta_method="margin", max_depth=4)
    assert cost.regions_seconds(light, 1000, 21) < 0.1 * cost.AUTO_RUN_SECONDS
    heavy = _spec(delta_method="node_bootstrap", n_bootstraps=100, max_depth=12, n_estimators=100)
    assert cost.regions_seconds(heavy, 5000, 21) > 20 * cost.AUTO_RUN_SECONDS
    deeper = [cost.tree_fit_seconds({"max_depth": d}, 3500, 21) for d in (2, 4, 8, 12)]
    assert deeper == sorted(deeper) and deeper[0] < deeper[-1]
    boots = [
        cost.tree_fit_seconds({"delta_method": "node_bootstrap", "n_bootstraps": b}, 3500, 2)
        for b in (2, 20, 100)
    ]
    assert boots == sorted(boots) and boots[-1] > 10 * boots[0]
    # a forest costs its trees; all features cost more than the plotted two
    one = cost.fit_seconds(_spec(max_depth=6), 2000, 21)
    forest = cost.fit_seconds(_spec(max_depth=6, n_estimators=50), 2000, 21)
    assert forest == pytest.approx(50 * one)
    assert cost.tree_seconds(_spec(None, max_depth=6), 2000, 21) > one


@pytest.mark.parametrize("page", ["regions", "tree"])
def test_the_heaviest_link_asks_before_fitting(page):
    # AppTest's 60 s timeout bounds the run: fitting this at once takes minutes
    at = open_link(HEAVY_LINK, page)
    assert not at.exception, [e.value for e in at.exception]
    assert [b.label for b in at.button if b.label.startswith("Fit")], "no Fit button"
    assert any("more than the 3 s a page spends on arrival" in i.value for i in at.info)
    assert not at.metric  # nothing was fitted, so no cards


def test_cheap_settings_are_drawn_on_arrival():
    at = open_link({"dataset": "two moons"}, "regions")
    assert not at.exception and at.metric
    assert not [b for b in at.button if b.label.startswith("Fit and draw")]


def test_cancellable_returns_the_value_and_raises_the_works_error():
    assert cost.cancellable(lambda: 42, poll=lambda _: None, interval=0.01) == 42

    def broken():
        raise ValueError("bad setting")

    with pytest.raises(ValueError, match="bad setting"):
        cost.cancellable(broken, poll=lambda _: None, interval=0.01)


class _RunGone(BaseException):
    """Stands for Streamlit's stop/rerun exception raised at a yield point."""


def test_work_stops_when_its_run_has_gone():
    started, finished = threading.Event(), threading.Event()
    steps = []

    def long_fit():  # a loop over short steps that checks for a stop, as the fits do
        started.set()
        try:
            for k in range(3000):
                stopping.check()
                steps.append(k)
                time.sleep(0.01)
        finally:
            finished.set()

    polls = []

    def poll(elapsed):
        polls.append(elapsed)
        if len(polls) == 3:
            raise _RunGone

    with pytest.raises(_RunGone):
        cost.cancellable(long_fit, poll=poll, interval=0.05)
    assert started.is_set()
    # the worker ends soon after, far short of its 30 s of steps
    assert finished.wait(10)
    done = len(steps)
    time.sleep(0.2)
    assert len(steps) == done < 3000


def test_a_forest_fit_stops_at_its_next_member_when_its_run_has_gone(monkeypatch):
    from sklearn.datasets import make_moons

    from ternary import TernaryForestClassifier, TernaryTreeClassifier

    X, y = make_moons(300, noise=0.3, random_state=0)
    fit, members = TernaryTreeClassifier.fit, []

    def counted(self, *args, **kwargs):  # the forest's members are such trees
        members.append(1)
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(TernaryTreeClassifier, "fit", counted)
    forest = TernaryForestClassifier(n_estimators=5000, max_depth=6, random_state=0)

    def poll(elapsed):
        if members:  # the fit has begun: the run goes, as a closed tab's does
            raise _RunGone

    def working():
        return any(t.name == "ternary-fit" for t in threading.enumerate())

    with pytest.raises(_RunGone):
        cost.cancellable(lambda: forest.fit(X, y), poll=poll, interval=0.05)
    deadline = time.monotonic() + 60
    while working() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not working()
    done = len(members)
    time.sleep(0.2)
    assert len(members) == done < 5000  # stopped at a member, and for good
    assert not hasattr(forest, "estimators_")


def test_capped_cuts_long_runs_and_long_texts():
    value = "9" * 100_000
    message = f"n_samples={value!r} (could not convert string to float: {value!r})"
    out = capped(message)
    assert len(out) < 2 * WORD_LIMIT + 100
    assert out.endswith("…") and "could not convert string to float" in out
    assert max(len(w) for w in out.split()) == WORD_LIMIT
    assert capped("short text, kept as it is") == "short text, kept as it is"
    long_words = " ".join(["word"] * 2_000)
    assert len(capped(long_words)) == TEXT_LIMIT
    assert len(plain(message)) < 2 * len(out)  # plain caps before escaping


def test_a_long_value_in_a_link_is_capped_in_the_toast():
    at = open_link({"n_samples": "9" * 100_000, "dataset": "x" * 20_000})
    toasts = [t.value for t in at.toast]
    assert len(toasts) == 2
    assert all(len(t) < 1_000 for t in toasts), [len(t) for t in toasts]
    assert any("n\\_samples" in t for t in toasts)
