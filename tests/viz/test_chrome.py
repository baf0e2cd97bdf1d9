"""Titles clear of plotly's toolbar, 13 px ticks, and Fig. 2's labels clear of the hollow
markers (issue 32, items 2-4)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

import viz
from viz.chrome import TICK_PX, TOOLBAR_PX, readable_ticks, title_below_toolbar
from viz.coverage import accuracy_coverage_figure, place_labels, risk_coverage_figure


def _summary():
    return pd.DataFrame(
        {
            "delta_method": ["none", "margin", "margin"],
            "routing": ["probabilistic", "probabilistic", "hard_middle"],
            "decided_accuracy": [0.80, 0.84, 0.83],
            "uncertain_rate": [0.0, 0.20, 0.10],
        }
    )


def _curves():
    return pd.DataFrame(
        {
            "method": ["CART (Chow's rule)"] * 3,
            "delta_method": ["none"] * 3,
            "flagged": [0.0, 0.5, 1.0],
            "decided_accuracy": [0.8, 0.9, 1.0],
        }
    )


def _below_toolbar(fig) -> bool:
    t = fig.layout.title
    return (t.yref, t.y, t.yanchor, t.pad.t) == ("container", 1, "top", TOOLBAR_PX)


def test_the_figures_titles_start_below_the_toolbar_and_their_ticks_are_13_px():
    figures = [
        accuracy_coverage_figure(_summary(), baseline_accuracy=0.8),
        risk_coverage_figure(_curves()),
    ]
    for fig in figures:
        assert _below_toolbar(fig), fig.layout.title
        # the top margin holds the toolbar's band and a title line
        assert fig.layout.margin.t >= TOOLBAR_PX + 25
        assert fig.layout.xaxis.tickfont.size == TICK_PX == 13
        assert fig.layout.yaxis.tickfont.size == TICK_PX


def test_the_regions_figure_too():
    from sklearn.datasets import make_moons

    from appkit.answers import regions_figure
    from ternary import TernaryTreeClassifier

    X, y = make_moons(120, noise=0.3, random_state=0)
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=20, title="t")
    assert _below_toolbar(fig) and fig.layout.title.text == "t"
    assert fig.layout.xaxis.tickfont.size == TICK_PX
    assert fig.layout.yaxis.tickfont.size == TICK_PX


def test_presenting_puts_the_title_back_in_the_margin_with_the_toolbar_hidden():
    fig = accuracy_coverage_figure(_summary(), baseline_accuracy=0.8, title="A long title")
    shown = viz.presentation_figure(fig, 1.5)
    assert not _below_toolbar(shown)
    assert shown.layout.title.yanchor is None and shown.layout.title.pad.t is None
    assert shown.layout.xaxis.tickfont.size == 1.5 * TICK_PX  # ≥ 14 px from the back
    assert _below_toolbar(fig)  # the figure given is not changed


def test_helpers_leave_other_title_parts_alone():
    title = title_below_toolbar({"text": "x", "x": 0.01})
    assert title["text"] == "x" and title["x"] == 0.01
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0], y=[0]))
    readable_ticks(fig)
    assert fig.layout.xaxis.tickfont.size == TICK_PX


def test_a_label_moves_off_a_hollow_marker_beside_its_own():
    # one marker at the middle; a hollow one where its first choice ("top right") would go
    xs, ys, texts = [0.5], [0.5], ["quality_plateau"]
    free = place_labels(xs, ys, texts, (0.0, 1.0), (0.0, 1.0))
    assert free == ["top right"]
    blocked = place_labels(xs, ys, texts, (0.0, 1.0), (0.0, 1.0), obstacles=([0.56], [0.52]))
    assert blocked[0] is not None and blocked[0] != "top right"


def test_fig2_labels_avoid_the_hollow_markers_when_presenting():
    from appkit import paper

    fig = paper.fig2_figure(1.5)
    labelled = [t for t in fig.data if t.mode and "text" in t.mode and t.name[0] != "η"]
    assert sum(1 for t in labelled for s in (t.text or ()) if s) == 11  # every label kept
