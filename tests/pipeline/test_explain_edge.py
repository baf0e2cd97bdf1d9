"""The "why" sentence of a row on a zone's edge says one thing, not "0 % left / 100 % right"."""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_moons

from ternary import TernaryTreeClassifier
from ternary.explain import explain_row


def test_row_at_the_zone_edge_gets_a_sentence_that_does_not_contradict_itself():
    X, y = make_moons(300, noise=0.3, random_state=0)
    # the paper's zone holds its upper edge θ + δ, so a row there is flagged
    clf = TernaryTreeClassifier(
        max_depth=1, delta_method="margin", random_state=0, zone_edges="closed"
    ).fit(X, y)
    root = explain_row(clf, X[0]).steps[0]
    checked = 0
    for edge, side in ((root.high, "upper"), (root.low, "lower")):
        row = X[0].copy()
        row[root.feature] = edge
        e = explain_row(clf, row)
        step = e.steps[0]
        if not step.in_zone:  # the lower edge θ − δ itself routes hard left: no zone there
            assert e.sentence.startswith("Decided")
            continue
        assert f"{side} edge of the zone" in e.sentence
        assert "0 % left" not in e.sentence and "100 %" not in e.sentence.split("predicts")[0]
        assert e.flagged and "boundary-uncertain" in e.sentence
        checked += 1
    assert checked >= 1
    inside = X[0].copy()
    inside[root.feature] = (root.low + root.high) / 2
    assert "blends 50 % left / 50 % right" in explain_row(clf, inside).sentence
    assert np.isfinite(root.high)
    # the default open zone leaves both edges decided: no edge sentence is needed
    clf.set_params(zone_edges="open").fit(X, y)
    for edge in (root.high, root.low):
        row = X[0].copy()
        row[root.feature] = edge
        e = explain_row(clf, row)
        assert not e.flagged and e.sentence.startswith("Decided")
