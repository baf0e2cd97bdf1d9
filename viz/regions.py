"""Decision regions of a 2-D model with the boundary-uncertain zone hatched (Fig. 1).

Every grid cell is coloured by its predicted class (lighter where the blended
probability is low), sent to the browser as one PNG per panel; the cells whose
verdict is 0 are covered by hatched rectangles built exactly from the grid, so
the hatching is the verdict, cell for cell, not a smoothed contour.

The figure is drawn from arrays: the caller lays a `RegionGrid` over the points,
asks its model for the probabilities and verdicts of ``grid.points`` (the app
does so in `appkit.answers`) and passes them in; nothing here calls a model.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from viz.chrome import readable_ticks, title_below_toolbar
from viz.colors import class_color, tint
from viz.labels import plain_text

__all__ = [
    "BACKGROUND_NAME",
    "CHANGED_NAME",
    "UNCERTAIN_NAME",
    "RegionGrid",
    "decision_regions_figure",
    "grid_axes",
    "png_bytes",
    "tint_codes",
    "tint_palette",
    "uncertain_rectangles",
]

#: Legend name of the hatched overlay (the paper's wording).
UNCERTAIN_NAME = "boundary-uncertain (blended prediction)"
#: Legend name of the outline around cells whose label differs from a reference model.
CHANGED_NAME = "label changed by grafting"
#: Name of each panel's background image (one per panel, in ``layout.images``).
BACKGROUND_NAME = "predicted class"
#: Image pixels per grid cell along each axis.
_PIXELS_PER_CELL = 2
#: Confidence levels of the background tint: the colour gets stronger in steps
#: as the predicted class's probability rises from 1/K to 1.
_LEVELS = 4
_TINT_RANGE = (0.16, 0.48)
_WEBGL_POINTS = 5_000
_HATCH = dict(
    shape="/", fgcolor="rgba(20, 20, 20, 0.75)", bgcolor="rgba(0, 0, 0, 0)", size=7, solidity=0.18
)


def grid_axes(X2, resolution=300, padding=0.05):
    """The grid's x and y coordinates: ``resolution`` points spanning each column
    of ``X2`` widened by ``padding`` times its range on both sides.

    A constant column gets a unit-wide span so the grid never collapses.
    """
    X2 = np.asarray(X2, dtype=np.float64)
    axes = []
    for j in range(2):
        lo, hi = float(np.min(X2[:, j])), float(np.max(X2[:, j]))
        span = hi - lo
        if span <= 0:
            lo, hi, span = lo - 0.5, hi + 0.5, 1.0
        axes.append(np.linspace(lo - padding * span, hi + padding * span, int(resolution)))
    return axes[0], axes[1]


@dataclass(frozen=True, eq=False)
class RegionGrid:
    """The grid of a decision-regions figure: its cell centres along each axis.

    Every grid array the figure takes (probabilities, verdicts) has one row per
    point of `points`, in that order.

    >>> grid = RegionGrid(np.array([0.0, 1.0, 2.0]), np.array([5.0, 6.0]))
    >>> grid.points.tolist()
    [[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [0.0, 6.0], [1.0, 6.0], [2.0, 6.0]]
    """

    xs: np.ndarray
    ys: np.ndarray

    @classmethod
    def around(cls, X2, resolution=300, padding=0.05) -> RegionGrid:
        """``resolution`` points per axis spanning ``X2`` and a ``padding`` share of its range
        (`grid_axes`)."""
        if int(resolution) < 2:
            raise ValueError(f"resolution must be at least 2; got {resolution}.")
        X2 = np.asarray(X2, dtype=np.float64)
        if X2.ndim != 2 or X2.shape[1] != 2:
            raise ValueError(f"X2 must have exactly 2 columns; got shape {X2.shape}.")
        return cls(*grid_axes(X2, int(resolution), padding))

    @property
    def shape(self) -> tuple[int, int]:
        """``(len(ys), len(xs))``: row ``i`` of the grid is at ``ys[i]``."""
        return len(self.ys), len(self.xs)

    @property
    def points(self) -> np.ndarray:
        """Every grid point, shape ``(len(xs) * len(ys), 2)``; point ``i * len(xs) + j`` is
        ``(xs[j], ys[i])``."""
        gx, gy = np.meshgrid(self.xs, self.ys)  # row i = ys[i]
        return np.column_stack([gx.ravel(), gy.ravel()])


def _edges(centers):
    """Cell edges around evenly or unevenly spaced centres (half a step beyond the ends)."""
    centers = np.asarray(centers, dtype=np.float64)
    if centers.size == 1:
        return np.array([centers[0] - 0.5, centers[0] + 0.5])
    mid = (centers[:-1] + centers[1:]) / 2.0
    return np.concatenate(([2 * centers[0] - mid[0]], mid, [2 * centers[-1] - mid[-1]]))


def uncertain_rectangles(x_edges, y_edges, mask) -> list[tuple[float, float, float, float]]:
    """Cover the True cells of ``mask`` exactly with axis-aligned rectangles.

    Parameters
    ----------
    x_edges : array of length ``n_x + 1``
    y_edges : array of length ``n_y + 1``
    mask : bool array of shape ``(n_y, n_x)``; cell ``[i, j]`` spans
        ``[x_edges[j], x_edges[j+1]] × [y_edges[i], y_edges[i+1]]``

    Returns
    -------
    list of ``(x0, x1, y0, y1)``, pairwise disjoint, whose union is exactly the
    True cells. Runs of True cells in a row become one rectangle, and identical
    runs in consecutive rows are merged, which keeps the count small for zones
    that are bands along axis-parallel splits.
    """
    mask = np.asarray(mask, dtype=bool)
    x_edges = np.asarray(x_edges, dtype=np.float64)
    y_edges = np.asarray(y_edges, dtype=np.float64)
    n_y, n_x = mask.shape
    if x_edges.shape[0] != n_x + 1 or y_edges.shape[0] != n_y + 1:
        raise ValueError(
            f"Need {n_x + 1} x edges and {n_y + 1} y edges for a mask of shape {mask.shape}; "
            f"got {x_edges.shape[0]} and {y_edges.shape[0]}."
        )
    # run starts/ends per row from the sign changes of a zero-padded mask
    padded = np.zeros((n_y, n_x + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    change = np.diff(padded, axis=1)
    rows_s, starts = np.nonzero(change == 1)
    rows_e, ends = np.nonzero(change == -1)  # exclusive end column
    # nonzero scans row-major, so starts and ends pair up in order
    rectangles = []
    open_runs: dict[tuple[int, int], int] = {}  # (start, end) -> first row, for the previous row
    row_runs: dict[int, list[tuple[int, int]]] = {}
    for r, s, e in zip(rows_s.tolist(), starts.tolist(), ends.tolist(), strict=True):
        row_runs.setdefault(r, []).append((s, e))
    for r in range(n_y + 1):
        runs = set(row_runs.get(r, ()))
        still_open = {}
        for run, first in open_runs.items():
            if run in runs:
                still_open[run] = first
            else:
                s, e = run
                rectangles.append((x_edges[s], x_edges[e], y_edges[first], y_edges[r]))
        for run in runs:
            if run not in still_open:
                still_open[run] = r
        open_runs = still_open
    return [tuple(float(v) for v in rect) for rect in rectangles]


def _rectangle_path(rectangles):
    """x and y arrays drawing each rectangle as a closed polygon, split by None."""
    if not rectangles:
        return [], []
    rect = np.asarray(rectangles, dtype=object)
    x0, x1, y0, y1 = rect[:, 0], rect[:, 1], rect[:, 2], rect[:, 3]
    nones = np.full(len(rectangles), None, dtype=object)
    xs = np.stack([x0, x1, x1, x0, x0, nones], axis=1).ravel()
    ys = np.stack([y0, y0, y1, y1, y0, nones], axis=1).ravel()
    return xs[:-1].tolist(), ys[:-1].tolist()


def tint_codes(proba, n_classes):
    """Per row: ``predicted class × _LEVELS + confidence level`` (the background's colour bin).

    The predicted class's probability, from 1/K to 1, is cut into `_LEVELS`
    equal steps; the colour gets stronger with each step.
    """
    proba = np.asarray(proba, dtype=np.float64)
    pred = np.argmax(proba, axis=1)
    conf = proba[np.arange(proba.shape[0]), pred]
    floor = 1.0 / max(n_classes, 1)
    frac = np.clip((conf - floor) / max(1.0 - floor, 1e-12), 0.0, 1.0)
    level = np.minimum((frac * _LEVELS).astype(np.intp), _LEVELS - 1)
    return pred * _LEVELS + level


def tint_palette(n_classes) -> np.ndarray:
    """RGB colour of every bin of `tint_codes`, shape ``(n_classes * _LEVELS, 3)``, uint8."""
    colors = []
    for b in range(int(n_classes) * _LEVELS):
        k, lv = divmod(b, _LEVELS)
        strength = _TINT_RANGE[0] + (_TINT_RANGE[1] - _TINT_RANGE[0]) * lv / max(_LEVELS - 1, 1)
        hex_color = tint(class_color(k), strength).lstrip("#")
        colors.append([int(hex_color[i : i + 2], 16) for i in (0, 2, 4)])
    return np.asarray(colors, dtype=np.uint8)


def png_bytes(rgb) -> bytes:
    """A truecolour PNG of ``rgb`` (uint8, shape ``(height, width, 3)``, row 0 on top).

    Written with the standard library only: signature, IHDR, one zlib-compressed
    IDAT of the rows (each with filter byte 0), IEND.
    """
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    height, width, _ = rgb.shape
    rows = np.zeros((height, 1 + 3 * width), dtype=np.uint8)
    rows[:, 1:] = rgb.reshape(height, 3 * width)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        # level 1: the flat colour regions compress almost as well, three times faster
        + chunk(b"IDAT", zlib.compress(rows.tobytes(), 1))
        + chunk(b"IEND", b"")
    )


#: recent background images by their colour bins: a slider move redraws the baseline's
#: panel, and often the model's, with the same colours (issue 32: 20-40 ms each)
_IMAGES: OrderedDict[tuple, str] = OrderedDict()
_IMAGES_MAX = 64
_IMAGES_LOCK = threading.Lock()


def _image_source(codes, n_classes) -> str:
    """The PNG data URI of a grid of `tint_codes` (row ``i`` at ``ys[i]``), from a small
    cache keyed by the codes themselves, so a hit is exactly the image it would draw."""
    small = np.ascontiguousarray(codes, dtype=np.uint16 if n_classes * _LEVELS < 2**16 else None)
    key = (small.shape, small.dtype.str, int(n_classes), hashlib.blake2b(small).digest())
    with _IMAGES_LOCK:
        source = _IMAGES.get(key)
        if source is not None:
            _IMAGES.move_to_end(key)
            return source
    rgb = tint_palette(n_classes)[codes[::-1]]  # image row 0 is the top: the largest y
    rgb = np.repeat(np.repeat(rgb, _PIXELS_PER_CELL, axis=0), _PIXELS_PER_CELL, axis=1)
    source = "data:image/png;base64," + base64.b64encode(png_bytes(rgb)).decode("ascii")
    with _IMAGES_LOCK:
        _IMAGES[key] = source
        while len(_IMAGES) > _IMAGES_MAX:
            _IMAGES.popitem(last=False)
    return source


def _background(proba, xs, ys, n_classes, *, axis_suffix=""):
    """The background as one layout image: each grid cell coloured by its predicted class.

    One PNG replaces a resolution² heatmap: a few kilobytes instead of hundreds
    of JSON numbers per row, and one image for the browser to draw. Each cell
    becomes `_PIXELS_PER_CELL`² pixels so the browser's smoothing when it
    stretches the image stays inside a cell's edge.
    """
    codes = tint_codes(proba, n_classes).reshape(len(ys), len(xs))
    x_edges, y_edges = _edges(xs), _edges(ys)
    return dict(
        source=_image_source(codes, n_classes),
        xref="x" + axis_suffix,
        yref="y" + axis_suffix,
        x=float(x_edges[0]),
        y=float(y_edges[-1]),
        sizex=float(x_edges[-1] - x_edges[0]),
        sizey=float(y_edges[-1] - y_edges[0]),
        xanchor="left",
        yanchor="top",
        sizing="stretch",
        layer="below",
        name=BACKGROUND_NAME,
    )


def _hatch_trace(rectangles, *, showlegend, axes):
    """The hatched overlay as a plain trace dict (``axes``: its subplot's axis names)."""
    xs, ys = _rectangle_path(rectangles)
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        fill="toself",
        fillcolor="rgba(0, 0, 0, 0)",
        fillpattern=dict(_HATCH),
        line=dict(width=0, color="rgba(0, 0, 0, 0)"),
        hoverinfo="skip",
        name=UNCERTAIN_NAME,
        legendgroup="uncertain",
        showlegend=showlegend,
        **axes,
    )


def _point_traces(X2, y_codes, class_names, *, showlegend, axes):
    traces = []
    # WebGL keeps tens of thousands of points responsive in the browser
    kind = "scattergl" if X2.shape[0] > _WEBGL_POINTS else "scatter"
    for k, name in enumerate(class_names):
        sel = y_codes == k
        if not sel.any():
            continue
        traces.append(
            dict(
                type=kind,
                x=X2[sel, 0],
                y=X2[sel, 1],
                mode="markers",
                name=f"class {plain_text(name)}",
                legendgroup=f"class{k}",
                showlegend=showlegend,
                marker=dict(color=class_color(k), size=6, line=dict(color="#222222", width=0.8)),
                # the row's position in X2, so a click on the point names its row
                customdata=np.flatnonzero(sel),
                hovertemplate=f"class {plain_text(name)}<br>(%{{x:.4g}}, %{{y:.4g}})"
                "<extra></extra>",
                **axes,
            )
        )
    return traces


def _check_inputs(X2, y, classes, feature_names, class_names):
    """Validated ``(X2, y, classes, class_names, feature_names, y_codes)``."""
    if isinstance(X2, pd.DataFrame) and tuple(feature_names) == ("x1", "x2"):
        feature_names = tuple(str(c) for c in X2.columns)
    X2 = np.asarray(X2, dtype=np.float64)
    if X2.ndim != 2 or X2.shape[1] != 2:
        raise ValueError(f"X2 must have exactly 2 columns; got shape {X2.shape}.")
    y = np.asarray(y)
    classes = np.asarray(classes)
    if class_names is None:
        class_names = [str(c) for c in classes]
    if len(class_names) != len(classes):
        raise ValueError(f"class_names has {len(class_names)} names for {len(classes)} classes.")
    # a label the model never saw gets code -1 and is drawn as no class
    y_codes = np.searchsorted(classes, y)
    y_codes[(y_codes >= len(classes)) | (classes[np.minimum(y_codes, len(classes) - 1)] != y)] = -1
    # names from a user's file: plotly would render their tags, so they are escaped
    feature_names = tuple(plain_text(n) for n in feature_names)
    return X2, y, classes, list(class_names), feature_names, y_codes


def _grid_array(name, values, grid, n_classes=None):
    """``values`` as a float (probabilities) or verdict array with one row per grid point."""
    if values is None:
        return None
    values = np.asarray(values)
    n = grid.shape[0] * grid.shape[1]
    expected = (n,) if n_classes is None else (n, n_classes)
    if values.shape != expected:
        raise ValueError(
            f"{name} must have shape {expected}: one row per point of grid.points"
            f"{'' if n_classes is None else ', one column per class'}; got {values.shape}."
        )
    return values


def _describe(acc, rate, hatched):
    text = f"decided accuracy {100 * acc:.1f}%"
    return text + (f", boundary-uncertain {100 * rate:.1f}%" if hatched else "")


def _panel_layers(panel, xs, ys, n_classes, *, col, axes, hatch_legend):
    """One panel's background image and hatch trace (None without hatching)."""
    image = _background(panel["proba"], xs, ys, n_classes, axis_suffix="" if col == 1 else str(col))
    verdict = panel["verdict"]
    if verdict is None:
        return image, None
    mask = (verdict == 0).reshape(len(ys), len(xs))
    rects = uncertain_rectangles(_edges(xs), _edges(ys), mask)
    if not rects:
        return image, None
    return image, _hatch_trace(rects, showlegend=hatch_legend, axes=axes)


def _changed_trace(proba, reference_proba, xs, ys, *, axes):
    """Outlines around the grid cells whose predicted class differs from the reference's."""
    changed = np.argmax(proba, axis=1) != np.argmax(reference_proba, axis=1)
    rects = uncertain_rectangles(_edges(xs), _edges(ys), changed.reshape(len(ys), len(xs)))
    if not rects:
        return None
    px, py = _rectangle_path(rects)
    return dict(
        type="scatter",
        x=px,
        y=py,
        mode="lines",
        line=dict(color="#111111", width=2),
        hoverinfo="skip",
        name=CHANGED_NAME,
        **axes,
    )


#: the legend's text size in px outside presentation mode
_LEGEND_PX = 13
#: a trace's axes in the two-panel figure, by panel (plotly's ``add_trace(row=1, col=c)``)
_AXES = {1: dict(xaxis="x", yaxis="y"), 2: dict(xaxis="x2", yaxis="y2")}


@functools.lru_cache(maxsize=2)
def _skeleton(two: bool) -> dict:
    """What no setting changes, built once through plotly's own calls and validation.

    The subplot grid and its titles' places, the axes' style, the template, legend
    and margins; as a figure dict that also carries the subplot grid (so that
    ``add_trace(row=1, col=2)`` works on the figures made from it). Building these
    as plotly objects on every slider move cost about 80 % of a move (issue 32).
    """
    if two:
        # placeholder titles: make_subplots leaves out the annotation of an empty one
        fig = make_subplots(
            rows=1,
            cols=2,
            shared_xaxes=True,
            shared_yaxes=True,
            horizontal_spacing=0.04,
            subplot_titles=("left", "right"),
        )
    else:
        fig = go.Figure()
    # the background image covers the plot: grid lines would only stripe it
    fig.update_xaxes(constrain="domain", showgrid=False, zeroline=False)
    fig.update_yaxes(constrain="domain", showgrid=False, zeroline=False)
    readable_ticks(fig)
    fig.update_layout(
        template="plotly_white",
        title=title_below_toolbar({}),
        # at the figure's bottom edge (not under the plot area, which `constrain` may shrink,
        # leaving the x-axis title on the legend in a narrow panel)
        legend=dict(
            orientation="h",
            yref="container",
            yanchor="bottom",
            y=0,
            xanchor="left",
            x=0,
            font=dict(size=_LEGEND_PX),  # 13 px: plotly's 12 read small (issue 37)
        ),
        margin=dict(l=60, r=20, t=70, b=110),
    )
    return fig.__reduce__()[1][0]  # to_dict() with the subplot grid (what copy.copy uses)


def _layout(layout, xs, ys, feature_names, *, title, height, panel_titles):
    """The skeleton's ``layout`` dict completed with this figure's ranges and texts; the
    skeleton's own dicts are copied where they change, never edited."""
    x_edges, y_edges = _edges(xs), _edges(ys)
    layout = dict(layout)
    for key in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        edges = x_edges if key.startswith("x") else y_edges
        layout[key] = {**layout[key], "range": [float(edges[0]), float(edges[-1])]}
        if key.startswith("x"):
            layout[key]["title"] = {"text": feature_names[0]}
    layout["yaxis"]["title"] = {"text": feature_names[1]}  # the left panel's only
    if panel_titles:
        notes = layout["annotations"]
        layout["annotations"] = [{**n, "text": t} for n, t in zip(notes, panel_titles, strict=True)]
    layout["title"] = {**layout["title"], "text": title}
    layout["height"] = int(height)
    return layout


def _draw_panels(panels, X2, y_codes, class_names, xs, ys, *, two):
    """Each panel's background image, and its hatching and points; the hatch legend once."""
    images, traces, hatch_legend = [], [], True
    for col, panel in enumerate(panels, start=1):
        axes = _AXES[col] if two else {}
        image, hatch = _panel_layers(
            panel, xs, ys, len(class_names), col=col, axes=axes, hatch_legend=hatch_legend
        )
        images.append(image)
        if hatch is not None:
            traces.append(hatch)
            hatch_legend = False
        last = col == len(panels)
        traces += _point_traces(X2, y_codes, class_names, showlegend=last, axes=axes)
    return images, traces


def _assemble(two, traces, images, xs, ys, feature_names, **texts) -> go.Figure:
    """The figure: the cached skeleton completed by `_layout`, these traces and images."""
    skeleton = _skeleton(two)
    layout = _layout(skeleton["layout"], xs, ys, feature_names, **texts)
    layout["images"] = images
    spec = {**skeleton, "data": traces, "layout": layout}
    # every part was built validated once (the skeleton) or is a plain value of a known
    # attribute, and tests/viz/test_regions_dict.py holds the result equal to plotly's
    # validated build: validating again would cost most of a slider move
    return go.Figure(spec, _validate=False)


def decision_regions_figure(
    X2,
    y,
    grid: RegionGrid,
    *,
    classes,
    proba,
    verdict=None,
    feature_names=("x1", "x2"),
    class_names=None,
    cart_proba=None,
    title=None,
    height=520,
    scores=None,
    cart_scores=None,
    reference_proba=None,
    panel_names=("CART", "Ternary tree"),
) -> go.Figure:
    """Decision regions of a 2-feature model, boundary-uncertain cells hatched.

    Drawn from the model's answers on the grid, never from the model itself.

    Parameters
    ----------
    X2 : array-like of shape (n_samples, 2), the points to draw
    y : array-like of shape (n_samples,), their labels (in ``classes``)
    grid : RegionGrid, the cells (`RegionGrid.around` spans ``X2``)
    classes : array-like, the model's ``classes_`` (the columns of ``proba``)
    proba : array of shape (n_grid_points, n_classes)
        The model's (blended) probabilities at ``grid.points``
    verdict : array of shape (n_grid_points,), optional
        Its verdicts there (0 = boundary-uncertain, hatched); None draws no hatching
        (a classifier without verdicts)
    feature_names : pair of str, axis titles; when ``X2`` is a DataFrame and
        the default is left, its column names are used
    class_names : sequence of str, optional, names for ``classes``
    cart_proba : array of shape (n_grid_points, n_classes), optional
        A baseline's probabilities; when given the figure has two panels, the
        baseline (left, no hatching) and the model (right), same axes
    title : str, optional; by default from ``scores``
    height : int, figure height in pixels
    scores, cart_scores : pair ``(decided_accuracy, uncertain_rate)``
        The model's (and the baseline's) scores on ``X2``/``y``, for the titles;
        needed when a title is made from them (two panels, or no ``title``)
    reference_proba : array of shape (n_grid_points, n_classes), optional
        Another model's probabilities on the same classes: the cells where the
        model predicts another class are outlined (what grafting relabelled)
    panel_names : pair of str, the names in the titles of the baseline panel
        and of the model's (e.g. a forest without zones and a ternary forest)

    Returns
    -------
    plotly.graph_objects.Figure

    Notes
    -----
    Each grid point is the centre of a cell of the background image, and the
    hatched rectangles (`uncertain_rectangles`) cover exactly the cells whose
    verdict is 0.
    """
    X2, y, classes, class_names, feature_names, y_codes = _check_inputs(
        X2, y, classes, feature_names, class_names
    )
    xs, ys = np.asarray(grid.xs, dtype=np.float64), np.asarray(grid.ys, dtype=np.float64)
    proba = _grid_array("proba", proba, grid, len(classes))
    verdict = _grid_array("verdict", verdict, grid)
    two = cart_proba is not None
    if (two or title is None) and (scores is None or (two and cart_scores is None)):
        raise ValueError(
            "scores (and cart_scores with cart_proba) are needed for the panel titles: "
            "pass the models' (decided accuracy, uncertain rate) on X2/y, or a title."
        )
    acc, rate = scores if scores is not None else (None, None)
    panels = [dict(name="model", proba=proba, verdict=verdict)]
    panel_titles = ()
    if two:
        cart_proba = _grid_array("cart_proba", cart_proba, grid, len(classes))
        panels.insert(0, dict(name="CART", proba=cart_proba, verdict=None))
        panel_titles = (
            f"{panel_names[0]} — accuracy {100 * cart_scores[0]:.1f}%",
            f"{panel_names[1]} — " + _describe(acc, rate, verdict is not None),
        )
    traces = []
    if reference_proba is not None:
        reference = _grid_array("reference_proba", reference_proba, grid, len(classes))
        outline = _changed_trace(proba, reference, xs, ys, axes=_AXES[2] if two else {})
        if outline is not None:
            traces.append(outline)
    images, panel_traces = _draw_panels(panels, X2, y_codes, class_names, xs, ys, two=two)
    if title is None:
        title = (
            "Decision regions"
            if two
            else f"{panel_names[1]} — " + _describe(acc, rate, verdict is not None)
        )
    layout = dict(title=title, height=height, panel_titles=panel_titles)
    return _assemble(two, traces + panel_traces, images, xs, ys, feature_names, **layout)
