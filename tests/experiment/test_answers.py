"""ternary.experiment.out_of_fold_answers: every row answered once, by the fold that held it out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from ternary import TernaryForestClassifier, TernaryTreeClassifier
from ternary.data import Preprocessor, load_csv
from ternary.experiment import out_of_fold_answers

TREE = {"max_depth": 3, "random_state": 0}


def _table(n: int = 120, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Raw rows with a text column, gaps in a number column and a 'none' level."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    colour = rng.choice(["red", "none", "blue"], n)
    age = np.where(rng.random(n) < 0.15, np.nan, rng.integers(20, 80, n).astype(float))
    y = np.where(x + (colour == "red") + rng.normal(scale=0.7, size=n) > 0.3, "yes", "no")
    return pd.DataFrame({"x": x, "colour": colour, "age": age}), y


def test_answers_equal_a_fit_per_fold_by_hand():
    X, y = _table()
    pre = Preprocessor()
    answers = out_of_fold_answers(X, y, TernaryTreeClassifier(**TREE), preprocessor=pre, seed=3)
    splitter = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
    for fold, (train, test) in enumerate(splitter.split(np.zeros((len(y), 1)), y)):
        fitted = Preprocessor().fit(X.iloc[train])  # refitted on the training fold alone
        names = fitted.feature_names_out_
        X_train = pd.DataFrame(fitted.transform(X.iloc[train]), columns=names)
        X_test = pd.DataFrame(fitted.transform(X.iloc[test]), columns=names)
        model = TernaryTreeClassifier(**TREE).fit(X_train, y[train])
        proba, verdict = model.predict_proba_verdict(X_test)
        got = answers.iloc[test]
        assert (got["fold"] == fold).all()
        assert np.array_equal(got[["P(no)", "P(yes)"]].to_numpy(), proba)
        assert np.array_equal(got["verdict"].to_numpy(), verdict)
        assert np.array_equal(got["prediction"].to_numpy(), model.predict(X_test))
        assert np.array_equal(got["confidence"].to_numpy(), model.predict_confidence(X_test))
        assert np.array_equal(got["boundary_distance"].to_numpy(), model.boundary_distance(X_test))
    assert not hasattr(pre, "feature_names_out_")  # the one given stays unfitted
    assert answers.attrs["folds"] == 5


def test_a_fitted_preprocessor_is_refitted_per_fold_not_reused():
    """``ds.preprocessor`` was fitted on every row: its levels and medians must not leak."""
    X, y = _table(90)
    X.loc[7, "colour"] = "violet"  # a level of one row: unknown to the fold that judges it
    fitted = Preprocessor().fit(X)
    model = TernaryTreeClassifier(**TREE)
    reused = out_of_fold_answers(X, y, model, preprocessor=fitted)
    fresh = out_of_fold_answers(X, y, model, preprocessor=Preprocessor())
    pd.testing.assert_frame_equal(reused, fresh, check_exact=True)
    assert "colour=violet" in fitted.feature_names_out_


@settings(max_examples=15, deadline=None)
@given(folds=st.integers(2, 9), n=st.integers(12, 60), seed=st.integers(0, 50))
def test_every_row_is_answered_once_whatever_the_fold_count(folds, n, seed):
    X, y = make_classification(n, n_features=4, n_informative=2, random_state=seed)
    smallest = np.bincount(y).min()
    if smallest < 2:
        return
    answers = out_of_fold_answers(X, y, TernaryTreeClassifier(max_depth=2), folds=folds, seed=seed)
    k = min(folds, smallest)
    assert answers.attrs["folds"] == k
    assert len(answers) == n and answers.index.tolist() == list(range(n))
    assert sorted(answers["fold"].unique().tolist()) == list(range(k))
    probs = answers[["P(0)", "P(1)"]].to_numpy()
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert np.array_equal(answers["prediction"].to_numpy(), np.argmax(probs, axis=1))


def test_a_forest_and_a_plain_scikit_learn_classifier_are_answered_too():
    X, y = make_classification(80, n_features=4, random_state=1)
    forest = out_of_fold_answers(X, y, TernaryForestClassifier(n_estimators=5, random_state=0))
    assert set(forest["verdict"].unique()) <= {0, 1}
    plain = out_of_fold_answers(X, y, LogisticRegression())
    assert (plain["verdict"] == 1).all()
    probs = plain[["P(0)", "P(1)"]].to_numpy()
    assert np.array_equal(plain["confidence"].to_numpy(), probs.max(axis=1))
    assert plain["boundary_distance"].isna().all()


def test_hard_middle_rows_are_answered_without_a_distance():
    """The Your data page refused hard_middle before: boundary_distance raised for it."""
    X, y = make_classification(90, n_features=4, random_state=2)
    model = TernaryTreeClassifier(routing="hard_middle", max_depth=3, random_state=0)
    answers = out_of_fold_answers(X, y, model)
    assert answers["boundary_distance"].isna().all()
    assert answers["confidence"].notna().all() and len(answers) == 90


def test_a_drop_preprocessor_still_answers_every_row():
    X, y = _table(80)
    answers = out_of_fold_answers(
        X, y, TernaryTreeClassifier(**TREE), preprocessor=Preprocessor(missing="drop")
    )
    assert len(answers) == 80 and answers["confidence"].notna().all()


def test_bad_input_says_what_to_do():
    X, y = make_classification(30, n_features=4, random_state=0)
    y = np.where(y == 1, "b", "a").astype(object)
    y[0] = "lonely"
    with pytest.raises(ValueError, match="'lonely' has a single row"):
        out_of_fold_answers(X, y, TernaryTreeClassifier())
    with pytest.raises(ValueError, match="folds must be an integer"):
        out_of_fold_answers(X, y, TernaryTreeClassifier(), folds=1)
    with pytest.raises(ValueError, match="one label per row"):
        out_of_fold_answers(X[:10], y, TernaryTreeClassifier())


def test_a_loaded_files_raw_rows_through_its_preprocessor():
    text = "id,x,colour,label\n" + "".join(
        f"r{i},{i % 7},{'red' if i % 3 else 'none'},{'ab'[i % 2 ^ (i % 7 > 3)]}\n"
        for i in range(60)
    )
    ds = load_csv(text.encode())
    X = ds.raw.drop(columns=[ds.target])
    answers = out_of_fold_answers(
        X, ds.y, TernaryTreeClassifier(**TREE), preprocessor=ds.preprocessor
    )
    assert list(answers.columns) == [
        "fold",
        "prediction",
        "verdict",
        "confidence",
        "boundary_distance",
        "P(a)",
        "P(b)",
    ]
