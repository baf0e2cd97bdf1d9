"""`viz.grafting.graft_step_figure`: a grafting step drawn on a regions figure."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from viz.colors import class_color
from viz.grafting import LEAF_COLOR, graft_step_figure

INF = np.inf


def _base():
    return go.Figure(layout=dict(xaxis=dict(range=[0.0, 10.0]), yaxis=dict(range=[-1.0, 5.0])))


def test_open_bounds_are_held_to_the_axes_and_the_input_is_unchanged():
    base = _base()
    region = (np.array([2.5, -INF]), np.array([5.0, INF]))
    leaf = (np.array([2.5, -INF]), np.array([7.5, 3.0]))
    fig = graft_step_figure(base, region, leaf, region_class=2, accepted=True, label="node 3")
    shade, outline = fig.layout.shapes
    assert (shade.x0, shade.x1, shade.y0, shade.y1) == (2.5, 5.0, -1.0, 5.0)
    assert shade.fillcolor == class_color(2) and shade.line.dash == "solid"
    assert (outline.x0, outline.x1, outline.y0, outline.y1) == (2.5, 7.5, -1.0, 3.0)
    assert outline.line.color == LEAF_COLOR
    assert fig.layout.annotations[0].text == "node 3" and fig.layout.annotations[0].y == 5.0
    assert not base.layout.shapes and not base.layout.annotations


def test_a_rejected_candidate_is_dashed_and_a_step_without_one_outlines_the_leaf_only():
    leaf = (np.array([-INF, -INF]), np.array([INF, INF]))
    rejected = graft_step_figure(_base(), (np.array([-INF, -INF]), np.array([INF, 1.0])), leaf)
    assert rejected.layout.shapes[0].line.dash == "dash"
    alone = graft_step_figure(_base(), None, leaf)
    assert len(alone.layout.shapes) == 1 and alone.layout.shapes[0].line.color == LEAF_COLOR


def test_a_figure_without_axis_ranges_is_refused():
    with pytest.raises(ValueError, match="ranges"):
        graft_step_figure(go.Figure(), None, (np.zeros(2), np.ones(2)))
