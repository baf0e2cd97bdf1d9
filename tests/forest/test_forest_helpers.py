"""The forest's own record of its members' rows and its vote, which the app reads."""

import numpy as np
from sklearn.datasets import make_moons

from ternary import TernaryForestClassifier, TernaryTreeClassifier


def test_estimators_samples_are_the_rows_each_member_grew_on():
    X, y = make_moons(150, noise=0.3, random_state=0)
    weights = np.ones(y.size)
    weights[:140] = 0.0  # most draws still hold one of the ten weighted rows
    forest = TernaryForestClassifier(n_estimators=6, max_depth=3, random_state=2)
    forest.fit(X, y, sample_weight=weights)
    for rows, member in zip(forest.estimators_samples_, forest.estimators_, strict=True):
        again = TernaryTreeClassifier(**member.get_params()).fit(
            X[rows], y[rows], sample_weight=weights[rows]
        )
        np.testing.assert_array_equal(again.tree_.threshold, member.tree_.threshold)
        assert rows.size == y.size
    flat = TernaryForestClassifier(n_estimators=3, bootstrap=False, random_state=0).fit(X, y)
    assert all(np.array_equal(r, np.arange(y.size)) for r in flat.estimators_samples_)


def test_decided_count_and_the_vote_rule():
    X, y = make_moons(200, noise=0.35, random_state=1)
    for fraction, n, needed in ((0.5, 4, 2), (0.5, 5, 3), (1.0, 5, 5), (0.0, 5, 0), (0.3, 10, 3)):
        forest = TernaryForestClassifier(
            n_estimators=n, min_decided_fraction=fraction, max_depth=3, random_state=0
        ).fit(X, y)
        assert forest.min_decided_count == needed
        votes = sum(t.predict_verdict(X).astype(int) for t in forest.estimators_)
        np.testing.assert_array_equal(forest.decided_count(X), votes)
        np.testing.assert_array_equal(forest.predict_verdict(X), (votes >= needed).astype(np.int8))
