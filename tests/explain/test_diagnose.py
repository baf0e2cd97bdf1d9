"""ternary.diagnose: degenerate fits named with their cause, steps of the flagged share,
and the majority-class rate (issue 37, items 5 and 6)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import train_test_split

from ternary import TernaryTreeClassifier
from ternary.data import load_digits
from ternary.diagnose import diagnose_fit, majority_rate, value_step


@pytest.fixture(scope="module")
def digits():
    ds = load_digits()
    return train_test_split(ds.X, ds.y, test_size=0.3, random_state=0, stratify=ds.y)


@pytest.mark.parametrize("method", ["gain_ratio", "class_overlap"])
def test_digits_hard_middle_single_leaf_is_named_with_its_root_zone(digits, method):
    X_tr, X_te, y_tr, y_te = digits
    tree = TernaryTreeClassifier(
        delta_method=method, routing="hard_middle", max_depth=4, random_state=0
    ).fit(X_tr, y_tr)
    assert tree.tree_.node_count == 1  # the degenerate fit of the issue
    found = diagnose_fit(tree, X_tr, y_tr, X_te)
    assert (found.kind, found.cause) == ("single_leaf", "zone_swallows_side")
    assert found.degenerate and found.flagged_share == 0.0 and found.n_rows == len(y_te)
    d = found.details
    # CART's root split of the same rows, and the zone the method draws there
    same = TernaryTreeClassifier(delta_method=method, max_depth=1, random_state=0).fit(X_tr, y_tr)
    assert d["feature"] == str(X_tr.columns[same.tree_.feature[0]])
    assert d["threshold"] == same.tree_.threshold[0] and d["delta"] == same.tree_.delta[0]
    values = X_tr[d["feature"]].to_numpy(float)
    # no training row at or below θ − δ: the hard-middle split has an empty left side
    assert d["zone"][0] < values.min() and d["rows_left"] == 0 < d["rows_right"]
    assert d["rows_left"] + d["rows_right"] + d["rows_zone"] == len(y_tr)
    assert method in found.headline and d["feature"] in found.headline
    assert "hard-middle" in found.sentence and "Probabilistic" in found.sentence
    # the same zone under probabilistic routing keeps the split: nothing degenerate
    split = TernaryTreeClassifier(delta_method=method, max_depth=4, random_state=0)
    assert diagnose_fit(split.fit(X_tr, y_tr), X_tr, y_tr, X_te).kind == "ok"


def test_other_single_leaves_say_why():
    rng = np.random.RandomState(0)
    X, y = rng.rand(40, 2), np.repeat([0, 1], 20)
    few = TernaryTreeClassifier(min_samples_split=50).fit(X, y)
    found = diagnose_fit(few, X, y)
    assert (found.kind, found.cause) == ("single_leaf", "too_few_rows")
    assert "40 training rows" in found.sentence
    flat = np.ones((40, 2))
    found = diagnose_fit(TernaryTreeClassifier().fit(flat, y), flat, y)
    assert (found.kind, found.cause) == ("single_leaf", "no_split")


def test_zones_between_whole_numbers_flag_nothing_and_the_next_scale_is_exact():
    X = np.array([[v] for v in range(6)] * 10, dtype=float)
    y = np.array([0, 0, 0, 1, 1, 1] * 10)
    tree = TernaryTreeClassifier(delta_method="margin", max_depth=1).fit(X, y)
    found = diagnose_fit(tree, X, y)
    assert (found.kind, found.cause) == ("flags_none", "between_values")
    scale, share = found.details["next_scale"], found.details["share_above"]
    assert scale == pytest.approx(1.0)
    # a refit just above that scale flags exactly the share the diagnosis names
    wider = TernaryTreeClassifier(delta_method="margin", max_depth=1, delta_scale=scale * 1.001)
    assert np.mean(wider.fit(X, y).predict_verdict(X) == 0) == share == pytest.approx(1 / 3)
    assert "whole-number" in found.headline


def test_a_root_zone_over_every_value_flags_all_and_says_so():
    rng = np.random.RandomState(1)
    X = rng.rand(200, 1)
    y = (rng.rand(200) < 0.5).astype(int)  # no structure: the classes overlap everywhere
    tree = TernaryTreeClassifier(
        delta_method="class_overlap", max_depth=1, delta_scale=3.0, max_delta_fraction=0.5
    ).fit(X, y)
    assert np.all(tree.predict_verdict(X) == 0)
    found = diagnose_fit(tree, X, y)
    assert (found.kind, found.cause) == ("flags_all", "root_zone_covers")
    low, high = found.details["zone"]
    assert low < X.min() and high > X.max()


def test_plain_cart_flags_none_by_design():
    X, y = np.random.RandomState(0).rand(50, 2), np.repeat([0, 1], 25)
    found = diagnose_fit(TernaryTreeClassifier(delta_method="none").fit(X, y), X, y)
    assert (found.kind, found.cause) == ("flags_none", "no_zones")


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    method=st.sampled_from(["margin", "quality_plateau", "gain_ratio", "class_overlap"]),
    scale=st.sampled_from([0.5, 1.0, 2.0]),
)
def test_the_kind_always_matches_the_verdicts(seed, method, scale):
    rng = np.random.RandomState(seed)
    X = rng.randint(0, 4, size=(60, 2)).astype(float)
    y = (X[:, 0] + rng.rand(60) > 2).astype(int)
    if np.unique(y).size < 2:
        y[0] = 1 - y[0]
    tree = TernaryTreeClassifier(delta_method=method, delta_scale=scale, max_depth=3).fit(X, y)
    found = diagnose_fit(tree, X, y)
    share = float(np.mean(tree.predict_verdict(X) == 0))
    assert found.flagged_share == share
    if tree.tree_.node_count == 1:
        assert found.kind == "single_leaf"
    elif share == 0:
        assert found.kind == "flags_none" and found.headline
    elif share == 1:
        assert found.kind == "flags_all" and found.headline
    else:
        assert found.kind == "ok" and not found.degenerate and found.sentence == ""


def test_digits_step_is_where_a_refit_jumps(digits):
    X_tr, X_te, y_tr, _ = digits
    cols = ["pixel_2_5", "pixel_4_4"]  # the regions page's two pixels on digits
    tree = TernaryTreeClassifier(delta_method="margin", max_depth=4, random_state=0)
    tree.fit(X_tr[cols], y_tr)
    step = value_step(tree, X_te[cols])
    assert step is not None and step.whole_numbers
    assert step.share_above - step.share_below >= 0.1

    def flagged(scale):
        refit = TernaryTreeClassifier(
            delta_method="margin", max_depth=4, random_state=0, delta_scale=scale
        ).fit(X_tr[cols], y_tr)
        return float(np.mean(refit.predict_verdict(X_te[cols]) == 0))

    assert flagged(step.scale * (1 - 1e-6)) == pytest.approx(step.share_below)
    assert flagged(step.scale * (1 + 1e-6)) == pytest.approx(step.share_above)
    assert f"{100 * step.share_above:.1f} %" in step.sentence


def test_no_step_on_continuous_features_or_hard_middle():
    rng = np.random.RandomState(0)
    X = rng.rand(300, 2)
    y = (X[:, 0] + 0.2 * rng.rand(300) > 0.6).astype(int)
    assert value_step(TernaryTreeClassifier(max_depth=3).fit(X, y), X) is None
    hm = TernaryTreeClassifier(max_depth=3, routing="hard_middle").fit(X, y)
    assert value_step(hm, X) is None


def test_majority_rate():
    assert majority_rate(["good"] * 7 + ["bad"] * 3) == ("good", 0.7)
    assert majority_rate([1, 1, 0], [0, 0, 0, 1]) == (1, 0.25)
    with pytest.raises(ValueError, match="at least one row"):
        majority_rate([])
