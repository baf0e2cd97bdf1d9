"""The split feature's distribution at every node of one row's path (dtreeviz's idea).

One small panel per split the row reaches: the node's training rows on its split
feature as a histogram stacked by class, θ as a line, the uncertainty zone
[θ−δ, θ+δ] shaded in the zone colour, and the explained row's value as a black
marker. A reader then sees why the row is flagged: its value sits among rows of
several classes, inside the shaded band.

Pure: the caller passes the rows (`PathNode`), the builder returns a figure.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from viz.chrome import readable_ticks, title_below_toolbar
from viz.colors import UNCERTAIN_COLOR, class_color
from viz.labels import format_number

__all__ = ["PathNode", "path_histograms", "path_strips_figure"]

#: bins of each node's histogram; few, so a bar stays wide enough to see on a projector
_BINS = 24
_PANEL_PX, _MARGIN_PX = 120, 70


@dataclass(frozen=True)
class PathNode:
    """What one panel shows: a split node the row reaches and its training rows.

    Attributes
    ----------
    node : int, the node id (as in the tree diagram)
    feature : str, the split feature's name
    threshold, delta : float, θ and the zone half-width δ
    values : ndarray of float, the split feature of the training rows reaching the node
    classes : ndarray of int, those rows' class codes
    x : float, the explained row's value of the split feature
    reach : float, the share of the row that reaches the node (1 unless a zone above forked it)
    """

    node: int
    feature: str
    threshold: float
    delta: float
    values: np.ndarray
    classes: np.ndarray
    x: float
    reach: float = 1.0


def path_histograms(step: PathNode, n_classes: int, bins: int = _BINS):
    """The bin edges and per-class counts of one node's panel.

    The edges span the node's rows and the row's own value, so the marker is never
    outside the panel.

    Parameters
    ----------
    step : PathNode
    n_classes : int, the number of class codes (counts has one row per code)
    bins : int, the number of bins

    Returns
    -------
    edges : ndarray of shape (bins + 1,)
    counts : ndarray of int of shape (n_classes, bins)

    Examples
    --------
    >>> import numpy as np
    >>> s = PathNode(0, "x", 0.5, 0.1, np.array([0.0, 0.2, 0.9, 1.0]), np.array([0, 0, 1, 1]), 0.4)
    >>> edges, counts = path_histograms(s, 2, bins=2)
    >>> edges.tolist(), counts.tolist()
    ([0.0, 0.5, 1.0], [[2, 0], [0, 2]])
    """
    values = np.asarray(step.values, dtype=float)
    finite = values[np.isfinite(values)]
    lo = min(step.x, float(finite.min())) if finite.size else step.x
    hi = max(step.x, float(finite.max())) if finite.size else step.x
    if hi <= lo:
        lo, hi = lo - 0.5, hi + 0.5
    edges = np.linspace(lo, hi, bins + 1)
    codes = np.asarray(step.classes, dtype=int)
    counts = np.zeros((n_classes, bins), dtype=int)
    for k in range(n_classes):
        counts[k], _ = np.histogram(values[(codes == k) & np.isfinite(values)], bins=edges)
    return edges, counts


def path_strips_figure(steps, class_names, *, title=None) -> go.Figure:
    """One histogram panel per split node of a row's path, θ and the zone marked.

    Parameters
    ----------
    steps : sequence of PathNode, root first
    class_names : sequence of str, indexed by class code
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
        One row of axes per step, titled "node i: feature (θ = …, δ = …)"; stacked
        bars per class, a shaded zone, a dashed θ line and a marker at the row's value.

    Examples
    --------
    >>> import numpy as np
    >>> s = PathNode(0, "x", 0.5, 0.1, np.array([0.0, 0.2, 0.9]), np.array([0, 0, 1]), 0.55)
    >>> fig = path_strips_figure([s], ["a", "b"])
    >>> [t.name for t in fig.data]
    ['a', 'b', 'this row']
    """
    steps = list(steps)
    if not steps:
        raise ValueError("steps is empty: the row reaches no split (the tree is a single leaf).")
    classes = [str(c) for c in class_names]
    titles = [
        f"node {s.node}: {s.feature}  (θ = {format_number(s.threshold)}, "
        f"δ = {format_number(s.delta)}"
        + (f", {100 * s.reach:.0f} % of the row)" if s.reach < 1.0 else ")")
        for s in steps
    ]
    fig = make_subplots(
        rows=len(steps), cols=1, subplot_titles=titles, vertical_spacing=0.55 / len(steps)
    )
    for i, step in enumerate(steps, start=1):
        edges, counts = path_histograms(step, len(classes))
        mids, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
        for k, name in enumerate(classes):
            fig.add_trace(
                go.Bar(
                    x=mids,
                    y=counts[k],
                    width=width,
                    name=name,
                    legendgroup=name,
                    showlegend=i == 1,
                    marker_color=class_color(k),
                    hovertemplate="%{y} rows<extra>" + name + "</extra>",
                ),
                row=i,
                col=1,
            )
        if step.delta > 0:
            fig.add_vrect(
                x0=step.threshold - step.delta,
                x1=step.threshold + step.delta,
                fillcolor=UNCERTAIN_COLOR,
                opacity=0.25,
                line_width=0,
                layer="below",  # under the bars, whose class colours stay true
                row=i,
                col=1,
            )
        fig.add_vline(x=step.threshold, line_dash="dash", line_color="#333333", row=i, col=1)
        top = max(int(counts.sum(axis=0).max()), 1)
        fig.add_trace(
            go.Scatter(
                x=[step.x],
                y=[top * 1.08],
                mode="markers",
                marker=dict(symbol="triangle-down", size=14, color="#111111"),
                name="this row",
                showlegend=i == 1,
                hovertemplate=f"this row: {format_number(step.x)}<extra></extra>",
            ),
            row=i,
            col=1,
        )
        fig.update_yaxes(title_text="rows", range=[0, top * 1.2], row=i, col=1)
    readable_ticks(fig)
    fig.update_layout(
        barmode="stack",
        bargap=0.05,
        height=_MARGIN_PX * 2 + _PANEL_PX * len(steps) + 40 * (len(steps) - 1),
        title=title_below_toolbar({"text": title}) if title else title,
        margin=dict(l=60, r=20, t=_MARGIN_PX if title else 40, b=40),
        legend=dict(orientation="v", x=1.02, xanchor="left", y=1, yanchor="top"),
        font=dict(size=13),
    )
    return fig
