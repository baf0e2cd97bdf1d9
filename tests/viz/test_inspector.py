"""Node inspector figures: one panel per δ method, zone and δ always shown."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris

from ternary import TernaryTreeClassifier, default_feature_names
from ternary.explain import explain_node
from viz.inspector import INSPECTOR_METHODS, ZONE_NAME, node_inspector_figure
from viz.labels import format_number

EXPECTED = {
    "quality_plateau": {"Q(θ)", "plateau [θlo, θhi]", "θlo, θhi", "Q(θ*)"},
    "class_overlap": {
        "class malignant",
        "class benign",
        "band malignant",
        "band benign",
        "widest overlap",
    },
    "margin": {
        "class malignant",
        "class benign",
        "nearest benign row right of θ",
        "nearest malignant row left of θ",
    },
    "node_bootstrap": {"bootstrap thresholds", "bootstrap θ (rug)", "mean ± std", "bootstrap mean"},
    "gain_ratio": {"class malignant", "class benign"},
}
NAMES = ["malignant", "benign"]


@pytest.fixture(scope="module")
def explained():
    X, y = load_breast_cancer(return_X_y=True)
    out = {}
    for method in EXPECTED:
        model = TernaryTreeClassifier(delta_method=method, max_depth=2, random_state=0).fit(X, y)
        out[method] = (model, explain_node(model, X, y, 0))
    return out


def _zone(fig):
    return [t for t in fig.data if t.name == ZONE_NAME]


@pytest.mark.parametrize("method", list(EXPECTED))
def test_each_method_draws_its_quantities_and_the_zone(explained, method):
    model, e = explained[method]
    fig = node_inspector_figure(e, class_names=NAMES)
    names = {t.name for t in fig.data}
    assert EXPECTED[method] <= names
    delta = model.tree_.delta[0]
    assert f"δ = {format_number(delta)}" in fig.layout.title.text
    assert method in fig.layout.title.text
    zone = _zone(fig)
    assert zone, "the zone band is drawn"
    for band in zone:
        assert min(band.x) == pytest.approx(e.threshold - delta)
        assert max(band.x) == pytest.approx(e.threshold + delta)
        assert band.fill == "toself"
    theta = [t for t in fig.data if t.name.startswith("θ*")]
    assert theta and all(set(t.x) == {e.threshold} for t in theta)


def test_quality_plateau_panel_marks_the_plateau(explained):
    _, e = explained["quality_plateau"]
    fig = node_inspector_figure(e)
    curve = next(t for t in fig.data if t.name == "Q(θ)")
    np.testing.assert_array_equal(curve.x, e.thresholds)
    plateau = next(t for t in fig.data if t.name == "plateau [θlo, θhi]")
    assert (min(plateau.x), max(plateau.x)) == (e.plateau_low, e.plateau_high)
    floor = next(t for t in fig.data if t.name.startswith("(1−ε)"))
    assert list(floor.y) == pytest.approx([0.95 * e.quality_at_threshold] * 2)


def test_margin_panel_marks_the_support_rows(explained):
    _, e = explained["margin"]
    fig = node_inspector_figure(e, class_names=NAMES)
    stars = [t for t in fig.data if t.name.startswith("nearest")]
    marked = sorted(float(t.x[0]) for t in stars)
    expected = sorted(
        v
        for v in (e.margin["nearest_left_class_right_of"], e.margin["nearest_right_class_left_of"])
        if v is not None
    )
    assert marked == expected
    # the nearer support row is exactly δ from θ
    assert min(abs(x - e.threshold) for x in marked) == pytest.approx(e.delta)
    points = [t for t in fig.data if t.name.startswith("class ")]
    assert sum(len(t.x) for t in points) == e.n


def test_bootstrap_panel_shows_every_threshold(explained):
    _, e = explained["node_bootstrap"]
    fig = node_inspector_figure(e)
    rug = next(t for t in fig.data if t.name == "bootstrap θ (rug)")
    np.testing.assert_array_equal(rug.x, e.bootstrap_thresholds)
    bars = next(t for t in fig.data if t.name == "bootstrap thresholds")
    assert sum(bars.y) == e.bootstrap_thresholds.size
    spread = next(t for t in fig.data if t.name == "mean ± std")
    std = np.std(e.bootstrap_thresholds)
    assert max(spread.x) - min(spread.x) == pytest.approx(2 * std)


def test_gain_ratio_numbers_are_annotated(explained):
    _, e = explained["gain_ratio"]
    fig = node_inspector_figure(e)
    text = " ".join(a.text for a in fig.layout.annotations)
    g = e.gain_ratio
    for value in (
        g["quality"],
        g["h_split"],
        g["gain_ratio"],
        g["alpha_range"],
        e.raw_delta["gain_ratio"],
    ):
        assert format_number(value) in text


def test_class_overlap_bands_match_the_percentiles(explained):
    _, e = explained["class_overlap"]
    fig = node_inspector_figure(e, class_names=NAMES)
    for k, lo, hi in zip(e.band_classes, e.band_lows, e.band_highs, strict=True):
        band = next(t for t in fig.data if t.name == f"band {NAMES[k]}")
        assert list(band.x) == [lo, hi]
        vals = e.values[e.y_codes == k]
        assert lo == pytest.approx(np.percentile(vals, 10)) and hi == pytest.approx(
            np.percentile(vals, 90)
        )
    bars = [t for t in fig.data if t.type == "bar"]
    assert sum(sum(b.y) for b in bars) == e.n


def test_other_method_uses_the_recomputed_delta(explained):
    _, e = explained["margin"]
    fig = node_inspector_figure(e, method="gain_ratio")
    assert f"δ = {format_number(e.final_delta['gain_ratio'])}" in fig.layout.title.text
    assert "recomputed" in fig.layout.title.text
    zone = _zone(fig)[0]
    assert max(zone.x) - min(zone.x) == pytest.approx(2 * e.final_delta["gain_ratio"])
    none = node_inspector_figure(e, method="none")
    assert _zone(none) == []
    with pytest.raises(ValueError, match="method"):
        node_inspector_figure(e, method="bogus")


def test_every_method_builds_for_a_multiclass_node_and_leaves_the_explanation_alone():
    X, y = load_iris(return_X_y=True)
    model = TernaryTreeClassifier(delta_method="quality_plateau", max_depth=3, random_state=0).fit(
        X, y
    )
    node = [n for n in model.tree_.preorder() if not model.tree_.is_leaf[n]][-1]
    e = explain_node(model, X, y, node)
    arrays = {
        k: np.copy(getattr(e, k))
        for k in ("values", "y_codes", "thresholds", "quality", "bootstrap_thresholds")
    }
    for method in INSPECTOR_METHODS:
        fig = node_inspector_figure(e, method=method, feature_name="petal width")
        assert "petal width" in fig.layout.title.text
    for k, arr in arrays.items():
        np.testing.assert_array_equal(getattr(e, k), arr)
    # the override made a copy: the explanation keeps the library's default name
    assert e.feature_name == default_feature_names(X.shape[1])[model.tree_.feature[node]]
