"""Ternary rules: the decided rules partition the decided rows (by hypothesis), the zone
rules the flagged ones; C4.5's simplification and the rule list as text and table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from scipy.stats import binom

from ternary import TernaryTreeClassifier, extract_rules
from ternary.rules import (
    _upper,
    pessimistic_error,
    rule_summary,
    rules_to_frame,
    rules_to_text,
    simplify_rules,
)
from tests.rules.helpers import data, edge_rows, fitted


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fitted())
def test_decided_rules_partition_the_decided_rows(case):
    clf, X, y, rng = case
    rows = np.vstack([X, X + rng.normal(0, 0.5, X.shape), edge_rows([clf], X)])
    verdict = clf.predict_verdict(rows)
    predicted = clf.predict(rows)
    rules = extract_rules(clf, X, y)
    decided = [r for r in rules if r.verdict == 1]
    flagged = [r for r in rules if r.verdict == 0]
    cover = np.array([r.covers(rows) for r in decided]).reshape(len(decided), len(rows))
    # every decided row: exactly one decided rule, predicting the library's class
    assert (cover.sum(axis=0) == verdict).all()
    for rule, mask in zip(decided, cover, strict=True):
        assert (predicted[mask] == rule.prediction).all()
    # the boundary-uncertain rules partition the flagged rows in the same way
    zone = np.array([r.covers(rows) for r in flagged]).reshape(len(flagged), len(rows))
    assert (zone.sum(axis=0) == 1 - verdict).all()
    for rule, mask in zip(flagged, zone, strict=True):
        if rule.prediction is not None:  # hard_middle leaves predict one class
            assert (predicted[mask] == rule.prediction).all()
    # support is counted on the rows given
    assert sum(r.support for r in rules) == X.shape[0]


def test_conditions_lie_outside_the_zones_and_read_with_feature_names():
    X, y = data(600)
    frame = pd.DataFrame(X, columns=["alpha", "beta", "gamma", "delta"])
    clf = TernaryTreeClassifier(max_depth=3, random_state=0).fit(frame, y)
    rules = extract_rules(clf, frame, y)
    t = clf.tree_
    split = np.flatnonzero(t.children_left != -1)
    zoned = t.delta[split] > 0
    below = set(np.where(zoned, t.threshold[split] - t.delta[split], t.threshold[split]))
    above = set(np.where(zoned, t.threshold[split] + t.delta[split], t.threshold[split]))
    for rule in (r for r in rules if r.kind == "leaf"):
        for c in rule.conditions:  # x <= θ−δ or x > θ+δ, the zone's outer edges
            assert c.threshold in (below if c.op == "<=" else above)
            assert c.name == "alpha beta gamma delta".split()[c.feature]
    root = next(r for r in rules if r.kind == "leaf")
    first = root.conditions[0]
    text = str(root)
    assert text.startswith("IF ") and first.name in text and "(decided)" in text
    zone = [r for r in rules if r.kind == "zone"]
    assert zone and all(r.prediction is None and "boundary-uncertain" in str(r) for r in zone)
    # ordered by support, the DataFrame and the text alike
    supports = [r.support for r in rules]
    assert supports == sorted(supports, reverse=True)
    frame_out = rules_to_frame(rules)
    assert list(frame_out["support"]) == supports
    assert list(frame_out.columns[:6]) == [
        "rule",
        "conditions",
        "prediction",
        "verdict",
        "support",
        "accuracy",
    ]
    assert rules_to_text(rules).splitlines()[0] == f"R1: {rules[0]}"
    # a DataFrame is read by name, whatever its column order
    shuffled = frame[["delta", "gamma", "beta", "alpha"]]
    assert (root.covers(shuffled) == root.covers(X)).all()


def test_without_data_leaf_rules_report_the_tree_counts():
    X, y = data(600)
    clf = TernaryTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    rules = extract_rules(clf)
    leaves = [r for r in rules if r.kind == "leaf"]
    assert [r.support for r in leaves] == [int(clf.tree_.n_node_samples[r.node]) for r in leaves]
    assert all(r.support is None for r in rules if r.kind == "zone")
    assert extract_rules(clf, uncertain=False) == leaves
    with pytest.raises(ValueError, match="pass X and y"):
        extract_rules(clf, simplify=True)


def test_pessimistic_error_is_the_upper_binomial_limit_of_c45():
    for errors, n in [(0, 1), (0, 6), (1, 20), (3, 17), (10, 200)]:
        u = pessimistic_error(errors, n)
        assert binom.cdf(errors, n, u) == pytest.approx(0.25, abs=1e-9)
    # Quinlan's worked figure: U_0.25(0, 6) = 0.206
    assert pessimistic_error(0, 6) == pytest.approx(0.206, abs=5e-4)
    assert pessimistic_error(5, 5) == 1.0
    # the vectorised form the simplification uses agrees
    errors, n = np.array([0, 1, 3, 10, 5, 0]), np.array([1, 20, 17, 200, 5, 0])
    fast = _upper(errors, n, 0.25)
    slow = [pessimistic_error(e, m) for e, m in zip(errors, n, strict=True)]
    np.testing.assert_allclose(fast, slow, rtol=1e-12)


def test_simplification_never_raises_the_pessimistic_error_and_reports_its_cover():
    X, y = data(1_500, seed=2)
    clf = TernaryTreeClassifier(max_depth=6, random_state=0).fit(X, y)
    rules = extract_rules(clf, X, y)
    simple = simplify_rules(rules, X, y)
    by_node = {r.node: r for r in rules if r.verdict == 1}
    dropped = 0
    for rule in (r for r in simple if r.kind == "simplified"):
        before = by_node[rule.node]
        assert set(rule.conditions) <= set(before.conditions)
        dropped += len(before.conditions) - len(rule.conditions)

        def u(r):
            mask = r.covers(X)
            return pessimistic_error(float((y[mask] != r.prediction).sum()), float(mask.sum()))

        assert u(rule) <= u(before) + 1e-12
    assert dropped > 0
    full, short = rule_summary(rules, X, y), rule_summary(simple, X, y)
    decided = clf.predict_verdict(X) == 1
    assert full["coverage"] == pytest.approx(decided.mean())
    assert full["accuracy"] == pytest.approx((clf.predict(X)[decided] == y[decided]).mean())
    assert full["overlap"] == 0.0
    assert short["n_conditions"] < full["n_conditions"]
    assert short["coverage"] >= full["coverage"]
    # (str: a rule without support has accuracy NaN, which never equals itself)
    assert [str(r) for r in extract_rules(clf, X, y, simplify=True)] == [str(r) for r in simple]


def test_a_forest_is_refused_with_what_to_do():
    from ternary import TernaryForestClassifier

    X, y = data(200)
    forest = TernaryForestClassifier(n_estimators=2, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="estimators_"):
        extract_rules(forest)
