"""Decision-region figure: the hatching is the verdict, cell for cell.

The figure is drawn from arrays (`viz.decision_regions_figure`); the tests that
start from a fitted model go through `appkit.answers.regions_figure`, the one
place that asks the model for them, and check the drawing against the model's
own answers on an independently rebuilt grid.
"""

import base64
import struct
import warnings
import zlib

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.datasets import make_blobs, make_moons
from sklearn.tree import DecisionTreeClassifier

from appkit.answers import regions_figure
from ternary import TernaryTreeClassifier
from viz.regions import (
    UNCERTAIN_NAME,
    RegionGrid,
    decision_regions_figure,
    png_bytes,
    tint_palette,
    uncertain_rectangles,
)

RES = 60


@pytest.fixture(scope="module")
def moons():
    return make_moons(400, noise=0.3, random_state=0)


def _independent_grid(X, resolution, padding=0.05):
    """The documented grid, rebuilt here: evenly spaced over the padded data range."""
    axes = []
    for j in range(2):
        lo, hi = X[:, j].min(), X[:, j].max()
        span = hi - lo
        axes.append(np.linspace(lo - padding * span, hi + padding * span, resolution))
    xs, ys = axes
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


def _decode_png(data: bytes) -> np.ndarray:
    """An RGB PNG (8-bit, filter 0 rows, as `png_bytes` writes) decoded independently."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, payload = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + payload)
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", payload[:10])
            assert (depth, colour) == (8, 2)
            size = (height, width)
        elif kind == b"IDAT":
            idat += payload
        pos += 12 + length
    height, width = size
    rows = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, 1 + 3 * width)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, 3)


def _background_cells(image, resolution):
    """The background image of a panel as one RGB per grid cell, row i = ys[i]."""
    assert image.source.startswith("data:image/png;base64,")
    rgb = _decode_png(base64.b64decode(image.source.split(",", 1)[1]))
    step = rgb.shape[0] // resolution
    assert rgb.shape[:2] == (resolution * step, resolution * step)
    return rgb[::step, ::step][::-1]  # image row 0 is the top, the largest y


def _cell_classes(cells, n_classes):
    """Predicted class of each cell, read back from its colour through the palette."""
    palette = tint_palette(n_classes).astype(int)
    match = (cells[:, :, None, :].astype(int) == palette[None, None]).all(axis=-1)
    assert (match.sum(axis=-1) == 1).all()  # every cell has exactly one palette colour
    return np.argmax(match, axis=-1) // (len(palette) // n_classes)


def test_png_bytes_round_trip():
    rgb = np.random.RandomState(0).randint(0, 256, size=(5, 7, 3)).astype(np.uint8)
    np.testing.assert_array_equal(_decode_png(png_bytes(rgb)), rgb)


def _hatched(fig):
    return [
        t
        for t in fig.data
        if t.type == "scatter" and t.fillpattern is not None and t.fillpattern.shape
    ]


def _rectangles_from_trace(trace):
    xs, ys = list(trace.x), list(trace.y)
    rects, cur_x, cur_y = [], [], []
    for x, y in zip(xs + [None], ys + [None], strict=True):
        if x is None:
            if cur_x:
                rects.append((min(cur_x), max(cur_x), min(cur_y), max(cur_y)))
                assert len(cur_x) == 5 and cur_x[0] == cur_x[-1] and cur_y[0] == cur_y[-1]
            cur_x, cur_y = [], []
        else:
            cur_x.append(x)
            cur_y.append(y)
    return rects


def _covered_cells(rects, xs, ys):
    """How many rectangles contain each grid point (as an (n_y, n_x) count)."""
    cover = np.zeros((len(ys), len(xs)), dtype=int)
    for x0, x1, y0, y1 in rects:
        cols = (xs > x0) & (xs < x1)
        rows = (ys > y0) & (ys < y1)
        cover[np.ix_(rows, cols)] += 1
    return cover


@pytest.mark.parametrize(
    "method,routing",
    [
        ("quality_plateau", "probabilistic"),
        ("margin", "hard_middle"),
        ("node_bootstrap", "deferred"),
        ("gain_ratio", "probabilistic"),
    ],
)
def test_hatched_region_is_exactly_the_uncertain_grid_cells(moons, method, routing):
    X, y = moons
    model = TernaryTreeClassifier(
        delta_method=method, routing=routing, max_depth=3, random_state=0
    ).fit(X, y)
    fig = regions_figure(model, X, y, resolution=RES)
    xs, ys, grid = _independent_grid(X, RES)
    uncertain = (model.predict_verdict(grid) == 0).reshape(RES, RES)
    assert uncertain.any() and not uncertain.all()  # the test must be able to fail both ways
    hatched = _hatched(fig)
    assert len(hatched) == 1
    assert hatched[0].fillpattern.shape == "/"
    assert hatched[0].fill == "toself"
    assert hatched[0].name == UNCERTAIN_NAME
    cover = _covered_cells(_rectangles_from_trace(hatched[0]), xs, ys)
    assert cover.max() == 1  # rectangles never overlap
    np.testing.assert_array_equal(cover == 1, uncertain)


def test_background_colours_every_grid_point_by_the_predicted_class(moons):
    X, y = moons
    model = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=RES)
    assert not [t for t in fig.data if t.type == "heatmap"]  # one image, not a heatmap
    (image,) = fig.layout.images
    xs, ys, grid = _independent_grid(X, RES)
    # the image spans exactly the grid's cells: half a step beyond the first and last centre
    half_x, half_y = (xs[1] - xs[0]) / 2, (ys[1] - ys[0]) / 2
    assert (image.xref, image.yref, image.sizing, image.layer) == ("x", "y", "stretch", "below")
    assert (image.xanchor, image.yanchor) == ("left", "top")
    assert image.x == pytest.approx(xs[0] - half_x) and image.y == pytest.approx(ys[-1] + half_y)
    assert image.sizex == pytest.approx(xs[-1] - xs[0] + 2 * half_x)
    assert image.sizey == pytest.approx(ys[-1] - ys[0] + 2 * half_y)
    cells = _background_cells(image, RES)
    predicted = model.predict(grid).reshape(RES, RES)
    np.testing.assert_array_equal(_cell_classes(cells, model.n_classes_), predicted)
    # stronger tint where the tree is surer: within a class, each level is darker
    palette = tint_palette(model.n_classes_).astype(int).sum(axis=1).reshape(model.n_classes_, -1)
    assert (np.diff(palette, axis=1) < 0).all()


def test_no_hatching_without_a_zone(moons):
    X, y = moons
    model = TernaryTreeClassifier(delta_method="none", max_depth=3).fit(X, y)
    fig = regions_figure(model, X, y, resolution=RES)
    assert _hatched(fig) == []
    assert "boundary-uncertain 0.0%" in fig.layout.title.text


def test_plain_sklearn_model_gets_regions_without_hatching(moons):
    X, y = moons
    model = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=RES)
    assert _hatched(fig) == []
    (image,) = fig.layout.images
    _, _, grid = _independent_grid(X, RES)
    np.testing.assert_array_equal(
        _cell_classes(_background_cells(image, RES), 2), model.predict(grid).reshape(RES, RES)
    )


def test_cart_panel_on_the_left_without_hatching(moons):
    X, y = moons
    model = TernaryTreeClassifier(delta_method="quality_plateau", max_depth=3, random_state=0).fit(
        X, y
    )
    cart = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=RES, cart_model=cart)
    images = fig.layout.images
    assert [(i.xref, i.yref) for i in images] == [("x", "y"), ("x2", "y2")]
    assert all(t.xaxis == "x2" for t in _hatched(fig))
    assert list(fig.layout.xaxis.range) == list(fig.layout.xaxis2.range)
    assert list(fig.layout.yaxis.range) == list(fig.layout.yaxis2.range)
    # CART's background is CART's prediction, the right panel the ternary tree's
    _, _, grid = _independent_grid(X, RES)
    np.testing.assert_array_equal(
        _cell_classes(_background_cells(images[0], RES), 2), cart.predict(grid).reshape(RES, RES)
    )
    np.testing.assert_array_equal(
        _cell_classes(_background_cells(images[1], RES), 2), model.predict(grid).reshape(RES, RES)
    )


def test_title_reports_decided_accuracy_and_uncertain_rate(moons):
    X, y = moons
    model = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=20)
    pred, verdict = model.predict(X), model.predict_verdict(X)
    decided = verdict == 1
    acc = np.mean(pred[decided] == y[decided])
    rate = np.mean(~decided)
    assert f"{100 * acc:.1f}%" in fig.layout.title.text
    assert f"{100 * rate:.1f}%" in fig.layout.title.text
    assert regions_figure(model, X, y, resolution=20, title="mine").layout.title.text == "mine"


def test_legend_has_each_class_and_the_hatched_zone():
    X, y = make_blobs(300, centers=3, cluster_std=2.5, random_state=1)
    model = TernaryTreeClassifier(delta_method="margin", max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=40, class_names=["a", "b", "c"])
    legend = [t.name for t in fig.data if t.showlegend is not False and t.type == "scatter"]
    assert legend == [UNCERTAIN_NAME, "class a", "class b", "class c"]
    points = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"]
    assert sum(len(t.x) for t in points) == len(X)
    # a class's points have that class's colour, and differ between classes
    assert len({t.marker.color for t in points}) == 3


def test_dataframe_input_uses_column_names_and_raises_no_feature_name_warning():
    X, y = make_moons(200, noise=0.3, random_state=2)
    frame = pd.DataFrame(X, columns=["length", "width"])
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(frame, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = regions_figure(model, frame, y, resolution=20)
    assert fig.layout.xaxis.title.text == "length"
    assert fig.layout.yaxis.title.text == "width"


def test_wrong_shapes_are_rejected(moons):
    X, y = moons
    model = TernaryTreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="2 columns"):
        regions_figure(model, np.column_stack([X, X[:, 0]]), y)
    with pytest.raises(ValueError, match="resolution"):
        regions_figure(model, X, y, resolution=1)
    with pytest.raises(ValueError, match="class_names"):
        regions_figure(model, X, y, class_names=["only one"])


@settings(max_examples=40, deadline=None)
@given(arrays(bool, st.tuples(st.integers(1, 12), st.integers(1, 12))))
def test_rectangles_cover_exactly_the_true_cells(mask):
    n_y, n_x = mask.shape
    x_edges = np.cumsum(np.r_[0.0, np.linspace(0.5, 1.5, n_x)])  # uneven widths
    y_edges = np.arange(n_y + 1, dtype=float) * 0.7
    rects = uncertain_rectangles(x_edges, y_edges, mask)
    centres_x = (x_edges[:-1] + x_edges[1:]) / 2
    centres_y = (y_edges[:-1] + y_edges[1:]) / 2
    cover = _covered_cells(rects, centres_x, centres_y)
    assert cover.max(initial=0) <= 1
    np.testing.assert_array_equal(cover == 1, mask)
    # every rectangle lies on cell edges
    for x0, x1, y0, y1 in rects:
        assert x0 in x_edges and x1 in x_edges and y0 in y_edges and y1 in y_edges


def test_rectangles_merge_a_vertical_band_into_one():
    mask = np.zeros((10, 8), dtype=bool)
    mask[:, 3:5] = True
    rects = uncertain_rectangles(np.arange(9.0), np.arange(11.0), mask)
    assert rects == [(3.0, 5.0, 0.0, 10.0)]


def test_rectangles_reject_mismatched_edges():
    with pytest.raises(ValueError, match="edges"):
        uncertain_rectangles(np.arange(3.0), np.arange(3.0), np.zeros((2, 3), dtype=bool))


def test_many_points_switch_to_webgl_and_all_are_drawn():
    X, y = make_moons(12_000, noise=0.3, random_state=0)
    model = TernaryTreeClassifier(delta_method="gain_ratio", max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(model, X, y, resolution=30)
    points = [t for t in fig.data if t.type == "scattergl"]
    assert len(points) == 2 and sum(len(t.x) for t in points) == len(X)
    assert len(_hatched(fig)) == 1  # the hatching stays an SVG scatter with a pattern


def test_string_labels_and_unknown_labels():
    X, y = make_moons(200, noise=0.3, random_state=0)
    labels = np.array(["left", "right"])[y]
    model = TernaryTreeClassifier(max_depth=2, random_state=0).fit(X, labels)
    fig = regions_figure(model, X, labels, resolution=20)
    points = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"]
    assert [t.name for t in points] == ["class left", "class right"]
    assert [len(t.x) for t in points] == [
        int(np.sum(labels == "left")),
        int(np.sum(labels == "right")),
    ]
    # a label the model never saw is not drawn as any class
    odd = labels.copy()
    odd[:5] = "zzz"
    fig = regions_figure(model, X, odd, resolution=20)
    assert sum(len(t.x) for t in fig.data if t.type == "scatter" and t.mode == "markers") == 195


def test_cells_relabelled_against_a_reference_are_outlined_exactly(moons):
    from viz.regions import CHANGED_NAME

    X, y = moons
    cart = TernaryTreeClassifier(delta_method="none", max_depth=3, random_state=0).fit(X, y)
    grafted = TernaryTreeClassifier(
        delta_method="none", max_depth=3, graft="all", graft_alpha=0.2, random_state=0
    ).fit(X, y)
    fig = regions_figure(grafted, X, y, resolution=RES, changed_from=cart)
    xs, ys, grid = _independent_grid(X, RES)
    changed = (grafted.predict(grid) != cart.predict(grid)).reshape(RES, RES)
    assert changed.any() and not changed.all()
    (outline,) = [t for t in fig.data if t.name == CHANGED_NAME]
    assert outline.fill is None and outline.mode == "lines"
    cover = _covered_cells(_rectangles_from_trace(outline), xs, ys)
    np.testing.assert_array_equal(cover == 1, changed)
    assert not [
        t for t in regions_figure(cart, X, y, changed_from=cart).data if t.name == CHANGED_NAME
    ]


def test_a_forest_is_hatched_exactly_where_its_trees_vote_the_row_undecided(moons):
    from ternary import TernaryForestClassifier

    X, y = moons
    forest = TernaryForestClassifier(n_estimators=5, max_depth=3, random_state=0).fit(X, y)
    fig = regions_figure(forest, X, y, resolution=RES, panel_names=("A", "B"))
    xs, ys, grid = _independent_grid(X, RES)
    uncertain = (forest.predict_verdict(grid) == 0).reshape(RES, RES)
    assert uncertain.any() and not uncertain.all()
    (hatched,) = _hatched(fig)
    cover = _covered_cells(_rectangles_from_trace(hatched), xs, ys)
    np.testing.assert_array_equal(cover == 1, uncertain)
    assert fig.layout.title.text.startswith("B — decided accuracy")


# ----------------------------------------------------------------------------- from arrays alone
@st.composite
def grid_answers(draw):
    """A small uneven grid with arbitrary probabilities, verdicts and reference classes."""
    n_x, n_y, k = draw(st.integers(2, 7)), draw(st.integers(2, 7)), draw(st.integers(2, 4))
    xs = np.cumsum(draw(arrays(float, n_x, elements=st.floats(0.1, 2.0))))
    ys = np.cumsum(draw(arrays(float, n_y, elements=st.floats(0.1, 2.0))))
    raw = draw(arrays(float, (n_x * n_y, k), elements=st.floats(0.01, 1.0)))
    verdict = draw(arrays(np.int8, n_x * n_y, elements=st.integers(0, 1)))
    reference = draw(arrays(float, (n_x * n_y, k), elements=st.floats(0.01, 1.0)))
    return RegionGrid(xs, ys), raw / raw.sum(axis=1, keepdims=True), verdict, reference


@settings(max_examples=40, deadline=None)
@given(grid_answers())
def test_arrays_alone_draw_the_given_classes_hatching_and_outline(answers):
    from viz.regions import CHANGED_NAME

    grid, proba, verdict, reference = answers
    k = proba.shape[1]
    X2 = grid.points[:: max(1, len(grid.points) // 5)]
    y = np.arange(len(X2)) % k
    fig = decision_regions_figure(
        X2, y, grid, classes=np.arange(k), proba=proba, verdict=verdict,
        reference_proba=reference, scores=(0.5, 0.25),
    )  # fmt: skip
    n_y, n_x = grid.shape
    (image,) = fig.layout.images
    rgb = _decode_png(base64.b64decode(image.source.split(",", 1)[1]))
    step = rgb.shape[0] // n_y
    cells = rgb[::step, ::step][::-1]
    expected = np.argmax(proba, axis=1).reshape(n_y, n_x)
    np.testing.assert_array_equal(_cell_classes(cells, k), expected)
    hatched = _hatched(fig)
    if (verdict == 0).any():
        cover = _covered_cells(_rectangles_from_trace(hatched[0]), grid.xs, grid.ys)
        np.testing.assert_array_equal(cover == 1, (verdict == 0).reshape(n_y, n_x))
    else:
        assert hatched == []
    changed = (np.argmax(proba, axis=1) != np.argmax(reference, axis=1)).reshape(n_y, n_x)
    outline = [t for t in fig.data if t.name == CHANGED_NAME]
    if changed.any():
        cover = _covered_cells(_rectangles_from_trace(outline[0]), grid.xs, grid.ys)
        np.testing.assert_array_equal(cover == 1, changed)
    else:
        assert outline == []
    title = "Ternary tree — decided accuracy 50.0%, boundary-uncertain 25.0%"
    assert fig.layout.title.text == title


def test_grid_points_follow_the_documented_order_and_span_the_data(moons):
    X, _ = moons
    grid = RegionGrid.around(X, 7, padding=0.1)
    xs, ys, points = _independent_grid(X, 7, padding=0.1)
    np.testing.assert_allclose(grid.xs, xs)
    np.testing.assert_allclose(grid.ys, ys)
    np.testing.assert_allclose(grid.points, points)
    assert grid.shape == (7, 7)
    assert tuple(grid.points[3 * 7 + 2]) == (grid.xs[2], grid.ys[3])


def test_arrays_of_the_wrong_shape_or_missing_scores_are_refused_with_the_fix():
    grid = RegionGrid(np.arange(3.0), np.arange(2.0))
    X2, y, classes = np.zeros((2, 2)), np.array([0, 1]), np.array([0, 1])
    proba = np.full((6, 2), 0.5)
    with pytest.raises(ValueError, match=r"proba must have shape \(6, 2\).*grid.points"):
        decision_regions_figure(X2, y, grid, classes=classes, proba=proba[:5], title="t")
    with pytest.raises(ValueError, match=r"verdict must have shape \(6,\)"):
        decision_regions_figure(
            X2, y, grid, classes=classes, proba=proba, verdict=np.ones(4), title="t"
        )
    with pytest.raises(ValueError, match="scores"):
        decision_regions_figure(X2, y, grid, classes=classes, proba=proba)
    with pytest.raises(ValueError, match="cart_scores"):
        decision_regions_figure(
            X2, y, grid, classes=classes, proba=proba, cart_proba=proba, scores=(1.0, 0.0)
        )
    titled = decision_regions_figure(X2, y, grid, classes=classes, proba=proba, title="mine")
    assert titled.layout.title.text == "mine" and _hatched(titled) == []
