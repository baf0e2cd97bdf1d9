"""appkit.why: the clicked row's story retraces the estimator's own prediction."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_row_story_retraces_the_estimators_own_prediction(routing):
    from sklearn.datasets import make_moons

    from appkit.why import row_story
    from ternary import TernaryTreeClassifier

    X, y = make_moons(300, noise=0.3, random_state=0)
    clf = TernaryTreeClassifier(
        delta_method="quality_plateau", routing=routing, max_depth=4, random_state=0
    ).fit(X, y)
    proba, verdict = clf.predict_proba_verdict(X)
    assert (verdict == 0).any() and (verdict == 1).any()
    for i in range(len(X)):
        story = row_story(clf, X[i], ["x1", "x2"])
        np.testing.assert_allclose(story.proba, proba[i], atol=1e-12)
        assert story.flagged == (verdict[i] == 0)
        assert story.steps["node"].iloc[0] == 0  # from the root down
        # the shares of the row over the leaves it reaches add up to the whole row
        leaves = [n for n in story.path if clf.tree_.is_leaf[n]]
        assert sum(story.path[n] for n in leaves) == pytest.approx(1.0)
        assert story.path[0] == 1.0
    flagged = row_story(clf, X[np.flatnonzero(verdict == 0)[0]], ["x1", "x2"])
    assert "lies inside the zone of" in flagged.sentence
    assert ("% left /" in flagged.sentence) == (routing != "hard_middle")
    decided = row_story(clf, X[np.flatnonzero(verdict == 1)[0]], ["x1", "x2"])
    assert decided.sentence.startswith("Decided")
