"""Accuracy–coverage figure (Fig. 2)."""

import numpy as np
import pandas as pd
import pytest

from ternary import experiment
from viz.colors import method_color
from viz.coverage import accuracy_coverage_figure

BASELINE = 0.72


@pytest.fixture
def summary():
    return pd.DataFrame(
        {
            "delta_method": ["margin", "margin", "quality_plateau", "node_bootstrap"],
            "routing": ["probabilistic", "hard_middle", "probabilistic", "deferred"],
            "decided_accuracy": [0.76, 0.73, 0.75, 0.74],
            "uncertain_rate": [0.17, 0.10, 0.18, 0.30],
            "decided_accuracy_std": [0.01, 0.02, 0.015, 0.01],
        }
    )


def _trace(fig, name):
    matches = [t for t in fig.data if t.name == name]
    assert len(matches) == 1, f"expected one trace named {name!r}, got {[t.name for t in fig.data]}"
    return matches[0]


def test_isolines_have_the_right_slopes_through_the_baseline(summary):
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE, isolines=(0.05, 0.1, 0.2))
    for eta in (0.05, 0.1, 0.2):
        line = _trace(fig, f"η = {eta:g}")
        x, y = np.asarray(line.x, dtype=float), np.asarray(line.y, dtype=float)
        # two points on each line: both satisfy y = baseline + η·x
        for i in (0, len(x) - 1):
            assert y[i] == pytest.approx(BASELINE + eta * x[i])
        assert (y[-1] - y[0]) / (x[-1] - x[0]) == pytest.approx(eta)
        assert f"η = {eta:g}" in list(line.text)


def test_markers_by_routing_colours_by_method_and_error_bars(summary):
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE)
    expected = {"probabilistic": "circle", "hard_middle": "diamond", "deferred": "square"}
    for row in summary.itertuples():
        trace = _trace(fig, f"{row.delta_method} / {row.routing}")
        assert trace.marker.symbol == expected[row.routing]
        assert trace.marker.color == method_color(row.delta_method)
        assert list(trace.x) == [row.uncertain_rate] and list(trace.y) == [row.decided_accuracy]
        assert list(trace.error_y.array) == [row.decided_accuracy_std]
        # the label names the method, and the routing where the marker alone would not
        # (placed apart from the others, or left out where it would cover another label)
        hm = " (h.m.)" if row.routing == "hard_middle" else ""
        assert trace.text[0] in (row.delta_method + hm, "")
        # hover shows efficiency η, computed from the point
        assert trace.customdata[0] == pytest.approx(
            (row.decided_accuracy - BASELINE) / row.uncertain_rate
        )


def test_baseline_is_a_dashed_horizontal_line(summary):
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE)
    base = next(t for t in fig.data if t.name.startswith("CART baseline"))
    assert base.line.dash == "dash"
    assert set(base.y) == {BASELINE}
    assert "72.0%" in base.name


def test_chow_curve_is_drawn_as_the_frontier(summary):
    chow = pd.DataFrame({"uncertain_rate": [0.2, 0.0, 0.1], "decided_accuracy": [0.8, 0.72, 0.77]})
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE, chow_curve=chow)
    trace = next(t for t in fig.data if "Chow" in t.name)
    assert "frontier" in trace.name
    assert list(trace.x) == [0.0, 0.1, 0.2] and list(trace.y) == [0.72, 0.77, 0.8]
    assert trace.mode == "lines"
    # the input frame keeps its own order
    assert list(chow["uncertain_rate"]) == [0.2, 0.0, 0.1]


def test_chow_curve_from_the_experiment_module(summary):
    rng = np.random.RandomState(0)
    proba = rng.dirichlet([1, 1], size=200)
    y = (rng.uniform(size=200) < proba[:, 1]).astype(int)
    chow = experiment.chow_curve(y, proba)
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE, chow_curve=chow)
    trace = next(t for t in fig.data if "Chow" in t.name)
    assert len(trace.x) == len(chow)


def test_paper_means_are_hollow_markers(shared_paper_tables):
    paper = pd.read_csv(shared_paper_tables / "smits_table5_cc18_means.csv")
    fig = accuracy_coverage_figure(
        paper.assign(decided_accuracy=paper.decided_accuracy + 0.01),
        baseline_accuracy=0.7247,
        paper_means=paper,
    )
    trace = _trace(fig, "paper (CC18 means)")
    assert len(trace.x) == len(paper)
    assert all(s.endswith("-open") for s in trace.marker.symbol)
    margin_prob = paper[
        (paper.delta_method == "margin") & (paper.routing == "probabilistic")
    ].index[0]
    assert trace.marker.symbol[margin_prob] == "circle-open"
    assert trace.y[margin_prob] == pytest.approx(0.7426)


def test_sweep_draws_operating_points_with_their_values(summary):
    sweep = pd.DataFrame(
        {
            "param": "delta_scale",
            "value": [2.0, 0.5, 1.0],
            "uncertain_rate": [0.3, 0.1, 0.17],
            "decided_accuracy": [0.77, 0.74, 0.76],
            "delta_method": "margin",
            "routing": "probabilistic",
        }
    )
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE, sweep=sweep)
    trace = next(t for t in fig.data if t.name.startswith("sweep"))
    assert list(trace.text) == ["delta_scale=0.5", "delta_scale=1", "delta_scale=2"]
    # each point names its setting, for a click to pick it up
    assert [list(c) for c in trace.customdata] == [
        ["delta_scale", v, "margin", "probabilistic"] for v in (0.5, 1.0, 2.0)
    ]
    assert list(trace.x) == [0.1, 0.17, 0.3]


def test_x_axis_covers_every_point_and_missing_columns_are_reported(summary):
    fig = accuracy_coverage_figure(summary, baseline_accuracy=BASELINE, title="T")
    assert fig.layout.title.text == "T"
    assert fig.layout.xaxis.range[1] >= summary.uncertain_rate.max()
    y_range = fig.layout.yaxis.range
    assert y_range[0] <= min(summary.decided_accuracy.min(), BASELINE) <= y_range[1]
    with pytest.raises(ValueError, match="uncertain_rate"):
        accuracy_coverage_figure(summary.drop(columns="uncertain_rate"), baseline_accuracy=BASELINE)


def test_inputs_are_not_modified(summary):
    chow = pd.DataFrame({"uncertain_rate": [0.2, 0.0], "decided_accuracy": [0.8, 0.72]})
    before = summary.copy(), chow.copy()
    accuracy_coverage_figure(summary, baseline_accuracy=BASELINE, chow_curve=chow)
    pd.testing.assert_frame_equal(summary, before[0])
    pd.testing.assert_frame_equal(chow, before[1])


def test_cart_point_is_labelled_as_cart():
    import pandas as pd

    from viz.coverage import accuracy_coverage_figure

    summary = pd.DataFrame(
        {
            "delta_method": ["none", "margin"],
            "routing": ["probabilistic"] * 2,
            "decided_accuracy": [0.80, 0.84],
            "uncertain_rate": [0.0, 0.2],
        }
    )
    names = [trace.name for trace in accuracy_coverage_figure(summary, baseline_accuracy=0.8).data]
    assert "CART (δ = 0)" in names and "margin / probabilistic" in names
    assert "none / probabilistic" not in names


def test_risk_coverage_figure_draws_one_curve_per_method_cart_dashed():
    from viz.coverage import risk_coverage_figure

    curves = pd.DataFrame(
        {
            "method": ["CART (Chow's rule)"] * 3 + ["margin"] * 3,
            "delta_method": ["none"] * 3 + ["margin"] * 3,
            "flagged": [0.5, 0.0, 0.25, 0.0, 0.5, 0.25],
            "decided_accuracy": [0.9, 0.8, 0.85, 0.8, 0.95, 0.9],
        }
    )
    fig = risk_coverage_figure(curves)
    cart, margin = fig.data
    assert cart.name == "CART (Chow's rule)" and cart.line.dash == "dash"
    assert margin.name == "margin" and margin.line.dash is None
    assert margin.line.color == method_color("margin")
    # each curve runs left to right along the flagged share
    assert list(cart.x) == [0.0, 0.25, 0.5] and list(cart.y) == [0.8, 0.85, 0.9]
    assert list(margin.y) == [0.8, 0.9, 0.95]
    with pytest.raises(ValueError, match="flagged"):
        risk_coverage_figure(curves.drop(columns="flagged"))
    star = pd.DataFrame(
        {
            "label": ["bayes"],
            "delta_method": ["margin"],
            "flagged": [0.1],
            "decided_accuracy": [0.9],
        }
    )
    (marker,) = risk_coverage_figure(curves, markers=star).data[2:]
    assert marker.marker.symbol == "star" and list(marker.x) == [0.1] and marker.name == "bayes"


def test_every_risk_coverage_point_says_which_curve_and_share_it_is():
    from viz.coverage import CURVE_POINT, risk_coverage_figure

    curves = pd.DataFrame(
        {
            "method": ["margin"] * 3 + ["forest (5 trees, margin)"] * 2,
            "delta_method": ["margin"] * 3 + ["forest"] * 2,
            "flagged": [0.5, 0.0, 0.25, 0.0, 0.3],
            "decided_accuracy": [0.9, 0.8, 0.85, 0.8, 0.9],
        }
    )
    margin, forest = risk_coverage_figure(curves).data
    assert [list(c) for c in margin.customdata] == [
        [CURVE_POINT, "margin", 0.0],
        [CURVE_POINT, "margin", 0.25],
        [CURVE_POINT, "margin", 0.5],
    ]
    assert list(forest.customdata[1]) == [CURVE_POINT, "forest", 0.3]
    assert forest.line.color == method_color("forest") != method_color("margin")
    assert forest.line.width > margin.line.width
