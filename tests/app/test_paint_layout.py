"""Painting beside the regions (issue 32, item 5): the canvas above the regions plot forced
scrolling at 1400 × 900; now the regions are drawn in the column beside the canvas, their
panel titles broken so that they do not meet in the narrower column."""

from __future__ import annotations

import json

import plotly.graph_objects as go

from appkit import paint
from tests.app.helpers import assert_clean, open_link

POINTS = [(0, 0.2, 0.2), (0, 0.25, 0.3), (0, 0.3, 0.4), (1, 0.8, 0.8), (1, 0.75, 0.7)]


def _charts(block) -> list[dict]:
    return [json.loads(c.proto.spec) for c in block.get("plotly_chart")]


def test_the_regions_are_drawn_in_the_column_beside_the_canvas():
    at = open_link({"paint": paint.encode(POINTS), "test_size": "0"}, "regions")
    assert_clean(at)
    canvas = beside = None
    for column in at.columns:
        titles = [(c["layout"].get("title") or {}).get("text") or "" for c in _charts(column)]
        if any("painted points" in t for t in titles):
            canvas = column
        elif _charts(column):
            beside = column
    assert canvas is not None and beside is not None
    (regions,) = _charts(beside)
    notes = [a["text"] for a in regions["layout"]["annotations"]]
    assert notes and all("<br>" in n for n in notes)  # the panel titles on several lines
    assert not (regions["layout"].get("title") or {}).get("text")


def test_beside_regions_breaks_panel_titles_and_leaves_the_figure_given_alone():
    fig = go.Figure(
        layout=dict(
            title=dict(text="Decision regions"),
            annotations=[
                dict(text="CART — accuracy 90%"),
                dict(text="Ternary tree — decided accuracy 91%, boundary-uncertain 8%"),
            ],
        )
    )
    out = paint.beside_regions(fig)
    assert [a.text for a in out.layout.annotations] == [
        "CART<br>accuracy 90%",
        "Ternary tree<br>decided accuracy 91%<br>boundary-uncertain 8%",
    ]
    assert out.layout.title.text is None
    assert fig.layout.title.text == "Decision regions"
    assert fig.layout.annotations[0].text == "CART — accuracy 90%"


def test_the_click_grid_markers_are_smaller_than_their_spacing_on_the_canvas():
    # plotly takes every point whose marker covers the mouse as equally near (the distance
    # less the radius, floored at 1 - 3/radius px): 9 px markers 4 px apart on the narrow
    # canvas sent clicks one grid point off
    from viz.paint import canvas_figure

    fig = canvas_figure([], paint.CLASSES, bounds=paint.BOUNDS, height=paint.CANVAS_PX)
    radius = fig.data[0].marker.size / 2
    assert 1 - 3 / radius <= 0  # no floor: the nearest grid point wins
