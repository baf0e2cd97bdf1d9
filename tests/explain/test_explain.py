"""ternary.explain: explain_node recomputes what each δ method saw at a node, and
explain_row retraces one row's way through the tree."""

import re
from functools import cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_iris, load_wine, make_moons

from ternary import ROUTINGS, TernaryForestClassifier, TernaryTreeClassifier
from ternary.explain import EXPLAINED_METHODS, explain_node, explain_row

DETERMINISTIC = ("margin", "quality_plateau", "gain_ratio", "class_overlap")


def _datasets():
    X, y = make_moons(300, noise=0.3, random_state=0)
    yield "moons", X, y
    for name, loader in (("iris", load_iris), ("wine", load_wine), ("cancer", load_breast_cancer)):
        X, y = loader(return_X_y=True)
        yield name, X, y


def _split_nodes(model):
    return [n for n in model.tree_.preorder() if not model.tree_.is_leaf[n]]


@pytest.mark.parametrize("routing", ["probabilistic", "hard_middle", "deferred"])
@pytest.mark.parametrize("method", DETERMINISTIC)
def test_recomputed_delta_equals_the_tree_delta(method, routing):
    checked = 0
    for _, X, y in _datasets():
        model = TernaryTreeClassifier(
            delta_method=method, routing=routing, max_depth=3, random_state=0
        ).fit(X, y)
        for node in _split_nodes(model):
            e = explain_node(model, X, y, node)
            assert e.final_delta[method] == model.tree_.delta[node]
            assert e.delta == model.tree_.delta[node]
            checked += 1
    assert checked >= 12


def test_node_rows_match_the_tree():
    X, y = load_wine(return_X_y=True)
    for routing in ("probabilistic", "hard_middle"):
        model = TernaryTreeClassifier(
            delta_method="margin", routing=routing, max_depth=3, random_state=0
        ).fit(X, y)
        t = model.tree_
        for node in _split_nodes(model):
            e = explain_node(model, X, y, node)
            assert e.n == t.n_node_samples[node]
            assert e.class_counts.sum() == e.n
            # the tree's class distribution is the rows' class share
            np.testing.assert_allclose(e.class_counts / e.n, t.value[node])
            assert e.feature == t.feature[node] and e.threshold == t.threshold[node]
            assert np.all(np.diff(e.values) >= 0)


def test_intermediate_quantities_reproduce_each_raw_delta():
    X, y = load_breast_cancer(return_X_y=True)
    model = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, y)
    for node in _split_nodes(model):
        e = explain_node(model, X, y, node)
        # quality plateau: half the span of the plateau
        if e.plateau_low is not None:
            assert (e.plateau_high - e.plateau_low) / 2 == pytest.approx(
                e.raw_delta["quality_plateau"]
            )
            assert e.plateau_low <= e.threshold <= e.plateau_high
        # class overlap: half the widest overlap
        if e.overlap_pair is not None:
            assert (e.overlap_high - e.overlap_low) / 2 == pytest.approx(
                e.raw_delta["class_overlap"]
            )
        else:
            assert e.raw_delta["class_overlap"] == 0.0
        # gain ratio: α·range/(1+GR)
        g = e.gain_ratio
        assert g["alpha_range"] / (1 + g["gain_ratio"]) == pytest.approx(e.raw_delta["gain_ratio"])
        # bootstrap: population std of the same seeded thresholds
        if e.n >= 10 and e.bootstrap_thresholds.size >= 2:
            assert np.std(e.bootstrap_thresholds) == pytest.approx(e.raw_delta["node_bootstrap"])
        # margin: distance to the nearest cross-class row
        m = e.margin
        distances = [
            abs(v - e.threshold)
            for v in (m["nearest_left_class_right_of"], m["nearest_right_class_left_of"])
            if v is not None
        ]
        expected = min(distances) if distances else m["gap"]
        assert expected == pytest.approx(e.raw_delta["margin"])
        # final = min(raw, cap) · scale
        for method in EXPLAINED_METHODS:
            assert e.final_delta[method] == pytest.approx(min(e.raw_delta[method], e.cap))
        assert e.cap == pytest.approx(0.25 * (e.values.max() - e.values.min()))


def test_the_cap_and_scale_apply_like_the_estimator():
    X, y = load_iris(return_X_y=True)
    model = TernaryTreeClassifier(
        delta_method="gain_ratio",
        alpha=3.0,
        max_delta_fraction=0.1,
        delta_scale=0.5,
        max_depth=2,
        random_state=0,
    ).fit(X, y)
    e = explain_node(model, X, y, 0)
    assert e.raw_delta["gain_ratio"] > e.cap  # large α hits the cap
    assert e.final_delta["gain_ratio"] == pytest.approx(0.5 * e.cap)
    assert e.final_delta["gain_ratio"] == model.tree_.delta[0]


def test_weights_dataframes_and_string_labels():
    X, y = load_wine(return_X_y=True)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    labels = np.array(["a", "b", "c"])[y]
    weights = np.random.RandomState(0).uniform(0.5, 2.0, size=len(y))
    model = TernaryTreeClassifier(
        delta_method="margin", class_weight="balanced", max_depth=3, random_state=0
    ).fit(frame, labels, sample_weight=weights)
    for node in _split_nodes(model):
        e = explain_node(model, frame, labels, node, sample_weight=weights)
        assert e.final_delta["margin"] == model.tree_.delta[node]
        assert e.feature_name == f"f{model.tree_.feature[node]}"


def test_bootstrap_is_reproducible_with_its_seed():
    X, y = make_moons(300, noise=0.3, random_state=0)
    model = TernaryTreeClassifier(delta_method="node_bootstrap", max_depth=2, random_state=0).fit(
        X, y
    )
    a = explain_node(model, X, y, 0, random_state=3)
    b = explain_node(model, X, y, 0, random_state=3)
    np.testing.assert_array_equal(a.bootstrap_thresholds, b.bootstrap_thresholds)
    assert a.bootstrap_thresholds.size == model.n_bootstraps_
    assert not a.deterministic
    # the fitted δ and the seeded estimate agree in size (same rows, same B)
    assert 0 < a.final_delta["node_bootstrap"] < 10 * model.tree_.delta[0] + 1e-9


def test_leaves_and_bad_ids_raise_clear_errors():
    X, y = load_iris(return_X_y=True)
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    leaf = int(np.flatnonzero(model.tree_.is_leaf)[0])
    with pytest.raises(ValueError, match="leaf"):
        explain_node(model, X, y, leaf)
    with pytest.raises(ValueError, match="out of range"):
        explain_node(model, X, y, model.tree_.node_count)
    with pytest.raises(ValueError, match="out of range"):
        explain_node(model, X, y, -1)
    with pytest.raises(ValueError, match="integer"):
        explain_node(model, X, y, 0.5)
    with pytest.raises(ValueError, match="shape"):
        explain_node(model, X[:, :2], y, 0)
    with pytest.raises(ValueError, match="labels"):
        explain_node(model, X, y + 10, 0)


def test_delta_table_and_inputs_unchanged():
    X, y = load_iris(return_X_y=True)
    X_before, y_before = X.copy(), y.copy()
    model = TernaryTreeClassifier(delta_method="class_overlap", max_depth=2, random_state=0).fit(
        X, y
    )
    e = explain_node(model, X, y, 0)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    table = e.delta_table()
    assert list(table.delta_method) == list(EXPLAINED_METHODS)
    assert table.loc[table.model_method, "final_delta"].item() == model.tree_.delta[0]
    assert e.delta_for("none") == 0.0 and e.delta_for() == model.tree_.delta[0]


def test_grafted_nodes_are_flagged():
    X, y = make_moons(300, noise=0.3, random_state=0)
    model = TernaryTreeClassifier(
        delta_method="margin", graft="all", max_depth=3, random_state=0
    ).fit(X, y)
    t = model.tree_
    grafted_splits = [n for n in _split_nodes(model) if t.grafted[n]]
    original_splits = [n for n in _split_nodes(model) if not t.grafted[n]]
    # this sample grafts (a change that stopped it would leave the test checking nothing)
    assert grafted_splits and original_splits
    for node in grafted_splits:
        e = explain_node(model, X, y, node)
        assert e.grafted and e.delta == t.delta[node]
    for node in original_splits:
        e = explain_node(model, X, y, node)
        assert not e.grafted and e.final_delta["margin"] == t.delta[node]


# ----------------------------------------------------------------------------- explain_row
MOONS_X, MOONS_Y = make_moons(300, noise=0.3, random_state=0)
FITS = [(routing, "none") for routing in ROUTINGS] + [("probabilistic", "all")]


@cache
def _fitted(routing, graft="none"):
    return TernaryTreeClassifier(
        delta_method="quality_plateau", routing=routing, graft=graft, max_depth=4, random_state=0
    ).fit(MOONS_X, MOONS_Y)


def _named_split(sentence):
    """The node a sentence names: "the root split" is 0, "split node 7" is 7."""
    if "the root split" in sentence:
        return 0
    return int(re.search(r"split node (\d+)", sentence).group(1))


def _check_row(clf, x):
    """Every claim of one explanation, against the estimator and the tree's own arrays."""
    e = explain_row(clf, x, ["x1", "x2"])
    proba, verdict = clf.predict_proba_verdict(np.asarray(x, dtype=float)[None, :])
    np.testing.assert_allclose(e.proba, proba[0], rtol=0, atol=1e-12)
    assert e.flagged == (verdict[0] == 0) == any(s.in_zone for s in e.steps)
    assert e.steps[0].node == 0 and e.path[0] == 1.0
    t = clf.tree_
    leaves = [n for n in e.path if t.is_leaf[n]]
    assert sum(e.path[n] for n in leaves) == pytest.approx(1.0)
    x32 = np.asarray(x, dtype=np.float32)
    for s in e.steps:
        theta, delta = t.threshold[s.node], t.delta[s.node]
        assert s.x == x32[t.feature[s.node]] and s.feature_name == f"x{t.feature[s.node] + 1}"
        assert (s.low, s.threshold, s.high) == (theta - delta, theta, theta + delta)
        assert s.w_left + s.w_right + s.w_middle == pytest.approx(1.0)
        # the node passes up the weighted mix of the subtrees the row enters
        mix = sum(
            w * p
            for w, p in ((s.w_left, s.proba_left), (s.w_right, s.proba_right))
            if p is not None
        )
        if s.proba_middle is not None:
            np.testing.assert_allclose(s.proba, s.proba_middle, atol=1e-12)
        else:
            np.testing.assert_allclose(s.proba, mix, atol=1e-12)
        if s.in_zone and clf.routing != "hard_middle":
            # the paper's blend weight w_L = (θ+δ−x)/(2δ), clipped
            w = min(max((s.high - float(s.x)) / (2 * delta), 0.0), 1.0)
            assert s.w_left == pytest.approx(w, abs=1e-9)
    if e.flagged:
        node = _named_split(e.sentence)
        named = next(s for s in e.steps if s.node == node)
        assert named.in_zone and named.reach == max(s.reach for s in e.steps if s.in_zone)
        assert e.sentence.startswith(f"x{t.feature[node] + 1} = ")
        blended = "% left /" in e.sentence or "edge of the zone" in e.sentence
        assert blended == (clf.routing != "hard_middle")
    else:
        assert e.sentence.startswith("Decided")
    return e


@pytest.mark.parametrize(("routing", "graft"), FITS)
def test_explain_row_retraces_every_training_row(routing, graft):
    clf = _fitted(routing, graft)
    verdict = clf.predict_verdict(MOONS_X)
    assert (verdict == 0).any() and (verdict == 1).any()
    for x in MOONS_X:
        _check_row(clf, x)


@settings(max_examples=60, deadline=None)
@given(
    fit=st.sampled_from(FITS),
    x1=st.floats(-2.0, 3.0, allow_nan=False),
    x2=st.floats(-1.5, 2.0, allow_nan=False),
    node=st.integers(0, 30),
    offset=st.floats(-1.5, 1.5, allow_nan=False),
    near=st.booleans(),
)
def test_explain_row_on_random_rows(fit, x1, x2, node, offset, near):
    clf = _fitted(*fit)
    t = clf.tree_
    splits = np.flatnonzero(~t.is_leaf)
    node = int(splits[node % splits.size])
    x = np.array([x1, x2])
    if near:  # moved near one split's zone, so zones are hit often, not by luck
        x[t.feature[node]] = t.threshold[node] + offset * t.delta[node]
    _check_row(clf, x)


@pytest.mark.parametrize("routing", ROUTINGS)
def test_explain_row_at_the_zone_edges(routing):
    """float32 neighbours of θ−δ (open end) and θ+δ (closed end) of every split."""
    clf = _fitted(routing)
    t = clf.tree_
    edges_hit = 0
    for node in np.flatnonzero(~t.is_leaf & (t.delta > 0)):
        for edge in (t.threshold[node] - t.delta[node], t.threshold[node] + t.delta[node]):
            below = np.float32(edge)
            while below > edge:
                below = np.nextafter(below, np.float32(-np.inf))
            for value in (below, np.nextafter(below, np.float32(np.inf))):
                x = MOONS_X[0].astype(np.float32)
                x[t.feature[node]] = value
                e = _check_row(clf, x)
                edges_hit += any(s.node == node for s in e.steps)
    assert edges_hit >= 8


def test_explain_row_names_and_errors():
    X, y = load_iris(return_X_y=True, as_frame=True)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, labels)
    e = explain_row(clf, X.iloc[70])
    assert [s.feature_name for s in e.steps] == [X.columns[s.feature] for s in e.steps]
    assert e.prediction == clf.predict(X.iloc[[70]])[0]
    frame = e.to_frame()
    assert list(frame["node"]) == [s.node for s in e.steps] and "w_left" in frame
    renamed = explain_row(clf, X.iloc[70].to_numpy()[None, :], list("abcd"))
    assert [s.feature_name for s in renamed.steps] == ["abcd"[s.feature] for s in e.steps]
    with pytest.raises(ValueError, match="one value per feature"):
        explain_row(clf, [1.0, 2.0])
    with pytest.raises(ValueError, match="missing or infinite"):
        explain_row(clf, [1.0, np.nan, 2.0, 3.0])
    with pytest.raises(ValueError, match="4 names"):
        explain_row(clf, X.iloc[0], ["a"])
    forest = TernaryForestClassifier(n_estimators=2, max_depth=2, random_state=0).fit(X, labels)
    with pytest.raises(ValueError, match="explains one tree.*estimators_"):
        explain_row(forest, X.iloc[0])
    member = explain_row(forest.estimators_[1], X.iloc[0])
    np.testing.assert_allclose(
        member.proba, forest.estimators_[1].predict_proba(X.iloc[[0]].to_numpy())[0], atol=1e-12
    )


@pytest.mark.parametrize("routing", ROUTINGS)
def test_big_trees_are_routed_in_chunks_of_leaves_with_the_same_result(routing, monkeypatch):
    import ternary.explain as explain

    clf = _fitted(routing)
    rows = MOONS_X[clf.predict_verdict(MOONS_X) == 0][:10]
    whole = [explain_row(clf, x) for x in rows]
    # one leaf per pass (the rest in a column of its own) instead of all at once
    monkeypatch.setattr(explain, "_INDICATOR_VALUES", clf.tree_.node_count * 2)
    for x, e in zip(rows, whole, strict=True):
        chunked = _check_row(clf, x)
        assert chunked.path == pytest.approx(e.path)
        np.testing.assert_allclose(chunked.proba, e.proba, rtol=0, atol=1e-12)
