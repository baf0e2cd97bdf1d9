"""zone_edges: the open zone θ−δ < x < θ+δ (the default) against the paper's closed one.

On integer-valued data the margin method puts θ+δ on a training value, and the paper's
closed zone flags every row there although the blend sends all of it right. The open
zone flags a row only where its blend is two-sided. The references below walk the
``tree_`` arrays row by row in plain Python, so they share no code with the library's
walks (compiled kernels, scikit-learn's compiled router, numpy).
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ternary import (
    TernaryForestClassifier,
    TernaryTreeClassifier,
    export_text,
    rezone,
    validate_params,
)
from ternary.explain import explain_row
from ternary.selective import RiskControlledClassifier
from ternary.tree import compiled_router, walk

METHODS = ("margin", "quality_plateau", "node_bootstrap", "gain_ratio", "class_overlap")


def reference_verdict(tree, X, zone_edges: str, routing: str) -> np.ndarray:
    """1 where no zone on the row's path holds it, by a Python walk of ``tree_``'s arrays.

    Binary routings: CART's path (``x ≤ θ`` left), flagged where some split with δ > 0 has
    ``θ−δ < x < θ+δ`` (open) or ``θ−δ < x ≤ θ+δ`` (closed). hard_middle: the three-way
    path, flagged where it takes a middle branch.
    """
    out = np.ones(X.shape[0], dtype=np.int8)
    for r, row in enumerate(np.asarray(X, dtype=np.float32).astype(np.float64)):
        node = 0
        while tree.children_left[node] != -1:
            x = float(row[tree.feature[node]])
            t, d = float(tree.threshold[node]), float(tree.delta[node])
            lo, hi = t - d, t + d
            inside = d > 0 and lo < x and (x < hi if zone_edges == "open" else x <= hi)
            middle = int(tree.children_middle[node])
            if routing == "hard_middle" and middle != -1:
                if inside:
                    out[r], node = 0, middle
                else:
                    node = tree.children_left[node] if x <= lo else tree.children_right[node]
                continue
            if inside:
                out[r] = 0
            node = tree.children_left[node] if x <= t else tree.children_right[node]
    return out


def two_sided(tree, row) -> bool:
    """True when some split on the row's CART path blends it both ways: 0 < w_L < 1."""
    node, x64 = 0, np.asarray(row, dtype=np.float32).astype(np.float64)
    while tree.children_left[node] != -1:
        x = float(x64[tree.feature[node]])
        t, d = float(tree.threshold[node]), float(tree.delta[node])
        if d > 0 and 0.0 < (t + d - x) / (2.0 * d) < 1.0:
            return True
        node = tree.children_left[node] if x <= t else tree.children_right[node]
    return False


def integer_data(seed: int, n: int = 200, n_features: int = 3, top: int = 6):
    """Small integers with a noisy label: every zone edge of margin lands on data."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, top + 1, size=(n, n_features)).astype(np.float64)
    y = (X[:, 0] + rng.integers(0, 3, n) > top / 2 + 1).astype(int)
    if np.unique(y).size < 2:
        y[: n // 2] = 1 - y[: n // 2]
    return X, y


def probe_rows(X: np.ndarray) -> np.ndarray:
    """The training rows, and rows between them (halves) and beyond them."""
    return np.vstack([X, X + 0.5, X - 1.0])


@st.composite
def integer_fits(draw):
    seed = draw(st.integers(0, 2**16))
    X, y = integer_data(
        seed,
        n=draw(st.integers(20, 160)),
        n_features=draw(st.integers(1, 3)),
        top=draw(st.integers(1, 8)),
    )
    params = dict(
        delta_method=draw(st.sampled_from(METHODS)),
        routing=draw(st.sampled_from(["probabilistic", "deferred", "hard_middle"])),
        max_depth=draw(st.integers(1, 4)),
        delta_scale=draw(st.sampled_from([0.5, 1.0, 2.0])),
        min_samples_middle=2,
        random_state=seed,
    )
    fits = {
        edges: TernaryTreeClassifier(**params, zone_edges=edges).fit(X, y)
        for edges in ("open", "closed")
    }
    return fits, X, params["routing"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(integer_fits())
def test_open_flags_only_two_sided_blends_and_closed_is_the_papers_zone(case):
    fits, X, routing = case
    rows = probe_rows(X)
    for edges, clf in fits.items():
        assert clf.tree_.zone_edges == edges
        verdict = clf.predict_verdict(rows)
        np.testing.assert_array_equal(verdict, reference_verdict(clf.tree_, rows, edges, routing))
    if routing == "hard_middle":
        return  # its tree depends on the setting; the reference above is its contract
    open_, closed = fits["open"], fits["closed"]
    flagged = np.flatnonzero(open_.predict_verdict(rows) == 0)
    # the default flags a row only where the blend sends it both ways
    assert all(two_sided(open_.tree_, rows[r]) for r in flagged)
    # one tree, two readings: the open zone lies inside the closed one
    assert (open_.predict_verdict(rows) >= closed.predict_verdict(rows)).all()
    if routing == "probabilistic":  # at θ+δ the blend is already all right: same numbers
        np.testing.assert_array_equal(open_.predict_proba(rows), closed.predict_proba(rows))


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
@pytest.mark.parametrize("edges", ["open", "closed"])
def test_every_walk_agrees_on_both_settings(routing, edges):
    X, y = integer_data(3, n=400)
    clf = TernaryTreeClassifier(routing=routing, zone_edges=edges, random_state=0).fit(X, y)
    rows = probe_rows(X).astype(np.float32)
    proba, verdict = clf.predict_proba_verdict(rows)  # the compiled fast path
    walked = walk(clf.tree_, rows.astype(np.float64), routing)  # numpy, another dtype
    np.testing.assert_array_equal(verdict, walked[1])
    np.testing.assert_allclose(proba, walked[0], rtol=0, atol=1e-12)
    router = compiled_router(clf.tree_, X.shape[1], routing)
    assert router is not None
    leaf = router[0].apply(rows)
    decided = (
        ~clf.tree_.reached_through_middle()[leaf] if routing == "hard_middle" else leaf < router[1]
    )
    np.testing.assert_array_equal(decided.astype(np.int8), verdict)
    np.testing.assert_array_equal(verdict, reference_verdict(clf.tree_, rows, edges, routing))


def test_a_clean_integer_split_flags_its_right_value_only_when_closed():
    # a clean split between 2 and 3: θ = 2.5, δ = 0.5, the zone's ends on the data
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]] * 5)
    y = (X[:, 0] > 2).astype(int)
    trees = {
        e: TernaryTreeClassifier(max_depth=1, zone_edges=e).fit(X, y) for e in ("open", "closed")
    }
    assert trees["open"].tree_.threshold[0] == 2.5 and trees["open"].tree_.delta[0] == 0.5
    rows = np.array([[2.0], [2.5], [3.0], [4.0]])
    assert trees["closed"].predict_verdict(rows).tolist() == [1, 0, 0, 1]
    assert trees["open"].predict_verdict(rows).tolist() == [1, 0, 1, 1]
    # the row at θ+δ = 3 is all right under both readings: CART's probabilities
    np.testing.assert_array_equal(
        trees["open"].predict_proba(rows), trees["closed"].predict_proba(rows)
    )
    assert trees["open"].predict_proba(rows)[2].tolist() == [0.0, 1.0]


def test_boundary_distance_predicts_refits_exactly_with_open_zones():
    # with open zones a refit at scale s flags exactly the rows of distance below s, ties too
    X, y = integer_data(5, n=300)
    params = dict(delta_method="margin", random_state=0)
    clf = TernaryTreeClassifier(**params).fit(X, y)
    rows = probe_rows(X)
    distance = clf.boundary_distance(rows)
    finite = np.unique(distance[np.isfinite(distance)])
    assert (finite == 1.0).any()  # rows on a zone's end: the case the setting decides
    for s in (*finite[:: max(1, finite.size // 6)], 1.0, 1.5):
        refit = TernaryTreeClassifier(**params, delta_scale=float(s)).fit(X, y)
        np.testing.assert_array_equal(refit.predict_verdict(rows) == 0, distance < s)


def test_hard_middle_grows_its_middle_on_the_rows_it_flags():
    X, y = integer_data(7, n=400)
    for edges in ("open", "closed"):
        clf = TernaryTreeClassifier(
            routing="hard_middle", zone_edges=edges, min_samples_middle=2, random_state=0
        ).fit(X, y)
        tree = clf.tree_
        assert (tree.children_middle != -1).any()
        # the training rows prediction sends through each middle child are those it holds
        leaf = compiled_router(tree, X.shape[1], "hard_middle")[0].apply(X.astype(np.float32))
        for child in tree.children_middle[tree.children_middle != -1]:
            assert _reaches(tree, leaf, child) == tree.n_node_samples[child], edges


def _reaches(tree, leaf: np.ndarray, node: int) -> int:
    """How many rows end in a leaf below ``node`` (``node`` included)."""
    below, stack = set(), [node]
    while stack:
        n = stack.pop()
        below.add(n)
        stack.extend(tree.children(n))
    return int(np.isin(leaf, list(below)).sum())


def test_explain_row_follows_the_setting_at_the_upper_end():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]] * 5)
    y = (X[:, 0] > 2).astype(int)
    for edges, flagged in (("open", False), ("closed", True)):
        clf = TernaryTreeClassifier(max_depth=1, zone_edges=edges).fit(X, y)
        e = explain_row(clf, [3.0])
        assert e.flagged is flagged and e.steps[0].in_zone is flagged
        assert ("upper edge" in e.sentence) is flagged
        assert e.proba.tolist() == [0.0, 1.0]


def test_rezone_changes_the_setting_as_a_fresh_fit_would():
    X, y = integer_data(11, n=300)
    fitted = TernaryTreeClassifier(random_state=0).fit(X, y)
    closed = rezone(fitted, X, y, zone_edges="closed")
    fresh = TernaryTreeClassifier(random_state=0, zone_edges="closed").fit(X, y)
    rows = probe_rows(X)
    assert closed.tree_.zone_edges == "closed" and fitted.tree_.zone_edges == "open"
    np.testing.assert_array_equal(closed.predict_verdict(rows), fresh.predict_verdict(rows))
    assert (closed.predict_verdict(rows) == 0).sum() > (fitted.predict_verdict(rows) == 0).sum()


def test_the_forest_passes_the_setting_to_its_trees():
    X, y = integer_data(13, n=300)
    flags = {}
    for edges in ("open", "closed"):
        forest = TernaryForestClassifier(n_estimators=5, zone_edges=edges, random_state=0)
        forest.fit(X, y)
        assert forest.get_params()["zone_edges"] == edges
        assert all(t.zone_edges == edges == t.tree_.zone_edges for t in forest.estimators_)
        flags[edges] = forest.predict_verdict(probe_rows(X)) == 0
    assert TernaryForestClassifier().zone_edges == "open"
    assert flags["open"].sum() < flags["closed"].sum()
    assert not (flags["open"] & ~flags["closed"]).any()


def test_the_parameter_is_checked_and_read_from_the_table():
    from ternary import FOREST_PARAMETERS, PARAMETERS

    assert PARAMETERS["zone_edges"].choices == ("open", "closed")
    assert PARAMETERS["zone_edges"].default == FOREST_PARAMETERS["zone_edges"].default == "open"
    with pytest.raises(ValueError, match="zone_edges"):
        validate_params({"zone_edges": "half-open"})
    with pytest.raises(ValueError, match="zone_edges"):
        TernaryTreeClassifier(zone_edges="paper").fit([[0.0], [1.0]], [0, 1])


def test_a_model_saved_before_the_setting_keeps_the_papers_zone():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]] * 5)
    y = (X[:, 0] > 2).astype(int)
    clf = TernaryTreeClassifier(max_depth=1, zone_edges="closed").fit(X, y)
    old = clf.__getstate__()
    del old["zone_edges"]  # what a pickle from before the parameter holds
    del clf.tree_.zone_edges  # ...and its tree, which reads TernaryTree's class default
    restored = TernaryTreeClassifier.__new__(TernaryTreeClassifier)
    restored.__setstate__(old)
    restored = pickle.loads(pickle.dumps(restored))
    assert restored.get_params()["zone_edges"] == "closed"
    assert restored.predict_verdict([[3.0]]).tolist() == [0]


def test_export_text_shows_the_open_middle_branch():
    X, y = integer_data(17, n=300)
    lines = {}
    for edges in ("open", "closed"):
        clf = TernaryTreeClassifier(
            routing="hard_middle", max_depth=2, zone_edges=edges, random_state=0
        ).fit(X, y)
        lines[edges] = export_text(clf)
    assert "(middle)" in lines["open"] and ")  (middle)" in lines["open"]
    assert ">= " in lines["open"] and ">= " not in lines["closed"]
    assert "]  (middle)" in lines["closed"]


def test_risk_control_keeps_the_wrapped_trees_setting():
    X, y = integer_data(19, n=400)
    rc = RiskControlledClassifier(
        TernaryTreeClassifier(zone_edges="closed"), target_risk=0.3, random_state=0
    ).fit(X, y)
    assert rc.estimator_.tree_.zone_edges == "closed"


@pytest.mark.parametrize("routing", ["probabilistic", "deferred", "hard_middle"])
def test_rules_and_exports_follow_the_setting_row_by_row(routing):
    import sqlite3

    import pandas as pd

    from ternary import export_python, export_sql, extract_rules

    X, y = integer_data(23, n=300)
    rows = probe_rows(X)
    frame = pd.DataFrame(rows, columns=[f"x{j}" for j in range(rows.shape[1])])
    frame.insert(0, "i", np.arange(len(rows)))
    con = sqlite3.connect(":memory:")
    frame.to_sql("t", con, index=False)
    verdicts = {}
    for edges in ("open", "closed"):
        clf = TernaryTreeClassifier(
            routing=routing, zone_edges=edges, min_samples_middle=2, random_state=0
        ).fit(X, y)
        verdict = verdicts[edges] = clf.predict_verdict(rows)
        namespace: dict = {}
        exec(export_python(clf), namespace)
        exported = [namespace["predict_row"](row)[1] for row in rows]
        np.testing.assert_array_equal(exported, verdict)
        out = np.array(sorted(con.execute(export_sql(clf, table="t", key="i")).fetchall()))
        np.testing.assert_array_equal(out[:, 2].astype(int), verdict)
        rules = extract_rules(clf)
        decided = sum(r.covers(rows).astype(int) for r in rules if r.verdict == 1)
        flagged = sum(r.covers(rows).astype(int) for r in rules if r.verdict == 0)
        np.testing.assert_array_equal(decided, verdict)  # one decided rule per decided row
        np.testing.assert_array_equal(flagged, 1 - verdict)
        ops = {c.op for r in rules for c in r.conditions}
        assert ("<" in ops or ">=" in ops) is (edges == "open")
    assert (verdicts["open"] == 0).sum() < (verdicts["closed"] == 0).sum()
