"""The canvas a teacher paints points on: the painted points over an invisible click grid.

Plotly reports a click only on a point, never on an empty spot, so the canvas is
covered by a dense grid of transparent markers: a click anywhere selects the grid
point under the cursor, whose coordinates are where the new point goes.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.chrome import readable_ticks
from viz.colors import class_color

__all__ = ["GRID_NAME", "canvas_figure"]

#: Name of the invisible click-grid trace (the page tells its clicks from a painted point's).
GRID_NAME = "click grid"


def canvas_figure(points, class_names, *, bounds=(0.0, 1.0), grid=60, height=440) -> go.Figure:
    """The painting canvas: ``points`` drawn by class over a ``grid`` × ``grid`` click grid.

    Parameters
    ----------
    points : sequence of (int, float, float)
        Painted points as (class index into ``class_names``, x, y).
    class_names : sequence of str
        The names the class indices refer to.
    bounds : (float, float)
        The canvas's range on both axes.
    grid : int
        Grid points along each axis.
    height : int
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        Trace 0 is the click grid; then one trace per painted class, coloured as
        the decision-regions figure colours it (by rank among the painted classes).
    """
    lo, hi = bounds
    ticks = np.round(np.linspace(lo, hi, grid), 3)
    gx, gy = np.meshgrid(ticks, ticks)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=gx.ravel(),
            y=gy.ravel(),
            mode="markers",
            name=GRID_NAME,
            showlegend=False,
            # transparent but hoverable: a click anywhere lands on the nearest grid point.
            # Small: plotly counts every point whose marker covers the mouse as equally near,
            # and on a narrow canvas 9 px markers (4 px apart) sent clicks one point off
            marker=dict(size=3, color="rgba(0,0,0,0)"),
            hoverinfo="none",
        )
    )
    codes = np.array([p[0] for p in points], dtype=int)
    xy = np.array([(p[1], p[2]) for p in points], dtype=float).reshape(-1, 2)
    for rank, k in enumerate(sorted(set(codes.tolist()))):
        sel = codes == k
        fig.add_trace(
            go.Scatter(
                x=xy[sel, 0],
                y=xy[sel, 1],
                mode="markers",
                name=f"class {class_names[k]}",
                marker=dict(color=class_color(rank), size=11, line=dict(color="#222222", width=1)),
                hovertemplate=f"class {class_names[k]}<br>(%{{x:.3f}}, %{{y:.3f}})<extra></extra>",
            )
        )
    pad = 0.03 * (hi - lo)
    axis = dict(range=[lo - pad, hi + pad], showgrid=True, zeroline=False, fixedrange=True)
    fig.update_layout(
        height=height,
        margin=dict(l=40, r=10, t=30, b=64),
        # a square canvas that keeps its range: the plot area shrinks, the axes do not grow
        xaxis=dict(axis, title="x1", constrain="domain"),
        yaxis=dict(axis, title="x2", scaleanchor="x", scaleratio=1, constrain="domain"),
        clickmode="event+select",
        dragmode=False,
        hovermode="closest",
        # below the axis, not beside: in a narrow column the legend took a third of the width
        legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom"),
        plot_bgcolor="#fafafa",
        title=dict(text=f"{len(points)} painted points", x=0.01, font=dict(size=14)),
    )
    readable_ticks(fig)
    return fig
