"""Paint your points (issue 32, item 3): the link encoding, the edits, the CSV, the page."""

from __future__ import annotations

import base64
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appkit import datasets, paint
from tests.app.helpers import assert_clean, metrics, open_app, open_link, shown

coordinate = st.integers(0, 1000).map(lambda k: k / 1000)
point = st.tuples(st.integers(0, len(paint.CLASSES) - 1), coordinate, coordinate)


def _b64(raw: bytes) -> str:
    return "1." + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


# two clusters on the canvas's 0.001 grid: A lower left, B upper right
TWO_CLUSTERS = [(0, round(0.1 + 0.05 * i, 3), round(0.2 + 0.03 * i, 3)) for i in range(6)] + [
    (1, round(0.6 + 0.05 * i, 3), round(0.7 - 0.04 * i, 3)) for i in range(6)
]


@settings(max_examples=200, deadline=None)
@given(st.lists(point, max_size=paint.MAX_POINTS))
def test_link_round_trip_is_exact(points):
    code = paint.encode(points)
    assert paint.decode(code) == points
    assert code.startswith("1.")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.floats(-5, 5), st.floats(-5, 5)), max_size=50))
def test_any_coordinates_come_back_on_the_canvas_grid(points):
    back = paint.decode(paint.encode(points))
    assert len(back) == len(points)
    for (c, x, y), (c2, x2, y2) in zip(points, back, strict=True):
        assert c2 == c
        assert 0.0 <= x2 <= 1.0 and 0.0 <= y2 <= 1.0
        assert abs(x2 - min(max(x, 0), 1)) <= 0.0005 + 1e-12
        assert abs(y2 - min(max(y, 0), 1)) <= 0.0005 + 1e-12


def test_a_full_canvas_fits_a_link():
    rng = np.random.default_rng(0)
    points = [
        (int(c), round(float(x), 3), round(float(y), 3))
        for c, x, y in zip(rng.integers(0, 4, 500), rng.random(500), rng.random(500), strict=True)
    ]
    code = paint.encode(points)
    assert len(code) < 4_000  # measured about 3,100 for 500 random points
    assert paint.decode(code) == points


def test_the_cap_is_refused_with_a_message():
    points = [(0, 0.5, 0.5)] * paint.MAX_POINTS
    with pytest.raises(paint.PaintError, match="more than the 500"):
        paint.encode([*points, (0, 0.5, 0.5)])
    with pytest.raises(paint.PaintError, match="Download them as a CSV|download them as a CSV"):
        paint.add_point(points, 0, 0.1, 0.1)
    # a link holding 501 points (built by hand) is refused too
    text = ";".join(["0,500,500"] * (paint.MAX_POINTS + 1)).encode()
    with pytest.raises(paint.PaintError, match="more than the 500|more than a canvas"):
        paint.decode(_b64(text))


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("", "start with '1.'"),
        ("2.abc", "start with '1.'"),
        ("1.!!!!", "characters"),
        ("1.abc", "cut short|damaged"),
        ("1.AAAA", "damaged"),
        ("1." + "A" * 9_000, "characters long"),
        (_b64(b"0,500"), "not class,x,y"),
        (_b64(b"0,500,500;"), "not class,x,y"),
        (_b64(b"4,500,500"), "off the canvas"),
        (_b64(b"0,1001,5"), "off the canvas"),
        (_b64(b"0,-1,5"), "not class,x,y"),
        (_b64(b"0,1e3,5"), "not class,x,y"),
        (_b64("0,５00,5".encode()), "not the text|not class,x,y"),
        (_b64(b"\xff\xfe"), "not the text"),
        (_b64(b"0,1,1;" * 5_000), "damaged or hold more"),  # a zip bomb's shape
    ],
)
def test_hostile_links_are_refused_with_a_reason(code, says):
    with pytest.raises(paint.PaintError, match=says):
        paint.decode(code)


def test_remove_takes_the_nearest_point_within_reach():
    points = [(0, 0.1, 0.1), (1, 0.5, 0.5), (0, 0.52, 0.5)]
    left, gone = paint.remove_near(points, 0.53, 0.5)
    assert gone and left == [(0, 0.1, 0.1), (1, 0.5, 0.5)]
    same, gone = paint.remove_near(points, 0.9, 0.9)
    assert not gone and same == points


def test_noise_jitters_on_the_canvas_and_flips_the_share_asked():
    points = [(0, 0.0, 1.0)] * 10 + [(1, 0.5, 0.5)] * 10
    noisy = paint.add_noise(points, 0.1, 0.5, np.random.default_rng(1))
    assert len(noisy) == 20
    assert all(0 <= x <= 1 and 0 <= y <= 1 for _, x, y in noisy)
    assert sum(a[0] != b[0] for a, b in zip(points, noisy, strict=True)) == 10
    assert any(a[1:] != b[1:] for a, b in zip(points, noisy, strict=True))
    still = paint.add_noise(points, 0.0, 0.0, np.random.default_rng(1))
    assert still == points


def test_problem_says_what_to_paint():
    assert "none" in paint.problem([])
    assert "3 of class A" in paint.problem([(0, 0.1, 0.1)] * 3)
    assert "1 of class B" in paint.problem([(0, 0.1, 0.1)] * 3 + [(1, 0.9, 0.9)])
    assert paint.problem(TWO_CLUSTERS) is None


def test_the_csv_loads_back_on_the_your_data_page():
    text = paint.points_csv(TWO_CLUSTERS)
    assert text.splitlines()[0] == "x1,x2,label"
    ds, error = datasets.load_user_data(text.encode(), "painted_points.csv")
    assert error is None
    assert list(ds.X.columns) == ["x1", "x2"]
    np.testing.assert_array_equal(ds.X.to_numpy(), [[x, y] for _, x, y in TWO_CLUSTERS])
    assert list(map(str, ds.y)) == [paint.CLASSES[c] for c, _, _ in TWO_CLUSTERS]


def test_the_dataset_key_follows_the_points():
    ds, key = paint.painted_dataset(TWO_CLUSTERS)
    _, same = paint.painted_dataset(list(TWO_CLUSTERS))
    _, other = paint.painted_dataset([*TWO_CLUSTERS, (1, 0.9, 0.9)])
    assert key == same and key != other
    assert ds.class_names == ["A", "B"] and ds.n_samples == 12


# ----------------------------------------------------------------------------- the page
def test_painted_points_are_the_page_dataset_and_the_fit_follows_them():
    at = open_app("regions")
    before = metrics(at)
    at.session_state["paint_on"] = True
    at.run()
    assert not at.exception and not at.error
    assert any("Paint at least 2 points" in i.value for i in at.info)
    assert not at.metric  # no fit until two classes are painted

    at.session_state["paint_points"] = TWO_CLUSTERS
    at.run()
    assert_clean(at)
    first = metrics(at)
    assert first != before
    assert first["Accuracy, all test rows"] == "100.0%"  # four test rows, well apart
    assert paint.decode(at.query_params["paint"]) == TWO_CLUSTERS

    # noise: two A points painted deep in B's cluster change what the tree sees
    at.session_state["paint_points"] = [*TWO_CLUSTERS, (0, 0.85, 0.5), (0, 0.8, 0.55)]
    at.run()
    assert_clean(at)
    assert metrics(at) != first
    assert at.session_state["feature_x"] == "x1"

    at.session_state["paint_on"] = False
    at.run()
    assert_clean(at)
    assert metrics(at) == before
    assert "paint" not in at.query_params


def test_a_link_brings_its_points_and_a_hostile_one_a_message():
    code = paint.encode(TWO_CLUSTERS)
    at = open_link({"paint": code}, page="regions")
    assert_clean(at)
    assert at.session_state["paint_points"] == TWO_CLUSTERS
    assert metrics(at)["Accuracy, all test rows"] == "100.0%"

    bad = open_link({"paint": "1.AAAA" + "%"})
    assert not bad.exception and not bad.error
    notes = " ".join(shown(t) for t in bad.toast)
    assert "paint=" in notes and "no points were painted" in notes
    assert not bad.session_state["paint_on"]


def test_the_canvas_keeps_its_range_and_covers_it_with_the_click_grid():
    from viz.paint import GRID_NAME, canvas_figure

    fig = canvas_figure(TWO_CLUSTERS, paint.CLASSES, bounds=paint.BOUNDS, grid=60)
    grid = fig.data[0]
    assert grid.name == GRID_NAME and len(grid.x) == 3600
    assert min(grid.x) == 0.0 and max(grid.x) == 1.0 and min(grid.y) == 0.0
    assert grid.hoverinfo == "none"  # clickable, with no tooltip
    # the square canvas shrinks its area instead of widening the range a click is mapped to
    assert fig.layout.xaxis.constrain == "domain" and fig.layout.yaxis.constrain == "domain"
    assert list(fig.layout.xaxis.range) == [-0.03, 1.03]
    names = [t.name for t in fig.data[1:]]
    assert names == ["class A", "class B"]
    assert [len(t.x) for t in fig.data[1:]] == [6, 6]
    assert fig.layout.title.text == "12 painted points"
    # colours follow the rank among the painted classes, as in the regions figure
    only_c = canvas_figure([(2, 0.5, 0.5)], paint.CLASSES)
    assert only_c.data[1].marker.color == fig.data[1].marker.color


def _event(*points):
    return {"selection": {"points": list(points)}}


def test_a_click_adds_removes_or_says_why_not():
    added, note = paint.apply_click([], _event({"x": 0.25, "y": 0.5}), "Add", "B")
    assert added == [(1, 0.25, 0.5)] and note is None
    # the last point of the selection is the click
    clicks = _event({"x": 0.1, "y": 0.1}, {"x": 0.9, "y": 0.2})
    two, _ = paint.apply_click(added, clicks, "Add", "A")
    assert two == [(1, 0.25, 0.5), (0, 0.9, 0.2)]
    left, note = paint.apply_click(two, _event({"x": 0.26, "y": 0.49}), "Remove", "A")
    assert left == [(0, 0.9, 0.2)] and note is None
    same, note = paint.apply_click(left, _event({"x": 0.1, "y": 0.9}), "Remove", "A")
    assert same == left and "No painted point within" in note
    full = [(0, 0.5, 0.5)] * paint.MAX_POINTS
    kept, note = paint.apply_click(full, _event({"x": 0.1, "y": 0.1}), "Add", "A")
    assert kept == full and "more than the 500" in note


@pytest.mark.parametrize(
    "event",
    [
        None,
        {},
        {"selection": None},
        _event(),
        _event({"x": None, "y": 1}),
        _event({"y": 0.2}),
        _event({"x": "nan", "y": 0.1}),
        _event({"x": "left", "y": 0.1}),
    ],
)
def test_a_click_without_a_point_changes_nothing(event):
    assert paint.apply_click([(0, 0.5, 0.5)], event, "Add", "A") == ([(0, 0.5, 0.5)], None)


def test_a_lecture_link_can_hide_the_switch_and_keep_the_points():
    at = open_link({"paint": paint.encode(TWO_CLUSTERS), "hide": "paint"}, page="regions")
    assert_clean(at)
    assert not at.toggle or all(t.label != "Paint your points" for t in at.toggle)
    assert at.session_state["paint_points"] == TWO_CLUSTERS
    assert metrics(at)["Accuracy, all test rows"] == "100.0%"
