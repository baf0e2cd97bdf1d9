"""The decision-regions figure as viz.regions built it before issue 32: plotly objects.

Kept here only as the reference `test_regions_dict.py` compares the plain-dict builder
against (`fig.to_dict()` equal, exactly), setting by setting. It draws with the same
private helpers of `viz.regions` (grid, background image, rectangles, input checks), so
what it pins down is the assembly: traces, layout, subplot grid and template. Changed on
purpose once since (issue 32): 13 px tick labels and the title below plotly's toolbar
(`viz.chrome`), as in the builder.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from viz import regions as R
from viz.chrome import readable_ticks, title_below_toolbar
from viz.colors import class_color
from viz.labels import plain_text


def _hatch_trace(rectangles, *, showlegend):
    xs, ys = R._rectangle_path(rectangles)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        fill="toself",
        fillcolor="rgba(0, 0, 0, 0)",
        fillpattern=R._HATCH,
        line=dict(width=0, color="rgba(0, 0, 0, 0)"),
        hoverinfo="skip",
        name=R.UNCERTAIN_NAME,
        legendgroup="uncertain",
        showlegend=showlegend,
    )


def _point_traces(X2, y_codes, class_names, *, showlegend):
    traces = []
    for k, name in enumerate(class_names):
        sel = y_codes == k
        if not sel.any():
            continue
        scatter = go.Scattergl if X2.shape[0] > R._WEBGL_POINTS else go.Scatter
        traces.append(
            scatter(
                x=X2[sel, 0],
                y=X2[sel, 1],
                mode="markers",
                name=f"class {plain_text(name)}",
                legendgroup=f"class{k}",
                showlegend=showlegend,
                marker=dict(color=class_color(k), size=6, line=dict(color="#222222", width=0.8)),
                customdata=np.flatnonzero(sel),
                hovertemplate=f"class {plain_text(name)}<br>(%{{x:.4g}}, %{{y:.4g}})"
                "<extra></extra>",
            )
        )
    return traces


def _panel_layers(fig, panel, xs, ys, n_classes, *, where, hatch_legend):
    suffix = "" if where.get("col", 1) == 1 else str(where["col"])
    fig.add_layout_image(R._background(panel["proba"], xs, ys, n_classes, axis_suffix=suffix))
    verdict = panel["verdict"]
    if verdict is None:
        return False
    mask = (verdict == 0).reshape(len(ys), len(xs))
    rects = R.uncertain_rectangles(R._edges(xs), R._edges(ys), mask)
    if not rects:
        return False
    fig.add_trace(_hatch_trace(rects, showlegend=hatch_legend), **where)
    return True


def _changed_trace(proba, reference_proba, xs, ys):
    changed = np.argmax(proba, axis=1) != np.argmax(reference_proba, axis=1)
    rects = R.uncertain_rectangles(R._edges(xs), R._edges(ys), changed.reshape(len(ys), len(xs)))
    if not rects:
        return None
    px, py = R._rectangle_path(rects)
    return go.Scatter(
        x=px,
        y=py,
        mode="lines",
        line=dict(color="#111111", width=2),
        hoverinfo="skip",
        name=R.CHANGED_NAME,
    )


def _layout(fig, xs, ys, feature_names, *, title, height, two_panels):
    x_edges, y_edges = R._edges(xs), R._edges(ys)
    fig.update_xaxes(
        range=[float(x_edges[0]), float(x_edges[-1])],
        title_text=feature_names[0],
        constrain="domain",
        showgrid=False,
        zeroline=False,
    )
    fig.update_yaxes(
        range=[float(y_edges[0]), float(y_edges[-1])],
        constrain="domain",
        showgrid=False,
        zeroline=False,
    )
    if two_panels:
        fig.update_yaxes(title_text=feature_names[1], row=1, col=1)
    else:
        fig.update_yaxes(title_text=feature_names[1])
    # issue 32, on purpose: tick labels of 13 px and the title below plotly's toolbar
    readable_ticks(fig)
    fig.update_layout(
        title=title_below_toolbar(dict(text=title)),
        height=int(height),
        template="plotly_white",
        legend=dict(
            orientation="h",
            yref="container",
            yanchor="bottom",
            y=0,
            xanchor="left",
            x=0,
            font=dict(size=13),
        ),
        margin=dict(l=60, r=20, t=70, b=110),
    )


def reference_figure(
    X2,
    y,
    grid,
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
):
    """`viz.decision_regions_figure` as it was built before (same arguments)."""
    X2, y, classes, class_names, feature_names, y_codes = R._check_inputs(
        X2, y, classes, feature_names, class_names
    )
    xs, ys = np.asarray(grid.xs, dtype=np.float64), np.asarray(grid.ys, dtype=np.float64)
    proba = R._grid_array("proba", proba, grid, len(classes))
    verdict = R._grid_array("verdict", verdict, grid)
    two = cart_proba is not None
    acc, rate = scores if scores is not None else (None, None)
    panels = [dict(proba=proba, verdict=verdict)]
    if two:
        panels.insert(0, dict(proba=np.asarray(cart_proba), verdict=None))
        fig = make_subplots(
            rows=1,
            cols=2,
            shared_xaxes=True,
            shared_yaxes=True,
            horizontal_spacing=0.04,
            subplot_titles=(
                f"{panel_names[0]} — accuracy {100 * cart_scores[0]:.1f}%",
                f"{panel_names[1]} — " + R._describe(acc, rate, verdict is not None),
            ),
        )
    else:
        fig = go.Figure()
    if reference_proba is not None:
        outline = _changed_trace(proba, np.asarray(reference_proba), xs, ys)
        if outline is not None:
            fig.add_trace(outline, **(dict(row=1, col=2) if two else {}))
    hatch_legend = True
    for col, panel in enumerate(panels, start=1):
        where = dict(row=1, col=col) if two else {}
        if _panel_layers(
            fig, panel, xs, ys, len(class_names), where=where, hatch_legend=hatch_legend
        ):
            hatch_legend = False
        for trace in _point_traces(X2, y_codes, class_names, showlegend=(col == len(panels))):
            fig.add_trace(trace, **where)
    if title is None:
        title = (
            "Decision regions"
            if two
            else f"{panel_names[1]} — " + R._describe(acc, rate, verdict is not None)
        )
    _layout(fig, xs, ys, feature_names, title=title, height=height, two_panels=two)
    return fig
