"""Grafting step by step: a step's leaf and candidate region drawn on a regions figure.

A pure builder: it takes a one-panel decision-regions figure (`viz.decision_regions_figure`)
and the bounds a `ternary.graft.GraftTrace` gives for one step, and returns a new figure
with the leaf's region outlined and the ancestor's evidence region shaded over it.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.colors import class_color

__all__ = ["LEAF_COLOR", "graft_step_figure"]

#: the outline of the leaf a step considers (the tree diagram's highlight is the same red)
LEAF_COLOR = "#C0392B"


def _clip(low: float, high: float, axis_range) -> tuple[float, float]:
    """``(low, high]`` held to the axis' range (±inf are the plot's edges)."""
    lo, hi = float(axis_range[0]), float(axis_range[1])
    return max(float(low), lo), min(float(high), hi)


def graft_step_figure(
    fig: go.Figure,
    region: tuple[np.ndarray, np.ndarray] | None,
    leaf: tuple[np.ndarray, np.ndarray],
    *,
    region_class: int | None = None,
    accepted: bool = False,
    label: str | None = None,
) -> go.Figure:
    """``fig`` with one grafting step drawn on it: the leaf outlined, the candidate shaded.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        A one-panel regions figure whose axes have their ranges set (as
        `viz.decision_regions_figure` sets them); it is not changed.
    region : (low, high) pair of arrays of shape (2,), or None
        The step's candidate region, ``low < x ≤ high`` on the two plotted features
        (±inf where open): the evidence ancestor's rows that a cut would relabel.
        None for a step without a candidate.
    leaf : (low, high) pair of arrays of shape (2,)
        The region of the leaf the step considers.
    region_class : int, optional
        The candidate region's class code: its shading takes the class's colour.
    accepted : bool, default=False
        Whether the step grafts: a solid edge; a rejected candidate's is dashed.
    label : str, optional
        A short text written at the top of the candidate region.

    Returns
    -------
    plotly.graph_objects.Figure
        A new figure with the shapes added.

    Examples
    --------
    >>> import numpy as np
    >>> import plotly.graph_objects as go
    >>> base = go.Figure(layout=dict(xaxis=dict(range=[0, 10]), yaxis=dict(range=[0, 10])))
    >>> inf = np.inf
    >>> fig = graft_step_figure(base, (np.array([-inf, -inf]), np.array([inf, 3.0])),
    ...                         (np.array([-inf, 6.0]), np.array([2.0, inf])), region_class=0)
    >>> [(s.x0, s.x1, s.y0, s.y1) for s in fig.layout.shapes]
    [(0.0, 10.0, 0.0, 3.0), (0.0, 2.0, 6.0, 10.0)]
    """
    out = go.Figure(fig)
    xr, yr = out.layout.xaxis.range, out.layout.yaxis.range
    if xr is None or yr is None:
        raise ValueError("graft_step_figure needs a figure whose axes have their ranges set.")
    if region is not None:
        (x0, x1), (y0, y1) = (_clip(region[0][j], region[1][j], r) for j, r in ((0, xr), (1, yr)))
        color = "#555555" if region_class is None else class_color(int(region_class))
        out.add_shape(
            type="rect",
            x0=x0,
            x1=x1,
            y0=y0,
            y1=y1,
            line=dict(color=color, width=3, dash="solid" if accepted else "dash"),
            fillcolor=color,
            opacity=0.35,
            layer="above",
        )
        if label:
            out.add_annotation(
                x=(x0 + x1) / 2,
                y=y1,
                text=label,
                showarrow=False,
                yanchor="top",
                bgcolor="rgba(255,255,255,0.85)",
                bordercolor=color,
                font=dict(size=13),
            )
    (x0, x1), (y0, y1) = (_clip(leaf[0][j], leaf[1][j], r) for j, r in ((0, xr), (1, yr)))
    out.add_shape(
        type="rect",
        x0=x0,
        x1=x1,
        y0=y0,
        y1=y1,
        line=dict(color=LEAF_COLOR, width=4),
        fillcolor="rgba(0,0,0,0)",
        layer="above",
    )
    return out
