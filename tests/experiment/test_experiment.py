"""Tests for ternary.experiment: the CV protocol, Chow's baseline, the summary, the
resumable suite runner and the command line.

Expected numbers are computed independently inside each test: the folds,
scaler and trees are rebuilt by hand, Chow's rule and the Wilcoxon p-value are
enumerated from their definitions. No test touches the network.
"""

from __future__ import annotations

import itertools
import os
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from ternary import TernaryTreeClassifier
from ternary.data import DataError, Dataset, make_moons_dataset, make_xor_dataset
from ternary.experiment import (
    DEFAULT_COMBOS,
    _tasks,
    chow_curve,
    chow_curve_cv,
    chow_decided_accuracy,
    combo_label,
    laplace_cart_confidence,
    main,
    run_cv,
    run_suite,
    summarize,
)
from ternary.selective import aurc, e_aurc

COMPARED = [
    "decided_accuracy",
    "uncertain_rate",
    "accuracy",
    "decided_f1",
    "n_leaves",
    "chow_decided_accuracy",
    "cart_accuracy",
]


def _small_data(n=180, seed=3):
    X, y = make_classification(
        n_samples=n,
        n_features=5,
        n_informative=3,
        n_redundant=0,
        n_classes=3,
        n_clusters_per_class=1,
        flip_y=0.08,
        random_state=seed,
    )
    return X, np.array(["ant", "bee", "cat"])[y]


def _chow_by_hand(y_true, proba, classes, k):
    """Flag the k rows with the lowest max-probability, ties by row order (lexsort)."""
    confidence = proba.max(axis=1)
    order = np.lexsort((np.arange(len(y_true)), confidence))
    kept = np.setdiff1d(np.arange(len(y_true)), order[:k])
    pred = classes[proba.argmax(axis=1)]
    return np.mean(pred[kept] == y_true[kept]) if kept.size else np.nan


def _chow_random_ties_by_hand(y_true, proba, classes, k):
    """Expected decided accuracy when the tied rows at the cut are flagged at random:
    each row is kept with probability 1 above the cut value, 0 below it, and
    (tied rows kept) / (tied rows) at it."""
    n = len(y_true)
    if k >= n:
        return np.nan
    confidence = proba.max(axis=1)
    correct = classes[proba.argmax(axis=1)] == y_true
    if k == 0:
        return correct.mean()
    cut = np.sort(confidence)[k - 1]
    below, tied = np.sum(confidence < cut), np.sum(confidence == cut)
    p_keep = np.where(confidence > cut, 1.0, 0.0)
    p_keep[confidence == cut] = (tied - (k - below)) / tied
    return np.sum(p_keep * correct) / (n - k)


# ------------------------------------------------------------------------------ combos
def test_default_combos_are_the_papers_eleven():
    methods = {"margin", "node_bootstrap", "quality_plateau", "gain_ratio", "class_overlap"}
    pairs = {(c["delta_method"], c["routing"]) for c in DEFAULT_COMBOS}
    assert len(DEFAULT_COMBOS) == 11 == len(pairs)
    assert pairs == {(m, r) for m in methods for r in ("probabilistic", "hard_middle")} | {
        ("none", "probabilistic")
    }


def test_combo_labels():
    assert (
        combo_label({"delta_method": "margin", "routing": "probabilistic"})
        == "margin / probabilistic"
    )
    assert combo_label({"delta_method": "none", "routing": "probabilistic"}) == "CART"
    assert (
        combo_label({"delta_method": "none", "routing": "probabilistic", "graft": "none"}) == "CART"
    )
    assert (
        combo_label({"delta_method": "quality_plateau", "epsilon": 0.1, "alpha": 2})
        == "quality_plateau / probabilistic / alpha=2 / epsilon=0.1"
    )


# ------------------------------------------------------------------------------ run_cv
def test_run_cv_matches_a_hand_run_of_the_same_folds():
    X, y = _small_data()
    X_before = X.copy()
    combos = [
        {"delta_method": "margin", "routing": "probabilistic"},
        {"delta_method": "quality_plateau", "routing": "hard_middle"},
        {"delta_method": "node_bootstrap", "routing": "probabilistic"},
        {"delta_method": "none", "routing": "probabilistic"},
    ]
    start = time.perf_counter()
    rows = run_cv(X, y, combos=combos, cv=3, seed=7)
    wall = time.perf_counter() - start
    np.testing.assert_array_equal(X, X_before)  # the caller's array is untouched
    assert len(rows) == 12
    assert list(rows["fold"]) == [0, 1, 2] * 4

    folds = StratifiedKFold(n_splits=3, shuffle=True, random_state=7).split(X, y)
    for f, (train, test) in enumerate(folds):
        scaler = StandardScaler().fit(X[train])
        X_train, X_test = scaler.transform(X[train]), scaler.transform(X[test])
        cart = TernaryTreeClassifier(delta_method="none", max_depth=4, random_state=7)
        cart.fit(X_train, y[train])
        cart_proba = cart.predict_proba(X_test)
        cart_acc = np.mean(cart.predict(X_test) == y[test])
        sk_cart = DecisionTreeClassifier(max_depth=4, random_state=7).fit(X_train, y[train])
        train32 = X_train.astype(np.float32)
        for combo in combos:
            clf = TernaryTreeClassifier(max_depth=4, random_state=7, n_bootstraps="auto", **combo)
            clf.fit(X_train, y[train])
            pred, verdict = clf.predict_with_verdict(X_test)
            decided = verdict == 1
            got = rows[(rows["combo"] == combo_label(combo)) & (rows["fold"] == f)].iloc[0]
            assert got["delta_method"] == combo["delta_method"]
            assert got["routing"] == combo["routing"]
            assert got["graft"] == "none"
            assert got["decided_accuracy"] == pytest.approx(
                np.mean(pred[decided] == y[test][decided])
            )
            assert got["uncertain_rate"] == pytest.approx(np.mean(verdict == 0))
            assert got["accuracy"] == pytest.approx(np.mean(pred == y[test]))
            assert got["decided_f1"] == pytest.approx(
                f1_score(y[test][decided], pred[decided], average="macro", zero_division=0)
            )
            assert got["n_leaves"] == clf.get_n_leaves()
            assert got["cart_accuracy"] == pytest.approx(cart_acc)
            k = int(np.sum(verdict == 0))
            assert got["chow_decided_accuracy"] == pytest.approx(
                _chow_by_hand(y[test], cart_proba, cart.classes_, k)
            )
            assert got["chow_decided_accuracy_ties_mean"] == pytest.approx(
                _chow_random_ties_by_hand(y[test], cart_proba, cart.classes_, k)
            )
            assert got["aurc"] == pytest.approx(
                aurc(y[test], pred, clf.predict_confidence(X_test)), abs=1e-12
            )
            assert got["e_aurc"] == pytest.approx(
                e_aurc(y[test], pred, clf.predict_confidence(X_test)), abs=1e-12
            )
            # Chow's ranking: CART's own predictions, least sure by its largest probability
            cart_pred = cart.classes_[cart_proba.argmax(axis=1)]
            assert got["cart_aurc"] == pytest.approx(
                aurc(y[test], cart_pred, cart_proba.max(axis=1)), abs=1e-12
            )
            assert got["cart_e_aurc"] == pytest.approx(
                e_aurc(y[test], cart_pred, cart_proba.max(axis=1)), abs=1e-12
            )
            # the Laplace baseline, from scikit-learn's own tree of the same fold
            l_pred, l_conf = laplace_cart_confidence(
                sk_cart, X_test, train32.std(axis=0, dtype=np.float64)
            )
            assert got["laplace_aurc"] == aurc(y[test], l_pred, l_conf)
            assert got["laplace_e_aurc"] == e_aurc(y[test], l_pred, l_conf)
            kept = np.argsort(l_conf, kind="stable")[k:]
            assert got["laplace_decided_accuracy"] == pytest.approx(
                np.mean(l_pred[kept] == y[test][kept]) if kept.size else np.nan, nan_ok=True
            )
            # a fit takes some time, and less than the whole run that contains it
            assert 0 < got["fit_seconds"] < wall
    # the δ methods do flag rows here, otherwise the comparison above proves little
    assert rows.loc[rows["delta_method"] == "margin", "uncertain_rate"].mean() > 0
    cart_rows = rows[rows["combo"] == "CART"]
    np.testing.assert_allclose(cart_rows["uncertain_rate"], 0.0)
    np.testing.assert_allclose(cart_rows["decided_accuracy"], cart_rows["cart_accuracy"])
    # the fits run one after another inside the run, so together they fit inside it too.
    # A combination that rezones the fold's CART (binary routing, no graft, no pruning:
    # all but hard_middle here) counts that CART's fit in its own fit_seconds, so per
    # fold the shared fit is counted once: the largest sharing row, plus the others' fits.
    shared = rows["routing"] != "hard_middle"
    per_fold = rows[shared].groupby("fold")["fit_seconds"].max()
    assert per_fold.sum() + rows.loc[~shared, "fit_seconds"].sum() < wall


def test_run_cv_is_invariant_to_an_affine_rescaling_of_the_features():
    # the scaler is fitted per training fold, so 10·X + 3 standardises to the same
    # numbers; a leak of test rows into the scaler or a missing scaler would show
    X, y = _small_data(n=150)
    combos = [{"delta_method": "gain_ratio"}, {"delta_method": "none"}]
    a = run_cv(X, y, combos=combos, cv=3, seed=1, scale=True)
    b = run_cv(X * 10.0 + 3.0, y, combos=combos, cv=3, seed=1, scale=True)
    np.testing.assert_allclose(a["decided_accuracy"], b["decided_accuracy"])
    np.testing.assert_allclose(a["uncertain_rate"], b["uncertain_rate"])


def test_run_cv_swept_parameters_get_columns_and_dataframes_work():
    X, y = _small_data(n=150)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    combos = [{"delta_method": "quality_plateau", "epsilon": e} for e in (0.01, 0.2)]
    calls = []
    rows = run_cv(
        frame, y, combos=combos, cv=3, progress=lambda done, total, msg: calls.append((done, total))
    )
    assert "epsilon" in rows.columns
    assert sorted(rows["epsilon"].unique()) == [0.01, 0.2]
    assert set(rows["combo"]) == {
        "quality_plateau / probabilistic / epsilon=0.01",
        "quality_plateau / probabilistic / epsilon=0.2",
    }
    assert calls == [(i, 6) for i in range(1, 7)]
    # a wider plateau tolerance cannot narrow the zones
    means = rows.groupby("epsilon")["uncertain_rate"].mean()
    assert means[0.2] >= means[0.01]


def test_run_cv_imputes_missing_values_inside_the_fold():
    X, y = _small_data(n=150)
    X = X.copy()
    X[::7, 1] = np.nan
    rows = run_cv(X, y, combos=[{"delta_method": "margin"}], cv=3)
    assert len(rows) == 3
    assert rows["accuracy"].between(0, 1).all()


def test_run_cv_rare_class_gives_a_clear_error():
    X, y = _small_data(n=60)
    y = y.astype(object)
    y[:3] = "dodo"
    with pytest.raises(ValueError, match=r"at least 5 rows of every class.*'dodo' \(3 rows\)"):
        run_cv(X, y, combos=[{"delta_method": "margin"}], cv=5)


def test_run_cv_rejects_bad_combos():
    X, y = _small_data(n=60)
    with pytest.raises(ValueError, match="Unknown TernaryTreeClassifier parameter"):
        run_cv(X, y, combos=[{"delta_methd": "margin"}], cv=3)
    with pytest.raises(ValueError, match="Duplicate"):
        run_cv(X, y, combos=[{"delta_method": "margin"}, {"delta_method": "margin"}], cv=3)


def test_n_jobs_two_gives_the_same_numbers_as_one():
    X, y = _small_data(n=150)
    combos = DEFAULT_COMBOS[:4] + [DEFAULT_COMBOS[-1]]
    one = run_cv(X, y, combos=combos, cv=3, n_jobs=1)
    two = run_cv(X, y, combos=combos, cv=3, n_jobs=2)
    pd.testing.assert_frame_equal(one.drop(columns="fit_seconds"), two.drop(columns="fit_seconds"))


def test_one_cart_per_fold_serves_the_binary_combinations_with_unchanged_numbers(monkeypatch):
    X, y = _small_data(n=150)
    combos = [
        {"delta_method": m, "routing": r}
        for m in ("margin", "node_bootstrap", "quality_plateau", "gain_ratio", "class_overlap")
        for r in ("probabilistic", "deferred")
    ] + [{"delta_method": "none"}, {"delta_method": "margin", "routing": "hard_middle"}]
    params = {**TernaryTreeClassifier().get_params(), "max_depth": 4}
    assert _tasks.shares_cart({**params, "routing": "deferred"})  # the fast path is taken
    assert not _tasks.shares_cart({**params, "routing": "hard_middle"})
    assert not _tasks.shares_cart({**params, "graft": "all"})
    # a CART that differs in more than its zones cannot serve
    assert not _tasks.shares_cart(params, {**params, "max_features": "sqrt"})
    assert _tasks.shares_cart(params, {**params, "delta_method": "none", "epsilon": 0.2})
    fast = run_cv(X, y, combos=combos, cv=3, seed=4, delta_scale=1.5)
    monkeypatch.setattr(_tasks, "_SHARE_CART", False)
    assert not _tasks.shares_cart(params)
    slow = run_cv(X, y, combos=combos, cv=3, seed=4, delta_scale=1.5)
    pd.testing.assert_frame_equal(
        fast.drop(columns="fit_seconds"), slow.drop(columns="fit_seconds"), check_exact=True
    )
    assert (fast["uncertain_rate"] > 0).any()  # zones that differ by method were compared


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40))
def test_macro_f1_is_scikit_learns_to_the_last_bit(pairs):
    y_true = np.array([a for a, _ in pairs])
    y_pred = np.array([b for _, b in pairs])
    expected = f1_score(y_true, y_pred, average="macro", zero_division=0)
    assert _tasks.macro_f1(y_true, y_pred) == expected
    labels = np.array(["ant", "bee", "cat", "dog", "eel"])
    assert _tasks.macro_f1(labels[y_true], labels[y_pred]) == expected


# ------------------------------------------------------------------------------ Chow
def test_chow_decided_accuracy_by_hand():
    y = np.array([0, 1, 1, 0, 1, 0])
    proba = np.array(
        [
            [0.90, 0.10],  # pred 0, right, conf 0.90
            [0.60, 0.40],  # pred 0, wrong, conf 0.60
            [0.40, 0.60],  # pred 1, right, conf 0.60 (tie with row 1)
            [0.20, 0.80],  # pred 1, wrong, conf 0.80
            [0.45, 0.55],  # pred 1, right, conf 0.55
            [0.70, 0.30],
        ]
    )  # pred 0, right, conf 0.70
    # flag nothing: 4 of 6 right
    assert chow_decided_accuracy(y, proba, 0) == pytest.approx(4 / 6)
    # flag row 4 (0.55): rows 0,1,2,3,5 -> right 0,2,5 -> 3/5
    assert chow_decided_accuracy(y, proba, 1) == pytest.approx(3 / 5)
    # flag rows 4 and 1 (the tie at 0.60 goes to the earlier row): rows 0,2,3,5 -> 3/4
    assert chow_decided_accuracy(y, proba, 2) == pytest.approx(3 / 4)
    # then row 2: rows 0,3,5 -> 2/3; then row 5 (0.70): rows 0,3 -> 1/2
    assert chow_decided_accuracy(y, proba, 3) == pytest.approx(2 / 3)
    assert chow_decided_accuracy(y, proba, 4) == pytest.approx(1 / 2)
    assert np.isnan(chow_decided_accuracy(y, proba, 6))
    # tie-averaged: flagging 2 = row 4 plus one of rows 1 (wrong) and 2 (right) at random,
    # kept rows 0, 3, 5 (2 right) and the other tied row (right with probability 1/2)
    assert chow_decided_accuracy(y, proba, 2, ties="mean") == pytest.approx(2.5 / 4)
    # a cut between tie groups is unambiguous: both rules agree
    for k in (0, 1, 3, 4, 5):
        assert chow_decided_accuracy(y, proba, k, ties="mean") == pytest.approx(
            chow_decided_accuracy(y, proba, k)
        )
    # string labels with the estimator's classes_
    labels = np.array(["no", "yes"])[y]
    assert chow_decided_accuracy(labels, proba, 2, classes=["no", "yes"]) == pytest.approx(3 / 4)

    curve = chow_curve(y, proba, rates=[0.0, 1 / 6, 0.5, 1.0])
    np.testing.assert_allclose(curve["uncertain_rate"], [0.0, 1 / 6, 0.5, 1.0])
    np.testing.assert_allclose(curve["decided_accuracy"][:3], [4 / 6, 3 / 5, 2 / 3])
    assert np.isnan(curve["decided_accuracy"].iloc[3])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 60), st.integers(2, 4), st.integers(0, 2**31 - 1), st.floats(0.0, 1.0))
def test_chow_flags_exactly_the_rows_below_a_confidence_cut(n, k, seed, cut_quantile):
    rng = np.random.default_rng(seed)
    raw = rng.random((n, k)) + 1e-3
    proba = raw / raw.sum(axis=1, keepdims=True)
    y = rng.integers(0, k, size=n)
    confidence = proba.max(axis=1)
    cut = np.quantile(confidence, cut_quantile)
    below = confidence < cut
    # with continuous random probabilities there are no ties, so Chow's flagged set
    # for n_flagged = #below is exactly the rows under the cut
    expected = np.mean(proba.argmax(axis=1)[~below] == y[~below]) if (~below).any() else np.nan
    got = chow_decided_accuracy(y, proba, int(below.sum()), classes=np.arange(k))
    np.testing.assert_allclose(got, expected, equal_nan=True)
    curve = chow_curve(y, proba, rates=[0.0], classes=np.arange(k))
    assert curve["decided_accuracy"].iloc[0] == pytest.approx(np.mean(proba.argmax(1) == y))


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from([0.6, 0.7, 0.9]), min_size=1, max_size=6),
    st.lists(st.booleans(), min_size=6, max_size=6),
    st.integers(0, 6),
)
def test_chow_mean_ties_is_the_average_over_row_orders(confidence, labels, k):
    # binary problem, every row predicted class 0; label True = class 1 (wrong)
    n = len(confidence)
    k = min(k, n)
    conf = np.array(confidence)
    proba = np.column_stack([conf, 1 - conf])
    y = np.array(labels[:n], dtype=int)
    results = []
    for perm in itertools.permutations(range(n)):
        perm = list(perm)
        results.append(chow_decided_accuracy(y[perm], proba[perm], k, classes=[0, 1]))
    got = chow_decided_accuracy(y, proba, k, classes=[0, 1], ties="mean")
    if k == n:
        assert np.isnan(got)
    else:
        assert got == pytest.approx(np.mean(results))


def test_chow_curve_cv_uses_run_cv_folds():
    X, y = _small_data(n=150)
    rows = run_cv(X, y, combos=[{"delta_method": "none"}], cv=3, seed=5)
    curve = chow_curve_cv(X, y, cv=3, seed=5, rates=[0.0, 0.3])
    # at rate 0 the curve is CART's mean accuracy over the same folds
    assert curve["decided_accuracy"].iloc[0] == pytest.approx(rows["cart_accuracy"].mean())
    assert curve["uncertain_rate"].iloc[1] == pytest.approx(0.3, abs=0.01)
    assert list(curve.columns) == ["uncertain_rate", "decided_accuracy", "decided_accuracy_std"]


# ------------------------------------------------------------------------------ summarize
def _table(diffs, cart, rates, combo="m / p", folds=2):
    rows = []
    for d, (name, c) in enumerate(zip(diffs, cart, strict=True)):
        for f in range(folds):
            wobble = 0.01 if f == 0 else -0.01  # fold values differ, their mean is exact
            rows.append(
                {
                    "dataset": f"d{d}",
                    "combo": combo,
                    "delta_method": "margin",
                    "routing": "probabilistic",
                    "graft": "none",
                    "fold": f,
                    "decided_accuracy": c + name + wobble,
                    "uncertain_rate": rates[d],
                    "accuracy": c,
                    "decided_f1": 0.5,
                    "fit_seconds": 0.1,
                    "n_leaves": 8,
                    "chow_decided_accuracy": c + 0.001,
                    "cart_accuracy": c,
                }
            )
    return rows


def _exact_wilcoxon_greater(d):
    d = np.asarray([v for v in d if v != 0])
    ranks = pd.Series(np.abs(d)).rank().to_numpy()
    observed = ranks[d > 0].sum()
    sums = [
        sum(r for r, s in zip(ranks, signs, strict=True) if s)
        for signs in itertools.product([0, 1], repeat=len(d))
    ]
    return np.mean(np.array(sums) >= observed - 1e-9)


def test_summarize_win_tie_loss_and_wilcoxon():
    diffs = [0.02, 0.011, 0.003, -0.004, -0.012, 0.006, 0.030]
    cart = [0.70, 0.80, 0.75, 0.90, 0.60, 0.85, 0.65]
    rates = [0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.4]
    rows = _table(diffs, cart, rates)
    # a second combination that never moves: all ties, no test possible
    rows += _table([0.0] * 7, cart, [0.0] * 7, combo="CART")
    for r in rows[-14:]:
        r["delta_method"] = "none"
    table = summarize(pd.DataFrame(rows))
    m = table[table["combo"] == "m / p"].iloc[0]
    assert (m["wins"], m["ties"], m["losses"]) == (4, 2, 1)
    assert m["n_datasets"] == 7
    assert m["wilcoxon_p"] == pytest.approx(_exact_wilcoxon_greater(diffs))
    assert m["decided_accuracy"] == pytest.approx(np.mean(np.add(cart, diffs)))
    assert m["decided_accuracy_std"] == pytest.approx(np.std(np.add(cart, diffs), ddof=1))
    assert m["uncertain_pct"] == pytest.approx(100 * np.mean(rates))
    assert m["efficiency"] == pytest.approx(np.mean(diffs) / np.mean(rates))
    assert m["gain_vs_chow"] == pytest.approx(np.mean(diffs) - 0.001)
    base = table[table["combo"] == "CART"].iloc[0]
    assert (base["wins"], base["ties"], base["losses"]) == (0, 7, 0)
    assert np.isnan(base["wilcoxon_p"]) and np.isnan(base["efficiency"])
    # sorted by decided accuracy, baseline kept
    assert list(table["combo"]) == ["m / p", "CART"]


def test_summarize_all_positive_differences_gives_the_exact_minimum_p():
    rows = _table([0.01, 0.02, 0.03, 0.04, 0.05], [0.7] * 5, [0.2] * 5)
    table = summarize(pd.DataFrame(rows))
    assert table["wilcoxon_p"].iloc[0] == pytest.approx(1 / 2**5)


def test_summarize_one_dataset_uses_fold_std_and_bayes_error():
    X, y = _small_data(n=150)
    rows = run_cv(X, y, combos=[{"delta_method": "margin"}, {"delta_method": "none"}], cv=3)
    table = summarize(rows, bayes_error=0.1)
    margin = table[table["combo"] == "margin / probabilistic"].iloc[0]
    part = rows[rows["combo"] == "margin / probabilistic"]
    assert margin["decided_accuracy"] == pytest.approx(part["decided_accuracy"].mean())
    assert margin["decided_accuracy_std"] == pytest.approx(part["decided_accuracy"].std())
    assert margin["ub_ratio"] == pytest.approx(part["uncertain_rate"].mean() / 0.1)
    assert margin["aurc"] == pytest.approx(part["aurc"].mean())
    assert margin["cart_e_aurc"] == pytest.approx(part["cart_e_aurc"].mean())
    assert margin["aurc_gain_vs_chow"] == pytest.approx(
        part["cart_aurc"].mean() - part["aurc"].mean()
    )
    assert "wins" not in table.columns
    assert table["decided_accuracy"].is_monotonic_decreasing


# ------------------------------------------------------------------------------ run_suite
class _Stop(Exception):
    pass


def _suite_datasets(calls):
    def loader(name, maker):
        def load():
            calls.append(name)
            return maker(n_samples=90, random_state=1)

        return name, load

    return [loader("moons", make_moons_dataset), loader("xor", make_xor_dataset)]


SUITE_COMBOS = [
    {"delta_method": "margin"},
    {"delta_method": "quality_plateau"},
    {"delta_method": "none"},
]
KEY = ["dataset", "combo", "fold"]


def test_run_suite_resumes_after_an_interrupt_without_loss_or_duplicates(tmp_path):
    reference = run_suite(_suite_datasets([]), tmp_path / "full.csv", combos=SUITE_COMBOS, cv=3)
    assert len(reference) == 2 * 3 * 3
    out = tmp_path / "sub" / "resumed.csv"

    def interrupt_after(k):
        def progress(done, total, message):
            assert total == 18
            if done >= k:
                raise _Stop

        return progress

    with pytest.raises(_Stop):
        run_suite(_suite_datasets([]), out, combos=SUITE_COMBOS, cv=3, progress=interrupt_after(4))
    saved = pd.read_csv(out)
    assert len(saved) == 4 and not saved.duplicated(KEY).any()
    # interrupt again inside the second dataset
    with pytest.raises(_Stop):
        run_suite(_suite_datasets([]), out, combos=SUITE_COMBOS, cv=3, progress=interrupt_after(11))
    assert len(pd.read_csv(out)) == 11

    calls = []
    resumed = run_suite(_suite_datasets(calls), out, combos=SUITE_COMBOS, cv=3)
    assert calls == ["xor"]  # moons was complete and is not even loaded
    on_disk = pd.read_csv(out)
    assert len(on_disk) == 18 and not on_disk.duplicated(KEY).any()
    cols = [c for c in reference.columns if c != "fit_seconds"]
    pd.testing.assert_frame_equal(resumed[cols], reference[cols])

    # a rerun of a finished suite loads nothing and changes nothing
    calls.clear()
    again = run_suite(_suite_datasets(calls), out, combos=SUITE_COMBOS, cv=3)
    assert calls == []
    pd.testing.assert_frame_equal(again, resumed)


def test_run_suite_interrupted_by_a_loader_keeps_finished_datasets(tmp_path):
    out = tmp_path / "r.csv"

    def broken():
        raise _Stop

    datasets = [_suite_datasets([])[0], ("xor", broken)]
    with pytest.raises(_Stop):
        run_suite(datasets, out, combos=SUITE_COMBOS, cv=3)
    saved = pd.read_csv(out)
    assert set(saved["dataset"]) == {"moons"} and len(saved) == 9
    # no temporary file is left behind (the protocol and versions sit beside the rows),
    # and the file is not private like a temp file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.protocol.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask


def test_run_suite_skips_unusable_datasets_when_asked(tmp_path):
    def offline():
        raise DataError("OpenML is unreachable")

    tiny = Dataset(
        X=pd.DataFrame({"a": np.arange(6.0)}),
        y=np.array([0, 0, 0, 0, 1, 1]),
        class_names=["0", "1"],
        name="tiny",
        source="test",
    )
    datasets = [("offline", offline), tiny, _suite_datasets([])[0]]
    result = run_suite(datasets, tmp_path / "r.csv", combos=SUITE_COMBOS, cv=3, errors="skip")
    assert set(result["dataset"]) == {"moons"}
    assert set(result.attrs["skipped"]) == {"offline", "tiny"}
    assert "unreachable" in result.attrs["skipped"]["offline"]
    assert "at least 3 rows of every class" in result.attrs["skipped"]["tiny"]
    with pytest.raises(DataError):
        run_suite([("offline", offline)], tmp_path / "s.csv", combos=SUITE_COMBOS, cv=3)


def test_run_suite_refuses_to_mix_protocols(tmp_path):
    out = tmp_path / "r.csv"
    run_suite(_suite_datasets([])[:1], out, combos=SUITE_COMBOS[:1], cv=3)
    with pytest.raises(ValueError, match="cv=.*another output file"):
        run_suite(_suite_datasets([])[:1], out, combos=SUITE_COMBOS[:1], cv=4)


def test_run_suite_summary_has_per_dataset_means(tmp_path):
    result = run_suite(_suite_datasets([]), tmp_path / "r.csv", combos=SUITE_COMBOS, cv=3)
    table = summarize(result)
    margin = table[table["combo"] == "margin / probabilistic"].iloc[0]
    per = result[result["combo"] == "margin / probabilistic"].groupby("dataset")
    assert margin["decided_accuracy"] == pytest.approx(per["decided_accuracy"].mean().mean())
    assert margin["wins"] + margin["ties"] + margin["losses"] == 2


# ------------------------------------------------------------------------------ CLI
@pytest.fixture
def iris_csv(tmp_path):
    from sklearn.datasets import load_iris

    bunch = load_iris(as_frame=True)
    frame = bunch.frame.copy()
    frame["species"] = np.array(bunch.target_names)[frame.pop("target")]
    path = tmp_path / "iris.csv"
    frame.to_csv(path, index=False)
    return path


def test_cli_runs_a_csv_file(iris_csv, tmp_path, capsys):
    out = tmp_path / "results.csv"
    status = main(
        [
            "--data",
            str(iris_csv),
            "--out",
            str(out),
            "--cv",
            "3",
            "--combos",
            "probabilistic",
            "--no-progress",
        ]
    )
    assert status == 0
    saved = pd.read_csv(out)
    assert len(saved) == 6 * 3
    assert set(saved["dataset"]) == {"iris"}
    printed = capsys.readouterr().out
    assert "margin / probabilistic" in printed and "CART" in printed


def test_cli_missing_file_exits_2(tmp_path, capsys):
    status = main(["--data", str(tmp_path / "nope.csv"), "--out", str(tmp_path / "r.csv")])
    assert status == 2
    assert "No such file" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists()


def test_cli_offline_cc18_exits_2_with_the_message(monkeypatch, tmp_path, capsys):
    import ternary.data

    def offline(cache_dir=None):
        raise DataError("Cannot list the OpenML-CC18 tasks: the network is unreachable.")

    monkeypatch.setattr(ternary.data, "openml_cc18_tasks", offline)
    status = main(["--suite", "cc18", "--out", str(tmp_path / "r.csv"), "--no-progress"])
    assert status == 2
    err = capsys.readouterr().err
    assert "network is unreachable" in err and "Traceback" not in err


def test_cli_offline_medical_exits_2(monkeypatch, tmp_path, capsys):
    import ternary.data

    def offline(data_id, cache_dir=None, target=None, **options):
        raise DataError(f"Cannot load OpenML dataset {data_id}: offline.")

    monkeypatch.setattr(ternary.data, "load_openml", offline)
    status = main(["--suite", "medical", "--out", str(tmp_path / "r.csv"), "--no-progress"])
    assert status == 2
    err = capsys.readouterr().err
    assert "Cannot load OpenML dataset 37" in err and "Cannot load OpenML dataset 310" in err


def test_cli_bad_arguments_exit_through_argparse(iris_csv, capsys):
    with pytest.raises(SystemExit) as info:
        main(["--data", str(iris_csv), "--cv", "one"])
    assert info.value.code == 2
    with pytest.raises(SystemExit):
        main(["--suite", "breiman", "--data", str(iris_csv)])
    with pytest.raises(SystemExit):
        main(["--suite", "breiman", "--target", "x"])
    assert "error" in capsys.readouterr().err


def test_cli_data_dir_skips_unreadable_files(iris_csv, tmp_path, capsys):
    (tmp_path / "broken.arff").write_text("this is not arff\n")
    out = tmp_path / "out" / "r.csv"
    status = main(
        [
            "--data-dir",
            str(tmp_path),
            "--out",
            str(out),
            "--cv",
            "3",
            "--combos",
            "probabilistic",
            "--no-progress",
        ]
    )
    assert status == 0
    assert set(pd.read_csv(out)["dataset"]) == {"iris"}
    assert "skipped broken" in capsys.readouterr().err


def test_cli_zone_edges_closed_is_the_papers_zone(iris_csv, tmp_path):
    # iris is measured to 0.1 cm: margin puts θ+δ on training values, where the closed
    # zone flags rows the blend sends one way only
    rates = {}
    for edges in ("open", "closed"):
        out = tmp_path / f"{edges}.csv"
        args = ["--data", str(iris_csv), "--out", str(out), "--cv", "3", "--no-progress"]
        assert main([*args, "--combos", "probabilistic", "--zone-edges", edges]) == 0
        rates[edges] = pd.read_csv(out).set_index(["combo", "fold"])["uncertain_rate"]
    assert (rates["closed"] >= rates["open"]).all()
    assert rates["closed"].sum() > rates["open"].sum()
    X, y = load_iris(return_X_y=True)
    by_hand = run_cv(X, y, combos=[{"delta_method": "margin"}], cv=3, zone_edges="closed")
    np.testing.assert_array_equal(
        rates["closed"].loc["margin / probabilistic"].to_numpy(), by_hand["uncertain_rate"]
    )
