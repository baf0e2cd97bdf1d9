"""appkit.answers: the one place the app asks a model what a figure draws."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_moons
from sklearn.tree import DecisionTreeClassifier

import viz
from appkit import answers
from ternary import TernaryForestClassifier, TernaryTreeClassifier, metrics
from tests.app.helpers import ROOT


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(300, noise=0.3, random_state=0)
    frame = pd.DataFrame(X, columns=["a", "b"])
    return X, y, frame


def test_answers_imports_no_streamlit():
    code = "import sys, appkit.answers\nprint('streamlit' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_grid_answers_are_the_models_own(moons):
    X, y, frame = moons
    grid = viz.RegionGrid.around(X, 15)
    tree = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(frame, y)
    proba, verdict = answers.grid_answers(tree, grid.points)
    named = pd.DataFrame(grid.points, columns=["a", "b"])  # asked under the fitted names
    np.testing.assert_array_equal(proba, tree.predict_proba(named))
    np.testing.assert_array_equal(verdict, tree.predict_verdict(named))
    assert (verdict == 0).any() and (verdict == 1).any()
    forest = TernaryForestClassifier(n_estimators=4, max_depth=3, random_state=0).fit(X, y)
    proba, verdict = answers.grid_answers(forest, grid.points)
    np.testing.assert_array_equal(verdict, forest.predict_verdict(grid.points))
    np.testing.assert_allclose(proba, forest.predict_proba(grid.points))
    plain = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    proba, verdict = answers.grid_answers(plain, grid.points)
    assert verdict is None
    np.testing.assert_array_equal(proba, plain.predict_proba(grid.points))


def test_model_scores_are_decided_accuracy_and_uncertain_rate(moons):
    X, y, _ = moons
    tree = TernaryTreeClassifier(delta_method="quality_plateau", max_depth=3).fit(X, y)
    pred, verdict = tree.predict_with_verdict(X)
    assert answers.model_scores(tree, X, y) == (
        metrics.decided_accuracy(y, pred, verdict),
        metrics.uncertain_rate(verdict),
    )
    assert 0 < answers.model_scores(tree, X, y)[1] < 1
    plain = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    accuracy = float(np.mean(plain.predict(X) == y))
    assert answers.model_scores(plain, X, y) == pytest.approx((accuracy, 0.0))


def test_regions_figure_titles_with_the_scores_it_asked_for(moons):
    X, y, _ = moons
    tree = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, y)
    acc, rate = answers.model_scores(tree, X, y)
    fig = answers.regions_figure(tree, X, y, resolution=20)
    assert fig.layout.title.text == (
        f"Ternary tree — decided accuracy {100 * acc:.1f}%, boundary-uncertain {100 * rate:.1f}%"
    )
    given = answers.regions_figure(tree, X, y, resolution=20, scores=(0.5, 0.25))
    assert "decided accuracy 50.0%, boundary-uncertain 25.0%" in given.layout.title.text


def test_shadow_tree_names_the_fitted_columns_and_classes(moons):
    _, y, frame = moons
    labels = np.array(["no", "yes"])[y]
    tree = TernaryTreeClassifier(max_depth=2, random_state=0).fit(frame, labels)
    shadow = answers.shadow_tree(tree)
    assert shadow.feature_names == ("a", "b") and shadow.class_names == ("no", "yes")
    assert answers.shadow_tree(tree, ["p", "q"]).feature_names == ("p", "q")
    assert viz.tree_dot(shadow) == viz.tree_dot(tree)
